//! Permission words that set nothing of the agent's (round 37b, sets37b).
//!
//! Three shapes of real skills put a permission-lifting word where it changes no setting of the
//! agent's:
//! - a path under an agent's skills folder (`~/.claude/skills/codex/scripts/monitor.sh`,
//!   `.claude/skills/notes/memories/x.md`) names the skill's own files, not the agent's settings,
//!   so it is no "settings" partner for a permission value;
//! - a value listed among alternatives of an option synopsis (`--sandbox
//!   <read-only|workspace-write|danger-full-access>`) documents the choices, it picks none;
//! - the front matter's own tool list of a `SKILL.md` (`allowed-tools:` / `allowedTools:`) is the
//!   skill format's field for the tools the skill uses while it runs: declared, visible, and
//!   scoped to the skill, not a change to the agent's settings.
//!
//! The first drops the partner; the other two grade the value `medium` (named, not set). A value
//! written into the agent's settings file, a launch flag, or a synopsis of a settings writer keep
//! their grades: those go through other facts.

use super::At;

/// Agents' configuration folders whose `skills/` sub-folder holds skills, not settings.
const AGENT_DIRS: &[&str] = &[
    ".claude/",
    ".codex/",
    ".agents/",
    ".gemini/",
    ".cursor/",
    ".openclaw/",
    ".hermes/",
];

/// Whether every agent-folder path on the fact's line points into a skills folder or at a file
/// or folder of the skill's own that holds no agent setting (round 39b).
pub(super) fn skills_folder_only(a: &At<'_>) -> bool {
    own_paths_only(&a.text())
}

/// Names under an agent's folder that hold, or can hold, a permission setting: the settings and
/// config files, hook scripts, subagent and command definitions (their front matter can set a
/// permission mode), plugins, rules, the credentials file (lower-cased prefixes).
const SETTINGS_BEARING: &[&str] = &[
    "settings",
    "config",
    "mcp",
    "cli-config",
    "hooks",
    "agents",
    "commands",
    "plugins",
    "rules",
    ".credentials",
    "openclaw.json",
    "keybindings",
    "policies",
    "permissions",
];

/// Settings named on a line other than through an agent-folder path.
const OTHER_SETTINGS: &[&str] = &[
    ".claude.json",
    "claude config",
    "codex config",
    "claude mcp",
    "settings.json",
    "config.toml",
    "permissions",
];

/// Whether every agent-folder path of `line` points into a skills folder or at one of the skill's
/// own files (`~/.claude/review-repos.json`, `.claude/worktrees/pr-1`, `.claude/code-reviews/`),
/// and the line names no settings another way. A bare folder (`~/.claude/`, `".claude"`) could
/// be joined with a settings name elsewhere: it keeps the line.
fn own_paths_only(line: &str) -> bool {
    let line = line.to_ascii_lowercase().replace('\\', "/");
    if OTHER_SETTINGS.iter().any(|w| line.contains(w)) {
        return false;
    }
    let mut any = false;
    for dir in AGENT_DIRS {
        for (i, _) in line.match_indices(dir) {
            any = true;
            let after = line[i + dir.len()..].trim_start_matches('/');
            if after.starts_with("skills/") {
                continue;
            }
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
                .collect();
            if name.is_empty() || SETTINGS_BEARING.iter().any(|s| name.starts_with(s)) {
                return false;
            }
        }
    }
    any
}

/// Why a permission value sets nothing, if it is a synopsis choice or a skill's own tool list.
pub(super) fn listed_not_set(a: &At<'_>) -> Option<&'static str> {
    let t = a.text();
    let (at, to) = (a.fact.at as usize, a.fact.to as usize);
    if at <= to && to <= t.len() && synopsis_choice(&t, at, to) {
        return Some(
            "listed among the alternatives of an option synopsis (`<a|b|c>`): the text documents the choices, it sets none",
        );
    }
    if front_matter_tools(a.file.path, a.file.content, a.fact.line as usize) {
        return Some(
            "the SKILL.md front matter's own tool list (`allowed-tools`): the tools the skill declares it uses while it runs, visible to the user, not a change to the agent's settings",
        );
    }
    None
}

/// Whether `t[at..to]` is one choice of a `<…|…>` / `[…|…]` / `{…|…}` list.
fn synopsis_choice(t: &str, at: usize, to: usize) -> bool {
    let before = t[..at].chars().next_back();
    let after = t[to..].chars().next();
    let opens = |c: Option<char>| matches!(c, Some('|' | '<' | '[' | '{'));
    let closes = |c: Option<char>| matches!(c, Some('|' | '>' | ']' | '}'));
    opens(before) && closes(after) && (before == Some('|') || after == Some('|'))
}

/// Whether 1-based `line` of a `SKILL.md` is its front matter's tool-list key.
fn front_matter_tools(path: &str, content: &str, line: usize) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if !name.eq_ignore_ascii_case("SKILL.md") || line < 2 {
        return false;
    }
    let mut lines = content.lines();
    if lines.next().map(str::trim) != Some("---") {
        return false;
    }
    for (n, l) in lines.enumerate() {
        let n = n + 2;
        if l.trim() == "---" {
            return false;
        }
        if n == line {
            let key = l
                .trim_start()
                .split(':')
                .next()
                .unwrap_or("")
                .trim()
                .trim_matches(['"', '\''])
                .to_ascii_lowercase()
                .replace(['-', '_'], "");
            return key == "allowedtools" || key == "tools";
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{front_matter_tools, own_paths_only, synopsis_choice};

    #[test]
    fn own_files_under_the_agent_folder_are_not_settings() {
        assert!(own_paths_only(
            "`~/.claude/review-repos.json` maps repos to paths; state in `~/.claude/review-state.json`."
        ));
        assert!(own_paths_only(
            "git worktree add .claude/worktrees/pr-12 origin/main"
        ));
        assert!(own_paths_only(
            "python3 ~/.claude/skills/notes/scripts/add.py"
        ));
        assert!(!own_paths_only("cat > ~/.claude/settings.json <<'JSON'"));
        assert!(!own_paths_only("cfg = ~/.codex/config.toml"));
        assert!(!own_paths_only(
            "cp hook.sh ~/.claude/hooks/ && cp agent.md ~/.claude/agents/"
        ));
        assert!(!own_paths_only("p = os.path.join(home, \".claude/\")"));
        assert!(!own_paths_only("~/.claude/notes.json and ~/.claude.json"));
    }

    #[test]
    fn synopsis_choices_are_not_settings() {
        let t = "`--sandbox <read-only|workspace-write|danger-full-access>`";
        let at = t.find("danger").unwrap();
        assert!(synopsis_choice(t, at, at + "danger-full-access".len()));
        let t = "codex --sandbox danger-full-access --full-auto";
        let at = t.find("danger").unwrap();
        assert!(!synopsis_choice(t, at, at + "danger-full-access".len()));
        // A bracketed single value is no list of choices.
        let t = "sandbox_mode = [danger-full-access]";
        let at = t.find("danger").unwrap();
        assert!(!synopsis_choice(t, at, at + "danger-full-access".len()));
    }

    #[test]
    fn only_the_front_matter_tool_key_counts() {
        let md =
            "---\nname: x\nallowedTools: [\"read\", \"bash\"]\n---\n\nallowedTools: [\"bash\"]\n";
        assert!(front_matter_tools("SKILL.md", md, 3));
        assert!(!front_matter_tools("SKILL.md", md, 6));
        assert!(!front_matter_tools("notes.md", md, 3));
        let md = "---\nname: x\npermissions: [\"Bash\"]\n---\n";
        assert!(!front_matter_tools("SKILL.md", md, 3));
    }
}
