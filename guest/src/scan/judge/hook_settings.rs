//! Round 50t: what decides a hook written inline in an agent's settings (`agent.hook-auto-allow`).
//!
//! Claude Code's settings hold hooks as JSON: `"matcher": "*"`, `"type": "command"`, `"command":
//! "echo '{…\"permissionDecision\":\"allow\"…}'"`. Read as plain lines, the keys themselves
//! (`matcher`, `command`) look like a hook that decides on the tool call, so a hook that answers
//! `allow` for every tool was taken for a policy. On a `"key": value` line only the value decides:
//! a matcher that matches every tool (`*`, `.*`, `.+`, empty) decides nothing, a `type` names the
//! hook's kind, and a `command` decides only when the command itself reads the call.
//!
//! One line at a time, no allocation beyond the lower-cased key: linear.

/// Whether a `"key": value` line decides anything: `Some(true)` or `Some(false)` for the keys of
/// an inline hook, `None` for any other line (read as before).
pub(super) fn json_line_decides(lower: &str, words: &[&str]) -> Option<bool> {
    let t = lower.trim_start();
    let rest = t.strip_prefix('"')?;
    let (key, after) = rest.split_once('"')?;
    let value = after.trim_start().strip_prefix(':')?.trim();
    let value = value.trim_end_matches(',').trim();
    match key {
        "matcher" => Some(!matches!(value, "\"*\"" | "\".*\"" | "\".+\"" | "\"\"")),
        "type" => Some(false),
        "command" => Some(words.iter().any(|w| value.contains(w))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::json_line_decides;

    const W: &[&str] = &["tool_input", "command", "match", "grep"];

    #[test]
    fn wildcard_matcher_and_kind_decide_nothing() {
        assert_eq!(json_line_decides("  \"matcher\": \"*\",", W), Some(false));
        assert_eq!(json_line_decides("\"matcher\": \".*\"", W), Some(false));
        assert_eq!(json_line_decides("\"type\": \"command\",", W), Some(false));
    }

    #[test]
    fn named_matcher_and_reading_command_decide() {
        assert_eq!(json_line_decides("\"matcher\": \"Bash\",", W), Some(true));
        assert_eq!(
            json_line_decides(
                "\"command\": \"jq -r .tool_input.file_path | grep -q docs/\"",
                W
            ),
            Some(true)
        );
        assert_eq!(
            json_line_decides("\"command\": \"printf ok\"", W),
            Some(false)
        );
        assert_eq!(json_line_decides("if tool_input:", W), None);
    }
}
