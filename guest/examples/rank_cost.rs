//! Ranking cost, natively: rank N generated candidates (shaped like host-harness/benches/common's)
//! for a task K times through `rank::run` (JSON in, JSON out, as the export). Run it under
//! `/usr/bin/time` to compare CPU time between two builds on a busy machine (wall time is noise there):
//!
//!     cargo build -p guest --release --example rank_cost
//!     /usr/bin/time -f '%U %S' target/release/examples/rank_cost 1000 50

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

fn candidates(n: usize) -> String {
    let mut s = String::from("{\"candidates\": [");
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

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (n, k) = (
        args.first().copied().unwrap_or(1000),
        args.get(1).copied().unwrap_or(20),
    );
    let input = candidates(n);
    let ctx = guest::Ctx {
        now: "2026-11-29T02:00:00Z".into(),
        host_timezone: Some("Asia/Shanghai".into()),
        lang: guest::Lang::En,
        lang_explicit: true,
    };
    let request = guest::rank::Request {
        task: Some("extract tables from PDF invoices".into()),
        signals: Vec::new(),
        agent: Default::default(),
    };
    let mut total = 0usize;
    let start = std::time::Instant::now();
    for _ in 0..k {
        let mut store = guest::MemoryStore::new();
        let out = guest::rank::run(
            &ctx,
            &mut store,
            guest::filter::Mode::Manual,
            &input,
            &[],
            &request,
        )
        .expect("rank runs");
        total += out.to_string().len();
    }
    eprintln!(
        "{n} candidates x {k}: {:?} wall, {total} bytes out",
        start.elapsed()
    );
}
