//! Prose that sends: secrets named in instructions and sent to a non-vendor host
//! (`exfiltration.prose-exfil`), a secret's placeholder in a URL (`exfiltration.secret-in-url`).

use super::super::{At, Bundle, finding, hosts_in};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::hosts::{HostClass, key_owns_host, vendor_of_key};
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
            .find(|h| h.class.is_outside());
        if let Some(h) = dest {
            out.push((store, h));
        }
    }
    out
}
/// Whether a placeholder's name names a credential: it contains a secret word (KEY, TOKEN,
/// SECRET, PASSWORD, …) and none of its `_`-separated words says the value is public. A wallet's
/// `PUBKEY`, a `PUBLIC_KEY` or a search `KEYWORD` are values anyone may see; an address or a long
/// base58/hex token is not a secret by its shape.
fn names_a_secret(name: &str) -> bool {
    const SECRET: [&str; 8] = [
        "KEY",
        "TOKEN",
        "SECRET",
        "PASSWORD",
        "PASSWD",
        "CREDENTIAL",
        "COOKIE",
        "SESSION",
    ];
    const PUBLIC: [&str; 6] = [
        "PUB",
        "PUBKEY",
        "PUBLIC",
        "PUBLICKEY",
        "KEYWORD",
        "KEYWORDS",
    ];
    let upper = name.to_ascii_uppercase();
    let words: Vec<&str> = upper.split('_').filter(|w| !w.is_empty()).collect();
    if words
        .iter()
        .any(|w| PUBLIC.contains(w) || w.starts_with("PUBKEY"))
    {
        return false;
    }
    SECRET.iter().any(|s| upper.contains(s))
}

/// Whether a URL carries a placeholder of what was read or produced (`<contents>`,
/// `{file_content}`, `<output>`, `{{conversation}}`).
fn carries_contents(url: &str) -> bool {
    const WORDS: [&str; 6] = [
        "content",
        "output",
        "conversation",
        "history",
        "file_data",
        "env",
    ];
    let l = url.to_ascii_lowercase();
    l.split(['<', '{'])
        .skip(1)
        .filter_map(|p| p.split(['>', '}']).next())
        .any(|name| {
            name.len() <= 24
                && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
                && WORDS.iter().any(|w| name.contains(w))
        })
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
            // A `<…>` placeholder worded in a sentence (`<the OPENAI_API_KEY value>`, in any
            // language): its upper-case words are read as names too (stop 57).
            if b[i] == b'<' && b.get(j) == Some(&b' ') {
                let inner = &url[s..];
                if let Some(end) = inner.find('>').filter(|&e| e <= 80) {
                    out.extend(inner[..end].split(' ').filter(|w| {
                        w.len() >= 4
                            && w.contains('_')
                            && *w == w.to_ascii_uppercase()
                            && w.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
                            && names_a_secret(w)
                    }));
                    i = s + end + 1;
                    continue;
                }
            }
            let name = &url[s..j];
            // A lower-case name counts only inside `<…>` / `{…}` next to a placeholder of file
            // contents or output in the same URL (`?data=<contents>&token=<api_key>`): API docs
            // write `{api_key}` for the user's own key everywhere; carrying what was read as well
            // is the second signal.
            let closed = matches!((b[i], b.get(j)), (b'<', Some(b'>')) | (b'{', Some(b'}')));
            let upper = name == name.to_ascii_uppercase();
            if name.len() >= 4 && names_a_secret(name) && (upper || closed && carries_contents(url))
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
            // A `<…>` placeholder with blanks in it is read to its end (stop 57).
            let from = text.find(&h.url).unwrap_or(0);
            let written = as_written(&text[from..]);
            for name in secret_placeholders(written) {
                let foreign = match vendor_of_key(name) {
                    Some(_) => !key_owns_host(name, &h.host),
                    // A key of a service no vendor list knows, sent to a host that names that
                    // service (`QUICKCHART_API_KEY` to the chart host): the key's own API (stop 57).
                    // `YOUR_TOKEN` is the user's own key for the API the docs describe.
                    None => {
                        !h.class.is_known_good()
                            && !host_names_service(name, &h.host)
                            && !users_own(name)
                            && (!unnamed_secret(name) || carries_contents(written))
                    }
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
/// A URL as written from its start: up to the first blank or closing mark, except that a `<…>`
/// placeholder is read to its `>` (within 80 bytes, on the line), blanks and all.
fn as_written(text: &str) -> &str {
    let stop = |c: char| c.is_whitespace() || matches!(c, ')' | '`' | '"' | '\'');
    let mut end = text.find(stop).unwrap_or(text.len());
    while let Some(lt) = text[..end]
        .rfind('<')
        .filter(|&lt| !text[lt..end].contains('>'))
    {
        let Some(gt) = text[end..]
            .find(['>', '\n'])
            .map(|g| end + g)
            .filter(|&g| g - lt <= 80 && text[g..].starts_with('>'))
        else {
            break;
        };
        end = gt + 1 + text[gt + 1..].find(stop).unwrap_or(text.len() - gt - 1);
    }
    &text[..end]
}

/// Whether a key name names no service, person or kind of credential beyond "the token" of the
/// URL it sits in (`<TOKEN>`, `{API_KEY}`, `<PING_KEY>`, `<HEARTBEAT_TOKEN>`): every word is one of
/// a few generic ones and one is `TOKEN`/`KEY`/`APIKEY`. Such a placeholder stands for the value
/// the service at that URL issued (a monitor's heartbeat token, an endpoint's key), as `YOUR_TOKEN`
/// does (round 47b). `PRIVATE_KEY`, `SECRET_KEY`, `SEED`, a vendor's or a person's key name are
/// not generic.
fn unnamed_secret(name: &str) -> bool {
    const GENERIC: [&str; 14] = [
        "API",
        "ACCESS",
        "AUTH",
        "TOKEN",
        "KEY",
        "APIKEY",
        "PING",
        "PUSH",
        "HEARTBEAT",
        "MONITOR",
        "WEBHOOK",
        "CHECK",
        "ID",
        "BEARER",
    ];
    let words: Vec<&str> = name.split('_').collect();
    words
        .iter()
        .all(|w| GENERIC.iter().any(|g| g.eq_ignore_ascii_case(w)))
        && words.iter().any(|w| {
            ["TOKEN", "KEY", "APIKEY"]
                .iter()
                .any(|g| g.eq_ignore_ascii_case(w))
        })
}

/// Whether a key name says it is the reader's own (`YOUR_API_KEY`, `MY_TOKEN`).
fn users_own(name: &str) -> bool {
    let first = name.split('_').next().unwrap_or("");
    first.eq_ignore_ascii_case("your") || first.eq_ignore_ascii_case("my")
}

/// Whether a key name's first word (its service: `QUICKCHART` in `QUICKCHART_API_KEY`) of three
/// letters or more is part of the host's name.
fn host_names_service(name: &str, host: &str) -> bool {
    let service = name.split('_').next().unwrap_or("").to_ascii_lowercase();
    service.len() >= 3 && host.to_ascii_lowercase().contains(&service)
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
