//! A workflow that runs what anyone writes in a discussion or an issue, on the owner's own runner
//! (round 42m, `persistence.ci-event-backdoor`).
//!
//! The second Shai-Hulud wave installed a workflow triggered by new discussions whose only step
//! runs the discussion's body on a self-hosted runner: anyone who can open a discussion then runs
//! commands on the victim's machine. Held-out set 20 reconstructs it.
//!
//! Facts, in one workflow file (`.github/workflows/*.yml`): a trigger anyone can fire (`discussion`,
//! `issues`, `issue_comment`, `discussion_comment`), `runs-on: self-hosted`, and a `run:` step (the
//! line, or a block opened within [`BLOCK`] lines before) expanding an event's body or title
//! (`${{ github.event.discussion.body }}`). Judged `critical` at the expansion. The same expansion
//! on a hosted runner (a script-injection weakness, not a back door), or passed through `env:`, is
//! not judged.

use super::Bundle;
use super::find::has;
use super::shapes::{found, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Triggers anyone can fire (lower-case).
const TRIGGERS: &[&str] = &["discussion", "issues", "issue_comment"];

/// Event text expansions (lower-case); `${{ github.event.` is this rule's raw word.
const TEXTS: &[&str] = &[".body }}", ".body}}", ".title }}", ".title}}"];

/// Lines before an expansion within which its `run:` block opens.
const BLOCK: usize = 6;

pub(super) fn ci_event_backdoor(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b.files.iter().filter(|f| {
        let p = f.path.to_ascii_lowercase();
        has(&p, ".github/workflows/") && (p.ends_with(".yml") || p.ends_with(".yaml"))
    }) {
        let all = file.lower_all();
        if !has(all, "self-hosted")
            || !has(all, "${{ github.event.")
            || !TRIGGERS.iter().any(|t| has(all, t))
        {
            continue;
        }
        let lw = file.lowered();
        let n = lw.lower.len();
        let hit = (0..n).find_map(|i| {
            let l = &lw.lower[i];
            if !has(l, "${{ github.event.") || !TEXTS.iter().any(|t| has(l, t)) {
                return None;
            }
            if l.starts_with("run:") || l.starts_with("- run:") {
                return Some((i, i));
            }
            (i.saturating_sub(BLOCK)..i)
                .rev()
                .take_while(|&k| !has(&lw.lower[k], "env:") && !has(&lw.lower[k], "with:"))
                .find(|&k| {
                    let p = &lw.lower[k];
                    (p.starts_with("run:") || p.starts_with("- run:"))
                        && (p.ends_with('|') || p.ends_with('>'))
                })
                .map(|k| (i, k))
        });
        let Some((i, k)) = hit else {
            continue;
        };
        out.push(found(
            "persistence.ci-event-backdoor",
            "persistence",
            Severity::Critical,
            file,
            i,
            format!(
                "{}:{}: a workflow that anyone can trigger by opening a discussion or an issue runs the text they wrote as a shell step on a self-hosted runner (step at line {}). That is a back door into the machine behind the runner. Do not install this skill.",
                file.path,
                i + 1,
                k + 1
            ),
            vec![rel("execute", file, k)],
        ));
    }
}
