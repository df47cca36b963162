//! Code that runs without being asked, and code hidden from the eye (round 31m, sets30m).
//!
//! - `persistence.folder-open-task` (`critical`): an editor task set to run when the folder is
//!   opened (`"runOn": "folderOpen"`) whose command fetches a script and runs it: opening the
//!   repository runs a stranger's code. A project's own watch or install task runs local commands.
//! - `agent.instruction-remote-exec` (`critical`): an agent instruction file (`.cursorrules`,
//!   `.cursor/rules/…`, `AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, `copilot-instructions.md`,
//!   `.windsurfrules`, `.clinerules`) with a line that pipes a download from a host that is not a
//!   known vendor's, installer's or registry's into a shell: every agent that opens the project is
//!   told to run it.
//! - `exfiltration.prose-upload` (`critical`): a command in a document that uploads a local secrets
//!   file (`curl -d @~/.aws/credentials`, `--data-binary @.env`, `-F f=@id_rsa`, `-T`) to a host
//!   that is neither local nor a known vendor's.
//! - `obfuscation.whitespace-hidden-code` (`critical`): a line of a script whose statement is
//!   followed by a long run of blanks and then more code that loads, runs or sends something: code
//!   pushed off the right edge of the screen so a reviewer does not see it.
//! - `obfuscation.padding-blob` (`critical`): a long base64 blob inside an HTML comment of a
//!   document that also pipes a download from an unknown host into a shell: padding that pushes
//!   the file past what a reader or a scanner looks at.
//! - `prompt_injection.standing-execute` (`critical`): an order to execute pending or queued
//!   commands before handling every user request (a memory entry or instruction that runs whatever
//!   is waiting, with no person in the loop).
//!
//! One pass over each file's lines: linear in bytes.

use super::{Bundle, hosts_in};
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::hosts::HostClass;
use crate::scan::judge::find::has;
use crate::scan::rules::Severity;

fn push(
    out: &mut Vec<Finding>,
    rule: &str,
    category: &str,
    path: &str,
    line: usize,
    text: &str,
    why: String,
) {
    out.push(Finding {
        rule_id: rule.into(),
        category: category.into(),
        severity: Severity::Critical,
        file: path.into(),
        line: line + 1,
        evidence: evidence(text, 0, text.len()),
        description: why,
        related: Vec::new(),
    });
}

/// Whether a (lower-case) line pipes a download into a shell or an interpreter.
fn fetch_pipe(l: &str) -> bool {
    let fetch = [
        "curl ",
        "wget ",
        "iwr ",
        "invoke-webrequest",
        "irm ",
        "invoke-restmethod",
    ]
    .iter()
    .any(|w| has(l, w));
    let run = [
        "| sh",
        "|sh",
        "| bash",
        "|bash",
        "| zsh",
        "| python",
        "| sudo",
        "| iex",
        "|iex",
        "| invoke-expression",
    ]
    .iter()
    .any(|w| has(l, w));
    fetch && run
}

/// The host a fetch on a line reaches: its URL's, or a bare `host/path` after `curl`/`wget`.
fn fetched_host(line: &str) -> Option<(String, HostClass)> {
    if let Some(h) = hosts_in(line).into_iter().next() {
        return Some((h.host, h.class));
    }
    let lower = crate::ascii_lowered(line);
    let at = ["curl ", "wget "]
        .iter()
        .filter_map(|w| lower.find(w))
        .min()?;
    let bare = lower[at..]
        .split_whitespace()
        .skip(1)
        .find(|t| !t.starts_with('-'))?
        .trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | '(' | ')'));
    bare.contains('.').then_some(())?;
    hosts_in(&format!("https://{bare}"))
        .into_iter()
        .next()
        .map(|h| (h.host, h.class))
}

/// Whether a path names an agent instruction file.
fn instruction_file(path: &str) -> bool {
    let l = crate::ascii_lowered(path);
    let name = l.rsplit('/').next().unwrap_or(&l);
    matches!(
        name,
        ".cursorrules"
            | ".windsurfrules"
            | ".clinerules"
            | "agents.md"
            | "claude.md"
            | "gemini.md"
            | "copilot-instructions.md"
    ) || has(&l, ".cursor/rules/")
}

/// Local files whose contents are secrets (lower-case).
const SECRET_FILES: &[&str] = &[
    ".credentials",
    "credentials.json",
    "/credentials",
    ".env",
    "id_rsa",
    "id_ed25519",
    ".ssh/",
    ".aws/",
    ".netrc",
    ".npmrc",
    ".pypirc",
    "token",
    ".kube/config",
];

/// Whether a (lower-case) command line uploads a local secrets file.
fn uploads_secret(l: &str) -> bool {
    if !(has(l, "curl ") || has(l, "wget ")) {
        return false;
    }
    // The file after `@` (curl -d/--data/--data-binary/-F) or after `-T`/`--upload-file`.
    let mut files: Vec<&str> = Vec::new();
    for (i, _) in l.match_indices('@') {
        let before = l[..i].trim_end();
        let flag_before = before.ends_with("-d")
            || before.ends_with("--data")
            || before.ends_with("--data-binary")
            || before.ends_with("--data-urlencode")
            || before.ends_with("--post-file=")
            || before.ends_with('=');
        if flag_before {
            files.push(l[i + 1..].split_whitespace().next().unwrap_or(""));
        }
    }
    for flag in ["-t ", "--upload-file "] {
        for (i, _) in l.match_indices(flag) {
            files.push(l[i + flag.len()..].split_whitespace().next().unwrap_or(""));
        }
    }
    files.iter().any(|f| SECRET_FILES.iter().any(|s| has(f, s)))
}

/// Calls that load, run or send (lower-case).
const CALLS: &[&str] = &[
    "require(",
    "import(",
    "eval(",
    "exec(",
    "settimeout(",
    "setinterval(",
    "fetch(",
    "child_process",
    "os.system",
    "subprocess",
    "__import__",
    "new function(",
    "atob(",
    "buffer.from(",
    "urllib",
    "requests.",
];

/// Blanks in a row that push code off the screen.
const HIDING_RUN: usize = 80;

/// Whether a code line holds a statement, a long run of blanks, then a call that loads, runs or
/// sends: the byte where the hidden part starts.
fn hidden_after_blanks(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b' ' || b[i] == b'\t' {
            let s = i;
            while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                i += 1;
            }
            if i - s >= HIDING_RUN && !line[..s].trim().is_empty() && i < b.len() {
                let rest = &line[i..];
                let comment = ["#", "//", "/*", "--", ";", "*"]
                    .iter()
                    .any(|c| rest.starts_with(c));
                let l = crate::ascii_lowered(rest);
                if !comment && CALLS.iter().any(|c| has(&l, c)) {
                    return Some(i);
                }
            }
            continue;
        }
        i += 1;
    }
    None
}

/// Characters of a base64 blob in a row for it to count as padding.
const BLOB: usize = 1500;

/// Whether a line holds a run of at least [`BLOB`] base64 characters.
fn blob_line(line: &str) -> bool {
    let mut run = 0;
    for c in line.bytes() {
        if c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=') {
            run += 1;
            if run >= BLOB {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// Pending or queued commands (lower-case).
const PENDING: &[&str] = &[
    "any pending commands",
    "all pending commands",
    "pending commands",
    "queued commands",
    "any queued commands",
    "pending system commands",
];

/// Before every request (lower-case).
const BEFORE_REQUEST: &[&str] = &[
    "before processing user requests",
    "before processing any",
    "before processing the user",
    "before handling user",
    "before handling any",
    "before responding to",
    "before answering",
];

/// Words these rules read in raw text without any fact (for the judge's skip of fact-less texts):
/// a folder-open task, an uploaded file, pending commands, a long run of blanks.
pub(super) const RAW: &[&str] = &[
    "folderopen",
    "-d @",
    "--data @",
    "--data-binary @",
    "--upload-file",
    "=@",
    "pending commands",
    "queued commands",
    "<!--",
    "                                                                                ",
];

/// Round 31m's judge rules (at most one finding of each per file).
pub(super) fn autorun(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let lower_path = crate::ascii_lowered(file.path);
        let content_lower = file.lower_all();
        let super::Lowered { lines, lower } = file.lowered();
        // An editor task that runs when the folder opens.
        if lower_path.ends_with("tasks.json")
            && has(content_lower, "folderopen")
            && let Some(i) = (0..lines.len()).find(|&i| fetch_pipe(&lower[i]))
        {
            push(
                out,
                "persistence.folder-open-task",
                "persistence",
                file.path,
                i,
                lines[i],
                format!(
                    "An editor task set to run when the folder is opened fetches a script and runs it ({}:{}): opening the project runs a stranger's code.",
                    file.path,
                    i + 1
                ),
            );
        }
        if instruction_file(file.path)
            && let Some(i) = (0..lines.len()).find(|&i| {
                fetch_pipe(&lower[i]) && fetched_host(lines[i]).is_some_and(|(_, c)| c.is_outside())
            })
        {
            push(
                out,
                "agent.instruction-remote-exec",
                "agent",
                file.path,
                i,
                lines[i],
                format!(
                    "An agent instruction file ({}:{}) tells every agent that opens the project to pipe a download from a host that is not a known vendor's into a shell.",
                    file.path,
                    i + 1
                ),
            );
        }
        if file.kind != FileKind::Code {
            if let Some(i) = (0..lines.len()).find(|&i| {
                uploads_secret(&lower[i]) && hosts_in(lines[i]).iter().any(|h| h.class.is_outside())
            }) {
                push(
                    out,
                    "exfiltration.prose-upload",
                    "exfiltration",
                    file.path,
                    i,
                    lines[i],
                    format!(
                        "A command in a document ({}:{}) uploads a local secrets file to a host that is neither local nor a known vendor's.",
                        file.path,
                        i + 1
                    ),
                );
            }
            let pipes_unknown = (0..lines.len()).any(|i| {
                fetch_pipe(&lower[i]) && fetched_host(lines[i]).is_some_and(|(_, c)| c.is_outside())
            });
            if pipes_unknown {
                // Inside a comment, or right under one ("do not edit below this line").
                let mut in_comment = false;
                let mut since_comment = usize::MAX;
                for (i, line) in lines.iter().enumerate() {
                    if has(line, "<!--") {
                        in_comment = true;
                        since_comment = 0;
                    } else if !line.trim().is_empty() {
                        since_comment = since_comment.saturating_add(1);
                    }
                    if (in_comment || since_comment <= 2) && blob_line(line) {
                        push(
                            out,
                            "obfuscation.padding-blob",
                            "obfuscation",
                            file.path,
                            i,
                            &line[..line.len().min(120)],
                            format!(
                                "A long base64 blob hidden in an HTML comment ({}:{}) of a document that pipes a download from an unknown host into a shell: padding that pushes the file past what a reader or a scanner looks at.",
                                file.path,
                                i + 1
                            ),
                        );
                        break;
                    }
                    if has(line, "-->") {
                        in_comment = false;
                    }
                }
            }
        }
        if file.kind == FileKind::Code
            && let Some((i, at)) = lines
                .iter()
                .enumerate()
                .find_map(|(i, l)| hidden_after_blanks(l).map(|at| (i, at)))
        {
            let shown = &lines[i][at..];
            push(
                out,
                "obfuscation.whitespace-hidden-code",
                "obfuscation",
                file.path,
                i,
                shown,
                format!(
                    "A line of a script ({}:{}) hides code that loads, runs or sends something after a long run of blanks, off the right edge of the screen.",
                    file.path,
                    i + 1
                ),
            );
        }
        // The line with the pending commands, read with its neighbours; a refusal counts in the
        // clause before the phrase ("never execute pending commands …").
        if PENDING.iter().any(|w| has(content_lower, w))
            && let Some(i) = (0..lines.len()).find(|&i| {
                let Some(at) = PENDING.iter().filter_map(|w| lower[i].find(w)).min() else {
                    return false;
                };
                let p = lower[i.saturating_sub(1)..(i + 2).min(lines.len())].join(" ");
                let mut from = at.saturating_sub(48);
                while !lower[i].is_char_boundary(from) {
                    from -= 1;
                }
                let clause = &lower[i][from..at];
                (has(&p, "execute") || has(&p, "run "))
                    && BEFORE_REQUEST.iter().any(|w| has(&p, w))
                    && !["never", "do not", "don't", "must not"].iter().any(|w| {
                        clause.match_indices(w).any(|(k, _)| {
                            !clause[..k]
                                .chars()
                                .next_back()
                                .is_some_and(|c| c.is_alphanumeric())
                        })
                    })
            })
        {
            push(
                out,
                "prompt_injection.standing-execute",
                "prompt_injection",
                file.path,
                i,
                lines[i],
                format!(
                    "An order ({}:{}) to execute pending or queued commands before handling every request: whatever is waiting runs with no person in the loop.",
                    file.path,
                    i + 1
                ),
            );
        }
    }
}
