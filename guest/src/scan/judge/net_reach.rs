//! Whether a file reaches the network at all (round 50b, sets50b).
//!
//! The agent judge rates a hook installed in the agent's settings `critical` when its file "sends
//! data to a remote host", and it counts a bare URL fact as that host: a hook script may build
//! its collector address in one line and post to it in another. A URL in a file that has no way to
//! contact anything (a reference link inside the reminder text a security hook prints: "Review
//! the guide: https://…") is read, not contacted. A file reaches out when it has a send, download,
//! fetch, socket or pipe-to-shell fact, or names a call that contacts a host (`urlopen`,
//! `requests.`, `fetch(`, `curl`, `Invoke-WebRequest`, a socket …) anywhere in its text.

use super::{Bundle, File};
use crate::scan::facts::FactKind;

/// Facts that contact a host.
const REACH: [FactKind; 5] = [
    FactKind::NetSend,
    FactKind::Download,
    FactKind::FetchToValue,
    FactKind::SocketConnect,
    FactKind::PipeExec,
];

/// Words of calls that contact a host (lower-cased), for a send no fact rule names.
const CALLS: &[&str] = &[
    "urlopen",
    "urllib",
    "requests.",
    "httpx",
    "aiohttp",
    "http.client",
    "httpclient",
    "fetch(",
    "axios",
    "xmlhttprequest",
    "sendbeacon",
    "websocket",
    "socket.",
    "net/http",
    "curl",
    "wget",
    "invoke-webrequest",
    "invoke-restmethod",
    "iwr ",
    "irm ",
    "net.webclient",
    "smtplib",
    "nslookup",
    "dig ",
];

/// Whether `file` has any way to contact a host (see the module documentation).
pub(super) fn reaches_out(_b: &Bundle<'_>, file: &File<'_>) -> bool {
    REACH.iter().any(|k| file.facts.has(*k)) || {
        let l = crate::ascii_lowered(file.content);
        CALLS.iter().any(|w| l.contains(w))
    }
}
