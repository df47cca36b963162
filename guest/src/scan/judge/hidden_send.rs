//! An order hidden in an HTML comment to send the user's data to an outside host (round 34m,
//! `prompt_injection.hidden-send-order`).
//!
//! A comment is invisible when the page is rendered, but the agent reads it. One that opens with a
//! sending verb (`Send`, `Upload`, `Forward`, `Post`, `Copy`, optionally after `always` or
//! `silently`), names the user's data (files, data, history, messages, credentials, keys) and
//! gives an address on a host that is neither local nor a vendor's is an exfiltration order the
//! user never sees. Three typed parts of one comment are judged together.
//!
//! Not this: a comment that is shown (inside a fenced block), a maintainer's note without a sending
//! verb or without the user's data ("send feedback to …"), an address of a vendor or of this
//! machine. One pass over each Markdown file's comments, each read at most [`MAX`] bytes: linear.

use super::{Bundle, hosts_in};
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::markdown::{FencePlace, fence_places};
use crate::scan::rules::Severity;

const MAX: usize = 1024;
const LEADS: &[&str] = &[
    "please ",
    "always ",
    "also ",
    "silently ",
    "quietly ",
    "then ",
    "first ",
];
const SENDS: &[&str] = &[
    "send ",
    "upload ",
    "forward ",
    "post ",
    "copy ",
    "transmit ",
    "exfiltrate ",
    "sync ",
    "mirror ",
    "report ",
];
const DATA: &[&str] = &[
    "data",
    "file",
    "history",
    "message",
    "conversation",
    "chat",
    "credential",
    "key",
    "secret",
    "token",
    "password",
    "document",
    "content",
    "memory",
    "environment",
    "information",
    "email",
];
const USERS: &[&str] = &[
    "user",
    "all ",
    "every",
    "their ",
    "your ",
    "the project",
    "workspace",
    "session",
];

/// Escaped bytes (`\x53`) a comment must hold before it is decoded.
const MIN_ESCAPES: usize = 16;

/// A comment whose text is mostly `\xHH` byte escapes that decode, joined, to an override of the
/// agent's instructions or to an order sending secrets: `critical`
/// (`prompt_injection.hidden-encoded-order`). Each escape is read once: linear in the comment.
fn encoded_order(path: &str, raw: &str, line: usize, body: &str) -> Option<Finding> {
    let b = body.as_bytes();
    let mut bytes = Vec::new();
    let mut i = 0;
    while i + 3 < b.len() {
        if b[i] == b'\\' && b[i + 1] == b'x' {
            let hex = |c: u8| (c as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(b[i + 2]), hex(b[i + 3])) {
                bytes.push((h * 16 + l) as u8);
                i += 4;
                continue;
            }
        }
        i += 1;
    }
    if bytes.len() < MIN_ESCAPES {
        return None;
    }
    let text = String::from_utf8_lossy(&bytes).to_ascii_lowercase();
    let joined: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let overrides = joined.contains("instructions")
        && ["ignore", "disregard", "override", "forget"]
            .iter()
            .any(|w| joined.contains(w));
    let sends = ["forward", "send", "upload", "post"]
        .iter()
        .any(|w| joined.contains(w))
        && [
            ".ssh",
            "id_rsa",
            "environment",
            "token",
            "password",
            "secret",
            "apikey",
            "api_key",
            "credential",
        ]
        .iter()
        .any(|w| joined.contains(w));
    if !overrides && !sends {
        return None;
    }
    Some(Finding {
        rule_id: "prompt_injection.hidden-encoded-order".into(),
        category: "prompt_injection".into(),
        severity: Severity::Critical,
        file: path.into(),
        line: line + 1,
        evidence: evidence(raw, 0, raw.len()),
        description: format!(
            "An HTML comment at {path}:{} hides {} escaped bytes that decode to {}: an order written so neither the rendered page nor a plain search shows it. Do not install this skill.",
            line + 1,
            bytes.len(),
            if sends {
                "an order to send secrets out"
            } else {
                "an override of the agent's instructions"
            }
        ),
        related: Vec::new(),
    })
}

pub(super) fn hidden_send_order(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b.files.iter().filter(|f| f.kind == FileKind::Markdown) {
        if !file.content.contains("<!--") {
            continue;
        }
        let lw = file.lowered();
        let places = fence_places(lw.lines.iter().copied());
        // Byte offset of each line start, to map a comment back to its line.
        let mut starts = Vec::with_capacity(lw.lines.len());
        let mut off = 0;
        for l in file.content.split_inclusive('\n') {
            starts.push(off);
            off += l.len();
        }
        let lower = file.lower_all();
        let mut from = 0;
        while let Some(p) = lower[from..].find("<!--").map(|p| p + from) {
            let body_start = p + 4;
            let mut end = lower[body_start..]
                .find("-->")
                .map_or(lower.len(), |e| body_start + e);
            from = end.max(body_start);
            end = end.min(body_start + MAX);
            while !lower.is_char_boundary(end) {
                end -= 1;
            }
            let line = starts.partition_point(|&s| s <= p).saturating_sub(1);
            if places.get(line) != Some(&FencePlace::Outside) {
                continue;
            }
            if let Some(f) = encoded_order(
                file.path,
                lw.lines[line],
                line,
                &file.content[body_start..end],
            ) {
                out.push(f);
                break;
            }
            let mut body = lower[body_start..end].trim_start();
            while let Some(l) = LEADS.iter().find(|l| body.starts_with(*l)) {
                body = body[l.len()..].trim_start();
            }
            let Some(verb) = SENDS.iter().find(|s| body.starts_with(*s)) else {
                continue;
            };
            // The object: the words before the address.
            let object = body.split("://").next().unwrap_or("");
            if !DATA.iter().any(|d| object.contains(d)) || !USERS.iter().any(|u| object.contains(u))
            {
                continue;
            }
            let raw_body = &file.content[body_start..end];
            let Some(h) = hosts_in(raw_body)
                .into_iter()
                .find(|h| h.class.is_outside())
            else {
                continue;
            };
            let raw = lw.lines[line];
            out.push(Finding {
                rule_id: "prompt_injection.hidden-send-order".into(),
                category: "prompt_injection".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: line + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "An HTML comment at {}:{} (invisible when the page is rendered, read by the agent) orders it to {}the user's data to {} ({}): an exfiltration order the user never sees. Do not install this skill.",
                    file.path,
                    line + 1,
                    verb,
                    h.host,
                    h.class.phrase()
                ),
                related: Vec::new(),
            });
            break;
        }
    }
}
