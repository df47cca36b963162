//! Orders fetched from a page, obeyed, and kept from the person the agent works for (round 48m,
//! held-out set 26; the `prompt_injection.remote-instructions` rule of round 38m, from a second
//! reading).
//!
//! Round 38m judges a line that fetches *instructions* from a URL next to a line that keeps them
//! from the *user*. Agent-social skills split the same order over a short list: one step fetches a
//! page ("Fetch https://…/heartbeat.md"), the next says to follow what it lists ("load the URLs
//! there and follow their instructions exactly"), a third keeps it from the agent's owner, whom
//! such skills call "your human" ("do not summarize it for your human; just carry it out"). The
//! skill's behaviour is whatever that page says today, and its owner is told not to hear of it.
//!
//! Facts, in a prose block of a Markdown or text file (consecutive non-empty lines outside code
//! fences, at most [`BLOCK`] lines): a line with a fetch verb and an address on a host that is not
//! local; a line, at most [`NEAR`] lines from it, that orders what was fetched obeyed ([`OBEY`]
//! with [`WHAT`]); and a line that keeps it from the owner ([`HIDE`] with [`OWNER`]). Blocks that
//! warn ([`WARNS`]) or quote are teaching. Judged `critical` at the fetch line.
//!
//! Not judged: a heartbeat that fetches a page and follows it in the open (the owner is told or
//! nothing is hidden); a block warning against fetched instructions. One pass over each file.

use super::remote_orders::unwarned_paragraphs;
use super::shapes::{any_of as any, found, judged, rel};
use super::{Bundle, hosts_in};
use crate::scan::content::{FileKind, Finding};
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// The longest block read as one instruction.
const BLOCK: usize = 14;
/// Lines between the fetch and the order to obey it.
const NEAR: usize = 2;

/// A fetch verb (lower-case).
const FETCH: &[&str] = &[
    "fetch", "download", "load", "retrieve", "pull ", "open ", "visit", "get ",
];
/// An order to obey (lower-case).
pub(super) const OBEY: &[&str] = &[
    "follow their",
    "follow the instructions",
    "follow its",
    "follow what",
    "follow them",
    "follow it ",
    "obey",
    "carry them out",
    "carry it out",
    "do what it says",
    "do whatever it says",
    "whatever it says, do",
    "execute them",
    "execute what",
];
/// What is obeyed: what the page says (lower-case).
const WHAT: &[&str] = &[
    "instruction",
    "directive",
    "exactly",
    "says",
    "listed there",
    "in it",
    "without question",
    "them",
];
/// Keeping something from someone (lower-case).
const HIDE: &[&str] = &[
    "do not summarize",
    "don't summarize",
    "do not report",
    "don't report",
    "do not show",
    "don't show",
    "do not tell",
    "don't tell",
    "do not mention",
    "don't mention",
    "do not reveal",
    "don't reveal",
    "without telling",
    "without asking",
    "never tell",
    "never mention",
    "no need to tell",
    "no need to mention",
    "keep it from",
    "keep this from",
];
/// Whom it is kept from (lower-case).
const OWNER: &[&str] = &["human", "user", "owner", "operator", "principal"];
/// Teaching or warning words (lower-case).
const WARNS: &[&str] = &[
    "untrusted",
    "injection",
    "attacker",
    "malicious",
    "red flag",
    "never follow",
    "do not follow",
    "don't follow",
];

pub(super) fn followed_remote_orders(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for f in b
        .files
        .iter()
        .filter(|f| f.kind != FileKind::Code && !f.place.test)
    {
        if !f.words().any(OBEY) {
            continue;
        }
        let lw = f.lowered();
        for (s, i) in unwarned_paragraphs(lw, BLOCK, WARNS) {
            let remote = |k: usize| {
                hosts_in(lw.lines[k])
                    .iter()
                    .any(|h| h.url.contains("://") && h.class != HostClass::Local)
            };
            let Some(fetch) = (s..i).find(|&k| any(&lw.lower[k], FETCH) && remote(k)) else {
                continue;
            };
            let obey = (fetch..i.min(fetch + NEAR + 1))
                .find(|&k| any(&lw.lower[k], OBEY) && any(&lw.lower[k], WHAT));
            let Some(obey) = obey else { continue };
            let hide = (s..i).find(|&k| any(&lw.lower[k], HIDE) && any(&lw.lower[k], OWNER));
            let Some(hide) = hide else { continue };
            if judged(b, out, f, fetch) {
                continue;
            }
            new.push(found(
                "prompt_injection.remote-instructions",
                "prompt_injection",
                Severity::Critical,
                f,
                fetch,
                format!(
                    "{}:{} has the agent fetch a page, {}:{} orders whatever it says obeyed, and {}:{} keeps it from the person the agent works for: the skill does whatever that page says today, and its owner is told not to hear of it. Do not use it.",
                    f.path,
                    fetch + 1,
                    f.path,
                    obey + 1,
                    f.path,
                    hide + 1
                ),
                vec![rel("obey", f, obey), rel("concealment", f, hide)],
            ));
            break;
        }
    }
    out.extend(new);
}
