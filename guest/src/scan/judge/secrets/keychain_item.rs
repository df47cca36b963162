//! One keychain item named for a vendor, sent to that vendor (round 38b, sets38b).
//!
//! A tool that keeps an agent signed in reads the agent's own login from the macOS keychain by its
//! service name (`security find-generic-password -s "Claude Code-credentials" -w`, often through a
//! variable set to that name earlier in the script) and refreshes it at the vendor's token
//! endpoint (`https://console.anthropic.com/v1/oauth/token`). The keychain rule reads the line as
//! browser or keychain data in bulk, and the flow to the request as that data leaving; what leaves
//! is one item, the vendor's own credential, going to the vendor, as Claude Code's
//! `~/.claude/.credentials.json` sent to Anthropic's API is (round 32b's agent store).
//!
//! A keychain read reaching a request is not judged when the item's service name (the `-s`
//! argument, written out or set to a quoted name on an earlier line of the file) names a vendor
//! (a vendor stem as one of its words: `Claude` of `Claude Code-credentials`) and the destination
//! is that vendor's host. An item named for another vendor, an unnamed or browser item (`Chrome
//! Safe Storage` names no vendor's API), or any other destination keep the verdict. The line's own
//! `exfiltration.browser-data` finding is not changed.

use crate::scan::hosts::{Vendor, vendor_of_key};

/// The `-s` argument of a `find-generic-password` command on `line`, quotes and `$` removed.
fn service_arg(line: &str) -> Option<&str> {
    let at = line.find("find-generic-password")?;
    let rest = &line[at..];
    let i = rest.find(" -s ")?;
    let arg = rest[i + 4..].trim_start();
    let arg = arg.trim_start_matches(['\\', '"', '\'']);
    let end = if rest[i + 4..].trim_start().starts_with(['"', '\'']) {
        arg.find(['"', '\'', '\\']).unwrap_or(arg.len())
    } else {
        arg.find(char::is_whitespace).unwrap_or(arg.len())
    };
    Some(&arg[..end])
}

/// The quoted value a shell variable is set to in `content` (`NAME="value"`, `NAME='value'`), the
/// first assignment before `line_no` (1-based).
fn assigned(content: &str, name: &str, line_no: usize) -> Option<String> {
    let prefix = format!("{name}=");
    content
        .lines()
        .take(line_no.saturating_sub(1))
        .map(str::trim_start)
        .map(|l| l.strip_prefix("readonly ").unwrap_or(l))
        .map(|l| l.strip_prefix("export ").unwrap_or(l))
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|v| {
            let q = v.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let inner = &v[1..];
            inner.find(q).map(|e| inner[..e].to_string())
        })
}

/// The vendor a keychain item's service name names: its words, upper-cased and joined with `_`,
/// read as a key name (`CLAUDE_CODE_CREDENTIALS` names Anthropic).
fn vendor_of_service(name: &str) -> Option<&'static Vendor> {
    let key: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    vendor_of_key(&key)
}

/// The vendor whose item the keychain read on line `line_no` of `content` (text `line`) fetches.
pub(super) fn vendor_item(content: &str, line: &str, line_no: usize) -> Option<&'static Vendor> {
    let arg = service_arg(line)?;
    let name = match arg.strip_prefix('$') {
        Some(var) => {
            let var = var.trim_matches(['{', '}']);
            assigned(content, var, line_no)?
        }
        None => arg.to_string(),
    };
    vendor_of_service(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_service_name_is_read_through_a_variable() {
        let content =
            "SVC=\"Claude Code-credentials\"\nT=$(security find-generic-password -s \"$SVC\" -w)\n";
        let line = content.lines().nth(1).unwrap();
        assert_eq!(
            vendor_item(content, line, 2).map(|v| v.name.as_str()),
            Some("Anthropic")
        );
        let browser = "K=$(security find-generic-password -s \"Chrome Safe Storage\" -w)";
        assert!(vendor_item(browser, browser, 1).is_none());
        // A variable set only after the read names nothing.
        let late =
            "T=$(security find-generic-password -s \"$SVC\" -w)\nSVC=\"Claude Code-credentials\"\n";
        assert!(vendor_item(late, late.lines().next().unwrap(), 1).is_none());
    }
}
