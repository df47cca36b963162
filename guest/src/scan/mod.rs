//! Security: candidate risk, whole-bundle scanning and install policy.
//!
//! The host reads bundles (it may touch the file system; the component may not) and hands the files
//! over; every judgement is made here.

mod ascii_twin;
pub mod bundle;
pub mod candidate;
pub mod content;
pub mod facts;
pub mod hosts;
pub mod judge;
pub mod keywords;
pub mod literals;
pub mod markdown;
mod review_topic;
pub mod rules;
mod teaching;
mod utf8_bytes;

pub use bundle::{Bundle, BundleFile, BundleNote, EntryKind, magic, scan_bundle};
pub use candidate::scan_candidates;

/// Build the rules and the judges' tables now ([`crate::initialize`]): the content module's patterns
/// (every regex compiled), then one scan of a bundle of near-empty files of each kind, which builds
/// the gate automata judges keep in function-local statics (a judge builds its gate before it
/// looks). A regex's search cache is not built here: it grows with the text searched, so warming it
/// would cost the snapshot more than a call saves (BENCHMARKS.md, `scanperf2`).
pub(crate) fn initialize() {
    content::initialize();
    let files = [
        "SKILL.md",
        "README.md",
        "tool.py",
        "run.sh",
        "config.json",
        "hooks.yaml",
    ]
    .map(|path| bundle::BundleFile::text(path, "\n"));
    let warm = bundle::Bundle {
        name: "initialize".to_owned(),
        files: files.into(),
        notes: Vec::new(),
    };
    bundle::findings(&warm);
    bundle::text_file_findings("SKILL.md", "\n");
}
pub use content::{Finding, Related, scan_file, scan_text};
pub use rules::{RuleSet, Severity};

use serde::Serialize;

/// How far the source of a skill is trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trust {
    /// Ships with the agent.
    Builtin,
    /// An official repository, matched exactly ([`TRUSTED_REPOS`]).
    Trusted,
    /// Everything else, including every registry upload. The default.
    Community,
    /// Written by the agent itself.
    AgentCreated,
}

/// Official skill repositories (owner/repo, compared case-insensitively and exactly: `anthropics/skills-x`
/// or `anthropics-evil/skills` are community).
pub const TRUSTED_REPOS: &[&str] = &[
    "openai/skills",
    "anthropics/skills",
    "huggingface/skills",
    "nvidia/skills",
];

/// The trust a source URL earns: trusted only for an exact official GitHub repository.
pub fn trust_of_source(url: &str) -> Trust {
    let Some(canon) = crate::filter::canonical_url(url, None) else {
        return Trust::Community;
    };
    let mut parts = canon.split('/');
    let (host, owner, repo) = (parts.next(), parts.next(), parts.next());
    match (host, owner, repo) {
        (Some("github.com"), Some(o), Some(r))
            if TRUSTED_REPOS.contains(&format!("{o}/{r}").as_str()) =>
        {
            Trust::Trusted
        }
        _ => Trust::Community,
    }
}

/// The verdict ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Safe,
    Caution,
    Dangerous,
}

/// Any critical → dangerous; else any high → caution; else safe (medium and low are informational).
pub fn verdict(findings: &[Finding]) -> Verdict {
    match findings.iter().map(|f| f.severity).max() {
        Some(Severity::Critical) => Verdict::Dangerous,
        Some(Severity::High) => Verdict::Caution,
        _ => Verdict::Safe,
    }
}

/// What to do with a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    Allow,
    Ask,
    Block,
}

/// Trust × verdict, and whether `force` may override: builtin allows everything; trusted blocks
/// dangerous; community blocks caution and dangerous; agent-created asks on dangerous. `force` lifts a
/// block except dangerous on community or trusted (a hard block).
pub fn policy(trust: Trust, verdict: Verdict, force: bool) -> (Policy, String) {
    use Policy::*;
    use Verdict::*;
    let base = match (trust, verdict) {
        (Trust::Builtin, _) => Allow,
        (Trust::Trusted, Dangerous) => Block,
        (Trust::Trusted, _) => Allow,
        (Trust::Community, Safe) => Allow,
        (Trust::Community, _) => Block,
        (Trust::AgentCreated, Dangerous) => Ask,
        (Trust::AgentCreated, _) => Allow,
    };
    let hard = verdict == Dangerous && matches!(trust, Trust::Community | Trust::Trusted);
    let trust_name = match trust {
        Trust::Builtin => "builtin",
        Trust::Trusted => "trusted",
        Trust::Community => "community",
        Trust::AgentCreated => "agent-created",
    };
    let verdict_name = match verdict {
        Safe => "safe",
        Caution => "caution",
        Dangerous => "dangerous",
    };
    match (base, force) {
        (Block, true) if !hard => (
            Allow,
            format!(
                "{verdict_name} {trust_name} skill: would be blocked, allowed because --force was given"
            ),
        ),
        (Block, _) if hard => (
            Block,
            format!(
                "{verdict_name} {trust_name} skill: blocked (a hard block that --force cannot lift)"
            ),
        ),
        (Block, _) => (
            Block,
            format!(
                "{verdict_name} {trust_name} skill: blocked (--force would allow it after review)"
            ),
        ),
        (Ask, true) => (
            Allow,
            format!("{verdict_name} {trust_name} skill: allowed because --force was given"),
        ),
        (Ask, false) => (
            Ask,
            format!("{verdict_name} {trust_name} skill: ask the user before installing"),
        ),
        (Allow, _) => (Allow, format!("{verdict_name} {trust_name} skill: allowed")),
    }
}

#[cfg(test)]
mod tests;

/// Every text file of the skill fixtures (benign, malicious, the labeled corpus) as (file name,
/// text), for tests that check a claim over all of them.
#[cfg(test)]
pub(crate) fn fixture_texts() -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if let Ok(text) = std::fs::read_to_string(&p) {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                out.push((name, text));
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/skills");
    let mut files = Vec::new();
    walk(&root, &mut files);
    assert!(files.len() > 100, "the skill fixtures are found");
    files
}
