//! Round 42c (scan42c): the agent's or an SDK's model traffic routed through a stranger's host
//! (`exfiltration.model-traffic-relay`, `critical`). Every prompt, every file the agent reads into
//! its context and the API key itself then cross that host.
//!
//! - A model-endpoint key (`ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`, `OPENAI_API_BASE`; `baseURL`,
//!   `base_url`, `api_base`, `apiBase` in a file that names a model SDK or Codex's `model_providers`) set to a
//!   suspicious host (not local, a vendor's — the model providers are vendors —, an installer's or
//!   a registry's) that is not named after the skill.
//! - A proxy key (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`) in an agent settings file's `env`
//!   block (`settings.json` / `settings.local.json`) set to such a host.
//! - An MCP server entry whose `url` is such a host, with a header within [`REACH`] lines carrying
//!   an environment secret (`${GITHUB_TOKEN}`) whose name does not name that host: the user's keys
//!   for other services handed to a stranger's server.
//!
//! Not judged: the user's own gateway on this machine (`localhost`, `*.internal`), a vendor's or
//! model provider's host, a host named after the skill, a block that tells the user how they may
//! set their own proxy (`your company`, `your organization`) or warns. One pass over each file's
//! lowered lines after a whole-file gate.

use super::{found, has, prose_blocks, rel, suspicious};
use crate::scan::content::{FileKind, Finding};
use crate::scan::judge::find::{Has, has_any};
use crate::scan::judge::foreign::{own_host, own_words};
use crate::scan::judge::{Bundle, File, Host, hosts_in};
use crate::scan::rules::Severity;

const RULE: &str = "exfiltration.model-traffic-relay";

/// Lines after an MCP server's `url` within which its headers count.
const REACH: usize = 10;

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &[
    "base_url",
    "baseurl",
    "api_base",
    // Stop 57: Continue's and other assistants' model entries (`apiBase:`).
    "apibase",
    "_proxy",
    "mcpservers",
    "apikeyhelper",
];

/// Keys that name the model endpoint whatever the file.
const MODEL_KEYS: &[&str] = &["anthropic_base_url", "openai_base_url", "openai_api_base"];
/// Keys that name an endpoint in a file about a model SDK or provider.
const SDK_KEYS: &[&str] = &["baseurl", "base_url", "api_base", "apibase"];
/// Words that make a file about a model SDK or provider.
const SDK_WORDS: &[&str] = &[
    "anthropic",
    "openai",
    "model_provider",
    "claude",
    "codex",
    "chat.completions",
    "llm",
];
/// Proxy keys, read in an agent settings file.
const PROXY_KEYS: &[&str] = &["https_proxy", "http_proxy", "all_proxy"];
/// A user told how to set their own proxy or gateway.
const OWN: &[&str] = &[
    "your company",
    "your organization",
    "your organisation",
    "your own",
    "your it",
    "your network",
    "never",
    "do not set",
    "don't set",
];

/// Model vendors' and agents' names: a description that says "Claude" or "OpenAI" names the
/// agent the skill runs in, not the skill's own service, so a host named after them is not the
/// skill's.
const BRANDS: &[&str] = &[
    "claude",
    "anthropic",
    "openai",
    "chatgpt",
    "codex",
    "gemini",
    "copilot",
    "cursor",
    "llama",
    "mistral",
    "model",
    "models",
];

/// The skill's own words ([`own_words`]) without the model vendors' and agents' names.
pub(super) fn skill_words(b: &Bundle<'_>) -> Vec<String> {
    own_words(b)
        .into_iter()
        .filter(|w| !BRANDS.contains(&w.as_str()))
        .collect()
}

/// Network sends a key helper script must not hold.
const SENDS: &[&str] = &[
    "curl ",
    "wget ",
    "invoke-webrequest",
    "invoke-restmethod",
    "requests.post",
    "requests.get",
    "fetch(",
    "urlopen(",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    key_helper(b, out);
    let mut words: Option<Vec<String>> = None;
    for f in &b.files {
        if f.place.test || f.place.signature {
            continue;
        }
        let all = f.lower_all();
        if !has_any(all, RAW) || has(out, f, RULE, Severity::Critical) {
            continue;
        }
        let words = words.get_or_insert_with(|| skill_words(b));
        if let Some(x) = relay(f, words) {
            out.push(x);
        }
    }
}

/// The suspicious host a line sets, if it is not the skill's own. A file that writes the endpoint
/// into an agent's own settings (`persists`) gets no such exemption (round 48t).
fn relay_host(line: &str, words: &[String], persists: bool) -> Option<Host> {
    hosts_in(line)
        .into_iter()
        .find(|h| h.url.has("://") && suspicious(h.class) && (persists || !own_host(h, words)))
}

/// Round 48t: the agents' own settings places (user or project level).
const AGENT_SETTINGS: &[&str] = &[
    ".claude/settings",
    ".claude\\settings",
    ".continue/config",
    ".codex/config",
    ".gemini/settings",
    ".cursor/",
    "opencode/",
    ".config/zed/",
];

/// Round 48t: whether a file writes an agent's own settings (`json.dump` into
/// `~/.claude/settings.json`, `cat > ~/.continue/config.yaml`): the endpoint it sets then carries
/// every later session of the agent and the user's key, whoever the host is named after.
fn persists(f: &File<'_>) -> bool {
    let all = f.lower_all();
    (has_any(all, AGENT_SETTINGS)
        || (all.has(".claude\"") || all.has(".claude'")) && all.has("settings.json"))
        && crate::scan::judge::agent::writes(f)
}

/// Whether line `i` of a document sits in a block that tells the user about their own setting.
fn users_own(f: &File<'_>, blocks: &[(usize, usize)], i: usize) -> bool {
    let lw = &f.lowered().lower;
    blocks
        .iter()
        .find(|(s, e)| (*s..*e).contains(&i))
        .is_some_and(|(s, e)| lw[*s..*e].iter().any(|l| has_any(l, OWN)))
        || has_any(&lw[i], OWN)
}

fn relay(f: &File<'_>, words: &[String]) -> Option<Finding> {
    let lw = f.lowered();
    let all = f.lower_all();
    let doc = f.kind != FileKind::Code;
    let blocks = if doc { prose_blocks(f) } else { Vec::new() };
    let sdk = has_any(all, SDK_WORDS);
    let path = f.path.to_ascii_lowercase();
    let settings = (path.ends_with("settings.json") || path.ends_with("settings.local.json"))
        && all.has("\"env\"");
    let mcp = all.has("mcpservers") || all.has("\"servers\"");
    let persists = persists(f);
    for (i, l) in lw.lower.iter().enumerate() {
        let key = MODEL_KEYS
            .iter()
            .find(|k| l.has(k))
            .or_else(|| {
                SDK_KEYS
                    .iter()
                    .find(|k| sdk && l.has(k) && whole_key(lw.lines[i], l, k))
            })
            .or_else(|| PROXY_KEYS.iter().find(|k| settings && l.has(k)));
        if let Some(key) = key
            && let Some(h) = relay_host(lw.lines[i], words, persists)
            && !(doc && users_own(f, &blocks, i))
        {
            return Some(found(
                RULE,
                "exfiltration",
                Severity::Critical,
                f,
                i,
                format!(
                    "{}:{}: `{key}` routes the agent's or the SDK's model traffic through {}, a host that is not the model vendor's or this machine's: every prompt, the files read into the context and the API key cross it.",
                    f.path,
                    i + 1,
                    h.host
                ),
                vec![],
            ));
        }
        if mcp
            && l.has("\"url\"")
            && let Some(h) = relay_host(lw.lines[i], words, false)
            && let Some((k, name)) = (i + 1..(i + REACH).min(lw.lower.len()))
                .find_map(|k| foreign_secret(&lw.lower[k], &h).map(|n| (k, n)))
        {
            return Some(found(
                RULE,
                "exfiltration",
                Severity::Critical,
                f,
                k,
                format!(
                    "{}:{}: an MCP server at {} (line {}) is handed `{name}` in a header: a key for another service, sent to a host its name does not name, on every tool call.",
                    f.path,
                    k + 1,
                    h.host,
                    i + 1
                ),
                vec![rel("server", f, i)],
            ));
        }
    }
    None
}

/// Whether SDK key `k` stands in lowered line `l` as a name of its own or a camel-case part of one
/// (`base_url`, `OPENAI_BASE_URL`, `apiBaseURL`), not inside another word (`DATABASE_URL`,
/// `firebase_url`) (round 46b). `orig` is the line as written, for the case of the letters.
fn whole_key(orig: &str, l: &str, k: &str) -> bool {
    let (o, lb) = (orig.as_bytes(), l.as_bytes());
    let aligned = o.len() == lb.len();
    l.match_indices(k).any(|(p, _)| {
        let Some(&before) = lb.get(p.wrapping_sub(1)).filter(|_| p > 0) else {
            return true;
        };
        if !before.is_ascii_alphanumeric() {
            return true;
        }
        aligned
            && o[p].is_ascii_uppercase()
            && (o[p - 1].is_ascii_lowercase() || o[p - 1].is_ascii_digit())
    })
}

/// An environment secret a header line carries (`${GITHUB_TOKEN}`, `$env:OPENAI_API_KEY`) whose
/// name's first part (its service) the host does not name.
fn foreign_secret(l: &str, h: &Host) -> Option<String> {
    let at = l
        .find("${")
        .map(|p| p + 2)
        .or_else(|| l.find("env:").map(|p| p + 4))?;
    let name: String = l[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if !["key", "token", "secret"].iter().any(|s| name.has(s)) {
        return None;
    }
    let service = name.split('_').next().unwrap_or("");
    let generic = [
        "api", "access", "secret", "auth", "mcp", "x", "bearer", "token", "key",
    ];
    if service.len() < 3 || generic.contains(&service) {
        return None;
    }
    let host = h.host.to_ascii_lowercase();
    (!host.has(service)).then(|| name.to_ascii_uppercase())
}

/// A key helper (`apiKeyHelper` in an agent's settings, named in any file of the bundle) whose
/// script, shipped in the bundle, also sends to a suspicious host: the helper's job is to print
/// the key, and the agent runs it whenever it needs one.
fn key_helper(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if f.place.test || !f.lower_all().has("apikeyhelper") {
            continue;
        }
        let lw = f.lowered();
        for (i, l) in lw.lower.iter().enumerate() {
            let Some(at) = l.find("apikeyhelper") else {
                continue;
            };
            let value =
                l[at + "apikeyhelper".len()..].trim_start_matches(['"', '\'', ':', '=', ' ', '`']);
            let end = value
                .find(['"', '\'', '`', ' ', ','])
                .unwrap_or(value.len());
            let Some(base) = value[..end]
                .rsplit(['/', '\\'])
                .next()
                .filter(|x| x.len() > 2)
            else {
                continue;
            };
            for g in &b.files {
                let path = g.path.to_ascii_lowercase();
                if !(path == base || path.ends_with(&format!("/{base}"))) {
                    continue;
                }
                if has(out, g, RULE, Severity::Critical) {
                    continue;
                }
                let gl = g.lowered();
                let send = gl.lower.iter().enumerate().find_map(|(k, t)| {
                    if t.starts_with('#') || !has_any(t, SENDS) {
                        return None;
                    }
                    hosts_in(gl.lines[k])
                        .into_iter()
                        .find(|h| h.url.has("://") && suspicious(h.class))
                        .map(|h| (k, h.host))
                });
                if let Some((k, host)) = send {
                    out.push(found(
                        RULE,
                        "exfiltration",
                        Severity::Critical,
                        g,
                        k,
                        format!(
                            "{}:{}: the agent's API key helper (named at {}:{}) also sends to {host}: the agent runs it whenever it needs its key, and each run ships the key there.",
                            g.path,
                            k + 1,
                            f.path,
                            i + 1
                        ),
                        vec![rel("setting", f, i)],
                    ));
                    return;
                }
            }
        }
    }
}
