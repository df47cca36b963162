//! Downloads handed to a Windows loader, and executables from attachment links (round 45m,
//! held-out set 23).
//!
//! - `supply_chain.download-loader-run`: a line downloads a file (`curl -o F` / `-sLo F` / `-O`,
//!   `wget -O F`, `certutil -urlcache -f URL F`, `bitsadmin /transfer … URL F`,
//!   `Invoke-WebRequest … -OutFile F`, `.DownloadFile(URL, F)`) from a host that is not local, a
//!   vendor, an installer or a registry, and the same line (after `&&`, `;`, `&`) or one of the next
//!   twelve lines hands that file to a loader or installer (`msiexec /i F`, `regsvr32 F`,
//!   `rundll32 F,…`, `start F`, `cmd /c F`, `Start-Process F`) or runs it by name (`F.exe`). The
//!   run-what-you-downloaded flow already covers shells and interpreters inside code; this reads
//!   batch files and bare command lines written in prose too, and the loaders whose flags come
//!   before the file (`regsvr32 -s F`, `msiexec /i F /quiet`). A vendor's or registry's installer
//!   (`python.org`, `aka.ms`) is not judged; a line that warns ("never", "do not") is not read.
//! - `supply_chain.attachment-executable`: prose links a file attached to an issue, a chat or a
//!   message (`github.com/user-attachments/files/…`, `github.com/<o>/<r>/files/<n>/…`,
//!   `cdn.discordapp.com/attachments/…`) and the same or one of the next three lines orders a
//!   runnable file (`.exe`, `.msi`, `.scr`, `.bat`, `.lnk`, `.hta`…) run or opened. Attachments are
//!   not a distribution channel: a "patch" or "fix" handed out that way is how comment-spam
//!   malware travels. A sentence that warns against it is not an order.
//!
//! Each gated on its necessary words over the file's lowered text; one pass over the lines, with
//! windows of at most twelve lines.

use super::shapes::{found, judged, rel};
use super::{Bundle, File, hosts_in};
use crate::scan::content::{FileKind, Finding};
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Download commands (lower-case); also this rule's raw words.
pub(super) const DOWNLOADS: &[&str] = &[
    "curl ",
    "curl.exe ",
    "wget ",
    "certutil",
    "bitsadmin",
    "invoke-webrequest",
    "iwr ",
    "-outfile",
    "downloadfile(",
];
/// Loaders and installers that run a file given among their arguments (lower-case); also this
/// rule's raw words.
pub(super) const LOADERS: &[&str] = &[
    "msiexec",
    "regsvr32",
    "rundll32",
    "start ",
    "start-process",
    "cmd /c",
    "cmd.exe /c",
    ".exe",
    ".bat",
    ".cmd",
    ".scr",
];
/// Attachment addresses (lower-case); also this rule's raw words.
pub(super) const ATTACHMENT_URLS: &[&str] = &[
    "github.com/user-attachments/",
    "cdn.discordapp.com/attachments/",
    "media.discordapp.net/attachments/",
    "/-/uploads/",
];
/// Files a loader runs or that run when opened (lower-case extensions).
const RUNNABLE: &[&str] = &[
    ".exe", ".msi", ".dll", ".scr", ".bat", ".cmd", ".hta", ".cpl", ".ocx", ".lnk", ".vbs", ".vbe",
    ".wsf", ".jse", ".ps1", ".pif", ".jar",
];
/// Lines that warn instead of ordering (lower-case).
const REFUSALS: &[&str] = &[
    "never ",
    "do not ",
    "don't ",
    "dont ",
    "avoid ",
    "must not",
    "should not",
    "不要",
    "切勿",
];
/// Orders to run or open a file (lower-case).
const RUN_ORDERS: &[&str] = &[
    "run ",
    "run`",
    "open ",
    "launch",
    "execute",
    "double-click",
    "double click",
    "install ",
    "start ",
    "运行",
    "打开",
    "执行",
];

/// Whether the host is somewhere a skill may fetch from.
fn known(class: HostClass) -> bool {
    !class.is_outside()
}

fn refuses(l: &str) -> bool {
    REFUSALS.iter().any(|w| l.contains(w))
}

/// The file name a path or URL ends with, lower-cased, without quotes (`"%TEMP%\a.msi"` → `a.msi`).
fn base_name(s: &str) -> String {
    let s = s.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '(' | ')' | ',' | ';'));
    let s = s.split(['?', '#']).next().unwrap_or(s);
    let name = s.rsplit(['/', '\\']).next().unwrap_or(s);
    crate::ascii_lowered(name).into_owned()
}

/// Whether a file name ends with a runnable extension.
fn runnable(name: &str) -> bool {
    name.len() > 4 && RUNNABLE.iter().any(|e| name.ends_with(e))
}

/// The segments of a command line: split at `&&`, `||`, ` & ` and `;`.
fn segments(line: &str) -> impl Iterator<Item = &str> {
    line.split("&&")
        .flat_map(|s| s.split("||"))
        .flat_map(|s| s.split(" & "))
        .flat_map(|s| s.split(';'))
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The file a download segment writes (its base name), with the URL it fetches.
fn download_target(seg: &str) -> Option<(String, String)> {
    let toks: Vec<&str> = seg.split_whitespace().collect();
    let url_at = toks.iter().position(|t| {
        let t = t.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '(' | ','));
        t.starts_with("http://") || t.starts_with("https://")
    })?;
    let url = toks[url_at]
        .trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '(' | ')' | ','))
        .to_owned();
    let low: Vec<String> = toks
        .iter()
        .map(|t| crate::ascii_lowered(t).into_owned())
        .collect();
    let first = low.iter().position(|t| {
        let t = t.trim_start_matches(['`', '(']);
        t == "curl"
            || t == "curl.exe"
            || t == "wget"
            || t.starts_with("certutil")
            || t == "bitsadmin"
            || t == "invoke-webrequest"
            || t == "iwr"
    });
    let after = |i: usize| toks.get(i + 1).map(|t| base_name(t));
    let mut name = None;
    if let Some(f) = first {
        let cmd = low[f].trim_start_matches(['`', '(']);
        for (i, t) in toks.iter().enumerate().skip(f + 1) {
            let tl = &low[i];
            match cmd {
                "curl" | "curl.exe" => {
                    if *t == "-o" || tl == "--output" {
                        name = after(i);
                    } else if let Some(v) = tl.strip_prefix("--output=") {
                        name = Some(base_name(v));
                    } else if t.starts_with('-')
                        && !t.starts_with("--")
                        && t.len() > 2
                        && t[1..].bytes().all(|c| c.is_ascii_alphabetic())
                    {
                        // Combined short flags: `-sLo F` names F, `-sLO` keeps the URL's name.
                        if t.ends_with('o') {
                            name = after(i);
                        } else if t.ends_with('O') {
                            name = Some(base_name(&url));
                        }
                    } else if *t == "-O" || tl == "--remote-name" {
                        name = Some(base_name(&url));
                    }
                }
                "wget" => {
                    if *t == "-O" || tl == "--output-document" {
                        name = after(i).filter(|n| n != "-");
                    } else if let Some(v) = tl.strip_prefix("--output-document=") {
                        name = Some(base_name(v));
                    }
                }
                "bitsadmin" => {}
                _ if cmd.starts_with("certutil") => {}
                _ => {
                    if tl == "-outfile" {
                        name = after(i);
                    }
                }
            }
        }
        if name.is_none() && (cmd == "wget" || cmd.starts_with("certutil") || cmd == "bitsadmin") {
            // `certutil -urlcache -f URL F`, `bitsadmin /transfer j URL F`: the token after the
            // URL; a bare `wget URL` keeps the URL's name.
            name = match cmd {
                "wget" => Some(base_name(&url)),
                _ => after(url_at),
            };
        }
    } else if low.iter().any(|t| t.contains("downloadfile(")) {
        // `(New-Object Net.WebClient).DownloadFile('URL', 'F')`: the token after the URL.
        name = after(url_at);
    }
    let name = name.filter(|n| runnable(n))?;
    Some((name, url))
}

/// Whether a segment hands the file `name` to a loader or installer, or runs it by name.
fn runs_file(seg: &str, name: &str) -> bool {
    let l = crate::ascii_lowered(seg);
    let named = l.match_indices(name).any(|(p, _)| {
        let before = l[..p].chars().next_back();
        let after = l[p + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    if !named {
        return false;
    }
    let first = l.split_whitespace().next().unwrap_or("");
    let first = first.trim_start_matches(['`', '(', '.', '\\', '/']);
    let loader = [
        "msiexec",
        "regsvr32",
        "rundll32",
        "start",
        "start-process",
        "cmd",
        "cmd.exe",
        "msiexec.exe",
        "regsvr32.exe",
        "rundll32.exe",
        "powershell",
        "powershell.exe",
    ]
    .contains(&first);
    let by_name = base_name(first) == name;
    loader || by_name
}

fn code_or_doc(file: &File<'_>) -> bool {
    !file.place.test && !file.place.signature
}

pub(super) fn download_loader_run(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| code_or_doc(f)) {
        let words = file.words();
        if !words.any(DOWNLOADS) || !words.any(LOADERS) || !words.has("://") {
            continue;
        }
        let lines = &file.lowered().lines;
        let low = &file.lowered().lower;
        'lines: for (i, l) in low.iter().enumerate() {
            if !DOWNLOADS.iter().any(|w| l.contains(w)) || !l.contains("://") || refuses(l) {
                continue;
            }
            let raw = lines[i].trim();
            let segs: Vec<&str> = segments(raw).collect();
            for (k, seg) in segs.iter().enumerate() {
                let Some((name, url)) = download_target(seg) else {
                    continue;
                };
                let Some(host) = hosts_in(&url).into_iter().next() else {
                    continue;
                };
                if known(host.class) {
                    continue;
                }
                // The same line after the download, then the next twelve lines.
                let same = segs[k + 1..].iter().any(|s| runs_file(s, &name));
                let later = (i + 1..low.len().min(i + 13)).find(|&j| {
                    !refuses(&low[j]) && segments(lines[j].trim()).any(|s| runs_file(s, &name))
                });
                let run_at = if same { Some(i) } else { later };
                let Some(r) = run_at else { continue };
                if judged(b, out, file, i) || judged(b, out, file, r) {
                    continue 'lines;
                }
                let related = if r == i {
                    Vec::new()
                } else {
                    vec![rel("run", file, r)]
                };
                new.push(found(
                    "supply_chain.download-loader-run",
                    "supply_chain",
                    Severity::Critical,
                    file,
                    i,
                    format!(
                        "{}:{}: `{name}` is downloaded from {} (a host that is not a known vendor, installer or registry) and {}:{} hands it to a loader or runs it: code from that host runs on this machine, unchecked. Do not install this skill.",
                        file.path,
                        i + 1,
                        host.host,
                        file.path,
                        r + 1
                    ),
                    related,
                ));
                break 'lines;
            }
        }
    }
    out.extend(new);
}

/// Whether a lowered line links an attachment: one of [`ATTACHMENT_URLS`], or a repository's
/// issue attachment (`github.com/<o>/<r>/files/<n>/`).
fn links_attachment(l: &str) -> bool {
    ATTACHMENT_URLS.iter().any(|w| l.contains(w))
        || l.match_indices("github.com/").any(|(p, m)| {
            let rest = &l[p + m.len()..];
            let mut parts = rest.split('/');
            let (_o, _r, files, n) = (parts.next(), parts.next(), parts.next(), parts.next());
            files == Some("files")
                && n.is_some_and(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()))
        })
}

/// The runnable file a lowered line names (`patch.exe`), if any.
fn names_runnable(l: &str) -> Option<String> {
    l.split(|c: char| {
        c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '*' | '(' | ')' | '[' | ']')
    })
    .map(base_name)
    .find(|n| runnable(n) && !n.starts_with('.'))
}

pub(super) fn attachment_executable(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b
        .files
        .iter()
        .filter(|f| code_or_doc(f) && matches!(f.kind, FileKind::Markdown | FileKind::Text))
    {
        let words = file.words();
        if !words.any(ATTACHMENT_URLS) && !words.has("/files/") {
            continue;
        }
        let low = &file.lowered().lower;
        for (i, l) in low.iter().enumerate() {
            if !links_attachment(l) || refuses(l) {
                continue;
            }
            let hit = (i..low.len().min(i + 4)).find_map(|j| {
                let lj = &low[j];
                if refuses(lj) || !RUN_ORDERS.iter().any(|w| lj.contains(w)) {
                    return None;
                }
                names_runnable(lj).map(|n| (j, n))
            });
            let Some((j, name)) = hit else { continue };
            if judged(b, out, file, i) || judged(b, out, file, j) {
                break;
            }
            let related = if j == i {
                Vec::new()
            } else {
                vec![rel("run", file, j)]
            };
            new.push(found(
                "supply_chain.attachment-executable",
                "supply_chain",
                Severity::Critical,
                file,
                i,
                format!(
                    "{}:{}: the user is sent to a file attached to an issue, chat or message and told to run `{name}` from it ({}:{}). Attachments are not how software is released; an executable \"patch\" handed out that way is how comment-spam malware spreads. Do not run it.",
                    file.path,
                    i + 1,
                    file.path,
                    j + 1
                ),
                related,
            ));
            break;
        }
    }
    out.extend(new);
}
