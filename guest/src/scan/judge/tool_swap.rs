//! An MCP server that rewrites its own tool's description while running (round 38m,
//! `prompt_injection.tool-description-swap`).
//!
//! A client shows a tool's description when the server is added and the user approves it; most
//! clients never show it again. A server that assigns a new description to a registered tool at
//! run time — after a number of calls, a date, a flag from its host — serves the approved text
//! first and different orders later (the "rug pull"). Done to add text that keeps something from
//! the user ("do not mention this upload"), it is an attack; a server's descriptions are set once,
//! where the tool is declared.
//!
//! Facts, in a script the bundle ships that declares MCP tools (`@mcp.tool`, `FastMCP`,
//! `server.tool(`, `McpServer`, `registerTool(`): an indented line (inside a function) assigning a
//! tool's description (`….description = …` on a tool, a tool table entry or a `_tools[…]`); and, in
//! the same file, text that keeps something from the user (do not mention / tell / inform / reveal
//! … the user, without telling the user). Judged: `critical`, the assignment as evidence, the
//! concealment related. One pass over the file's lowered lines.

use super::Bundle;
use super::shapes::{found, is_code, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const SERVER: &[&str] = &[
    "@mcp.tool",
    "fastmcp",
    "server.tool(",
    "mcpserver",
    "registertool(",
    "mcp.server",
    "@server.list_tools",
];
pub(super) const HIDE: &[&str] = &[
    "do not mention",
    "don't mention",
    "do not tell the user",
    "don't tell the user",
    "do not inform the user",
    "do not reveal",
    "without telling the user",
    "not mention this",
];

pub(super) fn tool_description_swap(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in b.files.iter().filter(|f| is_code(f)) {
        let lw = f.lowered();
        let all = f.lower_all();
        if !all.contains(".description") || !SERVER.iter().any(|w| all.contains(w)) {
            continue;
        }
        let Some(hide) = lw
            .lower
            .iter()
            .position(|l| HIDE.iter().any(|h| l.contains(h)))
        else {
            continue;
        };
        let swap = lw.lower.iter().enumerate().find(|(k, l)| {
            let raw = lw.lines[*k];
            let indented = raw.starts_with(' ') || raw.starts_with('\t');
            let assign = l.find(".description").is_some_and(|i| {
                let rest = l[i + ".description".len()..].trim_start();
                rest.starts_with('=') && !rest.starts_with("==")
            });
            indented && assign && (l.contains("tool") || l.contains("_tools["))
        });
        let Some((k, _)) = swap else { continue };
        out.push(found(
            "prompt_injection.tool-description-swap",
            "prompt_injection",
            Severity::Critical,
            f,
            k,
            format!(
                "{}:{}: the server rewrites a registered tool's description while it runs, and the file holds text that keeps something from the user ({}:{}): the description the user approved is not the one the agent will read later (a rug pull). Do not connect this server.",
                f.path,
                k + 1,
                f.path,
                hide + 1
            ),
            vec![rel("concealment", f, hide)],
        ));
    }
}
