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

use super::flow::FileFlow;
use super::{At, Bundle, File, Host, finding, hosts_in};
use crate::scan::content::{FileKind, Finding};
use crate::scan::facts::FactKind;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

mod autorun;
pub(crate) mod deny_list;
mod destructive;
mod download_run;
mod dropper;
pub(crate) mod hidden;
mod imported;
mod inline_eval;
mod persistence;
mod reverse_shell;
mod split_names;

use destructive::destructive;
use download_run::download_execute;
use persistence::persistence_payload;
use reverse_shell::reverse_shell;

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
        // A code host under a placeholder owner (`raw.githubusercontent.com/YOUR_USERNAME/…`): a
        // template of the reader's own repository, which no one else can fill (round 45b).
        Some(h)
            if h.url.starts_with("https://") && crate::scan::hosts::template_repo_url(&h.url) =>
        {
            Some((
                Severity::Medium,
                format!(
                    "from {} under a placeholder owner (a template of the reader's own repository: check what your own copy runs)",
                    h.host
                ),
            ))
        }
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
            // Round 46t: in prose, inside a quoted attack sample whose injection phrase the line
            // rules already read as quoted (a lesson's or a detector's list of examples).
            let sample = sev < Severity::Critical && quoted_attack_sample(b, &at);
            if sample {
                sev = Severity::Low;
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
                } else if sample {
                    " (Informational: it stands inside a quoted attack sample whose injection phrase is read as quoted too, so it is mentioned rather than done)".to_string()
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

/// Round 46t: whether a prose fact's match stands inside a quotation (not words the text tells the
/// agent to say) on a line where a prompt-injection rule's hit was read as quoted (`low`): the
/// command is part of an attack sample shown, not an instruction.
fn quoted_attack_sample(b: &Bundle<'_>, at: &At<'_>) -> bool {
    use crate::scan::content::{is_quoted_match, is_scripted_speech};
    if !at.fact.prose {
        return false;
    }
    let text = at.text();
    let (s, e) = (at.fact.at as usize, at.fact.to as usize);
    if e > text.len() || !is_quoted_match(&text, s, e) || is_scripted_speech(&text, s) {
        return false;
    }
    let line = at.fact.line as usize;
    b.prior.iter().any(|f| {
        f.file == at.file.path
            && (f.line == line || sample_list(at.file, f.line, line))
            && f.rule_id.starts_with("prompt_injection.")
            && f.severity <= Severity::Low
    })
}

/// Round 47t: whether lines `a` and `b` (1-based, at most 3 apart) and every line between are
/// items of one list each wholly a quotation (`- "…"`): a list of quoted samples, so a quoted
/// injection on one item marks its neighbours as samples too.
fn sample_list(file: &File<'_>, a: usize, b: usize) -> bool {
    let (lo, hi) = (a.min(b), a.max(b));
    let lines = &file.lowered().lines;
    if lo == 0 || hi > lines.len() || hi - lo > 3 {
        return false;
    }
    lines[lo - 1..hi].iter().all(|l| {
        let t = l.trim();
        let item = t
            .strip_prefix("- ")
            .or_else(|| t.strip_prefix("* "))
            .map(str::trim_start);
        item.is_some_and(|i| {
            (i.starts_with('"') && (i.ends_with('"') || i.ends_with("\".")))
                || (i.starts_with('“') && (i.ends_with('”') || i.ends_with("”.")))
        })
    })
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
        || RUNS_ITS_COMMANDS.contains(&name.to_ascii_lowercase().as_str())
        // Round 46t: an Apptainer/Singularity definition file, whose `%post` section the image
        // build runs as root.
        || (ext == "def" && file.content.contains("\n%post"))
        // Round 50t: Snakemake rule files and Nextflow scripts, whose shell blocks the workflow
        // engine runs unattended.
        || matches!(ext.as_str(), "smk" | "nf")
}

/// Round 42t: definition files whose command lines a build, test or hook tool runs unattended
/// (tox, snapcraft, lefthook, Netlify, Drone, Woodpecker, devbox): their commands are a script
/// the bundle ships.
const RUNS_ITS_COMMANDS: &[&str] = &[
    "tox.ini",
    "snapcraft.yaml",
    "lefthook.yml",
    "lefthook.yaml",
    "netlify.toml",
    ".drone.yml",
    ".woodpecker.yml",
    "devbox.json",
    // Round 46t: Terragrunt's config (its `before_hook` / `after_hook` `execute` lists run on
    // every plan and apply).
    "terragrunt.hcl",
    // Round 50t: a workflow manager's rule file (Snakemake's `shell:` blocks run when the
    // workflow is run; `*.smk` and Nextflow's `*.nf` below).
    "snakefile",
];

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
