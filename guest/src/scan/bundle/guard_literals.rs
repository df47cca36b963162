//! Commands a guard only names: string literals it compares against or prints (round 35b, sets35b).
//!
//! A PreToolUse hook or a command filter holds the commands it refuses as strings: `if "rm -rf /"
//! in command:`, `[[ $cmd == *"rm -rf ~"* ]]`, `cmd.startsWith("curl | sh")`, and the message it
//! gives back (`reason = "Blocked dangerous command pattern: rm -rf /"`). The command is data the
//! guard matches the agent's command against; nothing on the line runs it.
//!
//! A command finding (destructive, supply-chain, persistence, privilege or network rules matched on
//! one line, pairing with nothing) is informational (`low`) when its line, with every string
//! literal blanked out, is a test or a message and runs nothing:
//! - a test: a literal is an operand of `in`, `==`, `!=`, `=~`, or the argument of a string test
//!   (`startswith`, `endswith`, `includes`, `contains`, `indexOf`, `re.search`/`re.match`/`.test`);
//! - a message: the literal is assigned to a message name (`reason`, `message`, `msg`, `error`,
//!   `warning`, `hint`, `description`…) or handed to `print`/`console.log`/a logger/`raise`/`throw`,
//!   or to `echo`/`printf` sent to standard error (`>&2`) on that line;
//! - a list: literals only, assigned to a name that holds refused things (`REFUSED = (…)`,
//!   `blocked_patterns = […]`);
//! - and nothing outside the literals executes (`system(`, `popen`, `subprocess`, `exec`, `eval`,
//!   `spawn`, `child_process`, `sh -c`, `bash -c`, a backtick, `$(`, `Invoke-Expression`/`iex`, a
//!   pipe into a shell or interpreter).
//!
//! A literal assigned to any other name (`cmd = "rm -rf ~"`, run later), a literal handed to a
//! runner, or a line that pairs with another finding keeps its grade.

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::judge::exec::deny_list::DENY_WORDS;
use crate::scan::rules::Severity;

/// Categories whose findings are commands matched on one line.
const COMMAND_CATEGORIES: &[&str] = &[
    "destructive",
    "supply_chain",
    "persistence",
    "privilege_escalation",
    "network",
];

/// Names that hold a message shown to someone.
const MESSAGE_NAMES: &[&str] = &[
    "reason",
    "message",
    "msg",
    "error",
    "err",
    "warning",
    "warn",
    "hint",
    "description",
    "detail",
    "explanation",
    "permissiondecisionreason",
];

/// Calls that show a message.
const MESSAGE_CALLS: &[&str] = &[
    "print(",
    "console.log(",
    "console.error(",
    "console.warn(",
    "logger.",
    "logging.",
    "log.",
    "raise ",
    "throw new ",
    "write-host ",
    "sys.stderr.write(",
];

/// Shell calls that show a message only when sent to standard error on their own line (their
/// output may otherwise be gathered into a file by a redirect further down).
const SHELL_MESSAGES: &[&str] = &["echo ", "printf "];

/// String tests whose argument is a literal.
const TESTS: &[&str] = &[
    ".startswith(",
    ".endswith(",
    ".includes(",
    ".contains(",
    ".indexof(",
    "re.search(",
    "re.match(",
    "re.fullmatch(",
    ".test(",
    ".match(",
];

/// Marks of running something, looked for outside string literals.
const RUNS: &[&str] = &[
    "system(",
    "popen",
    "subprocess",
    "exec",
    "eval",
    "spawn",
    "child_process",
    "sh -c",
    "bash -c",
    "`",
    "$(",
    "invoke-expression",
    "iex ",
    "| sh",
    "|sh",
    "| bash",
    "|bash",
    "| python",
    "| node",
    "run(",
    "call(",
];

/// The line with every string literal (`"…"`, `'…'`) replaced by `S`.
fn blank_literals(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => {
                if c == '"' || c == '\'' {
                    quote = Some(c);
                    out.push('S');
                } else {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// Command words that, outside every literal, mean the line itself does something.
const COMMAND_WORDS: &[&str] = &[
    "rm ",
    "rm\t",
    "curl",
    "wget",
    "chmod",
    "chown",
    "sudo",
    "dd ",
    "mkfs",
    "invoke-",
    "set-",
    "netsh",
    "ufw",
    "iptables",
    "nc ",
    "ncat",
    "socat",
    "crontab",
    "launchctl",
    "systemctl",
    "powershell",
    "bash",
    "sh ",
    "python",
    "node ",
    "base64",
    "kill",
    "shred",
    "truncate",
];

/// Whether a line only tests or shows string literals and runs nothing (see the module docs).
pub(super) fn only_names_commands(line: &str) -> bool {
    let t = line.trim();
    if !t.contains(['"', '\'']) {
        return false;
    }
    let raw = blank_literals(t);
    let blank = raw.to_ascii_lowercase();
    if RUNS.iter().any(|r| blank.contains(r)) {
        return false;
    }
    // The command must sit inside a literal: what is left outside them names none.
    let words = blank.replace(['(', ')', '[', ']', '{', '}', ';', ','], " ");
    if COMMAND_WORDS.iter().any(|w| {
        words.match_indices(w).any(|(i, _)| {
            words[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-'))
        })
    }) {
        return false;
    }
    let test = raw.contains("S in ")
        || blank.contains("==")
        || blank.contains("!=")
        || blank.contains("=~")
        || TESTS.iter().any(|c| blank.contains(c));
    let word_end = blank
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(blank.len());
    let first = blank[..word_end].rsplit('.').next().unwrap_or("");
    let after = blank[word_end..].trim_start();
    let assigned_message =
        MESSAGE_NAMES.contains(&first) && after.starts_with(['=', ':']) && !after.starts_with("==");
    // A list of refused commands held as data: literals only, under a name that says so
    // (`REFUSED = ("rm -rf /", "rm -rf ~")`, `blocked_patterns = [...]`).
    let listed = DENY_WORDS.iter().any(|w| first.contains(w))
        && after.starts_with('=')
        && !after.starts_with("==")
        && after[1..].chars().all(|c| {
            matches!(
                c,
                'S' | 's' | '(' | ')' | '[' | ']' | '{' | '}' | ',' | ' ' | '\t'
            )
        });
    // Shown, not written into a file (`echo "…" >> ~/.bashrc` writes; so does an `echo` inside a
    // `{ … } >> file` group): a shell message counts only when it goes to standard error.
    let shown = MESSAGE_CALLS.iter().any(|c| blank.starts_with(c)) && !blank.contains('>')
        || SHELL_MESSAGES.iter().any(|c| blank.starts_with(c))
            && blank.trim_end().ends_with(">&2")
            && blank.matches('>').count() == 1;
    test || assigned_message || listed || shown
}

/// Lower command findings whose line only names the command (see the module documentation).
pub(super) fn demote_guard_literals(bundle: &Bundle, out: &mut [Finding]) {
    for f in out.iter_mut() {
        if f.severity < Severity::High
            || f.line == 0
            || !f.related.is_empty()
            || !COMMAND_CATEGORIES.contains(&f.category.as_str())
        {
            continue;
        }
        let Some(content) = bundle.text_of(&f.file) else {
            continue;
        };
        let Some(line) = content.lines().nth(f.line - 1) else {
            continue;
        };
        if only_names_commands(line) {
            f.severity = Severity::Low;
            f.description.push_str(" (Informational: on this line the command is only a string the file compares against or shows as a message, as a guard that refuses it does; nothing on the line runs it.)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::only_names_commands;

    #[test]
    fn tests_and_messages_only_name() {
        assert!(only_names_commands(r#"    if "rm -rf /" in command:"#));
        assert!(only_names_commands(
            r#"        reason = "Blocked dangerous command pattern: rm -rf /""#
        ));
        assert!(only_names_commands(
            r#"if [[ "$cmd" == *"rm -rf ~"* ]]; then"#
        ));
        assert!(only_names_commands(r#"if (cmd.includes("rm -rf /")) {"#));
        assert!(only_names_commands(r#"print("never run: rm -rf ~/")"#));
        assert!(only_names_commands(
            r#"REFUSED = ("rm -rf /", "rm -rf ~", "rm -rf $HOME")"#
        ));
        assert!(!only_names_commands(
            r#"TARGETS = ("rm -rf /", "rm -rf ~")"#
        ));
    }

    #[test]
    fn runners_and_plain_assignments_keep() {
        assert!(!only_names_commands(r#"cmd = "rm -rf ~/""#));
        assert!(!only_names_commands(r#"os.system("rm -rf ~/*")"#));
        assert!(!only_names_commands(
            r#"if "x" in y: os.system("rm -rf /")"#
        ));
        assert!(!only_names_commands(
            r#"subprocess.run("rm -rf /", shell=True)"#
        ));
        assert!(!only_names_commands(r#"echo "rm -rf ~" | sh"#));
        assert!(!only_names_commands("rm -rf ~/"));
        assert!(!only_names_commands(r#"reason == "x" && rm -rf /"#));
        assert!(!only_names_commands(r#"echo "rm -rf ~" >> ~/.bashrc"#));
        // An echo whose output a `{ … } >> file` group gathers.
        assert!(!only_names_commands(
            r#"    echo "alias c='claude --dangerously-skip-permissions'""#
        ));
        assert!(only_names_commands(
            r#"echo "Blocked: rm -rf ~ is not allowed" >&2"#
        ));
    }
}
