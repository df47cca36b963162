//! Where a request goes, read from a definition or from the request's own line (round 30c).

use super::code::{self, Definitions};
use super::{Fact, SinkHosts, hosts_in};

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
    let direct = hosts_in(&line);
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
