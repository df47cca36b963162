//! A beacon made to run on a schedule (round 33m, `persistence.scheduled-beacon`).
//!
//! A file that installs something to run by itself (a crontab line, a launch agent, a systemd
//! timer, a shell start-up file: a `persistence.*` finding of the same file) and holds a request
//! that sends both the machine's name and the user's (`os.uname().nodename`, `$(hostname)` with
//! `whoami`, `os.getlogin()`, a listing of the home folder) to a host that is neither local nor a
//! known vendor's: every run reports whose machine it is to someone outside. Each half alone is
//! common (a scheduled backup, a health check); together they are how implants check in. The
//! request's lines and the three before it (where the payload is built) are read: linear in bytes.

use super::{At, Bundle, hosts_in};
use crate::scan::content::{Finding, Related};
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// Lines before a request where its payload is built, and lines of the request itself.
const BEFORE: usize = 3;
const AFTER: usize = 4;

/// Marks of the machine's name.
const MACHINE: &[&str] = &[
    "hostname",
    "nodename",
    "uname",
    "computername",
    "machine-id",
    "platform.node(",
];

/// Marks of the user's name or home.
const USER: &[&str] = &[
    "whoami",
    "getlogin(",
    "getuser(",
    "userinfo(",
    "$user",
    "${user}",
    "$env:username",
    "listdir(os.path.expanduser(",
    "os.homedir(",
];

pub(super) fn scheduled_beacon(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let Some(persist) = b
            .prior
            .iter()
            .chain(out.iter())
            .find(|f| f.file == file.path && f.rule_id.starts_with("persistence."))
            .map(|f| (f.line, f.evidence.clone()))
        else {
            continue;
        };
        let lines = &file.lowered().lower;
        for sink in b.in_file(file, FactKind::NetSend) {
            let at = sink.fact.line as usize - 1;
            let window = lines[at.saturating_sub(BEFORE)..(at + AFTER).min(lines.len())].join("\n");
            if !(MACHINE.iter().any(|w| window.contains(w))
                && USER.iter().any(|w| window.contains(w)))
            {
                continue;
            }
            let raw: Vec<&str> = file.lowered().lines[at..(at + AFTER).min(lines.len())].to_vec();
            let Some(host) = hosts_in(&raw.join("\n")).into_iter().find(|h| {
                // A web request (a copy to the user's own backup server by rsync, scp or
                // s3 is not a check-in).
                h.url.starts_with("http") && h.class.is_outside()
            }) else {
                continue;
            };
            out.push(super::finding(
                "persistence.scheduled-beacon",
                "persistence",
                Severity::Critical,
                At { file, fact: sink.fact },
                format!(
                    "This file installs something to run on its own ({}:{}) and its request at {} sends the machine's and the user's names to {} ({}): every scheduled run tells someone outside whose machine this is, which is how implants check in. Do not install this skill.",
                    file.path,
                    persist.0,
                    sink.place(),
                    host.host,
                    host.class.phrase()
                ),
                vec![Related {
                    role: "persistence".into(),
                    file: file.path.into(),
                    line: persist.0,
                    evidence: persist.1,
                }],
            ));
            break;
        }
    }
}
