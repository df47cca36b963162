//! Round 36t: code downloaded in pieces and evaluated, and `source` of a path that climbs out of
//! the bundle into a system folder.
//!
//! - `supply_chain.download-execute` (streamed form): a fetch from a host that is neither local
//!   nor a vendor's (`https.get(url, res => …)`), its chunks appended to a name (`src += chunk`,
//!   `body.push(c)`, `$code .= $_`), and that name evaluated (`eval(src)`, `new Function(src)`)
//!   within a few lines. The variable flow cannot follow a value assembled in callbacks; the
//!   accumulation line is the link, and both ends are in the finding.
//! - `execution.source-escapes-bundle`: `source`/`.` of a path that climbs more folders up than
//!   the script sits below the bundle's root and then enters a system folder
//!   (`"$HERE/../../../../opt/hooks/init.sh"`): the script runs whatever that machine-wide file
//!   holds, which the bundle does not ship and the user never saw.

use super::{Bundle, finding, hosts_in};
use crate::scan::content::{Finding, Related};
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// Lines after a fetch within which the evaluation is looked for.
const STREAM_WINDOW: usize = 15;

/// The name an evaluation line runs (`eval(src)`, `eval $code`, `new Function(body)`), lowered.
fn evaluated_name(lower: &str) -> Option<String> {
    for opener in ["eval(", "eval ", "function("] {
        if let Some(i) = lower.find(opener) {
            let rest = lower[i + opener.len()..].trim_start();
            let rest = rest.trim_start_matches(['$', '"', '@']);
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                return Some(name);
            }
        }
    }
    None
}

/// Whether a line appends to `name` (`name += x`, `name .= x`, `name.push(x)`, `name = name + x`).
fn accumulates(lower: &str, name: &str) -> bool {
    let compact: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
    let n = name;
    [
        format!("{n}+="),
        format!("${n}.="),
        format!("{n}.push("),
        format!("{n}={n}+"),
        format!("{n}<<"),
    ]
    .iter()
    .any(|p| {
        compact.match_indices(p.as_str()).any(|(i, _)| {
            !compact[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

pub(super) fn streamed_eval(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let lower = &file.lowered().lower;
        for fetch in b.in_file(file, FactKind::FetchToValue) {
            if fetch.fact.prose {
                continue;
            }
            let Some(host) = hosts_in(&fetch.text())
                .into_iter()
                .find(|h| h.class.is_outside())
            else {
                continue;
            };
            let from = fetch.fact.line as usize; // the next line's index
            let evals = b.in_file(file, FactKind::EvalValue).filter(|e| {
                !e.fact.prose
                    && e.fact.line > fetch.fact.line
                    && (e.fact.line as usize) <= from + STREAM_WINDOW
            });
            for e in evals {
                let eidx = e.fact.line as usize - 1;
                let Some(name) = evaluated_name(&lower[eidx]) else {
                    continue;
                };
                let Some(acc) = (from - 1..eidx).find(|&i| accumulates(&lower[i], &name)) else {
                    continue;
                };
                if out.iter().any(|o| {
                    o.rule_id == "supply_chain.download-execute"
                        && o.file == file.path
                        && o.line == e.fact.line as usize
                }) {
                    break;
                }
                let why = format!(
                    "Content fetched from {} ({}) at {} is appended piece by piece to `{name}` (line {}) and evaluated as code at {}, held in memory and never saved where it could be read. Whatever that host serves runs here: do not install this skill.",
                    host.host,
                    host.class.phrase(),
                    fetch.place(),
                    acc + 1,
                    e.place()
                );
                out.push(finding(
                    "supply_chain.download-execute",
                    "supply_chain",
                    Severity::Critical,
                    e,
                    why,
                    vec![
                        fetch.related("download"),
                        Related {
                            role: "transform".into(),
                            file: file.path.into(),
                            line: acc + 1,
                            evidence: file.lowered().lines[acc].trim().to_owned(),
                        },
                    ],
                ));
                break;
            }
        }
    }
}

/// Top-level folders of a machine (not of a project): a path climbing out of the bundle into one
/// of these reads a machine-wide file.
const MACHINE_DIRS: &[&str] = &[
    "etc",
    "opt",
    "usr",
    "var",
    "tmp",
    "home",
    "users",
    "root",
    "srv",
    "mnt",
    "library",
    "private",
    "dev",
    "media",
    "applications",
];

/// The path a `source`/`.` line reads (lowered, quotes removed), if the line is one.
fn sourced_path(lower: &str) -> Option<String> {
    let l = lower.trim_start();
    let rest = l
        .strip_prefix("source ")
        .or_else(|| l.strip_prefix(". "))?
        .trim_start();
    let word = rest
        .split(|c: char| c.is_whitespace() || c == ';')
        .next()?
        .trim_matches(['"', '\'']);
    (!word.is_empty()).then(|| word.to_owned())
}

/// For a sourced path relative to the script (`$HERE/…`, `$(dirname "$0")/…`, `./…`, `../…`):
/// the number of folders it climbs and the first folder it enters after climbing.
fn climb(path: &str) -> Option<(usize, String)> {
    let rel = if path.starts_with('$') {
        // `$HERE/..`, `${DIR}/..`, `$(dirname "$0")/..`: the variable names the script's folder.
        let i = path.find("/..")?;
        &path[i + 1..]
    } else {
        path
    };
    let mut ups = 0;
    let mut next = String::new();
    for seg in rel.split('/') {
        match seg {
            "" | "." => continue,
            ".." => ups += 1,
            s => {
                next = s.to_owned();
                break;
            }
        }
    }
    (ups > 0).then_some((ups, next))
}

pub(super) fn source_escape(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| f.kind == crate::scan::content::FileKind::Code)
    {
        let depth = file.path.matches('/').count();
        for run in b.in_file(file, FactKind::RunFile) {
            if run.fact.prose {
                continue;
            }
            let Some(path) = sourced_path(&crate::ascii_lowered(&run.text())) else {
                continue;
            };
            let Some((ups, next)) = climb(&path) else {
                continue;
            };
            if ups <= depth || !MACHINE_DIRS.contains(&next.as_str()) {
                continue;
            }
            let why = format!(
                "The script at {} sources `{path}`: it climbs {ups} folders up from a script {depth} folder(s) below the bundle's root, out of the bundle, into the machine's `{next}` folder, and runs whatever that file holds — code the bundle does not ship and the user never saw. Do not install this skill.",
                run.place()
            );
            out.push(finding(
                "execution.source-escapes-bundle",
                "execution",
                Severity::Critical,
                run,
                why,
                Vec::new(),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_accumulation_and_climbs() {
        assert_eq!(
            evaluated_name("res.on('end', () => eval(src));").as_deref(),
            Some("src")
        );
        assert_eq!(evaluated_name("eval $plugin;").as_deref(), Some("plugin"));
        assert!(accumulates("res.on('data', (c) => (src += c));", "src"));
        assert!(accumulates("$code .= $_;", "code"));
        assert!(!accumulates("mysrc += c", "src"));
        assert_eq!(
            climb("$here/../../../../opt/hooks/init.sh"),
            Some((4, "opt".to_owned()))
        );
        assert_eq!(
            climb("$(dirname \"$0\")/../lib/common.sh"),
            Some((1, "lib".to_owned()))
        );
        assert_eq!(climb("lib/common.sh"), None);
        assert_eq!(
            sourced_path(". \"$dir/../env.sh\"").as_deref(),
            Some("$dir/../env.sh")
        );
    }
}
