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

/// Affixes look-alike packages put around a popular name (round 39c): `python-numpy`,
/// `requests-py`, `express-js`, `node-lodash`, `openai-official`, `anthropic-sdk2`. A real
/// affixed package (`python-dateutil`, `node-fetch`, `opencv-python`) is listed as popular or real.
const PREFIXES: &[&str] = &["python-", "py-", "node-", "nodejs-", "js-", "official-"];
const SUFFIXES: &[&str] = &[
    "-py",
    "-python",
    "-js",
    "-node",
    "-nodejs",
    "-official",
    "-sdk",
    "-api",
];

/// `name` with one squat affix (and any version digits after it) taken off, if it had one.
fn unaffixed(name: &str) -> Option<&str> {
    let trimmed = name.trim_end_matches(|c: char| c.is_ascii_digit());
    for base in [trimmed, name] {
        if let Some(r) = SUFFIXES.iter().find_map(|s| base.strip_suffix(s)) {
            return Some(r);
        }
    }
    if let Some(r) = PREFIXES.iter().find_map(|p| name.strip_prefix(p)) {
        return Some(r);
    }
    // Version digits alone on a long popular name (`anthropic2`); short names with a digit are
    // often real (`boto3`, `mysql2`, `jinja2`, each popular itself).
    (trimmed.len() < name.len() && trimmed.len() >= 6).then_some(trimmed)
}

/// Letters of other scripts that look like Latin ones (Cyrillic and Greek), mapped to them.
fn latin_skeleton(name: &str) -> Option<String> {
    name.chars()
        .map(|c| {
            Some(match c {
                'а' | 'α' => 'a',
                'е' | 'ε' => 'e',
                'о' | 'ο' => 'o',
                'р' | 'ρ' => 'p',
                'с' => 'c',
                'у' => 'y',
                'х' | 'χ' => 'x',
                'і' | 'ι' => 'i',
                'ј' => 'j',
                'ѕ' => 's',
                'ԁ' => 'd',
                'ɡ' => 'g',
                'ν' => 'v',
                'κ' => 'k',
                'һ' => 'h',
                c if c.is_ascii() => c,
                _ => return None,
            })
        })
        .collect()
}

/// The popular name a package name imitates, if any, and how (a phrase for the finding).
fn imitates<'a>(name: &str, reg: &'a Registry) -> Option<(&'a str, &'static str)> {
    let known = |n: &str| reg.popular.iter().any(|p| p == n) || reg.real.iter().any(|p| p == n);
    if known(name) {
        return None;
    }
    if !name.is_ascii() {
        let skel = latin_skeleton(name)?;
        let p = reg.popular.iter().find(|p| **p == skel).or_else(|| {
            imitates(&skel, reg).and_then(|(p, _)| reg.popular.iter().find(|q| *q == p))
        })?;
        return Some((
            p.as_str(),
            "written with look-alike letters of another script for",
        ));
    }
    if let Some(scoped) = name.strip_prefix('@') {
        return scope_lookalike(scoped, reg);
    }
    if let Some(p) = reg
        .popular
        .iter()
        .find(|p| p.len() >= MIN_LEN && one_edit(name, p))
    {
        return Some((p.as_str(), "one letter away from"));
    }
    let base = unaffixed(name)?;
    reg.popular
        .iter()
        .find(|p| p.len() >= MIN_LEN && **p == base)
        .map(|p| (p.as_str(), "an affixed copy of the name of"))
}

/// A scoped npm name (`scope/pkg`, the `@` taken off) whose scope is not the scope of a popular
/// package or a popular name but is one affix away from one: `@anthropic/sdk` beside
/// `@anthropic-ai/sdk`, `@openai-api/openai` beside `openai`.
fn scope_lookalike<'a>(scoped: &str, reg: &'a Registry) -> Option<(&'a str, &'static str)> {
    let scope = scoped.split('/').next()?;
    let scope_of = |p: &'a String| p.strip_prefix('@').and_then(|r| r.split('/').next());
    if scope.len() < MIN_LEN
        || reg
            .popular
            .iter()
            .chain(&reg.real)
            .any(|p| scope_of(p) == Some(scope) || p == scope)
    {
        return None;
    }
    // Organisations often scope as `<name>-ai` (`@anthropic-ai`); `-ai` alone is not read as an
    // affix of unscoped names (`pydantic-ai` is real).
    let strip = |n: &str| {
        n.strip_suffix("-ai")
            .or_else(|| unaffixed(n))
            .map(str::to_owned)
    };
    let base = strip(scope);
    reg.popular
        .iter()
        .find(|p| {
            let other = scope_of(p).unwrap_or(p);
            other.len() >= MIN_LEN
                && (base.as_deref() == Some(other)
                    || strip(other).is_some_and(|o| o == scope || base.as_deref() == Some(&o)))
        })
        .map(|p| (p.as_str(), "a look-alike scope of"))
}

/// The widely used package a dependency name imitates (one edit, an affix, a scope or letters of
/// another script away, not itself popular or a listed real neighbour), and how, for the
/// code-side dependency rule (`judge::lookalike_deps`).
pub(crate) fn lookalike_of(name: &str, pypi: bool) -> Option<(&'static str, &'static str)> {
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
                } else if let Some(scoped) = name.strip_prefix('@') {
                    // `@scope/pkg@version`: the version's `@` comes after the scope's.
                    &name[..1 + scoped.find('@').unwrap_or(scoped.len())]
                } else {
                    name.split('@').next().unwrap_or("")
                };
                let ended = tok.ends_with(['.', ',', ':', ';']);
                let name = name.trim_end_matches(['.', ',', ':', ';']);
                // Lower-case registry names only: a capitalised word is prose.
                if name.len() >= 3 && package_name(name, *pypi) {
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

/// Whether a token is written like a registry name: lower-case letters (Latin, or look-alikes
/// of them from another script), digits and `-_.`, starting with a letter; npm's `@scope/pkg`.
fn package_name(name: &str, pypi: bool) -> bool {
    let bare = match name.strip_prefix('@') {
        Some(scoped) if !pypi => match scoped.split_once('/') {
            Some((s, p)) if !s.is_empty() && !p.is_empty() && !p.contains('/') => {
                return package_name(s, false) && package_name(p, false);
            }
            _ => return false,
        },
        _ => name,
    };
    bare.chars().next().is_some_and(|c| c.is_alphabetic())
        && bare.chars().all(|c| {
            c.is_ascii_lowercase()
                || c.is_ascii_digit()
                || matches!(c, '-' | '_' | '.')
                || !c.is_ascii() && latin_skeleton(c.encode_utf8(&mut [0; 4])).is_some()
        })
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
                imitates(&normalise(&name, pypi), reg).map(|(p, how)| (name, p, how, pypi))
            });
            let Some((name, popular, how, pypi)) = hit else {
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
                    "The install steps order `{name}` from {}, {how} the widely used package `{popular}`: look-alike names are how typosquatted packages get installed. Install `{popular}` from its own documentation instead, and do not install this skill as it is.",
                    if pypi { "PyPI" } else { "npm" }
                ),
                related: Vec::new(),
            });
            break;
        }
    }
}
