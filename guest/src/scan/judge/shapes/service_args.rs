//! Round 42t (sets42t): `network.reverse-shell` in a service definition that gives the program and
//! its arguments on separate lines (OpenRC's `command=` and `command_args=`): a netcat-family
//! program whose arguments hand the connection to a shell (`-e /bin/bash`, `-c`, `EXEC:`), the
//! two lines read as the one command the service runs.

use super::{found, has, is_code, rel};
use crate::scan::content::Finding;
use crate::scan::judge::Bundle;
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &["command_args"];
/// Lines after `command=` within which its arguments are looked for.
const WINDOW: usize = 6;
/// Programs that connect or listen and can hand the connection to another program.
const RELAYS: &[&str] = &["nc", "ncat", "netcat", "socat"];
/// Arguments that hand the connection to a shell.
const TO_SHELL: &[&str] = &[
    " -e /bin/",
    " -e sh",
    " -e bash",
    " -c /bin/",
    "--sh-exec",
    "exec:/bin/",
    "exec:sh",
    "exec:bash",
    "system:",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if !is_code(f)
            || !f.lower_all().has("command_args")
            || has(out, f, "network.reverse-shell", Severity::Critical)
        {
            continue;
        }
        let low = &f.lowered().lower;
        for (i, l) in low.iter().enumerate() {
            let Some(prog) = value(l, "command=") else {
                continue;
            };
            let name = prog.rsplit('/').next().unwrap_or(prog);
            if !RELAYS.contains(&name) {
                continue;
            }
            let end = (i + WINDOW).min(low.len());
            let Some(k) = (i + 1..end).find(|&k| {
                value(&low[k], "command_args=").is_some_and(|a| {
                    let a = format!(" {a}");
                    TO_SHELL.iter().any(|w| a.has(w))
                })
            }) else {
                continue;
            };
            out.push(found(
                "network.reverse-shell",
                "network",
                Severity::Critical,
                f,
                k,
                format!(
                    "The service runs `{name}` (line {}) with arguments that hand its connection to a shell (line {}): a remote shell kept running as a service.",
                    i + 1,
                    k + 1
                ),
                vec![rel("source", f, i)],
            ));
            break;
        }
    }
}

/// The value of `key` when the line assigns it (`key="v"`, `key='v'`, `key=v`).
fn value<'l>(l: &'l str, key: &str) -> Option<&'l str> {
    let rest = l.trim_start().strip_prefix(key)?;
    Some(rest.trim().trim_matches(['"', '\'']).trim())
}
