//! Look-alike packages pulled in by code (round 32m): `require("1odash")`, `import x from "axois"`,
//! a `package.json` dependency or a `requirements.txt` line one edit away from a widely used
//! package.
//!
//! The install-step rule (`prose::squat`, `supply_chain.typosquat-install`) reads install commands
//! in documents; a server or script that loads the look-alike by name, or a manifest that declares
//! it, installs it just the same. The names and the one-edit test are the install rule's
//! (`guest/rules/popular-packages.json`: popular names and real neighbours such as `preact`), so a
//! popular or listed real package, a relative path, a scoped or URL spec, or a name two or more
//! edits from every popular one gives nothing. One finding per file
//! (`supply_chain.typosquat-dependency`, `critical`). Linear in the bytes of the files that hold
//! `require(`, `from `, `import ` or a dependency list.

use super::Bundle;
use super::prose::squat::lookalike_of;
use crate::scan::content::{Finding, evidence};
use crate::scan::rules::Severity;

/// Where a file's dependency names come from.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Source {
    /// JavaScript / TypeScript source: `require("x")`, `import … from "x"`, `import("x")`.
    Js,
    /// `package.json`: the keys of `dependencies`, `devDependencies`, `optionalDependencies`.
    PackageJson,
    /// `requirements*.txt`: one PyPI name per line.
    Requirements,
}

pub(super) fn source_of(path: &str) -> Option<Source> {
    let l = crate::ascii_lowered(path);
    let base = l.rsplit('/').next().unwrap_or(&l);
    if base == "package.json" {
        Some(Source::PackageJson)
    } else if base.starts_with("requirements") && base.ends_with(".txt") {
        Some(Source::Requirements)
    } else if [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"]
        .iter()
        .any(|e| base.ends_with(e))
    {
        Some(Source::Js)
    } else {
        None
    }
}

/// A bare npm package name: lower-case letters, digits, `-`, `_`, `.`, starting with a letter or
/// digit (no scope, path, URL or protocol).
fn bare_npm(name: &str) -> bool {
    // `@scope/pkg` (round 39c: a look-alike scope).
    if let Some((s, p)) = name.strip_prefix('@').and_then(|r| r.split_once('/')) {
        return bare_npm(s) && bare_npm(p);
    }
    name.len() >= 3
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name.bytes().all(|c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'-' | b'_' | b'.')
        })
}

/// The quoted string right after `at` (skipping spaces and one `(`), if any.
fn quoted_after(line: &str, at: usize) -> Option<&str> {
    let rest = line[at..].trim_start().trim_start_matches('(').trim_start();
    let q = rest
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let body = &rest[1..];
    body.find(q).map(|e| &body[..e])
}

/// The module names a JavaScript line loads: `require("x")`, `import("x")`, `from "x"`,
/// `import "x"`. A sub-path (`x/sub`) names the package `x`.
fn js_names(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for key in ["require", "import", "from "] {
        let mut from = 0;
        while let Some(i) = line[from..].find(key).map(|i| i + from) {
            from = i + key.len();
            if i > 0
                && (line.as_bytes()[i - 1].is_ascii_alphanumeric()
                    || line.as_bytes()[i - 1] == b'_')
            {
                continue;
            }
            if let Some(spec) = quoted_after(line, from) {
                // `@scope/pkg/sub` is the package `@scope/pkg` (round 39c).
                let name = if spec.starts_with('@') {
                    let mut parts = spec.splitn(3, '/');
                    match (parts.next(), parts.next()) {
                        (Some(s), Some(p)) => &spec[..s.len() + 1 + p.len()],
                        _ => "",
                    }
                } else {
                    spec.split('/').next().unwrap_or("")
                };
                if bare_npm(name) {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// The dependency names a `package.json` declares (keys inside the dependency objects).
fn package_json_names(content: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    for (n, line) in content.lines().enumerate() {
        let t = line.trim();
        if !inside {
            if [
                "\"dependencies\"",
                "\"devDependencies\"",
                "\"optionalDependencies\"",
            ]
            .iter()
            .any(|k| t.starts_with(k))
                && t.contains('{')
            {
                inside = !t.contains('}');
            }
            continue;
        }
        if t.starts_with('}') {
            inside = false;
            continue;
        }
        if let Some(key) = t.strip_prefix('"').and_then(|r| r.split('"').next())
            && bare_npm(key)
        {
            out.push((n, key.to_owned()));
        }
    }
    out
}

/// The PyPI name of a requirements line (`x==1.2`, `x[extra]>=2`, `x ; python_version<"3.9"`).
fn requirement_name(line: &str) -> Option<&str> {
    let t = line.trim();
    if t.is_empty() || t.starts_with(['#', '-']) || t.contains("://") {
        return None;
    }
    let name = t
        .split(['=', '<', '>', '!', '~', '[', ';', ' ', '@'])
        .next()
        .unwrap_or("");
    (name.len() >= 3
        && name.as_bytes()[0].is_ascii_alphabetic()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')))
    .then_some(name)
}

pub(super) fn lookalike_deps(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let Some(src) = source_of(file.path) else {
            continue;
        };
        let hits: Vec<(usize, String, bool)> = match src {
            Source::PackageJson => package_json_names(file.content)
                .into_iter()
                .map(|(n, name)| (n, name, false))
                .collect(),
            Source::Requirements => file
                .content
                .lines()
                .enumerate()
                .filter_map(|(n, l)| requirement_name(l).map(|x| (n, x.to_owned(), true)))
                .collect(),
            Source::Js => {
                let c = file.content;
                if !(c.contains("require") || c.contains("import") || c.contains("from ")) {
                    continue;
                }
                c.lines()
                    .enumerate()
                    .flat_map(|(n, l)| {
                        js_names(l)
                            .into_iter()
                            .map(move |x| (n, x.to_owned(), false))
                    })
                    .collect()
            }
        };
        let hit = hits.into_iter().find_map(|(n, name, pypi)| {
            lookalike_of(&name, pypi).map(|(p, how)| (n, name, p, how, pypi))
        });
        let Some((n, name, popular, how, pypi)) = hit else {
            continue;
        };
        let line = file.content.lines().nth(n).unwrap_or("");
        out.push(Finding {
            rule_id: "supply_chain.typosquat-dependency".into(),
            category: "supply_chain".into(),
            severity: Severity::Critical,
            file: file.path.into(),
            line: n + 1,
            evidence: evidence(line, 0, line.len()),
            description: format!(
                "The code depends on `{name}` ({}), {how} the widely used package `{popular}`: a look-alike name loads whatever its publisher put there. Use `{popular}` itself, and do not install this skill as it is.",
                if pypi { "PyPI" } else { "npm" }
            ),
            related: Vec::new(),
        });
    }
}
