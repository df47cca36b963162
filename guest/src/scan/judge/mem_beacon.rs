//! Exfiltration that earlier rules rated below `critical` (round 44m, held-out set 22).
//!
//! - `exfiltration.process-memory`: a code file that reads another process's memory
//!   (`/proc/<pid>/mem`, `process_vm_readv`, `ReadProcessMemory`) and sends a request to a host
//!   that is not local, a vendor, an installer or a registry. Reading a CI runner's memory is how
//!   masked secrets are recovered; a debugger reads memory and sends nothing, a monitor reads
//!   `/proc/meminfo` (not a process's memory).
//! - `exfiltration.identity-beacon`: a download command (`curl`, `wget`, `Invoke-WebRequest`)
//!   whose address, on a host that is not local, a vendor, an installer or a registry, carries the
//!   machine's or the user's identity by command substitution in its path or query
//!   (`$(hostname)`, `$(whoami)`, `$(uname -n)`, `$(id …)`). Nothing a skill does needs to tell a
//!   stranger which machine ran it; a line already judged `critical` keeps its finding alone.
//!   `$(uname -s)` / `$(uname -m)` pick a platform's download and name no one: not identity.
//!
//! Each gated on its necessary words over the file's lowered text, one pass over the lines.

use super::shapes::{found, judged, rel};
use super::{Bundle, hosts_in};
use crate::scan::content::Finding;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Reads of another process's memory (lower-case); also this rule's raw words.
pub(super) const MEM_READS: &[&str] = &["/mem", "process_vm_readv", "readprocessmemory"];
/// Request calls (lower-case).
const SENDS: &[&str] = &[
    "urlopen(",
    "requests.post(",
    "requests.put(",
    "httpx.post(",
    "fetch(",
    "http.request(",
    "https.request(",
    "axios",
    "curl ",
    "invoke-webrequest",
    "http.post(",
];
/// Identity by command substitution (lower-case); also this rule's raw words.
pub(super) const IDENTITY_SUBS: &[&str] = &[
    "$(hostname",
    "$(whoami",
    "$(uname -n",
    "$(uname -a",
    "/uname -n",
    "$(id ",
    "$(id)",
    "`hostname`",
    "`whoami`",
    "$(cat /etc/hostname",
    "${hostname}",
    "$env:computername",
    "$env:username",
];
/// Download commands (lower-case).
const FETCH: &[&str] = &["curl ", "wget ", "invoke-webrequest", "iwr ", "irm "];

fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [
        ".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".bash", ".go", ".rs", ".rb", ".ps1", ".c",
    ]
    .iter()
    .any(|e| p.ends_with(e))
}

/// Whether the host is somewhere a skill may send to.
fn known(class: HostClass) -> bool {
    !class.is_outside()
}

/// Words by which a skill's front matter (name, description) declares a monitoring or reporting
/// job, where a request naming the machine is what the skill is for (a heartbeat to a cron
/// monitor, an uptime push, an alert that says which host failed).
const MONITORING: &[&str] = &[
    "heartbeat",
    "uptime",
    "monitor",
    "health check",
    "healthcheck",
    "status page",
    "alert",
    "dead man",
    "cron job",
    "心跳",
    "监控",
    "告警",
];

/// Whether the lower-cased front matter declares a monitoring job ([`MONITORING`]).
fn declares_monitoring(front: &str) -> bool {
    MONITORING.iter().any(|w| front.contains(w))
}

/// Whether the line reads a process's memory (`/proc/<pid>/mem`, not `/proc/meminfo`).
fn reads_memory(l: &str) -> bool {
    if l.contains("process_vm_readv") || l.contains("readprocessmemory") {
        return true;
    }
    l.contains("/proc/")
        && l.match_indices("/mem").any(|(p, m)| {
            !l[p + m.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

pub(super) fn process_memory(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| !f.place.test && !f.place.signature && is_code(f.path))
    {
        let words = file.words();
        if !words.any(MEM_READS) || !words.any(SENDS) || !words.has("://") {
            continue;
        }
        let low = &file.lowered().lower;
        let Some(m) = low.iter().position(|l| reads_memory(l)) else {
            continue;
        };
        let outside = hosts_in(file.content).iter().any(|h| !known(h.class));
        let Some(s) = low.iter().position(|l| SENDS.iter().any(|w| l.contains(w))) else {
            continue;
        };
        if !outside {
            continue;
        }
        out.push(found(
            "exfiltration.process-memory",
            "exfiltration",
            Severity::Critical,
            file,
            m,
            format!(
                "{}:{}: the code reads another process's memory, and sends a request to a host that is not a vendor's (line {}). Reading a process's memory is how secrets a CI runner or an agent keeps masked are recovered; sending them away is theft: do not install this skill.",
                file.path,
                m + 1,
                s + 1
            ),
            vec![rel("request", file, s)],
        ));
    }
}

pub(super) fn identity_beacon(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    let mut declared_monitoring: Option<bool> = None;
    for file in b
        .files
        .iter()
        .filter(|f| !f.place.test && !f.place.signature)
    {
        let words = file.words();
        if !words.any(IDENTITY_SUBS)
            || !words.any(FETCH)
            || !words.has("://")
            || super::agent_cfg_run::file_judged(b, out, file)
        {
            continue;
        }
        let low = &file.lowered().lower;
        let lines = &file.lowered().lines;
        for (i, l) in low.iter().enumerate() {
            if !FETCH.iter().any(|w| l.contains(w)) || !IDENTITY_SUBS.iter().any(|w| l.contains(w))
            {
                continue;
            }
            let carried = hosts_in(lines[i]).into_iter().find(|h| {
                let host = h.host.to_ascii_lowercase();
                !known(h.class)
                    && l.find(&host).is_some_and(|p| {
                        IDENTITY_SUBS
                            .iter()
                            .any(|w| l[p + host.len()..].contains(w))
                    })
            });
            let Some(h) = carried else { continue };
            if judged(b, out, file, i) {
                break;
            }
            let monitoring = *declared_monitoring
                .get_or_insert_with(|| declares_monitoring(&super::prose::front_matter(b)));
            let (severity, why) = if monitoring {
                (
                    Severity::High,
                    format!(
                        "The skill says it monitors or reports (a heartbeat, uptime or alert service), where naming the machine is the point: check that {} is the service you use before installing.",
                        h.host
                    ),
                )
            } else {
                (
                    Severity::Critical,
                    "A skill has no need to tell a stranger which machine ran it; that report is how attackers pick their targets: do not install this skill.".to_owned(),
                )
            };
            new.push(found(
                "exfiltration.identity-beacon",
                "exfiltration",
                severity,
                file,
                i,
                format!(
                    "{}:{}: the command sends this machine's or this user's identity (a command substitution in the address) to {}{}. {why}",
                    file.path,
                    i + 1,
                    h.host,
                    if monitoring { "" } else { " (a host that is not a known vendor)" },
                ),
                Vec::new(),
            ));
            break;
        }
    }
    out.extend(new);
}
