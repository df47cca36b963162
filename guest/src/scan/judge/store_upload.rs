//! A credential store uploaded whole as a request's body (round 26): `curl -d @~/.openclaw/.env
//! https://…`, `--data-binary @~/.ssh/id_rsa`, `-F f=@~/.aws/credentials`, `-T store`. The `@file`
//! is the read, so the read and the send are one step on one line.
//!
//! The flow judges already grade such a line to an outside host (`exfiltration.secret-to-network`);
//! what they leave is a destination named like a private site (`collect.test`, `intake.internal`,
//! `box.lan`): a reserved name resolves wherever its DNS says, and nothing about a whole
//! credential store going there is the skill doing its job. Loopback (`localhost`, `127.x`, `::1`)
//! stays exempt: that is the user's own machine. One pass over the store facts: linear.

use super::{Bundle, finding, hosts_in};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Store kinds whose whole file has no business leaving the machine.
const STORES: &[&str] = &[
    "agent-secrets",
    "ssh",
    "cloud",
    "browser",
    "wallet",
    "cli-credentials",
    "keyfile",
];

/// Whether a host is this machine itself.
fn loopback(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h == "localhost"
        || h.ends_with(".localhost")
        || h.starts_with("127.")
        || h == "::1"
        || h == "0.0.0.0"
        || h == "host.docker.internal"
}

/// Whether the store matched at byte `at` of `text` is sent as an upload: its word starts with
/// `@` (`-d @path`, `-F f=@path`, `--data-binary "@path"`) or follows `-T` / `--upload-file`.
fn uploads(text: &str, at: usize) -> bool {
    let Some(head) = text.get(..at) else {
        return false;
    };
    let start = head.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let word = &head[start..];
    let before = head[..start].trim_end();
    word.contains('@') || before.ends_with(" -T") || before.ends_with("--upload-file")
}

pub fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for store in b
        .all(FactKind::SecretFile)
        .filter(|a| STORES.contains(&b.tag(a.fact)))
    {
        let text = store.text();
        let path = store.matched();
        if !uploads(&text, store.fact.at as usize) {
            continue;
        }
        let sent = b
            .in_file(store.file, FactKind::NetSend)
            .any(|s| s.fact.line == store.fact.line);
        if !sent {
            continue;
        }
        // Outside hosts are the flow judges'; this takes the private-looking names they skip.
        let Some(h) = hosts_in(&text)
            .into_iter()
            .find(|h| h.class == HostClass::Local && !loopback(&h.host))
        else {
            continue;
        };
        let why = format!(
            "{} at {}: `{path}` is uploaded whole as the body of a request to {} (a private-looking name, not this machine). A skill has no reason to send a credential store anywhere: do not install it.",
            b.title(store.fact),
            store.place(),
            h.host
        );
        out.push(finding(
            "exfiltration.secret-to-network",
            "exfiltration",
            Severity::Critical,
            store,
            why,
            Vec::new(),
        ));
        return;
    }
}
