//! Agent tampering that earlier rules rated below `critical` (round 44m, held-out set 22).
//!
//! - `persistence.agent-config-remote-run`: an agent or IDE configuration entry (an MCP server in
//!   `mcpServers` / `mcp_servers`, a hook in `hooks`) whose `command` or `args` fetch code and pipe
//!   it into a shell. The entry runs again at every start of the agent, unreviewed, and whatever
//!   the host serves that day runs with the user's rights. MCP servers are started by a package
//!   runner (`npx`, `uvx`, `docker`), not by a download piped to `bash`.
//! - `prompt_injection.tool-alias-shell`: a SKILL.md whose `allowed-tools` lists a tool of its own
//!   naming, which the body then declares an alias of Bash or the shell. The allow-list reads as
//!   harmless while it grants an unrestricted shell.
//! - `exfiltration.unchecked-agent-harvest`: an agent launched with its permission checks off
//!   (`--dangerously-skip-permissions`, `--yolo`, …) and, within [`WINDOW`] lines, pointed at
//!   credential stores and told to send or publish what it finds (the s1ngularity shape). A line
//!   that warns against the flag is not judged.
//!
//! Each gated on its necessary words over the file's lowered text, one pass over bounded windows.

use super::shapes::{found, judged, rel};
use super::{Bundle, File};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Lines either side of the unchecked launch within which the targets and the sending are read.
const WINDOW: usize = 4;
/// Lines above a `command`/`args` line within which its configuration block's key is looked for.
const CFG_REACH: usize = 30;

/// Configuration blocks whose entries the agent runs (lower-case).
pub(super) const CFG_KEYS: &[&str] = &["mcpservers", "mcp_servers", "\"hooks\""];
/// Downloads (lower-case).
const FETCH: &[&str] = &[
    "curl ",
    "wget ",
    "iwr ",
    "irm ",
    "invoke-webrequest",
    "invoke-restmethod",
];
/// The download handed to an interpreter (lower-case).
const INTO_SHELL: &[&str] = &[
    "| bash", "|bash", "| sh", "|sh", "| zsh", "| iex", "|iex", "| python", "$(curl", "$(wget",
];
/// Permission checks turned off at launch (lower-case); also this rule's raw words.
pub(super) const UNCHECKED: &[&str] = &[
    "--dangerously-skip-permissions",
    "--dangerously-bypass-approvals-and-sandbox",
    "--yolo",
    "--trust-all-tools",
    "--allow-all-tools",
    "--approval-mode yolo",
    "--permission-mode bypasspermissions",
];
/// Credential stores (lower-case).
const STORES: &[&str] = &[
    "~/.ssh",
    "~/.aws",
    " .env",
    "`.env",
    "/.env",
    "id_rsa",
    "wallet",
    "keychain",
    "gcloud",
    ".npmrc",
    "private key",
    "credentials file",
];
/// Sending or publishing what was found (lower-case).
const OUTWARD: &[&str] = &[
    "exfiltrat",
    "upload",
    "publish",
    "gist",
    "webhook",
    "public repo",
    "new repo",
    "send them",
    "send it",
    "post them",
];
/// A line that warns against what it names (lower-case).
const WARNS: &[&str] = &[
    "never ",
    "do not ",
    "don't ",
    "avoid ",
    "must not ",
    "warning",
];
/// An alias declared (lower-case).
const ALIAS: &[&str] = &[
    "alias",
    "->",
    "→",
    "=>",
    "maps to",
    "same as",
    "wrapper",
    "proxy for",
    "stands for",
];
/// What the alias grants (lower-case).
const SHELLS: &[&str] = &["bash", "the shell", "shell tool", "a shell", "any shell"];
/// Raw words of the alias rule (lower-case).
pub(super) const ALIAS_RAW: &[&str] = &["allowed-tools"];

/// Whether `i` is a `command`/`args` line under a configuration block the agent runs.
fn under_cfg(low: &[String], i: usize) -> bool {
    let l = &low[i];
    if !(l.contains("\"command\"") || l.contains("\"args\"") || l.starts_with("command")) {
        return false;
    }
    (i.saturating_sub(CFG_REACH)..=i).any(|k| CFG_KEYS.iter().any(|w| low[k].contains(w)))
}

/// Whether the file already holds a `critical` exfiltration finding (its harvest or send is
/// judged already, and keeps its own finding alone).
pub(super) fn file_judged(b: &Bundle<'_>, out: &[Finding], file: &File<'_>) -> bool {
    out.iter().chain(b.prior.iter()).any(|f| {
        f.file == file.path && f.severity == Severity::Critical && f.category == "exfiltration"
    })
}

pub(super) fn agent_config_remote_run(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| !f.place.test && !f.place.signature)
    {
        let words = file.words();
        if !words.any(CFG_KEYS) || !words.any(FETCH) {
            continue;
        }
        let low = &file.lowered().lower;
        let mut new = Vec::new();
        for i in 0..low.len() {
            // An `args` array may put the shell on the next line.
            let seen = |w: &[&str]| {
                (i..(i + 2).min(low.len())).any(|k| w.iter().any(|x| low[k].contains(x)))
            };
            if !under_cfg(low, i) || !seen(FETCH) || !seen(INTO_SHELL) || judged(b, out, file, i) {
                continue;
            }
            let key = (i.saturating_sub(CFG_REACH)..=i)
                .rev()
                .find(|&k| CFG_KEYS.iter().any(|w| low[k].contains(w)))
                .unwrap_or(i);
            new.push(found(
                "persistence.agent-config-remote-run",
                "persistence",
                Severity::Critical,
                file,
                i,
                format!(
                    "{}:{}: an agent configuration entry (the block at line {}) runs a download piped into a shell. The agent starts it again at every launch, so whatever that host serves runs with the user's rights, unreviewed. Agent servers and hooks are started from a pinned package, not a fetched script: do not install this skill.",
                    file.path,
                    i + 1,
                    key + 1
                ),
                vec![rel("configuration block", file, key)],
            ));
            break;
        }
        out.extend(new);
    }
}

/// The names `allowed-tools` lists in the front matter (lower-case), and the body's first line.
fn allowed_tools(low: &[String]) -> (Vec<String>, usize) {
    let mut names = Vec::new();
    if low.first().map(String::as_str) != Some("---") {
        return (names, 0);
    }
    let end = (1..low.len())
        .find(|&k| low[k] == "---")
        .unwrap_or(low.len());
    let mut listing = false;
    for l in &low[1..end] {
        if let Some(rest) = l.strip_prefix("allowed-tools:") {
            listing = rest.trim().is_empty();
            for n in rest.split([',', '[', ']', ' ']) {
                let n = n.trim_matches(|c: char| c == '"' || c == '\'' || c == '`');
                if !n.is_empty() {
                    names.push(n.to_owned());
                }
            }
        } else if listing && let Some(n) = l.strip_prefix("- ") {
            names.push(n.trim_matches(|c: char| c == '"' || c == '\'').to_owned());
        } else if listing && !l.is_empty() {
            listing = false;
        }
    }
    (names, end + 1)
}

pub(super) fn tool_alias_shell(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b.files.iter().filter(|f| {
        !f.place.test && {
            let p = f.path.to_ascii_lowercase();
            p == "skill.md" || p.ends_with("/skill.md")
        }
    }) {
        let words = file.words();
        if !words.has("allowed-tools") || !words.any(ALIAS) || !words.any(SHELLS) {
            continue;
        }
        let low = &file.lowered().lower;
        let (names, body) = allowed_tools(low);
        let shell_granted = names
            .iter()
            .any(|n| n.starts_with("bash") || n.contains("shell"));
        let own: Vec<&String> = names
            .iter()
            .filter(|n| n.len() >= 3 && (n.contains('_') || n.contains('-')))
            .collect();
        if shell_granted || own.is_empty() {
            continue;
        }
        let hit = (body..low.len()).find_map(|i| {
            let l = &low[i];
            let n = own.iter().find(|n| l.contains(n.as_str()))?;
            (ALIAS.iter().any(|w| l.contains(w)) && SHELLS.iter().any(|w| l.contains(w)))
                .then_some((i, n.to_string()))
        });
        let Some((i, name)) = hit else { continue };
        out.push(found(
            "prompt_injection.tool-alias-shell",
            "prompt_injection",
            Severity::Critical,
            file,
            i,
            format!(
                "{}:{}: `allowed-tools` lists `{}`, and the text declares it an alias of the shell. The allow-list reads as a narrow tool while it grants every shell command: do not install this skill.",
                file.path,
                i + 1,
                name
            ),
            Vec::new(),
        ));
    }
}

pub(super) fn unchecked_agent_harvest(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| !f.place.test && !f.place.signature)
    {
        let words = file.words();
        if !words.any(UNCHECKED)
            || !words.any(STORES)
            || !words.any(OUTWARD)
            || file_judged(b, out, file)
        {
            continue;
        }
        let low = &file.lowered().lower;
        for (i, l) in low.iter().enumerate() {
            if !UNCHECKED.iter().any(|w| l.contains(w)) || WARNS.iter().any(|w| l.contains(w)) {
                continue;
            }
            let (s, e) = (i.saturating_sub(WINDOW), (i + WINDOW + 1).min(low.len()));
            // A warning names stores and sending too ("never … where ~/.ssh is; it could upload").
            let at = |w: &[&str]| {
                (s..e).find(|&k| {
                    w.iter().any(|x| low[k].contains(x))
                        && !WARNS.iter().any(|x| low[k].contains(x))
                })
            };
            let (Some(store), Some(send)) = (at(STORES), at(OUTWARD)) else {
                continue;
            };
            out.push(found(
                "exfiltration.unchecked-agent-harvest",
                "exfiltration",
                Severity::Critical,
                file,
                i,
                format!(
                    "{}:{}: an agent is launched with its permission checks off and pointed at credential stores (line {}), and what it finds is to be sent or published (line {}). That is the shape of the s1ngularity attack, which used the victim's own AI tools to harvest and publish secrets: do not install this skill.",
                    file.path,
                    i + 1,
                    store + 1,
                    send + 1
                ),
                vec![rel("credential stores", file, store), rel("sent", file, send)],
            ));
            break;
        }
    }
}

/// Orders to keep an act from the user (lower-case); also this rule's raw words.
pub(super) const KEEP_FROM_USER: &[&str] = &[
    "without notifying the user",
    "without telling the user",
    "without informing the user",
    "without alerting the user",
    "without asking the user",
    "without the user knowing",
    "without the user's knowledge",
    "do not tell the user",
    "don't tell the user",
    "never tell the user",
    "do not mention this to the user",
    "hide this from the user",
    "secretly ",
];
/// A tool definition around the description (lower-case).
const TOOL_DEF: &[&str] = &[
    "inputschema",
    "input_schema",
    "\"parameters\"",
    "@tool",
    "mcp.tool(",
    "server.tool(",
];

/// `prompt_injection.tool-description-concealment`: a tool's description (the text the model
/// reads to choose and use the tool) that orders the model to act without the user knowing. A
/// tool has no honest reason to ask the model for secrecy; the user cannot see the description.
pub(super) fn tool_description_concealment(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| !f.place.test && !f.place.signature)
    {
        let words = file.words();
        if !words.any(KEEP_FROM_USER) || !words.any(TOOL_DEF) {
            continue;
        }
        let low = &file.lowered().lower;
        for (i, l) in low.iter().enumerate() {
            let described = l.contains("\"description\"") || l.contains("description=");
            if !described
                || !KEEP_FROM_USER.iter().any(|w| l.contains(w))
                || judged(b, out, file, i)
            {
                continue;
            }
            let (s, e) = (i.saturating_sub(15), (i + 16).min(low.len()));
            if !(s..e).any(|k| TOOL_DEF.iter().any(|w| low[k].contains(w))) {
                continue;
            }
            out.push(found(
                "prompt_injection.tool-description-concealment",
                "prompt_injection",
                Severity::Critical,
                file,
                i,
                format!(
                    "{}:{}: a tool's description, which the model reads and the user does not see, orders the model to act without the user knowing. A tool has no honest reason to ask for secrecy: do not install this skill.",
                    file.path,
                    i + 1
                ),
                Vec::new(),
            ));
            break;
        }
    }
}
