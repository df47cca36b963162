//! A security advisory that orders an install from a host that is not the vendor's (round 29p).
//!
//! Real advisories name the affected versions and point to the vendor's own fix: an upgrade through
//! the package manager, the project's own repository or site. A notice that names a CVE, a GHSA or
//! a "security bulletin" and, in the same paragraph, orders the reader to download, install or run
//! something from a host that is neither local nor a known vendor's (an unknown domain, a raw IP, a
//! package index or tarball on such a host) is the fake-advisory lure: urgency used to make people
//! run a stranger's program (`supply_chain.install-lure`, `critical`). A quoted advisory that gives
//! no such host, and a vendor's own fix, stay quiet. One pass over the lines of the documents that
//! carry advisory words.

use super::super::{Bundle, hosts_in};
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::rules::Severity;

/// Lines on either side of the advisory words within which the order counts (one paragraph).
const NEAR: usize = 6;

/// Words of a security notice.
pub(super) const ADVISORY: &[&str] = &[
    "cve-2",
    "ghsa-",
    "security advisory",
    "security bulletin",
    "security notice",
    "security alert",
    "vulnerability notice",
    "security update",
    "security patch",
    "security hotfix",
    "critical vulnerability",
    "安全公告",
    "安全通告",
    "安全补丁",
    "漏洞",
];

/// Orders to fetch or run something.
const ORDERS: &[&str] = &[
    "download",
    "install",
    "run ",
    "run`",
    "execute",
    "apply",
    "open it",
    "double-click",
    "下载",
    "安装",
    "运行",
    "执行",
];

/// Urgency: fake notices push; a vendor's changelog entry states a fix.
const URGENT: &[&str] = &[
    "urgent",
    "immediately",
    "right away",
    "must ",
    "required",
    "mandatory",
    "critical",
    "as soon as",
    " now",
    "紧急",
    "立即",
    "必须",
    "马上",
    "尽快",
];

/// Refusals and descriptions of the lure ("never install a patch from …").
const REFUSALS: &[&str] = &["never ", "do not ", "don't ", "not from", "不要", "切勿"];

/// Whether a host is the skill's own vendor's: named after the skill, in SKILL.md's front matter,
/// or its domain used by the bundle outside the notice (the service the skill talks to).
fn vendor_host(
    b: &Bundle<'_>,
    host: &str,
    path: &str,
    lines: &[&str],
    notice: &std::ops::Range<usize>,
) -> bool {
    let labels: Vec<&str> = host.split('.').collect();
    let domain = labels[labels.len().saturating_sub(2)..].join(".");
    super::super::host_named_after(host, &b.name_words())
        || super::release_page::front_matter(b).contains(&domain)
        || lines
            .iter()
            .enumerate()
            .any(|(k, l)| !notice.contains(&k) && crate::ascii_lowered(l).contains(&domain))
        || b.files
            .iter()
            .any(|f| f.path != path && f.lower_all().contains(&domain))
}

pub(super) fn fake_advisory(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let gate = super::gate(&GATE, ADVISORY);
    for file in b.files.iter().filter(|f| f.kind != FileKind::Code) {
        if !gate.is_match(file.content) {
            continue;
        }
        let lines: Vec<&str> = file.content.lines().collect();
        let marks: Vec<usize> = (0..lines.len())
            .filter(|&i| gate.is_match(lines[i]))
            .collect();
        let mut found = None;
        'lines: for (i, line) in lines.iter().enumerate() {
            let Some(&m) = marks.iter().find(|&&m| m.abs_diff(i) <= NEAR) else {
                continue;
            };
            let l = crate::ascii_lowered(line);
            if !ORDERS.iter().any(|w| l.contains(w)) || REFUSALS.iter().any(|w| l.contains(w)) {
                continue;
            }
            let window = i.saturating_sub(NEAR)..(i + NEAR + 1).min(lines.len());
            if !window.clone().any(|k| {
                URGENT
                    .iter()
                    .any(|w| crate::ascii_lowered(lines[k]).contains(w))
            }) {
                continue;
            }
            for h in hosts_in(line) {
                if h.class.is_outside() && !vendor_host(b, &h.host, file.path, &lines, &window) {
                    found = Some((i, m, h.host));
                    break 'lines;
                }
            }
        }
        let Some((i, m, host)) = found else { continue };
        let shown = |k: usize| evidence(lines[k], 0, lines[k].len());
        out.push(Finding {
            rule_id: "supply_chain.install-lure".into(),
            category: "supply_chain".into(),
            severity: Severity::Critical,
            file: file.path.into(),
            line: i + 1,
            evidence: shown(i),
            description: format!(
                "A security notice ({}:{}) orders an install or a run from {host}, which is not the vendor's host: real advisories point to an upgrade through the package manager or the project's own site. Fake advisories use urgency to make people run a stranger's program. Do not follow these steps.",
                file.path,
                m + 1
            ),
            related: if m == i {
                Vec::new()
            } else {
                vec![Related {
                    role: "advisory".into(),
                    file: file.path.into(),
                    line: m + 1,
                    evidence: shown(m),
                }]
            },
        });
    }
}
