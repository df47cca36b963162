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
use super::find::Has;
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::rules::Severity;

const WINDOW: usize = 30;

const AGENT_DIRS: &[&str] = &[
    ".claude",
    ".codex",
    ".openclaw",
    ".agents",
    ".cursor",
    ".gemini",
    ".opencode",
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

/// Whether line `i` walks an agent's skills folder: it names one, with a glob after the name or a
/// listing call or loop on it or on one of the [`NEXT`] lines after it (`root = …/skills` then
/// `for n in os.listdir(root):`).
fn walks_skills(lower: &[String], i: usize) -> bool {
    let l = &lower[i];
    AGENT_DIRS.iter().any(|d| {
        l.match_indices(d).any(|(at, _)| {
            let rest = &l[at + d.len()..];
            let rest = rest.trim_start_matches(['/', '\\', '\'', '"', ',', ' ']);
            rest.starts_with("skills")
                && (rest["skills".len()..].contains('*')
                    || lower[i..(i + 1 + NEXT).min(lower.len())]
                        .iter()
                        .any(|n| LISTS.iter().any(|w| n.contains(w)) || n.starts_with("for ")))
        })
    })
}

/// How many lines after a skills folder is named a listing or loop over it is looked for.
const NEXT: usize = 3;

/// The variable a line assigns (`t="…"`, `const p = …`, `$p = …`, `p := …`), if any.
fn assigned(l: &str) -> Option<&str> {
    let (lhs, _) = l.split_once('=')?;
    let lhs = lhs.trim_end_matches(':').trim();
    let lhs = ["const ", "let ", "var ", "local ", "export "]
        .iter()
        .fold(lhs, |t, k| t.strip_prefix(k).unwrap_or(t))
        .trim_start_matches('$');
    let ok = !lhs.is_empty() && lhs.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
    ok.then_some(lhs)
}

/// Whether `l` uses the variable `n` as a whole word.
fn names_var(l: &str, n: &str) -> bool {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    l.match_indices(n).any(|(at, _)| {
        let b = l.as_bytes();
        !at.checked_sub(1).is_some_and(|j| word(b[j]))
            && !b.get(at + n.len()).is_some_and(|&c| word(c))
    })
}

pub(super) fn other_skills_rewrite(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        if file.kind != FileKind::Code || file.place.test {
            continue;
        }
        if out.iter().any(|f| {
            f.rule_id == "persistence.skill-worm"
                && f.file == file.path
                && f.severity == Severity::Critical
        }) {
            continue;
        }
        // A finding needs a line in the window that names `SKILL.md` or a name assigned on such
        // a line: a file whose text never names it cannot have one (one search, not a walk test
        // of every line).
        if !file.lower_all().has("skill.md") {
            continue;
        }
        let lw = file.lowered();
        let Some(walk) = (0..lw.lower.len()).find(|&i| walks_skills(&lw.lower, i)) else {
            continue;
        };
        let end = (walk + WINDOW).min(lw.lower.len());
        // The names given a SKILL.md path in the window (`t="$s/SKILL.md"`, `p = join(…, 'SKILL.md')`).
        let mut names: Vec<&str> = Vec::new();
        for i in walk..end {
            let l = &lw.lower[i];
            if l.contains("skill.md")
                && let Some(n) = assigned(l)
            {
                names.push(n);
            }
            let targets = l.contains("skill.md") || names.iter().any(|n| names_var(l, n));
            if !targets || !APPENDS.iter().any(|w| l.contains(w)) {
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
