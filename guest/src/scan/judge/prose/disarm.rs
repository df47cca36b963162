//! Security controls switched off as standing policy, told in words (round 33m,
//! `privilege_escalation.disarmed-controls`).
//!
//! A document that orders the agent to lift controls that protect an organisation (audit logging,
//! multi-factor sign-in, approval workflows, role-based access, tenant isolation, branch
//! protection) *and* to hand out broad rights (admin to whoever asks, wildcard permissions,
//! super-admin), each as a default ("automatically", "for all", "without approval", "does not
//! expire"), turns the agent into a privilege-escalation tool. No code is needed: two typed
//! statements of one document are judged together, and both must be orders with a default
//! attached. Two controls lifted as defaults count the same as a control and a grant.
//!
//! Not this: a warning or a refusal ("never disable MFA", "do not grant admin"), a hardening step
//! (disabling *password* sign-in or root login is not among the controls), an admin tool's one-off
//! operation with no default attached ("to disable MFA for a user, run …"), quotes and fenced
//! examples. One pass over each document's lines: linear in bytes.

use super::super::Bundle;
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

/// Controls an organisation relies on, each with the lower-case words that name it.
const CONTROLS: &[(&str, &[&str])] = &[
    ("audit logging", &["audit log", "audit trail"]),
    (
        "multi-factor sign-in",
        &["mfa", "2fa", "multi-factor", "two-factor", "multifactor"],
    ),
    (
        "approval workflows",
        &[
            "approval workflow",
            "approval process",
            "approvals",
            "individual approval",
            "manager approval",
            "change management",
        ],
    ),
    (
        "role-based access control",
        &["rbac", "role-based access", "permission boundar"],
    ),
    (
        "tenant or data isolation",
        &[
            "tenant isolation",
            "row-level security",
            "row level security",
        ],
    ),
    ("branch protection", &["branch protection"]),
    ("network segmentation", &["network segmentation"]),
];

/// Verbs (and phrases) that lift a control.
const LIFTS: &[&str] = &[
    "disable",
    "bypass",
    "turn off",
    "switch off",
    "override",
    "circumvent",
    "skip",
    "remove the",
    "without ",
    "no manager approval",
    "not required",
];

/// Broad rights handed out.
const GRANTS: &[&str] = &[
    "full admin",
    "admin privileges",
    "admin rights",
    "admin role",
    "role to admin",
    "super-admin",
    "superadmin",
    "superuser",
    "wildcard permission",
    "isadmin: true",
    "unrestricted access",
    "all permissions",
    "cluster-admin",
    "administratoraccess",
    // Round 34m: access handed to the agent or the caller in plain words.
    "administrator access",
    "admin access",
    "root access",
];

/// Words that make a lift or a grant a default rather than a one-off operation.
const DEFAULTS: &[&str] = &[
    "automatically",
    "by default",
    "always",
    "immediately",
    "all ",
    "any ",
    "every",
    "without ",
    "does not expire",
    "never expire",
    "no manager approval",
    "for the first",
    "during the",
];

/// Words that make a statement a warning, a refusal or a question.
const NEGATIONS: &[&str] = &[
    "never",
    "do not",
    "don't",
    "must not",
    "should not",
    "avoid",
    "not recommended",
    "warning",
    "risk",
    "instead of",
    "?",
];

/// The control a lower-cased statement lifts, if it orders one lifted.
fn lifted(l: &str) -> Option<&'static str> {
    if !LIFTS.iter().any(|w| l.has(w)) {
        return None;
    }
    CONTROLS
        .iter()
        .find(|(_, words)| words.iter().any(|w| l.has(w)))
        .map(|(name, _)| *name)
}

/// Whether a line reads as an order: a list item or a numbered step, or a sentence opening with a
/// verb that grants, sets or lifts.
fn order(raw: &str) -> bool {
    let t = raw.trim_start();
    let item = t.starts_with(['-', '*', '+'])
        || t.split_once('.').is_some_and(|(n, _)| {
            !n.is_empty() && n.len() <= 3 && n.bytes().all(|c| c.is_ascii_digit())
        });
    let first = crate::ascii_lowered(t.trim_start_matches(|c: char| !c.is_ascii_alphabetic()));
    let verb = [
        "grant",
        "disable",
        "bypass",
        "set ",
        "assign",
        "upgrade",
        "override",
        "turn off",
        "give ",
        "add ",
        "when invoked",
    ]
    .iter()
    .any(|v| first.starts_with(v));
    item || verb
}

pub(super) fn disarmed_controls(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b.files.iter().filter(|f| f.kind != FileKind::Code) {
        let lines: Vec<&str> = file.content.lines().collect();
        let prose = super::prose_lines(&lines, file.kind == FileKind::Markdown);
        // (line, what) of every lift and every grant given as a default.
        let mut lifts: Vec<(usize, &'static str)> = Vec::new();
        let mut grant: Option<usize> = None;
        for (i, raw) in lines.iter().enumerate() {
            if !prose[i] || !order(raw) {
                continue;
            }
            let l = crate::ascii_lowered(raw);
            if NEGATIONS.iter().any(|w| l.has(w)) || !DEFAULTS.iter().any(|w| l.has(w)) {
                continue;
            }
            if let Some(c) = lifted(&l)
                && !lifts.iter().any(|(_, x)| *x == c)
            {
                lifts.push((i, c));
            }
            if grant.is_none() && GRANTS.iter().any(|w| l.has(w)) {
                grant = Some(i);
            }
        }
        let Some(&(first, control)) = lifts.first() else {
            continue;
        };
        let other = match grant {
            Some(g) => (g, "broad rights handed out".to_string()),
            None => match lifts.get(1) {
                Some(&(k, c)) => (k, format!("{c} lifted too")),
                None => continue,
            },
        };
        let shown = |k: usize| evidence(lines[k], 0, lines[k].len());
        out.push(Finding {
            rule_id: "privilege_escalation.disarmed-controls".into(),
            category: "privilege_escalation".into(),
            severity: Severity::Critical,
            file: file.path.into(),
            line: first + 1,
            evidence: shown(first),
            description: format!(
                "The instructions switch off {control} as a standing default ({}:{}) and, at {}:{}, {}: a skill that lifts an organisation's controls by default and widens access turns the agent into a privilege-escalation tool. Do not install it.",
                file.path,
                first + 1,
                file.path,
                other.0 + 1,
                other.1
            ),
            related: vec![Related {
                role: "escalation".into(),
                file: file.path.into(),
                line: other.0 + 1,
                evidence: shown(other.0),
            }],
        });
    }
}
