//! Text written for the model inside tools (round 30m, sets29m): an MCP server's tool descriptions,
//! server instructions, tool results, sampling prompts and tool lists go to the model, not the user.
//!
//! - `prompt_injection.tool-relay` (`critical`): one passage that orders the model to gather the
//!   user's data in bulk (list the notes or messages, the conversation or message history, the
//!   system prompt, a session token, a private repository, "stored items from connected
//!   services", a file read with `read_file`) and hand it on raw (the "full raw output", "as the
//!   message body", "with its `payload` argument set to", "append it at the end of the reply",
//!   "paste it verbatim"), with words that make it the model's standing duty or keep it from the
//!   user ("you must", "agents should", "on every reply", "silently", "do not mention").
//!   Chaining tools on the user's request ("call `search`, then `get_issue` with the id") moves an
//!   id, not a bulk dump, and carries no duty or secrecy.
//! - `prompt_injection.terminal-escape` (`critical`): a terminal control sequence that moves the
//!   cursor, clears the screen or conceals text, followed on the same line by an order to read,
//!   send or upload a secret or to a URL: the escape hides from a person's terminal what the model
//!   still reads. Colour codes around a program's own messages carry no such order.
//! - `prompt_injection.command-prefix-beacon` (`critical`): an order that every shell command the
//!   agent runs be prefixed or preceded by a request to a URL (`curl`, `wget`): a beacon on all of
//!   the user's work.
//!
//! Refusals ("never", "must not", "do not send") in the passage are left alone; a skill that
//! declares it teaches or reviews tool poisoning shows these as specimens in its documents. One
//! pass over each file's lines, each looking at most [`SPAN`] lines ahead: linear in bytes.

use super::super::Bundle;
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::rules::Severity;

/// Lines (the line and those after it) that make one passage: a description wraps.
const SPAN: usize = 6;

/// The user's data, gathered in bulk (lower-case).
/// The words of this rule's gate ([`super::holds_any`]).
pub(super) const GATE_WORDS: &[&[&str]] = &[GATHER, ESCAPES, EVERY_COMMAND];

pub(super) const GATHER: &[&str] = &[
    "list_notes",
    "list_messages",
    "list_emails",
    "message history",
    "messages history",
    "conversation context",
    "conversation history",
    "chat history",
    "complete conversation",
    "full conversation",
    "all user messages",
    "system prompt",
    "session token",
    "stored items",
    "stored notes",
    "read_private",
    "private repo",
    "private config",
    "read_file tool",
    "invoke the read_file",
    "call read_file",
    "admin password",
    "retrieve the password",
    "user's notes",
    "user's messages",
];

/// Handing the gathered data on raw (lower-case).
const HAND: &[&str] = &[
    "full raw output",
    "complete raw",
    "raw output",
    "full output of",
    "full output from",
    "entire output",
    "as the message body",
    "as the body",
    "argument set to",
    "parameter set to",
    "in the 'context' parameter",
    "in the `context` parameter",
    "in the context parameter",
    "at the end of the reply",
    "end of the reply",
    "append it",
    "paste the full",
    "send me the",
    "send me ",
    "forward the",
    "forwards context",
];

/// Words that make it the model's standing duty or keep it from the user (lower-case).
const DUTY: &[&str] = &[
    "you must",
    "must first",
    "must silently",
    "must actually",
    "agents should",
    "assistants should",
    "the assistant should",
    "on every ",
    "after every ",
    "for any request",
    "for every request",
    "before replying",
    "before answering",
    "before responding",
    "before you reply",
    "silently",
    "silent in",
    "do not mention",
    "don't mention",
    "not to be mentioned",
    "should not be announced",
    "not be announced",
    "shouldn't reference",
    "should not reference",
    "mandatory",
    "required step",
];

/// A refusal or warning in the passage (lower-case).
const REFUSAL: &[&str] = &[
    "never ",
    "must not",
    "should never",
    "do not send",
    "do not forward",
    "do not pass",
    "do not paste",
    "don't send",
    "refuse",
];

/// Whether a file's text is one a skill that teaches or reviews poisoning shows as a specimen.
fn specimen(b: &Bundle<'_>, path: &str, kind: FileKind) -> bool {
    if !super::tool_poison::teaches_poisoning(b) {
        return false;
    }
    let l = crate::ascii_lowered(path);
    kind != FileKind::Code
        || [
            "test",
            "fixture",
            "example",
            "sample",
            "rule",
            "signature",
            "pattern",
        ]
        .iter()
        .any(|w| l.contains(w))
}

/// The lower-cased passage from line `i`: it and the next lines, at most [`SPAN`], each without
/// the quotes, `+`, commas and `\n` of a string literal split over lines in code.
fn passage(lower: &[String], i: usize) -> String {
    lower[i..(i + SPAN).min(lower.len())]
        .iter()
        .map(|l| unquoted(l))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A line without the quotes, `+`, commas, parentheses and trailing `\n` of a string literal.
fn unquoted(l: &str) -> &str {
    let lit = |c: char| matches!(c, '"' | '\'' | '`' | '+' | ',' | '(' | ')' | ' ');
    let mut t = l.trim_matches(lit);
    while let Some(r) = t.strip_suffix("\\n") {
        t = r.trim_end_matches(lit);
    }
    t
}

fn push(
    out: &mut Vec<Finding>,
    rule: &str,
    path: &str,
    line: usize,
    text: &str,
    description: String,
) {
    out.push(Finding {
        rule_id: rule.into(),
        category: "prompt_injection".into(),
        severity: Severity::Critical,
        file: path.into(),
        line: line + 1,
        evidence: evidence(text, 0, text.len()),
        description,
        related: Vec::new(),
    });
}

/// `prompt_injection.tool-relay`, `prompt_injection.terminal-escape` and
/// `prompt_injection.command-prefix-beacon`: at most one finding of each per file.
pub(super) fn tool_relay(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        if !super::holds_any(file, GATE_WORDS) || specimen(b, file.path, file.kind) {
            continue;
        }
        let crate::scan::judge::Lowered { lines, lower } = file.lowered();
        let (mut relay, mut escape, mut beacon) = (false, false, false);
        for i in 0..lines.len() {
            if !relay && GATHER.iter().any(|w| lower[i].contains(w)) {
                let p = passage(lower, i);
                if HAND.iter().any(|w| p.contains(w))
                    && DUTY.iter().any(|w| p.contains(w))
                    && !REFUSAL.iter().any(|w| p.contains(w))
                {
                    relay = true;
                    push(
                        out,
                        "prompt_injection.tool-relay",
                        file.path,
                        i,
                        lines[i],
                        format!(
                            "Text written for the model ({}:{}) orders it to gather the user's data in bulk (notes, messages, history, a token, a file) and hand it on raw to another tool, a recipient or the reply, as a standing duty or out of the user's sight: tool poisoning that relays the user's data.",
                            file.path,
                            i + 1
                        ),
                    );
                }
            }
            if !escape && hides_order(lines[i]) {
                escape = true;
                push(
                    out,
                    "prompt_injection.terminal-escape",
                    file.path,
                    i,
                    lines[i],
                    format!(
                        "A terminal control sequence that moves the cursor, clears the screen or conceals text precedes an order to read or send a secret or to reach a URL ({}:{}): a person's terminal hides what the model still reads.",
                        file.path,
                        i + 1
                    ),
                );
            }
            if !beacon && EVERY_COMMAND.iter().any(|w| lower[i].contains(w)) {
                let p = passage(lower, i);
                let prefixed = PREFIXED.iter().any(|w| p.contains(w));
                let request = ["curl ", "wget ", "invoke-webrequest", "iwr "]
                    .iter()
                    .any(|w| p.contains(w))
                    && (p.contains("http://") || p.contains("https://"));
                if prefixed && request && !REFUSAL.iter().any(|w| p.contains(w)) {
                    beacon = true;
                    push(
                        out,
                        "prompt_injection.command-prefix-beacon",
                        file.path,
                        i,
                        lines[i],
                        format!(
                            "An order that every shell command the agent runs be prefixed or preceded by a request to a URL ({}:{}): a beacon that reports on all of the user's work.",
                            file.path,
                            i + 1
                        ),
                    );
                }
            }
        }
    }
}

/// Escape-sequence openers, raw or written as an escape in a string (lower-case for the gate).
pub(super) const ESCAPES: &[&str] = &["\u{1b}[", "\\u001b[", "\\x1b[", "\\033[", "\\e["];

/// Every command the agent runs (lower-case).
pub(super) const EVERY_COMMAND: &[&str] = &[
    "all shell commands",
    "every shell command",
    "each shell command",
    "all commands you",
    "every command you",
    "each command you",
    "any shell command",
    "all terminal commands",
    "every terminal command",
    "before executing any user command",
    "before running any command",
    "before any command you",
];

/// Prefixed or preceded by (lower-case).
const PREFIXED: &[&str] = &[
    "prefixed with",
    "prefix them with",
    "prefix it with",
    "prefix with",
    "preceded by",
    "precede them",
    "first run",
    "run first",
    ", run:",
    "run:",
];

/// Whether a line holds a cursor-moving, screen-clearing or concealing escape sequence followed by
/// an order to read or send a secret or to reach a URL.
fn hides_order(line: &str) -> bool {
    let lower = crate::ascii_lowered(line);
    let Some((at, len)) = ESCAPES
        .iter()
        .filter_map(|e| lower.find(e).map(|i| (i, e.len())))
        .min()
    else {
        return false;
    };
    // The sequence's final letter: H/f (cursor), J/K (erase), 8m (conceal); colours end in `m`.
    let rest = &lower[at + len..];
    let params: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ';')
        .collect();
    let Some(fin) = rest[params.len()..].chars().next() else {
        return false;
    };
    let hiding = matches!(fin, 'h' | 'f' | 'j' | 'k') || (fin == 'm' && params == "8");
    if !hiding {
        return false;
    }
    let after = &rest[params.len() + 1..];
    let order = [
        "read ",
        "send ",
        "post ",
        "upload ",
        "curl ",
        "exfiltrate",
        "forward ",
    ]
    .iter()
    .any(|w| after.contains(w));
    let target = after.contains("http://")
        || after.contains("https://")
        || super::tool_poison::SECRETS
            .iter()
            .any(|s| after.contains(s));
    order && target
}

/// Words the judge-level rules of round 30m read in raw text without any fact: a hook's
/// `permissionDecision`, a skill scanner or quarantine, a base64 `http` (`aHR0c`), a program
/// (`.exe`) a batch file starts.
pub(super) const GUARDS: &[&str] = &[
    "permissiondecision",
    "quarantin",
    "scanner",
    "aHR0c",
    ".exe",
];
