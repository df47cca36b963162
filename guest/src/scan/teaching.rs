//! Skills that teach or practise security (penetration testing, red teaming, CTFs, incident
//! response): what their documentation shows is the technique they teach.
//!
//! In such a skill (its `name` or `description` says so), an attack command in its documentation
//! (Markdown and text, not a script it ships) is capped at `high`, so a reviewer still looks.
//! Further, when the bundle ships no script at all (nothing that could run the examples) and the
//! command sits in a fenced code block of a document and reaches no real outside address (its
//! hosts, if any, are placeholders: `attacker.com`, `ATTACKER_IP`, `*.example`, documentation or
//! private ranges), it is an example of the technique: informational (`medium`), and so is a
//! prompt-injection finding whose only action is such an example. What the skill's prose tells
//! the agent to do is never lowered: sentences, inline code in sentences, hidden text, prompt
//! injection of its own, and any command aimed at a concrete outside host keep their grade.

use super::bundle::{Bundle, EntryKind};
use super::content::{FileKind, FilePlace, Finding, kind_of};
use super::hosts::HostClass;
use super::rules::Severity;

/// What a skill says it is for, when that is teaching or practising security: penetration testing,
/// CTFs, red teaming, privilege escalation, incident response, malware triage, detection
/// engineering, MITRE ATT&CK tactics and techniques.
fn teaching() -> &'static regex_automata::meta::Regex {
    static R: std::sync::OnceLock<regex_automata::meta::Regex> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        super::rules::line_regex(r"(?i)\b(pen-?test\w*|penetration test\w*|red[- ]team\w*|ctf|capture[- ]the[- ]flag|offensive security|security (training|lab|course|teaching|awareness)|hacking lab|hack ?the ?box|tryhackme|oscp|malware (analysis|triage|sample)|incident response|dfir|forensics?|detection engineering|threat hunting|blue team|soc analyst|phishing[- ]awareness|privilege escalation|privesc|att&ck)\b")
            .expect("valid")
    })
}

/// A front-matter string field, or when the front matter does not parse as a whole (a registry
/// skill's odd indentation), the first line of the block that starts with `key:`.
pub(super) fn front_field(text: &str, key: &str) -> Option<String> {
    crate::validate::frontmatter_string(text, key).or_else(|| {
        let mut lines = text.lines();
        if lines.next()?.trim_end() != "---" {
            return None;
        }
        let prefix = format!("{key}:");
        lines
            .take_while(|l| l.trim() != "---")
            .find_map(|l| l.strip_prefix(prefix.as_str()))
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    })
}

/// What a skill says it is for, when that is testing software for vulnerabilities or teaching
/// attack payloads by name (round 36b, sets36b): security testing, vulnerability assessment, bug
/// bounties, ethical hacking, the named injection classes (SQL, command, template, prompt…),
/// jailbreaks, OWASP, finding leaked keys. ("Dependency injection" names no attack.)
fn tests_security() -> &'static regex_automata::meta::Regex {
    static R: std::sync::OnceLock<regex_automata::meta::Regex> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        super::rules::line_regex(r"(?i)\b(security[- ]testing|vulnerability (testing|assessments?|research|scann\w*)|bug[- ]bount(y|ies)|ethical hack\w*|(sql|nosql|os command|command|code|template|ldap|xpath|crlf|header|prompt) injections?|jailbreak\w*|owasp|(leaked|exposed) (api )?(keys?|secrets?|credentials?|tokens?))\b")
            .expect("valid")
    })
}

/// The skill declares (in SKILL.md's `name` or `description`) that it teaches or practises security.
pub(super) fn teaches_security(bundle: &Bundle) -> bool {
    declares(bundle, teaching()) || reviews_security(bundle) || opens_as_security_work(bundle)
}

/// Whether the documentation cap ([`cap_documentation`]) applies: the skill teaches or practises
/// security, or says it tests software for vulnerabilities (round 36b). The wider words open only
/// the cap on commands in documentation; prompt-injection prose keeps its own, narrower test
/// ([`teaches_security`], read by the taught-paragraph relaxation).
pub(super) fn documents_attacks(bundle: &Bundle) -> bool {
    teaches_security(bundle) || declares(bundle, tests_security())
}

/// How many of the body's first prose lines state the skill's role (round 35b).
const OPENING_LINES: usize = 4;

/// The skill's body opens by stating that it does security work (round 35b, sets35b): one of its
/// first [`OPENING_LINES`] prose lines after the front matter (headings and blank lines skipped)
/// says so ("You are helping a penetration tester pivot…"). The opening states the role as the
/// `description` does; sentences further down do not count.
fn opens_as_security_work(bundle: &Bundle) -> bool {
    let Some(text) = bundle.skill_md() else {
        return false;
    };
    let mut lines = text.lines();
    let mut body: Vec<&str> = Vec::new();
    if text.starts_with("---") {
        lines.next();
        if !lines.by_ref().any(|l| l.trim_end() == "---") {
            return false;
        }
    }
    for l in lines {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            break;
        }
        body.push(t);
        if body.len() == OPENING_LINES {
            break;
        }
    }
    body.iter().any(|l| teaching().is_match(l.as_bytes()))
}

/// The skill declares that it reviews or audits for security (round 33v, see `review_topic`).
fn reviews_security(bundle: &Bundle) -> bool {
    declares(bundle, super::review_topic::reviewing())
}

/// Whether SKILL.md's `name` or `description` matches `topic`: what the skill says it is about.
pub(super) fn declares(bundle: &Bundle, topic: &regex_automata::meta::Regex) -> bool {
    let Some(text) = bundle.skill_md() else {
        return false;
    };
    ["name", "description"]
        .iter()
        .any(|k| front_field(text, k).is_some_and(|v| topic.is_match(v.as_bytes())))
        || LABEL_KEYS
            .iter()
            .any(|k| front_line(text, k).is_some_and(|v| topic.is_match(v.as_bytes())))
}

/// Front-matter keys whose values label what a skill is for (round 45b): a reference skill's
/// `modes: [pentest, bugbounty]` or `tags: [red-team]` says what its `description` leaves implicit.
const LABEL_KEYS: &[&str] = &[
    "tags",
    "modes",
    "mode",
    "category",
    "categories",
    "keywords",
    "domain",
];

/// The raw value of a top-level front-matter line `key: …` (a flow list such as `[pentest, ctf]`
/// included), whatever the rest of the front matter parses to.
fn front_line<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let mut lines = text.lines();
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    lines
        .take_while(|l| l.trim() != "---")
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

/// Registered names and top-level domains that stand for "some host" in examples.
const PLACEHOLDER_NAMES: &[&str] = &[
    "example",
    "attacker",
    "attack",
    "evil",
    "malicious",
    "victim",
    "target",
    "yourdomain",
    "your-domain",
    "yourserver",
    "your-server",
    "c2server",
    "c2",
];
const PLACEHOLDER_TLDS: &[&str] = &[
    "example",
    "test",
    "invalid",
    "local",
    "localhost",
    "lab",
    "htb",
];

/// Whether a host is a placeholder (a reserved example name, `attacker.com`, a documentation
/// address) or on this machine or the local network: nothing real is reached.
fn placeholder(host: &super::judge::Host) -> bool {
    if host.class == HostClass::Local {
        return true;
    }
    // A single label (`ATTACKER_IP`, `PIVOT_IP`, `LHOST`) is a name the reader fills in or a
    // machine on the local network: no public host has a one-label name (round 35b).
    if !host.host.is_empty() && !host.host.contains(['.', ':']) {
        return true;
    }
    let labels: Vec<&str> = host.host.split('.').collect();
    let tld = labels.last().copied().unwrap_or("");
    let name = labels.len().checked_sub(2).map_or("", |i| labels[i]);
    let doc_ip = ["192.0.2.", "198.51.100.", "203.0.113."]
        .iter()
        .any(|p| host.host.starts_with(p));
    doc_ip || PLACEHOLDER_TLDS.contains(&tld) || PLACEHOLDER_NAMES.contains(&name)
}

/// Extensions that make a dotted word a file name rather than a host (`payload.exe`, `run.sh`).
pub(super) const FILE_EXTS: &[&str] = &[
    "sh", "py", "js", "ts", "rb", "pl", "php", "ps1", "psm1", "bat", "cmd", "exe", "dll", "so",
    "sct", "hta", "vbs", "txt", "md", "json", "yaml", "yml", "xml", "conf", "cfg", "ini", "log",
    "service", "timer", "socket", "c", "h", "o", "bin", "elf", "zip", "gz", "tar", "tgz", "jar",
    "war", "png", "jpg", "html", "htm", "csv", "db", "sqlite", "key", "pem", "crt", "pub", "d",
    "local", "lnk", "msi", "iso", "img", "sys", "lock", "pid", "env", "toml", "go", "rs", "java",
];

/// Whether a line reaches a real outside address: a URL, `user@host` or IP address that is not a
/// placeholder, or any other dotted word shaped like a host name (`/dev/tcp/relay.example-c2.net`,
/// `nc relay.example-c2.net 4444`) whose last label is not a file extension.
pub(super) fn reaches_real_host(line: &str) -> bool {
    if super::judge::hosts_in(line).iter().any(|h| !placeholder(h)) {
        return true;
    }
    // `<service.name>`-style placeholders name no host.
    let mut plain = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('<') {
        plain.push_str(&rest[..open]);
        match rest[open..].find(['>', ' ']) {
            Some(close) if rest[open + close..].starts_with('>') => {
                rest = &rest[open + close + 1..];
            }
            _ => {
                plain.push('<');
                rest = &rest[open + 1..];
            }
        }
    }
    plain.push_str(rest);
    // A dotted word right before `(` is a call (`requests.post(`, `os.path.join(`), not a host
    // (round 33v).
    let plain = super::review_topic::blank_calls(&plain);
    plain
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
        .map(|w| w.trim_matches(['.', '-']))
        .filter(|w| w.contains('.') && !w.starts_with(|c: char| c.is_ascii_digit()))
        .any(|w| {
            let labels: Vec<&str> = w.split('.').collect();
            // A CamelCase last label (`Net.WebClient`, `Console.WriteLine`) is a class or member
            // name, not a top-level domain (round 36b).
            let camel = labels.last().is_some_and(|l| {
                l.chars().skip(1).any(|c| c.is_ascii_uppercase())
                    && l.chars().any(|c| c.is_ascii_lowercase())
            });
            let tld = labels.last().copied().unwrap_or("").to_ascii_lowercase();
            let name = labels[labels.len() - 2].to_ascii_lowercase();
            labels.iter().all(|l| !l.is_empty())
                && !camel
                && (2..=24).contains(&tld.len())
                && tld.bytes().all(|c| c.is_ascii_lowercase())
                && !FILE_EXTS.contains(&tld.as_str())
                && !PLACEHOLDER_TLDS.contains(&tld.as_str())
                && !PLACEHOLDER_NAMES.contains(&name.as_str())
        })
}

/// Whether a bundle file is a script it ships (run when the skill runs): a shell, Python,
/// JavaScript/TypeScript, PowerShell, Ruby, Perl or batch file, or any file starting with `#!`,
/// outside test folders.
fn ships_script(path: &str, content: &str) -> bool {
    kind_of(path, content) == FileKind::Code
        && !FilePlace::of_file(path, content).test
        && (content.starts_with("#!")
            || path.rsplit_once('.').is_some_and(|(_, e)| {
                super::judge::exec::SCRIPT_EXTS.contains(&e.to_ascii_lowercase().as_str())
            }))
}

/// The 1-based numbers of a Markdown file's lines inside fenced code blocks.
pub(super) fn fenced_lines(content: &str) -> Vec<bool> {
    let places = super::markdown::fence_places(content.lines());
    std::iter::once(false)
        .chain(
            places
                .into_iter()
                .map(|p| p == super::markdown::FencePlace::Inside),
        )
        .collect()
}

/// In a skill that teaches security: attack commands in its documentation are capped at `high`,
/// and fenced examples that reach nothing real, in a bundle that ships no script, are
/// informational (see the module's documentation).
/// Rules judged only from the skill's own prose orders (never from fenced examples), whose
/// findings the cap leaves alone (round 34m).
const STANDING_ORDERS: &[&str] = &["privilege_escalation.disarmed-controls"];

pub(super) fn cap_documentation(bundle: &Bundle, out: &mut [Finding]) {
    let texts: Vec<(&str, &str)> = bundle
        .files
        .iter()
        .filter(|f| f.kind == EntryKind::Text)
        .filter_map(|f| f.content.as_deref().map(|c| (f.path.as_str(), c)))
        .collect();
    // A skill that reviews for security may ship checkers that only read its documents; what
    // matters for it is whether a script could run a document's examples (round 33v).
    let reviews = reviews_security(bundle);
    // For a reviewing skill, whether it ships a script that could run its documents' examples
    // (each script read once).
    let runs_documents = reviews
        && texts
            .iter()
            .any(|(p, c)| ships_script(p, c) && super::review_topic::could_run_documents(c));
    // A reviewing skill (that does not also say it teaches) shipping such a script: its
    // documents are not only documentation, nothing is lowered (round 33v).
    if runs_documents && !declares(bundle, teaching()) {
        return;
    }
    let no_scripts = if reviews {
        !runs_documents
    } else {
        !texts.iter().any(|(p, c)| ships_script(p, c))
    };
    // Each Markdown file's fenced lines, worked out once when a finding asks.
    let mut fenced: Vec<Option<Vec<bool>>> = vec![None; texts.len()];
    let mut examples: Vec<(String, usize)> = Vec::new();
    for f in out.iter_mut() {
        let Some(i) = texts.iter().position(|(p, _)| *p == f.file) else {
            continue;
        };
        let (path, content) = texts[i];
        let kind = kind_of(path, content);
        // An HTML comment inside a fenced block is shown to the reader, not hidden: in such a
        // skill it can be an example like a command (round 33v); it is never merely capped.
        let shown_comment = f.rule_id == "prompt_injection.hidden-html-comment";
        // A standing order of the skill's own prose that lifts controls and widens access
        // (judged from sentences outside fenced blocks only) is what the skill does, not a
        // technique it shows: a break-glass or incident skill keeps its grade (round 34m).
        if STANDING_ORDERS.contains(&f.rule_id.as_str()) {
            continue;
        }
        if kind == FileKind::Code
            || f.severity < Severity::High
            || matches!(
                f.category.as_str(),
                "prompt_injection" | "invisible_text" | "structural"
            ) && !shown_comment
        {
            continue;
        }
        let example = no_scripts
            && kind == FileKind::Markdown
            && f.line > 0
            && fenced[i]
                .get_or_insert_with(|| fenced_lines(content))
                .get(f.line)
                .copied()
                .unwrap_or(false)
            // The whole statement: a call continued on the next lines names its address there
            // (`requests.post(` then `"https://…",`) (round 33v).
            && super::review_topic::statement(content, f.line)
                .is_some_and(|l| l.iter().all(|l| !reaches_real_host(l)));
        if example {
            f.severity = Severity::Medium;
            f.description.push_str(" (Informational: the skill says it teaches or practises security testing, this is a fenced example in its documentation aimed at no real address, and the bundle ships no script that could run it.)");
            examples.push((f.file.clone(), f.line));
        } else if shown_comment {
            continue;
        } else if f.severity == Severity::Critical {
            f.severity = Severity::High;
            f.description.push_str(" (Capped at high: the skill says it teaches or practises security testing, and this is in its documentation, not in a script it runs.)");
        }
    }
    if examples.is_empty() {
        return;
    }
    // A combination whose only action is such an example (a condition or a concealment next to
    // it) is informational too; one with any other partner keeps its grade.
    for f in out.iter_mut() {
        let actions: Vec<_> = f.related.iter().filter(|r| r.role == "action").collect();
        if f.severity >= Severity::High
            && !actions.is_empty()
            && f.related.len() == actions.len()
            && actions
                .iter()
                .all(|r| examples.iter().any(|(p, l)| *p == r.file && *l == r.line))
        {
            f.severity = Severity::Medium;
            f.description.push_str(" (Informational: its only action is a fenced example of the security technique the skill teaches.)");
        }
    }
}
