//! Where a request goes, read from a definition or from the request's own line (round 30c).

use super::code::{self, Definitions};
use super::{Fact, SinkHosts, hosts_in};
use crate::scan::hosts::urls_in;
use crate::scan::judge::Host;

/// What a definition says about where a name sends: its first string literal holding a host, else
/// (a mail, FTP or HTTP client built on a bare server name, `smtplib.SMTP_SSL("mail.x", 465)`,
/// round 30c) the definition itself when that names the server.
pub(super) fn host_literal(rhs: &str) -> Option<String> {
    code::literals(rhs)
        .into_iter()
        .find(|l| !hosts_in(l).is_empty())
        .map(str::to_owned)
        .or_else(|| {
            (["SMTP", "FTP", "Connection("]
                .iter()
                .any(|k| rhs.contains(k))
                && !hosts_in(rhs).is_empty())
            .then(|| rhs.to_owned())
        })
}

/// The hosts of a request fact read from its own line: a URL written there, else the first name on
/// it whose definition holds one.
pub(super) fn line_hosts(content: &str, fact: &Fact, defs: &Definitions) -> Option<SinkHosts> {
    let line = crate::scan::facts::logical_text(content, fact.start, fact.end);
    let direct = hosts_on(&line, defs);
    if !direct.is_empty() {
        return Some((direct, None));
    }
    unbound_refs(&line).into_iter().find_map(|r| {
        defs.resolve(r, &host_literal)
            .map(|(url, line)| (hosts_in(&url), Some((r.to_owned(), line))))
    })
}

/// The names a line reads, less those it binds without reading (`req = Request(` with the URL on
/// the next line): a name given its value here says nothing of where this request goes, and an
/// earlier binding of it (another function's `req`) is another request's (round 33b).
pub(super) fn unbound_refs(line: &str) -> Vec<&str> {
    let rhs_refs = line
        .split_once('=')
        .map(|(_, r)| code::refs(r))
        .unwrap_or_default();
    let bound: Vec<&str> = code::assigned(line)
        .into_iter()
        .filter(|n| !rhs_refs.contains(n))
        .collect();
    code::refs(line)
        .into_iter()
        .filter(|r| !bound.contains(r))
        .collect()
}

/// The hosts written on a line, where a URL's host is completed at run time from a name the file
/// gives a plain value read with that value: `https://api.${site}/…` after
/// `site="${DD_SITE:-datadoghq.com}"` goes to `api.datadoghq.com`, as does
/// `https://api.${DD_SITE:-datadoghq.com}/…` with the default written in place. Without this the
/// host was read as the part before the name (`api`), a host no one knows. A name the file does not
/// give a plain value leaves the line as it is.
pub(super) fn hosts_on(text: &str, defs: &Definitions) -> Vec<Host> {
    if !text.contains("://") || !text.contains(['$', '{']) {
        return hosts_in(text);
    }
    let mut out = String::with_capacity(text.len() + 32);
    let mut last = 0;
    for (s, e) in urls_in(text) {
        let url = &text[s..e];
        let Some(a) = url.find("://").map(|a| a + 3) else {
            continue;
        };
        let end = url[a..].find(['/', '?', '#']).map_or(url.len(), |i| a + i);
        let authority = &url[a..end];
        if authority.contains(['$', '{'])
            && let Some(filled) = fill(authority, defs)
        {
            out.push_str(&text[last..s + a]);
            out.push_str(&filled);
            last = s + end;
        }
    }
    if last == 0 {
        return hosts_in(text);
    }
    out.push_str(&text[last..]);
    hosts_in(&out)
}

/// An authority with every `${name}`, `${name:-default}`, `$name` and `{name}` replaced by the value
/// the file gives the name (or the default written in place); `None` when one has no plain value.
fn fill(authority: &str, defs: &Definitions) -> Option<String> {
    let mut out = String::with_capacity(authority.len() + 32);
    let mut rest = authority;
    while let Some(i) = rest.find(['$', '{']) {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let (inner, used) = if let Some(r) = after.strip_prefix("${") {
            let close = r.find('}')?;
            (&r[..close], close + 3)
        } else if let Some(r) = after.strip_prefix('{') {
            let close = r.find('}')?;
            (&r[..close], close + 2)
        } else {
            let r = &after[1..];
            let n = r
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(r.len());
            (&r[..n], n + 1)
        };
        let (name, default) = match inner.find([':', '-']) {
            Some(k) => (
                &inner[..k],
                Some(inner[k..].trim_start_matches([':', '-', '='])),
            ),
            None => (inner, None),
        };
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            return None;
        }
        let value = defs
            .resolve(name, &plain_value)
            .map(|(v, _)| v)
            .or_else(|| default.filter(|d| host_part(d)).map(str::to_owned))?;
        out.push_str(&value);
        rest = &after[used..];
    }
    out.push_str(rest);
    Some(out)
}

/// The plain value a definition gives: one literal or bare word (`"datadoghq.com"`,
/// `datadoghq.com`), the default of a shell default expansion (`"${DD_SITE:-datadoghq.com}"`), or
/// the fallback of an environment read (`os.environ.get("SITE", "x.com")`, `process.env.SITE ||
/// "x.com"`, `?? "x.com"`), when it is a piece of a host name.
fn plain_value(rhs: &str) -> Option<String> {
    let t = rhs.trim().trim_end_matches(';').trim();
    let lits = code::literals(t);
    let v = match lits.as_slice() {
        [one] if t.len() == one.len() + 2 => *one,
        [] if !t.contains(char::is_whitespace) => t,
        [.., last]
            if ["||", "??", "get(", "getenv(", " or "]
                .iter()
                .any(|k| t.contains(k)) =>
        {
            last
        }
        _ => return None,
    };
    let v = match v.strip_prefix("${").and_then(|r| r.strip_suffix('}')) {
        Some(inner) => inner.split_once(":-").or(inner.split_once('-'))?.1,
        None => v,
    };
    host_part(v).then(|| v.to_owned())
}

/// A piece of a host name: letters, digits, dots and dashes, with at least one letter.
fn host_part(v: &str) -> bool {
    !v.is_empty()
        && v.len() <= 253
        && v.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-'))
        && v.bytes().any(|c| c.is_ascii_alphabetic())
}
