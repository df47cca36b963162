//! The rule catalogue (`docs/scan-rules.md`) names every rule id the scanner can report, and
//! nothing else.
//!
//! Emitted ids are every quoted literal `"<category>.<name>"` in `guest/src/scan/**/*.rs`, outside
//! comment lines, `tests/` folders, `*tests.rs` files and items marked `#[cfg(test)]` (and not a
//! prefix given to `starts_with`), plus every `id` of `guest/rules/content-rules.json`. Catalogued
//! ids are the first cell of the catalogue's table rows (`| \`id\` | …`). The test fails naming
//! each emitted id without a row, and each row whose id nothing emits. Plain std: no JSON or regex
//! crate.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Categories of reported findings. `source.`, `sink.` and `exec.` literals are facts, not
/// findings, and are left out on purpose.
const CATEGORIES: &[&str] = &[
    "exfiltration",
    "supply_chain",
    "persistence",
    "prompt_injection",
    "obfuscation",
    "destructive",
    "network",
    "privilege",
    "execution",
    "agent",
    "lure",
    "structural",
    "invisible_text",
    "credential_exposure",
    "mining",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() {
            if name != "tests" {
                rust_files(&p, out);
            }
        } else if name.ends_with(".rs") && !name.ends_with("tests.rs") {
            out.push(p);
        }
    }
}

/// The line with string and char literals blanked, so braces inside them do not count.
fn code_only(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        if in_str {
            if c == '\\' {
                chars.next();
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '/' if chars.peek() == Some(&'/') => break,
            '\'' => {
                // A char literal like '{' or '\''; a lifetime ('a) is left as is.
                let rest: String = chars.clone().take(3).collect();
                let mut it = rest.chars();
                match (it.next(), it.next(), it.next()) {
                    (Some('\\'), Some(_), Some('\'')) => {
                        chars.nth(2);
                    }
                    (Some(_), Some('\''), _) => {
                        chars.nth(1);
                    }
                    _ => out.push(c),
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn depth_change(line: &str) -> i64 {
    code_only(line).chars().fold(0, |d, c| match c {
        '{' => d + 1,
        '}' => d - 1,
        _ => d,
    })
}

/// The file's lines that are neither comment lines nor inside an item marked `#[cfg(test)]`.
fn live_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        if t.starts_with("#[cfg(test)]") {
            // Skip the attribute and the item it marks: one line ending in `;`, or a block.
            i += 1;
            let mut depth = 0i64;
            let mut opened = false;
            while i < lines.len() {
                let l = lines[i];
                depth += depth_change(l);
                opened |= code_only(l).contains('{');
                i += 1;
                if (opened && depth <= 0) || (!opened && l.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        if !t.starts_with("//") {
            out.push(lines[i]);
        }
        i += 1;
    }
    out
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'
}

/// Every quoted `"<category>.<name>"` literal on the line, except a prefix given to `starts_with`.
fn quoted_ids(line: &str, out: &mut BTreeSet<String>) {
    for (start, _) in line.match_indices('"') {
        let rest = &line[start + 1..];
        // A prefix tested with `starts_with("prompt_injection.hidden")` names a family, not a rule.
        if line[..start].ends_with("starts_with(") {
            continue;
        }
        let Some(end) = rest.find('"') else { continue };
        let lit = &rest[..end];
        let Some((cat, name)) = lit.split_once('.') else {
            continue;
        };
        if CATEGORIES.contains(&cat) && !name.is_empty() && name.chars().all(is_name_char) {
            out.insert(lit.to_owned());
        }
    }
}

fn emitted_ids() -> BTreeSet<String> {
    let mut files = Vec::new();
    rust_files(&root().join("src/scan"), &mut files);
    assert!(
        files.len() > 50,
        "too few scanner sources found: {}",
        files.len()
    );
    let mut ids = BTreeSet::new();
    for f in files {
        let text = fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for l in live_lines(&text) {
            quoted_ids(l, &mut ids);
        }
    }
    ids
}

/// The `id` of every rule of content-rules.json (each rule has exactly one `"id": "…"` key).
fn json_rule_ids() -> BTreeSet<String> {
    let text = fs::read_to_string(root().join("rules/content-rules.json")).expect("rule file");
    let mut ids = BTreeSet::new();
    for (at, _) in text.match_indices("\"id\"") {
        let rest = text[at + 4..].trim_start();
        let rest = rest.strip_prefix(':').expect("`\"id\":`").trim_start();
        let rest = rest.strip_prefix('"').expect("a string id");
        ids.insert(rest[..rest.find('"').expect("closing quote")].to_owned());
    }
    assert!(ids.len() > 200, "too few JSON rules found: {}", ids.len());
    ids
}

/// The ids in the first cell of the catalogue's table rows.
fn catalogued_ids() -> Vec<String> {
    let path = root().join("../docs/scan-rules.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` |").map(|(id, _)| id.to_owned()))
        .collect()
}

#[test]
fn every_reported_rule_id_is_catalogued_and_no_row_is_stale() {
    let emitted = emitted_ids();
    let json = json_rule_ids();
    let rows = catalogued_ids();
    let catalogued: BTreeSet<String> = rows.iter().cloned().collect();
    let mut problems = Vec::new();
    for id in emitted.union(&json) {
        if !catalogued.contains(id) {
            problems.push(format!("missing from docs/scan-rules.md: {id}"));
        }
    }
    for id in &catalogued {
        if !emitted.contains(id) && !json.contains(id) {
            problems.push(format!("catalogued but nothing emits it (stale row): {id}"));
        }
    }
    let mut seen = BTreeSet::new();
    for id in &rows {
        if !seen.insert(id) {
            problems.push(format!("catalogued twice: {id}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn test_code_and_comments_are_not_read_as_emitted() {
    let text = "fn a() { f(\"exfiltration.real\"); }\n\
                // g(\"exfiltration.comment\")\n\
                #[cfg(test)]\n\
                mod tests {\n    fn b() { h(\"exfiltration.fixture\", '{'); }\n}\n\
                fn c() { f(\"agent.after\"); f(\"source.fact\"); f(\"agent.Upper\"); }\n\
                fn d(id: &str) -> bool { id.starts_with(\"agent.family\") }\n";
    let mut ids = BTreeSet::new();
    for l in live_lines(text) {
        quoted_ids(l, &mut ids);
    }
    let got: Vec<&str> = ids.iter().map(String::as_str).collect();
    assert_eq!(got, ["agent.after", "exfiltration.real"]);
}
