//! The labeled scanner corpus (issue 14): every bundle under `tests/fixtures/skills/corpus/` is scanned
//! natively at community trust and compared with its `expect.json`.
//!
//! - malicious: the verdict must be at least the expected one (`caution` or `dangerous`);
//! - benign: the verdict must be at most the expected one (`safe`, or `caution` where a reviewer would
//!   really want a look), and never `dangerous`.
//!
//! It prints per-class detection and false-positive rates, separately for the bundles the rules were
//! developed on (`corpus/dev-set.txt`) and the held-out rest, and every miss with the evidence the
//! corpus expects, then fails on any regression. The older fixtures (`skills/benign`, `skills/malicious`)
//! are checked by the end-to-end tests through the component.
//!
//! `CORPUS_SHOW=slug` prints one bundle's findings; `CORPUS_ALL=1` prints every bundle's verdict;
//! (`CORPUS_SHOW` also lists the facts of pass one.)
//! `CORPUS_HIDE_HELD_OUT=1` lists held-out misses without naming them (for rule development).
//! A bundle whose `expect.json` names a `"batch"` (a round written before the rules were read) is
//! also counted under that batch's name.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use guest::scan::{Bundle, BundleFile, EntryKind, Trust, scan_bundle};
use serde_json::Value;

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/skills/corpus")
}

/// A folder read the way the host reads it (text when UTF-8 without NUL bytes), minus the fixture's
/// own `expect.json`. (The host's reader lives in host-harness, which depends on this crate; the
/// end-to-end agreement test runs a sample of the corpus through the real reader and component.)
fn read_bundle(dir: &Path) -> Bundle {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<BundleFile>) {
        let mut entries: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(root, &p, out);
                continue;
            }
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            if rel == "expect.json" {
                continue;
            }
            let bytes = fs::read(&p).unwrap();
            #[cfg(unix)]
            let executable = {
                use std::os::unix::fs::PermissionsExt;
                fs::metadata(&p).unwrap().permissions().mode() & 0o111 != 0
            };
            #[cfg(not(unix))]
            let executable = false;
            let mut f = match String::from_utf8(bytes.clone()) {
                Ok(t) if !t.contains('\0') => BundleFile::text(&rel, &t),
                _ => {
                    let mut f = BundleFile::text(&rel, "");
                    f.kind = EntryKind::Binary;
                    f.content = None;
                    f.size = bytes.len() as u64;
                    f
                }
            };
            f.executable = executable;
            out.push(f);
        }
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files);
    Bundle {
        name: dir.file_name().unwrap().to_string_lossy().into_owned(),
        files,
        notes: vec![],
    }
}

fn rank(verdict: &str) -> u8 {
    match verdict {
        "safe" => 0,
        "caution" => 1,
        "dangerous" => 2,
        other => panic!("unknown verdict {other:?}"),
    }
}

#[derive(Default)]
struct Tally {
    total: usize,
    dangerous: usize,
    caution: usize,
    safe: usize,
    failed: usize,
}

impl Tally {
    fn add(&mut self, verdict: &str, failed: bool) {
        self.total += 1;
        match verdict {
            "dangerous" => self.dangerous += 1,
            "caution" => self.caution += 1,
            _ => self.safe += 1,
        }
        self.failed += usize::from(failed);
    }
}

fn pct(n: usize, d: usize) -> String {
    if d == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * n as f64 / d as f64)
    }
}

fn findings_summary(v: &Value) -> String {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "low")
        .map(|f| {
            format!(
                "      {} {} {}:{} {}",
                f["severity"].as_str().unwrap(),
                f["rule_id"].as_str().unwrap(),
                f["file"].as_str().unwrap(),
                f["line"],
                f["evidence"].as_str().unwrap()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn corpus_verdicts_do_not_regress() {
    let root = corpus_root();
    if !root.join("malicious").is_dir() {
        eprintln!("no corpus at {}", root.display());
        return;
    }
    let dev: std::collections::BTreeSet<String> = fs::read_to_string(root.join("dev-set.txt"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.trim().to_owned())
        .collect();
    // Bundles the scanner is known to get wrong (each with its reason): the test fails on any other
    // miss, and on a listed bundle that now passes (so the list only ever shrinks).
    let known: BTreeMap<String, String> = fs::read_to_string(root.join("known-misses.txt"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (k, why) = l.split_once(' ').unwrap_or((l, ""));
            (k.trim().to_owned(), why.trim().to_owned())
        })
        .collect();
    let mut fixed = Vec::new();
    let show = std::env::var("CORPUS_SHOW").ok();
    let all = std::env::var("CORPUS_ALL").is_ok();
    // While rules are being developed, the held-out bundles' misses stay unread (counts only).
    let hide_held_out = std::env::var("CORPUS_HIDE_HELD_OUT").is_ok();
    // (half, set, class) → tally; "*" rows are the totals.
    let mut tallies: BTreeMap<(String, String, String), Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut misses_known = Vec::new();
    let mut count = 0;
    // The corpus, then the project's older fixtures (`skills/{malicious,benign}`, no class; their
    // verdicts are exact there: `safe` or `dangerous`), reported as the set "fixtures".
    let places = [
        ("malicious", root.join("malicious"), false),
        ("benign", root.join("benign"), false),
        ("malicious", root.join("../malicious"), true),
        ("benign", root.join("../benign"), true),
    ];
    for (half, folder, fixture) in places {
        let mut dirs: Vec<PathBuf> = fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect();
        dirs.sort();
        for dir in dirs {
            let slug = dir.file_name().unwrap().to_string_lossy().into_owned();
            let key = format!("{half}/{slug}");
            let expect: Value =
                serde_json::from_str(&fs::read_to_string(dir.join("expect.json")).unwrap())
                    .unwrap_or_else(|e| panic!("{key}/expect.json: {e}"));
            let want = expect["verdict"].as_str().unwrap();
            let class = expect["class"].as_str().unwrap_or("fixture").to_owned();
            let v = scan_bundle(&read_bundle(&dir), Trust::Community, false);
            let got = v["verdict"].as_str().unwrap();
            count += 1;
            let failed = if half == "malicious" {
                rank(got) < rank(want)
            } else {
                rank(got) > rank(want) || got == "dangerous"
            };
            let set = if fixture {
                "fixtures"
            } else if dev.contains(&key) {
                "dev"
            } else {
                "held-out"
            };
            // A batch written for one held-out round (`"batch"` in expect.json) is also reported
            // on its own, so its before/after figures can be read off one run.
            let batch = expect["batch"].as_str();
            for s in [Some(set), Some("all"), batch].into_iter().flatten() {
                for c in [class.as_str(), "*"] {
                    tallies
                        .entry((half.into(), s.into(), c.into()))
                        .or_default()
                        .add(got, failed);
                }
            }
            let listed = known.contains_key(&key);
            if listed && !failed {
                fixed.push(key.clone());
            }
            let failed_new = failed && !listed;
            if failed && listed {
                misses_known.push(if hide_held_out && set == "held-out" {
                    format!("  (a held-out {half} bundle)")
                } else {
                    format!("  {key} [{set}, {class}]: {}", known[&key])
                });
            }
            if failed_new && hide_held_out && set == "held-out" {
                misses.push(format!("  (a held-out {half} bundle)"));
            } else if failed_new {
                misses.push(format!(
                    "  {key} [{set}, {class}]: expected {} {want}, got {got}; expected evidence {}\n{}",
                    if half == "malicious" { "at least" } else { "at most" },
                    expect["evidence"],
                    findings_summary(&v)
                ));
            }
            if all {
                eprintln!("{got:9} {key}");
            }
            if show.as_deref() == Some(slug.as_str()) {
                eprintln!("{}", serde_json::to_string_pretty(&v).unwrap());
                // The facts of pass one, file by file.
                for f in read_bundle(&dir).files {
                    let Some(text) = &f.content else { continue };
                    let scan =
                        guest::scan::scan_file(guest::scan::RuleSet::builtin(), &f.path, text);
                    for fact in &scan.facts.facts {
                        eprintln!(
                            "  fact {}:{} {} ({}){} {:?}",
                            f.path,
                            fact.line,
                            fact.kind.as_str(),
                            guest::scan::RuleSet::builtin().rules[fact.rule as usize].id,
                            if fact.prose { " prose" } else { "" },
                            fact.capture
                        );
                    }
                }
            }
        }
    }
    eprintln!("\nscanner corpus: {count} bundles (community trust)");
    for ((half, set, class), t) in &tallies {
        let rate = if half == "malicious" {
            format!(
                "dangerous {} ({}), caution+ {} ({})",
                t.dangerous,
                pct(t.dangerous, t.total),
                t.dangerous + t.caution,
                pct(t.dangerous + t.caution, t.total)
            )
        } else {
            format!(
                "safe {} ({}), caution {}, dangerous {}",
                t.safe,
                pct(t.safe, t.total),
                t.caution,
                t.dangerous
            )
        };
        eprintln!(
            "  {half:9} {set:9} {class:20} n={:3}  {rate}  below expectation: {}",
            t.total, t.failed
        );
    }
    if !misses_known.is_empty() {
        eprintln!(
            "\nknown misses ({}, corpus/known-misses.txt):\n{}",
            misses_known.len(),
            misses_known.join("\n")
        );
    }
    assert!(
        misses.is_empty(),
        "{} corpus bundle(s) regress against expect.json:\n{}",
        misses.len(),
        misses.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "listed in corpus/known-misses.txt but now as expected (remove them): {fixed:?}"
    );
}

/// Every benign bundle loads in lenient mode (the corpus's deliberate deviations from strict SKILL.md
/// rules are named in `expect.json` as `lenient`), and one without a `lenient` note is valid strictly.
#[test]
fn benign_corpus_validates() {
    let root = corpus_root().join("benign");
    if !root.is_dir() {
        return;
    }
    let mut problems = Vec::new();
    let mut dirs: Vec<PathBuf> = fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let expect: Value =
            serde_json::from_str(&fs::read_to_string(dir.join("expect.json")).unwrap()).unwrap();
        let bundle = read_bundle(&dir);
        let lenient = guest::validate::validate(&bundle, false);
        if lenient["valid"] != true {
            problems.push(format!("{}: lenient: {}", dir.display(), lenient["errors"]));
        }
        let strict = guest::validate::validate(&bundle, true);
        if expect.get("lenient").is_none() && strict["valid"] != true {
            problems.push(format!("{}: strict: {}", dir.display(), strict["errors"]));
        }
        if expect.get("lenient").is_some()
            && lenient["warnings"].as_array().is_none_or(Vec::is_empty)
        {
            problems.push(format!(
                "{}: a deliberate deviation ({}) and no warning",
                dir.display(),
                expect["lenient"]
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
