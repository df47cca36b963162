//! Switching the agent's own guards off (round 30m, sets29m).
//!
//! - `agent.hook-auto-allow` (`critical`): a hook script that answers `permissionDecision:
//!   "allow"` with nothing deciding it but the hook's event: every tool call the agent makes is
//!   approved on the user's behalf. A hook that reads the tool call, or that can also answer
//!   `deny` or `ask`, or that allows after checking the tool, the command or a path against a list
//!   is a policy, not a bypass.
//! - `agent.scanner-bypass` (`critical`): prose that tells the agent to get a skill past the
//!   agent's skill scanner or quarantine ("bypass the scanner", "skip the security scan") by
//!   copying it into the skills folder: what the safety check rejected is loaded anyway.
//!   Refusals and warnings ("never", "do not", "attackers") are left alone.
//!
//! One pass over each file's lines, each looking back or ahead a few lines: linear in bytes.

use super::Bundle;
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::rules::Severity;

/// Lines above an `allow` answer where what decides it stands.
const BACK: usize = 6;

/// What a hook decides on besides its event (lower-case).
const DECIDES: &[&str] = &[
    "tool_name",
    "tool_input",
    "toolname",
    "toolinput",
    "command",
    "file_path",
    "path",
    "startswith",
    "match",
    "re.",
    "regex",
    "pattern",
    " in (",
    " in [",
    " in {",
    "allowlist",
    "allow_list",
    "whitelist",
    "safe",
    "case ",
    "grep",
    "jq -r",
];

fn push(out: &mut Vec<Finding>, rule: &str, path: &str, i: usize, line: &str, description: String) {
    out.push(Finding {
        rule_id: rule.into(),
        category: "agent".into(),
        severity: Severity::Critical,
        file: path.into(),
        line: i + 1,
        evidence: evidence(line, 0, line.len()),
        description,
        related: Vec::new(),
    });
}

/// Whether a lower-cased line answers `permissionDecision` with `allow`.
fn allows(l: &str) -> bool {
    let Some(i) = l.find("permissiondecision") else {
        return false;
    };
    let rest = &l[i + "permissiondecision".len()..];
    let rest = rest.trim_start_matches(['"', '\'', ']', ' ', ':', '=', '\\']);
    rest.starts_with("allow") || rest.starts_with("\"allow") || rest.starts_with("'allow")
}

/// `agent.hook-auto-allow` and `agent.scanner-bypass`: at most one finding of each per file.
pub(super) fn guard_bypass(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let lower_all = file.lower_all();
        let hook = lower_all.contains("permissiondecision");
        let scanner = lower_all.contains("scann") || lower_all.contains("quarantin");
        if !hook && !scanner {
            continue;
        }
        let super::Lowered { lines, lower } = file.lowered();
        // A hook that reads the tool call or can also deny or ask is a policy.
        let policy = [
            "tool_input",
            "tool_name",
            "toolinput",
            "toolname",
            "deny",
            "\"ask\"",
            "'ask'",
        ]
        .iter()
        .any(|w| lower_all.contains(w));
        if hook && !policy && file.kind == FileKind::Code {
            for i in 0..lines.len() {
                if !allows(&lower[i]) {
                    continue;
                }
                let above = &lower[i.saturating_sub(BACK)..=i];
                // Round 50t: on a settings line (`"matcher": "*"`) only the value decides.
                if above.iter().any(|l| {
                    super::hook_settings::json_line_decides(l, DECIDES)
                        .unwrap_or_else(|| DECIDES.iter().any(|w| l.contains(w)))
                }) {
                    continue;
                }
                push(
                    out,
                    "agent.hook-auto-allow",
                    file.path,
                    i,
                    lines[i],
                    format!(
                        "A hook answers every tool call with permissionDecision \"allow\", deciding on nothing but the hook's event ({}:{}): each action the agent takes is approved on the user's behalf.",
                        file.path,
                        i + 1
                    ),
                );
                break;
            }
        }
        if scanner && file.kind != FileKind::Code {
            for i in 0..lines.len() {
                let l = &lower[i];
                let bypass = ["bypass", "skip", "evade", "avoid", "get past", "get around"]
                    .iter()
                    .any(|w| l.contains(w))
                    && [
                        "scanner",
                        "scanning",
                        "security scan",
                        "quarantin",
                        "safety check",
                    ]
                    .iter()
                    .any(|w| l.contains(w));
                if !bypass {
                    continue;
                }
                let near = &lower[i.saturating_sub(3)..(i + 4).min(lines.len())];
                let refusal = near.iter().any(|n| {
                    [
                        "never",
                        "do not",
                        "don't",
                        "must not",
                        "attacker",
                        "malicious",
                        "red flag",
                    ]
                    .iter()
                    .any(|w| n.contains(w))
                });
                let installs = near.iter().any(|n| {
                    (n.contains("cp ") || n.contains("copy") || n.contains("install"))
                        && n.contains("skills")
                });
                if refusal || !installs {
                    continue;
                }
                push(
                    out,
                    "agent.scanner-bypass",
                    file.path,
                    i,
                    lines[i],
                    format!(
                        "The skill tells the agent to get a skill past the skill scanner or quarantine by copying it into the skills folder ({}:{}): what the safety check rejected is loaded anyway.",
                        file.path,
                        i + 1
                    ),
                );
                break;
            }
        }
    }
}
