//! A permission-skipping agent launch that a script makes as a one-shot, print-mode subprocess and
//! says why (round 50b, sets50b).
//!
//! An evaluation or description-tuning script calls the agent as a function: `cmd = [claude,
//! "-p", "--output-format", "text", "--dangerously-skip-permissions"]`, run with the prompt on
//! stdin and its output captured, under a comment saying why the flag is there ("Spawned
//! non-interactive eval subprocess; permission prompts would stall silently"). Round 34b's
//! documentation cap ([`super::documented_launch`]) leaves every launch in a script `critical`: a
//! script runs. The issue's class 5 is a launch that takes the user's approvals away behind their
//! back; a print-mode child whose own script states that no one could answer its prompts hides
//! nothing, but still runs unchecked, so it is never `safe`.
//!
//! `persistence.agent-permissions` / `prompt_injection.approval-manipulation` drop from `critical`
//! to `high` (`caution`) when all of these hold: the finding is in a script (not documentation,
//! which round 34b handles); its line is a launch or flag line and not made permanent (alias,
//! `>>`, startup file, export, wrapper), and every place it cites is such a line too; a print-mode
//! switch (`-p`, `--print`, or `exec` of a Codex-style CLI) stands within [`PRINT_WINDOW`] lines of
//! it; the [`REASON_WINDOW`] lines up to it say the run is non-interactive (`non-interactive`,
//! `headless`, `no TTY`, "permission prompts would stall/hang", "no one can answer"); no file of the
//! bundle has concealment wording; no permission value is written into the agent's settings; and no
//! other finding of the bundle is `critical`. One pass over the findings.

use std::sync::OnceLock;

use regex_automata::meta::Regex;

use super::documented_launch::{RULES, keeps_everything, launch_line, permanent};
use crate::scan::bundle::{Bundle, documentation};
use crate::scan::content::Finding;
use crate::scan::rules::{Severity, line_regex};

/// Lines before and after a launch within which its print-mode switch is looked for.
const PRINT_WINDOW: usize = 6;

/// Lines up to a launch within which the script's reason is looked for.
const REASON_WINDOW: usize = 15;

/// A print-mode switch as its own argument.
fn print_mode() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| line_regex(r#"(^|[\s"'\[,(])(-p|--print|exec)([\s"',\])]|$)"#).expect("valid"))
}

/// Words saying no one could answer the launched agent's prompts.
fn no_one_to_ask() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r"(?i)\b(non-?interactive(ly)?|headless|no (tty|terminal)|without a (tty|terminal)|(permission )?prompts? would (stall|hang|block|wait)|(no one|nobody) (can|could|is there to) (answer|approve)|cannot answer (a |the )?prompts?)\b")
            .expect("valid")
    })
}

/// Whether the lines around `line` (1-based) of `text` make the launch a disclosed print-mode run.
fn headless_context(text: &str, line: usize) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let at = line.saturating_sub(1);
    let near = |from: usize, to: usize| lines.get(from..to.min(lines.len())).unwrap_or(&[]);
    let printed = near(at.saturating_sub(PRINT_WINDOW), at + PRINT_WINDOW + 1)
        .iter()
        .any(|l| print_mode().is_match(l.as_bytes()));
    let reason = near(at.saturating_sub(REASON_WINDOW), at + 1)
        .iter()
        .any(|l| no_one_to_ask().is_match(l.as_bytes()));
    printed && reason
}

/// Cap disclosed print-mode launches in scripts at `high` (see the module documentation).
pub(super) fn cap_headless_launches(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals || keeps_everything(out) {
        return;
    }
    for f in out.iter_mut().filter(|f| {
        RULES.contains(&f.rule_id.as_str())
            && f.severity == Severity::Critical
            && !documentation(&f.file)
            && launch_line(&f.evidence)
            && !permanent(&f.evidence)
            && f.related
                .iter()
                .all(|r| launch_line(&r.evidence) && !permanent(&r.evidence))
    }) {
        if headless_context(bundle.text_of(&f.file).unwrap_or(""), f.line) {
            f.severity = Severity::High;
            f.description.push_str(
                " The script runs the agent once in print mode as a subprocess and says why the checks are off (no one could answer its prompts); nothing is hidden or made permanent. It still acts unchecked: run it only on work you would approve anyway.",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::headless_context;

    #[test]
    fn a_disclosed_print_mode_child_is_headless() {
        let script = "cmd = [\n    'claude',\n    '-p',\n    # Headless grader: no terminal to answer permission prompts.\n    '--dangerously-skip-permissions',\n]\n";
        assert!(headless_context(script, 5));
    }

    #[test]
    fn no_reason_or_no_print_mode_is_not() {
        let bare = "cmd = ['claude', '-p', '--dangerously-skip-permissions']\n";
        assert!(!headless_context(bare, 1));
        let interactive =
            "# Headless grader.\ncmd = ['claude', '--dangerously-skip-permissions']\n";
        assert!(!headless_context(interactive, 2));
    }
}
