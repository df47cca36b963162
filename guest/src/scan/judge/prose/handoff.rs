//! "Do not ask" said of moving on to the next step of the same flow (round 45b, sets45b).
//!
//! A multi-skill onboarding flow ends one skill with "Automatically proceed to `enable-ssi` (…) or
//! `verify-ssi` (…) — do not ask the user for permission": the permission waived is the one to go
//! on to the next named step, whose own commands keep their own confirmations. Such a phrase is a
//! hand-off, not a standing approval, when
//! - its sentence moves on ("proceed to", "continue to", "move on to", "go on to", "hand off to",
//!   "invoke", "switch to") to a name in a code span (`` `verify-ssi` ``), and names no act of its
//!   own (run, execute, install, delete, send, upload, push, deploy, restart, write, sudo);
//! - and the same file asks the user before acting elsewhere ("wait for user confirmation",
//!   "confirm before", "ask the user before", "wait for the user", "explicit consent"): the skill
//!   keeps the user in the loop for what it does.
//!
//! Such a phrase is graded alone at `medium` (a note to read the next step); a "don't ask" that
//! runs something itself, or a skill that never asks first, keeps the approval judge's grade.

use super::super::At;

/// Words that move on to the next step.
const MOVES_ON: &[&str] = &[
    "proceed to",
    "continue to",
    "move on to",
    "go on to",
    "hand off to",
    "handoff to",
    "switch to",
    "invoke ",
];

/// Acts a sentence may name itself.
const ACTS: &[&str] = &[
    "run ", "execute", "install", "delete", "remove", "send", "upload", "push", "deploy",
    "restart", "write", "sudo", "curl", "bash", "rm ",
];

/// The file's own asks for the user's go-ahead.
const ASKS_FIRST: &[&str] = &[
    "wait for user confirmation",
    "wait for the user",
    "wait for confirmation",
    "confirm before",
    "ask the user before",
    "ask before",
    "explicit consent",
    "user confirms",
    "user has confirmed",
    "ready to proceed?",
];

/// Whether the fact's sentence is a hand-off to a named next step in a file that asks first.
pub(super) fn handoff(a: &At<'_>) -> bool {
    let lower = a.file.lowered();
    let n = (a.fact.line as usize).saturating_sub(1);
    let Some(line) = lower.lower.get(n) else {
        return false;
    };
    // The sentence the phrase is in: from the last full stop before it to the next one.
    let at = (a.fact.at as usize).min(line.len());
    let mut at = at;
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    let start = line[..at].rfind(". ").map_or(0, |i| i + 2);
    let end = line[at..].find(". ").map_or(line.len(), |i| at + i);
    let sentence = &line[start..end];
    let moves_on = MOVES_ON.iter().any(|m| {
        sentence
            .match_indices(m)
            .any(|(i, w)| sentence[i + w.len()..].trim_start().starts_with('`'))
    });
    // What the sentence itself does, without its parenthesised conditions ("(if services have
    // already been restarted)").
    let mut own = String::with_capacity(sentence.len());
    let mut depth = 0usize;
    for c in sentence.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => own.push(c),
            _ => {}
        }
    }
    if !moves_on || ACTS.iter().any(|w| own.contains(w)) {
        return false;
    }
    lower
        .lower
        .iter()
        .enumerate()
        .any(|(i, l)| i != n && ASKS_FIRST.iter().any(|w| l.contains(w)))
}
