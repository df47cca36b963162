//! What a skill says about itself against what its code does.
//!
//! - `exfiltration.undeclared-send`: the skill tells its reader it works offline or that nothing
//!   leaves the machine (`offline-claim`), and a script of the bundle posts data to a host that is
//!   neither local nor a known vendor's: the claim is what keeps a reader from looking for the
//!   send. `high`; `critical` when the host is a raw IP, collector, paste site or tunnel, or when
//!   the request carries the machine's or the user's name (a beacon).

use super::flow::FileFlow;
use super::secrets::destination;
use super::{Bundle, finding};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// Lines of a request (from its first) searched for a body or a POST.
const REQUEST_LINES: usize = 4;

/// Whether a request line carries data out (a body, a form, a POST), not only fetches.
pub(super) fn carries_data(text: &str) -> bool {
    [
        " -d ",
        " -d\"",
        "--data",
        " -F ",
        "--form",
        "-X POST",
        "-XPOST",
        "json=",
        "data=",
        "files=",
        "body:",
        "\"POST\"",
        "'POST'",
        ".post(",
        ".Post(",
        "-Method Post",
        "-Body ",
    ]
    .iter()
    .any(|w| text.contains(w))
}

/// Whether a request's text carries who or where the user is: the machine's name, the user's
/// login, a machine identifier or the system's description (`$(hostname)`, `whoami`,
/// `socket.gethostname()`, `os.userInfo()`, `$env:COMPUTERNAME`, `/etc/machine-id`…). Sent to a
/// fixed address, that is a beacon: it tells someone whose machine runs the skill.
pub(crate) fn fingerprint(text: &str) -> bool {
    const MARKS: &[&str] = &[
        "$(hostname",
        "`hostname",
        "${hostname}",
        "$hostname",
        "gethostname(",
        "platform.node(",
        "platform.uname(",
        "os.uname(",
        "os.hostname(",
        "os.userinfo(",
        "getpass.getuser(",
        "os.getlogin(",
        "$(whoami",
        "`whoami",
        "$env:computername",
        "$env:username",
        "machine-id",
        "machineid",
        "uuid.getnode(",
        "$(uname",
        "popen('hostname'",
        "popen(\"hostname\"",
        "popen('whoami'",
        "popen(\"whoami\"",
    ];
    let t = text.to_ascii_lowercase();
    MARKS.iter().any(|m| t.contains(m))
}

/// Whether a request line's URL query carries the machine's or the user's name
/// (`https://h.example/c?u=$(whoami)`): [`fingerprint`] read after the line's first `?`.
fn query_beacon(line: &str) -> bool {
    line.find("://")
        .and_then(|i| line[i..].find('?').map(|q| i + q))
        .is_some_and(|q| fingerprint(&line[q..]))
}

pub fn judge(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    let Some(claim) = b.all(FactKind::OfflineClaim).next() else {
        return;
    };
    for (file, flow) in b.files.iter().zip(flows) {
        for sink in b.in_file(file, FactKind::NetSend).filter(|s| !s.fact.prose) {
            // The request and the lines after it (a call's options often follow on the next
            // lines: `fetch(url, {` / `method: "POST"`).
            let from = sink.fact.start as usize;
            let window: String = file
                .content
                .get(from..)
                .unwrap_or("")
                .split_inclusive('\n')
                .take(REQUEST_LINES)
                .collect();
            // Round 33m: a plain GET whose query names the machine or the user
            // (`?u=$(whoami)`) sends that name as surely as a body does.
            if !carries_data(&window) && !query_beacon(&sink.text()) {
                continue;
            }
            let idx = file.facts.index_of(sink.fact);
            let (Some(dest), _) = destination(b, file, flow, idx) else {
                continue;
            };
            if !dest.class.is_outside() {
                continue;
            }
            // What it sends names the machine or the user: the denied send is a beacon.
            let beacon = fingerprint(&window);
            let sev = if dest.class.is_suspicious() || beacon {
                Severity::Critical
            } else {
                Severity::High
            };
            let why = format!(
                "This request sends data to {} ({}){}, while {} says the skill works offline or that nothing leaves the machine: a send the description denies is one nobody reviewing it looks for.{}",
                dest.host,
                dest.class.phrase(),
                if beacon {
                    ", with the machine's or the user's name in it"
                } else {
                    ""
                },
                claim.place(),
                if sev == Severity::Critical {
                    " Do not install this skill."
                } else {
                    " Check what is sent before installing."
                }
            );
            out.push(finding(
                "exfiltration.undeclared-send",
                "exfiltration",
                sev,
                sink,
                why,
                vec![claim.related("claim")],
            ));
            return;
        }
    }
}
