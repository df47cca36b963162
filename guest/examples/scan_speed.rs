//! Native scan_bundle throughput on a folder of text files (SKILL.md, scripts/, references/):
//! `cargo run -p guest --release --example scan_speed DIR [SCANS]` (3 timed scans unless SCANS says
//! otherwise). It also prints the heap `guest::initialize()` leaves live (what the component's
//! snapshot has to carry), and with `WARM=FILE,…` scans those files first (a warm-up experiment).
//! BENCHMARKS.md says where it is used.
use guest::scan::{Bundle, BundleFile, Trust, scan_bundle};
use std::time::Instant;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::LIVE;
use std::sync::atomic::Ordering;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .expect("usage: scan_speed DIR [SCANS]");
    let scans: usize = std::env::args()
        .nth(2)
        .map_or(3, |n| n.parse().expect("SCANS is a number"));
    let mut files = Vec::new();
    let mut bytes = 0usize;
    for sub in ["", "scripts", "references"] {
        let d = std::path::Path::new(&dir).join(sub);
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut paths: Vec<_> = rd
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        paths.sort();
        for p in paths {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            bytes += text.len();
            let rel = p
                .strip_prefix(&dir)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            files.push(BundleFile::text(&rel, &text));
        }
    }
    // `WARM=FILE,…`: scan these files once after `initialize`, before the timed scans, as a
    // warm-up inside `initialize` would (BENCHMARKS.md, "Lazy-DFA warm-up"), and say how much heap
    // the states it built hold.
    if let Ok(warm) = std::env::var("WARM") {
        guest::initialize();
        let before = LIVE.load(Ordering::Relaxed);
        let files = warm
            .split(',')
            .map(|p| {
                let text = std::fs::read_to_string(p).expect("a WARM file");
                let name = if p.ends_with(".md") {
                    "references/warm.md"
                } else {
                    "scripts/warm.sh"
                };
                BundleFile::text(name, &text)
            })
            .collect();
        let warm = Bundle {
            name: "warm".into(),
            files,
            notes: vec![],
        };
        let _ = scan_bundle(&warm, Trust::Community, false);
        println!(
            "warm-up: {:.1} MB more live on the heap",
            (LIVE.load(Ordering::Relaxed) - before) as f64 / 1e6
        );
    }
    let bundle = Bundle {
        name: "bench".into(),
        files,
        notes: vec![],
    };
    // Build what the component's snapshot holds (rules compiled, lazy DFAs still empty), then time
    // a first scan as a fresh component call sees it ("cold"), then scans whose lazy DFAs are warm.
    let before = LIVE.load(Ordering::Relaxed);
    guest::initialize();
    println!(
        "initialize: {:.1} MB live on the heap",
        (LIVE.load(Ordering::Relaxed) - before) as f64 / 1e6
    );
    let timed = |label: &str| {
        let t = Instant::now();
        let v = scan_bundle(&bundle, Trust::Community, false);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{label}{:.1} MB in {:.3} s = {:.1} MB/s, {} findings",
            bytes as f64 / 1e6,
            s,
            bytes as f64 / 1e6 / s,
            v["findings"].as_array().map_or(0, Vec::len)
        );
    };
    timed("cold: ");
    for _ in 0..scans {
        timed("");
    }
}
