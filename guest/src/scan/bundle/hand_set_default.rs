//! A permission default the documentation asks the user to set by hand, in a bundle that writes
//! no agent setting, is a disclosed requirement, not tampering (round 39b, sets39b).
//!
//! Workflow plugins that drive a second agent headless sometimes need that agent's approvals off
//! and say so in their README or SKILL.md: "Codex must run without approvals, otherwise the
//! hand-off waits forever. In `~/.codex/config.toml`:" followed by a fenced `approval_policy =
//! "never"` snippet, and "the init command only checks this setting, it does not change it". The
//! user reads the requirement and decides; the skill changes nothing. `persistence.agent-permissions`
//! fires `critical` there because the value sits next to the settings file's name. It drops to
//! `high` (`caution`: turning approvals off is still worth a look) when all of these hold:
//!
//! - the finding is in a documentation file (Markdown, plain text) and its line is a value, not an
//!   agent launch (launches have their own caps) and not a write (`>>`, `tee`, `cat >`, `sed -i`,
//!   `echo … >`, `config set`);
//! - every place it cites is a documentation line that writes nothing either;
//! - the same file says, within [`NEAR`] lines of the value, that the user sets it by hand or that
//!   the skill does not change it ("by hand", "manually", "set it yourself", "only checks", "does
//!   not change it", "手动", "只检查", "不代改");
//! - no file of the bundle other than documentation names an agent's settings file (a script that
//!   could apply the snippet), and no file has concealment wording;
//! - no other finding of the bundle is `critical` (the agent would run that action unasked).
//!
//! Prose that orders the agent to write the value ("append these lines to ~/.codex/config.toml"),
//! a script that writes it, or a concealment keep `critical`. One pass over the findings; each
//! documentation file is read once per finding it holds.

use crate::scan::bundle::{Bundle, documentation};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const RULE: &str = "persistence.agent-permissions";

/// How many lines around the value are read for the hand-set wording.
const NEAR: usize = 12;

/// Words that write a file or a setting (compared on lower-cased text).
const WRITES: &[&str] = &[
    ">>",
    "> ~",
    "> \"",
    "> $",
    ">~",
    "tee ",
    "cat >",
    "sed -i",
    "config set",
    "config add",
    "writefile",
    "write_text",
    "set-content",
    "add-content",
    "out-file",
    ".write(",
    "json.dump",
    "toml.dump",
    "cp ",
    "mv ",
    "install -m",
];

/// Whether `text`, ASCII lower-cased, holds any of `words`.
fn holds_any(text: &str, words: &[&str]) -> bool {
    let l = crate::ascii_lowered(text);
    words.iter().any(|w| l.contains(w))
}

/// Whether a line writes something.
fn writes(line: &str) -> bool {
    holds_any(line, WRITES)
}

/// Wording that leaves the setting to the user (ASCII compared lower-cased; CJK as is).
const HAND_SET: &[&str] = &[
    "by hand",
    "manually",
    "set it yourself",
    "set this yourself",
    "edit it yourself",
    "yourself in",
    "only checks",
    "only check",
    "only verifies",
    "does not change",
    "doesn't change",
    "will not change",
    "won't change",
    "never changes",
    "does not modify",
    "doesn't modify",
    "will not modify",
    "won't modify",
    "never modifies",
    "does not write",
    "doesn't write",
    "never writes",
    "手动",
    "手工",
    "自行",
    "只检查",
    "仅检查",
    "不代改",
    "不会修改",
    "不修改",
    "不会改",
];

/// Whether the lines within [`NEAR`] of 1-based `line` of `text` leave the setting to the user.
fn hand_set_near(text: &str, line: usize) -> bool {
    let first = line.saturating_sub(NEAR + 1);
    text.lines()
        .skip(first)
        .take(2 * NEAR + 1)
        .any(|l| holds_any(l, HAND_SET))
}

/// Names of agents' settings files and settings commands (lower-cased).
const SETTINGS_NAMES: &[&str] = &[
    ".claude/settings",
    ".claude.json",
    ".codex/config",
    ".gemini/settings",
    ".cursor/mcp",
    ".cursor/cli-config",
    "openclaw.json",
    ".hermes/config",
    "claude config",
    "codex config",
    "claude mcp add",
];

/// Whether a file other than documentation names an agent's settings file.
fn code_names_settings(bundle: &Bundle) -> bool {
    bundle.files.iter().any(|f| {
        !documentation(&f.path)
            && f.content
                .as_deref()
                .is_some_and(|c| holds_any(c, SETTINGS_NAMES))
    })
}

/// Cap hand-set permission defaults at `high`. `conceals`: whether any file of the bundle has a
/// concealment fact.
pub(super) fn cap_hand_set_defaults(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals
        || !out
            .iter()
            .any(|f| f.rule_id == RULE && f.severity == Severity::Critical)
    {
        return;
    }
    if out
        .iter()
        .any(|f| f.severity == Severity::Critical && f.rule_id != RULE)
    {
        return;
    }
    let candidate = |f: &Finding| {
        f.rule_id == RULE
            && f.severity == Severity::Critical
            && documentation(&f.file)
            && !super::documented_launch::launch_line(&f.evidence)
            && !super::documented_launch::permanent(&f.evidence)
            && !writes(&f.evidence)
            && f.related
                .iter()
                .all(|r| documentation(&r.file) && !writes(&r.evidence))
    };
    // Every critical permission finding must be such a value: one launch or script write keeps all.
    if out
        .iter()
        .any(|f| f.rule_id == RULE && f.severity == Severity::Critical && !candidate(f))
    {
        return;
    }
    if code_names_settings(bundle) {
        return;
    }
    for f in out.iter_mut().filter(|f| candidate(f)) {
        let text = bundle.text_of(&f.file).unwrap_or("");
        if !hand_set_near(text, f.line) {
            continue;
        }
        f.severity = Severity::High;
        f.description.push_str(
            " The value is a snippet in the skill's documentation that the user is told to set by hand (the text says the skill only checks it or leaves it to the user), and no script of the bundle writes an agent setting: a disclosed requirement, worth a look before turning approvals off, not a change made behind the user's back.",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{hand_set_near, writes};

    #[test]
    fn hand_set_wording_is_read_near_the_value() {
        let doc = "# Setup\n\nSet this yourself in `~/.codex/config.toml`:\n\n```toml\napproval_policy = \"never\"\n```\n";
        assert!(hand_set_near(doc, 6));
        let order = "# Setup\n\nAppend these lines to `~/.codex/config.toml` before any task:\n\n```toml\napproval_policy = \"never\"\n```\n";
        assert!(!hand_set_near(order, 6));
        let far = format!(
            "The init command only checks it.\n{}approval_policy = \"never\"\n",
            "filler\n".repeat(30)
        );
        assert!(!hand_set_near(&far, 32));
    }

    #[test]
    fn write_lines_are_not_snippets() {
        assert!(writes(
            "echo 'approval_policy = \"never\"' >> ~/.codex/config.toml"
        ));
        assert!(writes("claude config set -g defaultMode bypassPermissions"));
        assert!(!writes("approval_policy = \"never\""));
        assert!(!writes("\"defaultMode\": \"bypassPermissions\""));
    }
}
