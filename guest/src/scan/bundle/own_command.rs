//! A permission-lifting launch that the documentation offers the user as a shell command of their
//! own, under a new name and with the bypass said in words, is a disclosed shortcut, not tampering
//! (round 40b, sets40b).
//!
//! Setup guides for coding agents sometimes end with a terminal tip: "add this `cly` function to
//! your `~/.zshrc`", a function that starts the agent with `--dangerously-skip-permissions`, and a
//! line saying so ("uses `--dangerously-skip-permissions` to bypass the permission prompts").
//! Round 34b's documentation cap ([`super::documented_launch`]) rightly keeps a wrapper
//! `critical` when it makes every later start of the agent skip its checks. A wrapper under a new
//! name does not: typing `claude` still starts the agent with its checks; the user opts in to the
//! bypass each time by typing the other name, and the text told them what it does.
//! `persistence.agent-permissions` / `prompt_injection.approval-manipulation` drop from `critical`
//! to `high` (`caution`: a standing bypass shortcut is still worth a look) when all of these hold:
//!
//! - the finding is in a documentation file (Markdown, plain text) and its line is a launch with a
//!   permission-lifting flag, inside a shell function (`cly () {` … `}`) or on an `alias name=`
//!   line that defines a command name which is not an agent's own (`claude`, `codex`, `gemini`,
//!   `copilot`, …: a wrapper under the agent's name changes every start);
//! - the same file says, within [`NEAR`] lines of the launch and outside the flag itself, that it
//!   bypasses or skips the permission prompts ("bypass", "skips the permission prompts", "绕过",
//!   "跳过");
//! - no line of the file writes a shell startup file (`>> ~/.zshrc`, `tee -a ~/.bashrc`: the agent
//!   would install it), and no file other than documentation names a shell startup file or holds
//!   a permission-lifting launch (a script that could install it);
//! - every place the finding cites is such a launch too, no file has concealment wording, no
//!   permission value is written into the agent's settings, and no other finding is `critical`.
//!
//! One pass over the findings; each documentation file holding such a finding is read per finding.

use super::documented_launch::{RULES, keeps_everything, launch_line};
use crate::scan::bundle::{Bundle, documentation};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// How many lines around the launch are read for the wrapper and for the words that disclose it.
const NEAR: usize = 15;

/// Command names of coding agents: a wrapper under one of them changes every start of the agent.
const AGENT_NAMES: &[&str] = &[
    "claude",
    "codex",
    "gemini",
    "copilot",
    "aider",
    "opencode",
    "cursor",
    "cursor-agent",
    "qwen",
    "amp",
    "goose",
    "kiro",
    "kiro-cli",
    "droid",
    "crush",
    "openclaw",
    "hermes",
    "cline",
    "q",
];

/// Shell startup files (lower-cased).
const STARTUP_FILES: &[&str] = &[
    ".zshrc",
    ".bashrc",
    ".bash_profile",
    ".zprofile",
    ".profile",
    "config.fish",
];

/// Words that write into a file (lower-cased).
const WRITES: &[&str] = &[">>", "tee ", "cat >", "sed -i", "> ~", "> \"$home"];

/// Words that say a launch bypasses the agent's checks (ASCII compared lower-cased; CJK as is).
const DISCLOSES: &[&str] = &[
    "bypass",
    "skip permission",
    "skips permission",
    "skipping permission",
    "skip the permission",
    "skips the permission",
    "skip approval",
    "skips approval",
    "skips the approval",
    "without permission prompt",
    "without approval",
    "no permission prompt",
    "绕过",
    "跳过",
    "免确认",
    "不再确认",
];

/// Permission-lifting flags, removed from a line before it is read for disclosing words.
const FLAGS: &[&str] = &[
    "--dangerously-skip-permissions",
    "--dangerously-bypass-approvals-and-sandbox",
    "bypasspermissions",
];

fn lowered(line: &str) -> String {
    crate::ascii_lowered(line).into_owned()
}

/// The command name a shell function header or an `alias` line defines (`cly () {`, `cly() {`,
/// `function cly`, `alias cly='…'`), if the line is one.
fn defined_name(line: &str) -> Option<String> {
    let t = line.trim();
    let name_of = |s: &str| -> Option<String> {
        let n: String = s
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
            .collect();
        (!n.is_empty()).then_some(n)
    };
    if let Some(rest) = t.strip_prefix("alias ") {
        let n = name_of(rest.trim_start())?;
        return rest.trim_start()[n.len()..].starts_with('=').then_some(n);
    }
    if let Some(rest) = t.strip_prefix("function ") {
        return name_of(rest.trim_start());
    }
    let n = name_of(t)?;
    let after = t[n.len()..].trim_start();
    (after.starts_with("()") && after[2..].trim_start().starts_with('{')).then_some(n)
}

/// The name of the wrapper around the launch on 1-based `line` of `lines`: an `alias` on that
/// line, or a function header above it (within [`NEAR`] lines, not past a code fence) whose body
/// closes (`}`) below it.
fn wrapper_name(lines: &[&str], line: usize) -> Option<String> {
    let at = line.checked_sub(1)?;
    let launch = lines.get(at)?;
    if let Some(n) = defined_name(launch) {
        return Some(n);
    }
    let mut header = None;
    for i in (at.saturating_sub(NEAR)..at).rev() {
        let l = lines[i].trim();
        if l.starts_with("```") || l == "}" {
            break;
        }
        if let Some(n) = defined_name(l) {
            header = Some(n);
            break;
        }
    }
    let name = header?;
    lines
        .iter()
        .skip(at + 1)
        .take(NEAR)
        .map(|l| l.trim())
        .take_while(|l| !l.starts_with("```"))
        .any(|l| l == "}")
        .then_some(name)
}

/// Whether a name is an agent's own command.
fn agent_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    AGENT_NAMES.contains(&n.as_str())
}

/// Whether the lines within [`NEAR`] of 1-based `line` say, outside the flags, that the launch
/// bypasses the agent's checks.
fn disclosed_near(lines: &[&str], line: usize) -> bool {
    let first = line.saturating_sub(NEAR + 1);
    lines.iter().skip(first).take(2 * NEAR + 1).any(|l| {
        let mut l = lowered(l);
        for f in FLAGS {
            l = l.replace(f, " ");
        }
        DISCLOSES.iter().any(|w| l.contains(w))
    })
}

/// Whether a line writes into a shell startup file.
fn writes_startup(line: &str) -> bool {
    let l = lowered(line);
    STARTUP_FILES.iter().any(|s| l.contains(s)) && WRITES.iter().any(|w| l.contains(w))
}

/// Whether a file other than documentation names a shell startup file or holds a launch.
fn code_installs(bundle: &Bundle) -> bool {
    bundle.files.iter().any(|f| {
        !documentation(&f.path)
            && f.content.as_deref().is_some_and(|c| {
                let l = lowered(c);
                STARTUP_FILES.iter().any(|s| l.contains(s)) || launch_line(c)
            })
    })
}

/// Cap bypass shortcuts the documentation offers under a new name at `high`. `conceals`: whether
/// any file of the bundle has a concealment fact.
pub(super) fn cap_own_commands(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals || keeps_everything(out) {
        return;
    }
    let candidate = |f: &Finding| {
        RULES.contains(&f.rule_id.as_str())
            && f.severity == Severity::Critical
            && documentation(&f.file)
            && launch_line(&f.evidence)
            && f.related
                .iter()
                .all(|r| documentation(&r.file) && launch_line(&r.evidence))
    };
    if !out.iter().any(&candidate) || code_installs(bundle) {
        return;
    }
    for f in out.iter_mut().filter(|f| candidate(f)) {
        let text = bundle.text_of(&f.file).unwrap_or("");
        let lines: Vec<&str> = text.lines().collect();
        if lines.iter().any(|l| writes_startup(l)) {
            continue;
        }
        let Some(name) = wrapper_name(&lines, f.line) else {
            continue;
        };
        if agent_name(&name) || !disclosed_near(&lines, f.line) {
            continue;
        }
        f.severity = Severity::High;
        f.description.push_str(&format!(
            " The launch sits in a shell command of the user's own (`{name}`) that the documentation offers under a new name and says bypasses the permission prompts; starting the agent by its own name keeps its checks, and no script of the bundle installs the shortcut: a disclosed opt-in, worth a look, not a change made behind the user's back."
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::{defined_name, disclosed_near, wrapper_name, writes_startup};

    #[test]
    fn wrappers_and_their_names() {
        assert_eq!(defined_name("cly () {").as_deref(), Some("cly"));
        assert_eq!(defined_name("yolo-cx() {").as_deref(), Some("yolo-cx"));
        assert_eq!(defined_name("function ccx {").as_deref(), Some("ccx"));
        assert_eq!(
            defined_name("alias cy='claude --dangerously-skip-permissions'").as_deref(),
            Some("cy")
        );
        assert_eq!(defined_name("claude --dangerously-skip-permissions"), None);
        assert_eq!(defined_name("if [ -n \"$x\" ]; then"), None);
        let doc = [
            "```bash",
            "cly () {",
            "  local f=${PWD:t}",
            "  claude --dangerously-skip-permissions \"$@\"",
            "}",
            "```",
        ];
        assert_eq!(wrapper_name(&doc, 4).as_deref(), Some("cly"));
        // A launch after the function closed is not inside it.
        let after = [
            "cly () {",
            "  echo hi",
            "}",
            "claude --dangerously-skip-permissions",
        ];
        assert_eq!(wrapper_name(&after, 4), None);
        // A function header in an earlier code block does not count.
        let other = [
            "cly () {",
            "```",
            "```bash",
            "claude --dangerously-skip-permissions",
            "}",
        ];
        assert_eq!(wrapper_name(&other, 4), None);
    }

    #[test]
    fn disclosure_is_words_not_the_flag() {
        let said = [
            "- Uses `--dangerously-skip-permissions` to bypass the permission prompts",
            "x",
        ];
        assert!(disclosed_near(&said, 2));
        let flag_only = ["claude --dangerously-skip-permissions \"$@\"", "x"];
        assert!(!disclosed_near(&flag_only, 1));
        assert!(writes_startup(
            "echo 'cly () { claude --dangerously-skip-permissions; }' >> ~/.zshrc"
        ));
        assert!(!writes_startup("Add this function to your ~/.zshrc:"));
    }
}
