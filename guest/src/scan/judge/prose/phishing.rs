//! Requests for people's passwords, card details or one-time codes, and where the answers go
//! (`prompt_injection.credential-phishing`).

use super::super::{Bundle, finding, hosts_in};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// Lines around a phishing request within which its link or address counts.
const PHISH_WINDOW: u32 = 3;

/// A request for people's passwords, card details or one-time codes (`credential-request`), with
/// where the answers go: a link or address within a few lines that is neither local nor a known
/// vendor's, or words that keep it from the user. Alone it is informational (support scripts say
/// "enter your password in the official portal").
pub(super) fn phishing(b: &Bundle<'_>, out: &mut Vec<Finding>) {
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
                    .find(|h| h.class.is_outside())
                    .map(|h| (u, h))
            })
            .or_else(|| {
                // An address on the next lines ("forward both … to x@host").
                super::foreign_host_near(&c, PHISH_WINDOW as usize + 1).map(|h| (c, h))
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
