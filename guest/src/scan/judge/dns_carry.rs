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
    // Round 40c: Go, Java/Gradle, PowerShell and Node environment reads.
    "os.getenv(",
    "getenv(",
    "$env:",
    "[environment]::getenvironmentvariable",
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
    // Round 40c: Go, .NET/PowerShell, browser JS, PHP.
    "encodetostring(",
    "tobase64string(",
    "btoa(",
    "bin2hex(",
];

/// Name lookups whose argument is not a quoted literal (lower-case prefixes).
/// The words this judge's whole-text gate asks ([`super::File::words`]).
pub(super) const GATE_WORDS: &[&[&str]] = &[DATA, ENCODE, LOOKUPS];

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
    // Round 40c: Node's other record lookups, Go's `net` package, .NET/PowerShell.
    // (method names alone: `require('dns').resolveTxt(…)`, `resolver.resolve4(…)`).
    "resolvetxt(",
    "resolve4(",
    "resolve6(",
    "resolvecname(",
    "lookuphost(",
    "lookupip(",
    "lookuptxt(",
    "lookupcname(",
    "lookupnetip(",
    "gethostaddresses(",
    "gethostentry(",
    "resolve-dnsname -name ",
    "resolve-dnsname ",
];

/// Whether the name a lookup is given is computed: not a quoted literal, or a literal that
/// interpolates (`${…}` in a template or a shell/PowerShell string, `$(…)`, `$name` in double
/// quotes) or is joined to something (`"…" + x`, `"…" . x`, `"…" % x`).
fn computed_arg(l: &str, call: &str) -> bool {
    let Some(i) = l.find(call) else {
        return false;
    };
    if call.ends_with('$') {
        return true;
    }
    let rest = l[i + call.len()..].trim_start();
    // A flag (`Resolve-DnsName -Type TXT …`): the name follows a flag of its own entry.
    if rest.starts_with('-') {
        return false;
    }
    let Some(q) = rest
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))
    else {
        return !rest.starts_with(')');
    };
    let body = &rest[1..];
    let Some(end) = body.find(q) else {
        return true;
    };
    let lit = &body[..end];
    let after = body[end + 1..].trim_start();
    let interpolates = lit.contains("${")
        || lit.contains("$(")
        || (q != '\''
            && lit
                .as_bytes()
                .windows(2)
                .any(|w| w[0] == b'$' && w[1].is_ascii_alphabetic()));
    interpolates || after.starts_with('+') || after.starts_with(". ") || after.starts_with('%')
}

pub(super) fn dns_carry(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        // Gate: a finding needs a line with a `DATA` word, one with an `ENCODE` word and one
        // holding a `LOOKUPS` call (`computed_arg` finds the call in the line first): a file whose
        // lowered text lacks a word of any of the three lists has no finding.
        let all = file.words();
        if !(DATA.iter().any(|w| all.has(w))
            && ENCODE.iter().any(|w| all.has(w))
            && LOOKUPS.iter().any(|w| all.has(w)))
        {
            continue;
        }
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
