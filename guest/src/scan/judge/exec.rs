//! Code from elsewhere being run, and hostile commands whose target only a reader of the whole
//! file can see.
//!
//! - `supply_chain.remote-code`: downloaded content piped or fed into an interpreter (`curl … | sh`,
//!   `bash -c "$(curl …)"`, `iex (…DownloadString(…))`, `mshta URL`), graded by where it comes from:
//!   a vendor's installer host is informational, an unknown https host `high`, a raw IP, plain
//!   http, a paste site, a tunnel or a lookalike host `critical`.
//! - `supply_chain.download-execute`: a file downloaded on one line (or in one script) and run,
//!   sourced, made executable or evaluated on another, graded the same way; also a download from a
//!   suspicious host next to any run of code in the same file.
//! - `obfuscation.decode-execute`: decoded data evaluated as code.
//! - `obfuscation.split-name`: a runner's or downloader's name spelled in pieces (`'ev' + 'al'`).
//! - `network.reverse-shell`: an outbound socket and a shell wired to it within a few lines.
//! - `destructive.resolved-target`: a recursive delete or raw disk write whose target, followed
//!   through the file's variables, is the system, the home folder or a disk.
//! - `persistence.payload`: a persistence write (shell rc, cron, services, login items) in a file
//!   that also fetches or runs remote code.

use super::flow::{FileFlow, download_key, names_key, sink_target};
use super::{At, Bundle, File, Host, finding, hosts_in};
use crate::scan::content::{FileKind, Finding};
use crate::scan::facts::FactKind;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

mod autorun;
mod deny_list;
mod destructive;
mod dropper;
pub(crate) mod hidden;
mod imported;
mod inline_eval;
mod split_names;

use destructive::destructive;
use dropper::{dropper, saved_to_hidden_variable, stealthy};

/// How bad running code from `host` is.
fn grade(host: Option<&Host>) -> Option<(Severity, String)> {
    match host {
        None => Some((
            Severity::High,
            "from a place the file does not show (a variable filled elsewhere)".into(),
        )),
        // An address the text hides (assembled at run time behind plain http, or encoded): no
        // vendor names its installer that way.
        Some(h) if h.url.is_empty() => Some((Severity::Critical, format!("from {}", h.host))),
        Some(h) => {
            let insecure = h.url.starts_with("http://");
            let sev = match h.class {
                HostClass::Local => return None,
                HostClass::Vendor | HostClass::Installer | HostClass::Registry => Severity::Medium,
                HostClass::Unknown if insecure => Severity::Critical,
                HostClass::Unknown => Severity::High,
                _ => Severity::Critical,
            };
            let what = if insecure && h.class == HostClass::Unknown {
                format!(
                    "from {} over plain http (anyone on the path can swap it)",
                    h.host
                )
            } else {
                format!("from {} ({})", h.host, h.class.phrase())
            };
            Some((sev, what))
        }
    }
}

/// The download a run finding points back to, unless both are on the same line (the evidence
/// already shows it).
fn download_related(download: &At<'_>, run: &At<'_>) -> Vec<crate::scan::content::Related> {
    if download.fact.line == run.fact.line {
        Vec::new()
    } else {
        vec![download.related("download")]
    }
}

fn advice(sev: Severity) -> &'static str {
    match sev {
        Severity::Critical => {
            "Code fetched from such a place can be anything by the time it runs: do not install this skill."
        }
        Severity::High => {
            "Nothing in the bundle shows what that code does; review it (and pin a checksum) before installing."
        }
        _ => "This is a documented vendor installer; informational.",
    }
}

/// The host a fact's code comes from (its statement's first URL, resolved through names).
fn source_host(b: &Bundle<'_>, at: &At<'_>, flow: &FileFlow) -> Option<Host> {
    let idx = at.file.facts.index_of(at.fact);
    if let Some((hosts, _)) = flow.hosts.get(&idx)
        && let Some(h) = hosts.first()
    {
        return Some(h.clone());
    }
    if let Some(h) = hosts_in(&at.text()).into_iter().next() {
        return Some(h);
    }
    // Not on the line and not through a name defined before it (a URL passed into a function):
    // a suspicious URL elsewhere in the same file stands in.
    let urls: Vec<Host> = b
        .in_file(at.file, FactKind::Url)
        .filter(|u| !u.fact.prose)
        .flat_map(|u| hosts_in(&u.text()))
        .collect();
    super::worst(&urls)
        .filter(|h| h.class.is_suspicious())
        .cloned()
        .or_else(|| {
            hidden::hidden_source(
                &at.text(),
                at.file
                    .hidden
                    .get_or_init(|| hidden::FileHidden::of(at.file.content)),
            )
        })
        // A script whose code names one host only: that is where its download comes from (the URL
        // passed in through a callback or a request object the names do not follow). Not in a
        // document: a runtime rule that quotes `curl … | sh` names no download of its own.
        .or_else(|| {
            if at.fact.prose || at.file.kind != FileKind::Code {
                return None;
            }
            let first = urls.first()?;
            urls.iter()
                .all(|u| u.host == first.host)
                .then(|| first.clone())
        })
}

pub fn judge(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    remote_code(b, flows, out);
    download_execute(b, flows, out);
    imported::imported_code(b, flows, out);
    autorun::download_to_autorun(b, flows, out);
    autorun::fetched_made_executable_and_run(b, flows, out);
    reverse_shell(b, out);
    split_names::split_names(b, out);
    destructive(b, flows, out);
    persistence_payload(b, flows, out);
}

fn remote_code(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    for (file, flow) in b.files.iter().zip(flows) {
        let mut reported = 0;
        for at in b.in_file(file, FactKind::PipeExec) {
            if !matches!(b.tag(at.fact), "fetch" | "remote" | "package-url") {
                continue;
            }
            let host = source_host(b, &at, flow);
            // In prose, `curl … | sh` without an address is an illustration, not an instruction.
            if at.fact.prose && host.is_none() {
                continue;
            }
            // Without an address, in a data file's deny list (a guard's refused commands).
            if host.is_none() && deny_list::refused(file.path, file.content, at.fact) {
                continue;
            }
            let Some((mut sev, from)) = grade(host.as_ref()) else {
                continue;
            };
            // A package installed from a URL is common practice (git+https, tarballs): high only when
            // the host is suspicious.
            if b.tag(at.fact) == "package-url" && sev < Severity::Critical {
                sev = Severity::Medium;
            }
            // Windows' script hosts run a remote HTA or scriptlet (`mshta URL`, `regsvr32 /i:URL`,
            // `rundll32 … URL`): no vendor installs that way, it is the "paste this into Run" lure.
            // (In a code block or script; named inline in a sentence it may be a description.)
            if sev < Severity::Critical && !at.fact.prose && script_host(&at.matched()) {
                sev = Severity::Critical;
            }
            // An unknown host's script run with the machine's protections lifted first (an
            // elevated prompt the text asks for, the execution policy bypassed): vendors whose
            // installers need that are known hosts and were graded lower above.
            let elevated = sev == Severity::High && elevated_before(b, &at);
            if elevated {
                sev = Severity::Critical;
            }
            // Run in a hidden window (`powershell -w hidden -c "iwr … | iex"`): an installer shows
            // its work; hiding the window is what the "paste this into Run" one-liners do.
            let hidden = sev == Severity::High && !at.fact.prose && hidden_window(&at.text());
            if hidden {
                sev = Severity::Critical;
            }
            // An unknown host's installer, and the bundle has the user hand account passwords
            // to a command that stores them (`tool set X_PASSWORD "your-password"`): the
            // credential-theft-through-an-installer shape. A vendor's installer was graded
            // lower above.
            let handover = if sev == Severity::High {
                b.all(FactKind::PasswordHandover).next()
            } else {
                None
            };
            if handover.is_some() {
                sev = Severity::Critical;
            }
            // The installer of the tool the skill is named after, from that tool's own https site
            // (`acme-sh-ssl` running `curl https://get.acme.sh | sh`): the skill's job, graded like
            // a vendor's installer. Only an unknown host still graded `high` here: a brand
            // lookalike, plain http, a paste site or a raw address is not lowered.
            let own_tool = sev == Severity::High
                && host.as_ref().is_some_and(|h| {
                    h.class == HostClass::Unknown
                        && h.url.starts_with("https://")
                        && super::installer_named_after(&h.host, &b.name_words())
                })
                // The vendor's own package index (`pip install … --index-url
                // https://pypi.<vendor>.<tld>`) in a skill named after that vendor (round 30).
                || sev == Severity::High
                    && !at.fact.prose
                    && super::disclosed::package_index_named_after(&at.text(), &b.name_words());
            if own_tool {
                sev = Severity::Medium;
            }
            // In a script the bundle ships (not a document showing how to install something): the
            // skill itself runs whatever an unknown host serves when the script runs. Vendors',
            // installers' and registries' hosts were graded lower above, and so was the tool's
            // own site.
            let shipped = sev == Severity::High
                && !at.fact.prose
                && shipped_script(file)
                && host.as_ref().is_some_and(unknown_named_host);
            if shipped {
                sev = Severity::Critical;
            }
            let why = format!(
                "This line runs code fetched {from} without saving or checking it first ({}){}. {}",
                b.title(at.fact).to_lowercase(),
                if shipped {
                    format!(
                        ", in a script the bundle ships ({}), so it runs whenever the skill does",
                        file.path
                    )
                } else if elevated {
                    ", with administrator rights or the script execution policy bypassed just before".to_string()
                } else if hidden {
                    ", in a hidden window".to_string()
                } else if own_tool {
                    ", the installer site of the tool the skill is named after".to_string()
                } else if let Some(h) = &handover {
                    format!(
                        ", and the skill has the user hand an account password (`{}`) to a command at {}: passwords given to a program from a host nobody vouches for are credentials handed over",
                        h.fact.capture.as_deref().unwrap_or("a password"),
                        h.place()
                    )
                } else {
                    String::new()
                },
                advice(sev)
            );
            out.push(finding(
                "supply_chain.remote-code",
                "supply_chain",
                sev,
                at,
                why,
                handover
                    .map(|h| vec![h.related("credentials")])
                    .unwrap_or_default(),
            ));
            reported += 1;
            if reported >= 5 {
                break;
            }
        }
    }
}

/// Whether a file is a script the bundle ships (a shell, Python, JavaScript/TypeScript,
/// PowerShell, Ruby, Perl or batch file, or any file starting with `#!`), outside test and
/// signature folders: code that runs when the skill does, unlike a document, a fenced example or a
/// configuration file.
pub(crate) fn shipped_script(file: &File<'_>) -> bool {
    if file.kind != FileKind::Code || file.place.test || file.place.signature {
        return false;
    }
    if file.content.starts_with("#!") {
        return true;
    }
    let name = file.path.rsplit('/').next().unwrap_or(file.path);
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    SCRIPT_EXTS.contains(&ext.as_str())
}

/// Extensions of the scripts a bundle ships ([`shipped_script`]).
pub(crate) const SCRIPT_EXTS: &[&str] = &[
    "sh", "bash", "zsh", "command", "py", "js", "mjs", "cjs", "ts", "mts", "ps1", "psm1", "rb",
    "pl", "bat", "cmd",
];

/// Whether a host is a named host nobody vouches for, reached over https: not a vendor's or a
/// code forge's (which serve projects' own installers and releases), not plain http or a
/// suspicious class (graded `critical` already), not an address the file hides (no URL).
fn unknown_named_host(h: &Host) -> bool {
    h.class == HostClass::Unknown
        && h.url.starts_with("https://")
        && crate::scan::hosts::vendor_of_host(&h.host).is_none()
}

/// Whether a request uploads local data: stdin or a file as the body (`--data-binary @-`,
/// `-d @file`, `--upload-file`, `-T file`, `-F f=@file`).
fn uploads_local_data(text: &str) -> bool {
    [
        "@-",
        "--data-binary @",
        "-d @",
        "--data @",
        "--upload-file",
        " -T ",
        "=@",
    ]
    .iter()
    .any(|w| text.contains(w))
}

/// Lines after a download in a document's prose within which a sentence running it counts.
const DOC_RUN_WINDOW: u32 = 10;

/// Lines before a remote-code run within which an elevation or policy bypass counts.
const ELEVATION_LOOK: u32 = 10;

/// Whether the text asks for administrator rights (a privilege-grant fact) or bypasses the script
/// execution policy within [`ELEVATION_LOOK`] lines before `at` (or on its line).
fn elevated_before(b: &Bundle<'_>, at: &At<'_>) -> bool {
    let line = at.fact.line;
    let near = |l: u32| l <= line && l + ELEVATION_LOOK >= line;
    if b.in_file(at.file, FactKind::PrivilegeGrant)
        .any(|p| near(p.fact.line))
    {
        return true;
    }
    at.file
        .content
        .lines()
        .enumerate()
        .skip(line.saturating_sub(ELEVATION_LOOK + 1) as usize)
        .take(ELEVATION_LOOK as usize + 1)
        .any(|(_, l)| {
            let l = l.to_ascii_lowercase();
            l.contains("executionpolicy bypass") || l.contains("executionpolicy unrestricted")
        })
}

/// Whether a command line hides its window (`powershell -w hidden`, `-WindowStyle Hidden`).
fn hidden_window(text: &str) -> bool {
    let l = text.to_ascii_lowercase();
    // `-w h`, `-win hid`, `-WindowStyle Hidden`: PowerShell takes any prefix of the option and of
    // its value.
    let words: Vec<&str> = l.split_whitespace().collect();
    words.windows(2).any(|w| {
        let opt = w[0].trim_start_matches(['"', '\'']);
        let val = w[1].trim_matches(['"', '\'', ';']);
        opt.len() >= 2
            && "-windowstyle".starts_with(opt)
            && ((val == "1" && opt.len() >= 4) || (!val.is_empty() && "hidden".starts_with(val)))
    })
}

/// Whether a matched command runs a remote script through a Windows script host.
fn script_host(matched: &str) -> bool {
    let m = matched.to_ascii_lowercase();
    ["mshta", "regsvr32", "rundll32"]
        .iter()
        .any(|h| m.starts_with(h) || m.contains(&format!(" {h}")))
}

fn download_execute(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
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
                    || host
                        .as_ref()
                        .is_some_and(|h| super::release_named_after(h, &b.name_words())))
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
                let stealth = stealth.or_else(|| inline_eval::one_liner(&src, &sink));
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
                                super::code::literals(rhs)
                                    .into_iter()
                                    .next()
                                    .map(str::to_owned)
                                    .or_else(|| bare_path(rhs))
                            },
                        )
                        .map(|(v, _)| v)
                        .unwrap_or_default();
                    if !(names_key(&target, &d.key) || names_key(&resolved, &d.key))
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

/// An outbound socket (or a listener) and a shell wired to it within a few lines.
fn reverse_shell(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    const WINDOW: u32 = 30;
    for file in &b.files {
        let shells: Vec<At<'_>> = b
            .in_file(file, FactKind::ShellSpawn)
            .filter(|a| !a.fact.prose)
            .collect();
        if shells.is_empty() {
            continue;
        }
        let sockets = b
            .in_file(file, FactKind::SocketConnect)
            .chain(b.in_file(file, FactKind::Listener))
            .filter(|a| !a.fact.prose);
        for sock in sockets {
            let Some(shell) = shells
                .iter()
                .find(|s| s.fact.line.abs_diff(sock.fact.line) <= WINDOW)
            else {
                continue;
            };
            let hosts = hosts_in(&sock.text());
            let local = hosts.first().is_some_and(|h| h.class == HostClass::Local);
            let listener = sock.fact.kind == FactKind::Listener;
            let sev = if local && !listener {
                Severity::High
            } else {
                Severity::Critical
            };
            let why = format!(
                "{} at {} and {} at {}: a shell driven through a network connection is a {}. Do not install this skill.",
                b.title(sock.fact),
                sock.place(),
                b.title(shell.fact).to_lowercase(),
                shell.place(),
                if listener {
                    "remote command backdoor"
                } else {
                    "reverse shell"
                }
            );
            out.push(finding(
                "network.reverse-shell",
                "network",
                sev,
                *shell,
                why,
                vec![sock.related("connection")],
            ));
            break;
        }
    }
}

fn persistence_payload(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    for (file, flow) in b.files.iter().zip(flows) {
        let writes: Vec<At<'_>> = b
            .in_file(file, FactKind::Write)
            .filter(|a| {
                matches!(
                    b.tag(a.fact),
                    "shell-rc" | "cron" | "service" | "login-item" | "git-hook" | "ssh-authorized"
                )
            })
            .take(32)
            .collect();
        let Some(&first) = writes.first() else {
            continue;
        };
        // The payload: code piped in from a host that is not a vendor's, or anything fetched from a
        // suspicious host.
        let payload = b
            .in_file(file, FactKind::PipeExec)
            .filter(|a| matches!(b.tag(a.fact), "fetch" | "remote"))
            .filter(|a| {
                source_host(b, a, flow)
                    .is_some_and(|h| !h.class.is_known_good() && h.class != HostClass::Local)
            })
            .chain(
                b.in_file(file, FactKind::Download)
                    .chain(b.in_file(file, FactKind::FetchToValue))
                    .chain(b.in_file(file, FactKind::NetSend))
                    .filter(|a| source_host(b, a, flow).is_some_and(|h| h.class.is_suspicious())),
            )
            // Or local data piped or uploaded to a host that is not a known vendor's (a hook or
            // job that ships the diff, a file or the output of a command on every run).
            .chain(b.in_file(file, FactKind::NetSend).filter(|a| {
                uploads_local_data(&a.text())
                    && source_host(b, a, flow).is_some_and(|h| {
                        h.class == HostClass::Unknown
                            && crate::scan::hosts::vendor_of_host(&h.host).is_none()
                    })
            }))
            .find(|a| !a.fact.prose)
            .map(|p| (first, p))
            // Or a persisted line runs a file this file downloaded from a host that is neither a
            // vendor's nor a registry's (a task or unit that starts the fetched program at login).
            .or_else(|| persisted_download(b, file, flow, &writes))
            // Or a persisted line itself runs something hidden, temporary or fetched.
            .or_else(|| {
                writes
                    .iter()
                    .find(|w| persists_stealthy(b, w))
                    .map(|&w| (w, w))
            });
        let Some((write, p)) = payload else { continue };
        let same = std::ptr::eq(p.fact, write.fact);
        let why = if same {
            format!(
                "{}, and what it makes run again on every login or on a schedule runs from a hidden or temporary place or fetches code ({}). Do not install this skill.",
                b.title(write.fact),
                write.place()
            )
        } else {
            format!(
                "{} ({}), in a file that also fetches code or sends data to a host that is not a known vendor's ({}): something that reaches out is being made to run again on every login or on a schedule. Do not install this skill.",
                b.title(write.fact),
                write.place(),
                p.place()
            )
        };
        let related = if same {
            Vec::new()
        } else {
            vec![p.related("payload")]
        };
        out.push(finding(
            "persistence.payload",
            "persistence",
            Severity::Critical,
            write,
            why,
            related,
        ));
    }
}

/// A persistence write whose line names the file a download of this file saved (by its file
/// name), when the download came from a host that is neither known-good nor local nor a vendor's.
fn persisted_download<'a>(
    b: &'a Bundle<'a>,
    file: &'a crate::scan::judge::File<'a>,
    flow: &FileFlow,
    writes: &[At<'a>],
) -> Option<(At<'a>, At<'a>)> {
    b.in_file(file, FactKind::Download)
        .filter(|d| !d.fact.prose)
        .filter(|d| {
            source_host(b, d, flow).is_some_and(|h| {
                !h.class.is_known_good()
                    && h.class != HostClass::Local
                    && crate::scan::hosts::vendor_of_host(&h.host).is_none()
            })
        })
        .find_map(|d| {
            let saved = d.fact.capture.as_deref()?;
            let name = saved
                .trim_matches(['"', '\'', '`'])
                .rsplit(['/', '\\'])
                .next()
                .unwrap_or("")
                .trim_matches(['"', '\'', '`']);
            // A name made only of a variable (`$out`) says nothing about which file runs.
            if name.len() < 3 || name.contains('$') || name.contains('{') {
                return None;
            }
            writes
                .iter()
                .find(|w| w.fact.line != d.fact.line && w.text().contains(name))
                .map(|&w| (w, d))
        })
}

/// Whether what a persistence write makes run again comes from a hidden or temporary place,
/// fetches or decodes code, or runs PowerShell in a hidden window or past the execution policy.
fn persists_stealthy(b: &Bundle<'_>, write: &At<'_>) -> bool {
    let t = write.text();
    // What is persisted: for a shell rc file, the text before the redirect into it.
    let content = if b.tag(write.fact) == "shell-rc" {
        t.split(">>").next().unwrap_or(&t).to_owned()
    } else {
        t.to_string()
    };
    let hidden_dir = b.tag(write.fact) != "shell-rc"
        && content.split(['/', '\\']).any(|c| {
            c.len() > 1
                && c.starts_with('.')
                && c != ".."
                && !matches!(
                    c,
                    ".local"
                        | ".cargo"
                        | ".config"
                        | ".nvm"
                        | ".pyenv"
                        | ".rbenv"
                        | ".volta"
                        | ".bun"
                        | ".deno"
                        // A project's own virtual environment or toolchain folders.
                        | ".venv"
                        | ".virtualenvs"
                        | ".rustup"
                        | ".asdf"
                        | ".sdkman"
                        | ".conda"
                )
        });
    let lower = content.to_ascii_lowercase();
    hidden_dir
        || [
            "/tmp/",
            "/var/tmp/",
            "/dev/shm/",
            "curl ",
            "wget ",
            "base64",
            "| sh",
            "|sh",
            "| bash",
            " nc ",
        ]
        .iter()
        .any(|w| content.contains(w))
        || [
            "-w hidden",
            "-windowstyle hidden",
            "-ep bypass",
            "-executionpolicy bypass",
        ]
        .iter()
        .any(|w| lower.contains(w))
}
