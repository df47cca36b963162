//! The user's or the machine's identity sent to a request collector from code (round 41m,
//! `exfiltration.identity-to-collector`).
//!
//! Request collectors (webhook.site, requestbin, pipedream, interactsh and the like) exist to catch
//! requests for inspection; a package has no business reporting who installed it and where to one.
//! The reconnaissance package builds a payload from the user name, the host name, the working folder
//! or the environment and sends it there from its entry point or its install step, whether or not
//! npm runs the hook. A webhook tester posts a sample body and names nobody.
//!
//! Facts, in one JavaScript/TypeScript, Python or Ruby code file (not a test): a collector host,
//! written as a URL or as a request option (`hostname: 'webhook.site'`, `host="…"`); within
//! [`WINDOW`] lines of it, an identity datum ([`IDENTITY`]); and a request call in the file
//! ([`SENDS`]). Judged `critical` at the host, the identity related. One pass over the lowered lines.

use super::shapes::{found, rel};
use super::{Bundle, hosts_in};
use crate::scan::content::Finding;
use crate::scan::hosts::{HostClass, classify};
use crate::scan::rules::Severity;

/// The user's or the machine's identity, or the whole environment (lower-case).
pub(super) const IDENTITY: &[&str] = &[
    "userinfo()",
    "os.hostname()",
    "gethostname()",
    "getpass.getuser()",
    "os.getlogin()",
    "platform.node()",
    "homedir()",
    "process.env)",
    "process.env,",
    "init_cwd",
    "os.environ)",
    "dict(os.environ",
    "env.to_h",
    "socket.gethostname",
    "etc.getlogin",
    "whoami",
];

/// Calls that send a request (lower-case).
const SENDS: &[&str] = &[
    "https.request(",
    "http.request(",
    "fetch(",
    "axios",
    "requests.post(",
    "requests.get(",
    "urlopen(",
    "net::http",
    ".write(",
];

/// Lines either side of the host within which the identity is read.
const WINDOW: usize = 15;

fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [".js", ".mjs", ".cjs", ".ts", ".py", ".rb"]
        .iter()
        .any(|e| p.ends_with(e))
}

/// A host written as a request option on the lowered line (`hostname: 'x'`, `host="x"`).
fn option_host(l: &str) -> Option<&str> {
    for key in ["hostname", "host"] {
        let mut from = 0;
        while let Some(p) = l[from..].find(key).map(|p| p + from) {
            from = p + key.len();
            let rest = l[from..].trim_start_matches(['"', '\'']).trim_start();
            let Some(rest) = rest.strip_prefix([':', '=']) else {
                continue;
            };
            let rest = rest.trim_start();
            let Some(q) = rest.chars().next().filter(|c| *c == '\'' || *c == '"') else {
                continue;
            };
            let body = &rest[1..];
            if let Some(e) = body.find(q) {
                let h = &body[..e];
                if h.contains('.') && !h.contains(char::is_whitespace) {
                    return Some(h);
                }
            }
        }
    }
    None
}

fn collector_on(l: &str, raw: &str) -> bool {
    hosts_in(raw)
        .iter()
        .any(|h| h.class == HostClass::Collector)
        || option_host(l).is_some_and(|h| classify(h, "") == HostClass::Collector)
}

pub(super) fn identity_to_collector(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| is_code(f.path) && !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        if !IDENTITY.iter().any(|w| all.contains(w)) || !SENDS.iter().any(|w| all.contains(w)) {
            continue;
        }
        let lw = file.lowered();
        let n = lw.lower.len();
        let hit = (0..n).find_map(|i| {
            let l = &lw.lower[i];
            if l.starts_with("//") || l.starts_with('#') || !collector_on(l, lw.lines[i]) {
                return None;
            }
            (i.saturating_sub(WINDOW)..(i + WINDOW + 1).min(n))
                .find(|&k| IDENTITY.iter().any(|w| lw.lower[k].contains(w)))
                .map(|k| (i, k))
        });
        let Some((i, k)) = hit else {
            continue;
        };
        out.push(found(
            "exfiltration.identity-to-collector",
            "exfiltration",
            Severity::Critical,
            file,
            i,
            format!(
                "{}:{}: the code sends to a request-collector host (made to catch requests for inspection) a payload holding the user's or the machine's identity or environment (line {}). A package reporting who installed it and where is reconnaissance for an attacker. Do not install this skill.",
                file.path,
                i + 1,
                k + 1
            ),
            vec![rel("identity read", file, k)],
        ));
    }
}
