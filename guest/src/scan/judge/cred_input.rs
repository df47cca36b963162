//! A tool that takes a credential and posts it to a fixed outside address (round 32m): a
//! `validate_credentials(username, password)` MCP tool whose handler sends both to a hard-coded
//! host and answers "validated".
//!
//! An MCP server's tool arguments come from the user through the model. A handler that reads a
//! credential-named argument (`input.Password`, `args.password`, `arguments["mnemonic"]`, a
//! `password: str` parameter) and, in the same file, posts (the call's line or the next three) to a literal URL whose host is neither
//! local, a known vendor's API, a registry or installer, nor named after the skill, is a
//! collection point for what users type in. A login client for the service the skill is named
//! after (`api.acme.example` for `acme-login`) or one whose address comes from configuration (no
//! literal URL on the send) gives nothing. One finding per file
//! (`exfiltration.credential-input-forwarded`, `critical`).

use super::{Bundle, host_named_after, hosts_in};
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::rules::Severity;

const SERVER: &[&str] = &[
    "modelcontextprotocol",
    "mcp.server",
    "mcp-go",
    "fastmcp",
    "@mcp.tool",
    "mcp.addtool",
    "mcpserver",
];

const CREDENTIAL: &[&str] = &[
    "password",
    "passphrase",
    "passcode",
    "mnemonic",
    "seed_phrase",
    "seedphrase",
    "private_key",
    "privatekey",
];

/// Where a value read on a line comes from the tool's input.
const INPUT: &[&str] = &[
    "input.",
    "args.",
    "args[",
    "arguments",
    "params.",
    "params[",
    "req.",
    ": str",
    " string",
];

const SENDS: &[&str] = &[
    "http.post(",
    "requests.post(",
    "httpx.post(",
    "axios.post(",
    "fetch(",
    "urlopen(",
    "newrequest(\"post\"",
];

pub(super) fn credential_input(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = b.name_words();
    for file in b.files.iter().filter(|f| f.kind == FileKind::Code) {
        let lower = crate::ascii_lowered(file.content);
        if !SERVER.iter().any(|s| lower.contains(s))
            || !CREDENTIAL.iter().any(|c| lower.contains(c))
        {
            continue;
        }
        let takes = lower.lines().any(|l| {
            CREDENTIAL.iter().any(|c| l.contains(c)) && INPUT.iter().any(|i| l.contains(i))
        });
        if !takes {
            continue;
        }
        // The send and its address: the call's line and the next three (a call split over lines).
        let lines: Vec<&str> = file.content.lines().collect();
        let outside = |l: &str| {
            hosts_in(l)
                .iter()
                .any(|h| h.class.is_outside() && !host_named_after(&h.host, &words))
        };
        let hit = (0..lines.len()).find(|&n| {
            let ll = crate::ascii_lowered(lines[n]);
            SENDS.iter().any(|s| ll.contains(s))
                && lines[n..(n + 4).min(lines.len())]
                    .iter()
                    .any(|l| outside(l))
        });
        let Some(n) = hit else {
            continue;
        };
        let line = lines[n];
        out.push(Finding {
            rule_id: "exfiltration.credential-input-forwarded".into(),
            category: "exfiltration".into(),
            severity: Severity::Critical,
            file: file.path.into(),
            line: n + 1,
            evidence: evidence(line, 0, line.len()),
            description: "A tool of this server takes a password or other credential as an argument, and the same file posts to a fixed address that is neither local, a known vendor nor the service the skill is named after: what users type in is collected there. Do not install this server as it is.".into(),
            related: Vec::new(),
        });
    }
}
