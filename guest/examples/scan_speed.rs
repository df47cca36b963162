//! Native scan_bundle throughput on a folder of text files (SKILL.md, scripts/, references/):
//! `cargo run -p guest --release --example scan_speed DIR`. BENCHMARKS.md says where it is used.
use guest::scan::{Bundle, BundleFile, Trust, scan_bundle};
use std::time::Instant;

fn main() {
    let dir = std::env::args().nth(1).expect("usage: scan_speed DIR");
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
    // The first scan compiles the rules; it is not timed.
    let _ = scan_bundle(&bundle, Trust::Community, false);
    for _ in 0..3 {
        let t = Instant::now();
        let v = scan_bundle(&bundle, Trust::Community, false);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{:.1} MB in {:.3} s = {:.1} MB/s, {} findings",
            bytes as f64 / 1e6,
            s,
            bytes as f64 / 1e6 / s,
            v["findings"].as_array().map_or(0, Vec::len)
        );
    }
}
