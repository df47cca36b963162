//! Inputs shared by the benchmarks: generated, realistic-shaped candidates and bundles.

#![allow(dead_code)]

use std::fmt::Write;

const CATEGORIES: [&str; 8] = [
    "pdf",
    "devops",
    "finance",
    "travel",
    "content-creation",
    "audio",
    "coding",
    "education",
];
const WORDS: [&str; 12] = [
    "extracts",
    "tables",
    "summarizes",
    "meetings",
    "notes",
    "videos",
    "subtitles",
    "stocks",
    "recipes",
    "invoices",
    "slides",
    "emails",
];

/// `n` candidates as `{"candidates": [...]}`, deterministic (no randomness source needed).
pub fn candidates(n: usize) -> String {
    let mut s = String::with_capacity(n * 480 + 32);
    s.push_str("{\"candidates\": [");
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let cat = CATEGORIES[(x % 8) as usize];
        let (w1, w2) = (
            WORDS[(x >> 8) as usize % 12],
            WORDS[(x >> 16) as usize % 12],
        );
        if i > 0 {
            s.push(',');
        }
        write!(
            s,
            r#"{{"skill_id": "clawhub:skill-{i}", "name": "skill-{i}", "source": "clawhub", "url": "https://clawhub.ai/o/skill-{i}", "description": "Skill number {i} that {w1} and {w2} for {cat} work, every day.", "categories": ["{cat}"], "updated_at": "2026-10-{:02}T00:00:00Z", "popularity": {{"downloads": {}, "stars": {}}}, "source_code_url": "https://github.com/o/skill-{i}", "has_install_docs": true, "has_security_disclosure": {}, "risk_level": "low"}}"#,
            1 + (x >> 24) % 28,
            (x >> 32) % 100_000,
            (x >> 40) % 1_000,
            !(x >> 48).is_multiple_of(3)
        )
        .unwrap();
    }
    s.push_str("]}");
    s
}

/// A bundle of about `bytes` bytes: SKILL.md, prose references and scripts (shell, Python, JS),
/// with the usual traps (secrets talk, `curl`, `subprocess`) that make the rules work.
pub fn bundle(bytes: usize) -> guest::scan::Bundle {
    use guest::scan::{Bundle, BundleFile};
    let prose = "This reference explains how the skill reads a PDF, finds tables and writes them to a \
spreadsheet. Never paste an API token into a prompt; keep credentials in the environment. \
The tokenizer splits text into pieces before counting.\n";
    let shell = "#!/bin/sh\nset -eu\nout=\"${1:-./build}\"\nmkdir -p \"$out\"\ncurl -fsSL https://example.com/data.csv -o \"$out/data.csv\"\necho done\n";
    let python = "import subprocess, json\n\ndef run(path):\n    result = subprocess.run([\"pdftotext\", path, \"-\"], capture_output=True, check=True)\n    return json.dumps({\"text\": result.stdout.decode()})\n";
    let js = "export function total(rows) {\n  return rows.reduce((a, r) => a + Number(r.amount || 0), 0);\n}\n";
    let mut files = vec![BundleFile::text(
        "SKILL.md",
        "---\nname: bench-skill\ndescription: Extracts tables from PDFs into spreadsheets.\n---\n# Bench skill\nUse scripts/extract.py.\n",
    )];
    let per_file = 256 << 10;
    let mut total = 0;
    let mut i = 0;
    while total < bytes {
        let (name, unit) = match i % 4 {
            0 => (format!("references/doc-{i}.md"), prose),
            1 => (format!("scripts/run-{i}.sh"), shell),
            2 => (format!("scripts/extract_{i}.py"), python),
            _ => (format!("scripts/total-{i}.js"), js),
        };
        let text = unit.repeat(per_file.min(bytes - total).div_ceil(unit.len()));
        total += text.len();
        files.push(BundleFile::text(&name, &text));
        i += 1;
    }
    Bundle {
        name: "bench-skill".into(),
        files,
        notes: Vec::new(),
    }
}
