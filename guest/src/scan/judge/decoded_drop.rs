//! A decoded blob written to a file that the same script then runs (round 38m,
//! `obfuscation.decoded-file-run`).
//!
//! A dropper hides its second stage as base64 text, writes the decoded bytes to a file (often in a
//! temporary or cache folder, named like a compiled module) and starts that file with an
//! interpreter: `open(p, "w").write(b64decode("…"))` then `call(f"{python} main.py")`;
//! `fs.writeFileSync(p, Buffer.from(s, "base64"))` then `spawn("node", [p])`;
//! `[IO.File]::WriteAllBytes($p, [Convert]::FromBase64String($s))` then `Start-Process $p`;
//! `echo … | base64 -d > x.sh` then `sh x.sh`. What runs is not what a reader sees. Writing a
//! decoded image or a key to disk is not judged: the written name must be run.
//!
//! Facts, in a script the bundle ships: a line that writes and decodes (a write call and a decoder
//! on one line — the decoder also under a local alias, `from base64 import b64decode as b64`), the
//! file name it writes (a quoted name with a runnable extension on that line or the three before
//! it, or a shell redirection target); and, within [`REACH`] lines either side, a line that runs a
//! program or interpreter and names that file. Judged: `critical`, the run line as evidence and
//! the write line related. One pass over the file's lowered lines; windows bounded.

use super::shapes::{is_code, rel};
use super::{Bundle, File};
use crate::scan::content::{Finding, evidence};
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

const REACH: usize = 60;

/// Words without one of which this rule cannot fire (`prose::reads_raw_text`).
/// The words this judge's whole-text gate asks ([`super::File::words`]).
pub(super) const GATE_WORDS: &[&[&str]] = &[RAW];

pub(super) const RAW: &[&str] = &[
    "b64decode",
    "decodebytes",
    "b32decode",
    "a85decode",
    "frombase64string",
    "base64",
    "atob(",
];

/// Decoders (lower-case; a local alias is added per file).
const DECODERS: &[&str] = &[
    "b64decode(",
    "decodebytes(",
    "b32decode(",
    "a85decode(",
    "frombase64string(",
    "'base64')",
    "\"base64\")",
    "atob(",
    "base64 -d",
    "base64 --decode",
    "base64 -d ",
    "base64 -D",
];

/// Calls that write a file (lower-case).
const WRITES: &[&str] = &[
    ".write(",
    "write_bytes(",
    "write_text(",
    "writefilesync(",
    "writefile(",
    "writeallbytes(",
    "writealltext(",
    "set-content",
    "out-file",
];

/// Words of a line that starts a program or an interpreter (lower-case).
const RUNNERS: &[&str] = &[
    "call(",
    "popen(",
    "subprocess.",
    "os.system(",
    "os.startfile(",
    "execfile(",
    "runpy.",
    "spawn(",
    "execsync(",
    "execfilesync(",
    "exec(",
    "start-process",
    "invoke-item",
    "python",
    "node ",
    "bash ",
    "sh ",
    "./",
    "wscript",
    "cscript",
];

/// File extensions a runner can start.
const RUNNABLE: &[&str] = &[
    ".py", ".js", ".mjs", ".cjs", ".sh", ".ps1", ".bat", ".cmd", ".vbs", ".exe", ".jar", ".pl",
    ".rb", ".bin", ".elf",
];

/// Local names bound to a decoder (`from base64 import b64decode as b64` gives `b64(`).
fn aliases(f: &File<'_>) -> Vec<String> {
    let mut out = Vec::new();
    for l in &f.lowered().lower {
        if !(l.has("import") && l.has(" as ")) {
            continue;
        }
        for d in ["b64decode", "decodebytes", "b32decode", "a85decode"] {
            let Some(i) = l.find(d) else { continue };
            let rest = l[i + d.len()..].trim_start();
            if let Some(name) = rest.strip_prefix("as ") {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.push(format!("{name}("));
                }
            }
        }
    }
    out
}

/// Quoted file names with a runnable extension on `line` (lower-case), or the target of a shell
/// redirection (`> x.sh`).
fn written_names(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for q in ['"', '\''] {
        let mut parts = line.split(q);
        parts.next();
        while let Some(inside) = parts.next() {
            let name = inside.rsplit(['/', '\\']).next().unwrap_or(inside);
            if name.len() > 3 && RUNNABLE.iter().any(|e| name.ends_with(e)) && !name.contains(' ') {
                out.push(name.to_owned());
            }
            parts.next();
        }
    }
    if let Some(i) = line.rfind('>') {
        let t = line[i + 1..].trim().trim_matches(['"', '\'']);
        let t = t.split_whitespace().next().unwrap_or("");
        let name = t.rsplit('/').next().unwrap_or(t);
        if name.len() > 2 && name.contains('.') {
            out.push(name.to_owned());
        }
    }
    out
}

pub(super) fn decoded_file_run(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in b.files.iter().filter(|f| is_code(f)) {
        // Gate: a hit needs a decoding line (a decoder of `DECODERS`, a local alias of one, which
        // only an import line naming the decoder makes, or `base64 -d`), and every such word holds
        // one of `RAW`: a file whose lowered text has none of them cannot fire.
        let all = f.words();
        if !RAW.iter().any(|w| all.has(w)) {
            continue;
        }
        let lower = &f.lowered().lower;
        if !lower
            .iter()
            .any(|l| WRITES.iter().any(|w| l.has(w)) || l.contains('>'))
        {
            continue;
        }
        let alias = aliases(f);
        let decodes = |l: &str| {
            // Asked as written, not lowered per call: every decoder's lowered form is in the list
            // (`base64 -D` lowers to `base64 -d`; test `scan_decoded_drop_decoders_lowered`).
            DECODERS.iter().any(|d| l.has(d)) || alias.iter().any(|a| l.has(a.as_str()))
        };
        'lines: for (w, l) in lower.iter().enumerate() {
            let shell_drop = (l.has("base64 -d") || l.has("base64 --decode")) && l.contains('>');
            let decoded_write = decodes(l) && WRITES.iter().any(|x| l.has(x));
            if !decoded_write && !shell_drop {
                continue;
            }
            let near = w.saturating_sub(3);
            let names: Vec<String> = lower[near..=w]
                .iter()
                .flat_map(|k| written_names(k))
                .collect();
            if names.is_empty() {
                continue;
            }
            let lo = w.saturating_sub(REACH);
            let hi = (w + REACH).min(lower.len() - 1);
            for (r, run) in lower.iter().enumerate().take(hi + 1).skip(lo) {
                if (near..=w).contains(&r) {
                    continue;
                }
                if run.starts_with('#') || run.starts_with("//") {
                    continue;
                }
                let Some(name) = names.iter().find(|n| run.has(n.as_str())) else {
                    continue;
                };
                if !RUNNERS.iter().any(|x| run.has(x)) {
                    continue;
                }
                let line = f.lowered().lines[r].trim();
                out.push(Finding {
                    rule_id: "obfuscation.decoded-file-run".into(),
                    category: "obfuscation".into(),
                    severity: Severity::Critical,
                    file: f.path.into(),
                    line: r + 1,
                    evidence: evidence(line, 0, line.len()),
                    description: format!(
                        "{}:{} runs `{name}`, which {}:{} wrote from decoded (base64) text: a dropper. The code that runs is hidden from a reader of the script; decode it offline before trusting it, and do not run this skill.",
                        f.path,
                        r + 1,
                        f.path,
                        w + 1
                    ),
                    related: vec![rel("decoded write", f, w)],
                });
                break 'lines;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DECODERS;

    /// Asking the decoders as written of a lowered line answers as asking them lowered: every
    /// decoder's lowered form is itself in the list.
    #[test]
    fn scan_decoded_drop_decoders_lowered() {
        for d in DECODERS {
            let low = d.to_ascii_lowercase();
            assert!(DECODERS.contains(&low.as_str()), "{d:?}");
        }
        // Must not: a mixed-case decoder never matches a lowered line, so it adds nothing.
        assert!(!"x = base64 -d y".contains("base64 -D"));
    }
}
