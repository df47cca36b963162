//! `network.socat-exec` when a config names the command and its arguments apart (round 50k).
//!
//! The one-line rule reads `socat … exec:…` on one line. Launch configs name the program under one
//! key and its arguments under another, often on the next lines: a terminal multiplexer's layout
//! (`pane command="socat" {` then `args "exec:bash -li,pty" "tcp:HOST:PORT"`), an MCP server or
//! task entry (`"command": "socat",` then `"args": ["exec:sh", …]`), a YAML service
//! (`command: socat` then `args:` and a list). The program is still socat and its arguments still
//! hand a program to the network: a backdoor, whatever layout wraps it.
//!
//! Facts, in one file: a line whose command key's value is `socat` ([`command_is_socat`]) and,
//! within [`WINDOW`] lines after it, an argument holding `exec:` or `system:`. Judged `critical` at
//! the argument's line with the command's line related. A socat forwarding between two addresses
//! (`tcp-listen:8080,fork` `tcp:localhost:3000`) hands no program over and is not judged.

use super::Bundle;
use super::shapes::{found, judged, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// The gate: a file without it cannot name socat.
pub(super) const GATE: &[&str] = &["socat"];

/// Lines after the command key within which its arguments are looked for.
const WINDOW: usize = 6;

/// Whether a lowered line sets a command key to `socat` (`command="socat"`, `command: socat`,
/// `"command": "socat"`, `command = ["socat"`, `cmd: socat`).
fn command_is_socat(l: &str) -> bool {
    ["command", "cmd", "program", "executable"].iter().any(|k| {
        l.match_indices(k).any(|(at, _)| {
            let before_ok = at == 0
                || !l.as_bytes()[at - 1].is_ascii_alphanumeric() && l.as_bytes()[at - 1] != b'_';
            let rest = l[at + k.len()..]
                .trim_start_matches(['"', '\''])
                .trim_start();
            let Some(rest) = rest.strip_prefix(['=', ':']) else {
                return false;
            };
            let v = rest.trim_start().trim_start_matches(['"', '\'', '[', ' ']);
            before_ok
                && v.strip_prefix("socat")
                    .is_some_and(|r| r.is_empty() || r.starts_with(['"', '\'', ' ', ',', ']']))
        })
    })
}

/// Whether a lowered line hands socat a program (`exec:`, `system:`) as an argument.
fn runs_program(l: &str) -> bool {
    ["exec:", "system:"].iter().any(|w| {
        l.match_indices(w).any(|(at, _)| {
            at == 0
                || matches!(
                    l.as_bytes()[at - 1],
                    b'"' | b'\'' | b' ' | b',' | b'[' | b'\t'
                )
        })
    })
}

pub(super) fn split_socat_exec(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in &b.files {
        if file.place.test || file.place.signature || !file.words().any(GATE) {
            continue;
        }
        let low = &file.lowered().lower;
        for (i, l) in low.iter().enumerate() {
            if !command_is_socat(l) || runs_program(l) {
                continue;
            }
            let Some(k) = (i + 1..(i + 1 + WINDOW).min(low.len())).find(|&k| runs_program(&low[k]))
            else {
                continue;
            };
            if judged(b, out, file, k) {
                continue;
            }
            new.push(found(
                "network.socat-exec",
                "network",
                Severity::Critical,
                file,
                k,
                format!(
                    "socat is named as the command at line {} and handed a program at line {} (`exec:`/`system:`): it connects that program to the network, a backdoor, whichever config layout splits the command from its arguments.",
                    i + 1,
                    k + 1
                ),
                vec![rel("signal", file, i)],
            ));
            break;
        }
    }
    out.extend(new);
}

#[cfg(test)]
mod tests {
    use super::{command_is_socat, runs_program};

    #[test]
    fn command_keys_and_program_arguments() {
        assert!(command_is_socat("    pane command=\"socat\" {"));
        assert!(command_is_socat("      \"command\": \"socat\","));
        assert!(command_is_socat("    command: socat"));
        assert!(!command_is_socat("    command: socat-helper"));
        assert!(!command_is_socat("    subcommand=\"socat\""));
        assert!(runs_program(
            "        args \"exec:sh -i,pty\" \"tcp:host:1\""
        ));
        assert!(runs_program(
            "      \"args\": [\"system:bash\", \"tcp:h:1\"]"
        ));
        assert!(!runs_program(
            "        args \"tcp-listen:8080,fork\" \"tcp:localhost:3000\""
        ));
        assert!(!runs_program("    restart: on-failure # reexec:no"));
    }
}
