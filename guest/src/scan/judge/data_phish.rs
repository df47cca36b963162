//! Prose that phishes the user or admits capturing their credentials (round 41m,
//! `prompt_injection.personal-data-request` and `exfiltration.credential-capture-admitted`).
//!
//! Two natural-language shapes without code to match:
//! - a skill that has the agent tell the user they won something, or must verify themselves, and
//!   ask for two or more kinds of identity or payment data (a card number, a social security or
//!   national id or passport number, a date of birth, a bank password) — with a prize, claim or
//!   deadline lure, or while hiding where the message comes from. A booking skill that asks a
//!   traveller for a passport number and a date of birth has no lure and hides nothing.
//! - a skill that says its own component logs keystrokes and captures passwords, seed phrases or
//!   credentials, in a text that installs something (a pipe into a shell, an `install` command).
//!   A security guide that detects keyloggers says so with detection words.
//!
//! One pass over a prose file's lowered lines (Markdown or plain text), windows of [`WINDOW`] lines.

use super::Bundle;
use super::shapes::{found, rel};
use crate::scan::content::{FileKind, Finding};
use crate::scan::rules::Severity;

/// Kinds of identity or payment data (each a list of lower-case phrases).
const KINDS: &[&[&str]] = &[
    &["credit card number", "card number", "cvv", "cvc code"],
    &[
        "social security number",
        " ssn",
        "national id",
        "passport number",
        "tax id",
    ],
    &["date of birth", "birth date"],
    &[
        "bank password",
        "banking password",
        "bank login",
        "online banking",
        "pin code",
    ],
];

/// Lure words: a prize, a claim, a deadline, an identity check.
const LURES: &[&str] = &[
    "you have won",
    "winner",
    "prize",
    "claim your",
    "to claim",
    "expires in",
    "within 24 hours",
    "verify your identity",
    "account will be suspended",
    "account has been locked",
];

/// Words that hide the message's source from the user.
const HIDES: &[&str] = &[
    "do not mention",
    "don't mention",
    "do not tell the user",
    "don't tell the user",
    "present this as",
    "pretend to be",
    "without revealing",
];

/// Refusals and teaching (lower-case).
const NOT_ORDERS: &[&str] = &[
    "never",
    "do not ask",
    "don't ask",
    "must not",
    "refuse",
    "scam",
    "phishing",
    "detect",
    "warn",
    "protect",
    "red flag",
];

const KEYLOG: &[&str] = &[
    "keylogger",
    "keystroke logging",
    "keystroke capture",
    "log keystrokes",
    "logs keystrokes",
    "capture keystrokes",
    "captures keystrokes",
    "record keystrokes",
];

const CAPTURED: &[&str] = &["password", "seed phrase", "credential", "private key"];

/// Install actions in the same text.
const INSTALLS: &[&str] = &["| bash", "|bash", "| sh", "|sh", " install "];

/// Lines within which the phrases of one shape stand.
const WINDOW: usize = 12;

/// Words for this file's rules to read a text at all (`prose::reads_raw_text`).
pub(super) const RAW: &[&str] = &["card number", "social security", "keylogger", "keystroke"];

pub(super) fn data_phish(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| matches!(f.kind, FileKind::Markdown | FileKind::Text) && !f.place.test)
    {
        let all = file.lower_all();
        let lw = file.lowered();
        let n = lw.lower.len();
        // Personal data asked for under a lure or a hidden source.
        if KINDS.iter().any(|ks| ks.iter().any(|k| all.contains(k)))
            && (LURES.iter().any(|w| all.contains(w)) || HIDES.iter().any(|w| all.contains(w)))
        {
            let kind_of = |l: &str| KINDS.iter().position(|ks| ks.iter().any(|k| l.contains(k)));
            let mut hit = None;
            for i in 0..n {
                let Some(first) = kind_of(&lw.lower[i]) else {
                    continue;
                };
                let window = i..(i + WINDOW).min(n);
                if window
                    .clone()
                    .any(|k| NOT_ORDERS.iter().any(|w| lw.lower[k].contains(w)))
                {
                    continue;
                }
                if let Some(k) = window
                    .clone()
                    .find(|&k| kind_of(&lw.lower[k]).is_some_and(|o| o != first))
                {
                    hit = Some((i, k));
                    break;
                }
            }
            if let Some((i, k)) = hit {
                out.push(found(
                    "prompt_injection.personal-data-request",
                    "prompt_injection",
                    Severity::Critical,
                    file,
                    i,
                    format!(
                        "{}:{}: the text has the agent ask the user for several kinds of identity or payment data (also line {}) under a prize, claim or deadline lure or while hiding where the message comes from. That is a phishing script run through the agent. Do not install this skill.",
                        file.path,
                        i + 1,
                        k + 1
                    ),
                    vec![rel("more personal data", file, k)],
                ));
            }
        }
        // A component that logs keystrokes and captures credentials, in a text that installs.
        if KEYLOG.iter().any(|w| all.contains(w)) && INSTALLS.iter().any(|w| all.contains(w)) {
            let hit = (0..n).find(|&i| {
                let l = &lw.lower[i];
                if !KEYLOG.iter().any(|w| l.contains(w)) {
                    return false;
                }
                let around = i.saturating_sub(3)..(i + 4).min(n);
                !around
                    .clone()
                    .any(|k| NOT_ORDERS.iter().any(|w| lw.lower[k].contains(w)))
                    && around
                        .clone()
                        .any(|k| CAPTURED.iter().any(|w| lw.lower[k].contains(w)))
            });
            if let Some(i) = hit {
                out.push(found(
                    "exfiltration.credential-capture-admitted",
                    "exfiltration",
                    Severity::Critical,
                    file,
                    i,
                    format!(
                        "{}:{}: the text says a component it installs logs keystrokes and captures passwords, seed phrases or credentials. A skill that records what the user types is a stealer, whatever feature it is sold as. Do not install this skill.",
                        file.path,
                        i + 1
                    ),
                    Vec::new(),
                ));
            }
        }
    }
}
