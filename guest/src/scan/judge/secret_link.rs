//! A user's password or seed placed into a link to an outside host (round 34m,
//! `exfiltration.secret-in-link`).
//!
//! A skill's prose that has the agent show, open or call a URL on a host that is not a vendor's (and
//! not named after the skill) whose path or query carries a placeholder for a password, passphrase,
//! seed phrase, private key or secret (`https://x.example/done?pw=<pw>`,
//! `…/c?secret={password}`) sends that secret to whoever runs the host the moment the link is
//! opened or its preview fetched. The placeholder is typed (what the user's secret is) and the
//! host is judged (vendor, local, the skill's own service are not this); an order to use the link
//! must be on its line or the two before.
//!
//! Not this: an API key or token placeholder sent to the API it belongs to (key name and host agree:
//! that is the skill's job), a link without a secret in it, quoted text. One pass over each
//! document's lines: linear in bytes.

use super::{Bundle, host_named_after, hosts_in};
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::hosts::HostClass;
use crate::scan::markdown::{FencePlace, fence_places};
use crate::scan::rules::Severity;

/// What a placeholder names, when it is a user's secret (lower-case, separators dropped).
const SECRETS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "mnemonic",
    "seedphrase",
    "privatekey",
    "recoveryphrase",
];
/// Short names that must be the whole placeholder.
const SHORT: &[&str] = &["pw", "pwd", "pass", "secret", "seed", "pin"];

/// Words one of which every secret placeholder holds (the gate of a text without facts).
pub(super) const RAW: &[&str] = &[
    "pass", "pw", "secret", "seed", "pin", "mnemonic", "private", "recovery",
];

/// Verbs that use a link.
const USES: &[&str] = &[
    "display", "show", "open", "visit", "send", "post", "fetch", "call", "request", "navigate",
    "link", "click", "go to", "redirect", "submit", "load",
];

/// The placeholder names inside `<…>`, `{…}`, `${…}`, `$NAME` and `%NAME%` of a URL's text.
fn placeholders(u: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = u.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let (open, close) = match b[i] {
            b'<' => (i + 1, b'>'),
            b'{' => (i + 1, b'}'),
            b'%' => (i + 1, b'%'),
            b'$' => (i + 1, 0),
            _ => {
                i += 1;
                continue;
            }
        };
        let mut j = open;
        while j < b.len() && (b[j] == b'{' || b[j] == b'$') {
            j += 1;
        }
        let s = j;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'_' | b'-' | b' ')) {
            j += 1;
        }
        let ok = close == 0 || (j < b.len() && b[j] == close);
        if ok && j > s {
            out.push(
                u[s..j]
                    .chars()
                    .filter(char::is_ascii_alphanumeric)
                    .collect::<String>()
                    .to_ascii_lowercase(),
            );
        }
        i = j.max(i + 1);
    }
    out
}

fn secret_name(p: &str) -> bool {
    SHORT.contains(&p) || SECRETS.iter().any(|s| p.contains(s))
}

pub(super) fn secret_in_link(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = b.name_words();
    for file in b.files.iter().filter(|f| f.kind != FileKind::Code) {
        if !file.lower_all().contains("://") {
            continue;
        }
        let lw = file.lowered();
        let places = if file.kind == FileKind::Markdown {
            fence_places(lw.lines.iter().copied())
        } else {
            vec![FencePlace::Outside; lw.lines.len()]
        };
        for (i, raw) in lw.lines.iter().enumerate() {
            if places[i] == FencePlace::Inside
                || lw.lower[i].starts_with('>')
                || !raw.contains("://")
            {
                continue;
            }
            let hit = hosts_in(raw).into_iter().find_map(|h| {
                if h.class == HostClass::Local
                    || h.class.is_known_good()
                    || host_named_after(&h.host, &words)
                {
                    return None;
                }
                // The URL's text as written, up to the next space or closing mark.
                let at = raw.find(h.url.as_str())?;
                let tail = &raw[at..];
                let end = tail
                    .find(|c: char| c.is_whitespace() || matches!(c, ')' | '`' | '"' | '\'' | ']'))
                    .unwrap_or(tail.len());
                let url = &tail[..end];
                let rest = url.split_once("://").map_or("", |(_, r)| r);
                let after_host = rest.find(['/', '?']).map_or("", |p| &rest[p..]);
                placeholders(after_host)
                    .into_iter()
                    .find(|p| secret_name(p))
                    .map(|p| (h, p))
            });
            let Some((h, name)) = hit else {
                continue;
            };
            let ordered =
                (i.saturating_sub(2)..=i).any(|k| USES.iter().any(|w| lw.lower[k].contains(w)));
            let negated = ["never", "do not", "don't", "must not"]
                .iter()
                .any(|w| lw.lower[i].contains(w));
            if !ordered || negated {
                continue;
            }
            out.push(Finding {
                rule_id: "exfiltration.secret-in-link".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{} has the agent use a link to {} ({}) that carries the user's `{name}` in its address: opening or previewing the link hands that secret to whoever runs the host. Do not install this skill.",
                    file.path,
                    i + 1,
                    h.host,
                    h.class.phrase()
                ),
                related: Vec::new(),
            });
            break;
        }
    }
}
