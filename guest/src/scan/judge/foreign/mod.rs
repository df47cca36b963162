//! Round 38c (sets38c): the open classes of issue 14 the held-out real-world sets left open —
//! a package manager pointed at a host that is not a registry, a wallet drained to a fixed
//! address, an MCP server relaying what it is given to a fixed outside host and port, agent
//! settings lifted by property-setting code or by a shipped config copied over the user's, and a
//! popular package swapped for a copy from a stranger's host, a credential variable sent to a host
//! unrelated to the skill. Plain Rust over each file's shared
//! lowered view, one pass per file, bounded windows.

use super::{Bundle, File, Host};
use crate::scan::content::Finding;

mod dep_swap;
mod mcp_out;
mod registry;

/// The words these judges' whole-text gates ask ([`super::File::words`]).
pub(super) fn gate_words() -> impl Iterator<Item = &'static [&'static str]> {
    registry::gate_words()
}
mod settings;
mod token_host;
mod wallet;

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    registry::judge(b, out);
    wallet::judge(b, out);
    mcp_out::judge(b, out);
    settings::judge(b, out);
    dep_swap::judge(b, out);
    token_host::judge(b, out);
}

/// Words without one of which no judge of this module can fire on a text that states no fact
/// (chained into `prose::reads_raw_text`).
pub(crate) fn raw_words() -> impl Iterator<Item = &'static str> {
    registry::RAW
        .iter()
        .chain(wallet::RAW)
        .chain(mcp_out::RAW)
        .chain(settings::RAW)
        .chain(dep_swap::RAW)
        .chain(token_host::RAW)
        .copied()
}

/// The words that name the skill's own service: its name's words (four letters or more) and the
/// capitalised or domain-like words of its description (`Pulseboard`, `api.linkvault.example.com`).
pub(super) fn own_words(b: &Bundle<'_>) -> Vec<String> {
    let mut words = b.name_words();
    if let Some(d) = b
        .skill_md()
        .and_then(|f| crate::validate::frontmatter_string(f.content, "description"))
    {
        for w in d.split(|c: char| !c.is_ascii_alphanumeric()) {
            if w.len() >= 4 && !COMMON.contains(&w.to_ascii_lowercase().as_str()) {
                words.push(w.to_ascii_lowercase());
            }
        }
        // A host the description names whole (`api.linkvault.example.com`) is the skill's own.
        for t in d.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-')) {
            let t = t
                .trim_matches(|c| c == '.' || c == '-')
                .to_ascii_lowercase();
            if t.contains('.')
                && t.rsplit('.').next().is_some_and(|tld| {
                    tld.len() >= 2 && tld.bytes().all(|c| c.is_ascii_lowercase())
                })
            {
                words.push(t);
            }
        }
    }
    words
}

/// Description words too common to name a service.
const COMMON: &[&str] = &[
    "your", "with", "from", "that", "this", "when", "into", "data", "file", "files", "server",
    "local", "cloud", "sync", "tool", "tools", "user", "using", "over", "each", "them", "their",
    "will", "then", "only", "have", "http", "https", "api", "agent", "skill", "example", "memory",
    "account", "service",
];

/// Whether a host is the skill's own: the description names it whole (or a domain it is under),
/// or a piece of its registered name (`acme` in `api.acme-cloud.io`, split at `-`) is one of
/// `words`. A word only in a sub-domain label (`notify.example.org` for a skill named
/// `deploy-notify`) is not: anyone can name a sub-domain of their own host after the skill.
pub(super) fn own_host(h: &Host, words: &[String]) -> bool {
    let host = h.host.to_ascii_lowercase();
    let registered = crate::scan::judge::registered_name(&host);
    words.iter().any(|w| {
        if w.contains('.') {
            host == *w || host.ends_with(&format!(".{w}"))
        } else {
            registered.split('-').any(|l| l.len() >= 4 && l == w)
        }
    })
}

/// A host is suspicious for these rules: not local, a vendor's, an installer's or a registry's.
pub(super) fn foreign(h: &Host) -> bool {
    super::shapes::suspicious(h.class)
}

/// Whether a file is a test, a signature or a teaching text (its strings are samples).
pub(super) fn sample_file(f: &File<'_>) -> bool {
    f.place.test || f.place.signature
}
