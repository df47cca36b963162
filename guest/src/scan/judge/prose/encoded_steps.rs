//! Instructions hidden behind a decode procedure (round 26): a document that carries an opaque
//! payload (a base85/base64 run, a list of byte values) and tells the reader how to decode it
//! ("Base85 decode the payload", "XOR each byte with key …", "compute x = g(y) with the modular
//! inverse", "interpret the bytes as UTF-8 text"). What the payload says cannot be reviewed, and
//! the reader is the one told to produce and follow it.
//!
//! Two independent signals (a decode procedure and a payload within [`WINDOW`] lines) make the
//! finding `high`; a third (the section installs or sets something up: an install heading, a
//! prerequisite) makes it `critical`. A decode step alone, or a blob alone (a key, a hash, an
//! image in a data URL), is nothing. One pass over each document's lines: linear in bytes.

use super::super::Bundle;
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// Lines within which a decode step and a payload count together.
const WINDOW: usize = 30;

/// Words of a decode procedure.
const STEPS: &[&str] = &[
    "base85 decode",
    "base64 decode",
    "base32 decode",
    "base64-decode",
    "decode the payload",
    "decode the following",
    "decode this payload",
    "decode the string",
    "xor each",
    "xor every",
    "xor the decoded",
    "modular inverse",
    "interpret bytes as",
    "interpret the bytes as",
    "interpret resulting bytes",
    "interpret the resulting bytes",
    "rot13 the",
    "reverse the string and",
];

/// Whether a line is an opaque payload: one word of 80 characters or more, no URL, made of
/// base64/base85 characters; or 30 or more comma-separated byte values.
fn is_payload(line: &str) -> bool {
    let t = line.trim().trim_matches('`');
    if t.len() >= 80 && !t.contains(char::is_whitespace) && !t.contains("://") {
        let letters = t.bytes().filter(u8::is_ascii_alphanumeric).count();
        // Mostly letters and digits (not a rule of dashes or a table border), all printable.
        return letters * 2 >= t.len() && t.bytes().all(|c| c.is_ascii_graphic());
    }
    let mut n = 0;
    for v in t.split(',') {
        let v = v.trim();
        if v.is_empty() || v.len() > 3 || !v.bytes().all(|c| c.is_ascii_digit()) {
            return false;
        }
        n += 1;
    }
    n >= 30
}

fn is_step(line: &str) -> Option<&'static str> {
    let l = crate::ascii_lowered(line);
    STEPS.iter().copied().find(|w| l.contains(w))
}

/// A heading or sentence of installing or setting up ("## Installing …", "Setup", "Prerequisites").
fn installs(line: &str) -> bool {
    let l = crate::ascii_lowered(line);
    [
        "install",
        "setup",
        "set up",
        "prerequisite",
        "before using",
        "first run",
    ]
    .iter()
    .any(|w| l.contains(w))
}

pub(super) fn encoded_steps(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let gate = super::gate(&GATE, STEPS);
    for file in b.files.iter().filter(|f| f.kind != FileKind::Code) {
        if !gate.is_match(file.content) {
            continue;
        }
        let lines: Vec<&str> = file.content.lines().collect();
        let steps: Vec<(usize, &str)> = lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| is_step(l).map(|w| (i, w)))
            .collect();
        let Some(&(first_step, word)) = steps.first() else {
            continue;
        };
        let Some(payload) = lines.iter().enumerate().position(|(i, l)| {
            i.abs_diff(first_step) <= WINDOW && steps.iter().all(|(s, _)| *s != i) && is_payload(l)
        }) else {
            continue;
        };
        let lo = first_step.min(payload).saturating_sub(WINDOW);
        let hi = (first_step.max(payload) + 1).min(lines.len());
        let setup = lines[lo..hi].iter().any(|l| installs(l))
            || b.in_file(file, FactKind::LurePrereq).next().is_some();
        let sev = if setup {
            Severity::Critical
        } else {
            Severity::High
        };
        let shown = |i: usize| {
            let t = lines[i];
            evidence(t, 0, t.len())
        };
        let description = format!(
            "A document carries an opaque payload ({}:{}) and a procedure to decode it (\"{word}\", {}:{}){}: what the decoded text says cannot be reviewed, and the reader is told to produce it. {}",
            file.path,
            payload + 1,
            file.path,
            first_step + 1,
            if setup {
                ", in a section that installs or sets something up"
            } else {
                ""
            },
            if setup {
                "Hidden install steps are how lures get past review: do not install this skill."
            } else {
                "Decode it yourself and read it before following anything it says."
            }
        );
        out.push(Finding {
            rule_id: "obfuscation.encoded-instructions".into(),
            category: "obfuscation".into(),
            severity: sev,
            file: file.path.into(),
            line: first_step + 1,
            evidence: shown(first_step),
            description,
            related: vec![Related {
                role: "payload".into(),
                file: file.path.into(),
                line: payload + 1,
                evidence: shown(payload),
            }],
        });
    }
}
