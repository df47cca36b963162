//! An attack shown against a stand-in for the attacker's server (round 27, sets26b).
//!
//! Security documentation draws attacks with self-describing stand-in hosts: `evil.com`,
//! `attacker.com`, `malicious.example`, `attacker-c2.net`. A line of documentation (Markdown or
//! text, never a script) that quotes such a command or sample (the stand-in sits inside quotes or
//! backticks) and names no other destination reaches nothing real: its send-a-secret or
//! prompt-injection finding is an example of the attack, informational (`medium`). Any other host
//! on the line (a vendor, an `.example` or `.test` collector, an IP address) keeps the finding, and
//! so does an unquoted stand-in (prose telling the agent to go there). One pass over the findings.

use crate::scan::bundle::Bundle;
use crate::scan::content::{Finding, is_quoted};
use crate::scan::hosts::HostClass;

/// Registered names that say "the attacker's server".
const STAND_IN_NAMES: &[&str] = &["evil", "attacker", "malicious", "hacker"];

/// Whether a host's registered name (the label before the top-level domain) says it stands in for
/// the attacker: `evil.com`, `www.attacker.com`, `attacker-c2.net`, `evil-site.org`.
pub(crate) fn is_stand_in(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let labels: Vec<&str> = host.split('.').collect();
    let Some(name) = labels.len().checked_sub(2).map(|i| labels[i]) else {
        return false;
    };
    STAND_IN_NAMES.contains(&name)
        || STAND_IN_NAMES
            .iter()
            .any(|s| name.strip_prefix(s).is_some_and(|r| r.starts_with('-')))
}

/// Dotted words shaped like host names (`attacker.com/steal`, `evil.com`), with their offsets: the
/// last label is 2–24 lower-case letters and not a file extension (`package.json`).
fn host_words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line
        .char_indices()
        .chain(std::iter::once((line.len(), ' ')))
    {
        let part = c.is_ascii_alphanumeric() || c == '.' || c == '-';
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let w = line[s..i].trim_matches(['.', '-']);
                let lead = line[s..i].len() - line[s..i].trim_start_matches(['.', '-']).len();
                let labels: Vec<&str> = w.split('.').collect();
                let tld = labels.last().copied().unwrap_or("");
                if labels.len() >= 2
                    && labels.iter().all(|l| !l.is_empty())
                    && !w.starts_with(|c: char| c.is_ascii_digit())
                    && (2..=24).contains(&tld.len())
                    && tld.bytes().all(|b| b.is_ascii_lowercase())
                    && !crate::scan::teaching::FILE_EXTS.contains(&tld)
                {
                    out.push((s + lead, w));
                }
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Whether a documentation line quotes an attack aimed only at stand-in hosts: at least one
/// stand-in inside quotes or backticks, and no destination that is not a stand-in (other than this
/// machine or the local network).
pub(crate) fn quotes_stand_in_only(line: &str) -> bool {
    let urls = crate::scan::judge::hosts_in(line);
    if urls
        .iter()
        .any(|h| h.class != HostClass::Local && !is_stand_in(&h.host))
    {
        return false;
    }
    let words = host_words(line);
    let real_word = words.iter().any(|(_, w)| {
        let host = w.split('/').next().unwrap_or(w);
        !is_stand_in(host) && host != "localhost"
    });
    !real_word
        && words
            .iter()
            .any(|(at, w)| is_stand_in(w) && is_quoted(line, *at))
}

/// Demotes send-a-secret and prompt-injection findings on documentation lines that quote an attack
/// aimed only at stand-in hosts (see the module's documentation).
pub(super) fn demote_stand_in_examples(bundle: &Bundle, out: &mut [Finding]) {
    super::doc_lines::demote_doc_lines(
        bundle,
        out,
        &["exfiltration", "prompt_injection"],
        " (Informational: this documentation line quotes the attack against a stand-in for the attacker's server, such as `evil.com`, and names no real destination.)",
        |_, content, line| {
            content
                .lines()
                .nth(line - 1)
                .is_some_and(quotes_stand_in_only)
        },
    );
}
