//! Every finding of every bundle under the given folders, one line each (for diffing rule changes):
//! `scan_dump [--json] DIR...`; with `--json`, each bundle's whole result (verdict, findings with
//! severity, description and related places) on one line, for comparing two builds exactly. Binary
//! files are passed as binary entries (size, magic), as the host passes them.
use guest::scan::{Bundle, BundleFile, EntryKind, Trust, magic, scan_bundle};
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

/// One entry as the host reads it: text when it is UTF-8 without NUL bytes and no binary magic,
/// else a binary entry (its size, magic and executable bit; no text), so `.pyc` files, native
/// executables and archives reach the scanner as they do through `scan-bundle`.
fn entry(rel: &str, raw: Vec<u8>) -> BundleFile {
    let m = magic(&raw);
    let looks_binary =
        m.is_some_and(|m| m != "pdf" || raw.len() > 4) || raw.iter().take(8192).any(|b| *b == 0);
    let size = raw.len() as u64;
    match (looks_binary, String::from_utf8(raw)) {
        (false, Ok(t)) => BundleFile::text(rel, &t),
        _ => {
            let mut f = BundleFile::text(rel, "");
            f.kind = EntryKind::Binary;
            f.content = None;
            f.size = size;
            f.magic = m.map(str::to_owned);
            f
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
                    let raw = std::fs::read(p).ok()?;
                    let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                    bytes += raw.len();
                    Some(entry(&rel, raw))
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
