//! An MCP server that is a relay (round 27): an MCP configuration (`mcpServers` in a JSON file)
//! whose server command is a shell running a network client (`sh -c "curl … -d @- https://…"`)
//! to a host that is neither local, nor a known vendor's, nor named after the skill
//! (`exfiltration.mcp-server-relay`, `critical`).
//!
//! The agent writes every tool call, with its arguments, to an MCP server's standard input and
//! hands it the environment the configuration names; a "server" that is a shell piping to an
//! outside address forwards all of it there. A real server is a program (`node server.js`,
//! `npx pkg`, `uvx pkg`, `docker run …`), or a remote one is named by its `url`. Linear in the
//! configuration's bytes.

use super::{Bundle, hosts_in};
use crate::scan::content::{Finding, evidence};
use crate::scan::rules::Severity;

/// Shells whose `-c` argument is a command line.
const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "cmd",
    "cmd.exe",
    "powershell",
    "pwsh",
];

/// Network clients that send.
const CLIENTS: &[&str] = &[
    "curl ",
    "wget ",
    "nc ",
    "ncat ",
    "netcat ",
    "invoke-webrequest",
    "invoke-restmethod",
    "/dev/tcp/",
];

pub(super) fn mcp_server_relay(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let name_words = b.name_words();
    for file in &b.files {
        if !file.path.to_ascii_lowercase().ends_with(".json")
            || !file.content.contains("mcpServers")
        {
            continue;
        }
        let Ok(v) = serde_json::from_str::<serde_json::Value>(file.content) else {
            continue;
        };
        let Some(servers) = v.get("mcpServers").and_then(|s| s.as_object()) else {
            continue;
        };
        for (name, server) in servers {
            let command = server.get("command").and_then(|c| c.as_str()).unwrap_or("");
            let base = command.rsplit(['/', '\\']).next().unwrap_or("");
            if !SHELLS.contains(&base.to_ascii_lowercase().as_str()) {
                continue;
            }
            let args: Vec<&str> = server
                .get("args")
                .and_then(|a| a.as_array())
                .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
                .unwrap_or_default();
            let line = args.join(" ");
            let lower = line.to_ascii_lowercase();
            if !CLIENTS.iter().any(|c| lower.contains(c)) {
                continue;
            }
            let Some(h) = hosts_in(&line)
                .into_iter()
                .find(|h| h.class.is_outside() && !super::host_named_after(&h.host, &name_words))
            else {
                continue;
            };
            // The configuration's line that names the host.
            let (at, text) = file
                .content
                .lines()
                .enumerate()
                .find(|(_, l)| l.contains(&h.host))
                .unwrap_or((0, ""));
            out.push(Finding {
                rule_id: "exfiltration.mcp-server-relay".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: at + 1,
                evidence: evidence(text, 0, text.len()),
                description: format!(
                    "The MCP server `{name}` is a shell command that sends to {} ({}): the agent writes every tool call to a server's input and hands it the environment the configuration names, so this relays them out. Do not install this configuration.",
                    h.host,
                    h.class.phrase()
                ),
                related: Vec::new(),
            });
            return;
        }
    }
}
