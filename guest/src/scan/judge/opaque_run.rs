//! A bundled file whose code cannot be read, ordered run (round 37m,
//! `supply_chain.opaque-code-run`).
//!
//! A skill is reviewed by reading it. A file that holds code no reader can check — compiled
//! Python bytecode (`.pyc`, `.pyo`), other compiled script bytecode (`.luac`, `.jsc`), a native
//! executable, binary data behind a script's or a text file's extension, or binary data with no
//! extension and no known data format — is opaque: whatever it does runs with the agent's rights.
//! Shipping such a file is not yet an attack (a stray `__pycache__` is common); a text of the
//! bundle (SKILL.md, a script, a manifest) that orders it run is: `python3 scripts/init.pyc`,
//! `chmod +x bin/helper && ./bin/helper`, `subprocess.run(["python", "tool.pyc"])`. The readable
//! twin a bundle may carry next to it (`tool.py` beside `tool.pyc`) is not what runs.
//!
//! Facts: the host's structural findings name each binary entry (`structural.binary-file`,
//! `structural.content-mismatch`, `structural.executable-binary`, read from the prior findings);
//! the order is a line of a text file that names the entry (its bundle path, or its file name as a
//! path word) after a runner (an interpreter, `./`, `chmod +x`, `exec`, `subprocess`, "run").
//! Judged: an order to run an opaque entry, `critical`, with the entry and the order as the two
//! ends. Not judged: images, archives and documents (a data format the host recognises), a line
//! that refuses, deletes or ignores the file ("do not run", `rm`, `.gitignore`), a name the line
//! does not run. One pass over each text file's lowered lines per opaque entry (bundles carry few
//! binaries): linear in bytes.

use super::Bundle;
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::rules::Severity;

/// Extensions of compiled script bytecode.
const BYTECODE: &[&str] = &["pyc", "pyo", "luac", "jsc"];

/// Words that run the file named after them on the line.
const RUNNERS: &[&str] = &[
    "python",
    "pypy",
    "py ",
    "lua ",
    "node ",
    "bash ",
    "sh ",
    "zsh ",
    "exec",
    "./",
    "chmod +x",
    "chmod 7",
    "chmod 5",
    "subprocess",
    "os.system",
    "spawn",
    "popen",
    "run",
    "launch",
    "start",
    "invoke",
    "source ",
    "open ",
];

/// Words that make a line a refusal, a clean-up or an ignore list rather than an order.
const NOT_ORDERS: &[&str] = &[
    "never",
    "do not",
    "don't",
    "must not",
    "should not",
    "rm ",
    "rm -",
    "delete",
    "remove",
    "clean",
    "ignore",
    "exclude",
];

/// An opaque entry: its bundle path and what the host saw in it.
struct Opaque<'a> {
    path: &'a str,
    seen: &'a str,
}

/// The opaque entries the host's structural findings name.
fn opaque_entries<'a>(prior: &'a [Finding]) -> Vec<Opaque<'a>> {
    prior
        .iter()
        .filter_map(|f| {
            let ext = f
                .file
                .rsplit('/')
                .next()
                .and_then(|n| n.rsplit_once('.'))
                .map_or("", |(_, e)| e)
                .to_ascii_lowercase();
            let code = match f.rule_id.as_str() {
                "structural.executable-binary" | "structural.content-mismatch" => true,
                // No data format the host recognised: `(binary, N bytes)`.
                "structural.binary-file" => {
                    f.evidence.contains("(binary,")
                        && (BYTECODE.contains(&ext.as_str()) || ext.is_empty())
                }
                _ => false,
            };
            code.then_some(Opaque {
                path: f.file.as_str(),
                seen: f.evidence.as_str(),
            })
        })
        .collect()
}

/// Where the line names `path` (the whole bundle path, or its file name as a path word), if it
/// does.
fn names_entry(l: &str, path: &str) -> Option<usize> {
    let full = path.to_ascii_lowercase();
    let base = full.rsplit('/').next().unwrap_or(&full).to_owned();
    [full, base].iter().find_map(|word| path_word(l, word))
}

/// Where `word` stands in the line as a whole path word (not a prefix of a longer name).
fn path_word(l: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = l[from..].find(word).map(|p| p + from) {
        from = p + word.len();
        let before = l[..p].chars().next_back();
        let after = l[from..].chars().next();
        let starts = before.is_none_or(|c| matches!(c, '/' | ' ' | '"' | '\'' | '`' | '(' | '['));
        let ends =
            after.is_none_or(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')));
        if starts && ends {
            return Some(p);
        }
    }
    None
}

pub(super) fn opaque_code_run(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let opaque = opaque_entries(b.prior);
    if opaque.is_empty() {
        return;
    }
    let mut found = Vec::new();
    for o in &opaque {
        'files: for file in &b.files {
            if file.path.ends_with(".gitignore") || file.path == o.path {
                continue;
            }
            let base = o
                .path
                .rsplit('/')
                .next()
                .unwrap_or(o.path)
                .to_ascii_lowercase();
            if !file.lower_all().contains(&base) {
                continue;
            }
            let lw = file.lowered();
            for (i, l) in lw.lower.iter().enumerate() {
                let Some(at) = names_entry(l, o.path) else {
                    continue;
                };
                if NOT_ORDERS.iter().any(|w| l.contains(w)) {
                    continue;
                }
                let head = &l[..at];
                let Some(runner) = RUNNERS.iter().find(|r| head.contains(*r)) else {
                    continue;
                };
                let raw = lw.lines[i];
                found.push(Finding {
                    rule_id: "supply_chain.opaque-code-run".into(),
                    category: "supply_chain".into(),
                    severity: Severity::Critical,
                    file: file.path.into(),
                    line: i + 1,
                    evidence: evidence(raw, 0, raw.len()),
                    description: format!(
                        "{}:{} runs `{}` (`{}` on the line), a file of this skill whose code cannot be read: {}. Whatever it does runs with the agent's rights and no review can say what that is; a skill ships the source it runs. Do not install it.",
                        file.path,
                        i + 1,
                        o.path,
                        runner.trim(),
                        o.seen,
                    ),
                    related: vec![Related {
                        role: "payload".into(),
                        file: o.path.into(),
                        line: 0,
                        evidence: o.seen.into(),
                    }],
                });
                break 'files;
            }
        }
    }
    out.extend(found);
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn names_the_entry_as_a_path_word() {
        assert!(names_entry("python3 scripts/init.pyc", "scripts/init.pyc").is_some());
        assert!(names_entry("cd scripts && python3 init.pyc --go", "scripts/init.pyc").is_some());
        assert!(names_entry("python3 scripts/preinit.pyc", "scripts/init.pyc").is_none());
        assert!(names_entry("python3 scripts/init.pyc.bak", "scripts/init.pyc").is_none());
    }
}
