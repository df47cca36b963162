//! A secret variable sent by a command written in prose (round 49m, held-out set 27,
//! `exfiltration.prose-secret-send`).
//!
//! A skill's instructions are read by an agent that runs what they say, fenced or not. A line
//! outside every code fence that is itself a command — `curl …`, `wget …`, after a list marker,
//! a `$ ` prompt or a `run:` label — and carries a secret-named variable (`$GITHUB_TOKEN`,
//! `${OPENAI_API_KEY}`) to a host that is not local, a vendor's, an installer's or a registry's,
//! nor named after the skill or the variable, ships that secret as surely as a fenced block does.
//! The fenced form is judged by the key-to-host rules; this is the same act in running text.
//!
//! Facts, on one prose line of a Markdown or text file: after stripping list markers, `>`, `$ `,
//! backticks and a `run:` / `command:` label, the line starts with [`COMMANDS`]; it holds a
//! `$NAME` / `${NAME}` whose name has a secret word ([`SECRET_NAMES`]); and a URL whose host is
//! none of the above. A line that warns against the act ([`WARNS`]) is not judged. Judged
//! `critical` at that line. One pass over the lowered lines.

use super::shapes::{found, judged};
use super::{Bundle, host_named_after, hosts_in};
use crate::scan::content::{FileKind, Finding};
use crate::scan::markdown::{FencePlace, fence_places};
use crate::scan::rules::Severity;

/// Commands that send what they are given (lower-case, with the space after them); also the gate.
pub(super) const COMMANDS: &[&str] = &["curl ", "wget ", "http post ", "https post "];
/// Words in a variable's name that say it holds a secret (upper-case).
const SECRET_NAMES: &[&str] = &[
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "API_KEY",
    "APIKEY",
    "PRIVATE_KEY",
    "ACCESS_KEY",
    "CREDENTIAL",
];
/// Words of a line that teaches or forbids the command rather than ordering it (lower-case).
const WARNS: &[&str] = &[
    "never ",
    "don't",
    "do not",
    "avoid",
    "attack",
    "malicious",
    "example of",
    "such as",
];
/// Prefixes a command line may carry in running text (lower-case).
const LABELS: &[&str] = &["run:", "command:", "exec:", "execute:", "then run", "run "];

/// The line with list markers, quote marks, prompts, backticks and a run label taken off.
fn command_text(l: &str) -> &str {
    let mut t = l.trim_start();
    loop {
        let before = t.len();
        t = t.trim_start_matches(['-', '*', '+', '>', '`', ' ', '\t']);
        let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
        if digits > 0 && matches!(t.as_bytes().get(digits), Some(b'.' | b')')) {
            t = &t[digits + 1..];
        }
        if let Some(r) = t.strip_prefix("$ ") {
            t = r;
        }
        for label in LABELS {
            if let Some(r) = t.strip_prefix(label) {
                t = r;
            }
        }
        if t.len() == before {
            return t;
        }
    }
}

/// The secret-named variables a line expands (`$NAME`, `${NAME}`), as written.
fn secret_vars(line: &str) -> Vec<&str> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' {
            let s = i + 1 + usize::from(b.get(i + 1) == Some(&b'{'));
            let e = s + b[s.min(b.len())..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            let name = &line[s.min(line.len())..e.min(line.len())];
            let upper = name.to_ascii_uppercase();
            if !name.is_empty() && SECRET_NAMES.iter().any(|w| upper.contains(w)) {
                out.push(name);
            }
            i = e.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// The lower-case words of a variable's name long enough to name a vendor (`GITHUB_TOKEN` →
/// `github`).
fn name_vendor_words(name: &str) -> Vec<String> {
    name.split('_')
        .map(|w| w.to_ascii_lowercase())
        .filter(|w| w.len() >= 3 && !matches!(w.as_str(), "token" | "secret" | "key" | "api"))
        .collect()
}

pub(super) fn prose_secret_send(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    let names = b.name_words();
    for file in &b.files {
        if file.kind == FileKind::Code || file.place.test || !file.words().any(COMMANDS) {
            continue;
        }
        let lw = file.lowered();
        let places = fence_places(lw.lines.iter().copied());
        for (i, l) in lw.lower.iter().enumerate() {
            if places[i] != FencePlace::Outside || !l.contains('$') {
                continue;
            }
            let cmd = command_text(l);
            if !COMMANDS.iter().any(|c| cmd.starts_with(c)) || WARNS.iter().any(|w| l.contains(w)) {
                continue;
            }
            let vars = secret_vars(lw.lines[i]);
            let Some(var) = vars.first() else { continue };
            let own = name_vendor_words(var);
            let Some(host) = hosts_in(lw.lines[i]).into_iter().find(|h| {
                h.class.is_outside()
                    && !host_named_after(&h.host, &names)
                    && !host_named_after(&h.host, &own)
            }) else {
                continue;
            };
            if judged(b, out, file, i) {
                continue;
            }
            new.push(found(
                "exfiltration.prose-secret-send",
                "exfiltration",
                Severity::Critical,
                file,
                i,
                format!(
                    "{}:{}: a command written in the instructions' running text sends the secret variable `${var}` to {}, which is neither the service that secret belongs to nor this skill's own. An agent follows running text as readily as a code block: that is the secret shipped out. Do not install this skill.",
                    file.path,
                    i + 1,
                    host.host
                ),
                vec![],
            ));
        }
    }
    out.extend(new);
}
