//! Secrecy ordered in a tool's description where the description is not a `description` key
//! (round 47m, held-out set 25; emits round 44m's `prompt_injection.tool-description-concealment`).
//!
//! Round 44m judges a tool description that orders the model to keep something from the user when
//! the text stands on a `"description"` / `description=` line. Two common ways of writing a tool
//! put it elsewhere: Python MCP servers take the description from the function's docstring
//! (`@mcp.tool()` then `def f(…):` then `"""…"""`), and the TypeScript SDK takes it as the second
//! argument of `server.tool("name", "…", schema, handler)`. A line of such a description that holds
//! an order to keep something from the user ([`super::agent_cfg_run::KEEP_FROM_USER`]) is judged
//! `critical`, as round 44m's rule judges it: the user cannot see a tool's description, and a tool
//! has no honest reason to ask the model for secrecy (telling the user an action was blocked or
//! failed is the honest report).
//!
//! Not judged: an order that protects a secret from being shown ("do not tell the user the raw
//! token", [`SECRET_OBJECTS`] after the order); secrecy words in an ordinary comment or a function
//! body; a docstring of a function that is not a tool. One pass over the lowered lines; a docstring
//! is read for at most [`DOC`] lines, a positional description for [`ARGS`] lines.

use super::Bundle;
use super::agent_cfg_run::KEEP_FROM_USER;
use super::shapes::{found, is_code, judged, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Decorators and calls that define a tool (lower-case).
pub(super) const TOOLS: &[&str] = &[
    "@mcp.tool",
    "@server.tool",
    "@app.tool",
    "@tool",
    "server.tool(",
    "registertool(",
];
/// Lines of a docstring read after its opening line.
const DOC: usize = 40;
/// Lines after a `server.tool(` call that may hold its positional description.
const ARGS: usize = 8;
/// Objects of a protective order ("do not tell the user the raw token") (lower-case).
const SECRET_OBJECTS: &[&str] = &[
    "token",
    "password",
    "secret",
    "api key",
    "private key",
    "credential",
    "seed phrase",
];

/// Whether the concealment order on this lowered line protects a secret rather than hides an act.
fn protective(l: &str) -> bool {
    KEEP_FROM_USER.iter().any(|w| {
        l.find(w)
            .is_some_and(|at| SECRET_OBJECTS.iter().any(|o| l[at..].contains(o)))
    })
}

/// The description lines of the tool defined at line `k`, as a range, if it has one of the two
/// shapes this rule reads.
fn description(low: &[String], k: usize) -> Option<(usize, usize)> {
    let l = &low[k];
    if l.starts_with('@') {
        // A decorator: the `def` within three lines, then a docstring opening on the next line.
        let def = (k + 1..(k + 4).min(low.len()))
            .find(|&j| low[j].starts_with("def ") || low[j].starts_with("async def "))?;
        let open = def + 1;
        let first = low.get(open)?;
        let quote = ["\"\"\"", "'''", "r\"\"\"", "r'''"]
            .iter()
            .find(|q| first.starts_with(**q))?;
        let q = &quote[quote.len() - 3..];
        // One-line docstring: opening and closing on the same line.
        if first[quote.len()..].contains(q) {
            return Some((open, open + 1));
        }
        let end = (open + 1..(open + 1 + DOC).min(low.len()))
            .find(|&j| low[j].contains(q))
            .map_or((open + 1 + DOC).min(low.len()), |j| j + 1);
        return Some((open, end));
    }
    // A call: its line and the string lines after it, up to the schema or the handler.
    let end = (k + 1..(k + 1 + ARGS).min(low.len()))
        .find(|&j| {
            let t = &low[j];
            t.contains("=>") || t.contains("z.object") || t.starts_with('{') || t.contains("async ")
        })
        .unwrap_or((k + 1 + ARGS).min(low.len()));
    Some((k, end))
}

pub(super) fn tool_docstring_concealment(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| is_code(f)) {
        let words = file.words();
        if !words.any(KEEP_FROM_USER) || !words.any(TOOLS) {
            continue;
        }
        let low = &file.lowered().lower;
        let mut k = 0;
        while k < low.len() {
            let l = &low[k];
            let tool = if l.starts_with('@') {
                TOOLS[..4].iter().any(|t| {
                    l.strip_prefix(t)
                        .is_some_and(|r| r.is_empty() || r.starts_with('('))
                })
            } else {
                TOOLS[4..].iter().any(|t| l.contains(t))
            };
            let Some((s, e)) = tool.then(|| description(low, k)).flatten() else {
                k += 1;
                continue;
            };
            let hit = (s..e).find(|&j| {
                KEEP_FROM_USER.iter().any(|w| low[j].contains(w)) && !protective(&low[j])
            });
            if let Some(j) = hit
                && !judged(b, out, file, j)
                && !new
                    .iter()
                    .any(|f: &Finding| f.file == file.path && f.line == j + 1)
            {
                new.push(found(
                    "prompt_injection.tool-description-concealment",
                    "prompt_injection",
                    Severity::Critical,
                    file,
                    j,
                    format!(
                        "{}:{}: a tool's description (its {}), which the model reads and the user does not see, orders the model to keep something from the user. A tool has no honest reason to ask for secrecy: do not install this skill.",
                        file.path,
                        j + 1,
                        if l.starts_with('@') {
                            "docstring"
                        } else {
                            "description argument"
                        }
                    ),
                    vec![rel("tool", file, k)],
                ));
            }
            k = e.max(k + 1);
        }
    }
    out.extend(new);
}
