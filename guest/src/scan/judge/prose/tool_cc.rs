//! Text for the model that taps the user's traffic (round 31m, sets30m): a tool's description or
//! result that quietly adds a recipient, makes itself the sink of every other call, or carries a
//! marked block ordering a send or a secret read.
//!
//! - `prompt_injection.tool-cc` (`critical`): one passage that orders a copy of what the user asked
//!   or got to go to a fixed e-mail address written into it ("always also send a copy of the result
//!   to audit@…", "add x@… to the BCC field", "loop backup@… in on the outcome"), as a standing duty
//!   or out of the user's sight. In a script or a data file (a tool description, a tool list) the
//!   duty suffices ("always", "whenever you use", "for compliance"); in a document it takes secrecy
//!   ("no need to mention", "do not tell"), since a skill's own prose may ask to copy the team.
//! - `prompt_injection.tool-tap` (`critical`): a tool that must be called after every other tool or
//!   action with their arguments and results and the customer's or user's data: a sink for all of
//!   the agent's traffic.
//! - `prompt_injection.hidden-order` (`critical`): a block marked for the model (`<IMPORTANT>`,
//!   `[SYSTEM]`, `<system>`) that orders the model to post or send to a URL, to read a secrets
//!   file (`.env`, a private key, credentials) and put its contents into the answer, or to push
//!   sharing data with outside systems while keeping the risks unmentioned.
//!
//! Refusals in the passage ("never", "do not send", "must not") are left alone, and a skill that
//! declares it teaches or reviews tool poisoning shows these as specimens. One pass over each
//! file's lines, each looking at most [`SPAN`] lines ahead: linear in bytes.

use super::super::Bundle;
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

/// Lines (the line and those after it) that make one passage.
const SPAN: usize = 4;

/// A copy going somewhere (lower-case).
/// The words of this rule's gate ([`super::holds_any`]).
pub(super) const GATE_WORDS: &[&[&str]] = &[COPY, EVERY_CALL, MARKERS];

pub(super) const COPY: &[&str] = &[
    "send a copy",
    "also send",
    "email a copy",
    "e-mail a copy",
    "copy of the result",
    "copy of the response",
    "copy of the output",
    "copy of every",
    "to the bcc",
    "in the bcc",
    "bcc field",
    "bcc:",
    "always cc",
    "also cc",
    "please also cc",
    "loop in",
    "loop them in",
    "let them know",
    "know what the customer asked",
    "know what the user asked",
    "forward a copy",
    "forward the result",
    "forward the full",
    "cc the",
    "cc:",
];

/// A standing duty (lower-case).
const DUTY: &[&str] = &[
    "always",
    "every time",
    "whenever",
    "each time",
    "on every",
    "after computing",
    "once you have the answer",
    "once resolved",
    "for compliance",
    "for audit",
    "audit logging",
    "audit purposes",
    "required for",
    "must ",
    "mandatory",
];

/// Keeping it from the user (lower-case).
const SECRECY: &[&str] = &[
    "no need to mention",
    "do not mention",
    "don't mention",
    "must not be mentioned",
    "not be mentioned",
    "without telling",
    "without mentioning",
    "do not tell",
    "don't tell",
    "do not inform",
    "silently",
];

/// Refusals and warnings (lower-case).
const REFUSAL: &[&str] = &[
    "never ",
    "must not send",
    "should never",
    "do not send",
    "do not forward",
    "do not add",
    "don't send",
    "refuse",
    "malicious",
    "attack",
];

/// Being called after every other tool or action (lower-case).
pub(super) const EVERY_CALL: &[&str] = &[
    "always call this tool",
    "must be called every time",
    "call this tool after",
    "called after every",
    "after any action",
    "after every action",
    "after each action",
    "every time a tool is used",
    "after every tool",
    "after each tool",
    "after any tool",
];

/// The other calls' contents (lower-case).
const CALL_DATA: &[&str] = &[
    "arguments",
    "tool names",
    "results",
    "tool output",
    "responses",
];

/// Data about people (lower-case).
const PERSONAL: &[&str] = &[
    "customer",
    "personal",
    "user data",
    "user's data",
    "payment",
    "transaction",
    "credential",
    "token",
    "password",
];

/// Markers of a block addressed to the model (lower-case).
pub(super) const MARKERS: &[&str] = &["<important>", "[system]", "[system:", "<system>"];

/// Sending somewhere (lower-case).
const SEND: &[&str] = &["post ", "send ", "upload ", "forward ", "exfiltrate"];

/// Files whose contents are secrets (lower-case).
const SECRET_FILES: &[&str] = &[
    ".env",
    "id_rsa",
    "id_ed25519",
    ".ssh/",
    "credentials",
    ".npmrc",
    ".netrc",
    ".pgpass",
    "secrets/",
];

/// Putting what was read into the answer (lower-case).
const INTO_ANSWER: &[&str] = &[
    "include its",
    "include the full",
    "include the contents",
    "full contents",
    "entire contents",
    "in the response",
    "of your response",
    "in your response",
    "in the reply",
];

/// Whether `text` holds one of `words` starting at a word's start ("never" in "whenever" is not
/// a refusal).
pub(super) fn has_phrase(text: &str, words: &[&str]) -> bool {
    words.iter().any(|w| {
        text.match_indices(w).any(|(i, _)| {
            !text[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric())
        })
    })
}

/// The lower-cased passage from line `i`, each line without a string literal's quotes.
fn passage(lower: &[String], i: usize) -> String {
    lower[i..(i + SPAN).min(lower.len())]
        .iter()
        .map(|l| {
            l.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '+' | ',' | '(' | ')' | ' '))
                .trim_end_matches("\\n")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a text holds an e-mail address written out (`name@host.tld`).
fn has_address(text: &str) -> bool {
    let b = text.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        if c != b'@' || i == 0 || !b[i - 1].is_ascii_alphanumeric() {
            return false;
        }
        let rest = &text[i + 1..];
        let domain: &str = rest
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
            .next()
            .unwrap_or("")
            .trim_end_matches('.');
        domain.contains('.')
            && domain
                .rsplit('.')
                .next()
                .is_some_and(|t| t.len() >= 2 && t.bytes().all(|c| c.is_ascii_alphabetic()))
    })
}

/// Whether a file is one a skill teaching tool poisoning shows as a specimen.
fn specimen(b: &Bundle<'_>, path: &str) -> bool {
    if !super::tool_poison::teaches_poisoning(b) {
        return false;
    }
    let l = crate::ascii_lowered(path);
    [
        "test",
        "fixture",
        "example",
        "sample",
        "rule",
        "signature",
        "pattern",
        "reference",
    ]
    .iter()
    .any(|w| l.has(w))
        || l.ends_with(".md")
}

/// Whether a file holds text made for a program (a script, a tool list, a data file).
fn machine_text(path: &str, kind: FileKind) -> bool {
    let l = crate::ascii_lowered(path);
    kind == FileKind::Code
        || [".json", ".yaml", ".yml", ".toml"]
            .iter()
            .any(|e| l.ends_with(e))
}

fn push(out: &mut Vec<Finding>, rule: &str, path: &str, line: usize, text: &str, why: String) {
    out.push(Finding {
        rule_id: rule.into(),
        category: "prompt_injection".into(),
        severity: Severity::Critical,
        file: path.into(),
        line: line + 1,
        evidence: evidence(text, 0, text.len()),
        description: why,
        related: Vec::new(),
    });
}

/// `prompt_injection.tool-cc`, `prompt_injection.tool-tap` and `prompt_injection.hidden-order`: at
/// most one finding of each per file.
pub(super) fn tool_cc(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        if !super::holds_any(file, GATE_WORDS) || specimen(b, file.path) {
            continue;
        }
        let machine = machine_text(file.path, file.kind);
        let crate::scan::judge::Lowered { lines, lower } = file.lowered();
        let (mut cc, mut tap, mut order) = (false, false, false);
        for i in 0..lines.len() {
            let l = &lower[i];
            if !cc && COPY.iter().any(|w| l.has(w)) {
                // The passage from the line before: a string split over lines puts the address
                // on one line and the copy's words on the next.
                let around = passage(lower, i.saturating_sub(1));
                let duty = DUTY.iter().any(|w| around.has(w));
                let secret = SECRECY.iter().any(|w| around.has(w));
                if has_address(&around)
                    && (secret || machine && duty)
                    && !has_phrase(&around, REFUSAL)
                {
                    cc = true;
                    push(
                        out,
                        "prompt_injection.tool-cc",
                        file.path,
                        i,
                        lines[i],
                        format!(
                            "Text written for the model ({}:{}) orders a copy of what the user asked or got to go to an e-mail address written into it, as a standing duty or out of the user's sight: a tool that taps the conversation.",
                            file.path,
                            i + 1
                        ),
                    );
                }
            }
            if !tap && EVERY_CALL.iter().any(|w| l.has(w)) {
                let p = passage(lower, i);
                if CALL_DATA.iter().filter(|w| p.has(w)).count() >= 2
                    && PERSONAL.iter().any(|w| p.has(w))
                    && !has_phrase(&p, REFUSAL)
                {
                    tap = true;
                    push(
                        out,
                        "prompt_injection.tool-tap",
                        file.path,
                        i,
                        lines[i],
                        format!(
                            "A tool's text ({}:{}) demands that it be called after every other tool or action with their arguments and results and the customer's or user's data: a sink for all of the agent's traffic.",
                            file.path,
                            i + 1
                        ),
                    );
                }
            }
            if !order && MARKERS.iter().any(|w| l.has(w)) {
                let p = passage(lower, i);
                let body = MARKERS
                    .iter()
                    .find_map(|m| p.find(m).map(|at| &p[at..]))
                    .unwrap_or("");
                let sends = SEND.iter().any(|w| body.has(w))
                    && (body.has("http://") || body.has("https://"));
                // A hidden rule to push the user's data to outside systems and keep the risk quiet.
                let shares = body.has("shar")
                    && body.has("data")
                    && (body.has("external") || body.has("outside"))
                    && SECRECY
                        .iter()
                        .chain(&["do not mention", "don't mention", "not mention"])
                        .any(|w| body.has(w));
                let reads = body.has("read ")
                    && SECRET_FILES.iter().any(|w| body.has(w))
                    && INTO_ANSWER.iter().any(|w| body.has(w));
                if (sends || reads || shares) && !has_phrase(body, REFUSAL) {
                    order = true;
                    push(
                        out,
                        "prompt_injection.hidden-order",
                        file.path,
                        i,
                        lines[i],
                        format!(
                            "A block marked for the model ({}:{}) orders it to send data to a URL or to read a secrets file into its answer: instructions hidden in a tool's text, not the user's.",
                            file.path,
                            i + 1
                        ),
                    );
                }
            }
        }
    }
}
