//! The environment collected into a file by one step and sent out by a later one (round 34m,
//! `exfiltration.staged-send`).
//!
//! Splitting a theft in two keeps each step harmless-looking: step one writes environment names or
//! values, the user name, the home folder or the host name into a file (often a hidden one under
//! `/tmp`), step two reads that file and posts it. Each step may sit in its own code block or
//! script line. The two are joined by the file's path: a later line that names the same path and
//! sends to a host that is neither local nor a vendor's (nor named after the skill), or to an
//! address left as a placeholder for the author to fill (`COLLECTOR_URL/register`,
//! `${WEBHOOK}/in`), is the second half. Environment contents make it `critical`; user, home or
//! host names alone make it `high`, and `critical` when the file is hidden (a dot-name).
//!
//! One pass over each file's lowered lines to find the writes (few), and one pass from each write
//! for its sending line: linear in bytes per write.

use super::{Bundle, host_named_after, hosts_in};
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::judge::find::has;
use crate::scan::rules::Severity;

/// What a collecting line reads: environment contents.
/// The words this judge's whole-text gate asks ([`super::File::words`]).
pub(super) const GATE_WORDS: &[&[&str]] = &[SENDS, ENVS, WHO];

const ENVS: &[&str] = &[
    "os.environ",
    "environ.keys",
    "printenv",
    "$(env",
    "env |",
    "env >",
    "process.env",
    "get-childitem env:",
    "getenvironmentvariables",
];
/// … or who and where the user is.
const WHO: &[&str] = &[
    "whoami",
    "getuser(",
    "gethostname(",
    "hostname",
    "getenv('user",
    "getenv(\"user",
    "getenv('home",
    "getenv(\"home",
    "$user",
    "$home",
    "os.getcwd",
    "uname",
    "id -un",
];
/// Lines that send.
pub(super) const SENDS: &[&str] = &[
    "urlopen(",
    "requests.post",
    "requests.put",
    "httpx.post",
    "curl ",
    "fetch(",
    "invoke-webrequest",
    "invoke-restmethod",
    "iwr ",
    "irm ",
    "axios.post",
    "http.request",
    "wget --post",
    "nc ",
];
/// The most collecting writes followed per file.
const MAX_WRITES: usize = 32;
/// Suffixes of a placeholder name for an address (`COLLECTOR_URL`).
const ADDRESS: &[&str] = &[
    "_URL",
    "_HOST",
    "_ENDPOINT",
    "_SERVER",
    "_WEBHOOK",
    "_URI",
    "_DOMAIN",
];

/// The path a collecting line writes to: `open('p', 'w')`, `> p`, `>> p`, `tee p`,
/// `writeFileSync('p'`, `Out-File p`, `Set-Content p`.
fn written_path(l: &str) -> Option<String> {
    let quoted = |s: &str| -> Option<String> {
        let s = s.trim_start();
        let q = s.chars().next().filter(|c| matches!(c, '"' | '\''))?;
        let inner = &s[1..];
        inner.find(q).map(|e| inner[..e].to_string())
    };
    if let Some(p) = l.find("open(") {
        let rest = l[p + 5..].trim_start();
        if let Some(path) = quoted(rest) {
            let after = &rest[path.len() + 2..];
            if after.trim_start().starts_with(',')
                && ["'w", "\"w", "'a", "\"a"].iter().any(|m| has(after, m))
            {
                return Some(path);
            }
        }
    }
    if let Some(p) = l.find("writefilesync(") {
        return quoted(&l[p + 14..]);
    }
    for op in [">>", ">", "tee ", "out-file ", "set-content "] {
        if let Some(p) = l.rfind(op) {
            let rest = l[p + op.len()..].trim_start();
            if let Some(q) = quoted(rest) {
                return Some(q);
            }
            let tok: String = rest
                .chars()
                .take_while(|c| {
                    !c.is_whitespace() && !matches!(c, ';' | '&' | '|' | ')' | '"' | '\'')
                })
                .collect();
            if tok.contains('/') || tok.starts_with('.') {
                return Some(tok);
            }
        }
    }
    None
}

/// A placeholder address in a sending line (raw case): an upper-case name ending in an address
/// word, alone or as `$NAME` / `${NAME}`.
fn placeholder_address(raw: &str) -> Option<String> {
    raw.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| {
            w.len() > 4
                && w.starts_with(|c: char| c.is_ascii_uppercase())
                && !w.bytes().any(|c| c.is_ascii_lowercase())
                && ADDRESS.iter().any(|s| w.ends_with(s) || *w == &s[1..])
        })
        .map(str::to_string)
}

pub(super) fn staged_send(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = b.name_words();
    for file in &b.files {
        let all = file.words();
        if !SENDS.iter().any(|s| all.has(s))
            || !(ENVS.iter().any(|e| all.has(e)) || WHO.iter().any(|w| all.has(w)))
        {
            continue;
        }
        let lw = file.lowered();
        let mut writes = 0;
        for (i, l) in lw.lower.iter().enumerate() {
            let env = ENVS.iter().any(|e| has(l, e));
            if !env && !WHO.iter().any(|w| has(l, w)) {
                continue;
            }
            let Some(path) = written_path(l).filter(|p| p.len() >= 4) else {
                continue;
            };
            // Each write costs one pass over the lines after it: at most [`MAX_WRITES`] per file
            // keeps the rule linear in bytes.
            writes += 1;
            if writes > MAX_WRITES {
                break;
            }
            // The sending line: a later line naming the path that sends.
            let Some((j, dest)) = (i + 1..lw.lower.len()).find_map(|j| {
                let o = &lw.lower[j];
                if !has(o, path.as_str()) || !SENDS.iter().any(|s| has(o, s)) {
                    return None;
                }
                let raw = lw.lines[j];
                let host = hosts_in(raw)
                    .into_iter()
                    .find(|h| h.class.is_outside() && !host_named_after(&h.host, &words));
                match host {
                    Some(h) => Some((j, format!("{} ({})", h.host, h.class.phrase()))),
                    None => placeholder_address(raw)
                        .map(|p| (j, format!("`{p}`, an address left for someone to fill in"))),
                }
            }) else {
                continue;
            };
            let hidden = path.rsplit('/').next().is_some_and(|n| n.starts_with('.'));
            let sev = if env || hidden {
                Severity::Critical
            } else {
                Severity::High
            };
            let raw = lw.lines[j];
            out.push(Finding {
                rule_id: "exfiltration.staged-send".into(),
                category: "exfiltration".into(),
                severity: sev,
                file: file.path.into(),
                line: j + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{} writes {} into `{path}`{}, and {}:{} reads that file and sends it to {dest}: a theft split in two steps so neither looks like one. Do not install this skill.",
                    file.path,
                    i + 1,
                    if env { "the environment" } else { "the user, home or host name" },
                    if hidden { " (a hidden file)" } else { "" },
                    file.path,
                    j + 1
                ),
                related: vec![Related {
                    role: "source".into(),
                    file: file.path.into(),
                    line: i + 1,
                    evidence: evidence(lw.lines[i], 0, lw.lines[i].len()),
                }],
            });
            break;
        }
    }
}
