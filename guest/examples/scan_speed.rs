//! Native scan_bundle throughput on a folder of text files (SKILL.md, scripts/, references/):
//! `cargo run -p guest --release --example scan_speed DIR [SCANS]` (3 timed scans unless SCANS says
//! otherwise). BENCHMARKS.md says where it is used.
use guest::scan::{Bundle, BundleFile, Trust, scan_bundle};
use std::time::Instant;

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
    let bundle = Bundle {
        name: "bench".into(),
        files,
        notes: vec![],
    };
    // Build what the component's snapshot holds (rules compiled, lazy DFAs still empty), then time
    // a first scan as a fresh component call sees it ("cold"), then scans whose lazy DFAs are warm.
    guest::initialize();
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
