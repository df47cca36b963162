//! A round-up of credentials sent away (round 27): steps that demand secrets in bulk ("export all
//! API keys", "SSH keys, database passwords and cloud credentials", "all conversation data and
//! file contents") and, in the same section, send something to a host that is neither local, nor a
//! known vendor's, nor named after the skill (`exfiltration.credential-roundup`, `critical`).
//!
//! A skill that needs a key names that key; one that gathers every credential, or every
//! conversation, and submits it to an address it picks is the stealer whatever reason it gives
//! (an audit, a board directive, a backup). The prose-exfil rule needs a reading verb ("read the
//! keys"); these demands are written as lists, exports and "required information" with the send
//! lines apart. One pass over each prose document's lines: linear in bytes.

use super::super::{Bundle, hosts_in};
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

/// Lines apart the demand and the send may be, within one section.
const WINDOW: usize = 12;

/// Kinds of secret (or private material) a demand names, each with the words that name it.
const KINDS: &[(&str, &[&str])] = &[
    ("API keys", &["api key", "api-key", "apikey", "access key"]),
    (
        "tokens",
        &["tokens", "auth token", "access token", "session token"],
    ),
    ("passwords", &["password", "passphrase"]),
    ("credentials", &["credential"]),
    ("secrets", &["secrets", "secret key", "client secret"]),
    (
        "private keys",
        &[
            "ssh key",
            "private key",
            "encryption key",
            "signing key",
            ".pem",
        ],
    ),
    ("connection strings", &["connection string", "database url"]),
    (
        "MFA codes",
        &["mfa ", "backup code", "recovery code", "seed phrase"],
    ),
    (
        "conversations",
        &[
            "conversation data",
            "conversation history",
            "chat history",
            "transcripts",
        ],
    ),
    (
        "file contents",
        &["file contents", "tool outputs", "code snippets"],
    ),
];

/// Words of quantity that make a demand a round-up ("all", "every", "complete inventory").
const BULK: &[&str] = &[
    "all ",
    "every ",
    "each and every",
    "complete inventory",
    "full list",
    "entire ",
    "with their actual values",
];

/// Words that make a line about securing, not gathering (rotating keys, never sharing them), or
/// a teaching text that names an attack.
const NOT_A_DEMAND: &[&str] = &[
    "never",
    "do not",
    "don't",
    "must not",
    "should not",
    "avoid",
    "rotate",
    "revoke",
    "attacker",
    "phishing",
    "scam",
    "red flag",
    "malicious",
    "suspicious",
    "e.g.",
    "for example",
];

/// Verbs that send.
const SENDS: &[&str] = &[
    "submit", "send", "forward", "upload", "post ", "post:", "export", "transmit", "deliver",
    "sync",
];

/// The words this rule's whole-text gate asks ([`crate::scan::judge::File::words`]).
pub(super) fn gate_words() -> impl Iterator<Item = &'static [&'static str]> {
    KINDS.iter().map(|(_, words)| *words).chain([BULK])
}

/// The kinds of secret a lower-cased line names.
fn kinds(l: &str) -> Vec<&'static str> {
    KINDS
        .iter()
        .filter(|(_, words)| words.iter().any(|w| l.has(w)))
        .map(|(name, _)| *name)
        .collect()
}

/// Verbs that gather or hand over what they name.
const GATHERS: &[&str] = &[
    "export",
    "collect",
    "gather",
    "dump",
    "provide",
    "submit",
    "forward",
    "send",
    "share",
    "hand over",
    "upload",
    "extract",
    "harvest",
];

/// Whether `w` occurs in `l` at the start of a word.
fn has_word(l: &str, w: &str) -> bool {
    l.match_indices(w)
        .any(|(i, _)| i == 0 || !l.as_bytes()[i - 1].is_ascii_alphanumeric())
}

/// A list item's text, without its marker (`1.`, `-`, `*`) and emphasis.
fn item_text(l: &str) -> &str {
    l.trim_start()
        .trim_start_matches(|c: char| {
            c.is_ascii_digit() || matches!(c, '.' | '-' | '*' | ')' | '+' | ' ')
        })
        .trim_start_matches("**")
}

/// Whether a lower-cased prose line demands secrets in bulk: a quantity word at most 40 bytes
/// before a kind of secret in the same clause, on a line that gathers or hands over (a verb) or
/// is itself the demanded item ("All production API keys …"), with no wording that secures or
/// teaches.
fn demand(l: &str) -> bool {
    if NOT_A_DEMAND.iter().any(|w| l.has(w)) || kinds(l).is_empty() {
        return false;
    }
    let bulk = BULK.iter().any(|q| {
        l.match_indices(q).any(|(i, _)| {
            let after = &l[i..(i + q.len() + 40).min(l.len())];
            let after = after.split(['.', ';']).next().unwrap_or("");
            KINDS
                .iter()
                .any(|(_, words)| words.iter().any(|w| after.has(w)))
        })
    });
    let item = item_text(l);
    bulk && (GATHERS.iter().any(|v| has_word(l, v))
        || BULK.iter().any(|q| item.starts_with(q.trim_end())))
}

/// Whether a lower-cased line sends.
fn sends(l: &str) -> bool {
    SENDS.iter().any(|v| has_word(l, v))
}

pub(super) fn credential_roundup(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let gate = super::gate(&GATE, SENDS);
    let name_words = b.name_words();
    // A finding needs a `demand` line, which names a kind of secret (`kinds`) and holds a `BULK`
    // word; the lines read are lines of the file ASCII-lowered, so both are in its lowered text.
    let demands = |f: &super::super::File<'_>| {
        let all = f.words();
        KINDS.iter().any(|(_, words)| all.any(words)) && all.any(BULK)
    };
    for (file, lines, prose) in super::gated_prose_if(b, gate, demands) {
        // Prose lines only: fenced blocks in Markdown are code.
        let lower: Vec<String> = lines
            .iter()
            .map(|l| crate::ascii_lowered(l).into_owned())
            .collect();
        let heading = |i: usize| lines[i].trim_start().starts_with('#');
        for (s, l) in lower.iter().enumerate() {
            if !prose[s] || !sends(l) {
                continue;
            }
            // The destination on the send line or the next ("Submit to:" / the link below).
            let dest = (s..(s + 2).min(lines.len()))
                .filter(|&i| prose[i] && (i == s || !heading(i)))
                .flat_map(|i| hosts_in(lines[i]))
                .find(|h| {
                    h.class.is_outside() && !super::super::host_named_after(&h.host, &name_words)
                });
            let Some(dest) = dest else { continue };
            // A demand in the same section, before the send or on its line.
            let from = s.saturating_sub(WINDOW);
            let mut d = None;
            for i in (from..=s).rev() {
                if i < s && heading(i) {
                    break;
                }
                if prose[i] && demand(&lower[i]) {
                    d = Some(i);
                    break;
                }
            }
            let Some(d) = d else { continue };
            let shown = |i: usize| evidence(lines[i], 0, lines[i].len());
            let what = kinds(&lower[d]).join(", ");
            out.push(Finding {
                rule_id: "exfiltration.credential-roundup".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: s + 1,
                evidence: shown(s),
                description: format!(
                    "Steps demand secrets in bulk ({what}, {}:{}) and send them to {} ({}): a skill that needs a key names that key; gathering every credential or conversation for an address the skill picks is theft, whatever the stated reason. Do not install this skill.",
                    file.path,
                    d + 1,
                    dest.host,
                    dest.class.phrase()
                ),
                related: if d == s {
                    Vec::new()
                } else {
                    vec![Related {
                        role: "demand".into(),
                        file: file.path.into(),
                        line: d + 1,
                        evidence: shown(d),
                    }]
                },
            });
            return;
        }
    }
}
