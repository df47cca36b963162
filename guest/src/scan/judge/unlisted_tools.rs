//! Tools a server answers but never lists (round 32m): a `tools/list` handler that shows one
//! harmless tool while the `tools/call` handler also answers `__admin_exec`, `__read_file` or
//! `__exfiltrate`, a hidden door for whoever knows the name.
//!
//! An MCP server's tool list is what the client and the user see and approve. A name the call
//! handler compares against (`name === "x"`, `name == "x"`) that no file of the bundle
//! declares as a tool name (`name: "x"`, `name="x"`, `"name": "x"`, `Tool(name="x"`, `def x(`) is a
//! tool nobody was shown. Raised only when the bundle has a list handler (`tools/list`,
//! `ListToolsRequestSchema`, `list_tools`) so the declared set is known, and the file that answers
//! the hidden name runs commands, reads arbitrary files or sends data (`execSync(`, `exec(`,
//! `spawn(`, `subprocess`, `os.system(`, `readFileSync(`, `fetch(`, `requests.post(`…): the
//! unlisted tool is a way in. One finding per file (`backdoor.unlisted-tool`, `critical`).

use super::Bundle;
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::rules::Severity;

const LIST_HANDLERS: &[&str] = &["tools/list", "ListToolsRequestSchema", "list_tools"];

const POWERS: &[&str] = &[
    "execSync(",
    "exec(",
    "execFile(",
    "spawn(",
    "spawnSync(",
    "subprocess.",
    "os.system(",
    "os.popen(",
    "exec.Command(",
    "readFileSync(",
    "fs.readFile(",
    "os.ReadFile(",
    "fetch(",
    "requests.post(",
    "http.Post(",
];

/// The quoted string right after `at` (spaces skipped), if any.
fn quoted_at(text: &str, at: usize) -> Option<&str> {
    let rest = text[at..].trim_start();
    let q = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let body = &rest[1..];
    body.find(q).map(|e| &body[..e])
}

fn is_tool_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
}

/// Names a file declares as tools: `name: "x"`, `name = "x"`, `"name": "x"`, `Tool(name="x"`,
/// `NewTool("x"`, and Python `def x(` under a `@…tool` decorator.
fn declared(text: &str, into: &mut Vec<String>) {
    for key in [
        "name:",
        "name =",
        "name=",
        "\"name\":",
        "Name:",
        "NewTool(",
        ".tool(",
        "registerTool(",
    ] {
        let mut from = 0;
        while let Some(i) = text[from..].find(key).map(|i| i + from) {
            from = i + key.len();
            if let Some(n) = quoted_at(text, from).filter(|n| is_tool_name(n)) {
                into.push(n.to_owned());
            }
        }
    }
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        if t.starts_with('@') && t.contains("tool") {
            if let Some(def) = lines[i + 1..].iter().take(3).find_map(|d| {
                d.trim_start()
                    .strip_prefix("def ")
                    .or_else(|| d.trim_start().strip_prefix("async def "))
            }) {
                let n: String = def
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !n.is_empty() {
                    into.push(n);
                }
            }
        }
    }
}

/// Names the call handler compares the requested tool name with (`name === "x"`,
/// `params.name == "x"`, `toolName === "x"`), and their lines.
fn compared(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let l = crate::ascii_lowered(raw);
        for key in ["name === ", "name == "] {
            let mut from = 0;
            while let Some(i) = l[from..].find(key).map(|i| i + from) {
                from = i + key.len();
                if let Some(x) = quoted_at(raw, from).filter(|x| is_tool_name(x)) {
                    out.push((n, x.to_owned()));
                }
            }
        }
    }
    out
}

pub(super) fn unlisted_tools(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    if !b
        .files
        .iter()
        .any(|f| LIST_HANDLERS.iter().any(|h| f.content.contains(h)))
    {
        return;
    }
    let mut names = Vec::new();
    for f in &b.files {
        declared(f.content, &mut names);
    }
    for file in b.files.iter().filter(|f| f.kind == FileKind::Code) {
        if !POWERS.iter().any(|p| file.content.contains(p)) {
            continue;
        }
        let hidden: Vec<(usize, String)> = compared(file.content)
            .into_iter()
            .filter(|(_, x)| !names.contains(x))
            .collect();
        // Method names of the protocol itself are not tools.
        let hidden: Vec<(usize, String)> = hidden
            .into_iter()
            .filter(|(_, x)| !x.contains('/') && !x.starts_with("notifications"))
            .collect();
        let Some((n, name)) = hidden.first().cloned() else {
            continue;
        };
        let line = file.content.lines().nth(n).unwrap_or("");
        let more = hidden.len() - 1;
        out.push(Finding {
            rule_id: "backdoor.unlisted-tool".into(),
            category: "backdoor".into(),
            severity: Severity::Critical,
            file: file.path.into(),
            line: n + 1,
            evidence: evidence(line, 0, line.len()),
            description: format!(
                "The server's call handler answers a tool named `{name}`{} that its tool list never shows, in a file that runs commands, reads files or sends data: a hidden tool the user never sees or approves is a way in for whoever knows its name. Do not install this server as it is.",
                if more > 0 { format!(" (and {more} more)") } else { String::new() }
            ),
            related: Vec::new(),
        });
    }
}
