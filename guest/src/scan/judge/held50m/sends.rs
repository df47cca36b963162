//! Sends the earlier rules do not see as theft (round 50m).
//!
//! - `exfiltration.agent-auth-store-sent`: a code file that names an agent's own auth store (the
//!   per-agent model keys an agent keeps: `auth-profiles.json`, Codex's `auth.json`, Claude's
//!   `.credentials.json`, Gemini's `oauth_creds.json`; [`AUTH_STORES`]), reads a file, and sends
//!   data to a host that is not local, a vendor's, an installer's or a registry's, nor named after
//!   the skill. Judged `critical` at the store line, the send related. The agent-secrets line rule
//!   knows some stores by name; an auth-profile file it does not, and a read posted from a thread
//!   reaches no flow rule.
//! - `exfiltration.local-claim-send`: the sending file itself, or the skill's SKILL.md when it does
//!   not also say it sends ([`DISCLOSES`]), claims the work is local ("local text processing
//!   only", "no network", "never leaves your machine"; [`LOCAL_CLAIMS`]), and the code file posts a
//!   body ([`BODIES`] near a send of [`SENDS`]) while naming a host that is not a trusted one. A
//!   tool that lies about sending, then sends what it is given, is a collector. A claim in another
//!   code file speaks for that file only. Judged `critical` at the send, the claim and the host
//!   related.
//! - `exfiltration.log-handler-secret`: a logger given a network handler (`HTTPHandler`,
//!   `SocketHandler`, `DatagramHandler`; [`LOG_HANDLERS`]) whose host is not a local or trusted
//!   literal, a secret-named environment value read in the file, and a log call whose argument is
//!   a secret-named variable. The log record is the request: a token "backed up" this way is
//!   posted to whoever the host is. Judged `critical` at the log call, the handler related.
//!
//! Not judged: a key written to an agent's store and sent to that vendor; a local tool whose only
//! URLs are local; a tool that says it sends; a network log handler given messages, not secrets;
//! a secret logged to a file. Comment lines are not read. One pass over each file's lines.

use super::super::shapes::{found, is_code, judged, rel};
use super::super::{Bundle, File, host_named_after, hosts_in};
use crate::scan::content::Finding;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// An agent's own auth stores (lower-case); also gate words.
pub(super) const AUTH_STORES: &[&str] = &[
    "auth-profiles.json",
    "auth_profiles.json",
    ".codex/auth.json",
    "\".codex\", \"auth.json\"",
    "'.codex', 'auth.json'",
    ".claude/.credentials.json",
    ".credentials.json",
    "oauth_creds.json",
];
/// A skill's or tool's claim that nothing leaves the machine (lower-case); also gate words.
pub(super) const LOCAL_CLAIMS: &[&str] = &[
    "local text processing only",
    "local processing only",
    "processing is local",
    "entirely local",
    "fully local",
    "100% local",
    "no network",
    "never leaves your machine",
    "never leave your machine",
    "stays on your machine",
    "no data is sent",
    "no data leaves",
    "nothing is sent",
    "nothing leaves",
    "works fully offline",
    "offline only",
];
/// Logging handlers that ship records over the network (lower-case); also gate words.
pub(super) const LOG_HANDLERS: &[&str] = &["httphandler(", "sockethandler(", "datagramhandler("];
/// Calls that send over the network (lower-case).
const SENDS: &[&str] = &[
    "urlopen(",
    "urllib.request.request(",
    "requests.post(",
    "requests.put(",
    "requests.request(",
    "httpx.post(",
    "httpx.put(",
    ".post(",
    "fetch(",
    "https.request(",
    "http.request(",
    "axios.post(",
    "axios(",
    "invoke-restmethod",
    "invoke-webrequest",
    "http.post(",
    "net/http",
];
/// A body handed to a send (lower-case).
const BODIES: &[&str] = &[
    "data=",
    "json=",
    "body:",
    "body=",
    "content=",
    "files=",
    "method=\"post\"",
    "method='post'",
    "method: \"post\"",
    "method: 'post'",
    ".write(",
    ".post(",
    "-body",
];
/// Reads of a file (lower-case).
const READS: &[&str] = &[
    "open(",
    "readfilesync(",
    "readfile(",
    "read_text(",
    "get-content",
    "cat ",
    "os.readfile(",
    "file.read",
];
/// Words naming a secret in an environment variable or a variable (lower-case).
const SECRET_WORDS: &[&str] = &[
    "token",
    "secret",
    "password",
    "passwd",
    "api_key",
    "apikey",
    "credential",
    "private_key",
];
/// Log calls (lower-case).
const LOG_CALLS: &[&str] = &[
    ".info(",
    ".debug(",
    ".warning(",
    ".warn(",
    ".error(",
    ".critical(",
    ".exception(",
    ".log(",
];
/// Lines around a send searched for its body.
const NEAR: usize = 3;

/// Whether a destination class is someone the data may go to.
fn trusted(class: &HostClass) -> bool {
    !class.is_outside()
}

/// A comment line (lowered and trimmed).
fn comment(l: &str) -> bool {
    l.starts_with('#') || l.starts_with("//") || l.starts_with("/*") || l.starts_with('*')
}

/// The first untrusted host named on a code line of the file, not named after the skill.
fn untrusted_host(file: &File<'_>, names: &[String]) -> Option<(usize, String)> {
    let lw = file.lowered();
    lw.lower.iter().enumerate().find_map(|(i, l)| {
        if comment(l) {
            return None;
        }
        hosts_in(lw.lines[i])
            .into_iter()
            .find(|h| !trusted(&h.class) && !host_named_after(&h.host, names))
            .map(|h| (i, h.host))
    })
}

/// The first send line of the file that hands over a body within [`NEAR`] lines.
fn body_send(low: &[String]) -> Option<usize> {
    low.iter().enumerate().position(|(i, l)| {
        !comment(l)
            && SENDS.iter().any(|s| l.contains(s))
            && (i.saturating_sub(NEAR)..low.len().min(i + NEAR + 1))
                .any(|k| BODIES.iter().any(|b| low[k].contains(b)))
    })
}

pub(in crate::scan::judge) fn agent_auth_store_sent(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    let names = b.name_words();
    for file in b.files.iter().filter(|f| is_code(f)) {
        let all = file.lower_all();
        if !AUTH_STORES.iter().any(|w| all.contains(w)) || !READS.iter().any(|r| all.contains(r)) {
            continue;
        }
        let low = &file.lowered().lower;
        let Some(store) = low
            .iter()
            .position(|l| !comment(l) && AUTH_STORES.iter().any(|w| l.contains(w)))
        else {
            continue;
        };
        let Some(send) = body_send(low) else { continue };
        let Some((_, host)) = untrusted_host(file, &names) else {
            continue;
        };
        if judged(b, out, file, store) {
            continue;
        }
        new.push(found(
            "exfiltration.agent-auth-store-sent",
            "exfiltration",
            Severity::Critical,
            file,
            store,
            format!(
                "{}:{}: the file reads an agent's own auth store (the model keys and tokens the agent keeps for itself) and sends data at {}:{} to {}, which is not that agent's vendor nor this skill's own service. That is the agent's credentials shipped to a stranger. Do not install this skill.",
                file.path,
                store + 1,
                file.path,
                send + 1,
                host
            ),
            vec![rel("send", file, send)],
        ));
    }
    out.extend(new);
}

/// Words by which a SKILL.md discloses that the skill sends something (lower-case).
const DISCLOSES: &[&str] = &[
    "send",
    "post",
    "upload",
    "broadcast",
    "sync",
    "telemetry",
    "submit",
    "webhook",
    "report to",
];

/// The line of `file` claiming local-only work, if any.
fn claim_line(file: &File<'_>) -> Option<usize> {
    if !LOCAL_CLAIMS.iter().any(|c| file.lower_all().contains(c)) {
        return None;
    }
    file.lowered()
        .lower
        .iter()
        .position(|l| LOCAL_CLAIMS.iter().any(|c| l.contains(c)))
}

pub(in crate::scan::judge) fn local_claim_send(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    // The skill's own claim counts for every file, unless the SKILL.md also says it sends.
    let skill = b.skill_md().and_then(|f| {
        let all = f.lower_all();
        if DISCLOSES.iter().any(|d| all.contains(d)) {
            return None;
        }
        claim_line(f).map(|i| (f, i))
    });
    let names = b.name_words();
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| is_code(f)) {
        // A claim in the sending file itself, else the skill's.
        let Some((claim, ci)) = claim_line(file).map(|i| (file, i)).or(skill) else {
            continue;
        };
        let low = &file.lowered().lower;
        let Some(send) = body_send(low) else { continue };
        let Some((hl, host)) = untrusted_host(file, &names) else {
            continue;
        };
        if judged(b, out, file, send) {
            continue;
        }
        new.push(found(
            "exfiltration.local-claim-send",
            "exfiltration",
            Severity::Critical,
            file,
            send,
            format!(
                "{}:{}: the skill says its work stays local ({}:{}), yet this code posts data to {} ({}:{}). A tool that declares it sends nothing and then sends what it is given is collecting it. Do not install this skill.",
                file.path,
                send + 1,
                claim.path,
                ci + 1,
                host,
                file.path,
                hl + 1
            ),
            vec![rel("claim", claim, ci), rel("host", file, hl)],
        ));
        break;
    }
    out.extend(new);
}

/// The variable passed first to a log call on the line, if it names a secret.
fn logs_secret_name(l: &str) -> bool {
    LOG_CALLS.iter().any(|c| {
        l.find(c).is_some_and(|at| {
            let arg = l[at + c.len()..].trim_start();
            let name: String = arg
                .chars()
                .take_while(|ch| ch.is_ascii_alphanumeric() || *ch == '_' || *ch == '.')
                .collect();
            arg.starts_with(|ch: char| ch.is_ascii_alphabetic() || ch == '_')
                && SECRET_WORDS.iter().any(|w| name.contains(w))
        })
    })
}

/// Whether the handler on this lowered line takes a quoted host that is local or trusted.
fn handler_to_trusted(low: &str) -> bool {
    let Some(at) = LOG_HANDLERS
        .iter()
        .find_map(|h| low.find(h).map(|p| p + h.len()))
    else {
        return false;
    };
    let arg = low[at..].trim_start();
    if !arg.starts_with(['"', '\'']) {
        return false;
    }
    let host = arg[1..].split(['"', '\'', ':', '/']).next().unwrap_or("");
    hosts_in(&format!("https://{host}/"))
        .first()
        .is_some_and(|h| trusted(&h.class))
}

/// Whether the lowered line reads a secret-named environment value.
fn reads_secret_env(l: &str) -> bool {
    ["environ.get(", "environ[", "getenv(", "process.env."]
        .iter()
        .any(|e| {
            l.find(e)
                .is_some_and(|at| SECRET_WORDS.iter().any(|w| l[at..].contains(w)))
        })
}

pub(in crate::scan::judge) fn log_handler_secret(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| is_code(f)) {
        if !LOG_HANDLERS.iter().any(|h| file.lower_all().contains(h)) {
            continue;
        }
        let low = &file.lowered().lower;
        let Some(handler) = low
            .iter()
            .position(|l| !comment(l) && LOG_HANDLERS.iter().any(|h| l.contains(h)))
        else {
            continue;
        };
        if handler_to_trusted(&low[handler])
            || !low.iter().any(|l| !comment(l) && reads_secret_env(l))
        {
            continue;
        }
        let Some(call) = low.iter().position(|l| !comment(l) && logs_secret_name(l)) else {
            continue;
        };
        if judged(b, out, file, call) {
            continue;
        }
        new.push(found(
            "exfiltration.log-handler-secret",
            "exfiltration",
            Severity::Critical,
            file,
            call,
            format!(
                "{}:{}: a secret read from the environment is handed to a logger whose handler ({}:{}) sends every record over the network to a host that is not local. The log line is the request: the secret is posted, however the code names it. Do not install this skill.",
                file.path,
                call + 1,
                file.path,
                handler + 1
            ),
            vec![rel("network log handler", file, handler)],
        ));
    }
    out.extend(new);
}
