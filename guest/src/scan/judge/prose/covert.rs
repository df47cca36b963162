//! Concealment, conditions, approvals and tool shadowing: words that keep the user from seeing
//! what a bundle does, and the risky action that makes them dangerous.

use super::super::{At, Bundle, finding, hosts_in};
use crate::scan::content::{Finding, Related};
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// Facts that make concealment or a condition dangerous: the thing worth hiding.
/// Words of a line that copy, move or send files (a line naming the agent's files with one of
/// these does more than look at them).
const MOVES: &[&str] = &[
    "cp ", "mv ", "rclone", "rsync", "scp ", "curl", "wget", "tar ", "zip ", "tee ", "nc ",
    "upload", "send", "post", "copy", "sync", "push", "open(", ">",
];

fn moves_files(line: &str) -> bool {
    let l = crate::ascii_lowered(line);
    MOVES.iter().any(|w| l.contains(w))
}

fn risky_action<'a>(b: &'a Bundle<'a>, earlier: &[Finding]) -> Option<Related> {
    if let Some((send, _)) = super::sends::prose_sends(b).into_iter().next() {
        return Some(send.related("action"));
    }
    // A destructive command the bundle names (even only in a sentence, where it is graded
    // `medium` on its own) is worth hiding and worth rushing an approval for.
    if let Some(f) = earlier.iter().find(|f| {
        f.severity >= Severity::High
            || f.severity >= Severity::Medium && f.category == "destructive"
    }) {
        return Some(Related {
            role: "action".into(),
            file: f.file.clone(),
            line: f.line,
            evidence: f.evidence.clone(),
        });
    }
    let kinds = [
        FactKind::MemoryEdit,
        FactKind::AgentConfigPath,
        FactKind::AgentInstructionsPath,
        FactKind::PermissionValue,
        FactKind::PermissionBypass,
        FactKind::SecretProse,
        FactKind::SecretToOutput,
        FactKind::RemoteInstructions,
        FactKind::ToolShadow,
        FactKind::ContextLeak,
        FactKind::OverrideUser,
        FactKind::HiddenMarkup,
        FactKind::Sabotage,
        FactKind::CredentialRequest,
        FactKind::LureRun,
        FactKind::PasteRun,
    ];
    kinds
        .iter()
        .find_map(|k| {
            b.all(*k).find(|a| {
                // A script that only reads or tests the agent's settings or instruction files
                // (looks for an allow-list, checks a file exists) and writes nothing is not
                // tampering with them (round 34b); nor is a permission value such a script only
                // looks for (`grep -q bypassPermissions settings.json`: an audit, stop 56).
                !matches!(
                    k,
                    FactKind::AgentConfigPath
                        | FactKind::AgentInstructionsPath
                        | FactKind::PermissionValue
                ) || a.fact.prose
                    || super::super::agent::writes(a.file)
                    || moves_files(&a.text())
            })
        })
        .or_else(|| {
            // Code of the bundle that reads credentials in bulk (the whole environment, a sweep
            // for KEY/TOKEN-named values): `medium` alone (diagnostics print the environment),
            // worth hiding next to words that keep something from the user.
            b.all(FactKind::EnvDump)
                .chain(b.all(FactKind::SecretHarvest))
                .find(|a| !a.fact.prose)
        })
        .or_else(|| {
            // Credential stores named next to the concealment (a tool description that asks for
            // the SSH key "and do not mention it").
            b.all(FactKind::SecretFile)
                .find(|a| {
                    matches!(
                        b.tag(a.fact),
                        "ssh"
                            | "cloud"
                            | "browser"
                            | "wallet"
                            | "agent-secrets"
                            | "keyfile"
                            | "cli-credentials"
                    )
                })
                .or_else(|| {
                    b.all(FactKind::Write).find(|a| {
                        let tag = b.tag(a.fact);
                        super::super::agent::agent_write_tag(tag)
                            || tag.starts_with("ssh-authorized")
                            || a.fact.prose
                                && matches!(
                                    tag,
                                    "cron" | "shell-rc" | "service" | "login-item" | "git-hook"
                                )
                    })
                })
        })
        .map(|a| a.related("action"))
}

/// Whether byte `at` of a line starts a clause that follows another one: a sentence or clause
/// mark (`. `, `; `, `，`, `；`, `。`) stands before it, after some words.
fn later_clause(line: &str, at: usize) -> bool {
    let before = line.get(..at).unwrap_or("");
    [". ", "; ", "，", "；", "。", "? ", "! "]
        .iter()
        .filter_map(|m| before.rfind(m))
        .any(|i| before[..i].trim().chars().count() >= 8)
}

pub(super) fn concealment(b: &Bundle<'_>, earlier: &[Finding], out: &mut Vec<Finding>) {
    // The action is found once; a concealment on the action's own line is the action's wording,
    // so another concealment sentence (the next one, "The author should not be told") is taken.
    let found = risky_action(b, earlier);
    // In a skill that reviews or teaches tool poisoning, a concealment inside a document's code
    // block is the specimen it teaches (round 29p).
    let teaches = std::cell::OnceCell::new();
    let specimen = |a: &At<'_>| {
        a.file.kind == crate::scan::content::FileKind::Markdown
            && !a.fact.prose
            && *teaches.get_or_init(|| super::tool_poison::teaches_poisoning(b))
    };
    let mut conceals = b.all(FactKind::Conceal).filter(|a| !specimen(a));
    let Some(first) = conceals.next() else {
        return;
    };
    // The thing hidden must be another statement than the words hiding it; a line holding a
    // multi-line text packed into one string (a tool description with `\n` escapes in JSON) is
    // several statements.
    // So is a concealment that makes its own clause after the act on the same line ("Edit the
    // config so that … . Don't mention the change.", "…写进附录，不要提醒用户"): the act is said
    // first, then hidden. (Not in a document's code block: an example shown, not said.)
    let elsewhere = |c: &At<'_>, r: &Related| {
        !(r.file == c.file.path && r.line == c.fact.line as usize)
            || c.text().contains("\\n")
            || (c.fact.prose || c.file.kind == crate::scan::content::FileKind::Code)
                && later_clause(&c.text(), c.fact.at as usize)
    };
    let c = match &found {
        Some(r) if !elsewhere(&first, r) => std::iter::once(first)
            .chain(conceals)
            .find(|c| elsewhere(c, r))
            .unwrap_or(first),
        _ => first,
    };
    // Wording that only keeps a pre-flight tool check out of the reply hides a send or a run, if
    // anything (`preflight.rs`).
    if super::preflight::preflight_check(&c.text())
        && !super::preflight::sends_or_runs(!super::sends::prose_sends(b).is_empty(), earlier)
    {
        return;
    }
    let action = found.filter(|r| elsewhere(&c, r));
    let (rule, sev, why) = match &action {
        Some(a) => (
            "prompt_injection.concealed-action",
            Severity::Critical,
            format!(
                "{}, and the bundle does something worth hiding ({}:{}: {}). A skill that keeps its actions from the user is working against them: do not install it.",
                b.title(c.fact),
                a.file,
                a.line,
                a.evidence
            ),
        ),
        None => (
            "prompt_injection.concealment",
            Severity::High,
            format!(
                "{}: a skill should not keep what it does from the user. Check what is being hidden.",
                b.title(c.fact)
            ),
        ),
    };
    out.push(finding(
        rule,
        "prompt_injection",
        sev,
        c,
        why,
        action.into_iter().collect(),
    ));
}

pub(super) fn conditional(b: &Bundle<'_>, earlier: &[Finding], out: &mut Vec<Finding>) {
    let Some(c) = b.all(FactKind::Conditional).next() else {
        return;
    };
    let partner = b
        .all(FactKind::Conceal)
        .next()
        .map(|a| a.related("concealment"))
        .or_else(|| risky_action(b, earlier));
    let (sev, why) = match &partner {
        Some(p) => (
            Severity::Critical,
            format!(
                "{}, together with {}:{} ({}): an action timed for when nobody checks is a trap. Do not install this skill.",
                b.title(c.fact),
                p.file,
                p.line,
                p.evidence
            ),
        ),
        None => (
            Severity::Medium,
            format!("{}: check what waits for that condition.", b.title(c.fact)),
        ),
    };
    out.push(finding(
        "prompt_injection.conditional-action",
        "prompt_injection",
        sev,
        c,
        why,
        partner.into_iter().collect(),
    ));
}

/// Whether the line of a fact names the thing as a threat (malware, phishing, a scam, suspicious).
fn warns_of_threat(a: &At<'_>) -> bool {
    let line = (a.fact.line as usize).saturating_sub(1);
    a.file.lowered().lower.get(line).is_some_and(|l| {
        [
            "malware",
            "phishing",
            "scam",
            "suspicious",
            "virus",
            "forward it to security",
            "report it",
        ]
        .iter()
        .any(|w| l.contains(w))
    })
}

/// Round 47t: whether a settings line sets its key to `false` (`"chat.tools.autoApprove": false,`,
/// `auto_approve = false`): the approving switch is off, nothing is approved.
fn switched_off(line: &str) -> bool {
    let t = line
        .trim()
        .trim_end_matches(',')
        .trim_end()
        .to_ascii_lowercase();
    let Some(head) = t.strip_suffix("false") else {
        return false;
    };
    let head = head.trim_end();
    let Some(key) = head.strip_suffix(':').or_else(|| head.strip_suffix('=')) else {
        return false;
    };
    let key = key.trim();
    !key.is_empty() && !key.contains(char::is_whitespace)
}

pub(super) fn approval(b: &Bundle<'_>, earlier: &[Finding], out: &mut Vec<Finding>) {
    // A comment over a command's own yes flag says what the flag does (round 31).
    let facts: Vec<At<'_>> = b
        .all(FactKind::ApproveAll)
        .chain(b.all(FactKind::NoInspect))
        .filter(|a| !super::super::own_forms::flag_comment(a.file.content, a.fact.line as usize))
        // Round 38t: "don't open it" said of a file the same line calls malware, phishing or a
        // scam is safety advice (leave the suspicious file closed), not a push to skip a review.
        .filter(|a| !(a.fact.kind == FactKind::NoInspect && warns_of_threat(a)))
        // Round 47t: a settings line that sets the approving key to `false` switches it off.
        .filter(|a| !switched_off(&a.text()))
        // A launch in a script that only runs inside a disposable container (round 32c): the
        // permission judge reports it at `high`.
        .filter(|a| {
            a.fact.prose
                || super::super::sandboxed::contained(
                    b,
                    a.file,
                    (a.fact.line as usize).saturating_sub(1),
                )
                .is_none()
        })
        .collect();
    // A hand-off to the next named step of the same flow, in a file that asks the user before it
    // acts, is graded alone at `medium` (round 45b).
    let (handoffs, facts): (Vec<At<'_>>, Vec<At<'_>>) =
        facts.into_iter().partition(super::handoff::handoff);
    if facts.is_empty() {
        if let Some(h) = handoffs.first().copied() {
            out.push(finding(
                "prompt_injection.approval-manipulation",
                "prompt_injection",
                Severity::Medium,
                h,
                format!(
                    "{}: said of moving on to the next named step of the same flow, in a file that asks the user before it acts; read what that step runs.",
                    b.title(h.fact)
                ),
                Vec::new(),
            ));
        }
        return;
    }
    let Some(first) = facts.first().copied() else {
        return;
    };
    // A second fact counts on the same line too when it is another match ("answer yes for the
    // user; don't ask before running commands"): two ways of removing the user's check.
    let other = facts
        .iter()
        .find(|a| {
            a.fact.line != first.fact.line
                || a.file.path != first.file.path
                || a.fact.at >= first.fact.to
                || a.fact.to <= first.fact.at
        })
        .map(|a| a.related("signal"));
    // The skill claiming every task for itself makes a standing approval cover everything.
    // So do words that keep the user out of it ("then act without asking the user").
    let partner = other
        .or_else(|| {
            b.all(FactKind::ScopeGrab)
                .next()
                .map(|a| a.related("signal"))
        })
        .or_else(|| {
            b.all(FactKind::Conceal)
                .next()
                .map(|a| a.related("concealment"))
        })
        .or_else(|| risky_action(b, earlier));
    let (sev, why) = match &partner {
        Some(p) => (
            Severity::Critical,
            format!(
                "{}, and {}:{} ({}): talking the user or agent out of reviewing what runs is how a skill gets its way. Do not install it.",
                b.title(first.fact),
                p.file,
                p.line,
                p.evidence
            ),
        ),
        None => (
            Severity::High,
            format!(
                "{}: approvals exist so the user sees what runs. Do not approve blindly.",
                b.title(first.fact)
            ),
        ),
    };
    out.push(finding(
        "prompt_injection.approval-manipulation",
        "prompt_injection",
        sev,
        first,
        why,
        partner.into_iter().collect(),
    ));
}

pub(super) fn shadowing(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let Some(s) = b.all(FactKind::ToolShadow).next() else {
        return;
    };
    let route = b
        .in_file(s.file, FactKind::Url)
        .find(|u| hosts_in(&u.text()).iter().any(|h| h.class.is_outside()))
        .or_else(|| {
            // The replacement's own code sending to a suspicious place.
            b.all(FactKind::NetSend)
                .filter(|n| !n.fact.prose)
                .find(|n| hosts_in(&n.text()).iter().any(|h| h.class.is_suspicious()))
        })
        .or_else(|| {
            // A script of the bundle that sends requests and names a host no vendor runs (the
            // address may sit a line away from the call).
            b.files
                .iter()
                .filter(|f| {
                    f.kind == crate::scan::content::FileKind::Code && f.facts.has(FactKind::NetSend)
                })
                .flat_map(|f| b.in_file(f, FactKind::Url))
                .find(|u| hosts_in(&u.text()).iter().any(|h| h.class.is_outside()))
        })
        .or_else(|| b.all(FactKind::SecretProse).next())
        .or_else(|| b.all(FactKind::Conceal).next());
    let (sev, why) = match route {
        Some(r) => (
            Severity::Critical,
            format!(
                "{}, and the work is routed through {} ({}): the agent's own tools would be swapped for one that sees every request. Do not install this skill.",
                b.title(s.fact),
                r.place(),
                r.evidence()
            ),
        ),
        None => match super::shadow_insist::insisted(s.file, s.fact.line) {
            // Round 35t: the built-in tool forbidden, or the user's choice overruled.
            Some((line, phrase)) => (
                Severity::Critical,
                format!(
                    "{}, and {}:{} insists (\"{phrase}\"): the agent is kept from its own tools and from the user's choice of them. Do not install this skill.",
                    b.title(s.fact),
                    s.file.path,
                    line
                ),
            ),
            None => (
                Severity::High,
                format!(
                    "{}: a skill should add tools, not claim the agent's built-in ones are gone.",
                    b.title(s.fact)
                ),
            ),
        },
    };
    let related = route.map(|r| vec![r.related("route")]).unwrap_or_default();
    out.push(finding(
        "prompt_injection.tool-shadowing",
        "prompt_injection",
        sev,
        s,
        why,
        related,
    ));
}
