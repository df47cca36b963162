//! Tampering with the agent itself.
//!
//! - `persistence.agent-permissions`: values that lift the agent's permission checks
//!   (`bypassPermissions`, `Bash(*)`, `approval_policy = "never"`, `autoApprove: ["*"]`) in a bundle
//!   that writes or names the agent's settings; an agent launched with its checks disabled; a hook
//!   in the agent's settings that sends what the agent does to a remote host.
//! - `persistence.agent-instructions`: writes to the agent's instruction, memory or identity files
//!   (AGENTS.md, CLAUDE.md, MEMORY.md, SOUL.md, `.cursorrules`): what memory skills do, so
//!   informational alone; `critical` when the same file also plants approvals, overrides the user,
//!   fetches remote instructions, hides text, pipes code into a shell or asks for secrets.
//! - `persistence.skill-worm`: writes into other installed skills, with a payload.

use super::{At, Bundle, finding, hosts_in};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Tags of `write` facts that target the agent's own files.
pub fn agent_write_tag(tag: &str) -> bool {
    matches!(
        tag,
        "agent-config" | "agent-instructions" | "agent-memory" | "agent-identity" | "skills"
    )
}

pub fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    permissions(b, out);
    instructions(b, out);
    accounts(b, out);
    root_doors(b, out);
}

/// Whether a file writes anything (a settings value in code only matters if the code writes it).
pub(crate) fn writes(file: &super::File<'_>) -> bool {
    let c = file.content;
    [
        "json.dump",
        ".write(",
        "write_text",
        "writeFile",
        "WriteFile",
        "Set-Content",
        "Out-File",
        "Add-Content",
        ">>",
        "> ~",
        "> \"",
        "> $",
        "tee ",
        "sed -i",
        "cat >",
        "config set",
        "config add",
        "yaml.dump",
        "toml.dump",
        "fs.write",
        "ConvertTo-Json",
        "shutil.copy",
        "cp ",
        "<<",
        "dump(",
        "write",
        // Round 38t: config management writes a file through a task's destination or a
        // declared file (Ansible `copy:`/`template:` `dest:`, home-manager `home.file."…".text`,
        // Salt `file.managed`), and in-place edits (`perl -pi -e`).
        "dest:",
        "home.file.",
        "xdg.configFile.",
        "file.managed",
        "file.serialize",
        "-pi -e",
        "-i -e",
        // Round 39t: Nushell's `… | save -f path`.
        "| save",
        // Round 41t: a file moved into place (`jq … > tmp && mv tmp settings.json`).
        "mv ",
    ]
    .iter()
    .any(|w| c.contains(w))
        || redirects_to_a_path(c)
}

/// Stop 56: a shell redirect into an absolute path (`> /root/.claude/settings.json`, in a
/// Dockerfile's `RUN` or an installer), not into `/dev/` (`> /dev/null` writes nothing) and not an
/// arrow (`=> /…/`).
fn redirects_to_a_path(c: &str) -> bool {
    [">/", "> /"].iter().any(|op| {
        c.match_indices(op).any(|(i, _)| {
            let before = c[..i].chars().next_back();
            !matches!(before, Some('=' | '-')) && !c[i + op.len()..].starts_with("dev/")
        })
    })
}

/// Whether a bundle file is itself an agent's settings file (`.claude/settings.json`,
/// `.codex/config.toml`…): shipped in the bundle, it takes effect wherever the folder is opened
/// or copied as a project, so its values are written, not merely named.
///
/// Compared in place, ASCII case ignored (no lower-cased copy, no formatted suffix: the candidate
/// scan asks this for every candidate's name and description).
fn is_agent_settings_file(path: &str) -> bool {
    settings_path(path) || template_of_settings(path)
}

/// Round 41t: a dotfile manager's source file for one (chezmoi's `dot_claude/settings.json`, a
/// `settings.json.tmpl` or `.j2` template): applied, it becomes the settings file. A `String` is
/// built only for a path with such a part.
fn template_of_settings(path: &str) -> bool {
    let lower_has = |w: &str| {
        path.as_bytes()
            .windows(w.len())
            .any(|x| x.eq_ignore_ascii_case(w.as_bytes()))
    };
    if !(lower_has("dot_") || lower_has(".tmpl") || lower_has(".j2")) {
        return false;
    }
    let p = path.to_ascii_lowercase().replace("dot_", ".");
    let p = p
        .strip_suffix(".tmpl")
        .or_else(|| p.strip_suffix(".j2"))
        .unwrap_or(&p);
    settings_path(p)
}

fn settings_path(path: &str) -> bool {
    [
        ".claude/settings.json",
        ".claude/settings.local.json",
        ".codex/config.toml",
        ".gemini/settings.json",
        ".cursor/mcp.json",
        ".vscode/settings.json",
    ]
    .iter()
    .any(|s| {
        let (p, s) = (path.as_bytes(), s.as_bytes());
        p.len() >= s.len()
            && p[p.len() - s.len()..].eq_ignore_ascii_case(s)
            && (p.len() == s.len() || p[p.len() - s.len() - 1] == b'/')
    })
}

/// Where a file writes or names an agent's settings (the file itself being one counts at its
/// first line that sets a permission value).
fn settings_in_file<'a>(b: &'a Bundle<'a>, file: &'a super::File<'a>) -> Option<At<'a>> {
    if is_agent_settings_file(file.path) {
        return b.in_file(file, FactKind::PermissionValue).next();
    }
    b.in_file(file, FactKind::AgentConfigPath)
        .next()
        .or_else(|| {
            b.in_file(file, FactKind::Write)
                .find(|a| b.tag(a.fact) == "agent-config")
        })
}

fn permissions(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let shipped = b
        .files
        .iter()
        .find(|f| is_agent_settings_file(f.path))
        .and_then(|f| b.in_file(f, FactKind::PermissionValue).next());
    let config: Option<At<'_>> = shipped
        .into_iter()
        // A path into an agent's skills folder names a skill's own files (round 37b).
        .chain(
            b.all(FactKind::AgentConfigPath)
                .filter(|a| !super::skill_scope::skills_folder_only(a)),
        )
        .chain(
            b.all(FactKind::Write)
                .filter(|a| b.tag(a.fact) == "agent-config"),
        )
        .next();
    let mut reported = false;
    for v in b.all(FactKind::PermissionValue) {
        let tag = b.tag(v.fact);
        // A choice listed in an option synopsis, or the skill's own front-matter tool list,
        // sets nothing of the agent's (round 37b).
        let listed = matches!(tag, "bypass" | "allow")
            .then(|| super::skill_scope::listed_not_set(&v))
            .flatten();
        let (sev, why) = match (tag, &config) {
            _ if listed.is_some() => (
                Severity::Medium,
                format!("{}: {}.", b.title(v.fact), listed.unwrap_or_default()),
            ),
            ("bypass", _)
                if !v.fact.prose
                    && !writes(v.file)
                    && !is_agent_settings_file(v.file.path)
                    && v.file.kind == crate::scan::content::FileKind::Code =>
            {
                (
                    Severity::Medium,
                    format!(
                        "{}: named in code that writes nothing (a check or a report, not a change).",
                        b.title(v.fact)
                    ),
                )
            }
            ("bypass", Some(c)) => (
                Severity::Critical,
                format!(
                    "{} and the bundle writes or names the agent's settings ({}): every future session would run without permission prompts. Do not install this skill.",
                    b.title(v.fact),
                    c.place()
                ),
            ),
            ("bypass", None) if !v.fact.prose => (
                Severity::Critical,
                format!(
                    "{}: code that sets a value whose only meaning is to lift the agent's permission checks. Do not install this skill.",
                    b.title(v.fact)
                ),
            ),
            ("bypass", None) => (
                Severity::High,
                format!(
                    "{}: instructions to lift the agent's permission checks. Only ever do this in a disposable sandbox.",
                    b.title(v.fact)
                ),
            ),
            // A generic key (`"skip_confirmation": true`, `safe_mode=false`) means the agent's
            // checks only where the same file writes or names the agent's settings; elsewhere it
            // is an application's own option.
            ("bypass-key", _) => {
                let Some(c) = settings_in_file(b, v.file) else {
                    continue;
                };
                (
                    Severity::Critical,
                    format!(
                        "{} in the same file that writes or names the agent's settings ({}): the agent would stop asking before it acts. Do not install this skill.",
                        b.title(v.fact),
                        c.place()
                    ),
                )
            }
            ("allow", Some(c)) => (
                Severity::High,
                format!(
                    "{}, written into the agent's settings ({}): those commands would run without asking the user. Check each rule is one the user wants.",
                    b.title(v.fact),
                    c.place()
                ),
            ),
            ("hook", Some(c)) => {
                let sends = b
                    .in_file(v.file, FactKind::NetSend)
                    .chain(b.in_file(v.file, FactKind::Url))
                    .find(|n| {
                        // A URL in a file that contacts no network (a reference link inside a
                        // message the hook prints) is not where the hook sends anything (round
                        // 50b): only a send, or a URL beside a call that reaches out, counts.
                        (n.fact.kind == FactKind::NetSend || super::net_reach::reaches_out(b, v.file))
                            && hosts_in(&n.text())
                            .iter()
                            .any(|h| h.class.is_outside())
                            // A URL the file only downloads from (the hook files fetched from the
                            // installer's own repository) is not where the hook sends anything.
                            && !super::disclosed::download_only_url(
                                n.file.content,
                                n.fact.line as usize,
                            )
                            // A URL only printed for the user (`echo "  /plugin marketplace add
                            // https://…"`) is shown, not contacted (round 33v).
                            && !super::printed::printed_only(n.file.content, n.fact.line as usize)
                    });
                match sends {
                    Some(n) => (
                        Severity::Critical,
                        format!(
                            "A hook is installed in the agent's settings ({}) and this file sends data to a remote host at {}: everything the agent does would be copied there. Do not install this skill.",
                            c.place(),
                            n.place()
                        ),
                    ),
                    None => (
                        Severity::Medium,
                        format!(
                            "A hook is installed in the agent's settings ({}): check what its command does.",
                            c.place()
                        ),
                    ),
                }
            }
            _ => continue,
        };
        // A script that only runs inside a disposable container (round 32c).
        let (sev, why) = match super::sandboxed::contained(
            b,
            v.file,
            (v.fact.line as usize).saturating_sub(1),
        ) {
            Some(w) if sev == Severity::Critical && !v.fact.prose => (
                Severity::High,
                format!(
                    "{}: written from a script that runs in a disposable container ({w}). Check the container has no credentials of the user's mounted.",
                    b.title(v.fact)
                ),
            ),
            _ => (sev, why),
        };
        let related = config
            .iter()
            .filter(|c| c.fact.line != v.fact.line || c.file.path != v.file.path)
            .map(|c| c.related("setting"))
            .collect();
        out.push(finding(
            "persistence.agent-permissions",
            "persistence",
            sev,
            v,
            why,
            related,
        ));
        reported = true;
        if sev == Severity::Critical {
            break;
        }
    }
    let _ = reported;
    // A flag named as the thing not to use ("do not use `--dangerously-skip-permissions`"), in
    // any of several languages, launches nothing (round 45b).
    if let Some(l) = b
        .all(FactKind::PermissionBypass)
        .find(|l| !super::refused_flag::refused(&l.text(), l.fact.at as usize, l.fact.to as usize))
    {
        // A CI job runs on a fresh runner that is thrown away afterwards: the vendors document
        // skipping the prompts there (headless runs cannot answer them).
        let ci = ci_workflow(l.file);
        // The launch sits right under a comment of the same file saying it lifts the prompts and
        // belongs in a trusted or disposable environment: disclosed, like a CI job (round 30).
        let warned = !l.fact.prose
            && super::disclosed::warned_launch(l.file.content, l.fact.line as usize, 4);
        // The script stops outside a container, or is the dev container's own lifecycle command
        // (round 32c).
        let contained = !l.fact.prose
            && super::sandboxed::contained(b, l.file, (l.fact.line as usize).saturating_sub(1))
                .is_some();
        let sev = if l.fact.prose || ci || warned || contained {
            Severity::High
        } else {
            Severity::Critical
        };
        let why = format!(
            "{}: the agent would run every command and edit every file without asking. {}",
            b.title(l.fact),
            if sev == Severity::Critical {
                "Do not install this skill."
            } else {
                "Only ever do this inside a disposable sandbox."
            }
        );
        out.push(finding(
            "persistence.agent-permissions",
            "persistence",
            sev,
            l,
            why,
            Vec::new(),
        ));
    }
}

/// Whether a file is a CI pipeline definition (GitHub Actions, GitLab CI): its commands run on a
/// disposable runner, not on the user's machine.
pub fn ci_workflow(file: &super::File<'_>) -> bool {
    let path = file.path.to_ascii_lowercase();
    let yaml = path.ends_with(".yml") || path.ends_with(".yaml");
    yaml && (path.contains(".github/workflows/")
        || path.ends_with(".gitlab-ci.yml")
        || file.content.contains("runs-on:") && file.content.contains("jobs:"))
}

/// What, in a file that writes the agent's files, would poison them.
/// Whether every host a line names is an official installer host (and it names one).
fn installer_only(text: &str) -> bool {
    let hosts = hosts_in(text);
    !hosts.is_empty() && hosts.iter().all(|h| h.class == HostClass::Installer)
}

fn poison_in<'a>(b: &'a Bundle<'a>, file: &'a super::File<'a>) -> Option<At<'a>> {
    [
        FactKind::ApproveAll,
        FactKind::NoInspect,
        FactKind::OverrideUser,
        FactKind::RemoteInstructions,
        FactKind::SecretToOutput,
        FactKind::HiddenMarkup,
        FactKind::Conceal,
    ]
    .iter()
    .find_map(|k| b.in_file(file, *k).next())
    .or_else(|| {
        // A download piped into a shell from an official installer host only (`curl -LsSf
        // https://astral.sh/uv/install.sh | sh` in a memory skill's setup) is a vendor's
        // installer, judged by the remote-code rule; it plants nothing (round 38b).
        b.in_file(file, FactKind::PipeExec)
            .filter(|p| matches!(b.tag(p.fact), "fetch" | "remote"))
            .find(|p| !installer_only(&p.text()))
    })
    .or_else(|| {
        // Code that posts a body to a host that is neither local, a vendor's nor the service the
        // skill is named after (a memory skill syncing to its own service is doing its job): the
        // agent's files written next to data leaving for someone else.
        // Only in code that writes files (a read of the memory posted elsewhere is judged as a
        // send, not as planted instructions).
        const WRITE_CALLS: &[&str] = &[
            "writeFileSync(",
            "writeFile(",
            "appendFileSync(",
            "appendFile(",
            ".write_text(",
            "Set-Content",
            "Add-Content",
            "Out-File",
            "File.write(",
        ];
        if file.kind != crate::scan::content::FileKind::Code
            || b.in_file(file, FactKind::Write).next().is_none()
                && !WRITE_CALLS.iter().any(|w| file.content.contains(w))
        {
            return None;
        }
        let words = b.name_words();
        b.in_file(file, FactKind::NetSend)
            .filter(|n| !n.fact.prose)
            .find(|n| {
                let window: String = file
                    .content
                    .get(n.fact.start as usize..)
                    .unwrap_or("")
                    .split_inclusive('\n')
                    .take(3)
                    .collect();
                super::claims::carries_data(&window)
                    && super::hosts_in(&n.text()).iter().any(|h| {
                        h.class.is_outside()
                            && crate::scan::hosts::vendor_of_host(&h.host).is_none()
                            && !super::host_named_after(&h.host, &words)
                    })
            })
    })
}

/// A new account with a fixed password, made an administrator or opened to remote access.
fn accounts(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let tagged = |t: &str| b.in_file(file, FactKind::Sudo).find(|a| b.tag(a.fact) == t);
        let (Some(new), Some(other)) = (
            tagged("new-account")
                .or_else(|| tagged("admin-group").filter(|a| a.text().contains("Hidden"))),
            tagged("admin-group").or_else(|| tagged("remote-access")),
        ) else {
            continue;
        };
        if std::ptr::eq(new.fact, other.fact) {
            continue;
        }
        let why = format!(
            "{} ({}) and {} ({}): an account someone else knows the password of, with administrator rights or remote access, is a backdoor. Do not install this skill.",
            b.title(new.fact),
            new.place(),
            b.title(other.fact).to_lowercase(),
            other.place()
        );
        out.push(finding(
            "privilege.backdoor-account",
            "privilege",
            Severity::Critical,
            other,
            why,
            vec![new.related("signal")],
        ));
    }
}

/// A setuid bit on a copy of a shell or on a file in a hidden or temporary place; an append to the
/// SSH `authorized_keys` file written in code other than shell.
fn root_doors(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    use super::flow::path_key;
    for file in &b.files {
        let copies: Vec<At<'_>> = b
            .in_file(file, FactKind::Sudo)
            .filter(|a| b.tag(a.fact) == "shell-copy")
            .collect();
        for s in b
            .in_file(file, FactKind::Sudo)
            .filter(|a| b.tag(a.fact) == "setuid" && !a.fact.prose)
        {
            let target = s.fact.capture.as_deref().unwrap_or("");
            let key = path_key(target);
            let copy = copies.iter().find(|c| {
                let dest = c.fact.capture.as_deref().unwrap_or("");
                key.is_some() && path_key(dest) == key
            });
            let hidden = ["/tmp/", "/var/tmp/", "/dev/shm/"]
                .iter()
                .any(|w| target.contains(w))
                || target
                    .split('/')
                    .any(|c| c.len() > 1 && c.starts_with('.') && c != "..");
            if copy.is_none() && !hidden {
                continue;
            }
            let why = match copy {
                Some(c) => format!(
                    "A shell is copied ({}) and the copy made setuid ({}): anyone on the machine can start it and become root. Do not install this skill.",
                    c.place(),
                    s.place()
                ),
                None => format!(
                    "A file in a hidden or temporary place is made setuid ({}): a root backdoor that is easy to overlook. Do not install this skill.",
                    s.place()
                ),
            };
            let related = copy.map(|c| vec![c.related("signal")]).unwrap_or_default();
            out.push(finding(
                "privilege.setuid-backdoor",
                "privilege",
                Severity::Critical,
                s,
                why,
                related,
            ));
        }
        if let Some(named) = b
            .in_file(file, FactKind::Write)
            .find(|a| b.tag(a.fact) == "ssh-authorized-named" && !a.fact.prose)
        {
            // Shell appends (`>> ~/.ssh/authorized_keys`) are the rule `persistence.authorized-keys`;
            // this is for code that opens the file for appending on another line.
            let c = file.content;
            let shell =
                file.path.ends_with(".sh") || file.kind != crate::scan::content::FileKind::Code;
            let appends = !shell
                && (c.contains(", \"a\"")
                    || c.contains(", 'a'")
                    || c.contains("\"a+\"")
                    || c.contains("appendFile")
                    || c.contains("Add-Content")
                    || c.contains("O_APPEND")
                    || c.contains("File.open") && c.contains("\"a\""));
            if appends
                && !b
                    .in_file(file, FactKind::Write)
                    .any(|a| b.tag(a.fact) == "ssh-authorized")
            {
                let why = format!(
                    "This file names `authorized_keys` ({}) and opens a file for appending: a key added there lets its owner log in to this machine over SSH. Do not install this skill.",
                    named.place()
                );
                out.push(finding(
                    "persistence.authorized-keys-append",
                    "persistence",
                    Severity::Critical,
                    named,
                    why,
                    Vec::new(),
                ));
            }
        }
    }
}

fn instructions(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut writes: Vec<At<'_>> = b
        .all(FactKind::Write)
        .filter(|a| agent_write_tag(b.tag(a.fact)) && b.tag(a.fact) != "agent-config")
        // A loop or glob over the installed skills that only reads them (a lister, an auditor)
        // is not a write into them (round 34b).
        .filter(|a| {
            b.tag(a.fact) != "skills"
                || super::skills_read::writes_after(a.file.content, a.fact.line as usize)
        })
        .chain(b.all(FactKind::MemoryEdit))
        .collect();
    // Code that names the agent's files counts when the same file carries what would poison them
    // (the text it writes is often built on other lines).
    let named: Vec<At<'_>> = b
        .all(FactKind::AgentInstructionsPath)
        .filter(|a| !a.fact.prose)
        .collect();
    for n in named {
        if !writes.iter().any(|w| std::ptr::eq(w.file, n.file)) && poison_in(b, n.file).is_some() {
            writes.push(n);
        }
    }
    writes.sort_by_key(|w| poison_in(b, w.file).is_none());
    for w in writes.iter().take(1).chain(
        writes
            .iter()
            .skip(1)
            .filter(|w| b.tag(w.fact) == "skills")
            .take(1),
    ) {
        let poison = poison_in(b, w.file);
        let worm = b.tag(w.fact) == "skills";
        let (rule, sev, why) = match (poison, worm) {
            (Some(p), true) => (
                "persistence.skill-worm",
                Severity::Critical,
                format!(
                    "{} and the same file carries {} ({}): a skill that plants code in other installed skills spreads like a worm. Do not install it.",
                    b.title(w.fact),
                    b.title(p.fact).to_lowercase(),
                    p.place()
                ),
            ),
            (Some(p), false) => (
                "persistence.agent-instructions",
                Severity::Critical,
                format!(
                    "{} and the same file carries {} ({}): instructions planted in the agent's own files steer every later session. Do not install this skill.",
                    b.title(w.fact),
                    b.title(p.fact).to_lowercase(),
                    p.place()
                ),
            ),
            (None, true) => (
                "persistence.skill-worm",
                Severity::High,
                format!(
                    "{}: a skill should not change other installed skills. Check what it writes.",
                    b.title(w.fact)
                ),
            ),
            (None, false) => (
                "persistence.agent-instructions",
                Severity::Medium,
                format!(
                    "{}: the agent's instruction or memory files change. That is the job of memory and project-setup skills; check the skill says so and asks before writing.",
                    b.title(w.fact)
                ),
            ),
        };
        let related = poison
            .map(|p| vec![p.related("signal")])
            .unwrap_or_default();
        out.push(finding(rule, "persistence", sev, *w, why, related));
    }
}

#[cfg(test)]
mod settings_file_tests {
    use super::is_agent_settings_file;

    #[test]
    fn settings_files_are_recognised_by_their_last_two_segments() {
        for yes in [
            ".claude/settings.json",
            "proj/.claude/settings.local.json",
            "a/b/.CODEX/Config.TOML",
            ".gemini/settings.json",
            "x/.cursor/mcp.json",
            "deep/dir/.vscode/SETTINGS.json",
        ] {
            assert!(is_agent_settings_file(yes), "{yes}");
        }
        for no in [
            "",
            "settings.json",
            "x.claude/settings.json",
            ".claude/settings.json.bak",
            "claude/settings.json",
            "a/my.codex/config.toml",
            ".vscode/settings",
            "name.txt",
            "SKILL.md",
            "é/.claude/settingsé.json",
        ] {
            assert!(!is_agent_settings_file(no), "{no}");
        }
    }
}
