//! Patterns a policy matches against (round 43b, sets43b).
//!
//! Agent firewalls, runtime-security tracers and guard hooks keep the commands, paths and hosts
//! they watch for as YAML data: the items of a list under a matcher key (`command_matches:`,
//! `path_matches:`, `domain_matches:`, `patterns:`, `filters:`) of a rule that refuses or reports
//! what it matches (`- action: deny`, `decision: block`, `action: alert`), or of a policy that says
//! it detects (`name: reverse-shell-detection`, `description: Detect …`, a comment `# 检测 …`). The
//! item is compared against what an agent or a process does; nothing runs it.
//!
//! A finding of a command, a send, a privilege step, a miner or a collector host (the categories
//! below) at `high` or above is informational (`low`) when its line, and every line it pairs with,
//! is such an item: a `- item` scalar in a YAML file or in a ```yaml fence of Markdown, whose
//! nearest parent key is a matcher key, with the refusal or report on an enclosing rule line or the
//! detection said in the same YAML block. An item under any other key (`run:`, `steps:`,
//! `commands:`), a rule whose action allows what it matches, an item in a block that neither
//! refuses nor detects, and any line of a script keep their grade.
//!
//! A command quoted as the one argument of a checker's verb (`rampart policy explain "rm -rf /"`,
//! `guard check "curl x | sh"`, `… test "…"`) is evaluated by the tool, not run: the same, when the
//! rest of the line is plain words (no pipe, no chaining, no substitution) and its first word is no
//! shell or runner (`ssh`, `sudo`, `bash`, `tmux`, `xargs`…).

use std::collections::BTreeMap;

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::markdown::{FencePlace, fence_places};
use crate::scan::rules::Severity;

/// Categories whose findings name a command, a send, a miner or a host on one line.
const CATEGORIES: &[&str] = &[
    "destructive",
    "exfiltration",
    "supply_chain",
    "persistence",
    "privilege",
    "network",
    "mining",
];

/// Words of a key whose list items are compared against something.
const MATCHER_WORDS: &[&str] = &["match", "filter", "pattern", "signature", "indicator"];

/// Keys that state what a rule does with a match.
const ACTION_KEYS: &[&str] = &["action", "decision", "effect", "verdict", "on_match"];

/// Values of such a key that refuse or report (never `allow`).
const REFUSE_OR_REPORT: &[&str] = &[
    "deny",
    "denied",
    "block",
    "reject",
    "refuse",
    "drop",
    "kill",
    "alert",
    "audit",
    "log",
    "warn",
    "detect",
    "report",
    "require_approval",
    "ask",
];

/// Words of a YAML block (a `name:`/`description:` value or a comment) that say it detects.
const DETECTS: &[&str] = &[
    "detect",
    "detection",
    "monitor",
    "audit",
    "alert",
    "检测",
    "监控",
    "告警",
    "审计",
    "监测",
];

/// Verbs of a checker that evaluates the command it is given.
const CHECK_VERBS: &[&str] = &[
    "explain", "check", "test", "validate", "lint", "simulate", "evaluate", "dry-run",
];

/// First words that run the command they are given.
const RUNNERS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "fish",
    "dash",
    "ksh",
    "pwsh",
    "powershell",
    "cmd",
    "ssh",
    "sudo",
    "su",
    "doas",
    "eval",
    "exec",
    "env",
    "xargs",
    "nohup",
    "timeout",
    "watch",
    "parallel",
    "tmux",
    "screen",
    "docker",
    "podman",
    "kubectl",
    "nsenter",
    "chroot",
    "script",
    "at",
    "batch",
    "python",
    "python3",
    "node",
    "perl",
    "ruby",
    "osascript",
];

/// Whether a file is YAML by its extension.
fn yaml_file(path: &str) -> bool {
    let l = path.to_ascii_lowercase();
    l.ends_with(".yaml") || l.ends_with(".yml")
}

/// Whether a file is Markdown or text documentation.
fn doc_file(path: &str) -> bool {
    let l = path.to_ascii_lowercase();
    l.ends_with(".md") || l.ends_with(".markdown") || l.ends_with(".txt") || l.ends_with(".mdx")
}

/// A file's lines, and for documentation where its fences are: split once per file, however many
/// of its findings are looked at.
struct Text<'a> {
    path: &'a str,
    lines: Vec<&'a str>,
    /// Per line, for a documentation file; empty otherwise.
    places: Vec<FencePlace>,
}

impl<'a> Text<'a> {
    fn new(path: &'a str, content: &'a str) -> Self {
        let lines: Vec<&str> = content.lines().collect();
        let places = if doc_file(path) {
            fence_places(lines.iter().copied())
        } else {
            Vec::new()
        };
        Text {
            path,
            lines,
            places,
        }
    }
}

/// The YAML block holding 0-based line `i`: the whole file for a YAML file; for documentation,
/// the inside of the ```yaml/```yml fence around it. `(first, end)`, end exclusive.
fn yaml_block(text: &Text<'_>, i: usize) -> Option<(usize, usize)> {
    let (lines, places) = (&text.lines, &text.places);
    if yaml_file(text.path) {
        return Some((0, lines.len()));
    }
    if !doc_file(text.path) {
        return None;
    }
    if places.get(i) != Some(&FencePlace::Inside) {
        return None;
    }
    let open = (0..i).rev().find(|&j| places[j] == FencePlace::Fence)?;
    let info = lines[open]
        .trim_start()
        .trim_start_matches(['`', '~'])
        .trim()
        .to_ascii_lowercase();
    if !(info.starts_with("yaml") || info.starts_with("yml")) {
        return None;
    }
    let end = (i + 1..lines.len())
        .find(|&j| places[j] != FencePlace::Inside)
        .unwrap_or(lines.len());
    Some((open + 1, end))
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The text of a YAML line without a trailing `# comment` (a `#` after a blank, outside quotes).
fn uncommented(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (k, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && prev.is_whitespace() => return line[..k].trim_end(),
            None => {}
        }
        prev = c;
    }
    line.trim_end()
}

/// The key of a `key:` line with nothing after the colon (`- key:` too).
fn parent_key(line: &str) -> Option<&str> {
    let t = uncommented(line).trim_start();
    let t = t.strip_prefix("- ").unwrap_or(t);
    let key = t.strip_suffix(':')?.trim();
    (!key.is_empty() && !key.contains(' ')).then_some(key.trim_matches(['"', '\'']))
}

/// Whether a line is a `- item` scalar (not a `- key: value` mapping).
fn scalar_item(line: &str) -> bool {
    let t = uncommented(line).trim_start();
    let Some(item) = t.strip_prefix("- ") else {
        return false;
    };
    let item = item.trim();
    !item.is_empty() && (item.starts_with(['"', '\'']) || !item.contains(": "))
}

/// The `key: value` of a line (a leading `- ` dropped), value unquoted and lower-cased.
fn key_value(line: &str) -> Option<(String, String)> {
    let t = uncommented(line).trim_start();
    let t = t.strip_prefix("- ").unwrap_or(t);
    let (k, v) = t.split_once(':')?;
    let v = v.trim().trim_matches(['"', '\'']);
    (!v.is_empty()).then(|| (k.trim().to_ascii_lowercase(), v.to_ascii_lowercase()))
}

/// Whether 0-based line `i` of `lines` is an item a policy matches against (module documentation).
fn policy_item(text: &Text<'_>, i: usize) -> bool {
    let lines = &text.lines;
    let Some((first, end)) = yaml_block(text, i) else {
        return false;
    };
    let line = lines[i];
    if !scalar_item(line) {
        return false;
    }
    // The nearest line above with less indentation is the list's key.
    let mut depth = indent(line);
    let mut j = i;
    let mut key_seen = false;
    let mut refused = false;
    while j > first {
        j -= 1;
        let l = lines[j];
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') || indent(l) >= depth {
            continue;
        }
        depth = indent(l);
        if !key_seen {
            let Some(key) = parent_key(l) else {
                return false;
            };
            let key = key.to_ascii_lowercase();
            if !MATCHER_WORDS.iter().any(|w| key.contains(w)) {
                return false;
            }
            key_seen = true;
            continue;
        }
        // An enclosing rule line that states the action (`- action: deny`).
        if let Some((k, v)) = key_value(l)
            && ACTION_KEYS.contains(&k.as_str())
        {
            if v.starts_with("allow") || v == "permit" || v == "accept" {
                return false;
            }
            refused |= REFUSE_OR_REPORT.iter().any(|w| v.contains(w));
        }
        // The rule's other keys, at the indentation of the mapping an ancestor `- ` item opens.
        if l.trim_start().starts_with("- ") {
            let inner = indent(l) + 2;
            for s in &lines[j + 1..end] {
                if s.trim().is_empty() || s.trim_start().starts_with('#') {
                    continue;
                }
                if indent(s) < inner {
                    break;
                }
                if indent(s) == inner
                    && let Some((k, v)) = key_value(s)
                    && ACTION_KEYS.contains(&k.as_str())
                {
                    if v.starts_with("allow") || v == "permit" || v == "accept" {
                        return false;
                    }
                    refused |= REFUSE_OR_REPORT.iter().any(|w| v.contains(w));
                }
            }
        }
    }
    key_seen && (refused || block_detects(&lines[first..end]))
}

/// Whether a YAML block says it detects: a `name:`/`description:` value or a comment.
fn block_detects(block: &[&str]) -> bool {
    block.iter().any(|l| {
        let t = l.trim_start();
        let said = if t.starts_with('#') {
            Some(t.to_lowercase())
        } else {
            key_value(l)
                .filter(|(k, _)| k == "name" || k == "description" || k.ends_with("description"))
                .map(|(_, v)| v.to_lowercase())
        };
        said.is_some_and(|s| DETECTS.iter().any(|w| s.contains(w)))
    })
}

/// Whether a line hands one quoted command to a checker's verb and runs nothing else.
fn checker_argument(line: &str) -> bool {
    let t = line.trim();
    let t = t.strip_prefix("$ ").unwrap_or(t);
    let Some(open) = t.find(['"', '\'']) else {
        return false;
    };
    let q = t.as_bytes()[open] as char;
    let rest = &t[open + 1..];
    let Some(close) = rest.find(q) else {
        return false;
    };
    if !rest[close + 1..].trim().is_empty() {
        return false;
    }
    let words: Vec<&str> = t[..open].split_whitespace().collect();
    let (Some(first), Some(verb)) = (words.first(), words.last()) else {
        return false;
    };
    words.len() >= 2
        && CHECK_VERBS.contains(&verb.to_ascii_lowercase().as_str())
        && !RUNNERS.contains(&first.to_ascii_lowercase().as_str())
        && words.iter().all(|w| {
            w.bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b'/'))
        })
}

/// Lower findings whose lines are items a policy matches against or a checker's argument.
pub(super) fn demote_policy_matchers(bundle: &Bundle, out: &mut [Finding]) {
    let mut texts: BTreeMap<&str, Text<'_>> = BTreeMap::new();
    for f in out.iter_mut() {
        if f.severity < Severity::High || f.line == 0 || !CATEGORIES.contains(&f.category.as_str())
        {
            continue;
        }
        let Some((path, content)) = bundle
            .files
            .iter()
            .find(|b| b.path == f.file)
            .and_then(|b| Some((b.path.as_str(), b.content.as_deref()?)))
        else {
            continue;
        };
        let text = texts
            .entry(path)
            .or_insert_with(|| Text::new(path, content));
        let lines = &text.lines;
        let Some(line) = lines.get(f.line - 1) else {
            continue;
        };
        let item = |file: &str, n: usize| {
            file == f.file && n >= 1 && n <= lines.len() && policy_item(text, n - 1)
        };
        let listed = item(&f.file, f.line) && f.related.iter().all(|r| item(&r.file, r.line));
        let checked = f.related.is_empty() && doc_file(&f.file) && checker_argument(line);
        if listed || checked {
            f.severity = Severity::Low;
            f.description.push_str(if listed {
                " (Informational: on this line the text is an item a policy matches against (a refused or reported pattern of an agent firewall, a guard or a detection rule); nothing runs it.)"
            } else {
                " (Informational: on this line the command is the quoted argument a checker evaluates (explain, check, test); nothing runs it.)"
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Text, checker_argument, policy_item};

    fn at(path: &str, text: &str, needle: &str) -> bool {
        let text = Text::new(path, text);
        let i = text
            .lines
            .iter()
            .position(|l| l.contains(needle))
            .expect("needle");
        policy_item(&text, i)
    }

    #[test]
    fn items_of_refusing_or_detecting_rules() {
        let deny =
            "rules:\n  - action: deny\n    when:\n      command_matches:\n        - \"rm -rf /\"\n";
        assert!(at("p.yaml", deny, "rm -rf"));
        let sibling = "rules:\n  - when:\n      command_matches:\n        - \"rm -rf /\"\n    action: block\n";
        assert!(at("p.yml", sibling, "rm -rf"));
        let md = "# Policy\n\n```yaml\nrules:\n  - action: deny\n    when:\n      domain_matches:\n        - webhook.site\n```\n";
        assert!(at("SKILL.md", md, "webhook.site"));
        let detect = "```yaml\nmetadata:\n  name: miner-detection\nspec:\n  rules:\n    - event: exec\n      filters:\n        - data.pathname=/xmrig\n```\n";
        assert!(at("SKILL.md", detect, "xmrig"));
    }

    #[test]
    fn other_lists_keep() {
        let allow = "rules:\n  - action: allow\n    when:\n      command_matches:\n        - \"rm -rf /\"\n";
        assert!(!at("p.yaml", allow, "rm -rf"));
        let steps = "jobs:\n  - action: deny\n    steps:\n      - \"rm -rf /\"\n";
        assert!(!at("p.yaml", steps, "rm -rf"));
        let bare = "filters:\n  - \"rm -rf /\"\n";
        assert!(!at("p.yaml", bare, "rm -rf"));
        let shell = "```sh\nrules:\n  - action: deny\n    when:\n      command_matches:\n        - rm -rf /\n```\n";
        assert!(!at("SKILL.md", shell, "rm -rf"));
        let script =
            "rules:\n  - action: deny\n    when:\n      command_matches:\n        - \"rm -rf /\"\n";
        assert!(!at("run.sh", script, "rm -rf"));
    }

    #[test]
    fn checker_arguments() {
        assert!(checker_argument("rampart policy explain \"rm -rf /\""));
        assert!(checker_argument("guard check 'curl x | sh'"));
        assert!(!checker_argument("ssh host check \"rm -rf /\""));
        assert!(!checker_argument("tool explain \"rm -rf /\" && rm -rf /"));
        assert!(!checker_argument("bash -c \"rm -rf /\""));
        assert!(!checker_argument("tool run \"rm -rf /\""));
    }
}
