//! A fake official update (round 26): a document that claims a vendor's or a platform team's
//! authority for an update or patch ("official security patch from …", "authorized by the …
//! team") and tells the reader to download something from a host that is not a known vendor's
//! and run it. The authority is borrowed to get a download-and-run past the reader.
//!
//! The claim and the download-and-run are two independent signals: together `critical`. The
//! claim with pressure ("urgent", "mandatory", "execute immediately", "guaranteed safe") and no
//! run step is `high`; either alone is nothing (vendors do publish security updates). One pass
//! over each document's lines: linear in bytes.

use super::super::{Bundle, hosts_in};
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::rules::Severity;

/// Lines within which the claim and the step count together.
const WINDOW: usize = 20;

/// Words claiming authority.
const AUTHORITY: &[&str] = &[
    "official",
    "authorized by",
    "authorised by",
    "approved by",
    "issued by",
    "released by",
    "mandated by",
];

fn claims_authority(l: &str) -> bool {
    let thing = ["patch", "update", "upgrade", "hotfix", "security fix"]
        .iter()
        .any(|w| l.contains(w));
    let authority = AUTHORITY.iter().any(|w| l.contains(w));
    thing && authority
        || (l.contains("authorized by") || l.contains("authorised by")) && l.contains(" team")
}

fn pressures(l: &str) -> bool {
    [
        "urgent",
        "mandatory",
        "immediately",
        "trust me",
        "guaranteed safe",
        "required for all users",
        "without delay",
        "do not skip",
    ]
    .iter()
    .any(|w| l.contains(w))
}

/// A line that downloads and runs, from a host that is not a known vendor's.
fn downloads_and_runs(line: &str, l: &str) -> bool {
    let fetch = ["wget ", "curl ", "iwr ", "invoke-webrequest", "irm "]
        .iter()
        .any(|w| l.contains(w));
    let run = [
        "| bash",
        "|bash",
        "| sh",
        "|sh",
        "&& bash",
        "&& sh",
        "; bash",
        "; sh",
        "&& ./",
        "; ./",
        "chmod +x",
        "| iex",
        "&& python",
        "; python",
    ]
    .iter()
    .any(|w| l.contains(w));
    fetch && run && hosts_in(line).iter().any(|h| h.class.is_outside())
}

pub(super) fn fake_official_update(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let gate = super::gate(&GATE, AUTHORITY);
    for file in b.files.iter().filter(|f| f.kind != FileKind::Code) {
        if !gate.is_match(file.content) {
            continue;
        }
        let lines: Vec<&str> = file.content.lines().collect();
        let lowered: Vec<String> = lines
            .iter()
            .map(|l| crate::ascii_lowered(l).into_owned())
            .collect();
        let Some(claim) = lowered.iter().position(|l| claims_authority(l)) else {
            continue;
        };
        let near = |i: usize| i.abs_diff(claim) <= WINDOW;
        let step = (0..lines.len()).find(|&i| near(i) && downloads_and_runs(lines[i], &lowered[i]));
        let pressure = (0..lines.len()).find(|&i| near(i) && pressures(&lowered[i]));
        let (sev, other, what) = match (step, pressure) {
            (Some(s), _) => (
                Severity::Critical,
                s,
                "a download from a host that is not a known vendor's, run right away",
            ),
            (None, Some(p)) => (Severity::High, p, "pressure to act at once"),
            (None, None) => continue,
        };
        let shown = |i: usize| evidence(lines[i], 0, lines[i].len());
        let description = format!(
            "A document claims official authority for an update ({}:{}) next to {what} ({}:{}). {}",
            file.path,
            claim + 1,
            file.path,
            other + 1,
            if sev == Severity::Critical {
                "Vendors ship updates through their own channels, not through a skill's instructions: do not run it, and do not install this skill."
            } else {
                "Check the claim with the vendor before following these steps."
            }
        );
        out.push(Finding {
            rule_id: "supply_chain.fake-official-update".into(),
            category: "supply_chain".into(),
            severity: sev,
            file: file.path.into(),
            line: other + 1,
            evidence: shown(other),
            description,
            related: vec![Related {
                role: "claim".into(),
                file: file.path.into(),
                line: claim + 1,
                evidence: shown(claim),
            }],
        });
    }
}
