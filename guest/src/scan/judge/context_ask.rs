//! A prompt in code that asks the model for the secrets in its context, with the answer posted
//! (round 41m, `exfiltration.context-secrets-posted`).
//!
//! An MCP server can ask the client's model for a completion (`sampling/createMessage`), and any
//! program with a model client can send it a prompt. A malicious server writes a prompt that asks the
//! model to list the API keys, tokens, passwords or credentials it has seen, or to repeat its system
//! prompt, and posts the answer to a host of its own. A summariser asks for a summary and names no
//! secret; a secret scanner's patterns are not a request to the model.
//!
//! Facts, in one Python or JavaScript/TypeScript code file (not a test): a string literal line that
//! asks for secrets ([`ASKS`] and [`SECRETS`] on one line, inside quotes); and, within [`WINDOW`]
//! lines after it, a post ([`super::harvest::POSTS`], `fetch(`, `https.request(`) not only to this
//! machine nor to a host named after the skill. Judged `critical` at the post, the prompt related.

use super::Bundle;
use super::shapes::{found, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Verbs that ask the model to give something out (lower-case).
const ASKS: &[&str] = &[
    "list all",
    "list every",
    "reveal",
    "print all",
    "output all",
    "repeat your",
    "tell me all",
    "extract all",
    "include all",
];

/// What is asked for (lower-case).
pub(super) const SECRETS: &[&str] = &[
    "api keys",
    "api key",
    "tokens",
    "credentials",
    "passwords",
    "secrets",
    "system prompt",
];

/// Lines after the prompt within which the answer is posted.
const WINDOW: usize = 10;

fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [".js", ".mjs", ".cjs", ".ts", ".py"]
        .iter()
        .any(|e| p.ends_with(e))
}

fn asks_for_secrets(l: &str) -> bool {
    (l.contains('"') || l.contains('\''))
        && ASKS.iter().any(|w| l.contains(w))
        && SECRETS.iter().any(|w| l.contains(w))
}

pub(super) fn context_secrets_posted(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = b.name_words();
    for file in b
        .files
        .iter()
        .filter(|f| is_code(f.path) && !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        if !SECRETS.iter().any(|w| all.contains(w)) || !ASKS.iter().any(|w| all.contains(w)) {
            continue;
        }
        let lw = file.lowered();
        let n = lw.lower.len();
        let Some(ask) = (0..n).find(|&i| asks_for_secrets(&lw.lower[i])) else {
            continue;
        };
        let post = (ask + 1..(ask + 1 + WINDOW).min(n)).find(|&i| {
            let l = &lw.lower[i];
            (super::harvest::POSTS.iter().any(|p| l.contains(p))
                || l.contains("fetch(")
                || l.contains("https.request("))
                && !super::harvest::stays_here(&lw.lines, i, 2, &words)
        });
        let Some(i) = post else {
            continue;
        };
        out.push(found(
            "exfiltration.context-secrets-posted",
            "exfiltration",
            Severity::Critical,
            file,
            i,
            format!(
                "{}:{}: the code asks the model to list the keys, tokens, credentials or system prompt it has seen (line {}) and posts the answer to an outside host. Harvesting secrets out of the agent's context is exfiltration. Do not install this skill.",
                file.path,
                i + 1,
                ask + 1
            ),
            vec![rel("prompt asking for secrets", file, ask)],
        ));
    }
}
