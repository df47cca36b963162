//! Data carried out in DNS names (round 39m, `exfiltration.dns-carry`).
//!
//! A name lookup reaches the attacker's name server through any firewall that lets DNS out. The
//! payload — the host name, the home folder, the working directory, environment values — is
//! encoded into labels (`hexlify`, `.hex()`, base32/base64) and each chunk is resolved as
//! `<chunk>.<attacker's domain>`. A resolver check looks up fixed names; a cache-busting test
//! resolves a random label and reads nothing of the machine.
//!
//! Facts, in one code file: a machine or user datum (`gethostname`, `getfqdn`, `getuser`,
//! `expanduser("~")`, `getcwd`, `os.environ`, `homedir()`, `hostname()`, `process.env`); an
//! encoding of data into text ([`ENCODE`]); and a name lookup of a computed name ([`LOOKUPS`]) at
//! most [`REACH`] lines after both. Judged `critical`, the lookup as evidence and the datum and
//! the encoding related. One pass over the lowered lines.

use super::Bundle;
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

const REACH: usize = 60;

pub(super) const DATA: &[&str] = &[
    "gethostname(",
    "getfqdn",
    "getuser(",
    "getlogin(",
    "expanduser",
    "getcwd",
    "os.environ",
    "homedir()",
    "hostname()",
    "userinfo()",
    "process.env",
    "$(whoami",
    "$(hostname",
];

pub(super) const ENCODE: &[&str] = &[
    "hexlify(",
    ".hex()",
    "b32encode(",
    "b64encode(",
    "urlsafe_b64encode(",
    "tostring('hex')",
    "tostring(\"hex\")",
    "tostring('base64')",
    "xxd -p",
    "base32",
];

/// Name lookups whose argument is not a quoted literal (lower-case prefixes).
const LOOKUPS: &[&str] = &[
    "gethostbyname(",
    "getaddrinfo(",
    "dns.resolve(",
    "dns.resolve4(",
    "dns.lookup(",
    "resolver.resolve(",
    "resolver.query(",
    "nslookup $",
    "dig $",
    "dig +short $",
    "resolve-dnsname $",
];

fn computed_arg(l: &str, call: &str) -> bool {
    l.find(call).is_some_and(|i| {
        let rest = l[i + call.len()..].trim_start();
        !(rest.starts_with('"') || rest.starts_with('\'') || rest.starts_with('`'))
            || call.ends_with('$')
    })
}

pub(super) fn dns_carry(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let lw = file.lowered();
        let mut datum: Option<usize> = None;
        let mut enc: Option<usize> = None;
        for (i, l) in lw.lower.iter().enumerate() {
            if l.starts_with("//") || (l.starts_with('#') && !l.starts_with("#!")) {
                continue;
            }
            if DATA.iter().any(|w| l.has(w)) {
                datum = Some(i);
            }
            if ENCODE.iter().any(|w| l.has(w)) {
                enc = Some(i);
            }
            let (Some(d), Some(e)) = (datum, enc) else {
                continue;
            };
            if i > d.min(e) + REACH {
                continue;
            }
            let Some(call) = LOOKUPS.iter().find(|c| computed_arg(l, c)) else {
                continue;
            };
            let raw = lw.lines[i].trim();
            let rel = |role: &str, at: usize| {
                let t = lw.lines[at].trim();
                Related {
                    role: role.into(),
                    file: file.path.into(),
                    line: at + 1,
                    evidence: evidence(t, 0, t.len()),
                }
            };
            out.push(Finding {
                rule_id: "exfiltration.dns-carry".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{}: a name lookup (`{}`) of a computed name, after the file reads machine or user data ({}:{}) and encodes it into text ({}:{}): the data leave as DNS labels to whoever runs that domain's name server. Do not install this skill.",
                    file.path,
                    i + 1,
                    call.trim_end_matches(['(', '$', ' ']),
                    file.path,
                    d + 1,
                    file.path,
                    e + 1,
                ),
                related: vec![rel("machine data read", d), rel("encoded", e)],
            });
            break;
        }
    }
}
