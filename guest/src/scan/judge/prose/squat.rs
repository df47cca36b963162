//! Typosquatted packages ordered in an install command (round 29p): `pip install reqeusts`,
//! `npm i lodahs`.
//!
//! A name one edit away (a letter added, dropped or changed, or two neighbours swapped) from a
//! widely used PyPI or npm package is how look-alike packages catch a typo; written into a skill's
//! install steps it is the skill ordering the look-alike. The names are data
//! (`guest/rules/popular-packages.json`): the popular names of each registry, and real packages
//! that legitimately sit one edit from a popular one (`scapy`/`scipy`, `preact`/`react`). Names
//! shorter than five letters are not compared. An install of a name that is popular itself or
//! listed as real, or that is two or more edits from every popular name, gives nothing
//! (`supply_chain.typosquat-install`, `critical`). One pass over the lines of the documents that
//! hold an install command.

use super::super::Bundle;
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::rules::Severity;

static POPULAR_JSON: &str = include_str!("../../../../rules/popular-packages.json");

/// Shortest popular name compared.
const MIN_LEN: usize = 5;

/// One registry's names, normalised.
struct Registry {
    popular: Vec<String>,
    real: Vec<String>,
}

struct Names {
    pypi: Registry,
    npm: Registry,
}

fn names() -> &'static Names {
    static N: std::sync::OnceLock<Names> = std::sync::OnceLock::new();
    N.get_or_init(|| {
        let v: serde_json::Value = serde_json::from_str(POPULAR_JSON).expect("valid data file");
        let list = |eco: &str, key: &str| -> Vec<String> {
            v[eco][key]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s.as_str())
                .map(|s| normalise(s, eco == "pypi"))
                .collect()
        };
        let reg = |eco: &str| Registry {
            popular: list(eco, "popular"),
            real: list(eco, "near_real"),
        };
        Names {
            pypi: reg("pypi"),
            npm: reg("npm"),
        }
    })
}

/// PyPI names compare case-insensitively with `-`, `_` and `.` alike (PEP 503); npm names as written.
fn normalise(name: &str, pypi: bool) -> String {
    let l = name.to_ascii_lowercase();
    if pypi { l.replace(['_', '.'], "-") } else { l }
}

/// Whether `a` and `b` differ by exactly one edit: one letter added, dropped or changed, or two
/// neighbouring letters swapped.
pub(crate) fn one_edit(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a == b || a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if a.len() == b.len() {
        let diff: Vec<usize> = (p..a.len()).filter(|&i| a[i] != b[i]).collect();
        return diff.len() == 1
            || diff.len() == 2
                && diff[1] == diff[0] + 1
                && a[diff[0]] == b[diff[1]]
                && a[diff[1]] == b[diff[0]];
    }
    let (short, long) = if a.len() < b.len() { (a, b) } else { (b, a) };
    short[p..] == long[p + 1..]
}

/// The popular name a package name imitates, if any.
fn imitates<'a>(name: &str, reg: &'a Registry) -> Option<&'a str> {
    if reg.popular.iter().any(|p| p == name) || reg.real.iter().any(|p| p == name) {
        return None;
    }
    reg.popular
        .iter()
        .find(|p| p.len() >= MIN_LEN && one_edit(name, p))
        .map(String::as_str)
}

/// The widely used package a dependency name imitates (one edit away, not itself popular or a
/// listed real neighbour), for the code-side dependency rule (`judge::lookalike_deps`).
pub(crate) fn lookalike_of(name: &str, pypi: bool) -> Option<&'static str> {
    let reg = if pypi { &names().pypi } else { &names().npm };
    imitates(&normalise(name, pypi), reg)
}

/// Whether `name` is one of the widely used packages of its registry (round 38c: a popular name
/// installed from a stranger's tarball is a swapped package).
pub(crate) fn is_popular(name: &str, pypi: bool) -> bool {
    let reg = if pypi { &names().pypi } else { &names().npm };
    let n = normalise(name, pypi);
    reg.popular.contains(&n)
}

/// Install commands: the text after each is read for package names.
pub(super) const COMMANDS: &[(&str, bool)] = &[
    ("pip install ", true),
    ("pip3 install ", true),
    ("uv pip install ", true),
    ("uv add ", true),
    ("poetry add ", true),
    ("pipx install ", true),
    ("npm i ", false),
    ("npm install ", false),
    ("npm add ", false),
    ("yarn add ", false),
    ("pnpm add ", false),
    ("pnpm i ", false),
    ("bun add ", false),
];

/// Words that end the list of packages in a sentence ("npm install and start the server").
const ENDS: &[&str] = &[
    "and", "then", "or", "to", "in", "the", "from", "for", "with", "inside", "first", "if",
    "before", "after", "&&", "||", "|", ";", "#", "once", "again", "now",
];

/// Each package name an install command on `line` names, with its registry (true: PyPI).
fn installed(line: &str) -> Vec<(String, bool)> {
    let l = crate::ascii_lowered(line);
    let mut out = Vec::new();
    for (cmd, pypi) in COMMANDS {
        for (i, _) in l.match_indices(cmd) {
            // `npm i` inside a longer word (`pnpm i`) is that command's.
            if i > 0 && l.as_bytes()[i - 1].is_ascii_alphanumeric() {
                continue;
            }
            let rest = &line[i + cmd.len()..];
            // A quote either wraps one package spec (`pip install 'x[socks]'`, `npm i "x@^4"`) or
            // closes the quoted command the install sits in (`"pip install x" is all`): a
            // token that opens with a quote is a spec, one that only ends with a quote is the
            // command's last word.
            let rest = rest
                .split(['`', '，', '。', '；', '(', ')', '<', '>'])
                .next()
                .unwrap_or("");
            for tok in rest.split_whitespace() {
                let opened = tok.starts_with(['\'', '"']);
                let tok = tok.trim_start_matches(['\'', '"']);
                let (tok, closes) = match tok.find(['\'', '"']) {
                    Some(q) => (&tok[..q], !opened),
                    None => (tok, false),
                };
                if ENDS.contains(&tok.to_ascii_lowercase().as_str()) {
                    break;
                }
                if tok.starts_with('-') {
                    continue;
                }
                // A package spec: the name before any version or extra (`x==1.2`, `x[cli]`, `x@2`).
                let name = tok
                    .split(['=', '<', '>', '!', '~', '[', ';', ','])
                    .next()
                    .unwrap_or("");
                let name = if *pypi {
                    name
                } else {
                    name.split('@').next().unwrap_or("")
                };
                let ended = tok.ends_with(['.', ',', ':', ';']);
                let name = name.trim_end_matches(['.', ',', ':', ';']);
                // Lower-case registry names only: a capitalised word is prose.
                if name.len() >= 3
                    && name.bytes().all(|c| {
                        c.is_ascii_lowercase()
                            || c.is_ascii_digit()
                            || matches!(c, b'-' | b'_' | b'.')
                    })
                    && name.as_bytes()[0].is_ascii_alphabetic()
                {
                    out.push((name.to_owned(), *pypi));
                }
                if ended || closes {
                    break;
                }
            }
        }
    }
    out
}

pub(super) fn typosquat_install(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let words: Vec<&str> = COMMANDS.iter().map(|(c, _)| c.trim_end()).collect();
    let gate = super::gate(&GATE, &words);
    for file in b.files.iter().filter(|f| f.kind != FileKind::Code) {
        if !gate.is_match(file.content) {
            continue;
        }
        for (n, line) in file.content.lines().enumerate() {
            if !gate.is_match(line) || line.trim_start().starts_with('>') {
                continue;
            }
            let hit = installed(line).into_iter().find_map(|(name, pypi)| {
                let reg = if pypi { &names().pypi } else { &names().npm };
                imitates(&normalise(&name, pypi), reg).map(|p| (name, p, pypi))
            });
            let Some((name, popular, pypi)) = hit else {
                continue;
            };
            out.push(Finding {
                rule_id: "supply_chain.typosquat-install".into(),
                category: "supply_chain".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: n + 1,
                evidence: evidence(line, 0, line.len()),
                description: format!(
                    "The install steps order `{name}` from {}, one letter away from the widely used package `{popular}`: look-alike names are how typosquatted packages get installed. Install `{popular}` from its own documentation instead, and do not install this skill as it is.",
                    if pypi { "PyPI" } else { "npm" }
                ),
                related: Vec::new(),
            });
            break;
        }
    }
}
