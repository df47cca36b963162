//! A bundled native loader (round 30m, sets29m): a Windows batch file in the skill that starts an
//! executable shipped beside it with a data file as its only input (`start loader.exe module.dat`,
//! `runtime.exe payload.txt`).
//!
//! - `lure.bundled-loader` (`critical`): an interpreter or loader shipped as a bare `.exe` and fed
//!   a file whose name says it is not a program or a script (text, data, a compiled blob) is how
//!   archive-borne loaders start an opaque payload; a skill's own tooling runs scripts (`.py`,
//!   `.ps1`, `.js`), well-known programs (`python.exe`, `node.exe`, `git.exe`) or a URL.
//!
//! Only `.cmd` and `.bat` files are read; comment lines (`rem`, `::`) are skipped. One pass over
//! their lines: linear in bytes.

use super::Bundle;
use crate::scan::content::{Finding, evidence};
use crate::scan::rules::Severity;

/// Programs a skill's own batch file may start with a file argument (lower-case, without `.exe`).
const KNOWN: &[&str] = &[
    "python",
    "python3",
    "pythonw",
    "py",
    "node",
    "git",
    "code",
    "cmd",
    "powershell",
    "pwsh",
    "notepad",
    "explorer",
    "chrome",
    "msedge",
    "firefox",
    "java",
    "javaw",
    "dotnet",
    "npm",
    "npx",
    "uv",
    "pip",
    "winget",
    "choco",
    "msiexec",
    "rundll32",
    "regsvr32",
    "wscript",
    "cscript",
    "mshta",
    "certutil",
    "curl",
    "tar",
    "7z",
    "soffice",
    "pandoc",
    "ffmpeg",
    "magick",
    "docker",
];

/// Extensions that name data, not a program or a script (lower-case).
const DATA: &[&str] = &[
    "txt", "dat", "bin", "log", "tmp", "cfg", "ini", "cso", "db", "jpg", "jpeg", "png", "gif",
    "bmp", "ico", "dll", "so", "pak", "res", "blob", "enc", "raw", "cache",
];

/// Whether a batch-file line starts a bundled executable on a data file: (the executable, the file).
fn launches(line: &str) -> Option<(String, String)> {
    let l = crate::ascii_lowered(line.trim());
    if l.starts_with("rem ") || l.starts_with("::") {
        return None;
    }
    let mut toks = l
        .trim_start_matches('@')
        .split_whitespace()
        .map(|t| t.trim_matches('"'))
        .filter(|t| !t.is_empty() && !t.starts_with('/'))
        .peekable();
    while toks.peek().is_some_and(|t| matches!(*t, "start" | "call")) {
        toks.next();
    }
    let exe = toks.next()?;
    let stem = exe.strip_suffix(".exe")?;
    // A bundled program: a bare or relative name, not a drive path or a variable's program.
    if stem.is_empty() || exe.contains(':') || exe.contains('%') {
        return None;
    }
    let name = stem.rsplit(['\\', '/']).next().unwrap_or(stem);
    if KNOWN.contains(&name) {
        return None;
    }
    // The data file is the program's first argument (after a flag, a file is an option's value).
    let arg = toks.next()?;
    if arg.starts_with('-') || arg.contains("://") || arg.contains('%') {
        return None;
    }
    let ext = arg.rsplit_once('.').map(|(_, e)| e)?;
    DATA.contains(&ext)
        .then(|| (exe.to_owned(), arg.to_owned()))
}

/// `lure.bundled-loader`: at most one finding per batch file.
pub(super) fn bundled_loader(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let p = crate::ascii_lowered(file.path);
        if !(p.ends_with(".cmd") || p.ends_with(".bat")) {
            continue;
        }
        for (i, line) in file.content.lines().enumerate() {
            if let Some((exe, arg)) = launches(line) {
                out.push(Finding {
                    rule_id: "lure.bundled-loader".into(),
                    category: "lure".into(),
                    severity: Severity::Critical,
                    file: file.path.into(),
                    line: i + 1,
                    evidence: evidence(line, 0, line.len()),
                    description: format!(
                        "A batch file in the skill starts a bundled executable (`{exe}`) on a data file (`{arg}`) ({}:{}): how archive-borne loaders run an opaque payload. A skill's tooling runs scripts or well-known programs.",
                        file.path,
                        i + 1
                    ),
                    related: Vec::new(),
                });
                break;
            }
        }
    }
}
