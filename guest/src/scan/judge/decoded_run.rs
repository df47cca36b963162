//! Commands kept encoded in code and run, and bundled data decrypted and evaluated (round 41m,
//! `execution.decoded-command` and `execution.decrypted-eval`).
//!
//! A package's install step that wants to open a shell or fetch a second stage without showing it
//! keeps the command as a base64 string literal and hands the decoded text to `os.system`,
//! `subprocess`, `exec` or `child_process` (`os.system(b64d("L2Jpbi9iYXNo…"))`). A program that
//! decodes an embedded icon or a test vector runs nothing, and its decoded bytes hold no shell.
//!
//! Facts, in one code file (Python, JavaScript/TypeScript, Ruby, shell, PowerShell; not a test or
//! a signature file):
//! - decoded command: a quoted base64 word of 16 characters or more whose decoding is text holding a
//!   shell-hostile form ([`HOSTILE`]: a `/dev/tcp/` socket, an interactive shell, a pipe to a
//!   shell, a `pty.spawn`, `nc -e`, a download piped or chained to a run), and a runner
//!   ([`RUNNERS`]) in the same file. Judged `critical` at the literal.
//! - decrypted eval: a decryption call ([`DECRYPTS`]) and, within [`EVAL_WINDOW`] lines after it,
//!   code evaluated from a name (`eval(x)`, `new Function(x)`, `exec(x)`, `vm.runInThisContext(x)`):
//!   a program carried encrypted in the package and run at install or import; or, on one line, an
//!   evaluation whose argument is the decryption (`exec(Fernet(k).decrypt(t))`, round 50m). Judged
//!   `critical` at the evaluation, the decryption related.
//!
//! One pass over the file's lowered lines; a literal is decoded once, at most [`MAX_WORD`] bytes.

use super::Bundle;
use super::prose::{b64_decode, b64_value};
use super::shapes::{found, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Decoded text that makes a command hostile (lower-case).
const HOSTILE: &[&str] = &[
    "/dev/tcp/",
    "/dev/udp/",
    "bash -i",
    "sh -i",
    "pty.spawn(",
    "nc -e",
    "ncat -e",
    "| bash",
    "|bash",
    "| sh",
    "|sh",
    "| python",
    "iex(",
    "invoke-expression",
    "downloadstring(",
];

/// Calls that run a command or code (lower-case).
pub(super) const RUNNERS: &[&str] = &[
    "os.system(",
    "subprocess.",
    "os.popen(",
    "exec(",
    "eval(",
    "execsync(",
    "spawn(",
    "child_process",
    "system(",
    "invoke-expression",
    "iex ",
    "| bash",
    "| sh",
];

/// Decryption calls (lower-case).
pub(super) const DECRYPTS: &[&str] = &[
    "createdecipheriv(",
    "createdecipher(",
    "aes.decrypt(",
    "aes.new(",
    "fernet(",
    ".decrypt(",
    "subtle.decrypt(",
];

/// Evaluations of code held in a name (lower-case prefixes; the argument must be a name).
const EVALS: &[&str] = &[
    "eval(",
    "new function(",
    "exec(",
    "runinthiscontext(",
    "runinnewcontext(",
    "vm.runincontext(",
];

/// Lines after a decryption within which its result is evaluated.
const EVAL_WINDOW: usize = 12;

/// The longest base64 word decoded.
const MAX_WORD: usize = 4096;

fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [
        ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".sh", ".bash", ".ps1", ".psm1",
    ]
    .iter()
    .any(|e| p.ends_with(e))
}

/// The quoted base64 words of a line (between matching quotes, 16..=MAX_WORD characters, the
/// alphabet only, `=` padding allowed at the end).
fn quoted_b64(line: &str) -> impl Iterator<Item = &str> {
    let bytes = line.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let q = bytes[i];
            i += 1;
            if q != b'"' && q != b'\'' {
                continue;
            }
            let start = i;
            let mut end = start;
            while end < bytes.len() && bytes[end] != q {
                end += 1;
            }
            if end >= bytes.len() {
                return None;
            }
            i = end + 1;
            let word = &line[start..end];
            let body = word.trim_end_matches('=');
            if (16..=MAX_WORD).contains(&word.len()) && body.bytes().all(|c| b64_value(c).is_some())
            {
                return Some(body);
            }
        }
        None
    })
}

/// Whether a decoded literal is text holding a hostile command.
fn hostile(decoded: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(decoded) else {
        return false;
    };
    let lower = text.to_ascii_lowercase();
    HOSTILE.iter().any(|h| lower.contains(h))
}

/// Whether an evaluation on the line takes a name (not a literal, not an empty call).
fn evaluates_a_name(l: &str) -> Option<usize> {
    for e in EVALS {
        let mut from = 0;
        while let Some(p) = l[from..].find(e).map(|p| p + from) {
            from = p + e.len();
            // `.exec(` of a regex or a database cursor is not code evaluation.
            if *e == "exec(" && l[..p].ends_with('.') {
                continue;
            }
            let mut arg = l[from..].trim_start();
            // `new Function('a', 'b', body)`: the body is the last argument.
            if *e == "new function(" {
                let close = arg.find(')').unwrap_or(arg.len());
                arg = arg[..close].rsplit(',').next().unwrap_or("").trim_start();
            }
            if arg
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            {
                return Some(p);
            }
        }
    }
    None
}

pub(super) fn decoded_run(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| is_code(f.path) && !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        let runs = RUNNERS.iter().any(|r| all.contains(r));
        let decrypts = DECRYPTS.iter().any(|d| all.contains(d));
        if !runs && !decrypts {
            continue;
        }
        let lw = file.lowered();
        let mut decoded_done = !runs;
        let mut decrypt_at: Option<usize> = None;
        let mut eval_done = !decrypts;
        for (i, l) in lw.lower.iter().enumerate() {
            if decoded_done && eval_done {
                break;
            }
            if l.starts_with("//") || l.starts_with('#') {
                continue;
            }
            if !decoded_done {
                let raw = lw.lines[i];
                if quoted_b64(raw).any(|w| b64_decode(w.as_bytes()).is_some_and(|d| hostile(&d))) {
                    decoded_done = true;
                    out.push(found(
                        "execution.decoded-command",
                        "execution",
                        Severity::Critical,
                        file,
                        i,
                        format!(
                            "{}:{}: a base64 string literal decodes to a shell command that opens a shell to a remote socket, runs an interactive shell or pipes a download into an interpreter, and the file runs commands. Keeping a command encoded in code and running it is how a package hides a backdoor from a reader. Do not install this skill.",
                            file.path,
                            i + 1
                        ),
                        Vec::new(),
                    ));
                }
            }
            if !eval_done {
                // Round 50m: decrypted inside the evaluation's own argument
                // (`exec(Fernet(k).decrypt(t))`), on one line.
                let inline = evaluates_a_name(l)
                    .is_some_and(|p| DECRYPTS.iter().any(|d| l[p..].contains(d)));
                if DECRYPTS.iter().any(|d| l.contains(d)) {
                    decrypt_at = Some(i);
                }
                if let Some(d) = decrypt_at.filter(|&d| (i > d || inline) && i - d <= EVAL_WINDOW)
                    && evaluates_a_name(l).is_some()
                {
                    eval_done = true;
                    out.push(found(
                        "execution.decrypted-eval",
                        "execution",
                        Severity::Critical,
                        file,
                        i,
                        format!(
                            "{}:{}: code is decrypted (line {}) and the result evaluated {}. A program shipped encrypted inside a package and run at install or import cannot be read before it runs; that is how droppers hide their payload. Do not install this skill.",
                            file.path,
                            i + 1,
                            d + 1,
                            if d == i {
                                "in the same expression"
                            } else {
                                "a few lines later"
                            }
                        ),
                        vec![rel("decryption", file, d)],
                    ));
                }
            }
        }
    }
}
