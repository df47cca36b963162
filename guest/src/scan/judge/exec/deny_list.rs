//! Commands listed to be refused in a configuration file (round 28b, sets27b).
//!
//! Guard hooks and agent settings keep the commands they refuse as data: a JSON or YAML list under
//! a key that says so (`"deny": ["Bash(curl:*)"]`, `"blocked": ["rm -rf ~", "curl * | sh"]`,
//! `disallowedCommands:` with `- …` items). A `curl … | sh` pattern inside such a list names what is
//! forbidden; nothing runs it. [`listed_as_denied`] tells whether a byte of a data file sits in a
//! list whose key is a deny-list word. Only lists count (a key's lone string value, an allow list,
//! a list under any other key, or a script keep their findings), and the caller asks only when the
//! command names no address.

/// Words of a key that holds refused things.
pub(crate) const DENY_WORDS: &[&str] = &[
    "deny",
    "denied",
    "block",
    "disallow",
    "forbid",
    "banned",
    "prohibit",
    "reject",
    "refuse",
    "dangerous",
    "blacklist",
];

/// Whether a file is a data file (JSON, YAML, TOML) by its extension.
fn data_file(path: &str) -> bool {
    let ext = path
        .rsplit('/')
        .next()
        .and_then(|n| n.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_lowercase());
    ext.is_some_and(|e| matches!(e.as_str(), "json" | "jsonc" | "yaml" | "yml" | "toml"))
}

/// Whether a fact of file `path` sits in a data file's deny list ([`listed_as_denied`]).
pub(super) fn refused(path: &str, content: &str, fact: &crate::scan::facts::Fact) -> bool {
    data_file(path) && listed_as_denied(content, (fact.start + fact.at) as usize)
}

fn deny_key(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    DENY_WORDS.iter().any(|w| k.contains(w))
}

/// The key right before byte `open` (a `[`): `"key": [`, `key: [`, `key = [`.
fn key_before(text: &str, open: usize) -> Option<&str> {
    let before = text[..open].trim_end();
    let before = before
        .strip_suffix(':')
        .or_else(|| before.strip_suffix('='))?
        .trim_end();
    let before = before.strip_suffix(['"', '\'']).unwrap_or(before);
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .map_or(0, |i| i + 1);
    let key = &before[start..];
    (!key.is_empty()).then_some(key)
}

/// Whether byte `at` of `text` sits in a list under a deny-list key: inside the `[ … ]` that
/// follows the key (JSON, YAML flow lists, TOML arrays), or on a `- ` item of a YAML block list
/// under it.
fn listed_as_denied(text: &str, at: usize) -> bool {
    let at = at.min(text.len());
    let b = text.as_bytes();
    // The innermost open `[` before `at` (brackets inside strings are rare in such lists).
    let mut depth = 0usize;
    let mut i = at;
    while i > 0 {
        i -= 1;
        match b[i] {
            b']' => depth += 1,
            b'[' if depth == 0 => return key_before(text, i).is_some_and(deny_key),
            b'[' => depth -= 1,
            b'{' | b'}' if depth == 0 => break,
            _ => {}
        }
    }
    // A YAML block list: this line is `- item`, and the nearest line above with less indentation
    // is `key:`.
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    let indent = line.len() - line.trim_start().len();
    if !line.trim_start().starts_with("- ") {
        return false;
    }
    text[..line_start]
        .lines()
        .rev()
        .filter(|l| !l.trim().is_empty())
        .find(|l| l.len() - l.trim_start().len() < indent || !l.trim_start().starts_with("- "))
        .and_then(|l| l.trim().strip_suffix(':'))
        .is_some_and(|k| deny_key(k.trim_matches(['"', '\''])))
}

#[cfg(test)]
mod tests {
    use super::{data_file, listed_as_denied};

    fn at(text: &str, needle: &str) -> bool {
        listed_as_denied(text, text.find(needle).expect("needle"))
    }

    #[test]
    fn deny_lists_are_found() {
        assert!(at(r#"{ "blocked": ["rm -rf ~", "curl * | sh"] }"#, "curl"));
        assert!(at(
            "{\n  \"permissions\": {\n    \"deny\": [\n      \"Bash(curl * | sh)\"\n    ]\n  }\n}",
            "curl"
        ));
        assert!(at(
            "disallowedCommands:\n  - rm -rf /\n  - curl * | bash\n",
            "curl"
        ));
        assert!(at("dangerous_patterns = [\"wget * | sh\"]", "wget"));
        assert!(data_file("hooks/rules/ng_commands.json"));
    }

    #[test]
    fn other_places_are_not() {
        // An allow list, a run list, a lone value under a deny-ish key, a step list, a script.
        assert!(!at(r#"{ "allow": ["curl * | sh"] }"#, "curl"));
        assert!(!at(r#"{ "setup": ["curl $U | sh"] }"#, "curl"));
        assert!(!at(r#"{ "deny": "none", "run": "curl $U | sh" }"#, "curl"));
        assert!(!at("steps:\n  - curl $U | sh\n", "curl"));
        assert!(!data_file("install.sh"));
    }
}
