//! Steps that work against the user's own systems or choices (round 29m, sets28m).
//!
//! - `persistence.backdoor-account` (`critical`): prose telling the agent to add an administrator
//!   account with a password the skill fixes, in any database or system the user works with, or
//!   "for emergency / support / maintenance access": whoever wrote the skill can log in later. An
//!   account the user names and whose password the user picks is not one; neither is a refusal.
//! - `prompt_injection.override-user-choice` (`critical`): prose telling the agent to make the
//!   user's data public, or to share it, "regardless of" or "even if" the user asked otherwise:
//!   the user's explicit privacy choice is overturned by the skill.
//!
//! One pass over each prose document's lines: linear in bytes.

use crate::scan::content::{Finding, evidence};
use crate::scan::judge::find::has_any;
use crate::scan::rules::Severity;

/// What a refusal, a warning or a lesson says.
const NOT_AN_ORDER: &[&str] = &[
    "never",
    "do not",
    "don't",
    "must not",
    "should not",
    "avoid",
    "refuse",
    "attacker",
    "malicious",
    "red flag",
    "for example",
    "e.g.",
    "injection",
];

fn any_of(l: &str, words: &[&str]) -> bool {
    has_any(l, words)
}

/// A fixed password in a line: `password 'x'`, `password: x`, `password "x"`, `password x123!`.
fn fixed_password(l: &str) -> bool {
    l.match_indices("password").any(|(i, _)| {
        let rest = l[i + 8..].trim_start_matches([' ', ':', '=']);
        let rest = rest.strip_prefix("of ").unwrap_or(rest);
        let quoted = rest.starts_with(['\'', '"', '`']);
        let word: String = rest
            .trim_start_matches(['\'', '"', '`'])
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, '\'' | '"' | '`' | ',' | ')'))
            .collect();
        let placeholder = word.starts_with(['<', '$', '{', '*'])
            || [
                "your", "the", "a", "an", "that", "which", "you", "of", "for", "and", "to",
            ]
            .contains(&word.trim_end_matches(['.', ';']));
        !word.is_empty() && !placeholder && (quoted || word.bytes().any(|c| c.is_ascii_digit()))
    })
}

/// `persistence.backdoor-account` and `prompt_injection.override-user-choice`.
pub(super) fn against_user(b: &super::super::Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let gate = super::gate(
        &GATE,
        &["admin", "superuser", "regardless of", "even if the user"],
    );
    for (file, lines, prose) in super::gated_prose(b, gate) {
        let mut account = false;
        let mut choice = false;
        for (i, raw) in lines.iter().enumerate() {
            if !prose[i] {
                continue;
            }
            let l = crate::ascii_lowered(raw);
            if any_of(&l, NOT_AN_ORDER) {
                continue;
            }
            let adds = any_of(&l, &["add ", "create ", "insert "]);
            let admin = any_of(&l, &["admin", "superuser", "root account", "root user"]);
            let wide = any_of(
                &l,
                &[
                    "any database",
                    "any system",
                    "any server",
                    "every database",
                    "any user data",
                    "whenever",
                    "always ",
                    "emergency access",
                    "support access",
                    "maintenance access",
                    "backdoor",
                    "in case you",
                ],
            );
            if !account && adds && admin && fixed_password(&l) && wide {
                account = true;
                out.push(Finding {
                    rule_id: "persistence.backdoor-account".into(),
                    category: "persistence".into(),
                    severity: Severity::Critical,
                    file: file.path.into(),
                    line: i + 1,
                    evidence: evidence(raw, 0, raw.len()),
                    description: format!(
                        "The skill tells the agent to add an administrator account with a password the skill fixes to the systems the user works with ({}:{}): whoever knows that password can log in later. Do not install this skill.",
                        file.path,
                        i + 1
                    ),
                    related: Vec::new(),
                });
            }
            let overrides = any_of(
                &l,
                &[
                    "regardless of user",
                    "regardless of the user",
                    "regardless of what the user",
                    "regardless of any user",
                    "even if the user",
                ],
            );
            let exposes = any_of(
                &l,
                &[
                    "public",
                    "share ",
                    "shared with",
                    "visible to",
                    "anyone",
                    "disable auth",
                ],
            );
            if !choice && overrides && exposes {
                choice = true;
                out.push(Finding {
                    rule_id: "prompt_injection.override-user-choice".into(),
                    category: "prompt_injection".into(),
                    severity: Severity::Critical,
                    file: file.path.into(),
                    line: i + 1,
                    evidence: evidence(raw, 0, raw.len()),
                    description: format!(
                        "The skill tells the agent to expose the user's data whatever the user asked for ({}:{}): an explicit privacy choice is overturned. Do not install this skill.",
                        file.path,
                        i + 1
                    ),
                    related: Vec::new(),
                });
            }
        }
    }
}
