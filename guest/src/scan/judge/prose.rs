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
    ".exe", ".dmg", ".pkg", ".msi", ".zip", ".rar", ".7z", ".appimage", ".scr", ".bat", ".cmd",
    ".command", ".hta", ".jar", ".apk", ".ps1", ".vbs", ".lnk", ".iso", ".tar.gz", ".tgz", ".deb", ".rpm",
];

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
        (FactKind::PasswordArchive, Weight::Strong, "password-archive"),
        (FactKind::PasteRun, Weight::Strong, "paste-run"),
        (FactKind::SocialDownload, Weight::Strong, "social-download"),
        (FactKind::PrivilegeGrant, Weight::Medium, "privilege"),
        (FactKind::LureRun, Weight::Weak, "run"),
        (FactKind::LurePrereq, Weight::Weak, "prerequisite"),
    ];
    for (kind, weight, name) in table {
        for at in b.in_file(file, *kind) {
            out.push(Signal { at, weight: *weight, kind: name, what: b.title(at.fact).to_lowercase() });
        }
    }
    for at in b.in_file(file, FactKind::AvBypass) {
        let strong = b.tag(at.fact) == "av";
        out.push(Signal {
            at,
            weight: if strong { Weight::Strong } else { Weight::Medium },
            kind: if strong { "antivirus" } else { "gatekeeper" },
            what: b.title(at.fact).to_lowercase(),
        });
    }
    for at in b.in_file(file, FactKind::ApproveAll) {
        out.push(Signal { at, weight: Weight::Medium, kind: "approve-all", what: b.title(at.fact).to_lowercase() });
    }
    // Links count in prose; in code only on a line that fetches, runs or sends.
    let acting = |line: u32| {
        file.facts.facts.iter().any(|f| {
            f.line == line
                && matches!(
                    f.kind,
                    FactKind::Download | FactKind::FetchToValue | FactKind::PipeExec | FactKind::RunFile
                )
        })
    };
    for at in b.in_file(file, FactKind::Url).filter(|a| a.fact.prose || acting(a.fact.line)) {
        for h in hosts_in(&at.text()) {
            let path = h.path.to_ascii_lowercase();
            let path = path.split(['?', '#']).next().unwrap_or("");
            if h.class.is_suspicious() {
                out.push(Signal {
                    at,
                    weight: Weight::Strong,
                    kind: "suspicious-link",
                    what: format!("a link to {} ({})", h.host, h.class.phrase()),
                });
            } else if h.class == HostClass::Unknown && PAYLOAD_EXTENSIONS.iter().any(|e| path.ends_with(e)) {
                out.push(Signal {
                    at,
                    weight: Weight::Medium,
                    kind: "payload-link",
                    what: format!("a download of an executable or archive from {} (not a known vendor)", h.host),
                });
            }
        }
    }
    out.sort_by_key(|s| s.at.fact.line);
    out
}

fn lure(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let signals = lure_signals(b, file);
        if signals.iter().all(|s| s.weight < Weight::Strong) && signals.iter().filter(|s| s.weight == Weight::Medium).count() < 2 {
            continue;
        }
        // The best window of LURE_WINDOW lines.
        let mut best: Option<(Severity, usize, usize)> = None;
        for i in 0..signals.len() {
            let mut kinds: Vec<(&str, Weight)> = Vec::new();
            let mut j = i;
            while j < signals.len() && signals[j].at.fact.line <= signals[i].at.fact.line + LURE_WINDOW {
                if !kinds.iter().any(|(k, _)| *k == signals[j].kind) {
                    kinds.push((signals[j].kind, signals[j].weight));
                }
                j += 1;
            }
            let strong = kinds.iter().filter(|(_, w)| *w == Weight::Strong).count();
            let medium = kinds.iter().filter(|(_, w)| *w == Weight::Medium).count();
            let weak = kinds.iter().filter(|(_, w)| *w == Weight::Weak).count();
            let sev = if strong >= 2 || strong == 1 && medium + weak >= 1 {
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
        let head = window.iter().max_by_key(|s| (s.weight, std::cmp::Reverse(s.at.fact.line))).map(|s| s.at).unwrap_or(window[0].at);
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
            if sev == Severity::Critical { "the marks of a malware lure" } else { "a mark of a malware lure" },
            whats.join("; "),
            if sev == Severity::Critical {
                "Real tools ship through package managers or their vendor's site; password-protected archives, paste-and-run steps and turning protection off are how infostealers are delivered. Do not follow these steps."
            } else {
                "Check where this software comes from before following these steps."
            }
        );
        related.truncate(6);
        out.push(finding("supply_chain.install-lure", "supply_chain", sev, head, why, related));
    }
}

/// Facts that make concealment or a condition dangerous: the thing worth hiding.
fn risky_action<'a>(b: &'a Bundle<'a>, earlier: &[Finding]) -> Option<Related> {
    if let Some(f) = earlier.iter().find(|f| f.severity >= Severity::High) {
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
        FactKind::LureRun,
        FactKind::PasteRun,
    ];
    kinds
        .iter()
        .find_map(|k| b.all(*k).next())
        .or_else(|| {
            b.all(FactKind::Write)
                .find(|a| super::agent::agent_write_tag(b.tag(a.fact)))
        })
        .map(|a| a.related("action"))
}

fn concealment(b: &Bundle<'_>, earlier: &[Finding], out: &mut Vec<Finding>) {
    let Some(c) = b.all(FactKind::Conceal).next() else { return };
    let action = risky_action(b, earlier).filter(|r| !(r.file == c.file.path && r.line == c.fact.line as usize));
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
    out.push(finding(rule, "prompt_injection", sev, c, why, action.into_iter().collect()));
}

fn conditional(b: &Bundle<'_>, earlier: &[Finding], out: &mut Vec<Finding>) {
    let Some(c) = b.all(FactKind::Conditional).next() else { return };
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
    out.push(finding("prompt_injection.conditional-action", "prompt_injection", sev, c, why, partner.into_iter().collect()));
}

fn approval(b: &Bundle<'_>, earlier: &[Finding], out: &mut Vec<Finding>) {
    let facts: Vec<At<'_>> = b.all(FactKind::ApproveAll).chain(b.all(FactKind::NoInspect)).collect();
    let Some(first) = facts.first().copied() else { return };
    let other = facts.iter().find(|a| a.fact.line != first.fact.line || a.file.path != first.file.path).map(|a| a.related("signal"));
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
            format!("{}: approvals exist so the user sees what runs. Do not approve blindly.", b.title(first.fact)),
        ),
    };
    out.push(finding("prompt_injection.approval-manipulation", "prompt_injection", sev, first, why, partner.into_iter().collect()));
}

fn shadowing(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let Some(s) = b.all(FactKind::ToolShadow).next() else { return };
    let route = b
        .in_file(s.file, FactKind::Url)
        .find(|u| hosts_in(&u.text()).iter().any(|h| h.class != HostClass::Local && !h.class.is_known_good()))
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
            format!("{}: a skill should add tools, not claim the agent's built-in ones are gone.", b.title(s.fact)),
        ),
    };
    let related = route.map(|r| vec![r.related("route")]).unwrap_or_default();
    out.push(finding("prompt_injection.tool-shadowing", "prompt_injection", sev, s, why, related));
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
                && ["KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "COOKIE", "SESSION"]
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
            for name in secret_placeholders(&h.url) {
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
                out.push(finding("exfiltration.secret-in-url", "exfiltration", Severity::Critical, at, why, Vec::new()));
                return;
            }
        }
    }
}

fn singles(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    if let Some(s) = b.all(FactKind::SecretToOutput).next() {
        let foreign = b
            .in_file(s.file, FactKind::Url)
            .any(|u| hosts_in(&u.text()).iter().any(|h| h.class != HostClass::Local && !h.class.is_known_good()))
            || s.text().contains('@');
        let sev = if foreign || b.any(FactKind::Conceal) { Severity::Critical } else { Severity::High };
        let why = format!(
            "{}: secrets placed in output, reports or messages end up where others can read them.{}",
            b.title(s.fact),
            if sev == Severity::Critical { " Here they would go to a place outside the user's control: do not install this skill." } else { "" }
        );
        out.push(finding("prompt_injection.secret-to-output", "prompt_injection", sev, s, why, Vec::new()));
    }
    if let Some(o) = b.all(FactKind::OverrideUser).next() {
        let why = format!("{}: a skill must not rank its instructions above the user's.", b.title(o.fact));
        out.push(finding("prompt_injection.override-user", "prompt_injection", Severity::High, o, why, Vec::new()));
    }
    if let Some(r) = b.all(FactKind::RemoteInstructions).next() {
        let why = format!(
            "{}: instructions fetched at run time can change after review, so what was checked is not what runs.",
            b.title(r.fact)
        );
        out.push(finding("prompt_injection.remote-instructions", "prompt_injection", Severity::High, r, why, Vec::new()));
    }
}

/// The prose rules; `earlier` are the findings so far (rules and the other judge rules).
pub fn judge(b: &Bundle<'_>, earlier: &[Finding]) -> Vec<Finding> {
    let mut out = Vec::new();
    lure(b, &mut out);
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
