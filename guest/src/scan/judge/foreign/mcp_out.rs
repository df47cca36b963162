//! `exfiltration.mcp-tool-relay` (`critical`): the code of an MCP server (it imports an MCP SDK
//! or registers tools) that sends to a fixed outside address given as a bare IP or with an
//! explicit port (`http://198.51.100.7:7001/…`, `net.Dial("tcp", "h:4444")`,
//! `https://relay.example:8443`), or to any fixed outside host when the skill says its data stays
//! on the machine. The agent hands such a server its memories, conversation and files as tool
//! arguments; a server that forwards them to an address of its own is a relay. Not judged: local
//! addresses, vendors, registries, a host named after the skill or its description's service
//! (a memory service syncing to its own cloud says so), and a server with no send call.

use super::super::shapes::{found, is_code, rel, socket_hosts};
use super::super::{Bundle, File, Host, hosts_in};
use super::{foreign, own_host, own_words, sample_file};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const RULE: &str = "exfiltration.mcp-tool-relay";

/// What an MCP server's code holds.
const SERVER: &[&str] = &[
    "@modelcontextprotocol/sdk",
    "from mcp.server",
    "import mcp.server",
    "fastmcp(",
    "mcp-go/server",
    "new mcpserver(",
    "mcpserver(",
    "@mcp.tool",
    "server.tool(",
    "server.registertool(",
    "rmcp::",
    "modelcontextprotocol/go-sdk",
];
/// Calls that send.
const SENDS: &[&str] = &[
    "fetch(",
    "urlopen(",
    "request(",
    "requests.post",
    "requests.put",
    "httpx.post",
    "axios.post",
    "http.post(",
    "http.newrequest(",
    "net.dial(",
    "net.connect(",
    "socket.connect(",
    ".connect((",
    ".sendall(",
    "createconnection(",
    "websocket(",
    "tcpstream::connect(",
    "reqwest::",
];
/// A skill that says its data stays on the machine.
const LOCAL_ONLY: &[&str] = &[
    "nothing leaves",
    "never leaves",
    "local-only",
    "local only",
    "stays on your machine",
    "stay on your machine",
    "offline",
    "no network",
    "privacy-first",
];

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &["mcp"];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = own_words(b);
    let local_claim = b.skill_md().is_some_and(|m| {
        let l = m.lower_all();
        LOCAL_ONLY.iter().any(|w| l.contains(w))
    });
    for f in &b.files {
        if sample_file(f) || !is_code(f) || has_relay(out, f) {
            continue;
        }
        if let Some(x) = relay(f, &words, local_claim) {
            out.push(x);
        }
    }
}

fn has_relay(out: &[Finding], f: &File<'_>) -> bool {
    out.iter().any(|x| {
        x.file == f.path && x.category == "exfiltration" && x.severity == Severity::Critical
    })
}

/// Whether a host is written with an explicit port other than 80 and 443 (`h:8443`, `1.2.3.4:7001`).
fn odd_port(line: &str, h: &Host) -> bool {
    let Some(i) = line.find(&h.host) else {
        return false;
    };
    let rest = &line[i + h.host.len()..];
    let Some(p) = rest.strip_prefix(':') else {
        return false;
    };
    let digits: String = p.chars().take_while(char::is_ascii_digit).collect();
    !digits.is_empty() && digits != "80" && digits != "443"
}

fn relay(f: &File<'_>, words: &[String], local_claim: bool) -> Option<Finding> {
    let all = f.lower_all();
    let server = SERVER.iter().position(|w| all.contains(w))?;
    if !SENDS.iter().any(|w| all.contains(w)) {
        return None;
    }
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        let mut hosts = hosts_in(l);
        hosts.extend(socket_hosts(l));
        let Some(h) = hosts.into_iter().find(|h| {
            foreign(h)
                && !own_host(h, words)
                && (local_claim
                    || h.host.bytes().all(|c| c.is_ascii_digit() || c == b'.')
                    || odd_port(l, h))
        }) else {
            continue;
        };
        let send = (0..low.len()).find(|&k| SENDS.iter().any(|w| low[k].contains(w)));
        let marker = low.iter().position(|x| x.contains(SERVER[server]));
        let mut related = vec![];
        if let Some(k) = send.filter(|&k| k != i) {
            related.push(rel("send", f, k));
        }
        if let Some(k) = marker.filter(|&k| k != i) {
            related.push(rel("mcp server", f, k));
        }
        return Some(found(
            RULE,
            "exfiltration",
            Severity::Critical,
            f,
            i,
            format!(
                "An MCP server's code sends to a fixed outside address, {} ({}){}: what the agent hands its tools — memories, the conversation, file contents — goes to a host the skill does not name as its service.",
                h.host,
                h.class.phrase(),
                if local_claim {
                    ", though the skill says its data stays on the machine"
                } else {
                    ", a bare address or an explicit port"
                }
            ),
            related,
        ));
    }
    None
}
