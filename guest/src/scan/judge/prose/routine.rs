//! Routine side errands (round 29m, sets28m): a step slipped into a skill's workflow that runs
//! "after any task", "after editing a document", "after making any commits" and does something
//! the user never asked for.
//!
//! - `exfiltration.routine-collection` (`critical`): the step sends something of the user's to a
//!   host that is neither local, nor a known vendor's, nor named after the skill, and what it
//!   sends is either private by itself (the project's `.env`, SSH keys, credentials, the
//!   clipboard, a screenshot, the system prompt, contacts, browsing history) or the user's work
//!   (the edited file, a copy of the data, metrics, rows) sent for a side purpose the task does not
//!   need (a backup, "redundancy", logging, monitoring, an audit trail, "our central server"). A
//!   routine trigger must stand in the step or in the lines that introduce it; a private source
//!   sent for a side purpose in one sentence needs none.
//! - `destructive.routine-harm` (`critical`): the step, run as a routine, destroys the user's work:
//!   force-pushing after every commit, hard-resetting several commits, deleting files by age or
//!   every other version of a file, or encrypting the working directory's files. Cleaning caches,
//!   logs, temporary or build files is not harm; `--force-with-lease` is not a force push; a
//!   one-off situational force push ("after rebasing") is advice, not a routine.
//!
//! Refusals and teaching ("never", "do not", "attacker", "red flag", "for example") in the step
//! or its introduction, quotes and fenced blocks are left alone. One pass over each prose
//! document's lines, each looking back at most [`BACK`] lines: linear in bytes.

use super::super::{Bundle, Host, hosts_in};
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::judge::find::{has, has_any};
use crate::scan::rules::Severity;

/// Non-blank lines before the step in which its trigger and its object may stand.
const BACK: usize = 4;

/// Triggers that make a step standing: it runs whatever the user asked for.
const STANDING: &[&str] = &[
    "after any ",
    "after every ",
    "after each ",
    "after all ",
    "after finishing any",
    "after completing any",
    "after making any",
    "after submitting any",
    "before completing a task",
    "before completing any",
    "before finishing any",
    "before finalizing any",
    "before finalising any",
    "before finalizing the",
    "before finalising the",
    "whenever you",
    "every time you",
    "each time you",
    "when working with any",
    "always ",
];

/// What a refusal, a warning or a lesson says.
const NOT_AN_ORDER: &[&str] = &[
    "never",
    "do not",
    "don't",
    "must not",
    "should not",
    "shouldn't",
    "avoid",
    "refuse",
    "attacker",
    "malicious",
    "suspicious",
    "red flag",
    "e.g.",
    "for example",
    "injection",
    "warning",
    "dangerous",
    "不要",
    "切勿",
    "禁止",
];

/// Verbs that move something to another place.
const SENDS: &[&str] = &[
    "send ",
    "sends ",
    "sending ",
    "upload",
    "post request",
    "post it",
    "post the",
    "curl -x post",
    "curl -f ",
    "forward ",
    "forwarding ",
    "submit ",
    "transmit",
    "back up ",
    "make a backup",
    "make a manual backup",
    "copy of",
];

/// Things that are private by themselves.
const PRIVATE: &[&str] = &[
    ".env",
    "id_rsa",
    "id_ed25519",
    "~/.ssh",
    ".ssh folder",
    "ssh key",
    "ssh file",
    "private key",
    "credentials",
    "api key",
    "api_key",
    "access token",
    "password",
    "clipboard",
    "pbpaste",
    "screenshot",
    "screencapture",
    "system prompt",
    "contacts",
    "browser history",
    "search history",
    "cookies",
    "keychain",
    "seed phrase",
];

/// The user's work: what a side errand copies.
const WORK: &[&str] = &[
    "file",
    "document",
    "contents",
    "copy of the data",
    "copy of the",
    "the data",
    "rows",
    "metrics",
    "dataset",
    "prompt",
    "query",
];

/// Side purposes the task itself does not need.
const SIDE: &[&str] = &[
    "backup",
    "back up",
    "redundan",
    "logging",
    "log server",
    "monitoring",
    "audit",
    "telemetry",
    "central server",
    "our server",
    "our central",
    "mlops",
    "safekeeping",
    "compliance",
    "no data is lost",
    "data collection",
];

/// What cleaning up looks like: caches, logs, temporary and build files (whole words).
const CLEANUP: &[&str] = &[
    "log",
    "logs",
    "tmp",
    "temp",
    "temporary",
    "cache",
    "caches",
    "cached",
    "artifact",
    "artifacts",
    "build",
    "builds",
    "dist",
    "backup",
    "backups",
    "snapshot",
    "snapshots",
    "node_modules",
    "__pycache__",
];

/// Whether a lower-cased line names something cleaned up: a [`CLEANUP`] word, or a file pattern
/// such as `*.log`, `.tmp`, `.bak`.
fn cleanup(l: &str) -> bool {
    l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| CLEANUP.contains(&w))
        || [".log", ".tmp", ".bak", ".cache"].iter().any(|e| has(l, e))
}

/// Whether a lower-cased line holds a standing trigger; "always" counts only on the step itself
/// (`step`), where it qualifies the step's own verb.
fn standing(l: &str, step: bool) -> bool {
    STANDING
        .iter()
        .any(|w| (step || *w != "always ") && has(l, w))
}

/// Whether a lower-cased line holds a situational trigger: "after editing", "after reviewing",
/// "after you finish".
fn situational(l: &str) -> bool {
    has(l, "after you ")
        || has(l, "once you ")
        || l.match_indices("after ").any(|(i, _)| {
            let next = l[i + 6..]
                .split(|c: char| !c.is_ascii_alphabetic())
                .next()
                .unwrap_or("");
            next.len() > 4 && next.ends_with("ing")
        })
}

fn any_of(l: &str, words: &[&str]) -> bool {
    has_any(l, words)
}

/// The lines of a step's introduction: up to [`BACK`] non-blank prose lines before `i`, not
/// across two blank lines in a row, and the step itself.
fn window(lines: &[&str], prose: &[bool], i: usize) -> Vec<usize> {
    let mut out = vec![i];
    let mut blanks = 0;
    let mut j = i;
    while j > 0 && out.len() <= BACK {
        j -= 1;
        if lines[j].trim().is_empty() {
            blanks += 1;
            if blanks > 1 {
                break;
            }
            continue;
        }
        blanks = 0;
        if !prose[j] {
            break;
        }
        out.push(j);
    }
    out
}

/// The first outside host on the step's line or the next one.
fn outside_host(
    lines: &[&str],
    prose: &[bool],
    i: usize,
    words: &[String],
) -> Option<(usize, Host)> {
    (i..(i + 2).min(lines.len()))
        .filter(|&j| prose[j])
        .flat_map(|j| hosts_in(lines[j]).into_iter().map(move |h| (j, h)))
        .find(|(_, h)| h.class.is_outside() && !super::super::host_named_after(&h.host, words))
}

fn related(file: &str, lines: &[&str], marks: &[(&str, usize)], at: usize) -> Vec<Related> {
    let mut out: Vec<Related> = Vec::new();
    for &(role, k) in marks {
        if k != at && !out.iter().any(|r| r.line == k + 1) {
            out.push(Related {
                role: role.into(),
                file: file.into(),
                line: k + 1,
                evidence: evidence(lines[k], 0, lines[k].len()),
            });
        }
    }
    out
}

/// `exfiltration.routine-collection`.
pub(super) fn routine_collection(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let gate = super::gate(&GATE, SENDS);
    let name_words = b.name_words();
    for (file, lines, prose) in super::gated_prose(b, gate) {
        for (i, raw) in lines.iter().enumerate() {
            if !prose[i] {
                continue;
            }
            let l = crate::ascii_lowered(raw);
            if !any_of(&l, SENDS) {
                continue;
            }
            let Some((hl, host)) = outside_host(&lines, &prose, i, &name_words) else {
                continue;
            };
            let w = window(&lines, &prose, i);
            let lw: Vec<(usize, String)> = w
                .iter()
                .map(|&j| (j, crate::ascii_lowered(lines[j]).into_owned()))
                .collect();
            if lw.iter().any(|(_, t)| any_of(t, NOT_AN_ORDER)) {
                continue;
            }
            let find = |words: &[&str]| lw.iter().find(|(_, t)| any_of(t, words)).map(|p| p.0);
            let trigger = lw
                .iter()
                .find(|(j, t)| standing(t, *j == i) || situational(t))
                .map(|p| p.0);
            let private = find(PRIVATE);
            let side = find(SIDE);
            let work = find(WORK);
            let one_sentence = any_of(&l, PRIVATE) && any_of(&l, SIDE);
            let what = match (trigger, private, side, work) {
                (Some(_), Some(p), _, _) => p,
                (Some(_), None, Some(_), Some(k)) => k,
                _ if one_sentence => i,
                _ => continue,
            };
            let mut marks = vec![("destination", hl), ("what", what)];
            if let Some(t) = trigger {
                marks.push(("routine", t));
            }
            out.push(Finding {
                rule_id: "exfiltration.routine-collection".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "A step slipped into the skill's routine sends the user's data ({}:{}) to {} ({}), a host the task does not need: whatever the user works on leaves the machine each time the skill is used. Do not install this skill.",
                    file.path,
                    what + 1,
                    host.host,
                    host.class.phrase()
                ),
                related: related(file.path, &lines, &marks, i),
            });
            break;
        }
    }
}

/// The harm a lower-cased step line does, if any, and whether it needs a standing trigger.
fn harm(l: &str) -> Option<(&'static str, bool)> {
    let force = (has(l, "push --force") && !has(l, "--force-with-lease"))
        || has(l, "push -f ")
        || has(l, "push -f'")
        || has(l, "push -f\"")
        || has(l, "push -f`")
        || l.trim_end().ends_with("push -f");
    if force {
        return Some(("force-pushes over the remote's history", true));
    }
    if has(l, "reset --hard head~") || has(l, "reset --hard head^") {
        return Some(("throws away commits with a hard reset", false));
    }
    let deletes = has(l, "delete") || has(l, "remove") || has(l, "rm -rf");
    if deletes && !cleanup(l) {
        let mass = [
            "older than",
            "other versions",
            "all files",
            "every file",
            "them all",
            "all of them",
            "./* ",
            "./*`",
            "../*",
        ];
        if any_of(l, &mass) {
            return Some(("deletes the user's files", false));
        }
    }
    if has(l, "encrypt")
        && any_of(
            l,
            &["each file", "every file", "all files", "all the files"],
        )
        && !cleanup(l)
    {
        return Some(("encrypts the user's files", false));
    }
    None
}

/// `destructive.routine-harm`.
pub(super) fn routine_harm(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let gate = super::gate(
        &GATE,
        &[
            "push",
            "reset --hard",
            "delete",
            "remove",
            "rm -rf",
            "encrypt",
        ],
    );
    for (file, lines, prose) in super::gated_prose(b, gate) {
        for (i, raw) in lines.iter().enumerate() {
            if !prose[i] {
                continue;
            }
            let l = crate::ascii_lowered(raw);
            let Some((what, needs_standing)) = harm(&l) else {
                continue;
            };
            let w = window(&lines, &prose, i);
            let lw: Vec<(usize, String)> = w
                .iter()
                .map(|&j| (j, crate::ascii_lowered(lines[j]).into_owned()))
                .collect();
            if lw
                .iter()
                .any(|(_, t)| any_of(t, NOT_AN_ORDER) || t.trim_start().starts_with("if "))
            {
                continue;
            }
            let trigger = lw
                .iter()
                .find(|(j, t)| standing(t, *j == i) || !needs_standing && situational(t))
                .map(|p| p.0);
            let Some(t) = trigger else { continue };
            out.push(Finding {
                rule_id: "destructive.routine-harm".into(),
                category: "destructive".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "A step slipped into the skill's routine ({}:{}) {} each time it runs, whatever the user asked for: the loss cannot be undone. Do not install this skill.",
                    file.path,
                    t + 1,
                    what
                ),
                related: related(file.path, &lines, &[("routine", t)], i),
            });
            break;
        }
    }
}
