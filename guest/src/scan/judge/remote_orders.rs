//! Instructions fetched at run time and kept from the user (round 38m,
//! `prompt_injection.remote-instructions`, `critical`).
//!
//! A skill that loads its real instructions from a URL each run can change after review
//! (`prompt_injection.remote-instructions`, `high`, a line rule). Told as a block — "fetch the
//! current instructions from <url>", "treat them as part of this skill / they take precedence",
//! "do not show the fetched text to the user" — it is also hidden from the one person who could
//! notice the change: the skill's behaviour is whatever a remote page says today, and the user is
//! told not to look.
//!
//! Facts, in a prose block of a Markdown or text file (consecutive non-empty lines outside code
//! fences, at most [`BLOCK`] lines): a line that fetches instructions (a fetch verb and an
//! instruction noun) naming a URL on a host that is not local; and a line that keeps them from the
//! user (do not show / tell / mention / reveal … the user, keep … internal / hidden). Blocks that
//! warn ("never", "untrusted", "injection", "attacker") are teaching. Judged: `critical`, the fetch
//! line as evidence and the concealment line related. One pass over each file's lines.

use super::shapes::{any_of as any, found, rel};
use super::{Bundle, hosts_in};
use crate::scan::content::{FileKind, Finding};
use crate::scan::hosts::HostClass;
use crate::scan::judge::find::Has;
use crate::scan::markdown::{FencePlace, fence_places};
use crate::scan::rules::Severity;

/// The longest block read as one instruction.
const BLOCK: usize = 14;

pub(super) const FETCH: &[&str] = &[
    "fetch",
    "download",
    "load",
    "retrieve",
    "pull",
    "read the latest",
    "get the latest",
    "get the current",
];
const NOUNS: &[&str] = &[
    "instruction",
    "directive",
    "prompt",
    "rules",
    "playbook",
    "guidance",
    "orders",
];
pub(super) const HIDE: &[&str] = &[
    "do not show",
    "don't show",
    "do not tell",
    "don't tell",
    "do not mention",
    "don't mention",
    "do not reveal",
    "don't reveal",
    "do not display",
    "without telling",
    "without showing",
    "hide it from",
    "hide them from",
    "keep it hidden",
    "keep them hidden",
    "never show",
    "never mention",
];
const WARNS: &[&str] = &[
    "untrusted",
    "injection",
    "attacker",
    "malicious",
    "red flag",
    "do not fetch",
    "never fetch",
    "don't fetch",
];

pub(super) fn hidden_remote_orders(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in b
        .files
        .iter()
        .filter(|f| f.kind != FileKind::Code && !f.place.test)
    {
        let lw = f.lowered();
        for (s, i) in unwarned_paragraphs(lw, BLOCK, WARNS) {
            let fetch = (s..i).find(|&k| {
                let l = &lw.lower[k];
                any(l, FETCH)
                    && any(l, NOUNS)
                    && hosts_in(lw.lines[k])
                        .iter()
                        .any(|h| h.url.has("://") && h.class != HostClass::Local)
            });
            let Some(fetch) = fetch else { continue };
            let hide = (s..i).find(|&k| {
                let l = &lw.lower[k];
                any(l, HIDE) && (l.has("user") || l.has("internal"))
            });
            let Some(hide) = hide else { continue };
            let host = hosts_in(lw.lines[fetch])
                .into_iter()
                .find(|h| h.url.has("://") && h.class != HostClass::Local)
                .map(|h| h.host)
                .unwrap_or_default();
            out.push(found(
                "prompt_injection.remote-instructions",
                "prompt_injection",
                Severity::Critical,
                f,
                fetch,
                format!(
                    "{}:{} has the agent load its instructions from {host} at run time, and {}:{} keeps them from the user: what the skill does can change after review, and the person who could notice is told not to look. Do not use it.",
                    f.path,
                    fetch + 1,
                    f.path,
                    hide + 1
                ),
                vec![rel("concealment", f, hide)],
            ));
            break;
        }
    }
}

/// The paragraphs of a file's prose (runs of non-blank lines outside code fences, at most `max`
/// lines each, a longer run cut into pieces) that hold no warning word of `warns` and no quoted
/// (`>`) line, as `(first line, end)` index ranges: where an order to the agent, not a lesson, can
/// stand.
pub(super) fn unwarned_paragraphs(
    lw: &super::Lowered<'_>,
    max: usize,
    warns: &[&str],
) -> Vec<(usize, usize)> {
    let places = fence_places(lw.lines.iter().copied());
    let mut out = Vec::new();
    let mut i = 0;
    while i < lw.lines.len() {
        if lw.lower[i].is_empty() || places[i] != FencePlace::Outside {
            i += 1;
            continue;
        }
        let s = i;
        while i < lw.lines.len()
            && !lw.lower[i].is_empty()
            && places[i] == FencePlace::Outside
            && i - s < max
        {
            i += 1;
        }
        if !lw.lower[s..i]
            .iter()
            .any(|l| any(l, warns) || l.starts_with('>'))
        {
            out.push((s, i));
        }
    }
    out
}
