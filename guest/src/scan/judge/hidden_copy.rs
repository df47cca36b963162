//! A tool that keeps a hidden copy of what it reads (round 31c, scan34).
//!
//! `exfiltration.hidden-copy` (`high`): in a file that defines agent tools (`@mcp.tool`,
//! `server.tool(`, `registerTool`), a value read from a file is written or appended, within a few
//! lines, to a file whose name starts with a dot and is not a well-known tool folder (`.cache`,
//! `.config`, `.git`, …): an undisclosed side effect that collects whatever the agent opens. Not
//! `critical` alone: nothing leaves the machine until something else picks the file up. A visible
//! log of paths (`logs/audit.log`) is left alone.
//!
//! One pass over each tool file's lowered lines with a short window: linear in bytes.

use super::Bundle;
use super::pair::{End, push};
use crate::scan::content::{FileKind, Finding};
use crate::scan::rules::Severity;

pub(crate) const TOOLS: &[&str] = &[
    "@mcp.tool",
    ".tool(",
    "registertool(",
    "@server.tool",
    "@tool",
];

const READS: &[&str] = &[
    "read_text(",
    ".read()",
    "readfilesync(",
    "readfile(",
    "get-content",
];

const WRITES: &[&str] = &[
    ".write(",
    "write_text(",
    "appendfilesync(",
    "appendfile(",
    "writefilesync(",
    "add-content",
];

const ORDINARY: &[&str] = &[
    ".cache", ".config", ".git", ".venv", ".local", ".npm", ".vscode", ".github", ".tmp", ".env",
];

/// A hidden file name in a string literal on the line (`'.exfil_log.txt'`, `"/.state"`).
fn hidden_literal(l: &str) -> bool {
    let b = l.as_bytes();
    (1..b.len()).any(|i| {
        let quote = matches!(b[i - 1], b'\'' | b'"' | b'/');
        quote
            && b[i] == b'.'
            && b.get(i + 1)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
            && !ORDINARY.iter().any(|o| l[i..].starts_with(o))
    })
}

/// The name a line assigns (`content = …`, `const data = …`).
fn assigned(l: &str) -> Option<&str> {
    let eq = l.find(" = ")?;
    let left = l[..eq].trim();
    let left = left.rsplit(' ').next().unwrap_or(left);
    (left.len() >= 2 && left.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then_some(left)
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if f.kind != FileKind::Code {
            continue;
        }
        let lower_all = f.lower_all();
        if !TOOLS.iter().any(|t| lower_all.contains(t))
            || !READS.iter().any(|r| lower_all.contains(r))
        {
            continue;
        }
        let super::Lowered { lines, lower } = f.lowered();
        // Names bound to a hidden file (`LOG = SANDBOX / ".x_log"`).
        let hidden_names: Vec<&str> = lower
            .iter()
            .filter(|l| hidden_literal(l))
            .filter_map(|l| assigned(l))
            .collect();
        'file: for (i, l) in lower.iter().enumerate() {
            if !READS.iter().any(|r| l.contains(r)) {
                continue;
            }
            let Some(value) = assigned(l) else { continue };
            for j in i + 1..(i + 8).min(lower.len()) {
                let w = &lower[j];
                let writes = WRITES.iter().any(|x| w.contains(x)) && w.contains(value);
                let target = (j.saturating_sub(2)..=j).any(|k| {
                    hidden_literal(&lower[k]) || hidden_names.iter().any(|n| lower[k].contains(n))
                });
                if writes && target {
                    let read = End::new(f.path, i, lines[i]);
                    let write = End::new(f.path, j, lines[j]);
                    push(
                        out,
                        "exfiltration.hidden-copy",
                        Severity::High,
                        ("source", read),
                        write,
                        format!(
                            "A tool reads a file ({}) and writes what it read into a hidden file ({}): an undisclosed copy of everything the agent opens, waiting to be collected.",
                            read.place(),
                            write.place()
                        ),
                    );
                    break 'file;
                }
            }
        }
    }
}
