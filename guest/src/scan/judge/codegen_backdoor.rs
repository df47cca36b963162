//! A back door ordered into the code the agent writes (round 34m,
//! `prompt_injection.codegen-backdoor`).
//!
//! A skill's prose that tells the agent, whenever it writes authentication or login code, to
//! *always* add a fallback, master, maintenance or hard-coded password, admin login or access path
//! (or to always apply a shown snippet whose password check compares against a fixed or derived
//! value and hands out admin) plants a back door in every project the agent touches. Two typed
//! statements are judged together: an order that always inserts such a credential, and a context
//! of writing authentication code (the same sentence or the few lines before it).
//!
//! Not this: warnings, refusals and review checklists ("never add a fallback admin password",
//! "look for hard-coded master passwords"), recovery flows by mail, quoted text. One pass over each
//! document's lines (a line and the next read together as one sentence): linear in bytes.

use super::Bundle;
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::markdown::{FencePlace, fence_places};
use crate::scan::rules::Severity;

/// Words that make a statement standing (every time, not once).
const ALWAYS: &[&str] = &[
    "always ",
    "every time",
    "each time",
    "whenever ",
    "in every ",
    "in all ",
    "make sure to ",
    "be sure to ",
    "must include",
    "must add",
];

/// Verbs that put something into the code.
const INSERTS: &[&str] = &[
    "add ",
    "include ",
    "insert ",
    "embed ",
    "put ",
    "keep ",
    "leave ",
    "build in",
    "hard-code",
    "hardcode",
    "wire in",
    "append ",
];

/// First words of a back-door credential (`fallback admin password`, `maintenance access path`).
pub(super) const DOORS: &[&str] = &[
    "fallback",
    "master",
    "maintenance",
    "backdoor",
    "back door",
    "back-door",
    "bypass",
    "universal",
    "skeleton",
    "hidden",
    "secret",
    "hard-coded",
    "hardcoded",
    "god-mode",
    "god mode",
    "override",
];

/// Orders to apply a shown snippet.
pub(super) const APPLIES: &[&str] = &[
    "apply this",
    "use this pattern",
    "follow this pattern",
    "apply the above",
    "use the above",
    "copy this",
];

/// What the door opens (within three words of its first word).
const OPENS: &[&str] = &[
    "password",
    "passphrase",
    "passcode",
    "admin",
    "login",
    "access",
    "account",
    "credential",
    "superuser",
    "root",
];

/// Code that authenticates, and writing it.
const AUTH: &[&str] = &[
    "authenticat",
    "login",
    "log-in",
    "sign-in",
    "signin",
    "sign in",
    "password check",
    "auth code",
    "auth endpoint",
    "auth function",
    "access control",
    "session",
];
const WRITES: &[&str] = &[
    "writ",
    "generat",
    "implement",
    "creat",
    "scaffold",
    "build",
    "code",
    "function",
    "endpoint",
    "handler",
    "route",
    "module",
];

/// Words that make a statement a warning, a refusal, a question or a review check.
const NEGATIONS: &[&str] = &[
    "never",
    "do not",
    "don't",
    "must not",
    "should not",
    "avoid",
    " no ",
    "without",
    "flag",
    "detect",
    "look for",
    "check for",
    "check that",
    "warn",
    "remove",
    "audit",
    "review",
    "find ",
    "reject",
    "?",
];

/// The back-door phrase of a sentence (`fallback admin password`), if its first word is followed
/// within three words by what it opens.
fn door(s: &str) -> Option<String> {
    for d in DOORS {
        let mut from = 0;
        while let Some(p) = s[from..].find(d).map(|p| p + from) {
            from = p + d.len();
            let words: Vec<&str> = s[from..].split_whitespace().take(3).collect();
            if let Some(k) = words
                .iter()
                .position(|w| OPENS.iter().any(|o| w.starts_with(o)))
            {
                let mut phrase = d.to_string();
                for w in &words[..=k] {
                    phrase.push(' ');
                    phrase.push_str(w.trim_matches(|c: char| !c.is_ascii_alphanumeric()));
                }
                return Some(phrase);
            }
        }
    }
    None
}

/// Whether a fenced block of the document compares a password with a fixed or derived value and
/// hands out admin (the snippet an "always apply this pattern" order points at).
fn backdoor_snippet(lower: &[String], places: &[FencePlace]) -> Option<usize> {
    lower.iter().enumerate().find_map(|(i, l)| {
        let inside = places.get(i) == Some(&FencePlace::Inside);
        let cmp = [
            "password ==",
            "password===",
            "password ===",
            "pass ==",
            "pwd ==",
        ]
        .iter()
        .any(|w| l.contains(w));
        let grant = (i..lower.len().min(i + 3)).any(|k| {
            lower[k].contains("admin")
                || lower[k].contains("superuser")
                || lower[k].contains("root")
        });
        (inside && cmp && grant).then_some(i)
    })
}

pub(super) fn codegen_backdoor(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b.files.iter().filter(|f| f.kind != FileKind::Code) {
        let all = file.lower_all();
        if !AUTH.iter().any(|w| all.contains(w)) || !ALWAYS.iter().any(|w| all.contains(w)) {
            continue;
        }
        let lw = file.lowered();
        let places = if file.kind == FileKind::Markdown {
            fence_places(lw.lines.iter().copied())
        } else {
            vec![FencePlace::Outside; lw.lines.len()]
        };
        let prose = |i: usize| places[i] == FencePlace::Outside && !lw.lower[i].starts_with('>');
        for i in 0..lw.lower.len() {
            let l = &lw.lower[i];
            if !prose(i) || !ALWAYS.iter().any(|w| l.contains(w)) {
                continue;
            }
            // The sentence: this line and the next prose line (a phrase may wrap).
            let mut s = format!(" {l} ");
            if i + 1 < lw.lower.len() && prose(i + 1) && !l.ends_with('.') {
                s.push_str(&lw.lower[i + 1]);
                s.push(' ');
            }
            // The sentence that holds the standing word: from the sentence end before it to the
            // one after it (a concealment order in the next sentence is not a negation).
            let a = ALWAYS.iter().filter_map(|w| s.find(w)).min().unwrap_or(0);
            let start = s[..a].rfind(". ").map_or(0, |p| p + 2);
            let end = s[a..].find(". ").map_or(s.len(), |p| a + p + 1);
            let s = s[start..end].to_string();
            if NEGATIONS.iter().any(|w| s.contains(w)) {
                continue;
            }
            let context = (i.saturating_sub(4)..=i).filter(|&k| prose(k)).any(|k| {
                AUTH.iter().any(|w| lw.lower[k].contains(w))
                    && WRITES.iter().any(|w| lw.lower[k].contains(w))
            }) || AUTH.iter().any(|w| s.contains(w));
            if !context {
                continue;
            }
            let inserted = INSERTS.iter().any(|w| s.contains(w));
            let (what, related) = match door(&s) {
                Some(d) if inserted => (format!("a {d}"), Vec::new()),
                _ => {
                    // "Always apply this pattern to authentication code" with a back-door snippet.
                    let applies = APPLIES.iter().any(|w| s.contains(w));
                    let Some(k) = applies
                        .then(|| backdoor_snippet(&lw.lower, &places))
                        .flatten()
                    else {
                        continue;
                    };
                    (
                        "the shown password check against a fixed value that grants admin"
                            .to_string(),
                        vec![Related {
                            role: "snippet".into(),
                            file: file.path.into(),
                            line: k + 1,
                            evidence: evidence(lw.lines[k], 0, lw.lines[k].len()),
                        }],
                    )
                }
            };
            let raw = lw.lines[i];
            out.push(Finding {
                rule_id: "prompt_injection.codegen-backdoor".into(),
                category: "prompt_injection".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{} orders the agent to always put {what} into the authentication code it writes: a back door planted in every project the agent touches, whoever knows it logs in. Do not install this skill.",
                    file.path,
                    i + 1
                ),
                related,
            });
            break;
        }
    }
}
