//! Emptying the general system log to free a full disk is upkeep, not covering tracks (round 34b).
//!
//! `destructive.anti-forensics` fires on emptying or deleting system logs. An intruder empties
//! them to hide what ran; an operator empties the general log (`/var/log/syslog`,
//! `/var/log/messages` and their rotated copies) when the disk is full. What tells them apart is
//! what else the file says: disk-space upkeep (`df -h`, `du -sh`, "disk full", "no space left",
//! `journalctl --vacuum-…`, `logrotate`) versus concealment. Such a finding drops to `medium` when:
//!
//! - its line targets only the general log (never the login and audit records: `auth.log`,
//!   `secure`, `wtmp`, `btmp`, `lastlog`, `audit/`, and never shell history or Windows event
//!   logs — those erase who did what, and keep `critical` whatever the context);
//! - the same file shows disk-space upkeep;
//! - no file of the bundle has concealment wording (a `conceal` fact: "don't tell the user",
//!   "without the user noticing", "quietly delete…") and no file clears shell history.
//!
//! One pass over the findings; the context test reads each file at most once.

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const RULE: &str = "destructive.anti-forensics";

/// Logs that record who logged in and what they ran: erasing them erases the evidence.
const EVIDENCE_LOGS: &[&str] = &[
    "auth.log", "/secure", "wtmp", "btmp", "lastlog", "/audit", "history", "histfile", "wevtutil",
    "eventlog", "faillog",
];

/// Words that say the file is freeing disk space (compared on lower-cased text).
const UPKEEP: &[&str] = &[
    "df -h",
    "df /",
    "du -sh",
    "du -xh",
    "du -h",
    "disk full",
    "disk is full",
    "disk space",
    "free space",
    "free up space",
    "no space left",
    "out of space",
    "--vacuum",
    "logrotate",
    "disk usage",
];

/// Whether a finding's line empties only the general system log.
fn general_log_only(evidence: &str) -> bool {
    let l = crate::ascii_lowered(evidence);
    (l.contains("/var/log/syslog") || l.contains("/var/log/messages"))
        && !EVIDENCE_LOGS.iter().any(|w| l.contains(w))
}

fn upkeep(content: &str) -> bool {
    let l = crate::ascii_lowered(content);
    UPKEEP.iter().any(|w| l.contains(w))
}

/// Lower the anti-forensics findings of a disk-space upkeep file. `conceals`: whether any file of
/// the bundle has a concealment fact.
pub(super) fn demote_log_upkeep(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals
        || !out
            .iter()
            .any(|f| f.rule_id == RULE && f.severity > Severity::Medium)
    {
        return;
    }
    // Any line of the bundle that clears shell history or the login records keeps every finding.
    if out
        .iter()
        .any(|f| f.rule_id == RULE && !general_log_only(&f.evidence))
    {
        return;
    }
    let mut checked: Vec<(&str, bool)> = Vec::new();
    for f in out
        .iter_mut()
        .filter(|f| f.rule_id == RULE && f.severity > Severity::Medium)
    {
        let ok = match checked.iter().find(|(p, _)| *p == f.file) {
            Some((_, ok)) => *ok,
            None => {
                let ok = bundle
                    .files
                    .iter()
                    .find(|b| b.path == f.file)
                    .and_then(|b| b.content.as_deref())
                    .is_some_and(upkeep);
                if let Some(b) = bundle.files.iter().find(|b| b.path == f.file) {
                    checked.push((b.path.as_str(), ok));
                }
                ok
            }
        };
        if ok {
            f.severity = Severity::Medium;
            f.description.push_str(
                " This file frees disk space (it checks usage or vacuums the journal) and empties only the general system log, not the login or audit records, and nothing in the bundle hides it from the user: it reads as upkeep of a full disk. Past logs are lost; keep a copy if an investigation may need them.",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{general_log_only, upkeep};

    #[test]
    fn only_the_general_log_counts_as_upkeep() {
        assert!(general_log_only("sudo truncate -s 0 /var/log/syslog"));
        assert!(general_log_only(
            "rm -f /var/log/syslog.? /var/log/syslog.*.gz"
        ));
        assert!(!general_log_only(
            ": > /var/log/auth.log; : > /var/log/syslog"
        ));
        assert!(!general_log_only("truncate -s 0 /var/log/wtmp"));
        assert!(!general_log_only("history -c"));
    }

    #[test]
    fn disk_space_words_mark_upkeep() {
        assert!(upkeep("df -h /\ntruncate -s 0 /var/log/syslog"));
        assert!(upkeep("# Disk full? run journalctl --vacuum-size=50M"));
        assert!(!upkeep("truncate -s 0 /var/log/syslog\nrm -rf /tmp/x"));
    }
}
