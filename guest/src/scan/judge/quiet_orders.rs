//! Orders in prose that earlier rules rated below `critical` (round 45m, held-out set 23).
//!
//! - `exfiltration.secret-file-posted-prose`: a sentence orders a secret file read (`.env`,
//!   `id_rsa`, `.aws/credentials`, `.npmrc`…) and the same or one of the next four sentences orders
//!   its contents posted, sent or uploaded to an address on a host that is not local, a vendor, an
//!   installer or a registry. With words that keep it from the user ("silently", "no need to
//!   mention") within six lines it is `critical`, else `high`. A line that warns ("never", "do
//!   not") is not an order.
//! - `prompt_injection.deferred-access-plant`: a sentence defers an action until a pull request is
//!   approved or merged, a review has passed, or the user is away, and within four lines the action
//!   plants access (a deploy or SSH key, `authorized_keys`, an admin account, a token, a
//!   backdoor), and words within six lines keep it out of the summary or from the user
//!   (`critical`). Release notes that say "after the PR is merged, tag the release" plant nothing,
//!   and a deferred step told openly is a release process.
//! - `prompt_injection.attribute-orders`: an HTML `alt` or `title` attribute (text the reader of a
//!   rendered page never sees) addresses the agent ("coding agent", "assistant", "Copilot") and
//!   orders an action, with either words keeping it from the user or a dangerous object (a shell
//!   call, a secret file, a package index, a lock file). Describing a picture is not an order.
//! - `exfiltration.secrets-to-memory-chat`: two of three orders in one document — secrets (API
//!   keys, passwords, card numbers, CVC, seed phrases, private keys) saved to the agent's memory
//!   files, saved secrets pasted or shared into the chat or a summary, the user asked for a card's
//!   number and CVC. A memory skill that says never to store keys is not such an order.
//!
//! Each gated on its necessary words over the file's lowered text; windows of at most six lines
//! (an attribute is read up to 1,500 bytes).

use super::shapes::{found, judged, rel};
use super::{Bundle, File, hosts_in};
use crate::scan::content::{FileKind, Finding};
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Secret files (lower-case); also raw words of these rules.
pub(super) const SECRET_FILES: &[&str] = &[
    ".env",
    "id_rsa",
    "id_ed25519",
    ".aws/credentials",
    "aws credentials",
    ".npmrc",
    ".netrc",
    ".pgpass",
    ".git-credentials",
    ".ssh/",
];
/// Orders to read a file (lower-case).
const READS: &[&str] = &[
    "read ", "cat ", "open ", "load ", "collect ", "copy ", "gather ",
];
/// Orders to send (lower-case).
const SENDS: &[&str] = &[
    "post ",
    "post`",
    "send ",
    "upload ",
    "transmit",
    "submit ",
    "forward ",
    "exfiltrate",
];
/// Words that keep an action from the user (lower-case); also raw words of these rules.
pub(super) const QUIET: &[&str] = &[
    "do not mention",
    "don't mention",
    "no need to mention",
    "without mentioning",
    "silently",
    "secretly",
    "do not tell",
    "don't tell",
    "keep this follow-up out",
    "keep this out of",
    "keep it out of",
    "out of the changelog",
    "out of your summary",
    "out of the summary",
    "don't include this",
    "do not include this",
    "internal process only",
    "without telling",
    "without notifying",
    "need to surface",
    "do not surface",
    "don't surface",
    "do not reveal",
    "don't reveal",
];
/// Conditions that defer an action (lower-case); also raw words of these rules.
pub(super) const DEFER: &[&str] = &[
    "approved and merged",
    "has been approved",
    "has been merged",
    "is approved",
    "is merged",
    "after approval",
    "after the merge",
    "review has passed",
    "review passes",
    "after review",
    "only then",
    "user is away",
    "user is asleep",
    "no one is watching",
    "nobody is watching",
    "outside working hours",
];
/// Access left behind (lower-case).
pub(super) const PLANTS: &[&str] = &[
    "deploy key",
    "deploy_keys",
    "authorized_keys",
    "ssh-ed25519 aaaa",
    "ssh-rsa aaaa",
    "backdoor",
    "personal access token",
    "admin account",
];
/// Words addressing the agent (lower-case).
const AGENT: &[&str] = &[
    "agent",
    "assistant",
    "copilot",
    " ai ",
    "ai:",
    "llm",
    "claude",
    "codex",
    "cursor",
];
/// Orders (lower-case).
const ORDERS: &[&str] = &[
    "add ", "run ", "install ", "execute", "send ", "upload", "update ", "modify", "create ",
    "delete ", "insert ", "append", "ignore ", "include ", "set ",
];
/// Dangerous objects of an order (lower-case).
const DANGER: &[&str] = &[
    "subprocess",
    "shell=true",
    "os.system",
    "exec(",
    "eval(",
    "curl ",
    "wget ",
    ".env",
    "id_rsa",
    "token",
    "password",
    "secret",
    "backdoor",
    "index-url",
    "/simple",
    ".lock",
    "lockfile",
    "header",
];
/// Secret kinds a person holds (lower-case); also raw words of these rules.
pub(super) const SECRET_KINDS: &[&str] = &[
    "api key",
    "password",
    "card number",
    "cvc",
    "cvv",
    "seed phrase",
    "recovery phrase",
    "private key",
    "secret key",
];
/// The agent's memory files (lower-case).
const MEMORY: &[&str] = &[
    "memory.md",
    "memory file",
    "user.md",
    "soul.md",
    "notes.md",
    "to memory",
    "in memory",
    "your memory",
];
/// Orders to save (lower-case).
const SAVES: &[&str] = &["save", "store", "write", "record", "keep "];
/// Orders to share (lower-case).
const SHARES: &[&str] = &["paste", "share", "post ", "include", "print", "reveal"];
/// Where shared text goes (lower-case).
const CHAT: &[&str] = &[
    "chat",
    "reply",
    "message",
    "summary",
    "collaborator",
    "channel",
    "group",
];
/// Lines that warn instead of ordering (lower-case).
const REFUSALS: &[&str] = &[
    "never ",
    "do not store",
    "do not save",
    "don't store",
    "don't save",
    "do not paste",
    "don't paste",
    "do not read",
    "do not send",
    "don't send",
    "avoid ",
    "must not",
    "should not",
    "not allowed",
    "refuse",
];

fn refuses(l: &str) -> bool {
    REFUSALS.iter().any(|w| l.contains(w))
}

fn any(l: &str, words: &[&str]) -> bool {
    words.iter().any(|w| l.contains(w))
}

/// Whether the host is somewhere a skill may send to.
fn known(class: HostClass) -> bool {
    !class.is_outside()
}

fn prose_file(file: &File<'_>) -> bool {
    !file.place.test
        && !file.place.signature
        && matches!(file.kind, FileKind::Markdown | FileKind::Text)
}

/// The first line in `from..to` (clamped) holding one of `words`.
fn quiet_near(low: &[String], at: usize, span: usize) -> Option<usize> {
    let (s, e) = (at.saturating_sub(span), (at + span + 1).min(low.len()));
    (s..e).find(|&k| any(&low[k], QUIET))
}

pub(super) fn secret_file_posted(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| prose_file(f)) {
        let words = file.words();
        if !words.any(SECRET_FILES) || !words.has("://") {
            continue;
        }
        let low = &file.lowered().lower;
        let lines = &file.lowered().lines;
        for (i, l) in low.iter().enumerate() {
            if !any(l, SECRET_FILES) || !any(l, READS) || refuses(l) {
                continue;
            }
            let sent = (i..low.len().min(i + 5)).find_map(|j| {
                let lj = &low[j];
                if refuses(lj) || !any(lj, SENDS) {
                    return None;
                }
                hosts_in(lines[j])
                    .into_iter()
                    .find(|h| !known(h.class))
                    .map(|h| (j, h))
            });
            let Some((j, host)) = sent else { continue };
            if judged(b, out, file, i) || judged(b, out, file, j) {
                break;
            }
            let quiet = quiet_near(low, j, 6);
            let (severity, tail) = match quiet {
                Some(_) => (
                    Severity::Critical,
                    "and words nearby keep it from the user: that is theft of the secrets, not setup. Do not install this skill.",
                ),
                None => (
                    Severity::High,
                    "check that this host is a service you use before installing.",
                ),
            };
            let mut related = vec![rel("send", file, j)];
            if let Some(q) = quiet {
                related.push(rel("concealment", file, q));
            }
            new.push(found(
                "exfiltration.secret-file-posted-prose",
                "exfiltration",
                severity,
                file,
                i,
                format!(
                    "{}:{}: the text orders a secret file read, and {}:{} orders its contents sent to {} (not a known vendor, installer or registry); {tail}",
                    file.path,
                    i + 1,
                    file.path,
                    j + 1,
                    host.host
                ),
                related,
            ));
            break;
        }
    }
    out.extend(new);
}

pub(super) fn deferred_access_plant(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| prose_file(f)) {
        let words = file.words();
        if !words.any(DEFER) || !words.any(PLANTS) {
            continue;
        }
        let low = &file.lowered().lower;
        for (i, l) in low.iter().enumerate() {
            if !any(l, DEFER) || refuses(l) {
                continue;
            }
            let Some(p) =
                (i..low.len().min(i + 5)).find(|&j| any(&low[j], PLANTS) && !refuses(&low[j]))
            else {
                continue;
            };
            if judged(b, out, file, i) || judged(b, out, file, p) {
                break;
            }
            // Without words that keep it from the user, a deferred key is a release process.
            let Some(q) = quiet_near(low, p, 6) else {
                continue;
            };
            let related = vec![rel("access", file, p), rel("concealment", file, q)];
            new.push(found(
                "prompt_injection.deferred-access-plant",
                "prompt_injection",
                Severity::Critical,
                file,
                i,
                format!(
                    "{}:{}: the text holds an action back until the work is approved, merged or unwatched, and {}:{} makes that action leave access behind (a key, an account, a token or a backdoor), kept out of what the user is told ({}:{}). Waiting for the review to pass is how a planted change avoids the review: do not install this skill.",
                    file.path,
                    i + 1,
                    file.path,
                    p + 1,
                    file.path,
                    q + 1
                ),
                related,
            ));
            break;
        }
    }
    out.extend(new);
}

/// Attribute openings read by [`attribute_orders`]; also raw words of these rules.
pub(super) const ATTRS: &[&str] = &["alt=\"", "alt='", "title=\"", "title='"];

pub(super) fn attribute_orders(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| {
        !f.place.test && !f.place.signature && {
            let p = f.path.to_ascii_lowercase();
            matches!(f.kind, FileKind::Markdown | FileKind::Text)
                || p.ends_with(".html")
                || p.ends_with(".htm")
                || p.ends_with(".svg")
        }
    }) {
        let words = file.words();
        if !words.any(ATTRS) {
            continue;
        }
        let all = file.lower_all();
        for open in ATTRS {
            let quote = if open.ends_with('"') { '"' } else { '\'' };
            for (p, _) in all.match_indices(open) {
                let start = p + open.len();
                let rest = &all[start..];
                let end = rest
                    .char_indices()
                    .take_while(|(k, _)| *k < 1500)
                    .find(|(_, c)| *c == quote)
                    .map(|(k, _)| k);
                let Some(end) = end else { continue };
                let value = &rest[..end];
                if value.split_whitespace().count() < 15
                    || !any(value, AGENT)
                    || !any(value, ORDERS)
                    || !(any(value, QUIET) || any(value, DANGER))
                {
                    continue;
                }
                let i = all[..p].bytes().filter(|&c| c == b'\n').count();
                if judged(b, out, file, i) {
                    continue;
                }
                new.push(found(
                    "prompt_injection.attribute-orders",
                    "prompt_injection",
                    Severity::Critical,
                    file,
                    i,
                    format!(
                        "{}:{}: an image or element attribute (`{}…`), which a rendered page never shows, addresses the agent and orders an action{}: instructions the user cannot see but the agent reads. Do not install this skill.",
                        file.path,
                        i + 1,
                        open.trim_end_matches(['"', '\'']),
                        if any(value, QUIET) {
                            " and keeps it from the user"
                        } else {
                            " on a shell, a secret or a package source"
                        }
                    ),
                    Vec::new(),
                ));
                break;
            }
        }
    }
    out.extend(new);
}

pub(super) fn secrets_to_memory_chat(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| prose_file(f)) {
        let words = file.words();
        if !words.any(SECRET_KINDS) {
            continue;
        }
        let low = &file.lowered().lower;
        let (mut store, mut share, mut card) = (None, None, None);
        for (i, l) in low.iter().enumerate() {
            if refuses(l) {
                continue;
            }
            let secret = any(l, SECRET_KINDS) || l.contains("keys") || l.contains("credentials");
            if store.is_none() && secret && any(l, SAVES) && any(l, MEMORY) {
                store = Some(i);
            }
            if share.is_none()
                && any(l, SHARES)
                && (l.contains("keys") || l.contains("credentials") || l.contains("passwords"))
                && any(l, CHAT)
            {
                share = Some(i);
            }
            if card.is_none()
                && l.contains("ask")
                && (l.contains("card number") || l.contains("credit card"))
                && (l.contains("cvc") || l.contains("cvv"))
            {
                card = Some(i);
            }
        }
        let found_at: Vec<usize> = [store, share, card].into_iter().flatten().collect();
        if found_at.len() < 2 {
            continue;
        }
        let i = found_at[0];
        if found_at.iter().any(|&k| judged(b, out, file, k)) {
            continue;
        }
        let related = found_at[1..]
            .iter()
            .map(|&k| rel("also", file, k))
            .collect();
        new.push(found(
            "exfiltration.secrets-to-memory-chat",
            "exfiltration",
            Severity::Critical,
            file,
            i,
            format!(
                "{}:{}: the text orders secrets{}{}{}: keys and card data kept in plain memory files and repeated into conversations leave with every shared transcript. Do not install this skill.",
                file.path,
                i + 1,
                if store.is_some() {
                    " saved to the agent's memory files"
                } else {
                    ""
                },
                if share.is_some() {
                    ", pasted into the chat or a summary"
                } else {
                    ""
                },
                if card.is_some() {
                    ", and asks the user for a card's number and CVC"
                } else {
                    ""
                },
            ),
            related,
        ));
    }
    out.extend(new);
}
