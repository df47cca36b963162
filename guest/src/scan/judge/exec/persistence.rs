//! `persistence.payload`: a persistence write (shell rc, cron, services, login items) in a file
//! that also fetches or runs remote code.

use super::source_host;
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::hosts::HostClass;
use crate::scan::judge::flow::FileFlow;
use crate::scan::judge::{At, Bundle, finding};
use crate::scan::rules::Severity;

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

pub(super) fn persistence_payload(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
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
            .filter(|a| source_host(b, a, flow).is_some_and(|h| h.class.is_outside()))
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
                h.class.is_outside() && crate::scan::hosts::vendor_of_host(&h.host).is_none()
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
    // An agent's home on the way to its skills or plugins folder is where installed skills live
    // (round 31).
    let skills = crate::scan::judge::own_forms::in_agent_skills(&content);
    // Round 43t: a hidden folder that a `find … -delete` (nothing run on what it finds) or an `rm`
    // only deletes from is what the job cleans, not where what it runs lives.
    let hidden_dir = b.tag(write.fact) != "shell-rc"
        && !only_deletes(&content)
        && content.split(['/', '\\']).any(|c| {
            c.len() > 1
                && c.starts_with('.')
                && !(skills
                    && matches!(
                        c,
                        ".openclaw"
                            | ".claude"
                            | ".codex"
                            | ".cursor"
                            | ".gemini"
                            | ".agents"
                            | ".hermes"
                            | ".clawdbot"
                    ))
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
    // Round 46t: a temporary folder a `find … -delete` or an `rm` only deletes from is what the
    // job cleans too (as for hidden folders above), not where what it runs lives.
    let temp = !only_deletes(&content)
        && ["/tmp/", "/var/tmp/", "/dev/shm/"]
            .iter()
            .any(|w| content.contains(w));
    hidden_dir
        || temp
        || ["curl ", "wget ", "base64", "| sh", "|sh", "| bash", " nc "]
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

/// Whether a persisted command only deletes files: a `find` whose action is `-delete` (no `-exec`,
/// `-execdir`, `-ok`) or an `rm`, the program named by the command's first word (after a unit's
/// `ExecStart=` or a cron line's schedule), with no pipe or second command after it.
fn only_deletes(content: &str) -> bool {
    let t = content.trim();
    let cmd = t
        .split_once("ExecStart=")
        .map_or(t, |(_, c)| c)
        .trim_start_matches(['-', '@', '+', '!']);
    let Some(prog) = cmd.split_whitespace().next() else {
        return false;
    };
    let prog = prog.rsplit('/').next().unwrap_or(prog);
    let single = ![";", "&&", "||", "|", "`", "$("]
        .iter()
        .any(|w| cmd.contains(w));
    single
        && match prog {
            "find" => cmd.contains(" -delete") && !cmd.contains(" -exec") && !cmd.contains(" -ok"),
            "rm" => true,
            _ => false,
        }
}
