//! A documented agent launch whose whole task is a fixed smoke-test prompt (round 48b, sets48b).
//!
//! Dispatch and orchestration skills end their set-up guides with a check that the wiring works:
//! "### Verify … `bash scripts/dispatch.sh -p "echo hello world" --permission-mode
//! bypassPermissions > /tmp/test.log &`". Round 34b's documentation cap
//! ([`super::documented_launch`]) keeps such a launch `critical` unless the lines before it place
//! it in an isolated environment; a verification run names none, yet the worker it starts is
//! given one fixed, harmless literal to do and nothing else.
//!
//! This module answers the cap's second way out: the launch line passes exactly one prompt
//! argument (`-p`, `--prompt`, `--print`), that prompt is a quoted literal of at most six words,
//! every one of them a smoke-test word (`echo`, `hello`, `world`, `say`, `ping`, `test`, `ok` …),
//! with no substitution, variable, file or stdin feeding the worker more (`$`, a backtick, `<`,
//! `{`, a pipe), and a heading or comment line up to the launch calls it a check (`verify`,
//! `test`, `smoke`, `check`, `sanity` as whole words). A place the finding cites may be another launch or a settings line that
//! carries no permission value (the guide's `mkdir -p ~/.claude/hooks`); a cited line that sets
//! one keeps the grade. Everything else the cap demands still holds (documentation only, not
//! permanent, no permission setting written, no concealment, no other `critical` finding), and the
//! cap lowers to `high` only: the skill still shows the flag, so it stays `caution`.

/// Words a smoke-test prompt may be made of (lower-cased).
const SMOKE_WORDS: &[&str] = &[
    "echo", "hello", "world", "hi", "say", "print", "reply", "respond", "with", "ping", "pong",
    "test", "ok", "okay", "just", "only", "the", "word", "a", "done",
];

/// Prompt options of agent CLIs and of the dispatchers that forward them.
const PROMPT_OPTS: &[&str] = &["-p", "--prompt", "--print"];

/// Words that call the lines around a launch a check of the set-up (whole words of a heading or
/// a comment line).
const CHECK_WORDS: &[&str] = &[
    "verify",
    "verification",
    "test",
    "testing",
    "smoke",
    "check",
    "sanity",
];

/// How many words a smoke-test prompt may have.
const MAX_WORDS: usize = 6;

/// The quoted literal after a prompt option at byte `at` of `line` (the option's end), if the
/// next non-space character opens a quote that closes on the same line.
fn quoted_after(line: &str, at: usize) -> Option<&str> {
    let rest = line.get(at..)?.trim_start_matches([' ', '=']);
    let q = rest.chars().next()?;
    if q != '"' && q != '\'' {
        return None;
    }
    let body = &rest[1..];
    let end = body.find(q)?;
    Some(&body[..end])
}

/// The prompt literals a launch line passes (`None` when a prompt option is followed by
/// something other than a quoted literal: a variable, a file, a substitution).
fn prompts(line: &str) -> Option<Vec<&str>> {
    let mut found = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'-' && (i == 0 || bytes[i - 1] == b' ') {
            let word_end = line[i..]
                .find([' ', '='])
                .map(|n| i + n)
                .unwrap_or(line.len());
            let word = &line[i..word_end];
            if PROMPT_OPTS.contains(&word) {
                found.push(quoted_after(line, word_end)?);
            }
            i = word_end;
        } else {
            i += 1;
        }
    }
    Some(found)
}

/// Whether a prompt literal is a smoke test: one to six words, each a smoke-test word, nothing
/// that expands or reads.
fn smoke_prompt(prompt: &str) -> bool {
    if prompt.contains(['$', '`', '<', '{', '|', ';', '&']) {
        return false;
    }
    let words: Vec<String> = prompt
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_lowercase())
        .collect();
    !words.is_empty()
        && words.len() <= MAX_WORDS
        && words.iter().all(|w| SMOKE_WORDS.contains(&w.as_str()))
}

/// Whether a launch line's whole task is one smoke-test prompt: exactly one prompt argument, a
/// smoke-test literal, and no pipe or input redirection feeding the worker more.
pub(super) fn smoke_launch(evidence: &str) -> bool {
    let line = evidence.trim();
    // Output redirection (`> log 2>&1`) is fine; a pipe or an input file feeds the worker.
    let outside = strip_quoted(line);
    if outside.contains('|') || outside.contains('<') || outside.contains("$(") {
        return false;
    }
    match prompts(line) {
        Some(p) => p.len() == 1 && smoke_prompt(p[0]),
        None => false,
    }
}

/// The line with every quoted span blanked (so a `|` or `<` inside the prompt is not a pipe).
fn strip_quoted(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => {
                quote = None;
                out.push(' ');
            }
            Some(_) => out.push(' '),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                out.push(' ');
            }
            None => out.push(c),
        }
    }
    out
}

/// Permission-lifting words a cited settings line may not carry (lower-cased).
const LIFTING: &[&str] = &[
    "bypass",
    "defaultmode",
    "allow",
    "skip-permissions",
    "yolo",
    "approval",
    "dangerously",
    "trust",
    "auto_approve",
    "autoapprove",
];

/// Whether a place a launch finding cites is a settings line that sets no permission value (the
/// guide creating the agent's hooks folder, `mkdir -p ~/.claude/hooks`): naming the settings
/// folder is not writing the flag into it.
pub(super) fn inert_setting(r: &crate::scan::content::Related) -> bool {
    if r.role != "setting" {
        return false;
    }
    let l = crate::ascii_lowered(&r.evidence);
    !LIFTING.iter().any(|w| l.contains(w))
}

/// Whether the `window` lines up to `line` (1-based) of `text` call what follows a check: a
/// heading or a comment line (`### 3. Verify`, `# Test a dispatch`) with a check word in it.
/// Prose, front matter and the launch itself do not count.
pub(super) fn check_context(text: &str, line: usize, window: usize) -> bool {
    let first = line.saturating_sub(window);
    text.lines()
        .skip(first)
        .take(line.saturating_sub(first))
        .filter(|l| l.trim_start().starts_with('#'))
        .any(|l| {
            l.split(|c: char| !c.is_ascii_alphabetic())
                .any(|w| CHECK_WORDS.iter().any(|c| w.eq_ignore_ascii_case(c)))
        })
}

#[cfg(test)]
mod tests {
    use super::{check_context, smoke_launch};

    #[test]
    fn a_fixed_greeting_is_a_smoke_test_and_a_task_is_not() {
        assert!(smoke_launch(
            "bash run-worker.sh -p \"say hello\" --permission-mode bypassPermissions > /tmp/w.log 2>&1 &"
        ));
        assert!(smoke_launch(
            "claude --dangerously-skip-permissions -p 'reply with OK'"
        ));
        // A real task, a variable, a file or a second prompt is not a smoke test.
        assert!(!smoke_launch(
            "claude --dangerously-skip-permissions -p \"delete the stale branches and push\""
        ));
        assert!(!smoke_launch(
            "claude --dangerously-skip-permissions -p \"$TASK\""
        ));
        assert!(!smoke_launch("claude --dangerously-skip-permissions -p"));
        assert!(!smoke_launch(
            "cat todo.md | claude --dangerously-skip-permissions -p \"hello\""
        ));
        assert!(!smoke_launch(
            "claude --dangerously-skip-permissions -p \"hello\" < notes.txt"
        ));
        assert!(!smoke_launch(
            "codex --yolo -p \"ping\" --prompt \"now wipe the repo\""
        ));
        assert!(!smoke_launch(
            "claude --dangerously-skip-permissions -p \"echo $(cat ~/.ssh/id_rsa)\""
        ));
    }

    #[test]
    fn a_settings_line_without_a_permission_value_is_inert() {
        let rel = |role: &str, evidence: &str| crate::scan::content::Related {
            role: role.to_string(),
            file: "references/setup.md".to_string(),
            line: 3,
            evidence: evidence.to_string(),
        };
        assert!(super::inert_setting(&rel(
            "setting",
            "mkdir -p ~/.codex/hooks"
        )));
        assert!(!super::inert_setting(&rel(
            "setting",
            "\"defaultMode\": \"bypassPermissions\","
        )));
        assert!(!super::inert_setting(&rel(
            "setting",
            "echo 'approval_policy = \"never\"' >> ~/.codex/config.toml"
        )));
        assert!(!super::inert_setting(&rel(
            "concealment",
            "mkdir -p ~/.codex/hooks"
        )));
    }

    #[test]
    fn the_check_is_read_in_the_lines_before() {
        let doc =
            "## 4. Make sure it works\n\n```bash\n# smoke run\nworker -p \"hi\" --yolo\n```\n";
        assert!(check_context(doc, 5, 15));
        let bare =
            "## 4. Start workers\n\n```bash\nworker -p \"hi\" --yolo\n```\n\n## Verify the log\n";
        assert!(!check_context(bare, 4, 15));
        // A check word in prose or front matter, or inside a longer word, is no check.
        let prose = "---\ndescription: A test skill.\n---\n## Start the latest workers\n\nCheck the queue first.\n\n```bash\nworker -p \"hi\" --yolo\n```\n";
        assert!(!check_context(prose, 9, 15));
    }
}
