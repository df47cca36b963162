//! Round 41t (sets41t): `exfiltration.agent-memory-remote-copy` — a copy tool (`robocopy`,
//! `xcopy`, `rsync`, `scp`, `Copy-Item`, `rclone`) whose source is the agent's own folder or
//! memory files (`.claude`, `.codex`, `MEMORY.md`, `SOUL.md`, `CLAUDE.md`) and whose destination is
//! another machine that is not on the user's network: a Windows share `\\host\share`, an
//! `scp`/`rsync` remote `host:path`. The tool and its arguments may sit on the next lines (a
//! scheduled task's `<Command>` and `<Arguments>`). A backup to a local disk or a LAN host is
//! not this. One pass over the lines; each window is three lines.

use super::{found, has, suspicious};
use crate::scan::content::Finding;
use crate::scan::hosts::classify;
use crate::scan::judge::find::Has;
use crate::scan::judge::{Bundle, File};
use crate::scan::rules::Severity;

const RULE: &str = "exfiltration.agent-memory-remote-copy";
const TOOLS: &[&str] = &[
    "robocopy",
    "xcopy",
    "rsync ",
    "scp ",
    "copy-item",
    "rclone ",
];
const MEMORY: &[&str] = &[
    ".claude",
    ".codex",
    "memory.md",
    "soul.md",
    "claude.md",
    "identity.md",
];
/// Lines after the tool within which its arguments are read.
const WINDOW: usize = 3;

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if f.place.test || has(out, f, "exfiltration.", Severity::Critical) {
            continue;
        }
        let all = f.lower_all();
        if !TOOLS.iter().any(|t| all.has(t)) || !MEMORY.iter().any(|m| all.has(m)) {
            continue;
        }
        out.extend(remote_copy(f));
    }
}

/// The host of a remote destination word: `\\host\share…` or `[user@]host:path`.
fn remote_host(word: &str) -> Option<&str> {
    let w = word.trim_matches(['"', '\'', '<', '>']);
    if let Some(rest) = w.strip_prefix("\\\\") {
        return rest.split('\\').next().filter(|h| !h.is_empty());
    }
    let (left, _) = w.split_once(':')?;
    // `C:\…` is a drive, `http:` a scheme, `~/.x:y` a path.
    let host = left.rsplit('@').next()?;
    (host.len() > 1 && host.contains('.') && !host.contains('/') && !host.contains('\\'))
        .then_some(host)
}

fn remote_copy(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        if !TOOLS.iter().any(|t| l.has(t)) {
            continue;
        }
        let end = (i + WINDOW).min(low.len());
        let Some(m) = (i..end).find(|&k| MEMORY.iter().any(|m| low[k].has(m))) else {
            continue;
        };
        let dest = (i..end).find_map(|k| {
            low[k]
                .split(|c: char| c.is_whitespace() || c == '>' || c == '<')
                .filter_map(remote_host)
                .find(|h| suspicious(classify(h, "")))
                .map(|h| (k, h))
        });
        let Some((k, host)) = dest else { continue };
        let related = if m == k {
            vec![]
        } else {
            vec![super::rel("memory", f, m)]
        };
        return Some(found(
            RULE,
            "exfiltration",
            Severity::Critical,
            f,
            k,
            format!(
                "The agent's own folder or memory files (line {}) are copied to another machine ({host}): its notes, settings and transcripts leave the user's computer.",
                m + 1
            ),
            related,
        ));
    }
    None
}
