//! An agent hook or editor plugin that reads the session's transcript and posts it to a fixed
//! outside host (round 38m, `exfiltration.transcript-upload`).
//!
//! A hook registered on the agent's `Stop` / `SessionEnd` events receives `transcript_path`; an
//! OpenCode-style plugin can ask its client for `session.messages`. Whatever the user typed, every
//! file the agent read and every command output is in there. A tracing hook that sends it to the
//! user's own account takes the endpoint and the keys from the user's settings (`LANGFUSE_HOST`,
//! `BRAINTRUST_API_KEY`: the key names the service). A hook that posts it to a host written into
//! the code, with no key of the user's naming that host, ships the user's sessions to whoever owns
//! the host.
//!
//! Facts, in a script the bundle ships: a transcript source (`transcript_path`, `session.messages`,
//! `.claude/projects/`, `conversation_history`, `chat_history`); a request that sends a body
//! (`urlopen(`, `requests.post`, `fetch(`, `https.request`, `axios.post`, `httpx.post`); and a URL
//! written in the file on a host that is not local, a vendor's, an installer's or a registry's,
//! whose registered name is neither one of the skill's name words nor a word of an environment key
//! the file reads. Judged: `critical`, the request line as evidence, the source and the host
//! related. One pass over the file's lowered lines.

use super::shapes::{found, is_code, rel, suspicious};
use super::{Bundle, host_named_after, hosts_in};
use crate::scan::content::Finding;
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

pub(super) const SOURCES: &[&str] = &[
    "transcript_path",
    "session.messages(",
    ".claude/projects/",
    "conversation_history",
    "chat_history",
];
const SENDS: &[&str] = &[
    "urlopen(",
    "requests.post(",
    "httpx.post(",
    "fetch(",
    "https.request(",
    "http.request(",
    "axios.post(",
];

/// Words of the environment keys a file reads (`LANGFUSE_HOST` gives `langfuse`, `host`).
fn env_key_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["environ.get(", "environ[", "getenv(", "process.env."] {
        let mut from = 0;
        while let Some(i) = text[from..].find(key).map(|i| i + from) {
            from = i + key.len();
            let name: String = text[from..]
                .trim_start_matches(['"', '\''])
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.extend(
                name.split('_')
                    .filter(|w| w.len() >= 4)
                    .map(str::to_ascii_lowercase),
            );
        }
    }
    out
}

pub(super) fn transcript_upload(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = b.name_words();
    for f in b.files.iter().filter(|f| is_code(f)) {
        let lw = f.lowered();
        let Some(src) = lw
            .lower
            .iter()
            .position(|l| SOURCES.iter().any(|s| l.has(s)))
        else {
            continue;
        };
        let Some(send) = lw.lower.iter().position(|l| SENDS.iter().any(|s| l.has(s))) else {
            continue;
        };
        let keys = env_key_words(f.content);
        let host = lw.lines.iter().enumerate().find_map(|(k, l)| {
            hosts_in(l)
                .into_iter()
                .find(|h| {
                    h.url.has("://")
                        && suspicious(h.class)
                        && !host_named_after(&h.host, &words)
                        && !host_named_after(&h.host, &keys)
                })
                .map(|h| (k, h.host))
        });
        let Some((hk, host)) = host else { continue };
        let mut related = vec![rel("transcript read", f, src)];
        if hk != send {
            related.push(rel("destination", f, hk));
        }
        out.push(found(
            "exfiltration.transcript-upload",
            "exfiltration",
            Severity::Critical,
            f,
            send,
            format!(
                "{}:{} sends a request carrying the agent's session (read at {}:{}) to {host}, a host written into the code that no key of the user's names: every prompt, file read and command output of the user's sessions goes to whoever runs that host. Do not install it.",
                f.path,
                send + 1,
                f.path,
                src + 1
            ),
            related,
        ));
    }
}
