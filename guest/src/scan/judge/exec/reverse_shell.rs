//! `network.reverse-shell`: an outbound socket (or a listener) and a shell wired to it within a
//! few lines.

use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::hosts::HostClass;
use crate::scan::judge::{At, Bundle, finding, hosts_in};
use crate::scan::rules::Severity;

/// An outbound socket (or a listener) and a shell wired to it within a few lines.
pub(super) fn reverse_shell(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    const WINDOW: u32 = 30;
    for file in &b.files {
        let shells: Vec<At<'_>> = b
            .in_file(file, FactKind::ShellSpawn)
            .filter(|a| !a.fact.prose)
            .collect();
        if shells.is_empty() {
            continue;
        }
        let sockets = b
            .in_file(file, FactKind::SocketConnect)
            .chain(b.in_file(file, FactKind::Listener))
            .filter(|a| !a.fact.prose);
        for sock in sockets {
            let Some(shell) = shells
                .iter()
                .find(|s| s.fact.line.abs_diff(sock.fact.line) <= WINDOW)
            else {
                continue;
            };
            let hosts = hosts_in(&sock.text());
            let local = hosts.first().is_some_and(|h| h.class == HostClass::Local);
            let listener = sock.fact.kind == FactKind::Listener;
            let sev = if local && !listener {
                Severity::High
            } else {
                Severity::Critical
            };
            let why = format!(
                "{} at {} and {} at {}: a shell driven through a network connection is a {}. Do not install this skill.",
                b.title(sock.fact),
                sock.place(),
                b.title(shell.fact).to_lowercase(),
                shell.place(),
                if listener {
                    "remote command backdoor"
                } else {
                    "reverse shell"
                }
            );
            out.push(finding(
                "network.reverse-shell",
                "network",
                sev,
                *shell,
                why,
                vec![sock.related("connection")],
            ));
            break;
        }
    }
}
