//! What an HTML comment hides, read from the comment itself (round 26): a command that reads a
//! credential store or reaches an outside host, and base64 that decodes to words. Both are
//! `prompt_injection.hidden-instructions`: text the user does not see when the file is rendered.
//!
//! Two independent signals make a finding `critical` (the comment hides a command *and* that
//! command names a secret and an outside host; the comment hides base64 *and* it decodes to an
//! instruction); one alone is `high`. The comment is read from its start to its `-->`, at most
//! [`COMMENT_MAX`] bytes, once per comment fact: linear in bytes.

use super::super::{At, Bundle, finding, hosts_in};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// The longest comment read, in bytes.
const COMMENT_MAX: usize = 4096;

/// Credential stores and secret words a hidden command may name.
const SECRET_WORDS: &[&str] = &[
    "/.ssh",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    ".env",
    ".aws/",
    "credentials",
    ".netrc",
    "keychain",
    "wallet",
    "api_key",
    "apikey",
    "token",
    "password",
    "private key",
    "secret",
];

/// The comment's text from the fact's `<!--` to its `-->` (or [`COMMENT_MAX`] bytes).
fn comment_body<'a>(at: &At<'a>) -> &'a str {
    let content = at.file.content;
    let start = at.fact.start as usize;
    let rest = content.get(start..).unwrap_or("");
    let from = rest.find("<!--").map_or(0, |i| i + 4);
    let rest = &rest[from..];
    let mut end = rest.find("-->").unwrap_or(rest.len()).min(COMMENT_MAX);
    while !rest.is_char_boundary(end) {
        end -= 1;
    }
    &rest[..end]
}

fn names_secret(text: &str) -> Option<&'static str> {
    let l = crate::ascii_lowered(text);
    SECRET_WORDS.iter().copied().find(|w| l.contains(w))
}

/// A hidden comment that holds a command (`prompt_injection.comment-command` facts).
pub(super) fn comment_command(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for at in b
        .all(FactKind::HiddenMarkup)
        .filter(|a| b.tag(a.fact) == "comment-command")
    {
        let body = comment_body(&at);
        let host = hosts_in(body).into_iter().find(|h| h.class.is_outside());
        let secret = names_secret(body);
        if host.is_none() && secret.is_none() {
            continue;
        }
        let sev = if host.is_some() && secret.is_some() {
            Severity::Critical
        } else {
            Severity::High
        };
        let mut what = Vec::new();
        if let Some(s) = secret {
            what.push(format!("names a secret (`{s}`)"));
        }
        if let Some(h) = &host {
            what.push(format!("reaches {} ({})", h.host, h.class.phrase()));
        }
        let why = format!(
            "An HTML comment at {} hides a command from anyone reading the rendered page, and the command {}. {}",
            at.place(),
            what.join(" and "),
            if sev == Severity::Critical {
                "A hidden step that sends a secret out is exfiltration: do not install this skill."
            } else {
                "Read the comment in the raw file before using this skill."
            }
        );
        out.push(finding(
            "prompt_injection.hidden-instructions",
            "prompt_injection",
            sev,
            at,
            why,
            Vec::new(),
        ));
        return;
    }
}

/// Base64 alphabet (standard and URL-safe) to its 6-bit value.
pub(in crate::scan::judge) fn b64_value(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

/// Decodes base64 (padding and line breaks already removed); `None` on a byte outside the
/// alphabet. Shared with `judge::hidden_dest`.
pub(in crate::scan::judge) fn b64_decode(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &c in s {
        acc = (acc << 6) | b64_value(c)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// The base64 a comment holds: its lines that are one base64 word of 24 characters or more,
/// joined (a blob wrapped over lines).
fn comment_base64(body: &str) -> Vec<u8> {
    let mut blob = Vec::new();
    for line in body.lines() {
        let w = line.trim().trim_end_matches('=');
        if w.len() >= 24 && w.bytes().all(|c| b64_value(c).is_some()) {
            blob.extend_from_slice(w.as_bytes());
        }
    }
    blob
}

/// Words of an instruction or a command in decoded text.
const ORDER_WORDS: &[&str] = &[
    "instruction",
    "ignore",
    "always",
    "never",
    "must",
    "send",
    "upload",
    "curl",
    "wget",
    "http",
    "exfil",
    "execute",
    "run ",
    "hidden",
    "do not tell",
    "don't tell",
];

/// Base64 hidden in a comment of a document: decoded, printable text is hidden words (high);
/// decoded words that order or command something are a hidden instruction (critical).
pub(super) fn comment_base64_text(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for at in b
        .all(FactKind::HiddenMarkup)
        .filter(|a| a.file.kind != crate::scan::content::FileKind::Code)
    {
        let body = comment_body(&at);
        let blob = comment_base64(body);
        if blob.len() < 60 {
            continue;
        }
        let Some(bytes) = b64_decode(&blob) else {
            continue;
        };
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        let printable = text
            .chars()
            .filter(|c| !c.is_control() || c.is_whitespace())
            .count();
        let spaces = text.chars().filter(|c| *c == ' ').count();
        // Words, not an image or a key: printable, with spaces between words.
        if printable * 10 < text.chars().count() * 9 || spaces * 20 < text.len() {
            continue;
        }
        let lower = text.to_lowercase();
        let order = ORDER_WORDS.iter().copied().find(|w| lower.contains(w));
        let sev = if order.is_some() {
            Severity::Critical
        } else {
            Severity::High
        };
        let shown: String = text.chars().take(120).collect();
        let why = format!(
            "An HTML comment at {} hides base64 that decodes to words: \"{}\"{}. {}",
            at.place(),
            shown.replace(['\n', '\r'], " "),
            order
                .map(|w| format!(" (an instruction: `{}`)", w.trim()))
                .unwrap_or_default(),
            if sev == Severity::Critical {
                "Encoding instructions and hiding them from the rendered page is how a skill smuggles orders to the agent: do not install this skill."
            } else {
                "Words encoded and hidden from the rendered page: read them before using this skill."
            }
        );
        out.push(finding(
            "prompt_injection.hidden-instructions",
            "prompt_injection",
            sev,
            at,
            why,
            Vec::new(),
        ));
        return;
    }
}
