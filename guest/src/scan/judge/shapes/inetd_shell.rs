//! Round 41t (sets41t): `network.reverse-shell` for a network service whose program is a shell —
//! an xinetd service block (`server = /bin/sh`) or an `inetd.conf` line (`31337 stream tcp nowait
//! root /bin/sh sh -i`), or (round 45t) a systemd service whose standard input is the accepted
//! socket (`StandardInput=socket`) and whose `ExecStart=` is a shell. Whoever connects to the port gets the shell (a bind shell); no service a
//! skill installs needs a bare shell as its server. One pass over the file's lines.

use super::{found, has};
use crate::scan::content::Finding;
use crate::scan::judge::find::Has;
use crate::scan::judge::{Bundle, File};
use crate::scan::rules::Severity;

const RULE: &str = "network.reverse-shell";
/// Words without one of which this rule cannot fire (chained into `prose::reads_raw_text`, so a
/// lone text is judged when it holds one).
pub(super) const RAW: &[&str] = &["socket_type", "nowait", "standardinput=socket"];
/// Shells that read commands from their standard input.
const SHELLS: &[&str] = &[
    "/bin/sh",
    "/bin/bash",
    "/bin/dash",
    "/bin/zsh",
    "/bin/ksh",
    "/usr/bin/sh",
    "/usr/bin/bash",
];

/// The shell a program field names exactly (`/bin/sh`, not `/bin/shutdown` or a script below it).
fn shell_named(v: &str) -> Option<&'static str> {
    let first = v.split_whitespace().next()?;
    SHELLS.iter().copied().find(|s| first == *s)
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if f.place.test || has(out, f, RULE, Severity::Critical) {
            continue;
        }
        // Necessary words: an xinetd block's `socket_type`, or an inetd line's `nowait`.
        let all = f.lower_all();
        if !RAW.iter().any(|w| all.has(w)) {
            continue;
        }
        out.extend(service_shell(f));
    }
}

fn service_shell(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    let xinetd = low
        .iter()
        .any(|l| l.trim_start().starts_with("socket_type"));
    // Round 45t: a systemd service fed by a socket unit (`StandardInput=socket`, the connection
    // made the program's standard input) whose `ExecStart=` is a shell.
    let socket_fed = low.iter().any(|l| l.trim() == "standardinput=socket");
    for (i, l) in low.iter().enumerate() {
        let t = l.trim();
        // xinetd: `server = /bin/sh` in a file with a `socket_type` line.
        let shell = if xinetd
            && let Some(v) = t.strip_prefix("server").map(str::trim_start)
            && let Some(v) = v.strip_prefix('=')
        {
            shell_named(v)
        } else if socket_fed && let Some(v) = t.strip_prefix("execstart=") {
            // `-`, `@`, `!` … prefixes change how systemd runs the program, not which.
            shell_named(v.trim_start_matches(['-', '@', '!', '+', ':']))
        } else {
            // inetd.conf: service, socket type, protocol, wait, user, server program, arguments.
            let fields: Vec<&str> = t.split_whitespace().collect();
            (fields.len() >= 6
                && matches!(fields[1], "stream" | "dgram")
                && fields[3].starts_with("nowait")
                && (fields[2].starts_with("tcp") || fields[2].starts_with("udp")))
            .then(|| shell_named(fields[5]))
            .flatten()
        };
        let Some(sh) = shell else { continue };
        return Some(found(
            RULE,
            "network",
            Severity::Critical,
            f,
            i,
            format!(
                "A network service runs {sh} as its program: whoever connects to its port gets a shell on this machine (a bind shell)."
            ),
            vec![],
        ));
    }
    None
}
