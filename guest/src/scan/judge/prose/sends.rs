//! Prose that sends: secrets named in instructions and sent to a non-vendor host
//! (`exfiltration.prose-exfil`), a secret's placeholder in a URL (`exfiltration.secret-in-url`).

use super::super::{At, Bundle, finding, hosts_in};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::hosts::{HostClass, belongs_to, vendor_of_key};
use crate::scan::rules::Severity;

/// Prose that sends something, with a destination on its line or the next two that is neither
/// local nor a known vendor's.
pub(super) fn prose_sends<'a>(b: &'a Bundle<'a>) -> Vec<(At<'a>, super::super::Host)> {
    let mut out = Vec::new();
    for send in b
        .all(FactKind::NetSend)
        .filter(|a| b.tag(a.fact) == "prose")
    {
        // The destination (a URL or an e-mail address) on this line or the next two, while the
        // statement goes on.
        if let Some(h) = super::foreign_host_near(&send, super::statement_lines(&send, 3)) {
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
            // A public key (`<PUBKEY>`, `<PUBLIC_KEY>`: a wallet's address) is meant to be shared.
            if name.len() >= 4
                && name == upper
                && !upper.contains("PUB")
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

pub(super) fn secret_in_url(b: &Bundle<'_>, out: &mut Vec<Finding>) {
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
/// Prose that tells the agent to send secrets, or secrets gathered anywhere in the bundle, to a
/// place that is not a vendor's.
pub(super) fn prose_exfil(b: &Bundle<'_>, out: &mut Vec<Finding>) {
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
