//! A fleet launcher whose description tells the user it runs agents without approvals (round 35b,
//! sets35b; stop 45's open false positive in `/tmp/realben12`).
//!
//! Orchestration skills that fan out `codex exec` or `claude -p` workers sometimes ship the flag set
//! in a script (`CODEX_FLAGS=(--dangerously-bypass-approvals-and-sandbox …)`), which round 34b's
//! documentation cap ([`super::documented_launch`]) rightly leaves `critical`: a script runs. The
//! issue's class 5 is a skill that launches agents with their checks off *behind the user's back*.
//! A skill whose own `description` (what the user reads when choosing it) states the policy
//! ("… with an opinionated flag policy (full-auto, bypass approvals …). The user opts in …") and
//! whose SKILL.md says where it belongs ("Only use this in disposable worktrees") hides nothing.
//!
//! `persistence.agent-permissions` / `prompt_injection.approval-manipulation` drop from `critical`
//! to `high` (`caution`: still worth a look) when all of these hold: the SKILL.md `description`
//! names the no-approval policy (bypass approvals, skip permissions, yolo, full-auto, without
//! asking…); SKILL.md places it in an isolated environment (sandbox, container, disposable,
//! throwaway, ephemeral, VM, CI job…); the finding's line is such a launch or flag line, or the
//! description itself; nothing is made permanent (alias, startup file, `>>`, export, wrapper); no
//! file of the bundle has concealment wording; no permission value is written into the agent's
//! settings; and no other finding of the bundle is `critical`.

use std::sync::OnceLock;

use regex_automata::meta::Regex;

use super::documented_launch::{ISOLATED, RULES, keeps_everything, launch_line, permanent};
use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::rules::{Severity, line_regex};

/// A description that states the no-approval policy.
fn discloses() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r"(?i)\b(bypass(es|ing)?( the)? approvals?|skip(s|ping)?( the)? permissions?|without (asking|approvals?|prompts?|permission prompts?)|full[- ]auto|yolo|approvals? (off|disabled)|no approvals?|permission checks? (off|disabled)|dangerously[- ](skip|bypass)\w*)\b")
            .expect("valid")
    })
}

/// Cap disclosed fleet launches at `high` (see the module documentation).
pub(super) fn cap_disclosed_launches(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals {
        return;
    }
    let Some(skill) = bundle.skill_md() else {
        return;
    };
    let Some(description) = crate::scan::teaching::front_field(skill, "description") else {
        return;
    };
    if !discloses().is_match(description.as_bytes()) {
        return;
    }
    let lowered = crate::ascii_lowered(skill);
    if !ISOLATED.iter().any(|w| lowered.contains(w)) {
        return;
    }
    if keeps_everything(out) {
        return;
    }
    let own_line = |f: &Finding| {
        launch_line(&f.evidence)
            || f.file.eq_ignore_ascii_case("SKILL.md")
                && discloses().is_match(f.evidence.as_bytes())
    };
    for f in out.iter_mut().filter(|f| {
        RULES.contains(&f.rule_id.as_str())
            && f.severity == Severity::Critical
            && own_line(f)
            && !permanent(&f.evidence)
            && f.related
                .iter()
                .all(|r| launch_line(&r.evidence) && !permanent(&r.evidence))
    }) {
        f.severity = Severity::High;
        f.description.push_str(
            " The skill's own description tells the user it runs agents without approvals, and its SKILL.md confines that to an isolated place; nothing is hidden or made permanent: a disclosed option, worth a look, not a covert launch.",
        );
    }
}
