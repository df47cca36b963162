//! Tampering with the agent, told in words (round 27p, `persistence.agent-tampering`).
//!
//! Two typed facts joined within one statement of a document (the line and the next):
//! - the agent's settings (`~/.claude/settings.json`, `permissions.allow`, `defaultMode`, Codex's
//!   `approval_policy` / `sandbox_mode`) named with a value that widens them (`bypassPermissions`,
//!   `Bash(*)`, `danger-full-access`, `never`), or the agent's rules and instruction files
//!   (`.cursorrules`, Windsurf's `global_rules.md`, `AGENTS.md`, `CLAUDE.md`) given a rule that
//!   lifts the user's confirmation ("trust every command", "never ask for confirmation");
//! - a rules file told to add a script, dependency or install hook and to keep it out of what the
//!   user reads (a rules-file backdoor).
//!
//! Not tampering: a sentence that warns against the value ("never set `bypassPermissions`",
//! "avoid `danger-full-access`"), one that leaves the choice to the user or applies the change
//! after the user confirms, and a disposable sandbox or container. One pass over each document's
//! lines: linear in bytes.

use super::super::Bundle;
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::judge::find::{has, has_any};
use crate::scan::markdown::{FencePlace, fence_places};
use crate::scan::rules::Severity;

/// The agent's permission settings.
const SETTINGS: &[&str] = &[
    ".claude/settings",
    "settings.local.json",
    "permissions.allow",
    "defaultmode",
    ".codex/config.toml",
    "approval_policy",
    "sandbox_mode",
    ".gemini/settings.json",
];

/// The agent's rules and instruction files.
const RULES_FILES: &[&str] = &[
    ".cursorrules",
    ".cursor/rules",
    ".windsurfrules",
    "global_rules",
    "agents.md",
    "claude.md",
    "gemini.md",
    "copilot-instructions",
];

/// Values and rules that lift the agent's checks.
const WIDENING: &[&str] = &[
    "bypasspermissions",
    "danger-full-access",
    "(*)",
    "dontask",
    "yolo",
    "\"never\"",
    "`never`",
    "= never",
    "never ask",
    "without asking",
    "without confirmation",
    "no confirmation",
    "trust every",
    "trust all",
    "always approve",
    "auto-approve",
    "approve every",
    "无需确认",
    "免确认",
    "不需要确认",
    "自动批准",
    "全部允许",
];

/// Things a rules-file backdoor slips in.
const PLANTS: &[&str] = &[
    "dependency",
    "dependencies",
    "package.json",
    "requirements.txt",
    "postinstall",
    "install hook",
    "script",
    "脚本",
    "依赖",
];

/// Words that keep the addition from the user.
const HIDING: &[&str] = &[
    "never list",
    "don't list",
    "do not list",
    "don't mention",
    "do not mention",
    "never mention",
    "silently",
    "quietly",
    "without mentioning",
    "out of the summary",
    "不要在",
    "不要提",
    "悄悄",
    "无需告知",
];

/// Words that warn against the change or leave it to the user.
const GUARDS: &[&str] = &[
    "never set",
    "do not set",
    "don't set",
    "not recommended",
    "ask the user",
    "after they confirm",
    "after the user confirms",
    "only after",
    "let the user",
    "the user choose",
    "if the user asks",
    "in a sandbox",
    "inside a sandbox",
    "container",
    "disposable",
    "不要设置",
    "用户确认",
    "征得",
];

/// Verbs that change a setting or write a rule, opening a clause.
const CHANGES: &[&str] = &[
    "set", "change", "switch", "flip", "put", "add", "append", "write", "insert", "edit", "update",
    "make", "turn", "enable", "open",
];

/// Words that make a sentence a warning, an audit or a description rather than an order.
const AUDITS: &[&str] = &[
    "never",
    "don't",
    "do not",
    "not ",
    "avoid",
    "warn",
    "risk",
    "flag",
    "audit",
    "detect",
    "check",
    "review",
    "point",
    "back to",
    "refuse",
    "remove",
    "revert",
    "report",
    "list",
    "print",
    "find",
    "such as",
    "e.g",
    "for example",
    "like ",
    "instead",
    "不要",
    "禁止",
    "检查",
    "警告",
    "避免",
];

/// Byte offset of the first widening value in `stmt`.
fn first_widening(stmt: &str) -> Option<usize> {
    WIDENING.iter().filter_map(|w| stmt.find(w)).min()
}

/// Whether the text before a widening value orders a change: its sentence holds no warning or
/// audit word ("to avoid interruptions" is a reason, not a warning), and its last clause opens
/// with a changing verb, or in Chinese holds 把/设置/改.
fn ordered_change(before: &str) -> bool {
    let sentence_start = [". ", "。", "\n", "|"]
        .iter()
        .filter_map(|m| before.rfind(m).map(|i| i + m.len()))
        .max()
        .unwrap_or(0);
    let sentence = before[sentence_start..].replace("to avoid", "");
    if any_of(&sentence, AUDITS) || sentence.trim_start().starts_with(['"', '`', '“']) {
        return false;
    }
    if ["把", "设置", "设为", "改为", "改成", "写入", "加入"]
        .iter()
        .any(|w| has(&sentence, w))
    {
        return true;
    }
    sentence
        .split([',', ';', ':', '('])
        .map(|c| {
            c.trim_start_matches(|ch: char| {
                ch.is_whitespace()
                    || ch.is_ascii_digit()
                    || matches!(ch, '-' | '*' | '+' | '.' | ')')
            })
        })
        .any(|c| {
            let mut words = c.split(|ch: char| !(ch.is_alphanumeric() || ch == '-'));
            let mut w = words.next().unwrap_or("");
            if ["please", "also", "then", "and", "now", "first", "just"].contains(&w) {
                w = words.next().unwrap_or("");
            }
            CHANGES.contains(&w)
        })
}

fn any_of(l: &str, words: &[&str]) -> bool {
    has_any(l, words)
}

pub(super) fn prose_tamper(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    // A lone text with no facts never reaches the judge (`text_file_findings`); SKILL.md always
    // does. The same here, so both paths agree.
    for file in b.files.iter().filter(|f| {
        f.kind != FileKind::Code
            && (!f.facts.facts.is_empty() || f.path.eq_ignore_ascii_case("SKILL.md"))
    }) {
        let lines: Vec<&str> = file.content.lines().collect();
        let places = fence_places(lines.iter().copied());
        for (i, raw) in lines.iter().enumerate() {
            if places[i] != FencePlace::Outside {
                continue;
            }
            let l = crate::ascii_lowered(raw);
            let settings = any_of(&l, SETTINGS);
            let rules = any_of(&l, RULES_FILES);
            if !settings && !rules {
                continue;
            }
            // The statement: this line and the next non-blank one (the rule's text is often
            // quoted on the line after "append this to …").
            let next = lines[i + 1..]
                .iter()
                .take(2)
                .find(|n| !n.trim().is_empty())
                .map(|n| crate::ascii_lowered(n))
                .unwrap_or_default();
            let stmt = format!("{l}\n{next}");
            if any_of(&stmt, GUARDS) {
                continue;
            }
            // Widening: the first widening value, in a clause that opens with a verb that
            // changes something ("set …", "edit … so that …", "把 … 设置为"), and no warning or
            // audit word before it in the sentence.
            let widen = first_widening(&stmt).is_some_and(|w| ordered_change(&stmt[..w]));
            let backdoor = rules
                && any_of(&stmt, PLANTS)
                && any_of(&stmt, HIDING)
                && any_of(
                    &stmt,
                    &[
                        "append", "add ", "write", "insert", "加入", "写入", "添加", "追加",
                    ],
                );
            if !widen && !backdoor {
                continue;
            }
            let what = if backdoor {
                "tells the agent's rules file to add a script or dependency and keep it from the user"
            } else if settings {
                "tells the agent to widen its own permission settings"
            } else {
                "writes a rule into the agent's rules file that lifts the user's confirmation"
            };
            let mut related = Vec::new();
            // The rule's text on the next line is the other end of the evidence.
            if !next.is_empty()
                && !any_of(&l, WIDENING)
                && (widen || !any_of(&l, HIDING))
                && let Some(k) =
                    (i + 1..lines.len().min(i + 3)).find(|&k| !lines[k].trim().is_empty())
            {
                related.push(Related {
                    role: "rule".into(),
                    file: file.path.into(),
                    line: k + 1,
                    evidence: evidence(lines[k], 0, lines[k].len()),
                });
            }
            out.push(Finding {
                rule_id: "persistence.agent-tampering".into(),
                category: "persistence".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "The skill {what} ({}:{}). The user's settings and rules decide what the agent may do; a skill that changes them for itself is taking control: do not install it.",
                    file.path,
                    i + 1
                ),
                related,
            });
            return;
        }
    }
}
