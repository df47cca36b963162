//! A private-key header with no key after it (round 36b, sets36b).
//!
//! `credential_exposure.private-key` matches the PEM header line (`-----BEGIN OPENSSH PRIVATE
//! KEY-----`). A key that ships has its body right after the header: lines of base64 (after any
//! `Proc-Type:`/`DEK-Info:` header lines), or `\n` and base64 in the same string. Secret scanners,
//! pre-commit hooks and security references show the header alone: as a pattern to look for, a
//! list of the header kinds, a fixture line. Nothing can be taken from such a line.
//!
//! The finding drops to `low` (informational) when neither the rest of its own line nor the next
//! non-blank lines of the file up to an `-----END`/`-----BEGIN` line or a fence carry
//! a run of at least [`BODY_RUN`] base64 characters. A header followed by key material keeps its
//! grade, whatever the file. One look at a few lines per finding.

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// The rule this relaxation reads.
const RULE: &str = "credential_exposure.private-key";

/// A run of base64 this long is key material (PEM bodies are 64 characters a line; the shortest
/// last line of a real key body still follows a full one).
const BODY_RUN: usize = 40;

/// How many non-blank lines after the header are read for its body (the encrypted-PEM header
/// lines come first).
const AFTER: usize = 4;

/// Whether `text` holds a run of at least [`BODY_RUN`] base64 characters.
fn has_body_run(text: &str) -> bool {
    let mut run = 0;
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=' {
            run += 1;
            if run >= BODY_RUN {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Whether the header on 1-based `line` of `text` is followed by key material.
fn followed_by_key(text: &str, line: usize) -> bool {
    let mut lines = text.lines().skip(line.saturating_sub(1));
    let Some(own) = lines.next() else {
        return true;
    };
    // The rest of the header's own line (`"-----BEGIN … KEY-----\nMIIE…"` in one string).
    let rest = own
        .find("KEY-----")
        .map_or("", |i| &own[i + "KEY-----".len()..]);
    if has_body_run(&rest.replace("\\n", " ")) {
        return true;
    }
    for l in lines.filter(|l| !l.trim().is_empty()).take(AFTER) {
        let t = l.trim();
        if t.starts_with("-----") || t.starts_with("```") || t.starts_with("~~~") {
            return false;
        }
        if has_body_run(t) {
            return true;
        }
    }
    false
}

/// Lower private-key headers without a key body to `low` (see the module documentation).
pub(super) fn demote_bare_key_headers(bundle: &Bundle, out: &mut [Finding]) {
    for f in out
        .iter_mut()
        .filter(|f| f.rule_id == RULE && f.severity > Severity::Low && f.line > 0)
    {
        let Some(text) = bundle.text_of(&f.file) else {
            continue;
        };
        if followed_by_key(text, f.line) {
            continue;
        }
        f.severity = Severity::Low;
        f.description.push_str(" (Informational: the header stands alone, with no key material after it: a pattern or a mention of the key kind, not a key.)");
    }
}

#[cfg(test)]
mod tests {
    use super::followed_by_key;

    #[test]
    fn a_header_alone_is_not_a_key() {
        let list =
            "```regex\n-----BEGIN RSA PRIVATE KEY-----\n-----BEGIN OPENSSH PRIVATE KEY-----\n```\n";
        assert!(!followed_by_key(list, 2));
        assert!(!followed_by_key(list, 3));
        let prose = "-----BEGIN EC PRIVATE KEY-----\nis what a leaked key starts with.\n";
        assert!(!followed_by_key(prose, 1));
    }

    #[test]
    fn a_header_with_a_body_is_a_key() {
        let body = "QmFzZTY0IGJvZHkgb2YgYSBrZXkgdGhhdCBpcyBub3QgcmVhbCwgZm9yIHRlc3RzIG9ubHk=";
        let file = format!(
            "-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----\n"
        );
        assert!(followed_by_key(&file, 1));
        let one_line = format!(
            "key = \"-----BEGIN RSA PRIVATE KEY-----\\n{body}\\n-----END RSA PRIVATE KEY-----\""
        );
        assert!(followed_by_key(&one_line, 1));
        let encrypted = format!(
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00AA\n\n{body}\n"
        );
        assert!(followed_by_key(&encrypted, 1));
    }
}
