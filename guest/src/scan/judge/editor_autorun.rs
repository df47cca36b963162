//! An editor task that runs by itself when a folder is opened and fetches or evaluates remote code
//! (round 46m, held-out set 24, `persistence.editor-autorun-task`).
//!
//! A VS Code task with `"runOptions": { "runOn": "folderOpen" }` runs as soon as the folder is
//! opened in a trusting editor, with no click. Projects use it for a watcher (`npm run watch`);
//! worms write it into every repository they reach with a command that downloads and runs code.
//! Facts, in one file — a `tasks.json` shipped in the bundle, or a script that writes one — that
//! says `folderOpen`: the lines that run remote code ([`remote_run`]: an address together with
//! `eval(`, a pipe into a shell, `iex`, `node -e`/`python -c`, `powershell -enc`). Judged
//! `critical` when the task around `folderOpen` (the [`TASK`] lines before and after) holds such a
//! line, or names, as its `command`, a constant of the file defined on such a line.
//!
//! Not judged: a folder-open task running a local script or a package script; a task that runs
//! only when asked (`runOn: default`); a remote run in a file that never says `folderOpen`. Gated
//! on `folderopen`; one pass over the lowered lines, windows of [`TASK`] lines.

use super::Bundle;
use super::shapes::{found, judged, rel};
use super::wallet_request::ident_byte;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// The gate word (lower-case).
pub(super) const GATE: &[&str] = &["folderopen"];
/// Lines before and after `folderOpen` that belong to its task.
const TASK: usize = 10;
/// Ways of running what was fetched (lower-case).
const RUNS: &[&str] = &[
    "eval(",
    "| sh",
    "|sh",
    "| bash",
    "|bash",
    "| iex",
    "|iex",
    "invoke-expression",
    "node -e",
    "python -c",
    "python3 -c",
    "powershell -enc",
    "-encodedcommand",
];

/// Whether a lowered line fetches and runs code: an address and a way of running it, or a
/// download tool piped into a shell.
fn remote_run(l: &str) -> bool {
    let fetches = l.contains("://")
        || ["curl ", "wget ", "invoke-webrequest", "iwr "]
            .iter()
            .any(|w| l.contains(w));
    fetches && RUNS.iter().any(|r| l.contains(r))
}

/// The name a lowered `command:` / `"command":` line gives as a bare identifier, if any.
fn command_ident(l: &str) -> Option<&str> {
    let at = l.find("command")?;
    let rest = l[at + "command".len()..].trim_start_matches(['"', '\'']);
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .bytes()
        .position(|c| !ident_byte(c))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    (!name.is_empty() && !name.as_bytes()[0].is_ascii_digit()).then_some(name)
}

/// The line defining `name` (`const name =`, `name = `) on a remote-run line, if any.
fn defined_remote(low: &[String], name: &str) -> Option<usize> {
    low.iter().position(|l| {
        let t = l
            .strip_prefix("const ")
            .or_else(|| l.strip_prefix("let "))
            .or_else(|| l.strip_prefix("var "))
            .unwrap_or(l);
        t.strip_prefix(name)
            .is_some_and(|r| r.trim_start().starts_with('=') && !r.trim_start().starts_with("=="))
            && remote_run(l)
    })
}

pub(super) fn editor_autorun_task(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b
        .files
        .iter()
        .filter(|f| !f.place.test && !f.place.signature)
    {
        if !file.words().any(GATE) {
            continue;
        }
        let low = &file.lowered().lower;
        let Some(open) = low.iter().position(|l| l.contains("folderopen")) else {
            continue;
        };
        let (s, e) = (open.saturating_sub(TASK), (open + TASK + 1).min(low.len()));
        let direct = (s..e).find(|&k| remote_run(&low[k]));
        let via = || {
            (s..e).find_map(|k| {
                command_ident(&low[k]).and_then(|n| defined_remote(low, n).map(|d| (k, d)))
            })
        };
        let (run, def) = match direct {
            Some(k) => (k, None),
            None => match via() {
                Some((k, d)) => (k, Some(d)),
                None => continue,
            },
        };
        if judged(b, out, file, open) {
            continue;
        }
        let mut related = vec![rel("command", file, run)];
        if let Some(d) = def {
            related.push(rel("fetch and run", file, d));
        }
        new.push(found(
            "persistence.editor-autorun-task",
            "persistence",
            Severity::Critical,
            file,
            open,
            format!(
                "{}:{}: an editor task runs by itself when the folder is opened (`runOn: folderOpen`), and its command ({}:{}) fetches code from the network and runs it. Opening the project is then enough to run a stranger's code. Do not install this skill.",
                file.path,
                open + 1,
                file.path,
                def.unwrap_or(run) + 1
            ),
            related,
        ));
    }
    out.extend(new);
}
