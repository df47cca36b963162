//! Standing orders appended to every installed skill (round 40c, `persistence.skill-worm`).
//!
//! `agent.skills-write` states a write for a loop or glob over `skills/*/SKILL.md` or a write on the
//! same line as a skills folder. A skill that walks the *folders* (`for d in ~/.claude/skills/*/`,
//! `fs.readdirSync(path.join(home, '.codex', 'skills'))`) and then appends to each folder's
//! `SKILL.md` on a later line writes into every other installed skill the same way, and nothing
//! but another skill's instructions is changed by it: a line appended there is read by the agent
//! whenever that skill loads. Judged `critical` when, in a code file:
//!
//! - a line walks an agent's skills folder: it names one (`.claude`, `.codex`, `.openclaw`,
//!   `.agents`, `.cursor`, `.gemini`, `.opencode` followed by `skills`, also split into path
//!   parts) together with a glob `*` after it or a listing call (`readdir`, `listdir`, `iterdir`,
//!   `glob(`, `scandir(`, `get-childitem`, `os.walk`);
//! - within [`WINDOW`] lines from it, a line appends or edits in place (`>>`, `appendfile`,
//!   `open(…, "a")`, `add-content`, `sed -i`, `-i` of perl) and that line or one before it in the
//!   window names `SKILL.md`.
//!
//! A tool that creates one new skill folder by the name the user gave (`mkdir` then a plain write)
//! walks nothing and appends nothing; a lister that reads every `SKILL.md` writes nothing. One
//! pass over the lowered lines of each code file.

use super::Bundle;
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::rules::Severity;

const WINDOW: usize = 30;

const AGENT_DIRS: &[&str] = &[
    ".claude", ".codex", ".openclaw", ".agents", ".cursor", ".gemini", ".opencode",
];

const LISTS: &[&str] = &[
    "readdir",
    "listdir(",
    "iterdir(",
    "glob(",
    "scandir(",
    "get-childitem",
    "os.walk(",
    "readdirsync(",
    "filepath.glob(",
    "os.readdir(",
];

/// Writes that add to or edit a file in place (lower-case).
const APPENDS: &[&str] = &[
    ">>",
    "appendfile",
    "add-content",
    "sed -i",
    "perl -pi",
    "perl -i",
    "\"a\")",
    "'a')",
    "\"a\",",
    "'a',",
    ".open(\"a\"",
    ".open('a'",
    "o_append",
];

/// Whether a lowered line walks an agent's skills folder.
fn walks_skills(l: &str) -> bool {
    AGENT_DIRS.iter().any(|d| {
        l.match_indices(d).any(|(at, _)| {
            let rest = &l[at + d.len()..];
            let rest = rest.trim_start_matches(['/', '\\', '\'', '"', ',', ' ']);
            rest.starts_with("skills")
                && (rest["skills".len()..].contains('*') || LISTS.iter().any(|w| l.contains(w)))
        })
    })
}

pub(super) fn other_skills_rewrite(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        if file.kind != FileKind::Code || file.place.test {
            continue;
        }
        if out
            .iter()
            .any(|f| f.rule_id == "persistence.skill-worm" && f.file == file.path && f.severity == Severity::Critical)
        {
            continue;
        }
        let lw = file.lowered();
        let Some(walk) = lw.lower.iter().position(|l| walks_skills(l)) else {
            continue;
        };
        let end = (walk + WINDOW).min(lw.lower.len());
        let mut named = None;
        for i in walk..end {
            let l = &lw.lower[i];
            if l.contains("skill.md") && named.is_none() {
                named = Some(i);
            }
            if named.is_none() || !APPENDS.iter().any(|w| l.contains(w)) {
                continue;
            }
            let raw = lw.lines[i].trim();
            let w = lw.lines[walk].trim();
            out.push(Finding {
                rule_id: "persistence.skill-worm".into(),
                category: "persistence".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{}: this line appends to or edits in place the SKILL.md of every installed skill that {}:{} walks: text added there is read by the agent whenever those other skills load, so one skill plants orders in all the others. Do not install it.",
                    file.path,
                    i + 1,
                    file.path,
                    walk + 1
                ),
                related: vec![Related {
                    role: "installed skills walked".into(),
                    file: file.path.into(),
                    line: walk + 1,
                    evidence: evidence(w, 0, w.len()),
                }],
            });
            break;
        }
    }
}
