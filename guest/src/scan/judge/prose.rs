//! Attacks written in words.
//!
//! - `supply_chain.install-lure`: prose that gets the user to install something, judged by its
//!   signals within a stretch of text: a password-protected archive, pasting into a terminal, turning
//!   off antivirus or Gatekeeper, software from a chat group, links to raw IPs, paste sites, tunnels
//!   or executables from unknown hosts, broad grants (Full Disk Access, administrator), next to
//!   "download and run" and "before using" wording. Two signals, one of them strong: `critical`.
//! - `prompt_injection.concealed-action`: words that keep something from the user, in a bundle that
//!   does something worth hiding (any other high finding, writes to the agent's files, secrets asked
//!   for, remote instructions); alone, `prompt_injection.concealment` (`high`).
//! - `prompt_injection.conditional-action`: an action delayed or hidden behind a condition (when the
//!   user is away, after review passes), with concealment or another suspicious finding.
//! - `prompt_injection.approval-manipulation`: talking the user or agent into approving everything
//!   or into not reading what runs.
//! - `prompt_injection.tool-shadowing`: claiming the agent's built-in tools are replaced, routing
//!   their work to another host.
//! - `exfiltration.secret-in-url`: a URL in instructions carrying a secret's placeholder
//!   (`?key=<ANTHROPIC_API_KEY>`) to a host that is not the key's vendor.
//! - `prompt_injection.secret-to-output` and `prompt_injection.override-user`, `…remote-instructions`:
//!   asking for secrets in output, putting the skill above the user, following instructions fetched
//!   at run time.

use super::{At, Bundle, finding, hosts_in};
use crate::scan::content::{Finding, Related};
use crate::scan::facts::FactKind;
use crate::scan::hosts::{HostClass, belongs_to, vendor_of_key};
use crate::scan::rules::Severity;

/// Lines within which lure signals count together.
const LURE_WINDOW: u32 = 25;

/// Executable or archive downloads (a link to one of these from an unknown host is a lure signal).
const PAYLOAD_EXTENSIONS: &[&str] = &[
    ".exe",
    ".dmg",
    ".pkg",
    ".msi",
    ".zip",
    ".rar",
    ".7z",
    ".appimage",
    ".scr",
    ".bat",
    ".cmd",
    ".command",
    ".hta",
    ".jar",
    ".apk",
    ".ps1",
    ".vbs",
    ".lnk",
    ".iso",
    ".tar.gz",
    ".tgz",
    ".deb",
    ".rpm",
];

/// Whether a prose line names an executable or archive file (`download `Helper.dmg` from …`): the
/// link next to it need not end in the file's name for the download to be that file.
fn names_payload(text: &str) -> bool {
    text.split(|c: char| c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '(' | ')' | '*' | ','))
        .filter(|w| !w.contains("://"))
        .map(|w| {
            w.trim_end_matches(['.', ':', ';', '!', '?'])
                .to_ascii_lowercase()
        })
        .any(|w| {
            PAYLOAD_EXTENSIONS
                .iter()
                .any(|e| w.len() > e.len() && w.ends_with(e))
        })
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Weight {
    Weak,
    Medium,
    Strong,
}

struct Signal<'a> {
    at: At<'a>,
    weight: Weight,
    /// Distinct signals count once each.
    kind: &'static str,
    what: String,
}

fn lure_signals<'a>(b: &'a Bundle<'a>, file: &'a super::File<'a>) -> Vec<Signal<'a>> {
    let mut out = Vec::new();
    let table: &[(FactKind, Weight, &str)] = &[
        (
            FactKind::PasswordArchive,
            Weight::Strong,
            "password-archive",
        ),
        (FactKind::PasteRun, Weight::Strong, "paste-run"),
        (FactKind::SocialDownload, Weight::Strong, "social-download"),
        (FactKind::PrivilegeGrant, Weight::Medium, "privilege"),
        (FactKind::LureRun, Weight::Weak, "run"),
        (FactKind::LurePrereq, Weight::Weak, "prerequisite"),
    ];
    for (kind, weight, name) in table {
        for at in b.in_file(file, *kind) {
            // A password handed over without an archive word on its line: only next to a strong
            // signal (the archive's link is usually the line above).
            let value_only = b.tag(at.fact) == "value-only";
            out.push(Signal {
                at,
                weight: if value_only { Weight::Medium } else { *weight },
                kind: if value_only { "password-value" } else { name },
                what: b.title(at.fact).to_lowercase(),
            });
        }
    }
    for at in b.in_file(file, FactKind::AvBypass) {
        let strong = b.tag(at.fact) == "av";
        out.push(Signal {
            at,
            weight: if strong {
                Weight::Strong
            } else {
                Weight::Medium
            },
            kind: if strong { "antivirus" } else { "gatekeeper" },
            what: b.title(at.fact).to_lowercase(),
        });
    }
    for at in b.in_file(file, FactKind::ApproveAll) {
        out.push(Signal {
            at,
            weight: Weight::Medium,
            kind: "approve-all",
            what: b.title(at.fact).to_lowercase(),
        });
    }
    // Links count in prose; in code only on a line that fetches, runs or sends.
    let acting = |line: u32| {
        file.facts.facts.iter().any(|f| {
            f.line == line
                && matches!(
                    f.kind,
                    FactKind::Download
                        | FactKind::FetchToValue
                        | FactKind::PipeExec
                        | FactKind::RunFile
                )
        })
    };
    let quoted = |a: &At<'_>| a.fact.prose && a.text().trim_start().starts_with('>');
    // A code block of a document holding nothing but a link shows the user an address to open.
    let lone = |a: &At<'_>| a.text().trim() == a.matched().trim();
    for at in b
        .in_file(file, FactKind::Url)
        .filter(|a| (a.fact.prose || acting(a.fact.line) || lone(a)) && !quoted(a))
    {
        // A link written without its scheme (`pastebin.com/raw/…`) names its host in the capture.
        let bare = (b.tag(at.fact) == "bare")
            .then_some(at.fact.capture.as_deref())
            .flatten()
            .and_then(|c| hosts_in(&format!("https://{c}")).into_iter().next());
        let hosts = match bare {
            Some(h) => vec![h],
            None if b.tag(at.fact) == "bare" => Vec::new(),
            None => hosts_in(&at.text()),
        };
        for h in hosts {
            let path = h.path.to_ascii_lowercase();
            // A sentence's punctuation after the link is not part of the file name.
            let path = path
                .split(['?', '#'])
                .next()
                .unwrap_or("")
                .trim_end_matches(['.', ',', ';', ':', ')', '!', '"', '\'', '`']);
            if h.class.is_suspicious() {
                // A brand worn only as a subdomain of another company's domain (a partner's
                // endpoint named after the agent) is a weaker sign than a disguise in the name that
                // was registered, a raw IP, a paste site or a tunnel.
                let weak_lookalike = h.class == HostClass::Lookalike
                    && crate::scan::hosts::brand_only_in_subdomain(&h.host);
                out.push(Signal {
                    at,
                    weight: if weak_lookalike {
                        Weight::Medium
                    } else {
                        Weight::Strong
                    },
                    kind: "suspicious-link",
                    what: format!("a link to {} ({})", h.host, h.class.phrase()),
                });
            } else if h.class == HostClass::Unknown
                && (PAYLOAD_EXTENSIONS.iter().any(|e| path.ends_with(e))
                    || at.fact.prose && names_payload(&at.text()))
            {
                out.push(Signal {
                    at,
                    weight: Weight::Medium,
                    kind: "payload-link",
                    what: format!(
                        "a download of an executable or archive from {} (not a known vendor)",
                        h.host
                    ),
                });
            }
        }
    }
    out.sort_by_key(|s| s.at.fact.line);
    out
}

fn lure(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    // Lures are prose for people: SKILL.md, references, text assets (scripts are judged as code).
    for file in b
        .files
        .iter()
        .filter(|f| f.kind != crate::scan::content::FileKind::Code)
    {
        let signals = lure_signals(b, file);
        if signals.iter().all(|s| s.weight < Weight::Strong)
            && signals
                .iter()
                .filter(|s| s.weight == Weight::Medium)
                .count()
                < 2
        {
            continue;
        }
        // The best window of LURE_WINDOW lines.
        let mut best: Option<(Severity, usize, usize)> = None;
        for i in 0..signals.len() {
            let mut kinds: Vec<(&str, Weight)> = Vec::new();
            let mut j = i;
            while j < signals.len()
                && signals[j].at.fact.line <= signals[i].at.fact.line + LURE_WINDOW
            {
                if !kinds.iter().any(|(k, _)| *k == signals[j].kind) {
                    kinds.push((signals[j].kind, signals[j].weight));
                }
                j += 1;
            }
            let strong = kinds.iter().filter(|(_, w)| *w == Weight::Strong).count();
            let medium = kinds.iter().filter(|(_, w)| *w == Weight::Medium).count();
            let weak = kinds.iter().filter(|(_, w)| *w == Weight::Weak).count();
            let has = |k: &str| kinds.iter().any(|(n, _)| *n == k);
            // An executable from an unknown host, and the protection that would stop it turned
            // off for it: the macOS/Windows dropper shape even without a strong word.
            let dropper = has("payload-link") && (has("gatekeeper") || has("antivirus"));
            let sev = if strong >= 2 || strong == 1 && medium + weak >= 1 || dropper {
                Severity::Critical
            } else if strong == 1 || medium >= 2 && weak >= 1 {
                Severity::High
            } else {
                continue;
            };
            if best.is_none_or(|(s, a, z)| sev > s || sev == s && j - i > z - a) {
                best = Some((sev, i, j));
            }
        }
        let Some((sev, i, j)) = best else { continue };
        let window = &signals[i..j];
        let head = window
            .iter()
            .max_by_key(|s| (s.weight, std::cmp::Reverse(s.at.fact.line)))
            .map(|s| s.at)
            .unwrap_or(window[0].at);
        let mut seen: Vec<&str> = Vec::new();
        let mut whats = Vec::new();
        let mut related: Vec<Related> = Vec::new();
        for s in window {
            if seen.contains(&s.kind) {
                continue;
            }
            seen.push(s.kind);
            whats.push(format!("{} ({})", s.what, s.at.place()));
            if s.at.fact.line != head.fact.line {
                related.push(s.at.related("signal"));
            }
        }
        let why = format!(
            "Install instructions with {}: {}. {}",
            if sev == Severity::Critical {
                "the marks of a malware lure"
            } else {
                "a mark of a malware lure"
            },
            whats.join("; "),
            if sev == Severity::Critical {
                "Real tools ship through package managers or their vendor's site; password-protected archives, paste-and-run steps and turning protection off are how infostealers are delivered. Do not follow these steps."
            } else {
                "Check where this software comes from before following these steps."
            }
        );
        related.truncate(6);
        out.push(finding(
            "supply_chain.install-lure",
            "supply_chain",
            sev,
            head,
            why,
            related,
        ));
    }
}

/// Prose that sends something, with a destination on its line or the next two that is neither
/// local nor a known vendor's.
fn prose_sends<'a>(b: &'a Bundle<'a>) -> Vec<(At<'a>, super::Host)> {
    let mut out = Vec::new();
    for send in b
        .all(FactKind::NetSend)
        .filter(|a| b.tag(a.fact) == "prose")
    {
        // The destination (a URL or an e-mail address) on this line or the next two.
        let from = send.fact.start as usize;
        let window: String = send
            .file
            .content
            .get(from..)
            .unwrap_or("")
            .split_inclusive('\n')
            .take(3)
            .collect();
        let dest = hosts_in(&window)
            .into_iter()
            .find(|h| h.class != HostClass::Local && !h.class.is_known_good());
        if let Some(h) = dest {
            out.push((send, h));
        }
    }
    // A credential store named in a sentence with a link to a host that is neither local nor a
    // known vendor on the same line: the store sent there, whatever language the verb is in.
    // A public key (`.pub`) is meant to be shared.
    for store in b.all(FactKind::SecretFile).filter(|a| {
        a.fact.prose
            && b.rules.rules[a.fact.rule as usize].id == "source.credential-store-prose"
            && !a
                .fact
                .capture
                .as_deref()
                .is_some_and(|c| c.ends_with(".pub"))
    }) {
        let dest = hosts_in(&store.text())
            .into_iter()
            .find(|h| h.class != HostClass::Local && !h.class.is_known_good());
        if let Some(h) = dest {
            out.push((store, h));
        }
    }
    out
}

/// Facts that make concealment or a condition dangerous: the thing worth hiding.
fn risky_action<'a>(b: &'a Bundle<'a>, earlier: &[Finding]) -> Option<Related> {
    if let Some((send, _)) = prose_sends(b).into_iter().next() {
        return Some(send.related("action"));
    }
    // A destructive command the bundle names (even only in a sentence, where it is graded
    // `medium` on its own) is worth hiding and worth rushing an approval for.
    if let Some(f) = earlier.iter().find(|f| {
        f.severity >= Severity::High
            || f.severity >= Severity::Medium && f.category == "destructive"
    }) {
        return Some(Related {
            role: "action".into(),
            file: f.file.clone(),
            line: f.line,
            evidence: f.evidence.clone(),
        });
    }
    let kinds = [
        FactKind::MemoryEdit,
        FactKind::AgentConfigPath,
        FactKind::AgentInstructionsPath,
        FactKind::PermissionValue,
        FactKind::PermissionBypass,
        FactKind::SecretProse,
        FactKind::SecretToOutput,
        FactKind::RemoteInstructions,
        FactKind::ToolShadow,
        FactKind::OverrideUser,
        FactKind::HiddenMarkup,
        FactKind::Sabotage,
        FactKind::CredentialRequest,
        FactKind::LureRun,
        FactKind::PasteRun,
    ];
    kinds
        .iter()
        .find_map(|k| b.all(*k).next())
        .or_else(|| {
            // Credential stores named next to the concealment (a tool description that asks for
            // the SSH key "and do not mention it").
            b.all(FactKind::SecretFile)
                .find(|a| {
                    matches!(
                        b.tag(a.fact),
                        "ssh" | "cloud" | "browser" | "wallet" | "agent-secrets" | "keyfile"
                    )
                })
                .or_else(|| {
                    b.all(FactKind::Write).find(|a| {
                        let tag = b.tag(a.fact);
                        super::agent::agent_write_tag(tag)
                            || tag.starts_with("ssh-authorized")
                            || a.fact.prose
                                && matches!(
                                    tag,
                                    "cron" | "shell-rc" | "service" | "login-item" | "git-hook"
                                )
                    })
                })
        })
        .map(|a| a.related("action"))
}

fn concealment(b: &Bundle<'_>, earlier: &[Finding], out: &mut Vec<Finding>) {
    // The action is found once; a concealment on the action's own line is the action's wording,
    // so another concealment sentence (the next one, "The author should not be told") is taken.
    let found = risky_action(b, earlier);
    let mut conceals = b.all(FactKind::Conceal);
    let Some(first) = conceals.next() else {
        return;
    };
    // The thing hidden must be another statement than the words hiding it; a line holding a
    // multi-line text packed into one string (a tool description with `\n` escapes in JSON) is
    // several statements.
    let elsewhere = |c: &At<'_>, r: &Related| {
        !(r.file == c.file.path && r.line == c.fact.line as usize) || c.text().contains("\\n")
    };
    let c = match &found {
        Some(r) if !elsewhere(&first, r) => std::iter::once(first)
            .chain(conceals)
            .find(|c| elsewhere(c, r))
            .unwrap_or(first),
        _ => first,
    };
    let action = found.filter(|r| elsewhere(&c, r));
    let (rule, sev, why) = match &action {
        Some(a) => (
            "prompt_injection.concealed-action",
            Severity::Critical,
            format!(
                "{}, and the bundle does something worth hiding ({}:{}: {}). A skill that keeps its actions from the user is working against them: do not install it.",
                b.title(c.fact),
                a.file,
                a.line,
                a.evidence
            ),
        ),
        None => (
            "prompt_injection.concealment",
            Severity::High,
            format!(
                "{}: a skill should not keep what it does from the user. Check what is being hidden.",
                b.title(c.fact)
            ),
        ),
    };
    out.push(finding(
        rule,
        "prompt_injection",
        sev,
        c,
        why,
        action.into_iter().collect(),
    ));
}

fn conditional(b: &Bundle<'_>, earlier: &[Finding], out: &mut Vec<Finding>) {
    let Some(c) = b.all(FactKind::Conditional).next() else {
        return;
    };
    let partner = b
        .all(FactKind::Conceal)
        .next()
        .map(|a| a.related("concealment"))
        .or_else(|| risky_action(b, earlier));
    let (sev, why) = match &partner {
        Some(p) => (
            Severity::Critical,
            format!(
                "{}, together with {}:{} ({}): an action timed for when nobody checks is a trap. Do not install this skill.",
                b.title(c.fact),
                p.file,
                p.line,
                p.evidence
            ),
        ),
        None => (
            Severity::Medium,
            format!("{}: check what waits for that condition.", b.title(c.fact)),
        ),
    };
    out.push(finding(
        "prompt_injection.conditional-action",
        "prompt_injection",
        sev,
        c,
        why,
        partner.into_iter().collect(),
    ));
}

fn approval(b: &Bundle<'_>, earlier: &[Finding], out: &mut Vec<Finding>) {
    let facts: Vec<At<'_>> = b
        .all(FactKind::ApproveAll)
        .chain(b.all(FactKind::NoInspect))
        .collect();
    let Some(first) = facts.first().copied() else {
        return;
    };
    let other = facts
        .iter()
        .find(|a| a.fact.line != first.fact.line || a.file.path != first.file.path)
        .map(|a| a.related("signal"));
    let partner = other.or_else(|| risky_action(b, earlier));
    let (sev, why) = match &partner {
        Some(p) => (
            Severity::Critical,
            format!(
                "{}, and {}:{} ({}): talking the user or agent out of reviewing what runs is how a skill gets its way. Do not install it.",
                b.title(first.fact),
                p.file,
                p.line,
                p.evidence
            ),
        ),
        None => (
            Severity::High,
            format!(
                "{}: approvals exist so the user sees what runs. Do not approve blindly.",
                b.title(first.fact)
            ),
        ),
    };
    out.push(finding(
        "prompt_injection.approval-manipulation",
        "prompt_injection",
        sev,
        first,
        why,
        partner.into_iter().collect(),
    ));
}

fn shadowing(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let Some(s) = b.all(FactKind::ToolShadow).next() else {
        return;
    };
    let route = b
        .in_file(s.file, FactKind::Url)
        .find(|u| {
            hosts_in(&u.text())
                .iter()
                .any(|h| h.class != HostClass::Local && !h.class.is_known_good())
        })
        .or_else(|| {
            // The replacement's own code sending to a suspicious place.
            b.all(FactKind::NetSend)
                .filter(|n| !n.fact.prose)
                .find(|n| hosts_in(&n.text()).iter().any(|h| h.class.is_suspicious()))
        })
        .or_else(|| {
            // A script of the bundle that sends requests and names a host no vendor runs (the
            // address may sit a line away from the call).
            b.files
                .iter()
                .filter(|f| {
                    f.kind == crate::scan::content::FileKind::Code && f.facts.has(FactKind::NetSend)
                })
                .flat_map(|f| b.in_file(f, FactKind::Url))
                .find(|u| {
                    hosts_in(&u.text())
                        .iter()
                        .any(|h| h.class != HostClass::Local && !h.class.is_known_good())
                })
        })
        .or_else(|| b.all(FactKind::SecretProse).next())
        .or_else(|| b.all(FactKind::Conceal).next());
    let (sev, why) = match route {
        Some(r) => (
            Severity::Critical,
            format!(
                "{}, and the work is routed through {} ({}): the agent's own tools would be swapped for one that sees every request. Do not install this skill.",
                b.title(s.fact),
                r.place(),
                r.evidence()
            ),
        ),
        None => (
            Severity::High,
            format!(
                "{}: a skill should add tools, not claim the agent's built-in ones are gone.",
                b.title(s.fact)
            ),
        ),
    };
    let related = route.map(|r| vec![r.related("route")]).unwrap_or_default();
    out.push(finding(
        "prompt_injection.tool-shadowing",
        "prompt_injection",
        sev,
        s,
        why,
        related,
    ));
}

/// A placeholder of a secret in a URL (`<ANTHROPIC_API_KEY>`, `{GITHUB_TOKEN}`, `$API_KEY`).
fn secret_placeholders(url: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = url.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if matches!(b[i], b'<' | b'{' | b'$') {
            let mut j = i + 1;
            while j < b.len() && matches!(b[j], b'{' | b'$') {
                j += 1;
            }
            let s = j;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let name = &url[s..j];
            let upper = name.to_ascii_uppercase();
            if name.len() >= 4
                && name == upper
                && [
                    "KEY",
                    "TOKEN",
                    "SECRET",
                    "PASSWORD",
                    "PASSWD",
                    "CREDENTIAL",
                    "COOKIE",
                    "SESSION",
                ]
                .iter()
                .any(|w| upper.contains(w))
            {
                out.push(name);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

fn secret_in_url(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for at in b.all(FactKind::Url).filter(|a| a.fact.prose) {
        let text = at.text();
        for h in hosts_in(&text) {
            if h.class == HostClass::Local {
                continue;
            }
            // The URL as written, up to the first blank: placeholders (`<KEY>`) stop the URL parser.
            let from = text.find(&h.url).unwrap_or(0);
            let written: String = text[from..]
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, ')' | '`' | '"' | '\''))
                .collect();
            for name in secret_placeholders(&written) {
                let foreign = match vendor_of_key(name) {
                    Some(v) => !belongs_to(v, &h.host),
                    None => !h.class.is_known_good(),
                };
                if !foreign {
                    continue;
                }
                let why = format!(
                    "Instructions build a URL to {} ({}) that carries `{name}`: rendering or fetching it sends the secret there. Do not install this skill.",
                    h.host,
                    h.class.phrase()
                );
                out.push(finding(
                    "exfiltration.secret-in-url",
                    "exfiltration",
                    Severity::Critical,
                    at,
                    why,
                    Vec::new(),
                ));
                return;
            }
        }
    }
}

fn singles(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    if let Some(s) = b.all(FactKind::SecretToOutput).next() {
        let foreign = b.in_file(s.file, FactKind::Url).any(|u| {
            hosts_in(&u.text())
                .iter()
                .any(|h| h.class != HostClass::Local && !h.class.is_known_good())
        }) || s.text().contains('@');
        // The output that holds the secrets is then sent (posted, mailed) within a few lines.
        let sent = b
            .in_file(s.file, FactKind::NetSend)
            .any(|n| n.fact.prose && (s.fact.line..=s.fact.line + 5).contains(&n.fact.line));
        let sev = if foreign || sent || b.any(FactKind::Conceal) {
            Severity::Critical
        } else {
            Severity::High
        };
        let why = format!(
            "{}: secrets placed in output, reports or messages end up where others can read them.{}",
            b.title(s.fact),
            if sev == Severity::Critical {
                " Here they would go to a place outside the user's control: do not install this skill."
            } else {
                ""
            }
        );
        out.push(finding(
            "prompt_injection.secret-to-output",
            "prompt_injection",
            sev,
            s,
            why,
            Vec::new(),
        ));
    }
    if let Some(o) = b.all(FactKind::OverrideUser).next() {
        let why = format!(
            "{}: a skill must not rank its instructions above the user's.",
            b.title(o.fact)
        );
        out.push(finding(
            "prompt_injection.override-user",
            "prompt_injection",
            Severity::High,
            o,
            why,
            Vec::new(),
        ));
    }
    if let Some(r) = b.all(FactKind::RemoteInstructions).next() {
        let why = format!(
            "{}: instructions fetched at run time can change after review, so what was checked is not what runs.",
            b.title(r.fact)
        );
        out.push(finding(
            "prompt_injection.remote-instructions",
            "prompt_injection",
            Severity::High,
            r,
            why,
            Vec::new(),
        ));
    }
}

/// Prose that tells the agent to send secrets, or secrets gathered anywhere in the bundle, to a
/// place that is not a vendor's.
fn prose_exfil(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let secret = b
        .all(FactKind::SecretProse)
        .chain(
            b.all(FactKind::SecretFile)
                .filter(|a| b.tag(a.fact) != "dotenv" || a.fact.prose),
        )
        .chain(b.all(FactKind::SecretHarvest))
        .chain(b.all(FactKind::SecretCommand))
        .chain(b.all(FactKind::EnvDump))
        .next();
    let Some(secret) = secret else { return };
    let Some((send, host)) = prose_sends(b).into_iter().max_by_key(|(_, h)| h.class) else {
        return;
    };
    let covert = b.all(FactKind::Conceal).next();
    // A credential store (an SSH key, cloud or browser credentials, a wallet) the same steps tell
    // the agent to read, a few lines from the send: the steps themselves are the stealer.
    let store = b
        .in_file(send.file, FactKind::SecretFile)
        .filter(|a| a.fact.prose && a.fact.line.abs_diff(send.fact.line) <= 10)
        .find(|a| {
            matches!(
                b.tag(a.fact),
                "ssh" | "cloud" | "browser" | "wallet" | "agent-secrets" | "cli-credentials"
            )
        });
    let secret = store.unwrap_or(secret);
    // A store named next to a link with no sending verb the rules read (any language) is a
    // send only by its shape: critical with a suspicious host or concealment, a review otherwise
    // (a sentence can name a key folder and a documentation link).
    let verbless = send.fact.kind == FactKind::SecretFile;
    let sev = if host.class.is_suspicious() || covert.is_some() || store.is_some() && !verbless {
        Severity::Critical
    } else {
        Severity::High
    };
    let why = format!(
        "Instructions gather secrets ({}: {}) and send things to {} ({}) at {}. {}",
        secret.place(),
        b.title(secret.fact).to_lowercase(),
        host.host,
        host.class.phrase(),
        send.place(),
        if sev == Severity::Critical {
            "Split across sentences or files, that is still exfiltration: do not install this skill."
        } else {
            "Check what is sent there before following these instructions."
        }
    );
    out.push(finding(
        "exfiltration.prose-exfil",
        "exfiltration",
        sev,
        send,
        why,
        vec![secret.related("source")],
    ));
}

/// Hidden text (HTML comments, `display:none`, zero-size or transparent text) that carries
/// instructions: words addressed to the agent, concealment, approvals, sends or writes within a few
/// lines.
fn hidden_instructions(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for h in b.all(FactKind::HiddenMarkup) {
        let near = |k: FactKind| {
            b.in_file(h.file, k)
                .find(|a| (h.fact.line..=h.fact.line + 12).contains(&a.fact.line))
        };
        let carried = [
            FactKind::AddressAgent,
            FactKind::Conceal,
            FactKind::ApproveAll,
            FactKind::RemoteInstructions,
            FactKind::Sabotage,
            FactKind::SecretToOutput,
            FactKind::SecretProse,
            FactKind::MemoryEdit,
            FactKind::NetSend,
            FactKind::PipeExec,
        ]
        .iter()
        .find_map(|k| near(*k));
        if let Some(c) = carried {
            let why = format!(
                "{} at {}, and the hidden text carries {} ({}): instructions the user cannot see but the agent reads. Do not install this skill.",
                b.title(h.fact),
                h.place(),
                b.title(c.fact).to_lowercase(),
                c.place()
            );
            out.push(finding(
                "prompt_injection.hidden-instructions",
                "prompt_injection",
                Severity::Critical,
                h,
                why,
                vec![c.related("signal")],
            ));
            return;
        }
    }
}

/// Instructions that weaken what the agent builds.
fn sabotage(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let Some(s) = b.all(FactKind::Sabotage).next() else {
        return;
    };
    let text = s.text();
    let wallet = text.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        (w.starts_with("bc1") && w.len() >= 25)
            || (w.starts_with("0x")
                && w.len() == 42
                && w[2..].bytes().all(|c| c.is_ascii_hexdigit()))
    }) || b
        .in_file(s.file, FactKind::Sabotage)
        .any(|o| o.text().contains("bc1") || o.text().contains("0x"));
    let partner = b
        .all(FactKind::Conceal)
        .next()
        .or_else(|| b.all(FactKind::HiddenMarkup).next());
    let payment = [
        "recipient",
        "wallet",
        "payment",
        "address",
        "iban",
        "bank account",
        "account number",
        "beneficiary",
        "creditor",
        "payee",
    ]
    .iter()
    .any(|w| text.to_lowercase().contains(w));
    let (sev, why) = if partner.is_some() || wallet || payment {
        (
            Severity::Critical,
            format!(
                "{}{}: the agent would plant something against the user in what it builds. Do not install this skill.",
                b.title(s.fact),
                partner
                    .map(|p| format!(", and {} ({})", b.title(p.fact).to_lowercase(), p.place()))
                    .unwrap_or_default()
            ),
        )
    } else {
        (
            Severity::High,
            format!(
                "{}: check what the agent is told to add to its work.",
                b.title(s.fact)
            ),
        )
    };
    let related = partner
        .map(|p| vec![p.related("concealment")])
        .unwrap_or_default();
    out.push(finding(
        "prompt_injection.sabotage",
        "prompt_injection",
        sev,
        s,
        why,
        related,
    ));
}

/// Lines around a phishing request within which its link or address counts.
const PHISH_WINDOW: u32 = 3;

/// A request for people's passwords, card details or one-time codes (`credential-request`), with
/// where the answers go: a link or address within a few lines that is neither local nor a known
/// vendor's, or words that keep it from the user. Alone it is informational (support scripts say
/// "enter your password in the official portal").
fn phishing(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    // The first request speaks for the bundle (one finding, as the other prose rules give).
    if let Some(c) = b.all(FactKind::CredentialRequest).next() {
        let line = c.fact.line;
        let dest = b
            .in_file(c.file, FactKind::Url)
            .filter(|u| u.fact.line + PHISH_WINDOW >= line && u.fact.line <= line + PHISH_WINDOW)
            .chain(std::iter::once(c))
            .find_map(|u| {
                hosts_in(&u.text())
                    .into_iter()
                    .find(|h| h.class != HostClass::Local && !h.class.is_known_good())
                    .map(|h| (u, h))
            })
            .or_else(|| {
                // An address on the next lines ("forward both … to x@host").
                let from = c.fact.start as usize;
                let window: String = c
                    .file
                    .content
                    .get(from..)
                    .unwrap_or("")
                    .split_inclusive('\n')
                    .take(PHISH_WINDOW as usize + 1)
                    .collect();
                hosts_in(&window)
                    .into_iter()
                    .find(|h| h.class != HostClass::Local && !h.class.is_known_good())
                    .map(|h| (c, h))
            });
        let covert = b.all(FactKind::Conceal).next();
        let (sev, why, related) = match (&dest, covert) {
            (Some((u, h)), _) => (
                Severity::Critical,
                format!(
                    "{}, and the answers go to {} ({}) at {}: asking people for their passwords, card details or codes on a page or address the skill picks is phishing. Do not install this skill.",
                    b.title(c.fact),
                    h.host,
                    h.class.phrase(),
                    u.place()
                ),
                if u.fact.line == c.fact.line && u.file.path == c.file.path {
                    Vec::new()
                } else {
                    vec![u.related("sink")]
                },
            ),
            (None, Some(k)) => (
                Severity::Critical,
                format!(
                    "{}, and {} ({}): a request for credentials kept from the user is phishing. Do not install this skill.",
                    b.title(c.fact),
                    b.title(k.fact).to_lowercase(),
                    k.place()
                ),
                vec![k.related("concealment")],
            ),
            (None, None) => (
                Severity::Medium,
                format!(
                    "{}: check where people are asked to type it; only the service's own sign-in page should ever ask.",
                    b.title(c.fact)
                ),
                Vec::new(),
            ),
        };
        out.push(finding(
            "prompt_injection.credential-phishing",
            "prompt_injection",
            sev,
            c,
            why,
            related,
        ));
    }
}

/// The prose rules; `earlier` are the findings so far (rules and the other judge rules).
pub fn judge(b: &Bundle<'_>, earlier: &[Finding]) -> Vec<Finding> {
    let mut out = Vec::new();
    lure(b, &mut out);
    prose_exfil(b, &mut out);
    hidden_instructions(b, &mut out);
    sabotage(b, &mut out);
    phishing(b, &mut out);
    secret_in_url(b, &mut out);
    singles(b, &mut out);
    shadowing(b, &mut out);
    let mut all: Vec<Finding> = earlier.iter().chain(b.prior).chain(&out).cloned().collect();
    approval(b, &all, &mut out);
    all.extend(out.iter().cloned());
    concealment(b, &all, &mut out);
    conditional(b, &all, &mut out);
    out
}
