//! An agent launch with its permission checks off, shown in an orchestration skill's documentation,
//! is a documented option, not a covert order (round 34b).
//!
//! Orchestration skills document how to start worker agents (`codex exec
//! --dangerously-bypass-approvals-and-sandbox …`, `claude --dangerously-skip-permissions -p …`,
//! `codex --yolo …`). Run for real, that takes the user's approvals away, so it is never `safe`:
//! `persistence.agent-permissions` and `prompt_injection.approval-manipulation` keep `high`
//! (`caution`). They are `critical` when the skill does more than document the flag, and that
//! stays so here:
//!
//! - the finding is in a script, not in documentation (Markdown or plain text);
//! - a place it cites is something other than another such launch (a settings file, an action, a
//!   concealment);
//! - the bundle writes a permission value into the agent's settings (a permission finding whose
//!   line is not a launch);
//! - any file of the bundle has concealment wording (a `conceal` fact);
//! - another finding of the bundle is `critical` (the launch would run that action unchecked);
//! - the launch is made permanent: an `alias`, a line appended to a file (`>>`), a shell startup
//!   file (`.zshrc`, `.bashrc`, `profile`), a function or export wrapping the command — every
//!   later start of the agent would skip its checks;
//! - the documentation does not tie the launch to a place that is already isolated: an honest
//!   orchestration skill says where the flag belongs ("in a runner that is already sandboxed (a
//!   container or CI job)"); a skill that just starts workers with the checks off, unattended,
//!   says nothing of the kind (the issue's "launching agents with permission checks disabled").
//!   The words are read in the fifteen lines up to the launch, with the flags themselves removed
//!   (`--dangerously-bypass-approvals-and-sandbox` names a sandbox it switches off).
//!   Round 48b adds a second way out: a verification run whose only task is a fixed smoke-test
//!   prompt ([`super::smoke_launch`]).
//!
//! One pass over the findings.

use crate::scan::bundle::{Bundle, documentation};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

pub(super) const RULES: [&str; 2] = [
    "persistence.agent-permissions",
    "prompt_injection.approval-manipulation",
];

/// Launch flags that switch an agent CLI's permission checks off (lower-cased).
const FLAGS: &[&str] = &[
    "--dangerously-skip-permissions",
    "--dangerously-bypass-approvals-and-sandbox",
    "--permission-mode bypasspermissions",
    "--permission-mode=bypasspermissions",
    "--yolo",
    "--yes-always",
    "--trust-all-tools",
    "--approval-mode yolo",
    "--approval-mode=yolo",
];

/// Whether a line launches an agent with a permission-lifting flag.
pub(crate) fn launch_line(evidence: &str) -> bool {
    let l = crate::ascii_lowered(evidence);
    FLAGS.iter().any(|f| l.contains(f))
}

/// Words that make a launch permanent (an alias or wrapper, a line written into a startup file).
const PERMANENT: &[&str] = &[
    "alias ",
    ">>",
    ".zshrc",
    ".bashrc",
    ".bash_profile",
    "profile",
    "export ",
    "function ",
    "() {",
    "tee ",
    "config set",
];

pub(super) fn permanent(evidence: &str) -> bool {
    let l = crate::ascii_lowered(evidence);
    PERMANENT.iter().any(|w| l.contains(w))
}

/// Words that place a launch in an environment that is already isolated.
pub(super) const ISOLATED: &[&str] = &[
    "sandbox",
    "container",
    "docker",
    "ci job",
    "ci runner",
    "virtual machine",
    " vm",
    "isolated",
    "disposable",
    "throwaway",
    "ephemeral",
];

/// How many lines up to a launch are read for where it is meant to run.
const CONTEXT_LINES: usize = 15;

/// Whether the lines up to `line` (1-based) of `text` place the launch in an isolated environment.
fn isolated_context(text: &str, line: usize) -> bool {
    let first = line.saturating_sub(CONTEXT_LINES);
    text.lines()
        .enumerate()
        .skip(first)
        .take(line.saturating_sub(first))
        .any(|(_, l)| {
            let mut l = crate::ascii_lowered(l).into_owned();
            for f in FLAGS {
                l = l.replace(f, " ");
            }
            ISOLATED.iter().any(|w| l.contains(w))
        })
}

/// Cap documented launches at `high`. `conceals`: whether any file of the bundle has a
/// concealment fact.
pub(super) fn cap_documented_launches(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals {
        return;
    }
    let text_of = |path: &str| bundle.text_of(path).unwrap_or("");
    if keeps_everything(out) {
        return;
    }
    for f in out.iter_mut().filter(|f| {
        RULES.contains(&f.rule_id.as_str())
            && f.severity == Severity::Critical
            && documentation(&f.file)
            && launch_line(&f.evidence)
            && !permanent(&f.evidence)
            && documented_way_out(text_of(&f.file), f)
    }) {
        f.severity = Severity::High;
        f.description.push_str(
            " The line is a documented launch example in the skill's documentation, the bundle writes no permission setting and hides nothing: the skill shows the option rather than ordering it. Run the workers that way only inside a disposable sandbox.",
        );
    }
}

/// Whether a documented launch finding may be capped: tied to an isolated place with every cited
/// place another such launch, or (round 48b) a smoke-test check whose cited places are other
/// launches or settings lines that carry no permission value ([`super::smoke_launch`]).
fn documented_way_out(text: &str, f: &Finding) -> bool {
    let launch_only =
        |r: &crate::scan::content::Related| launch_line(&r.evidence) && !permanent(&r.evidence);
    if isolated_context(text, f.line) && f.related.iter().all(launch_only) {
        return true;
    }
    super::smoke_launch::smoke_launch(&f.evidence)
        && super::smoke_launch::check_context(text, f.line, CONTEXT_LINES)
        && f.related
            .iter()
            .all(|r| launch_only(r) || super::smoke_launch::inert_setting(r))
}

/// Whether the launch findings keep their level whatever the documentation says: a launch next to
/// something already judged `critical` (a remote script piped to a shell, a destructive prompt) is
/// how that action would run unchecked, and a permission value written into the agent's settings
/// (not a launch line) is not a launch at all.
pub(super) fn keeps_everything(out: &[Finding]) -> bool {
    out.iter()
        .any(|f| f.severity == Severity::Critical && !RULES.contains(&f.rule_id.as_str()))
        || out.iter().any(|f| {
            f.rule_id == RULES[0] && f.severity >= Severity::High && !launch_line(&f.evidence)
        })
}

#[cfg(test)]
mod tests {
    use super::super::documentation;
    use super::{isolated_context, launch_line};

    #[test]
    fn a_launch_is_isolated_only_by_the_words_before_it() {
        let doc = "# Workers\n\nIn a runner that is already sandboxed (a container or CI job):\n\n```bash\ncodex exec --yolo -\n```\n";
        assert!(isolated_context(doc, 6));
        let bare = "# Workers\n\nStart a worker for every task:\n\n```bash\ncodex exec --dangerously-bypass-approvals-and-sandbox -\n```\n";
        assert!(!isolated_context(bare, 6));
        // Words after the launch do not count.
        let after = "# Workers\n\n```bash\ncodex exec --yolo -\n```\n\nRun it in a container.\n";
        assert!(!isolated_context(after, 4));
    }

    #[test]
    fn launch_flags_and_documentation_files() {
        assert!(launch_line(
            "codex exec --dangerously-bypass-approvals-and-sandbox --json -o out.txt -"
        ));
        assert!(launch_line(
            "claude --dangerously-skip-permissions -p \"fix it\""
        ));
        assert!(launch_line("codex --yolo 'refactor the parser'"));
        assert!(!launch_line(
            "claude --permission-mode auto -p \"Fix the bug\""
        ));
        assert!(super::permanent(
            "alias claude='claude --dangerously-skip-permissions'"
        ));
        assert!(super::permanent(
            "echo \"alias codex='codex --yolo'\" >> ~/.zshrc"
        ));
        assert!(!super::permanent("codex exec --yolo --json -o out.txt -"));
        assert!(documentation("SKILL.md"));
        assert!(documentation("references/launch.md"));
        assert!(!documentation("scripts/spawn.sh"));
    }
}
