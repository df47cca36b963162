//! Every finding of every bundle under the given folders, one line each (for diffing rule changes):
//! `scan_dump [--json] DIR...`; with `--json`, each bundle's whole result (verdict, findings with
//! severity, description and related places) on one line, for comparing two builds exactly.
use guest::scan::{Bundle, BundleFile, Trust, scan_bundle};
fn walk(d: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(d) else { return };
    let mut v: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            walk(&p, out)
        } else {
            out.push(p)
        }
    }
}
fn main() {
    let t = std::time::Instant::now();
    let mut bytes = 0;
    let json = std::env::args().any(|a| a == "--json");
    for root in std::env::args().skip(1).filter(|a| a != "--json") {
        let mut skills = vec![];
        walk(std::path::Path::new(&root), &mut skills);
        for md in skills
            .iter()
            .filter(|p| p.file_name().is_some_and(|n| n == "SKILL.md"))
        {
            let dir = md.parent().unwrap();
            let mut fs = vec![];
            walk(dir, &mut fs);
            let files: Vec<_> = fs
                .iter()
                .filter(|p| {
                    p.strip_prefix(dir)
                        .is_ok_and(|r| r != std::path::Path::new("expect.json"))
                })
                .filter_map(|p| {
                    std::fs::read_to_string(p).ok().map(|t| {
                        bytes += t.len();
                        BundleFile::text(&p.strip_prefix(dir).unwrap().to_string_lossy(), &t)
                    })
                })
                .collect();
            let v = scan_bundle(
                &Bundle {
                    name: "x".into(),
                    files,
                    notes: vec![],
                },
                Trust::Community,
                false,
            );
            if json {
                println!("{} {v}", dir.display());
                continue;
            }
            println!("{} verdict={}", dir.display(), v["verdict"]);
            for f in v["findings"].as_array().into_iter().flatten() {
                println!(
                    "  {} {} {}:{} {}",
                    f["severity"], f["rule_id"], f["file"], f["line"], f["evidence"]
                );
                for r in f["related"].as_array().into_iter().flatten() {
                    println!(
                        "      {} {}:{} {}",
                        r["role"], r["file"], r["line"], r["evidence"]
                    );
                }
            }
        }
    }
    eprintln!("{bytes} bytes in {:.2} s", t.elapsed().as_secs_f64());
}
