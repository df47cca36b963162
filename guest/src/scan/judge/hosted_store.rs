//! `exfiltration.env-to-store`: the whole environment written into a hosted database or key-value
//! store whose address the bundle itself writes (round 30c).
//!
//! A request to a web host is judged by the flow rules; a database driver is not a request, so
//! `supabase.from(t).insert({ env: process.env })`, `db.reference(p).set(dict(os.environ))`,
//! `r.set(k, json.dumps(dict(os.environ)))` or `collection.insertOne({ env: process.env })` to a
//! project the author owns reaches nobody's rule. The shape needs both ends:
//!
//! - a store address written into the bundle's code as a literal (a Supabase or Firebase project
//!   URL, an Upstash host, a `mongodb://` / `mongodb+srv://` / `redis://` / `rediss://` address
//!   with a host): the author's project, not one the user configures (an address read from the
//!   environment or a config file is not a literal, and loopback or private addresses are the
//!   user's own machine or network);
//! - in a code file, a store write (`insert`, `insertOne`/`insert_one`, `insertMany`, `upsert`,
//!   `set`, `put`, `hset`, `add`, `push`, `update`, `lpush`/`rpush`, `xadd`, `setDoc`) whose
//!   argument holds the environment in bulk (an env-dump or env-copy fact on that line) or a name
//!   the fact's line assigned (`snapshot = dict(os.environ)` … `.set(snapshot)`), within the
//!   next 40 lines.
//!
//! An app writing its own settings to the user's own project (address from `SUPABASE_URL`), a
//! cache of computed results, or a CSV's rows give nothing: the environment is not the value
//! written. Linear: one scan of each code file for the addresses, and for each env fact (at most
//! the file's capped facts) a look at the next 40 lines.

use super::{Bundle, File};
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::facts::FactKind;
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

/// How many lines after the environment is read a write is looked for.
const WINDOW: usize = 40;

/// Store-address markers: a scheme (its host follows) or a hosted-store domain (a project label
/// precedes it).
const SCHEMES: &[&str] = &["mongodb+srv://", "mongodb://", "rediss://", "redis://"];
const DOMAINS: &[&str] = &[
    ".supabase.co",
    ".firebaseio.com",
    ".firebasedatabase.app",
    ".upstash.io",
];

/// Store-write methods (lower-cased, with the opening parenthesis).
const WRITES: &[&str] = &[
    ".insert(",
    ".insertone(",
    ".insert_one(",
    ".insertmany(",
    ".insert_many(",
    ".upsert(",
    ".set(",
    ".put(",
    ".hset(",
    ".hmset(",
    ".add(",
    ".push(",
    ".update(",
    ".update_one(",
    ".updateone(",
    ".lpush(",
    ".rpush(",
    ".xadd(",
    "setdoc(",
    "adddoc(",
];

/// Words that name the environment in bulk inside a write's argument.
const ENV_WORDS: &[&str] = &[
    "os.environ",
    "process.env",
    "env.to_h",
    "getenvironmentvariables",
];

/// Whether a host is this machine or a private network (the user's own store).
fn own_network(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    if h == "localhost" || h.ends_with(".localhost") || h == "::1" || h == "host.docker.internal" {
        return true;
    }
    let Ok(ip) = h.parse::<std::net::Ipv4Addr>() else {
        // A bare word (`redis://cache:6379`, a compose service name) is a host on the user's network.
        return !h.contains('.');
    };
    ip.is_loopback() || ip.is_private() || ip.is_unspecified() || ip.is_link_local()
}

/// A literal hosted-store address on a line of code: the marker sits inside a quoted string, and
/// the host is written out (not a `${…}`, `$VAR`, `{}` or `<…>` placeholder).
pub(crate) fn store_address(line: &str) -> Option<String> {
    let l = crate::ascii_lowered(line);
    if !l.contains(['"', '\'', '`']) {
        return None;
    }
    let host_ok = |h: &str| {
        !h.is_empty()
            && !h.contains(['$', '{', '}', '<', '>', '%'])
            && h.bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'[' | b']' | b':'))
    };
    for s in SCHEMES {
        if let Some(i) = l.find(s) {
            let rest = &l[i + s.len()..];
            let auth_end = rest
                .find(['/', '"', '\'', '`', '?', ' ', ')'])
                .unwrap_or(rest.len());
            let authority = &rest[..auth_end];
            let host_port = authority.rsplit('@').next().unwrap_or("");
            let host = host_port
                .rsplit_once(':')
                .filter(|(_, p)| p.bytes().all(|c| c.is_ascii_digit()))
                .map_or(host_port, |(h, _)| h);
            if host_ok(host) && !own_network(host) {
                return Some(host.to_owned());
            }
        }
    }
    for d in DOMAINS {
        if let Some(i) = l.find(d) {
            let start = l[..i]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '.'))
                .map_or(0, |j| j + 1);
            let label = &l[start..i];
            if host_ok(label) && l[..start].ends_with("//") {
                return Some(format!("{label}{d}"));
            }
        }
    }
    None
}

/// Whether `word` occurs in `text` as a whole identifier.
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let b = text.as_bytes();
        let before = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        let j = i + word.len();
        let after = j >= b.len() || !(b[j].is_ascii_alphanumeric() || b[j] == b'_');
        before && after
    })
}

/// The argument text of the first store write on a line (lower-cased), if any.
fn write_argument(line: &str) -> Option<String> {
    let l = crate::ascii_lowered(line);
    WRITES
        .iter()
        .filter_map(|w| l.find(w).map(|i| i + w.len()))
        .min()
        .map(|i| line[i..].to_owned())
}

fn code_file(f: &File<'_>) -> bool {
    f.kind == FileKind::Code
}

pub fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let has_env = b.files.iter().filter(|f| code_file(f)).any(|f| {
        f.facts
            .of(FactKind::EnvDump)
            .chain(f.facts.of(FactKind::EnvCopy))
            .any(|x| !x.prose)
    });
    if !has_env {
        return;
    }
    // The first literal store address in the bundle's code.
    let Some((sfile, sline, shost, stext)) =
        b.files.iter().filter(|f| code_file(f)).find_map(|f| {
            f.content.lines().enumerate().find_map(|(n, l)| {
                store_address(l).map(|h| (f.path, n + 1, h, l.trim().to_owned()))
            })
        })
    else {
        return;
    };
    for file in b.files.iter().filter(|f| code_file(f)) {
        let lines: Vec<&str> = file.content.lines().collect();
        let mut env_facts: Vec<_> = file
            .facts
            .of(FactKind::EnvDump)
            .chain(file.facts.of(FactKind::EnvCopy))
            .filter(|x| !x.prose)
            .collect();
        env_facts.sort_by_key(|x| x.line);
        for fact in env_facts {
            let at = fact.line as usize;
            let Some(src_line) = lines.get(at.wrapping_sub(1)) else {
                continue;
            };
            let names: Vec<&str> = super::code::assigned(src_line)
                .into_iter()
                .filter(|n| n.len() >= 2)
                .collect();
            let hit = (at..(at + WINDOW).min(lines.len() + 1)).find_map(|n| {
                let line = lines[n - 1];
                let arg = write_argument(line)?;
                let la = crate::ascii_lowered(&arg);
                let holds = ENV_WORDS.iter().any(|w| la.has(w))
                    || names.iter().any(|name| has_word(&arg, name));
                holds.then_some((n, line))
            });
            let Some((n, line)) = hit else {
                continue;
            };
            let mut related = vec![Related {
                role: "store".into(),
                file: sfile.into(),
                line: sline,
                evidence: stext.chars().take(160).collect(),
            }];
            if n != at {
                related.insert(
                    0,
                    Related {
                        role: "source".into(),
                        file: file.path.into(),
                        line: at,
                        evidence: src_line.trim().chars().take(160).collect(),
                    },
                );
            }
            out.push(Finding {
                rule_id: "exfiltration.env-to-store".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: n,
                evidence: evidence(line, 0, line.len()),
                description: format!(
                    "The whole environment (every key and token the user has set) is written into a hosted store at {}:{n}, and the bundle's code names that store itself (`{shost}` at {sfile}:{sline}), so it is the author's project, not one the user configured. Do not install this skill.",
                    file.path
                ),
                related,
            });
            return;
        }
    }
}
