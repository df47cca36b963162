//! Two documented developer set-ups that the single-line rules read as attacks (round 29p).
//!
//! - A Microsoft Defender exclusion (`Add-MpPreference -ExclusionPath`) is how malware blinds the
//!   scanner before it drops a payload, and `destructive.disable-firewall` says so (`critical`).
//!   A script that excludes the project's own folder (anchored on `git rev-parse --show-toplevel`,
//!   `$PSScriptRoot`, the current location), asks the user first (`Read-Host`, `ShouldProcess`,
//!   `PromptForChoice`) and downloads or starts nothing is a build speed-up the user agreed to: at
//!   most `high` (a reviewer still looks). A user-wide folder (the profile, temp, AppData, a drive
//!   root), no question, or a download or a started program keeps it `critical`.
//! - `sitecustomize.py` or a `.pth` file runs at every interpreter start (`persistence.python-startup`,
//!   `high`). coverage.py's documented subprocess hook writes one that only calls
//!   `coverage.process_startup()`; a file that writes that hook and nothing that fetches, runs,
//!   decodes or sends is the documented set-up: `low`. Any such word in the file keeps it `high`.
//!
//! One pass over the findings; each file is read only when a finding names it.

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Where the excluded folder comes from: the project itself.
const PROJECT_ANCHORS: &[&str] = &[
    "git rev-parse --show-toplevel",
    "$psscriptroot",
    "get-location",
    "$pwd",
    "(resolve-path",
];

/// Folders that are not a project's: the whole profile, temp, AppData, a drive root.
const USER_WIDE: &[&str] = &[
    "$env:userprofile",
    "$env:temp",
    "$env:tmp",
    "$env:appdata",
    "$env:localappdata",
    "$env:programdata",
    "$home",
    "getfolderpath",
    "c:\\\"",
    "c:\\'",
    "'c:\\'",
    "\"c:\\\"",
    "-exclusionprocess",
    "-exclusionextension",
    "disablerealtimemonitoring",
    // A root or a system folder reached from the project anchor (round 30c): the drive the
    // project is on (`GetPathRoot($PSScriptRoot)`, `Split-Path -Qualifier`), folders far above it,
    // the system's own.
    "getpathroot",
    "-qualifier",
    "\\..\\..",
    "/../..",
    "$env:systemdrive",
    "$env:systemroot",
    "$env:windir",
    "$env:programfiles",
];

/// A question to the user before the change.
const ASKS: &[&str] = &[
    "read-host",
    "shouldprocess",
    "shouldcontinue",
    "promptforchoice",
];

/// Downloads and started programs.
const ACTS: &[&str] = &[
    "invoke-webrequest",
    "iwr ",
    "invoke-restmethod",
    "irm ",
    "downloadfile",
    "downloadstring",
    "start-bitstransfer",
    "bitsadmin",
    "certutil",
    "curl",
    "wget",
    "start-process",
    "invoke-expression",
    "iex ",
];

/// Agreement asked for in the bundle's documents (round 31c): the script's run made conditional on
/// the user's yes, in the prose that tells the agent to run it.
const AGREES: &[&str] = &[
    "if the user agrees",
    "if they agree",
    "only if they agree",
    "only if the user agrees",
    "ask the user first",
    "ask the user before",
    "with the user's consent",
    "after the user confirms",
    "once the user confirms",
    "用户同意",
    "征得用户同意",
    "ユーザーが同意",
    "ユーザーの同意",
    "사용자가 동의",
    "사용자 동의",
];

/// Whether a document of the bundle asks the user before running the script at `path` (its file
/// name within three lines of the agreement wording).
fn agreed_in_docs(bundle: &Bundle, path: &str) -> bool {
    let name = crate::ascii_lowered(path.rsplit('/').next().unwrap_or(path)).into_owned();
    bundle.files.iter().any(|f| {
        let p = f.path.to_ascii_lowercase();
        (p.ends_with(".md") || p.ends_with(".txt"))
            && f.content.as_deref().is_some_and(|t| {
                let lower: Vec<String> = t
                    .lines()
                    .map(|l| crate::ascii_lowered(l).into_owned())
                    .collect();
                lower.iter().enumerate().any(|(i, l)| {
                    AGREES.iter().any(|w| l.contains(w))
                        && lower[i.saturating_sub(1)..(i + 3).min(lower.len())]
                            .iter()
                            .any(|x| x.contains(name.as_str()))
                })
            })
    })
}

fn confirmed_project_exclusion(text: &str, line: usize, agreed: bool) -> bool {
    let l = crate::ascii_lowered(text);
    let before: String = l
        .lines()
        .take(line.saturating_sub(1))
        .collect::<Vec<_>>()
        .join("\n");
    PROJECT_ANCHORS.iter().any(|w| l.contains(w))
        && !USER_WIDE.iter().any(|w| l.contains(w))
        && (agreed || ASKS.iter().any(|w| before.contains(w)))
        && !ACTS.iter().any(|w| l.contains(w))
}

/// Whether another script of the bundle downloads or starts a program (round 30c): an exclusion
/// asked for in one script and a payload fetched into the excluded folder by a second one is the
/// same blinding split in two files. Scripts only (PowerShell, batch, shell, Python, JS), not the
/// documents, whose install notes name `curl` and `iwr` for other reasons.
fn other_script_acts(bundle: &Bundle, path: &str) -> bool {
    const SCRIPTS: &[&str] = &[
        ".ps1", ".psm1", ".bat", ".cmd", ".sh", ".py", ".js", ".mjs", ".ts",
    ];
    bundle.files.iter().any(|f| {
        let p = f.path.to_ascii_lowercase();
        f.path != path
            && SCRIPTS.iter().any(|s| p.ends_with(s))
            && f.content.as_deref().is_some_and(|t| {
                let l = crate::ascii_lowered(t);
                ACTS.iter().any(|w| l.contains(w))
            })
    })
}

/// Words of code that fetches, runs, decodes or sends.
const ACTIVE_PY: &[&str] = &[
    "urlopen",
    "urllib",
    "requests",
    "httpx",
    "http://",
    "https://",
    "socket",
    "exec(",
    "eval(",
    "compile(",
    "__import__",
    "subprocess",
    "os.system",
    "popen",
    "base64",
    "marshal",
    "pickle",
    "environ",
    "curl",
    "wget",
];

fn coverage_hook_only(text: &str) -> bool {
    let l = crate::ascii_lowered(text);
    l.contains("coverage.process_startup()") && !ACTIVE_PY.iter().any(|w| l.contains(w))
}

pub(super) fn demote_own_setups(bundle: &Bundle, out: &mut [Finding]) {
    for f in out.iter_mut() {
        if f.rule_id == "destructive.disable-firewall" && f.severity == Severity::Critical {
            let e = crate::ascii_lowered(&f.evidence);
            if e.contains("add-mppreference")
                && e.contains("-exclusionpath")
                && bundle.text_of(&f.file).is_some_and(|t| {
                    confirmed_project_exclusion(t, f.line, agreed_in_docs(bundle, &f.file))
                })
                && !other_script_acts(bundle, &f.file)
            {
                f.severity = Severity::High;
                f.description.push_str(
                    " The script excludes only the project's own folder, after asking the user, and downloads or starts nothing: a build speed-up the user agreed to. Check the folder is the one you expect.",
                );
            }
        } else if f.rule_id == "persistence.python-startup"
            && f.severity > Severity::Low
            && bundle.text_of(&f.file).is_some_and(coverage_hook_only)
        {
            f.severity = Severity::Low;
            f.description.push_str(
                " The file writes coverage.py's documented subprocess hook (`coverage.process_startup()`) and nothing that fetches, runs, decodes or sends: the documented test-coverage set-up.",
            );
        }
    }
}
