//! A Python package's install code that reports the machine to an outside host (round 38m,
//! `supply_chain.install-hook-beacon`).
//!
//! `pip install` of a source package runs its `setup.py` (module-level code, and any `install` /
//! `develop` / `egg_info` command class it registers) without anyone reading it. The classic
//! typosquat puts a request there that carries who installed it — the user name, the host name,
//! the machine's node name, the environment — to a host of its own. A build script that downloads
//! its own prebuilt library names at most the platform (`platform.system()`, `machine()`), not the
//! user or the host; a vendor's, installer's or registry's host, or this machine, is no collector.
//!
//! Facts, in a file named `setup.py`: a line that reads an identity datum (`getpass.getuser()`,
//! `os.getlogin()`, `socket.gethostname()`, `platform.node()`, `uname().node`, `dict(os.environ)`,
//! `os.environ.copy()`, `expanduser("~")`); and, within [`REACH`] lines after it, a line making a
//! request (`urlopen`, `requests.`, `httpx.`, `urllib.request`, `http.client`, `urlretrieve`, a
//! socket `sendto`) that names, on it or its next three lines, a host which is not local, a vendor's, an installer's or a
//! registry's. Judged: `critical`, the request line as evidence and the datum line related (the
//! npm twin is `install_beacon.rs`). One pass over the file's lowered lines; windows bounded.

use super::shapes::suspicious;
use super::{Bundle, Host, hosts_in};
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::rules::Severity;

/// Lines after the datum within which the request may stand.
const REACH: usize = 40;

/// Calls that read who or what the machine is (lower-case).
pub(super) const IDENTITY: &[&str] = &[
    "getpass.getuser(",
    "getuser()",
    "os.getlogin(",
    "getlogin()",
    "socket.gethostname(",
    "gethostname()",
    "platform.node(",
    "uname().node",
    "dict(os.environ",
    "os.environ.copy(",
    "expanduser(\"~\")",
    "expanduser('~')",
];

/// Calls that make a request (lower-case).
const REQUESTS: &[&str] = &[
    "urlopen(",
    "requests.get(",
    "requests.post(",
    "requests.put(",
    "httpx.",
    "urllib.request.",
    "http.client.",
    "httpsconnection(",
    "httpconnection(",
    "urlretrieve(",
    ".sendto(",
];

/// Calls of a JavaScript install script that read who or what the machine is (lower-case).
pub(super) const JS_IDENTITY: &[&str] = &[
    "os.hostname(",
    "os.userinfo(",
    "os.homedir(",
    "networkinterfaces(",
    "dns.getservers(",
];

/// Calls of a JavaScript install script that make a request (lower-case).
const JS_REQUESTS: &[&str] = &[
    "https.request(",
    "http.request(",
    "https.get(",
    "http.get(",
    "fetch(",
    "axios.post(",
    "axios.get(",
    "axios(",
];

/// Words of a request's line or arguments that give it a body (lower-case).
const CARRY: &[&str] = &[
    "data=",
    "json=",
    "payload",
    "json.dumps(",
    "urlencode(",
    ".encode(",
    "method='post'",
    "method=\"post\"",
    "method: 'post'",
    ".post(",
    "body",
    ".end(",
    ".write(",
];

fn is_setup_py(path: &str) -> bool {
    path == "setup.py" || path.ends_with("/setup.py")
}

/// Names of functions a Python file defines whose body (up to the next `def`, at most eight
/// lines) makes a request: `def request(url, …): return urlopen(…)` makes `request(` a request.
fn wrappers(lower: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, l) in lower.iter().enumerate() {
        let Some(rest) = l.strip_prefix("def ") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.len() < 3 {
            continue;
        }
        let body = lower
            .iter()
            .skip(i + 1)
            .take(8)
            .take_while(|b| !b.starts_with("def "));
        let mut body = body;
        if body.any(|b| REQUESTS.iter().any(|c| b.contains(c))) {
            out.push(format!("{name}("));
        }
    }
    out
}

/// The scripts a `package.json` lifecycle hook runs with `node <file>`, as bundle paths.
fn hook_scripts(b: &Bundle<'_>) -> Vec<String> {
    const HOOKS: [&str; 4] = [
        "\"preinstall\"",
        "\"install\"",
        "\"postinstall\"",
        "\"prepare\"",
    ];
    let mut out = Vec::new();
    for file in &b.files {
        let dir = if file.path == "package.json" {
            ""
        } else if let Some(d) = file.path.strip_suffix("/package.json") {
            d
        } else {
            continue;
        };
        for l in &file.lowered().lower {
            if !HOOKS.iter().any(|h| l.starts_with(h)) {
                continue;
            }
            for w in l.split(|c: char| c.is_whitespace() || c == '"' || c == '&' || c == ';') {
                let w = w.trim_start_matches("./");
                if [".js", ".cjs", ".mjs"].iter().any(|e| w.ends_with(e)) {
                    out.push(if dir.is_empty() {
                        w.to_string()
                    } else {
                        format!("{dir}/{w}")
                    });
                }
            }
        }
    }
    out
}

pub(super) fn setup_beacon(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let hooked = hook_scripts(b);
    for file in &b.files {
        let js = hooked.iter().any(|h| h.eq_ignore_ascii_case(file.path));
        if !is_setup_py(file.path) && !js {
            continue;
        }
        let lw = file.lowered();
        let (identity, requests) = if js {
            (JS_IDENTITY, JS_REQUESTS)
        } else {
            (IDENTITY, REQUESTS)
        };
        let wrapped = if js { Vec::new() } else { wrappers(&lw.lower) };
        let Some(first) = lw
            .lower
            .iter()
            .position(|l| identity.iter().any(|w| l.contains(w)))
        else {
            continue;
        };
        let mut datum = first;
        // The first request to a drop host, replaced by a later one (within reach) that carries a
        // body: an IP lookup before the beacon is a request too, but the post is the evidence.
        let mut best: Option<(usize, &str, Host, usize)> = None;
        for i in first..lw.lower.len() {
            let l = &lw.lower[i];
            if identity.iter().any(|w| l.contains(w)) {
                datum = i;
            }
            if i > datum + REACH
                || l.starts_with('#')
                || l.starts_with("//")
                || l.starts_with("def ")
            {
                continue;
            }
            let Some(call) = requests
                .iter()
                .copied()
                .find(|c| l.contains(*c))
                .or_else(|| wrapped.iter().map(String::as_str).find(|c| l.contains(*c)))
            else {
                continue;
            };
            let args = i..(i + 4).min(lw.lines.len());
            // The URL may stand on the call's next lines (its arguments). A chat service's
            // incoming webhook or bot endpoint is a drop, whoever hosts it.
            let Some(host) = args.clone().find_map(|k| {
                hosts_in(lw.lines[k]).into_iter().find(|h| {
                    suspicious(h.class) || {
                        let u = h.url.to_ascii_lowercase();
                        u.contains("/api/webhooks/") || u.contains("/sendmessage")
                    }
                })
            }) else {
                continue;
            };
            // The call's own text: its line, and the next lines only while its parentheses are open.
            let mut open = 0i32;
            let carries = args.clone().any(|k| {
                if k > i && open <= 0 {
                    return false;
                }
                let t = &lw.lower[k];
                open += t.matches('(').count() as i32 - t.matches(')').count() as i32;
                CARRY.iter().any(|c| t.contains(c))
            });
            if best.is_none() || carries {
                best = Some((i, call, host, datum));
            }
            if carries {
                break;
            }
        }
        if let Some((i, call, host, datum)) = best {
            let raw = lw.lines[i];
            let d = lw.lines[datum].trim();
            let what = if js {
                "a script that the package's npm install hook runs unasked"
            } else {
                "the package's setup.py, which `pip install` runs unasked,"
            };
            out.push(Finding {
                rule_id: "supply_chain.install-hook-beacon".into(),
                category: "supply_chain".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw.trim(), 0, raw.trim().len()),
                description: format!(
                    "{}:{}: {} makes a request (`{}`) to {} ({}) after reading who installed it ({}:{}: `{}`): an install-time beacon. A build step has no reason to report the user or the machine. Do not install it.",
                    file.path,
                    i + 1,
                    what,
                    call.trim_end_matches('('),
                    host.host,
                    host.class.phrase(),
                    file.path,
                    datum + 1,
                    d,
                ),
                related: vec![Related {
                    role: "identity read".into(),
                    file: file.path.into(),
                    line: datum + 1,
                    evidence: evidence(d, 0, d.len()),
                }],
            });
        }
    }
}
