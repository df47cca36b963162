//! Secrets swept out of a configuration and printed encoded (round 42m,
//! `exfiltration.secrets-encoded-to-output`).
//!
//! An agent's transcript and a tool's output pass through a redaction filter that masks key-shaped
//! values. The proof of concept of held-out set 20 walks the agent's whole configuration, keeps every
//! field whose name says key, token, secret or password, and prints the lot base64-encoded, so the
//! filter sees no key and the values reach the output (and whoever the output is pasted to).
//!
//! Facts, in one code file (not a test): a sweep — a line selecting by name with two or more of the
//! secret words quoted (`("key", "token", "secret")`) in a test (`any(`, `if`, `for`, `.some(`,
//! `.includes(`, `filter(`); and within [`WINDOW`] lines after it an output call ([`PRINTS`]) that
//! encodes ([`ENCODES`]) on the same line. Judged `critical` at the print, the sweep related. A
//! redaction that assigns a mask (`"***"`, `[redacted]`) inside the window, and an encoded print with
//! no sweep before it (a Kubernetes secret manifest of one named value) are not judged.

use super::Bundle;
use super::find::has;
use super::shapes::{found, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Output calls (lower-case); also this rule's raw words with [`ENCODES`].
pub(super) const PRINTS: &[&str] = &[
    "print(",
    "console.log(",
    "sys.stdout.write(",
    "process.stdout.write(",
];

/// Encodings on the printed line (lower-case).
pub(super) const ENCODES: &[&str] = &["b64encode", "base64", "btoa(", ".hex()", "'hex'", "\"hex\""];

/// Secret words a sweep quotes (lower-case, without quotes).
const WORDS: &[&str] = &[
    "key",
    "token",
    "secret",
    "password",
    "passwd",
    "credential",
    "apikey",
    "api_key",
];

/// Tests a sweep selects with (lower-case).
const TESTS: &[&str] = &[
    "any(",
    "if ",
    "for ",
    ".some(",
    ".includes(",
    "filter(",
    " in ",
];

/// Masks a redaction writes (lower-case).
const MASKS: &[&str] = &[
    "\"***",
    "'***",
    "redacted]",
    "<redacted>",
    "\"[redacted",
    "'[redacted",
];

/// Lines after the sweep within which the encoded print comes.
const WINDOW: usize = 12;

fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [".py", ".js", ".mjs", ".cjs", ".ts", ".rb"]
        .iter()
        .any(|e| p.ends_with(e))
}

fn quoted(l: &str, w: &str) -> bool {
    l.match_indices(w).any(|(p, _)| {
        let b = l.as_bytes();
        p > 0
            && matches!(b[p - 1], b'"' | b'\'')
            && matches!(b.get(p + w.len()), Some(b'"' | b'\''))
    })
}

fn sweep(l: &str) -> bool {
    TESTS.iter().any(|t| has(l, t)) && WORDS.iter().filter(|w| quoted(l, w)).count() >= 2
}

pub(super) fn secrets_encoded_to_output(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| is_code(f.path) && !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        if !PRINTS.iter().any(|w| has(all, w)) || !ENCODES.iter().any(|w| has(all, w)) {
            continue;
        }
        let lw = file.lowered();
        let n = lw.lower.len();
        let hit = (0..n).filter(|&i| sweep(&lw.lower[i])).find_map(|i| {
            let end = (i + WINDOW + 1).min(n);
            if (i..end).any(|k| MASKS.iter().any(|m| has(&lw.lower[k], m))) {
                return None;
            }
            (i..end)
                .find(|&k| {
                    let l = &lw.lower[k];
                    PRINTS.iter().any(|p| has(l, p)) && ENCODES.iter().any(|e| has(l, e))
                })
                .map(|k| (i, k))
        });
        let Some((i, k)) = hit else {
            continue;
        };
        out.push(found(
            "exfiltration.secrets-encoded-to-output",
            "exfiltration",
            Severity::Critical,
            file,
            k,
            format!(
                "{}:{}: the code prints, encoded, the values it selected by secret-like names (keys, tokens, secrets, passwords) at line {}. Encoding them keeps the output's redaction from masking them, so the secrets land in the transcript or wherever the output is pasted. Do not install this skill.",
                file.path,
                k + 1,
                i + 1
            ),
            vec![rel("source", file, i)],
        ));
    }
}
