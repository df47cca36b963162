//! What a lure's words point at (round 29p): the text a paste step shows, and the folder an
//! antivirus exclusion names.
//!
//! "Paste … into the terminal" is the ClickFix step when what is pasted is hidden (on a page, in the
//! clipboard, "the script"); when the skill shows it right there (inline code on the line, or a
//! fenced block opening within the next three lines) the step is as dangerous as that text. Text
//! that fetches, runs a fetched or decoded payload, elevates or deletes keeps the step strong;
//! `git config` aliases or `python3 -m venv .venv` make it weak.

use crate::scan::markdown::{FencePlace, fence_places};

/// Words of pasted text that fetch, decode, elevate, delete or run something else.
const ACTIVE: &[&str] = &[
    "curl",
    "wget",
    "iwr",
    "invoke-webrequest",
    "invoke-restmethod",
    "irm ",
    "invoke-expression",
    "iex",
    "| sh",
    "|sh",
    "| bash",
    "|bash",
    "| zsh",
    "| python",
    "base64",
    "-enc",
    "frombase64",
    "mshta",
    "certutil",
    "bitsadmin",
    "osascript",
    "eval",
    "xattr",
    "chmod",
    "sudo",
    "rm -",
    "remove-item",
    "http://",
    "https://",
    "/dev/tcp",
    "nc ",
    "ncat",
    "socat",
    "python -c",
    "python3 -c",
    "node -e",
    "perl -e",
    "powershell -",
    "pwsh -",
    "start-process",
    "runas",
    "reg add",
    "schtasks",
    "crontab",
    "launchctl",
    "defaults write",
    "ssh ",
    "scp ",
    ">>",
    "security ",
    "spctl",
    "set-mppreference",
    "add-mppreference",
];

/// Whether the paste step on 1-based `line` shows its text, and that text does nothing active.
pub(super) fn shown_and_harmless(content: &str, line: usize) -> bool {
    let lines: Vec<&str> = content.lines().collect();
    let Some(own) = lines.get(line.wrapping_sub(1)) else {
        return false;
    };
    let harmless = |t: &str| {
        let l = crate::ascii_lowered(t);
        !t.trim().is_empty() && !ACTIVE.iter().any(|w| l.contains(w))
    };
    // Inline code on the step's own line.
    let inline: Vec<&str> = own
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| !s.trim().is_empty())
        .collect();
    if !inline.is_empty() {
        return inline.iter().all(|s| harmless(s));
    }
    // A fenced block opening within the next three non-blank lines.
    let places = fence_places(lines.iter().copied());
    let mut seen = 0;
    for k in line..lines.len() {
        if lines[k].trim().is_empty() {
            continue;
        }
        if places[k] == FencePlace::Fence {
            let body: Vec<&str> = (k + 1..lines.len())
                .take_while(|&j| places[j] == FencePlace::Inside)
                .map(|j| lines[j])
                .collect();
            return harmless(&body.join("\n"));
        }
        seen += 1;
        if seen >= 3 {
            break;
        }
    }
    false
}

/// Words that scope an exclusion to the project's own folder.
const PROJECT: &[&str] = &[
    "build folder",
    "build output",
    "build directory",
    "repository's",
    "the repository",
    "the repo",
    "project folder",
    "project directory",
    "project's",
    "this project",
    "this solution",
    "`target",
    "`bin",
    "`obj",
    "`node_modules",
    "`dist",
    "target\\",
    "bin\\",
    "obj\\",
    "构建目录",
    "项目目录",
];

/// Whether an antivirus line excludes the project's own folder (and nothing user-wide).
pub(super) fn project_exclusion(text: &str) -> bool {
    let l = crate::ascii_lowered(text);
    (l.contains("exclu") || l.contains("排除"))
        && PROJECT.iter().any(|w| l.contains(w))
        && ![
            "downloads",
            "temp",
            "appdata",
            "profile",
            "whole drive",
            "c:\\",
            "home folder",
            "user folder",
        ]
        .iter()
        .any(|w| l.contains(w))
}
