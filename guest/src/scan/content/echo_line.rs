//! A shell `echo`/`printf` line whose quoted text closes on the line (round 32b, sets31b).
//!
//! Scripts print their next steps one `echo "…"` per line (`echo "  2. Run: bun install  # or: npm
//! install"`, then `echo "  3. Test: bun navigate.js --url https://example.com"`). Each line is a
//! whole command: the quoted text ends where the line ends, so the next line starts a new string
//! and a phrase the rules look for cannot run across the break. Read as one soft-wrapped sentence,
//! the two printed steps became one install-from-a-URL command. A line whose quote is left open
//! (a message continued on the next line) still wraps.

/// Whether a trimmed line is a complete `echo`/`printf` command: it starts with the command, its
/// unescaped double (or single) quotes are balanced, and it ends right after a closing quote.
pub(crate) fn complete_echo(t: &str) -> bool {
    let rest = match t
        .strip_prefix("echo ")
        .or_else(|| t.strip_prefix("printf "))
    {
        Some(r) => r.trim_start(),
        None => return false,
    };
    // Options of `echo -e` / `echo -n` before the text.
    let rest = rest
        .strip_prefix("-e ")
        .or_else(|| rest.strip_prefix("-n "))
        .or_else(|| rest.strip_prefix("-en "))
        .or_else(|| rest.strip_prefix("-ne "))
        .unwrap_or(rest)
        .trim_start();
    let Some(q) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
        return false;
    };
    if !rest.ends_with(q) || rest.len() < 2 {
        return false;
    }
    // Count the quote characters that are not escaped (`\"` inside a double-quoted string).
    let mut open = false;
    let mut escaped = false;
    for c in rest.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        if c == '\\' && q == '"' {
            escaped = true;
            continue;
        }
        if c == q {
            open = !open;
        }
    }
    !open
}

#[cfg(test)]
mod tests {
    use super::complete_echo;

    #[test]
    fn closed_echo_lines_are_complete() {
        assert!(complete_echo(
            "echo \"   2. Run: bun install  # or: npm install\""
        ));
        assert!(complete_echo(
            "echo -e \"Step two: open the dashboard and copy the id\""
        ));
        assert!(complete_echo(
            "printf 'Now run the tests and read the summary'"
        ));
        assert!(complete_echo(
            "echo \"say \\\"hi\\\" to the reviewers of this change\""
        ));
    }

    #[test]
    fn open_or_other_lines_are_not() {
        // The quote stays open: the message goes on on the next line.
        assert!(!complete_echo("echo \"Before you continue, send the file"));
        assert!(!complete_echo("echo \"one\" two words after the string"));
        assert!(!complete_echo("say \"hello there to everyone\""));
        assert!(!complete_echo("echo plain words without any quotes here"));
    }
}
