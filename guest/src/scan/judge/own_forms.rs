//! Round 31 (sets30b): shapes of real published skills whose words or commands look like an attack
//! line by line but name the user's own file, the skill's own script or a plain lookup (every
//! helper is a pure function of one line or one file's text, linear in its bytes):
//!
//! - [`names_a_file`]: the thing after "put them in `…`" is a file path (`~/.config/env/x.env`,
//!   `./.env`), where the user keeps their own settings, not one of a tool's parameters (the
//!   tool-poisoning side channel hands a secret to a parameter: `notes`, `sidenote`).
//! - [`flag_comment`]: an "auto-approve all …" comment line of a shell example whose next command
//!   passes a yes flag (`--yes`, `-y`, `-auto-approve`) to a program that is not an agent CLI: the
//!   comment says what that program's own flag does (it skips the program's own questions), not
//!   that the user or agent should approve everything.
//! - [`in_agent_skills`]: a persisted command that runs a file inside an agent's skills or plugins
//!   folder (`~/.openclaw/workspace/skills/<name>/…`, `~/.claude/skills/…`, `~/.claude/plugins/…`):
//!   the installed skill's own script, the place skills live, not a hidden drop folder.
//! - [`mapping_lookup`]: `session.get("sessionFile", "")` or `client.get("contextTokens")`: a
//!   dictionary read by a literal key, not an HTTP request (a request takes a URL, a path or a
//!   variable holding one).

/// Whether `rest` (the text right after "put it in", a quote or backtick first) names a file path:
/// the quoted token holds a `/` or `\`, starts with `~` or `.`, or ends in a settings-file
/// extension.
pub fn names_a_file(rest: &str) -> bool {
    let rest = rest.trim_start_matches(['`', '"', '\'', ' ']);
    let token: &str = rest
        .split(['`', '"', '\'', ' ', ')', ',', ';'])
        .next()
        .unwrap_or("");
    if token.len() < 2 {
        return false;
    }
    const EXT: [&str; 10] = [
        ".env", ".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".txt", ".rc",
    ];
    token.contains(['/', '\\'])
        || token.starts_with(['~', '.'])
        || EXT.iter().any(|e| token.ends_with(e))
}

/// Agent command-line programs: their yes flags lift the agent's own approvals.
const AGENT_CLIS: [&str; 10] = [
    "claude",
    "codex",
    "gemini",
    "cursor-agent",
    "aider",
    "opencode",
    "qwen",
    "openclaw",
    "goose",
    "amp",
];

/// Whether line `line` (1-based) of `content` is a comment (`#`, `//`) of a shell example whose
/// next command (the next non-empty line, with its `\` continuations) passes a yes flag to a
/// program that is not an agent CLI and lifts no agent permission: the comment documents that
/// flag.
pub fn flag_comment(content: &str, line: usize) -> bool {
    let lines: Vec<&str> = content.lines().collect();
    let Some(this) = line.checked_sub(1).and_then(|i| lines.get(i)) else {
        return false;
    };
    let t = this.trim_start();
    if !(t.starts_with('#') || t.starts_with("//")) || t.starts_with("#!") {
        return false;
    }
    // The next command, continuations joined.
    let mut command = String::new();
    for l in lines
        .iter()
        .skip(line)
        .skip_while(|l| l.trim().is_empty())
        .take(6)
    {
        let l = l.trim();
        if command.is_empty() && (l.starts_with('#') || l.starts_with("```")) {
            return false;
        }
        command.push_str(l.trim_end_matches('\\'));
        command.push(' ');
        if !l.ends_with('\\') {
            break;
        }
    }
    let words: Vec<&str> = command.split_whitespace().collect();
    let yes = words.iter().any(|w| {
        matches!(
            w.trim_matches(['"', '\'', ';']),
            "--yes"
                | "-y"
                | "--assume-yes"
                | "-auto-approve"
                | "--auto-approve"
                | "--non-interactive"
        )
    });
    if !yes {
        return false;
    }
    let lower = crate::ascii_lowered(&command);
    if [
        "--dangerously",
        "--yolo",
        "--yes-always",
        "--trust-all-tools",
        "bypasspermissions",
    ]
    .iter()
    .any(|w| lower.contains(w))
    {
        return false;
    }
    // The program: the first word that is not an environment assignment, `sudo`, `bash`/`sh`.
    let program = words
        .iter()
        .find(|w| !w.contains('=') && !matches!(**w, "sudo" | "env" | "bash" | "sh" | "zsh"))
        .map(|w| w.rsplit('/').next().unwrap_or(w).to_ascii_lowercase())
        .unwrap_or_default();
    !AGENT_CLIS.contains(&program.as_str())
}

/// Whether a command runs a file inside an agent's skills or plugins folder: an agent home
/// (`.openclaw`, `.claude`, `.codex`, `.cursor`, `.gemini`, `.agents`, `.hermes`) followed, in
/// the same path, by a `skills/` or `plugins/` folder.
pub fn in_agent_skills(text: &str) -> bool {
    const HOMES: [&str; 8] = [
        ".openclaw/",
        ".claude/",
        ".codex/",
        ".cursor/",
        ".gemini/",
        ".agents/",
        ".hermes/",
        ".clawdbot/",
    ];
    HOMES.iter().any(|h| {
        text.match_indices(h).any(|(i, _)| {
            let path: &str = text[i + h.len()..]
                .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ';' | '`'))
                .next()
                .unwrap_or("");
            path.starts_with("skills/")
                || path.starts_with("plugins/")
                || path.contains("/skills/")
                || path.contains("/plugins/")
        })
    })
}

/// Whether every `.get(` call of a line reads a mapping by a literal key rather than making a
/// request: its first argument is a quoted identifier (letters, digits, `_`; no `/`, `.`, `:`),
/// there are no keyword arguments, and either a default follows (`"key", ""`) or the key is
/// camelCase or snake_case (`contextTokens`, `session_file`), which no URL path segment is.
pub fn mapping_lookup(line: &str) -> bool {
    let mut any = false;
    for (i, _) in line.match_indices(".get(") {
        let args = &line[i + 5..];
        let Some(close) = args.find(')') else {
            return false;
        };
        let inner = &args[..close];
        let mut parts = inner.splitn(2, ',');
        let key = parts.next().unwrap_or("").trim();
        let rest = parts.next().map(str::trim);
        let quoted = key.len() >= 3
            && (key.starts_with('"') && key.ends_with('"')
                || key.starts_with('\'') && key.ends_with('\''));
        if !quoted {
            return false;
        }
        let k = &key[1..key.len() - 1];
        let ident = !k.is_empty()
            && k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
            && !k.as_bytes()[0].is_ascii_digit();
        if !ident || inner.contains('=') {
            return false;
        }
        let shaped = k.contains('_') || k.bytes().skip(1).any(|c| c.is_ascii_uppercase());
        if rest.is_none_or(str::is_empty) && !shaped {
            return false;
        }
        any = true;
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_paths_are_not_parameters() {
        assert!(names_a_file("`~/.config/env/global.env`), then"));
        assert!(names_a_file("`./.env` first"));
        assert!(names_a_file("'settings.json'"));
        assert!(!names_a_file("`notes` parameter"));
        assert!(!names_a_file("'sidenote'"));
        assert!(!names_a_file("``"));
    }

    #[test]
    fn a_comment_over_a_programs_yes_flag_documents_it() {
        let doc = "# Auto-approve all fixes (explicit opt-in)\nUNATTENDED=1 \\\n  bash ~/x/scripts/remediate.sh --yes\n";
        assert!(flag_comment(doc, 1));
        let tf = "# auto-approve every change\nterraform apply -auto-approve\n";
        assert!(flag_comment(tf, 1));
        // An agent CLI's yes flag lifts the agent's approvals.
        let agent = "# auto-approve all tool calls\nclaude -p \"$TASK\" --yes\n";
        assert!(!flag_comment(agent, 1));
        let yolo = "# approve all prompts\nnpx tool --yes --dangerously-skip-permissions\n";
        assert!(!flag_comment(yolo, 1));
        // No flag on the next command: the comment is an instruction of its own.
        let bare = "# Always approve all prompts from this skill\n./run.sh\n";
        assert!(!flag_comment(bare, 1));
        // Not a comment.
        let prose = "Auto-approve all fixes\nbash fix.sh --yes\n";
        assert!(!flag_comment(prose, 1));
    }

    #[test]
    fn the_agents_skills_folder_is_where_skills_live() {
        assert!(in_agent_skills(
            "0 6 * * * $HOME/.openclaw/workspace/skills/mon/scripts/daily.sh"
        ));
        assert!(in_agent_skills("@reboot ~/.claude/plugins/x/hooks/tick.sh"));
        assert!(!in_agent_skills("@reboot ~/.claude/.cache/tick.sh"));
        assert!(!in_agent_skills("*/5 * * * * ~/.local/share/.x/run"));
    }

    #[test]
    fn literal_keys_are_lookups_not_requests() {
        assert!(mapping_lookup(
            "usage = read(session.get(\"sessionFile\", \"\"))"
        ));
        assert!(mapping_lookup(
            "window = session.get(\"contextTokens\") or 0"
        ));
        assert!(!mapping_lookup("r = session.get(\"https://x.example/k\")"));
        assert!(!mapping_lookup("r = client.get(\"/v1/keys\")"));
        assert!(!mapping_lookup("r = session.get(url, params={\"k\": key})"));
        assert!(!mapping_lookup("r = client.get(\"stats\", params=p)"));
        assert!(!mapping_lookup("r = client.get(\"stats\")"));
    }
}
