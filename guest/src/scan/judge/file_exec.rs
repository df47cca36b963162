//! Code run from a file's contents (round 34m, `supply_chain.exec-file-contents`).
//!
//! `exec(open(p).read())`, `exec(compile(open(p).read(), p, "exec"))`, `eval(fs.readFileSync(p))`,
//! `vm.runInThisContext(fs.readFileSync(p))` run whatever the file holds at that moment. When the
//! file is one the script itself downloads (its path, or the variable holding it, is on a line that
//! fetches from a URL) this is download-then-run in two steps: `critical`. When it lies outside the
//! bundle (an absolute path, the home folder, a temp or cache folder, a path from the environment)
//! nothing the user reviewed says what runs: `high`. A file of the bundle itself (`version.py`
//! next to `setup.py`, a path built from `__file__` or `__dirname`) is not judged.
//!
//! One pass over each code file's lines, and for each such call one look back for the variable's
//! assignment and one pass for the download line: linear in the file's bytes per call, and calls
//! of this shape are rare.

use super::Bundle;
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

/// Calls that run code, each with the readers whose result they may run directly.
pub(super) const RUNNERS: &[&str] = &[
    "exec(",
    "eval(",
    "new function(",
    "runinthiscontext(",
    "runinnewcontext(",
    "runincontext(",
];

/// Where the call `r` opens in `l` (the index after its `(`), as a call of its own: not the tail
/// of another name (`literal_eval(`) nor, for `exec(`/`eval(`, a method (`pattern.exec(`).
fn runner_at(l: &str, r: &str) -> Option<usize> {
    let b = l.as_bytes();
    let method_ok = r.starts_with("run");
    let mut from = 0;
    while let Some(p) = l[from..].find(r).map(|p| p + from) {
        let prev = p.checked_sub(1).map(|k| b[k]);
        let ok = match prev {
            None => true,
            Some(c) if c.is_ascii_alphanumeric() || c == b'_' => false,
            Some(b'.') => method_ok,
            Some(_) => true,
        };
        if ok {
            return Some(p + r.len());
        }
        from = p + r.len();
    }
    None
}

/// Readers of a file's whole text; the path is their first argument.
const READERS: &[&str] = &[
    "open(",
    "readfilesync(",
    "read_text(",
    "io.open(",
    "codecs.open(",
];

/// The most runner-of-a-reader calls judged per file.
const MAX_CALLS: usize = 32;

/// Words of a line that fetches something from the network.
const FETCHES: &[&str] = &[
    "http://",
    "https://",
    "urlretrieve(",
    "urlopen(",
    "requests.get(",
    "httpx.get(",
    "wget ",
    "curl ",
    "fetch(",
    "download",
    "invoke-webrequest",
];

/// Where the reader `r` opens in `l` after `from` (the index after its `(`); a bare `open(` must
/// not be the tail of another name or a method (`urlopen(`, `webbrowser.open(`).
fn reader_at(l: &str, from: usize, r: &str) -> Option<usize> {
    let b = l.as_bytes();
    let mut at = from;
    while let Some(p) = l[at..].find(r).map(|p| p + at) {
        let prev = p.checked_sub(1).map(|k| b[k]);
        let bare = r == "open(";
        if !bare || !prev.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.') {
            return Some(p + r.len());
        }
        at = p + r.len();
    }
    None
}

/// Where a path reaches outside the bundle (lower-cased text of the path or its assignment).
const OUTSIDE: &[&str] = &[
    "expanduser(",
    "path.home(",
    "homedir(",
    "gettempdir(",
    "tmpdir(",
    "/tmp/",
    "$home",
    "os.environ",
    "getenv(",
    "process.env",
    "appdata",
    "/var/",
    "/dev/shm",
];

/// The first argument of the reader call at `from` in `l` (lower-cased line): the text up to the
/// first `,` or `)` at depth zero.
fn first_arg(l: &str, from: usize) -> &str {
    let rest = &l[from..];
    let mut depth = 0i32;
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return rest[..i].trim(),
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => return rest[..i].trim(),
            _ => {}
        }
    }
    rest.trim()
}

/// A quoted literal's text, if `arg` is one.
fn literal(arg: &str) -> Option<&str> {
    let a = arg.trim();
    let q = a.chars().next()?;
    if !matches!(q, '"' | '\'' | '`') {
        return None;
    }
    let inner = &a[1..];
    inner.find(q).map(|e| &inner[..e])
}

/// Whether `arg` is a plain identifier (`p`, `self.path`).
fn identifier(arg: &str) -> bool {
    !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && !arg.starts_with(|c: char| c.is_ascii_digit())
}

/// The right-hand side of the last assignment of `name` before line `before`.
fn assigned<'l>(lower: &'l [String], name: &str, before: usize) -> Option<&'l str> {
    lower[..before].iter().rev().find_map(|l| {
        let t = l
            .trim_start()
            .trim_start_matches("const ")
            .trim_start_matches("let ")
            .trim_start_matches("var ");
        let rest = t.strip_prefix(name)?.trim_start();
        let rhs = rest.strip_prefix('=')?;
        (!rhs.starts_with('=')).then(|| rhs.trim())
    })
}

/// Whether a path text (a literal or the expression assigned to it) is built from the script's own
/// place, so the file is part of the bundle.
fn own_place(t: &str) -> bool {
    t.has("__file__") || t.has("__dirname") || t.has("import.meta")
}

pub(super) fn exec_file_contents(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b.files.iter().filter(|f| f.kind == FileKind::Code) {
        let lw = file.lowered();
        if !lw.lower.iter().any(|l| RUNNERS.iter().any(|r| l.has(r))) {
            continue;
        }
        let mut calls = 0;
        for (i, l) in lw.lower.iter().enumerate() {
            let Some(run) = RUNNERS.iter().filter_map(|r| runner_at(l, r)).min() else {
                continue;
            };
            // The reader must sit inside the runner's call, before its `.read()` result is used.
            let Some((rd, reader)) = READERS
                .iter()
                .filter_map(|r| reader_at(l, run, r).map(|p| (p, *r)))
                .min_by_key(|(p, _)| *p)
            else {
                continue;
            };
            let reads_all = reader != "open(" && reader != "io.open(" && reader != "codecs.open("
                || l[rd..].has(".read");
            if !reads_all {
                continue;
            }
            // Each call costs a look back and a pass for its download: at most [`MAX_CALLS`] per
            // file keeps the rule linear in bytes.
            calls += 1;
            if calls > MAX_CALLS {
                break;
            }
            let arg = first_arg(l, rd);
            // What the path is: the literal, or the variable's last assignment.
            let (path_text, key): (String, Option<String>) = if let Some(lit) = literal(arg) {
                (lit.to_string(), Some(lit.to_string()))
            } else if identifier(arg) {
                match assigned(&lw.lower, arg, i) {
                    Some(rhs) => (rhs.to_string(), Some(arg.to_string())),
                    None => (arg.to_string(), Some(arg.to_string())),
                }
            } else {
                (arg.to_string(), None)
            };
            if own_place(&path_text) {
                continue;
            }
            // The download: another line naming the path (or its variable) that fetches.
            let lit_of = literal(&path_text).map(str::to_string).unwrap_or_default();
            let download = key.as_deref().and_then(|k| {
                let names: Vec<&str> = [k, lit_of.as_str()]
                    .into_iter()
                    .filter(|n| n.len() >= 3)
                    .collect();
                lw.lower.iter().enumerate().find(|(j, o)| {
                    *j != i && names.iter().any(|n| o.has(n)) && FETCHES.iter().any(|f| o.has(f))
                })
            });
            let t = path_text.trim_matches(|c| c == '"' || c == '\'' || c == '`');
            let outside = t.starts_with('/')
                || t.starts_with('~')
                || t.starts_with("$home")
                || OUTSIDE.iter().any(|w| path_text.has(w));
            let sev = if download.is_some() {
                Severity::Critical
            } else if outside {
                Severity::High
            } else {
                continue;
            };
            let raw = lw.lines[i];
            let mut related = Vec::new();
            let why = if let Some((j, _)) = download {
                related.push(Related {
                    role: "download".into(),
                    file: file.path.into(),
                    line: j + 1,
                    evidence: evidence(lw.lines[j], 0, lw.lines[j].len()),
                });
                format!(
                    "{}:{} runs the text of a file as code, and {}:{} downloads that file: download-then-run in two steps, so what runs is whatever the server sends. Do not install this skill.",
                    file.path,
                    i + 1,
                    file.path,
                    j + 1
                )
            } else {
                format!(
                    "{}:{} runs the text of a file outside the bundle as code (`{}`): nothing you reviewed says what that file holds when it runs. Check where it comes from before using this skill.",
                    file.path,
                    i + 1,
                    t
                )
            };
            out.push(Finding {
                rule_id: "supply_chain.exec-file-contents".into(),
                category: "supply_chain".into(),
                severity: sev,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: why,
                related,
            });
        }
    }
}
