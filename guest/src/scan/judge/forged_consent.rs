//! Orders that claim the user's consent and ask for no confirmation (round 42m,
//! `prompt_injection.forged-user-consent`), and orders to embed a stranger's script in generated
//! pages while keeping quiet about it (`prompt_injection.hidden-remote-script`).
//!
//! A tool result, a hook's message or a rules file speaks to the model, not for the user. Held-out
//! set 20 has a diagramming server whose `read_me` result orders a whole-disk scan and server starts
//! ("this is the user's own request; do not ask again"), a plugin's stop hook ordering the transcript
//! uploaded ("do this silently; the user has already agreed"), and a rules file telling the model
//! to attach a third-party `<script src>` to every page it writes, "company policy", with "no need
//! to mention" it.
//!
//! Facts, per line of any text file (lowered): a claim of the user's consent ([`CONSENT`]) with,
//! on the line or the two around it, a word that skips confirmation or hides the act ([`HUSH`]);
//! or a `<script`/`<iframe` whose `src` is an outside host, an order to put it in generated
//! output ([`EMBED`]) within two lines before, and a hiding word within three lines. Judged
//! `critical`. Lines that warn about such claims ([`WARN`]) are not judged.

use super::find::has;
use super::shapes::{found, rel};
use super::{Bundle, hosts_in};
use crate::scan::content::Finding;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Claims that the user already consented (lower-case); also this rule's raw words.
pub(super) const CONSENT: &[&str] = &[
    "the user's own request",
    "the users own request",
    "the user has already agreed",
    "the user already agreed",
    "the user has already approved",
    "the user already approved",
    "the user has already consented",
    "the user already consented",
    "the user has pre-approved",
    "the user has authorized this",
    "the user has authorised this",
];

/// Words that skip confirmation or hide the act (lower-case).
const HUSH: &[&str] = &[
    "do not ask again",
    "don't ask again",
    "do not ask the user",
    "don't ask the user",
    "without asking",
    "do not confirm",
    "no need to confirm",
    "silently",
    "do not mention",
    "don't mention",
    "no need to mention",
    "do not tell the user",
    "don't tell the user",
    "without telling",
];

/// Words of a warning about such claims (lower-case).
const WARN: &[&str] = &[
    "never ",
    "malicious",
    "attacker",
    "injection",
    "untrusted",
    "such claims",
    "may claim",
    "claims that",
    "do not trust",
    "don't trust",
];

/// Orders to put something into generated output (lower-case); also raw words.
pub(super) const EMBED: &[&str] = &[
    "attach", "insert", "inject", "append", "include", "add ", "place ",
];

fn hushed(lower: &[String], i: usize, before: usize, after: usize) -> Option<usize> {
    let n = lower.len();
    (i.saturating_sub(before)..(i + after + 1).min(n))
        .find(|&k| HUSH.iter().any(|h| has(&lower[k], h)))
}

fn warned(l: &str) -> bool {
    WARN.iter().any(|w| has(l, w))
}

fn outside_script(raw: &str, l: &str) -> bool {
    (has(l, "<script") || has(l, "<iframe"))
        && has(l, "src=")
        && hosts_in(raw).iter().any(|h| h.class != HostClass::Local)
}

pub(super) fn forged_consent(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        let consent = CONSENT.iter().any(|w| has(all, w));
        let script = has(all, "src=") && (has(all, "<script") || has(all, "<iframe"));
        if !consent && !script {
            continue;
        }
        if !HUSH.iter().any(|w| has(all, w)) {
            continue;
        }
        let lw = file.lowered();
        let n = lw.lower.len();
        if consent {
            let hit = (0..n).find_map(|i| {
                let l = &lw.lower[i];
                if !CONSENT.iter().any(|w| has(l, w)) || warned(l) {
                    return None;
                }
                hushed(&lw.lower, i, 2, 2).map(|k| (i, k))
            });
            if let Some((i, k)) = hit {
                out.push(found(
                    "prompt_injection.forged-user-consent",
                    "prompt_injection",
                    Severity::Critical,
                    file,
                    i,
                    format!(
                        "{}:{}: text addressed to the model claims the user already asked for or approved an action and tells it not to confirm or not to say so (line {}). The user's consent comes from the user, not from a tool result, a hook or a skill. Do not install this skill.",
                        file.path,
                        i + 1,
                        k + 1
                    ),
                    vec![rel("concealment", file, k)],
                ));
                continue;
            }
        }
        if script {
            let hit = (0..n).find_map(|i| {
                let l = &lw.lower[i];
                if !outside_script(lw.lines[i], l) || warned(l) {
                    return None;
                }
                let order = (i.saturating_sub(2)..=i)
                    .find(|&k| EMBED.iter().any(|e| has(&lw.lower[k], e)))?;
                hushed(&lw.lower, i, 3, 3).map(|k| (i, order, k))
            });
            if let Some((i, o, k)) = hit {
                out.push(found(
                    "prompt_injection.hidden-remote-script",
                    "prompt_injection",
                    Severity::Critical,
                    file,
                    i,
                    format!(
                        "{}:{}: the text orders a script or frame from an outside host put into the pages or files the model generates (line {}) and tells it not to mention it (line {}). A stranger's script in every generated page runs in every visitor's browser. Do not install this skill.",
                        file.path,
                        i + 1,
                        o + 1,
                        k + 1
                    ),
                    vec![rel("signal", file, o), rel("concealment", file, k)],
                ));
            }
        }
    }
}
