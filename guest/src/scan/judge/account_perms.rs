//! The machine's account files opened to everyone (round 34m,
//! `privilege_escalation.account-file-perms`).
//!
//! `/etc/shadow`, `/etc/gshadow` and `/etc/sudoers` are readable by root alone; `/etc/passwd` and
//! `/etc/group` are writable by root alone. A command that changes their mode so that group or
//! others may write them, or others may read the password hashes or the sudo rules
//! (`chmod 777 /etc/shadow`, `chmod o+w /etc/passwd`, `os.chmod("/etc/sudoers", 0o666)`), hands
//! every local account a way to become root: no tuning or setup step needs it. The usual modes
//! (`640`, `440`, `644`) and `chmod` on other files are not judged.
//!
//! One pass over each file's lowered lines; a line is read only when it names `chmod` and one of
//! the files: linear in bytes.

use super::Bundle;
use crate::scan::content::{Finding, evidence};
use crate::scan::rules::Severity;

/// The account files and whether reading them by others is already a leak (hashes, sudo rules).
const FILES: &[(&str, bool)] = &[
    ("/etc/shadow", true),
    ("/etc/gshadow", true),
    ("/etc/sudoers", true),
    ("/etc/passwd", false),
    ("/etc/group", false),
];

/// Words that make a line a warning or a check rather than an order.
const NEGATIONS: &[&str] = &[
    "never",
    "do not",
    "don't",
    "must not",
    "should not",
    "avoid",
    "check",
    "verify",
    "audit",
    "detect",
];

/// The mode a `chmod` line sets, as the group and others digits (numeric modes) or the symbolic
/// clauses that add rights for group, others or all.
fn opens(l: &str, secret: bool) -> Option<String> {
    let at = l.find("chmod")?;
    let rest = &l[at + 5..];
    for tok in rest
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '"' | '\'' | '[' | ']'))
    {
        let t = tok.trim_start_matches("0o");
        if (3..=4).contains(&t.len()) && t.bytes().all(|c| (b'0'..=b'7').contains(&c)) {
            let d: Vec<u8> = t.bytes().map(|c| c - b'0').collect();
            let (g, o) = (d[d.len() - 2], d[d.len() - 1]);
            if g & 2 != 0 || o & 2 != 0 || (secret && o & 4 != 0) {
                return Some(tok.to_string());
            }
            continue;
        }
        if let Some((who, what)) = tok.split_once('+') {
            let who_ok = who.is_empty() || who.contains(['g', 'o', 'a']);
            if who_ok
                && (what.contains('w')
                    || (secret && who.contains(['o', 'a']) && what.contains('r')))
            {
                return Some(tok.to_string());
            }
        }
    }
    None
}

pub(super) fn account_file_perms(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        if !file.lower_all().contains("chmod") || !file.lower_all().contains("/etc/") {
            continue;
        }
        let lw = file.lowered();
        for (i, l) in lw.lower.iter().enumerate() {
            if !l.contains("chmod") || NEGATIONS.iter().any(|w| l.contains(w)) {
                continue;
            }
            let Some(&(path, secret)) = FILES.iter().find(|(p, _)| l.contains(p)) else {
                continue;
            };
            let Some(mode) = opens(l, secret) else {
                continue;
            };
            let raw = lw.lines[i];
            out.push(Finding {
                rule_id: "privilege_escalation.account-file-perms".into(),
                category: "privilege_escalation".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{} sets the mode of {path} to `{mode}`, so accounts other than root may {} it: any local user could then {}. No setup or tuning step needs this. Do not install this skill.",
                    file.path,
                    i + 1,
                    if secret { "read or change" } else { "change" },
                    if secret { "read the password hashes or rewrite the sudo rules and become root" } else { "add an account or change one and become root" },
                ),
                related: Vec::new(),
            });
            break;
        }
    }
}
