//! A Python package's install code that reports the machine to an outside host (round 38m,
//! `supply_chain.install-hook-beacon`).
//!
//! `pip install` of a source package runs its `setup.py` (module-level code, and any `install` /
//! `develop` / `egg_info` command class it registers) without anyone reading it. The classic
//! typosquat puts a request there that carries who installed it — the user name, the host name,
//! the machine's node name, the environment — to a host of its own. A build script that downloads
//! its own prebuilt library names at most the platform (`platform.system()`, `machine()`), not the
//! user or the host; a vendor's, installer's or registry's host, or this machine, is no collector.
//!
//! Facts, in a file named `setup.py`: a line that reads an identity datum (`getpass.getuser()`,
//! `os.getlogin()`, `socket.gethostname()`, `platform.node()`, `uname().node`, `dict(os.environ)`,
//! `os.environ.copy()`, `expanduser("~")`); and, within [`REACH`] lines after it, a line making a
//! request (`urlopen`, `requests.`, `httpx.`, `urllib.request`, `http.client`, `urlretrieve`, a
//! socket `sendto`) that names, on it or its next three lines, a host which is not local, a vendor's, an installer's or a
//! registry's. Judged: `critical`, the request line as evidence and the datum line related (the
//! npm twin is `install_beacon.rs`). One pass over the file's lowered lines; windows bounded.

use super::shapes::suspicious;
use super::{Bundle, hosts_in};
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::rules::Severity;

/// Lines after the datum within which the request may stand.
const REACH: usize = 40;

/// Calls that read who or what the machine is (lower-case).
pub(super) const IDENTITY: &[&str] = &[
    "getpass.getuser(",
    "getuser()",
    "os.getlogin(",
    "getlogin()",
    "socket.gethostname(",
    "gethostname()",
    "platform.node(",
    "uname().node",
    "dict(os.environ",
    "os.environ.copy(",
    "expanduser(\"~\")",
    "expanduser('~')",
];

/// Calls that make a request (lower-case).
const REQUESTS: &[&str] = &[
    "urlopen(",
    "requests.get(",
    "requests.post(",
    "requests.put(",
    "httpx.",
    "urllib.request.",
    "http.client.",
    "httpsconnection(",
    "httpconnection(",
    "urlretrieve(",
    ".sendto(",
];

fn is_setup_py(path: &str) -> bool {
    path == "setup.py" || path.ends_with("/setup.py")
}

pub(super) fn setup_beacon(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b.files.iter().filter(|f| is_setup_py(f.path)) {
        let lw = file.lowered();
        let Some(first) = lw
            .lower
            .iter()
            .position(|l| IDENTITY.iter().any(|w| l.contains(w)))
        else {
            continue;
        };
        let mut datum = first;
        for i in first..lw.lower.len() {
            let l = &lw.lower[i];
            if IDENTITY.iter().any(|w| l.contains(w)) {
                datum = i;
            }
            if i > datum + REACH || l.starts_with('#') {
                continue;
            }
            let Some(call) = REQUESTS.iter().find(|c| l.contains(*c)) else {
                continue;
            };
            let raw = lw.lines[i];
            // The URL may stand on the call's next lines (its arguments).
            let Some(host) = (i..(i + 4).min(lw.lines.len())).find_map(|k| {
                hosts_in(lw.lines[k])
                    .into_iter()
                    .find(|h| suspicious(h.class))
            }) else {
                continue;
            };
            let d = lw.lines[datum].trim();
            out.push(Finding {
                rule_id: "supply_chain.install-hook-beacon".into(),
                category: "supply_chain".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw.trim(), 0, raw.trim().len()),
                description: format!(
                    "{}:{}: the package's setup.py, which `pip install` runs unasked, makes a request (`{}`) to {} ({}) after reading who installed it ({}:{}: `{}`): an install-time beacon. A build step has no reason to report the user or the machine. Do not install it.",
                    file.path,
                    i + 1,
                    call.trim_end_matches('('),
                    host.host,
                    host.class.phrase(),
                    file.path,
                    datum + 1,
                    d,
                ),
                related: vec![Related {
                    role: "identity read".into(),
                    file: file.path.into(),
                    line: datum + 1,
                    evidence: evidence(d, 0, d.len()),
                }],
            });
            break;
        }
    }
}
