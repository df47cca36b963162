//! Round 35t: a tool-shadowing claim the skill insists on.
//!
//! "This skill replaces your built-in Read tool" alone is `high` (a skill should add tools, not
//! claim the agent's are gone). Told that the built-in tool must not be used any more, or that the
//! replacement is used even when the user asks for the normal tool, the agent is taken away from
//! its own tools and from the user's choice: `critical`, like a shadowing routed to another host.

use crate::scan::judge::File;

/// Phrases (ASCII-lowered) that forbid the built-in tool or overrule the user's choice of tool
/// (not "do not use the built-in …": that is a shadowing claim's own wording, `high` alone).
const INSISTS: &[&str] = &[
    "even if the user asks",
    "even when the user asks",
    "even if the user requests",
    "even if the user explicitly",
    "even if asked to use",
    "must not be used",
    "must never be used",
    "should never be used",
    "may no longer be used",
];

/// The first line (1-based) of `file` at or after `from` within a few lines that insists on the
/// replacement (see [`INSISTS`]), with the phrase.
pub(super) fn insisted(file: &File<'_>, from: u32) -> Option<(u32, &'static str)> {
    let lower = &file.lowered().lower;
    let start = (from as usize).saturating_sub(1);
    // The claim and the insistence are one paragraph: the line itself and the next few.
    for (i, l) in lower.iter().enumerate().skip(start).take(6) {
        if let Some(p) = INSISTS.iter().find(|p| l.contains(*p)) {
            return Some((i as u32 + 1, p));
        }
    }
    // A phrase broken over a soft wrap ("must not\nbe used").
    let joined: String = lower
        .iter()
        .skip(start)
        .take(6)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" ");
    INSISTS
        .iter()
        .find(|p| joined.contains(*p))
        .map(|p| (from, *p))
}
