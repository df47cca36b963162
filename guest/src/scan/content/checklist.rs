//! A checklist bullet that names a kind of instruction (round 27, sets26b).
//!
//! Review and scanner skills list what to look for as noun phrases: "- Instructions to modify
//! `CLAUDE.md` …", "- Requests to approve every tool call", "- **Prompts that** ask for the
//! system prompt". Such a bullet describes a class of instruction; it does not give one (an
//! instruction starts with its verb: "- Modify `CLAUDE.md` …"). Read as teaching or defending, so its
//! wording is a mention. Not when the noun is followed by whom it addresses ("Instructions to the
//! agent: …", "to your assistant") or when the line carries an address (a URL is a destination, not
//! a category).

use std::sync::OnceLock;

use regex_automata::meta::Regex;

use crate::scan::rules::line_regex;

fn bullet() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+(?:\*\*|__)?(?:instructions?|requests?|prompts?|messages?|comments?)\s+(?:to|that|which)(?:\*\*|__)?\s+[a-z]+")
            .expect("valid")
    })
}

/// Words after "Instructions to" that say whom the instruction addresses, not what it does.
const ADDRESSEES: &[&str] = &[
    "the",
    "a",
    "an",
    "your",
    "you",
    "this",
    "these",
    "that",
    "all",
    "any",
    "every",
    "each",
    "our",
    "my",
    "its",
    "their",
    "agents",
    "agent",
    "model",
    "assistant",
    "user",
    "users",
];

/// Whether a prose line is a checklist bullet naming a kind of instruction (see the module's
/// documentation).
pub(super) fn is_category_bullet(line: &str) -> bool {
    if line.contains("://") || line.len() > 4096 {
        return false;
    }
    let lower = crate::ascii_lowered(line);
    let Some(m) = bullet().find(lower.as_bytes()) else {
        return false;
    };
    let next = lower[..m.end()]
        .rsplit(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    !ADDRESSEES.contains(&next)
}
