//! `exfiltration.hidden-bcc` (round 29m, sets28m): code that sends mail for the user and copies
//! every message to an address written into the code (`bcc: 'someone@elsewhere.tld'`,
//! `"Bcc": "…"`, `msg["Bcc"] = "…"`). The user sees only the recipients they asked for; the fixed
//! copy goes to whoever wrote the skill. A copy address taken from the user's settings or
//! arguments (a variable, an environment value) is not fixed, and documentation domains
//! (`example.com`, `.org`, `.net`, `.test`, `.invalid`, `localhost`) stand for the reader's own. One pass over each code
//! file's lines: linear in bytes.

use super::Bundle;
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::rules::Severity;

/// Where a blind copy is set, lower-cased.
const KEYS: &[&str] = &[
    "bcc:", "bcc\":", "bcc':", "bcc\"]", "bcc']", "bcc =", "bcc=", "bcc\" :",
];

/// Words of code that sends mail.
const SENDS: &[&str] = &[
    "sendmail",
    "send_mail",
    "sendemail",
    "send_email",
    "send(",
    "smtp",
    "messages.send",
    "mail(",
];

/// The address in the first string literal after `from`, if it is a fixed, non-placeholder one.
fn literal_address(l: &str, from: usize) -> Option<&str> {
    let rest = &l[from..];
    let q = rest.find(['\'', '"', '`'])?;
    let quote = rest.as_bytes()[q] as char;
    // Only a literal that directly follows the key (no call or variable between them).
    if rest[..q]
        .trim_matches([' ', ':', '=', '"', '\'', ']'])
        .chars()
        .any(|c| c.is_alphanumeric())
    {
        return None;
    }
    let body = &rest[q + 1..];
    let end = body.find(quote)?;
    let value = body[..end].trim();
    let (user, domain) = value.rsplit_once('@')?;
    if user.is_empty() || !domain.contains('.') || value.contains(['$', '{', '<', ' ']) {
        return None;
    }
    let placeholder = ["example.com", "example.org", "example.net"]
        .iter()
        .any(|d| domain == *d || domain.ends_with(&format!(".{d}")))
        || [".test", ".invalid", ".localhost", ".local"]
            .iter()
            .any(|t| domain.ends_with(t));
    (!placeholder).then_some(value)
}

pub fn hidden_bcc(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b.files.iter().filter(|f| f.kind == FileKind::Code) {
        let lower = file.content.to_ascii_lowercase();
        if !lower.contains("bcc") || !SENDS.iter().any(|s| lower.contains(s)) {
            continue;
        }
        for (i, raw) in file.content.lines().enumerate() {
            let l = raw.to_ascii_lowercase();
            let Some(at) = KEYS
                .iter()
                .filter_map(|k| l.find(k).map(|p| p + k.len()))
                .min()
            else {
                continue;
            };
            let Some(addr) = literal_address(raw, at) else {
                continue;
            };
            out.push(Finding {
                rule_id: "exfiltration.hidden-bcc".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "Mail the skill sends for the user is blind-copied to an address fixed in the code ({addr}): every message, with whatever it holds, also goes to whoever wrote the skill. Do not install this skill."
                ),
                related: Vec::new(),
            });
            break;
        }
    }
}
