//! Code fetched without checking who served it, then run (round 39m).
//!
//! - `supply_chain.unverified-download-run`: a file where a download is run
//!   (`supply_chain.download-execute`, by a line rule or a judge) also turns TLS certificate
//!   checks off (`NODE_TLS_REJECT_UNAUTHORIZED = '0'`, `rejectUnauthorized: false`,
//!   `verify=False`, `curl -k`, `wget --no-check-certificate`, PowerShell's
//!   `ServerCertificateValidationCallback = { $true }`): whoever sits on the path can hand over the
//!   program that is run. An installer that runs what it downloads keeps the check on; a local
//!   development client that skips it runs nothing it fetched.
//! - `obfuscation.hidden-fetch-eval`: code fetched from an address the file decodes at run time
//!   (`Buffer.from('…', 'base64')`, `atob(`, `b64decode(`) and the response evaluated
//!   (`new Function(…, r.data)`, `eval(await res.text())`) within a few lines: neither the address
//!   nor the code is there to read. Judged on the evaluation line, the decode related.

use super::Bundle;
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

const TLS_OFF: &[&str] = &[
    "node_tls_reject_unauthorized = '0'",
    "node_tls_reject_unauthorized = \"0\"",
    "node_tls_reject_unauthorized='0'",
    "node_tls_reject_unauthorized=0",
    "rejectunauthorized: false",
    "rejectunauthorized:false",
    "verify=false",
    "curl -k ",
    "curl -sk ",
    "curl --insecure",
    "wget --no-check-certificate",
    "servercertificatevalidationcallback = { $true }",
    "-skipcertificatecheck",
    "insecureskipverify: true",
];

pub(super) fn unverified_download_run(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut add = Vec::new();
    for file in &b.files {
        let Some(run) = b
            .prior
            .iter()
            .chain(out.iter())
            .find(|f| f.rule_id == "supply_chain.download-execute" && f.file == file.path)
        else {
            continue;
        };
        let lw = file.lowered();
        let Some(off) = lw.lower.iter().position(|l| {
            !(l.starts_with('#') || l.starts_with("//")) && TLS_OFF.iter().any(|w| l.has(w))
        }) else {
            continue;
        };
        let t = lw.lines[off].trim();
        add.push(Finding {
            rule_id: "supply_chain.unverified-download-run".into(),
            category: "supply_chain".into(),
            severity: Severity::Critical,
            file: file.path.into(),
            line: run.line,
            evidence: run.evidence.clone(),
            description: format!(
                "{}:{}: the file runs what it downloads and turns TLS certificate checks off ({}:{}: `{}`): whoever answers in between can hand over the program that runs. An installer keeps the check on. Do not install this skill.",
                file.path,
                run.line,
                file.path,
                off + 1,
                t,
            ),
            related: vec![Related {
                role: "certificate check off".into(),
                file: file.path.into(),
                line: off + 1,
                evidence: evidence(t, 0, t.len()),
            }],
        });
    }
    out.extend(add);
}

const DECODES: &[&str] = &[
    "'base64')",
    "\"base64\")",
    "atob(",
    "b64decode(",
    "fromcharcode(",
];
const FETCHES: &[&str] = &[
    "axios.get(",
    "axios(",
    "fetch(",
    "https.get(",
    "http.get(",
    "request(",
];
const EVALS: &[&str] = &["new function(", "eval("];
const RESPONSES: &[&str] = &[".data", ".text()", "body", "responsetext"];

pub(super) fn hidden_fetch_eval(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let lw = file.lowered();
        let mut decoded: Option<usize> = None;
        let mut fetched: Option<usize> = None;
        for (i, l) in lw.lower.iter().enumerate() {
            if l.starts_with("//") || l.starts_with('#') {
                continue;
            }
            if DECODES.iter().any(|d| l.has(d)) {
                decoded = Some(i);
            }
            if FETCHES.iter().any(|f| l.has(f)) {
                fetched = Some(i);
            }
            let (Some(d), Some(f)) = (decoded, fetched) else {
                continue;
            };
            if f < d || f > d + 15 || i > f + 3 {
                continue;
            }
            let Some(ev) = EVALS.iter().find(|e| l.has(e)) else {
                continue;
            };
            let after = &l[l.find(ev).unwrap_or(0)..];
            if !RESPONSES.iter().any(|r| after.has(r)) {
                continue;
            }
            let raw = lw.lines[i].trim();
            let dt = lw.lines[d].trim();
            out.push(Finding {
                rule_id: "obfuscation.hidden-fetch-eval".into(),
                category: "obfuscation".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{}: code fetched from an address the file decodes at run time ({}:{}) is evaluated (`{}`): neither the address nor the code can be read before it runs. Do not install this skill.",
                    file.path,
                    i + 1,
                    file.path,
                    d + 1,
                    ev.trim_end_matches('('),
                ),
                related: vec![Related {
                    role: "address decoded".into(),
                    file: file.path.into(),
                    line: d + 1,
                    evidence: evidence(dt, 0, dt.len()),
                }],
            });
            break;
        }
    }
}
