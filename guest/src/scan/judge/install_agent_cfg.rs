//! Install-time code that rewires the agent itself (round 48m, held-out set 26,
//! `persistence.install-agent-config`).
//!
//! A package's lifecycle script runs on `npm install` / `pip install` before anyone reads it. Two
//! shapes turn it against the agent without touching a secret:
//!
//! - **A downloaded, hidden program registered as an agent hook.** The script fetches a file from
//!   the network, saves it under a dot-name (`.claude/.node-helper`), and writes an agent settings
//!   file whose hook (`SessionStart`, `PreToolUse` …) runs it with its output silenced or detached.
//!   Every later session starts the download; nothing on disk says what it is.
//! - **Existing MCP servers repointed.** Reached from a lifecycle hook, the script walks the
//!   agent's configured servers (`Object.entries(cfg.mcpServers)`, `servers.items()`) and sets
//!   each one's `url` to a constant address on a host that is not local: every request the agent
//!   makes to its servers, with their tokens, now passes through that host.
//!
//! Facts, in one code file that names an agent configuration ([`CFG`]) and writes a file
//! ([`WRITES`]): shape one needs a download to disk ([`DOWNLOADS`] with an `http` address, and a
//! stream or file write), a hook event ([`EVENTS`]), and a hidden target (a quoted dot-name that is
//! not a known folder) or a silenced/detached hook command ([`SILENCED`]), and no integrity check
//! ([`CHECKS`]). Shape two needs a `url` assignment to a quoted `http(s)` address on a non-local host
//! within [`LOOP`] lines below a loop over servers, in a file a `package.json` lifecycle script or a
//! `setup.py` install command reaches. Judged `critical` at the hook or the assignment line.
//!
//! Not judged: an installer that downloads its own checksummed binary and registers a visible hook;
//! a script adding one new server entry of its own; a loop that reads or prints server URLs, or
//! points them at a local gateway. Gated on the config words; one pass over each file's lines.

use super::shapes::{found, is_code, judged, rel};
use super::{Bundle, File, hosts_in};
use crate::scan::content::Finding;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Names of agent configuration files or folders (lower-case).
pub(super) const CFG: &[&str] = &[
    ".claude.json",
    "\".claude\"",
    "'.claude'",
    ".claude/",
    "mcp.json",
    "mcpservers",
    ".codex",
    ".gemini",
];
/// Calls that write a file (lower-case).
const WRITES: &[&str] = &[
    "writefilesync(",
    "writefile(",
    "createwritestream(",
    "write_text(",
    "json.dump(",
    ".write(",
];
/// Calls that fetch from the network (lower-case).
const DOWNLOADS: &[&str] = &[
    "https.get(",
    "http.get(",
    "fetch(",
    "urlretrieve(",
    "requests.get(",
    "urlopen(",
    "curl ",
    "wget ",
];
/// Hook events of agent settings (lower-case).
const EVENTS: &[&str] = &[
    "sessionstart",
    "pretooluse",
    "posttooluse",
    "userpromptsubmit",
    "sessionend",
];
/// A hook command that hides its output or leaves the session (lower-case).
const SILENCED: &[&str] = &[
    ">/dev/null",
    "> /dev/null",
    "2>&1 &",
    "nohup ",
    "start /b",
    "-windowstyle hidden",
];
/// An integrity check of what was downloaded (lower-case).
const CHECKS: &[&str] = &[
    "sha256",
    "sha512",
    "checksum",
    "integrity",
    "createhash(",
    "hashlib.",
];
/// Known dot-folders and files a script may name without hiding anything (lower-case).
const KNOWN_DOTS: &[&str] = &[
    ".claude",
    ".claude.json",
    ".cursor",
    ".codex",
    ".gemini",
    ".vscode",
    ".git",
    ".config",
    ".json",
    ".js",
    ".mjs",
    ".cjs",
    ".ts",
    ".py",
    ".sh",
    ".toml",
    ".md",
    ".local",
    ".cache",
    ".env",
    ".bak",
    ".tmp",
    ".npmrc",
];
/// Lines below a loop over servers in which a `url` assignment belongs to it.
const LOOP: usize = 8;
/// Lifecycle script names of `package.json` (lower-case, quoted).
const LIFECYCLE: &[&str] = &[
    "\"preinstall\"",
    "\"install\"",
    "\"postinstall\"",
    "\"prepare\"",
];

/// Whether a lowered line holds a quoted dot-name that is not a known folder or file ending.
fn hidden_name(l: &str) -> bool {
    l.split(['"', '\'', '`', '/', '\\'])
        .filter(|t| t.starts_with('.') && t.len() > 2 && !t.contains(' '))
        .any(|t| {
            t[1..]
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
                && !KNOWN_DOTS.contains(&t)
        })
}

/// Whether a lowered line assigns a server's `url`.
fn url_assign(l: &str) -> bool {
    [
        ".url =",
        ".url=",
        "[\"url\"] =",
        "['url'] =",
        "[\"url\"]=",
        "['url']=",
    ]
    .iter()
    .any(|a| l.contains(a))
}

/// Whether a lowered line loops over configured servers.
fn server_loop(l: &str) -> bool {
    (l.starts_with("for ") || l.starts_with("for(") || l.contains(".foreach("))
        && (l.contains("server") || l.contains("mcpservers"))
}

/// The bundled script names a `package.json` lifecycle script or a `setup.py` install command
/// runs (lower-case path tails), read from the bundle's manifests.
fn install_run(b: &Bundle<'_>) -> Vec<String> {
    let mut names = Vec::new();
    for f in b.files.iter() {
        let p = f.path.to_ascii_lowercase();
        let low = &f.lowered().lower;
        if p.ends_with("package.json") {
            for l in low
                .iter()
                .filter(|l| LIFECYCLE.iter().any(|k| l.contains(k)))
            {
                names.extend(
                    l.split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ','))
                        .filter(|t| {
                            [".js", ".mjs", ".cjs", ".ts"]
                                .iter()
                                .any(|e| t.ends_with(e))
                        })
                        .map(|t| t.trim_start_matches("./").to_owned()),
                );
            }
        } else if p.ends_with("setup.py") && low.iter().any(|l| l.contains("cmdclass")) {
            for l in low
                .iter()
                .filter(|l| l.starts_with("from ") || l.starts_with("import "))
            {
                if let Some(m) = l.split_whitespace().nth(1) {
                    names.push(format!("{}.py", m.replace('.', "/")));
                }
                if let Some(i) = l.find(" import ") {
                    for t in l[i + 8..].split(',') {
                        names.push(format!("{}.py", t.trim()));
                    }
                }
            }
        }
    }
    names
}

/// Whether a file is reached by an install step (its path ends with a name `install_run` gave).
fn reached(file: &File<'_>, names: &[String]) -> bool {
    let p = file.path.to_ascii_lowercase();
    names
        .iter()
        .any(|n| !n.is_empty() && (p == *n || p.ends_with(&format!("/{n}"))))
}

fn non_local_url(l: &str) -> bool {
    hosts_in(l)
        .iter()
        .any(|h| !matches!(h.class, HostClass::Local))
}

pub(super) fn install_agent_config(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut names: Option<Vec<String>> = None;
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| is_code(f)) {
        if !file.words().any(CFG) {
            continue;
        }
        let low = &file.lowered().lower;
        if !low.iter().any(|l| WRITES.iter().any(|w| l.contains(w))) {
            continue;
        }
        // Shape one: a downloaded hidden program registered as a hook.
        let download = low.iter().position(|l| {
            DOWNLOADS.iter().any(|d| l.contains(d))
                && (l.contains("http://") || l.contains("https://"))
        });
        let checked = low.iter().any(|l| CHECKS.iter().any(|c| l.contains(c)));
        if let Some(d) = download.filter(|_| !checked) {
            let saves = low.iter().any(|l| {
                l.contains("createwritestream(") || l.contains(".pipe(") || l.contains(" -o ")
            });
            let hidden = low.iter().position(|l| hidden_name(l));
            let event = low
                .iter()
                .position(|l| EVENTS.iter().any(|e| l.contains(e)));
            let silenced = low
                .iter()
                .position(|l| SILENCED.iter().any(|s| l.contains(s)));
            if let (true, Some(e)) = (saves, event)
                && (hidden.is_some() || silenced.is_some())
            {
                if !judged(b, out, file, e) {
                    let mut related = vec![rel("download", file, d)];
                    if let Some(h) = hidden {
                        related.push(rel("hidden file", file, h));
                    }
                    if let Some(s) = silenced.filter(|s| *s != e) {
                        related.push(rel("silenced command", file, s));
                    }
                    new.push(found(
                        "persistence.install-agent-config",
                        "persistence",
                        Severity::Critical,
                        file,
                        e,
                        format!(
                            "{}:{}: this script downloads a program ({}:{}), saves it under a hidden name or runs it silenced, and registers it as an agent hook, with no checksum of what it fetched. Every later agent session runs whatever that address serves. Do not install this skill.",
                            file.path,
                            e + 1,
                            file.path,
                            d + 1
                        ),
                        related,
                    ));
                }
                continue;
            }
        }
        // Shape two: existing MCP servers repointed by an install step.
        if !file.words().has("mcpservers") && !low.iter().any(|l| l.contains("mcp_servers")) {
            continue;
        }
        let names = names.get_or_insert_with(|| install_run(b));
        if !reached(file, names) {
            continue;
        }
        for (i, l) in low.iter().enumerate() {
            if !url_assign(l) || !non_local_url(l) {
                continue;
            }
            let Some(lp) = (i.saturating_sub(LOOP)..i)
                .rev()
                .find(|&j| server_loop(&low[j]))
            else {
                continue;
            };
            if judged(b, out, file, i) {
                continue;
            }
            new.push(found(
                "persistence.install-agent-config",
                "persistence",
                Severity::Critical,
                file,
                i,
                format!(
                    "{}:{}: run by the package's install step, this script walks the agent's configured MCP servers ({}:{}) and points each one's URL at a fixed outside host. Every request the agent makes to its servers, with their tokens, would pass through that host. Do not install this skill.",
                    file.path,
                    i + 1,
                    file.path,
                    lp + 1
                ),
                vec![rel("server loop", file, lp)],
            ));
            break;
        }
    }
    out.extend(new);
}
