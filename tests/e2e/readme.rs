//! Every code block of every README is run or checked, so none can go stale (issue 15).
//!
//! Files: `README.md`, `SKILL.md`, `docs/*.md`, `hosts/*/README.md` and the tests' READMEs. By the
//! block's language tag:
//! - `sh`: run with bash (`set -e`, `pipefail`) against the CLI under test, in a scratch directory that
//!   has the repository's `data/`, `schema/` and `tests/` beside it, with a state directory and HOME of
//!   its own (shared by the blocks of one file, in order, so a block can build on the one before).
//!   `cargo` there is a stand-in: `cargo run … -p host-harness -- ARGS` runs the CLI with `ARGS`; any
//!   other cargo command is checked (each `-p` package and `--path` folder it names exists), not run —
//!   building the project inside its own test would take minutes and prove nothing more. `sh` blocks
//!   in `hosts/*/README.md` are run by that host's suite instead (`hosts/node/test/readme.test.js`,
//!   `hosts/python/tests/test_readme.py`), since they need that host built.
//! - `json`: parsed (one or more JSON values); `toml`: parsed.
//! - `js` (only in `hosts/node/README.md`) and `python` (only in `hosts/python/README.md`): run by that
//!   host's suite, which imports its own package.
//! - `text`: not run — card templates, command synopses, config for other programs, commands that need
//!   another toolchain. The test lists them on stderr, so what is not run is visible.
//!   A block without a tag fails the test.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{cache_dir, root};

/// One fenced code block.
struct Block {
    file: PathBuf,
    line: usize,
    lang: String,
    body: String,
}

fn readmes() -> Vec<PathBuf> {
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("SKILL.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    docs.retain(|p| p.extension().is_some_and(|e| e == "md"));
    docs.sort();
    files.extend(docs);
    for f in [
        "hosts/node/README.md",
        "hosts/python/README.md",
        "tests/conformance/README.md",
        "tests/fixtures/skills/README.md",
        "tests/fixtures/registries/README.md",
    ] {
        files.push(root.join(f));
    }
    files.retain(|f| f.exists());
    files
}

fn blocks(file: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut out = Vec::new();
    let mut open: Option<(usize, String, String)> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.trim_start().strip_prefix("```")) {
            (None, Some(info)) => open = Some((i + 1, info.trim().to_owned(), String::new())),
            (Some(_), Some(rest)) if rest.trim().is_empty() => {
                let (line, info, body) = open.take().unwrap();
                out.push(Block {
                    file: file.to_owned(),
                    line,
                    lang: info.split_whitespace().next().unwrap_or("").to_owned(),
                    body,
                });
            }
            (Some((_, _, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "{}: an unclosed code block", file.display());
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// The stand-in for `cargo` inside `sh` blocks (see the module documentation).
const CARGO_STUB: &str = r#"#!/usr/bin/env bash
set -euo pipefail
packages() { grep -h '^name = ' "$REPO"/guest/Cargo.toml "$REPO"/host-harness/Cargo.toml "$REPO"/tests/fixtures/*/Cargo.toml | sed 's/name = "\(.*\)"/\1/'; }
check() {
  local prev=""
  for a in "$@"; do
    case "$prev" in
      -p|--package) packages | grep -qx "$a" || { echo "cargo: no package $a in this workspace" >&2; exit 101; } ;;
      --path) [ -f "$REPO/$a/Cargo.toml" ] || { echo "cargo: --path $a is not a package folder" >&2; exit 101; } ;;
    esac
    prev="$a"
  done
}
sub="${1:-}"
if [ "$sub" = run ]; then
  shift
  pre=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do pre+=("$1"); shift; done
  check "${pre[@]}"
  printf '%s\n' "${pre[@]}" | grep -qx host-harness || { echo "cargo run: the README test runs only -p host-harness" >&2; exit 101; }
  [ $# -gt 0 ] && shift
  exec skill-recommender "$@"
fi
case "$sub" in
  build|install|test|clippy|fmt|check) check "$@" ;;
  *) echo "cargo $sub: not something the README test can check" >&2; exit 101 ;;
esac
"#;

/// Run one `sh` block; panics with its output when it fails.
fn run_sh(b: &Block, work: &Path, bin: &Path, state: &Path, home: &Path) {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("set -euo pipefail\n{}", b.body))
        .current_dir(work)
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("REPO", root())
        .env("SKILL_RECOMMENDER_STATE_DIR", state)
        .env("SKILL_RECOMMENDER_CACHE_DIR", cache_dir())
        .env("LANG", "C.UTF-8")
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}:{}: the sh block failed ({}):\n{}\nstdout:\n{}\nstderr:\n{}",
        rel(&b.file),
        b.line,
        out.status,
        b.body,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A scratch directory with the repository's data beside it and the CLI and the cargo stand-in on PATH.
fn scratch() -> (tempfile::TempDir, PathBuf, PathBuf, PathBuf, PathBuf) {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let t = tempfile::tempdir().unwrap();
    let (work, bin, state, home) = (
        t.path().join("work"),
        t.path().join("bin"),
        t.path().join("state"),
        t.path().join("home"),
    );
    for d in [&work, &bin, &home] {
        std::fs::create_dir_all(d).unwrap();
    }
    for d in ["data", "schema", "tests"] {
        symlink(root().join(d), work.join(d)).unwrap();
    }
    symlink(
        env!("CARGO_BIN_EXE_skill-recommender"),
        bin.join("skill-recommender"),
    )
    .unwrap();
    let cargo = bin.join("cargo");
    std::fs::write(&cargo, CARGO_STUB).unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    (t, work, bin, state, home)
}

#[test]
fn every_readme_code_block_runs_or_is_checked() {
    let mut ran = 0;
    let mut parsed = 0;
    let mut not_run = Vec::new();
    let mut by_host = 0;
    for file in readmes() {
        let name = rel(&file);
        let in_host = name.starts_with("hosts/");
        let (_t, work, bin, state, home) = scratch();
        for b in blocks(&file) {
            let at = format!("{name}:{}", b.line);
            match b.lang.as_str() {
                "sh" if in_host => by_host += 1,
                "sh" => {
                    run_sh(&b, &work, &bin, &state, &home);
                    ran += 1;
                }
                "json" => {
                    let values: Vec<serde_json::Value> =
                        serde_json::Deserializer::from_str(&b.body)
                            .into_iter()
                            .collect::<Result<_, _>>()
                            .unwrap_or_else(|e| panic!("{at}: not JSON: {e}"));
                    assert!(!values.is_empty(), "{at}: an empty json block");
                    parsed += 1;
                }
                "toml" => {
                    b.body
                        .parse::<toml_edit::DocumentMut>()
                        .unwrap_or_else(|e| panic!("{at}: not TOML: {e}"));
                    parsed += 1;
                }
                "js" | "javascript" => {
                    assert_eq!(
                        name, "hosts/node/README.md",
                        "{at}: js blocks run only in the Node host's suite"
                    );
                    by_host += 1;
                }
                "python" => {
                    assert_eq!(
                        name, "hosts/python/README.md",
                        "{at}: python blocks run only in the Python host's suite"
                    );
                    by_host += 1;
                }
                "text" => not_run.push(at),
                "" => panic!(
                    "{at}: a code block without a language tag (sh, json, toml, js, python or text)"
                ),
                other => panic!("{at}: unknown code block language {other:?}"),
            }
        }
    }
    eprintln!(
        "README blocks: {ran} sh run, {parsed} parsed, {by_host} run by a host's suite; not run (text): {}",
        not_run.join(", ")
    );
    assert!(
        ran >= 3 && parsed >= 2,
        "{ran} sh blocks run, {parsed} parsed"
    );
}

/// SKILL.md shows the minimal candidate and the wrapper, as the schema's example has them.
#[test]
fn skill_md_shows_the_minimal_candidate_and_points_to_the_schema() {
    let skill = root().join("SKILL.md");
    let text = std::fs::read_to_string(&skill).unwrap();
    let minimal: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("schema/examples/minimal.json")).unwrap(),
    )
    .unwrap();
    let shown = blocks(&skill).into_iter().any(|b| {
        b.lang == "json"
            && serde_json::from_str::<serde_json::Value>(&b.body).ok() == Some(minimal.clone())
    });
    assert!(
        shown,
        "SKILL.md has no json block equal to schema/examples/minimal.json"
    );
    assert!(text.contains("schema/candidates.schema.json"));
}
