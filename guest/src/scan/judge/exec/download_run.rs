//! `supply_chain.download-execute`: a file downloaded on one line (or in one script) and run,
//! sourced, made executable or evaluated on another, graded by where it came from; also a download
//! from a suspicious host next to any run of code in the same file.

use super::dropper::{self, dropper, saved_to_hidden_variable, stealthy};
use super::{advice, grade, inline_eval, shipped_script, source_host, unknown_named_host};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::judge::flow::{FileFlow, download_key, names_key, sink_target};
use crate::scan::judge::{At, Bundle, finding};
use crate::scan::rules::Severity;

/// Lines after a download in a document's prose within which a sentence running it counts.
const DOC_RUN_WINDOW: u32 = 10;

/// The download a run finding points back to, unless both are on the same line (the evidence
/// already shows it).
fn download_related(download: &At<'_>, run: &At<'_>) -> Vec<crate::scan::content::Related> {
    if download.fact.line == run.fact.line {
        Vec::new()
    } else {
        vec![download.related("download")]
    }
}

pub(super) fn download_execute(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    let mut done: Vec<(usize, u32)> = Vec::new();
    for (fi, (file, flow)) in b.files.iter().zip(flows).enumerate() {
        let facts = &file.facts.facts;
        for f in &flow.code_flows {
            let src = At {
                file,
                fact: &facts[f.source],
            };
            let sink = At {
                file,
                fact: &facts[f.sink],
            };
            if done.contains(&(fi, sink.fact.line)) {
                continue;
            }
            let (rule, category, sev, why) = if src.fact.kind == FactKind::Decode {
                (
                    "obfuscation.decode-execute",
                    "obfuscation",
                    Severity::Critical,
                    format!(
                        "Data decoded at {} is run as code at {}: hiding what runs from a reader has no honest use in a skill. Do not install it.",
                        src.place(),
                        sink.place()
                    ),
                )
            } else {
                let host = source_host(b, &src, flow);
                let Some((mut sev, from)) = grade(host.as_ref()) else {
                    continue;
                };
                // A clone of a repository to build it is ordinary; only a suspicious host matters.
                // So is the project's own release asset (an owner named after the skill).
                if (src.text().contains("git clone")
                    || host.as_ref().is_some_and(|h| {
                        crate::scan::judge::release_named_after(h, &b.name_words())
                    }))
                    && sev < Severity::Critical
                {
                    sev = Severity::Medium;
                }
                let sudo = facts
                    .iter()
                    .any(|x| x.kind == FactKind::Sudo && x.line == sink.fact.line);
                let stealth = stealthy(b, &src, &sink)
                    .or_else(|| {
                        saved_to_hidden_variable(&src, flow)
                            .then_some("from a hidden or temporary place (through a variable)")
                    })
                    .or_else(|| dropper(file, &src, &sink, host.as_ref()));
                let stealth = stealth
                    .or_else(|| inline_eval::one_liner(&src, &sink))
                    .or_else(|| inline_eval::in_memory(&src, &sink));
                if (sudo || stealth.is_some()) && sev == Severity::High {
                    sev = Severity::Critical;
                }
                // Downloaded and run by a script the bundle ships (see `remote_code`), unless the
                // script checks a checksum or signature or unpacks an archive first (what
                // installers of releases do).
                let shipped = sev == Severity::High
                    && stealth.is_none()
                    && !sudo
                    && !src.fact.prose
                    && !sink.fact.prose
                    && shipped_script(file)
                    && host.as_ref().is_some_and(unknown_named_host)
                    && !dropper::verified_or_archive(file, &src, host.as_ref());
                if shipped {
                    sev = Severity::Critical;
                }
                let stealth = stealth.map(str::to_owned).or_else(|| {
                    shipped.then(|| format!("in a script the bundle ships ({})", file.path))
                });
                let via: Vec<String> = f
                    .via
                    .iter()
                    .map(|(l, n)| format!("`{n}` (line {l})"))
                    .collect();
                (
                    "supply_chain.download-execute",
                    "supply_chain",
                    sev,
                    format!(
                        "Content downloaded {from} at {} is run at {}{}{}{}. {}",
                        src.place(),
                        sink.place(),
                        if via.is_empty() {
                            String::new()
                        } else {
                            format!(" (through {})", via.join(", "))
                        },
                        if sudo {
                            " with administrator rights"
                        } else {
                            ""
                        },
                        stealth.map(|w| format!(", {w}")).unwrap_or_default(),
                        advice(sev)
                    ),
                )
            };
            done.push((fi, sink.fact.line));
            out.push(finding(
                rule,
                category,
                sev,
                sink,
                why,
                download_related(&src, &sink),
            ));
        }
        // A download and, within a few lines after it, a run of something local (`./x`, `/tmp/x`,
        // `$DIR/x`): what a fetched archive was unpacked into.
        for d in b.in_file(file, FactKind::Download).chain(
            b.in_file(file, FactKind::PipeExec)
                .filter(|p| b.tag(p.fact) == "extract"),
        ) {
            if d.fact.prose {
                continue;
            }
            let Some(run) = facts.iter().find(|x| {
                x.kind == FactKind::RunFile
                    && !x.prose
                    && x.line >= d.fact.line
                    && x.line <= d.fact.line + 5
                    && {
                        let t = sink_target(file, x);
                        let t = t.trim_matches(['"', '\'']);
                        t.starts_with("./")
                            || t.starts_with("/tmp/")
                            || t.starts_with('$')
                            || t.starts_with("~/")
                    }
            }) else {
                continue;
            };
            if done.contains(&(fi, run.line))
                || flow.code_flows.iter().any(|f| {
                    f.sink
                        == facts
                            .iter()
                            .position(|x| std::ptr::eq(x, run))
                            .unwrap_or(usize::MAX)
                })
            {
                continue;
            }
            let host = source_host(b, &d, flow);
            let Some((mut sev, from)) = grade(host.as_ref()) else {
                continue;
            };
            if d.text().contains("git clone") && sev < Severity::Critical {
                sev = Severity::Medium;
            }
            let sink = At { file, fact: run };
            let stealth = stealthy(b, &d, &sink);
            if stealth.is_some() && sev == Severity::High {
                sev = Severity::Critical;
            }
            // Unconnected by name, an ordinary host is not enough (release archives are unpacked
            // and run this way every day).
            if sev < Severity::Critical {
                continue;
            }
            done.push((fi, run.line));
            let why = format!(
                "Content is downloaded {from} at {} and a local program is run right after at {}{}. {}",
                d.place(),
                sink.place(),
                stealth.map(|w| format!(", {w}")).unwrap_or_default(),
                advice(sev)
            );
            out.push(finding(
                "supply_chain.download-execute",
                "supply_chain",
                sev,
                sink,
                why,
                download_related(&d, &sink),
            ));
        }
        // A download from a suspicious host next to any run of code, unconnected.
        if flow.code_flows.is_empty() {
            let fetches = b
                .in_file(file, FactKind::Download)
                .chain(b.in_file(file, FactKind::FetchToValue))
                .filter_map(|at| {
                    let h = source_host(b, &at, flow)?;
                    h.class.is_suspicious().then_some((at, h))
                })
                .next();
            let runner = facts
                .iter()
                .find(|x| matches!(x.kind, FactKind::RunFile | FactKind::EvalValue) && !x.prose)
                .map(|fact| At { file, fact });
            if let (Some((src, h)), Some(run)) = (fetches, runner)
                && !done.contains(&(fi, run.fact.line))
            {
                done.push((fi, run.fact.line));
                let why = format!(
                    "This file downloads from {} ({}) at {} and runs code at {}. Fetching from such a place next to running code is how droppers work: do not install this skill.",
                    h.host,
                    h.class.phrase(),
                    src.place(),
                    run.place()
                );
                out.push(finding(
                    "supply_chain.download-execute",
                    "supply_chain",
                    Severity::Critical,
                    run,
                    why,
                    vec![src.related("download")],
                ));
            }
        }
    }
    // In a document's prose (inline code in sentences): a download saved under a name that a
    // sentence a few lines later runs. Only a critical grade is reported (a suspicious host, or a
    // hidden or temporary place): a person reads documentation before running it, and vendors'
    // install pages are written this way.
    for (fi, (file, flow)) in b.files.iter().zip(flows).enumerate() {
        if file.kind == crate::scan::content::FileKind::Code {
            continue;
        }
        for d in b.in_file(file, FactKind::Download).filter(|d| d.fact.prose) {
            // The host first: a vendor's or a local download can never be reported here.
            let host = source_host(b, &d, flow);
            let Some((mut sev, from)) = grade(host.as_ref()) else {
                continue;
            };
            if sev < Severity::High {
                continue;
            }
            let Some(key) = download_key(b, file, d.fact) else {
                continue;
            };
            let Some(run) = file.facts.facts.iter().find(|x| {
                x.kind == FactKind::RunFile
                    && x.prose
                    && x.line >= d.fact.line
                    && x.line <= d.fact.line + DOC_RUN_WINDOW
                    && names_key(&sink_target(file, x), &key)
            }) else {
                continue;
            };
            if done.contains(&(fi, run.line)) {
                continue;
            }
            let sink = At { file, fact: run };
            let stealth = stealthy(b, &d, &sink);
            if stealth.is_some() && sev == Severity::High {
                sev = Severity::Critical;
            }
            if sev < Severity::Critical {
                continue;
            }
            done.push((fi, run.line));
            let why = format!(
                "The text has the reader download `{key}` {from} at {} and run it at {}{}. {}",
                d.place(),
                sink.place(),
                stealth.map(|w| format!(", {w}")).unwrap_or_default(),
                advice(sev)
            );
            out.push(finding(
                "supply_chain.download-execute",
                "supply_chain",
                sev,
                sink,
                why,
                download_related(&d, &sink),
            ));
        }
    }
    // Across files: a download saved under a name that another file runs.
    for (fi, (file, flow)) in b.files.iter().zip(flows).enumerate() {
        for d in &flow.downloads {
            if d.key.starts_with('$')
                || d.key
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_')
                    && !d.key.contains('.')
                    && d.key.len() < 4
            {
                continue;
            }
            let src = At {
                file,
                fact: &file.facts.facts[d.origin],
            };
            for (gi, other) in b.files.iter().enumerate() {
                if gi == fi {
                    continue;
                }
                for run in other
                    .facts
                    .facts
                    .iter()
                    .filter(|x| x.kind == FactKind::RunFile)
                {
                    let target = sink_target(other, run);
                    let resolved = flows[gi]
                        .defs
                        .resolve(
                            target.trim_matches(['"', '\'', '$', '{', '}', '[', ']']),
                            &|rhs: &str| {
                                crate::scan::judge::code::literals(rhs)
                                    .into_iter()
                                    .next()
                                    .map(str::to_owned)
                                    .or_else(|| bare_path(rhs))
                            },
                        )
                        .map(|(v, _)| v)
                        .unwrap_or_default();
                    if !(names_saved(&target, &d.key) || names_saved(&resolved, &d.key))
                        || done.contains(&(gi, run.line))
                    {
                        continue;
                    }
                    let host = source_host(b, &src, flow);
                    let Some((mut sev, from)) = grade(host.as_ref()) else {
                        continue;
                    };
                    done.push((gi, run.line));
                    let sink = At {
                        file: other,
                        fact: run,
                    };
                    let stealth = stealthy(b, &src, &sink)
                        .or_else(|| dropper(other, &src, &sink, host.as_ref()));
                    if stealth.is_some() && sev == Severity::High {
                        sev = Severity::Critical;
                    }
                    let why = format!(
                        "{} downloads `{}` {from}, and {} runs it{}. Splitting the download and the run across files does not change what it does. {}",
                        src.place(),
                        d.key,
                        sink.place(),
                        stealth.map(|w| format!(", {w}")).unwrap_or_default(),
                        advice(sev)
                    );
                    out.push(finding(
                        "supply_chain.download-execute",
                        "supply_chain",
                        sev,
                        sink,
                        why,
                        vec![src.related("download")],
                    ));
                }
            }
        }
    }
    let _ = download_key;
}

/// A variable's value written without quotes (`ENGINE=.cache/tool/engine`): a path, when it is one
/// word with a `/` and no substitution.
fn bare_path(rhs: &str) -> Option<String> {
    let t = rhs.trim().trim_end_matches(';');
    (!t.is_empty()
        && t.contains('/')
        && !t.contains(|c: char| {
            c.is_whitespace() || matches!(c, '$' | '(' | ')' | '`' | '"' | '\'')
        })
        && !t.contains("://"))
    .then(|| t.to_owned())
}

/// Whether a run target names a file saved under `key`: a name without an extension (`signup`, a
/// URL's last segment) followed by one (`scripts/signup.sh`) is another file.
fn names_saved(target: &str, key: &str) -> bool {
    if key.contains('.') {
        return names_key(target, key);
    }
    let mut kept = String::with_capacity(target.len());
    let mut rest = target;
    while let Some(i) = rest.find(key) {
        let after = &rest[i + key.len()..];
        let extension = after
            .strip_prefix('.')
            .is_some_and(|a| a.starts_with(|c: char| c.is_ascii_alphanumeric()));
        kept.push_str(&rest[..i]);
        kept.push_str(if extension { " " } else { key });
        rest = after;
    }
    kept.push_str(rest);
    names_key(&kept, key)
}

#[cfg(test)]
mod saved_name_tests {
    use super::names_saved;

    #[test]
    fn a_name_without_extension_is_not_the_same_name_with_one() {
        assert!(!names_saved("bash scripts/signup.sh", "signup"));
        assert!(names_saved("chmod +x ./signup && ./signup", "signup"));
        assert!(names_saved("bash /tmp/signup", "signup"));
        assert!(names_saved("python3 agent.py", "agent.py"));
    }
}
