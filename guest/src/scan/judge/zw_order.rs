//! An order spelled with zero-width characters between its letters (round 36m,
//! `prompt_injection.zero-width-order`).
//!
//! A sentence written `r​u​n​ ​s​e​t​u​p` (a zero-width space or joiner after every letter) looks
//! like ordinary text on screen and to the model, but a reader's search, a review tool or a
//! pattern matches none of its words. The invisible-text rules already note zero-width characters;
//! letters interleaved with them at length are no accident of copy and paste (those leave one or
//! two, at word edges), and when the hidden sentence, read without them, tells the agent to run,
//! install, fetch, send or approve something, or to ignore its instructions, the skill hides an
//! order from whoever reviews it: `critical`.
//!
//! Letters of other scripts joined the way their writing needs (the zero-width non-joiner of
//! Persian, emoji sequences) are not interleaved ASCII letters and are not read. One pass over
//! each line: linear in bytes.

use super::Bundle;
use crate::scan::content::{Finding, evidence};
use crate::scan::rules::Severity;

/// Invisible characters a hidden sentence is spelled with.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'
            | '\u{200C}'
            | '\u{200D}'
            | '\u{2060}'
            | '\u{2061}'
            | '\u{2062}'
            | '\u{2063}'
            | '\u{2064}'
            | '\u{FEFF}'
            | '\u{180E}'
    )
}

/// Direction marks that wrap a hidden run (dropped with the invisible characters).
fn direction_mark(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}')
}

/// How many times an ASCII letter, invisible characters, then an ASCII letter occur in a row.
const MIN_INTERLEAVED: usize = 8;

/// Words that make the hidden sentence an order (lower-case, matched on the cleaned text).
const ORDERS: &[&str] = &[
    "run ",
    "execute",
    "approve",
    "install",
    "download",
    "curl",
    "wget",
    "send ",
    "upload",
    "post ",
    "ignore",
    "disregard",
    "forget",
    "delete",
    "paste",
    "read ",
    "copy ",
    "bash",
    "allow",
    "grant",
    "do not tell",
    "don't tell",
];

/// Words for this rule to read a file at all (`prose::reads_raw_text`): the zero-width characters.
pub(super) const RAW: &[&str] = &["\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}"];

pub(super) fn zero_width_order(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        if file.content.is_ascii() {
            continue;
        }
        for (i, raw) in file.content.lines().enumerate() {
            if raw.is_ascii() {
                continue;
            }
            let mut interleaved = 0;
            let mut prev_letter = false;
            let mut gap = false;
            let mut clean = String::with_capacity(raw.len());
            for c in raw.chars() {
                if invisible(c) {
                    gap = prev_letter;
                    continue;
                }
                if direction_mark(c) {
                    continue;
                }
                if c.is_ascii_alphabetic() {
                    if gap {
                        interleaved += 1;
                    }
                    prev_letter = true;
                } else {
                    prev_letter = false;
                }
                gap = false;
                clean.push(c);
            }
            if interleaved < MIN_INTERLEAVED {
                continue;
            }
            let lc = crate::ascii_lowered(&clean).into_owned();
            let Some(order) = ORDERS.iter().find(|w| lc.contains(*w)) else {
                continue;
            };
            let shown = clean.trim();
            out.push(Finding {
                rule_id: "prompt_injection.zero-width-order".into(),
                category: "prompt_injection".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(shown, 0, shown.len()),
                description: format!(
                    "{}:{} spells a sentence with invisible zero-width characters between its letters ({interleaved} times), so a reader's search or a review tool finds none of its words while the model reads it; without them it says \"{}\", an order (`{}`). A skill that hides its instructions from review is not to be trusted.",
                    file.path,
                    i + 1,
                    evidence(shown, 0, shown.len()),
                    order.trim()
                ),
                related: Vec::new(),
            });
        }
    }
}
