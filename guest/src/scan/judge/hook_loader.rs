//! An agent hook or an editor's folder-open task that starts a bundled loader whose chain decodes
//! a hidden body and runs it (round 47m, held-out set 25, `persistence.hook-decoded-loader`).
//!
//! Worms that reach a repository plant two triggers that need no click: a `SessionStart` (or any)
//! hook in the agent's settings and a `runOn: folderOpen` task in the editor's, each running a
//! small local script (`node .vscode/setup.mjs`). The script looks harmless — it starts another
//! bundled file, often detached — and that file decodes a blob (hex, base64) and runs it
//! (`new Function`, `eval`, `exec`). No line holds an address; each file alone reads as a loader.
//!
//! Facts: entry files ([`entry`]: agent settings under `.claude/`, `.gemini/`, `.cursor/`,
//! `.codex/`, a plugin's `hooks.json`, an editor `tasks.json` that says `folderOpen`) and their
//! `command` lines; the bundled scripts those lines name ([`script_refs`]: tokens ending in a script
//! extension, matched to the bundle's files by path or name); the scripts those name in turn (two
//! hops); a decode ([`DECODES`]) followed within [`NEAR`] lines by a run ([`RUNS`]). Judged
//! `critical` at the command line when a file the chain reaches decodes and runs.
//!
//! Not judged: a hook running a bundled formatter, linter or notifier; a chain whose decode only
//! writes or prints (an image, a config); a decoding runner that no hook or task reaches (other
//! rules read it). One pass over each file's lowered lines; at most three files per chain.

use super::shapes::{found, judged, rel};
use super::{Bundle, File};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// A decode of a hidden body (lower-case).
const DECODES: &[&str] = &[
    "'hex')",
    "\"hex\")",
    "'base64')",
    "\"base64\")",
    "atob(",
    "b64decode(",
    "bytes.fromhex(",
    "frombase64string(",
    "base64 -d",
    "base64 --decode",
];
/// A run of what was decoded (lower-case).
const RUNS: &[&str] = &[
    "new function(",
    "eval(",
    "vm.runin",
    "exec(",
    "| sh",
    "| bash",
    "invoke-expression",
    "iex ",
];
/// Lines after a decode in which its run must stand.
const NEAR: usize = 3;
/// Extensions of the scripts a command line may name (lower-case).
const SCRIPTS: &[&str] = &[".js", ".mjs", ".cjs", ".ts", ".py", ".sh", ".ps1"];
/// Gate words: a hook event or a folder-open task (lower-case).
pub(super) const GATE: &[&str] = &[
    "sessionstart",
    "pretooluse",
    "posttooluse",
    "userpromptsubmit",
    "folderopen",
    "\"stop\"",
];

/// Whether a file is where an agent or an editor keeps commands it runs by itself.
fn entry(file: &File<'_>) -> bool {
    let p = file.path.to_ascii_lowercase();
    let agent_dir = [".claude/", ".gemini/", ".cursor/", ".codex/", ".windsurf/"]
        .iter()
        .any(|d| p.starts_with(d) || p.contains(&format!("/{d}")));
    let settings = p.ends_with("settings.json") || p.ends_with("settings.local.json");
    (agent_dir && (settings || p.ends_with("hooks.json")))
        || p.ends_with("hooks/hooks.json")
        || (p.ends_with("tasks.json") && file.words().has("folderopen"))
}

/// The tokens of a lowered line that name a script (`x.mjs`, `./.vscode/setup.mjs`).
fn script_refs(l: &str) -> impl Iterator<Item = &str> {
    l.split(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '"' | '\'' | '`' | '(' | ')' | ',' | '[' | ']' | '=' | ';'
            )
    })
    .map(|t| t.trim_start_matches("./").trim_start_matches('$'))
    .filter(|t| SCRIPTS.iter().any(|e| t.ends_with(e)) && !t.contains("://"))
}

/// The bundle file a script token names: the same path (after any `${…}/` root), else the one
/// file whose name is the token's last part.
fn resolve<'b, 'a>(b: &'b Bundle<'a>, token: &str) -> Option<&'b File<'a>> {
    let token = token.rsplit_once("}/").map_or(token, |(_, t)| t);
    let token = token.trim_start_matches("../");
    let name = token.rsplit('/').next().unwrap_or(token);
    let by_path = b.files.iter().find(|f| {
        let p = f.path.to_ascii_lowercase();
        p == token || p.ends_with(&format!("/{token}"))
    });
    by_path.or_else(|| {
        let mut named = b.files.iter().filter(|f| {
            let p = f.path.to_ascii_lowercase();
            p == name || p.ends_with(&format!("/{name}"))
        });
        let one = named.next();
        named.next().is_none().then_some(one).flatten()
    })
}

/// The decode line and its run line in a file, if a decode is followed within [`NEAR`] lines by a
/// run.
fn decode_run(file: &File<'_>) -> Option<(usize, usize)> {
    let low = &file.lowered().lower;
    low.iter().enumerate().find_map(|(i, l)| {
        if !DECODES.iter().any(|d| l.contains(d)) {
            return None;
        }
        (i..(i + NEAR + 1).min(low.len()))
            .find(|&j| RUNS.iter().any(|r| low[j].contains(r)))
            .map(|j| (i, j))
    })
}

/// The files a file's lines name as scripts (not itself), in order.
fn named_scripts<'b, 'a>(b: &'b Bundle<'a>, file: &File<'_>) -> Vec<(usize, &'b File<'a>)> {
    let mut found = Vec::new();
    for (i, l) in file.lowered().lower.iter().enumerate() {
        for t in script_refs(l) {
            if let Some(f) = resolve(b, t)
                && f.path != file.path
                && !found.iter().any(|(_, g): &(usize, &File)| g.path == f.path)
            {
                found.push((i, f));
            }
        }
    }
    found
}

pub(super) fn hook_decoded_loader(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b
        .files
        .iter()
        .filter(|f| !f.place.test && !f.place.signature)
    {
        if !file.words().any(GATE) || !entry(file) {
            continue;
        }
        let low = &file.lowered().lower;
        for (i, l) in low.iter().enumerate() {
            if !l.contains("command") {
                continue;
            }
            let mut chain: Option<(Vec<Related>, usize, usize, String)> = None;
            'refs: for t in script_refs(l) {
                let Some(first) = resolve(b, t) else { continue };
                if first.path == file.path {
                    continue;
                }
                let mut hops = vec![(rel("runs", file, i), first)];
                for (k, second) in named_scripts(b, first) {
                    hops.push((rel("starts", first, k), second));
                }
                for (_, target) in &hops {
                    if let Some((d, r)) = decode_run(target) {
                        let mut related: Vec<Related> =
                            hops.iter().map(|(rl, _)| rl.clone()).collect();
                        related.dedup_by(|a, b| a.file == b.file && a.line == b.line);
                        related.push(rel("decodes", target, d));
                        related.push(rel("runs decoded", target, r));
                        chain = Some((related, d, r, target.path.to_owned()));
                        break 'refs;
                    }
                }
            }
            let Some((related, d, r, target)) = chain else {
                continue;
            };
            if judged(b, out, file, i) {
                continue;
            }
            new.push(found(
                "persistence.hook-decoded-loader",
                "persistence",
                Severity::Critical,
                file,
                i,
                format!(
                    "{}:{}: a command the agent or the editor runs by itself (a hook or a folder-open task) starts a bundled script whose chain reaches {target}, which decodes a hidden body (line {}) and runs it (line {}). Starting a session or opening the folder is then enough to run code nobody can read. Do not install this skill.",
                    file.path,
                    i + 1,
                    d + 1,
                    r + 1
                ),
                related,
            ));
        }
    }
    out.extend(new);
}

use crate::scan::content::Related;
