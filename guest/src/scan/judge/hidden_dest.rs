//! A destination kept in base64 (round 30m, sets29m): a script that decodes a base64 literal into an
//! `http(s)://` address and sends local data out with a request.
//!
//! - `exfiltration.hidden-destination` (`critical`): in one script, a base64 literal that decodes to
//!   a URL, a request that sends a body (`curl -d`/`-X POST`/`-F`, `requests.post`, `httpx.post`,
//!   `urllib.request.Request(…, data=…)`, `fetch(…, {method: 'POST'})`, `.post(`), and a read of
//!   local data (a file opened or read, the environment). An honest client writes its endpoint out
//!   so a reader can follow where the data goes; hiding it is hiding the exfiltration.
//!
//! A base64 URL only fetched (no body sent, nothing local read) is left to the download rules.
//! Scripts only (not documents); linear in the bytes of the files holding `aHR0c`, the base64 of
//! `http`.

use super::Bundle;
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::rules::Severity;

/// The URLs base64 literals on a line decode to.
fn hidden_urls(line: &str) -> Vec<String> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = line[from..].find("aHR0c").map(|i| i + from) {
        let mut j = i;
        while j < b.len() && super::prose::b64_value(b[j]).is_some() {
            j += 1;
        }
        from = j.max(i + 1);
        if j - i < 16 || (i > 0 && super::prose::b64_value(b[i - 1]).is_some()) {
            continue;
        }
        if let Some(d) = super::prose::b64_decode(&b[i..j]).and_then(|d| String::from_utf8(d).ok())
            && (d.starts_with("http://") || d.starts_with("https://"))
        {
            out.push(d);
        }
    }
    out
}

/// Whether a lower-cased line sends a request body.
fn sends(l: &str) -> bool {
    (l.contains("curl")
        && (l.contains("-d") || l.contains("--data") || l.contains("post") || l.contains("-f")))
        || [
            "requests.post(",
            "httpx.post(",
            "session.post(",
            ".post(",
            "urllib.request.request(",
            "method: 'post'",
            "method: \"post\"",
            "method:'post'",
            "method=\"post\"",
            "method='post'",
            "xmlhttprequest",
            "sendbeacon(",
        ]
        .iter()
        .any(|w| l.contains(w))
}

/// Whether a lower-cased line reads local data: a file, or the environment.
fn reads_local(l: &str) -> bool {
    [
        "open(",
        ".read()",
        "read_text(",
        "readfilesync(",
        "readfile(",
        "os.environ",
        "getenv(",
        "process.env",
        "cat ",
        "$(<",
    ]
    .iter()
    .any(|w| l.contains(w))
}

/// `exfiltration.hidden-destination`: at most one finding per script.
pub(super) fn hidden_destination(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        if file.kind != FileKind::Code || !file.content.contains("aHR0c") {
            continue;
        }
        let lines: Vec<&str> = file.content.lines().collect();
        let Some((at, url)) = lines
            .iter()
            .enumerate()
            .find_map(|(i, l)| hidden_urls(l).into_iter().next().map(|u| (i, u)))
        else {
            continue;
        };
        let lower: Vec<String> = lines
            .iter()
            .map(|l| crate::ascii_lowered(l).into_owned())
            .collect();
        let Some(send) = lower.iter().position(|l| sends(l)) else {
            continue;
        };
        let Some(read) = lower.iter().position(|l| reads_local(l)) else {
            continue;
        };
        let shown = |k: usize| evidence(lines[k], 0, lines[k].len());
        out.push(Finding {
            rule_id: "exfiltration.hidden-destination".into(),
            category: "exfiltration".into(),
            severity: Severity::Critical,
            file: file.path.into(),
            line: at + 1,
            evidence: shown(at),
            description: format!(
                "A base64 literal in the script decodes to an address ({url}) that a request sending a body uses, next to a read of local data ({}:{}, {}:{}): the destination of what leaves the machine is hidden from a reader.",
                file.path,
                send + 1,
                file.path,
                read + 1
            ),
            related: vec![
                Related {
                    role: "request".into(),
                    file: file.path.into(),
                    line: send + 1,
                    evidence: shown(send),
                },
                Related {
                    role: "local read".into(),
                    file: file.path.into(),
                    line: read + 1,
                    evidence: shown(read),
                },
            ],
        });
    }
}
