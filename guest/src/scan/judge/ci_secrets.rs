//! A CI workflow that sends its repository secrets to a drop host (round 39m,
//! `exfiltration.ci-secrets-sent`).
//!
//! A workflow step maps `${{ secrets.NAME }}` into its environment and, in the same step, sends a
//! request to a request collector, a paste site, a tunnel, a raw IP or a look-alike host: whoever
//! owns that host receives the project's publishing and service tokens on every run. Publishing
//! with a token, or notifying a chat vendor's webhook, sends nothing to a drop host.
//!
//! Facts, in a workflow file (`.github/workflows/*.yml`, `.gitlab-ci.yml`, `azure-pipelines.yml`,
//! `bitbucket-pipelines.yml`): a line naming `secrets.` inside `${{ … }}` (not `GITHUB_TOKEN`), and
//! within [`REACH`] lines after it a line with a request tool (`curl`, `wget`,
//! `Invoke-WebRequest`, `fetch(`) naming — on it or its next three lines — a host of a suspicious
//! class. Judged `critical`, the request as evidence and the secret line related.

use super::{Bundle, hosts_in};
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::rules::Severity;

const REACH: usize = 25;

const TOOLS: &[&str] = &[
    "curl ",
    "wget ",
    "invoke-webrequest",
    "invoke-restmethod",
    "fetch(",
];

fn is_workflow(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    (p.contains(".github/workflows/") && (p.ends_with(".yml") || p.ends_with(".yaml")))
        || p.ends_with(".gitlab-ci.yml")
        || p.ends_with("azure-pipelines.yml")
        || p.ends_with("bitbucket-pipelines.yml")
}

pub(super) fn ci_secrets_sent(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b.files.iter().filter(|f| is_workflow(f.path)) {
        let lw = file.lowered();
        let mut secret: Option<usize> = None;
        for (i, l) in lw.lower.iter().enumerate() {
            if l.starts_with('#') {
                continue;
            }
            if l.contains("${{") && l.contains("secrets.") && !l.contains("secrets.github_token") {
                secret = Some(i);
            }
            let Some(s) = secret else {
                continue;
            };
            if i > s + REACH || !TOOLS.iter().any(|t| l.contains(t)) {
                continue;
            }
            let Some(host) = (i..(i + 4).min(lw.lines.len())).find_map(|k| {
                hosts_in(lw.lines[k])
                    .into_iter()
                    .find(|h| h.class.is_suspicious())
            }) else {
                continue;
            };
            let raw = lw.lines[i].trim();
            let st = lw.lines[s].trim();
            out.push(Finding {
                rule_id: "exfiltration.ci-secrets-sent".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{}: a workflow step that holds repository secrets ({}:{}) sends a request to {} ({}): the project's tokens go to whoever owns that host on every run. Do not add this workflow.",
                    file.path,
                    i + 1,
                    file.path,
                    s + 1,
                    host.host,
                    host.class.phrase(),
                ),
                related: vec![Related {
                    role: "secret mapped".into(),
                    file: file.path.into(),
                    line: s + 1,
                    evidence: evidence(st, 0, st.len()),
                }],
            });
            break;
        }
    }
}
