//! The environment's secrets picked out by name and sent to a stranger (round 48m, held-out set
//! 26, `exfiltration.env-secrets-sent`).
//!
//! An install script that walks the environment (`Object.keys(process.env)`,
//! `os.environ.items()`) and keeps only the variables whose names say secret
//! (`/KEY|TOKEN|SECRET/`, `if "TOKEN" in k`) has built a list of credentials; posting that list
//! anywhere but the vendor those keys belong to is theft. The request often names its host as an
//! option, not a URL (`https.request({ host: "…", path: "/i" }).end(body)`), which the URL-reading
//! rules do not see as a destination.
//!
//! Facts, in one code file: a line that enumerates the environment ([`ENUMS`]) and, on it or within
//! [`NEAR`] lines, a filter naming at least two secret words ([`SECRET_WORDS`]); a send call
//! ([`SENDS`]) in the file; a destination — a URL on the send line or within [`NEAR`] lines of it,
//! or a `host:` / `hostname:` option there — that is not local, not a vendor's API, not an
//! installer or registry, and not named after the skill. Judged `critical` at the filter line, the
//! send related.
//!
//! Not judged: secret-named variables checked for presence or masked and printed; the environment
//! copied into a subprocess; keys sent to their vendor's API (`api.openai.com`). One pass over each
//! file's lines.

use super::shapes::{found, is_code, judged, rel};
use super::{Bundle, host_named_after, hosts_in};
use crate::scan::content::Finding;
use crate::scan::hosts::{HostClass, classify};
use crate::scan::rules::Severity;

/// Ways of walking the whole environment (lower-case); also the gate words.
pub(super) const ENUMS: &[&str] = &[
    "object.keys(process.env)",
    "object.entries(process.env)",
    "os.environ.items()",
    "os.environ.keys()",
    "in os.environ",
    "environ.items()",
    "system.getenv().entryset()",
    "get-childitem env:",
];
/// Words naming secrets in a filter (lower-case).
const SECRET_WORDS: &[&str] = &["key", "token", "secret", "pass", "auth", "cred"];
/// Lines between the walk and its filter, and between a send and its destination.
const NEAR: usize = 3;
/// Calls that send data over the network (lower-case).
const SENDS: &[&str] = &[
    "https.request(",
    "http.request(",
    ".request({",
    "fetch(",
    "axios.",
    "requests.post(",
    "requests.put(",
    "httpx.post(",
    "urlopen(",
    "urllib.request.request(",
    "invoke-restmethod",
    "invoke-webrequest",
];

/// How many different secret words a lowered line names.
fn secret_words(l: &str) -> usize {
    SECRET_WORDS.iter().filter(|w| l.contains(*w)).count()
}

/// The host of a `host:` / `hostname:` option on a lowered line (`host: "x.example"`).
fn host_option(l: &str) -> Option<String> {
    for key in [
        "hostname:",
        "host:",
        "\"hostname\":",
        "\"host\":",
        "host=",
        "hostname=",
    ] {
        if let Some(i) = l.find(key) {
            let rest = l[i + key.len()..].trim_start();
            let q = rest.chars().next()?;
            if !matches!(q, '"' | '\'' | '`') {
                continue;
            }
            let body = &rest[1..];
            let end = body.find(q)?;
            let h = &body[..end];
            if h.contains('.') && !h.contains(' ') && !h.contains('$') {
                return Some(h.to_owned());
            }
        }
    }
    None
}

/// Whether a destination class is someone the data may go to.
fn trusted(class: &HostClass) -> bool {
    !class.is_outside()
}

pub(super) fn env_secrets_sent(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    let names = b.name_words();
    for file in b.files.iter().filter(|f| is_code(f)) {
        if !file.words().any(ENUMS) {
            continue;
        }
        let lw = file.lowered();
        let low = &lw.lower;
        let Some(walk) = low.iter().position(|l| ENUMS.iter().any(|e| l.contains(e))) else {
            continue;
        };
        let filter = (walk..low.len().min(walk + NEAR + 1)).find(|&k| secret_words(&low[k]) >= 2);
        let Some(filter) = filter else { continue };
        // A send with a destination that is not a trusted one.
        let dest = low.iter().enumerate().find_map(|(i, l)| {
            if !SENDS.iter().any(|s| l.contains(s)) {
                return None;
            }
            (i.saturating_sub(NEAR)..low.len().min(i + NEAR + 1)).find_map(|k| {
                let mut hosts: Vec<(String, HostClass)> = hosts_in(lw.lines[k])
                    .into_iter()
                    .map(|h| (h.host, h.class))
                    .collect();
                if let Some(h) = host_option(&low[k]) {
                    let class = classify(&h, "");
                    hosts.push((h, class));
                }
                hosts
                    .into_iter()
                    .find(|(h, c)| !trusted(c) && !host_named_after(h, &names))
                    .map(|(h, _)| (i, h))
            })
        });
        let Some((send, host)) = dest else { continue };
        if judged(b, out, file, filter) {
            continue;
        }
        new.push(found(
            "exfiltration.env-secrets-sent",
            "exfiltration",
            Severity::Critical,
            file,
            filter,
            format!(
                "{}:{}: the environment is walked and filtered for variables named like secrets (keys, tokens, passwords), and {}:{} sends to {host}, which is not the vendor those keys belong to. That is the session's credentials collected and shipped. Do not install this skill.",
                file.path,
                filter + 1,
                file.path,
                send + 1
            ),
            vec![rel("send", file, send)],
        ));
    }
    out.extend(new);
}
