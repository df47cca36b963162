//! A wallet's secret handed to a request (round 40m, `exfiltration.wallet-secret-sent`).
//!
//! A wallet library derives keys from a seed, a mnemonic or a secret key and signs with them on
//! the machine; what it sends is a signed transaction or an address, never the secret. A stealer
//! planted in such a library adds one call where the secret enters (`fromMnemonic(words)`,
//! `fromSecretKey(bytes)`, `checkSeed(seed)`) to a small function of its own that puts the value in
//! a request — in a header, a body or a queue flushed later by a timer.
//!
//! Facts, in one JavaScript/TypeScript or Python file that speaks of wallets or keys ([`CONTEXT`]):
//! the functions it defines (`function f(…)`, `static f(…) {`, `f(…) {`, `const f = (…) =>`,
//! `def f(…):`), each body read to its closing brace or dedent within [`BODY`] lines. A function
//! *sends* when its body makes a request ([`SENDS`]) or names another function of the file that
//! does (one step: `setTimeout(flush, …)`). Judged `critical` when
//!
//! - a function whose name says it takes a secret (`frommnemonic`, `fromseed`, `fromsecretkey`,
//!   `fromprivatekey`) or whose parameter is named as one ([`SECRET_NAMES`]) passes that parameter
//!   to a sending function of the file, or
//! - a function with such a parameter puts it on its own request's lines (the call and the next
//!   [`CALL_LINES`] lines).
//!
//! Not judged: a request whose only destinations are this machine; a value derived from the secret
//! under another name (a signed transaction, an address, a ciphertext); a file without wallet or
//! key words (a game's random `seed`); test files. One pass over the lowered lines and one over the
//! functions found: linear in bytes.

use super::{Bundle, hosts_in};
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Lines a function body is read for at most.
const BODY: usize = 60;

/// Lines after a request call that still belong to it (its options object).
const CALL_LINES: usize = 3;

/// Words that make a file one about wallets or keys (lower-case).
const CONTEXT: &[&str] = &[
    "wallet",
    "mnemonic",
    "keypair",
    "bip39",
    "privatekey",
    "private_key",
    "secretkey",
    "secret_key",
    "seed phrase",
    // Round 41m: an Electrum-style wallet speaks of its keystore.
    "keystore",
];

/// Names a secret of a wallet goes by (an identifier equal to one, or ending in one).
const SECRET_NAMES: &[&str] = &[
    "seed",
    "mnemonic",
    "secretkey",
    "secret_key",
    "privatekey",
    "private_key",
    "seedphrase",
    "seed_phrase",
];

/// Function names that say the function takes a secret (lower-case, `from` + what).
const SECRET_ENTRIES: &[&str] = &[
    "frommnemonic",
    "from_mnemonic",
    "fromseed",
    "from_seed",
    "fromsecretkey",
    "from_secret_key",
    "fromprivatekey",
    "from_private_key",
];

/// Calls that make a request (lower-case).
pub(super) const SENDS: &[&str] = &[
    "fetch(",
    "https.request(",
    "https.get(",
    "http.request(",
    "http.get(",
    "axios(",
    "axios.post(",
    "axios.get(",
    "requests.post(",
    "requests.get(",
    "httpx.post(",
    "urlopen(",
    "sendbeacon(",
    "xmlhttprequest",
];

struct Func {
    name: String,
    params: Vec<String>,
    /// Header line index.
    at: usize,
    /// Last body line index (inclusive).
    end: usize,
    /// The line of its own request, if any.
    send: Option<usize>,
}

fn idents(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
}

fn secret_named(ident: &str) -> bool {
    SECRET_NAMES.iter().any(|n| ident.ends_with(n))
}

/// A function header on a lowered line: its name and parameter text.
fn header(l: &str) -> Option<(String, String)> {
    let l = l
        .trim_start_matches("export ")
        .trim_start_matches("async ")
        .trim_start_matches("static ")
        .trim_start_matches("async ");
    let (name, rest) = if let Some(r) = l.strip_prefix("function ") {
        let r = r.trim_start_matches('*').trim_start();
        let p = r.find('(')?;
        (r[..p].trim().to_string(), &r[p..])
    } else if let Some(r) = l.strip_prefix("def ") {
        let p = r.find('(')?;
        (r[..p].trim().to_string(), &r[p..])
    } else if let Some(r) = l
        .strip_prefix("const ")
        .or_else(|| l.strip_prefix("let "))
        .or_else(|| l.strip_prefix("var "))
    {
        let (n, v) = r.split_once('=')?;
        let v = v.trim_start().trim_start_matches("async ").trim_start();
        let v = v.strip_prefix("function").unwrap_or(v).trim_start();
        if !v.starts_with('(') || !(v.contains("=>") || r.contains("function")) {
            return None;
        }
        (n.trim().to_string(), v)
    } else {
        // A method: `name(params) {`.
        let p = l.find('(')?;
        let n = &l[..p];
        if n.is_empty()
            || !n
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
            || matches!(
                n,
                "if" | "for"
                    | "while"
                    | "switch"
                    | "catch"
                    | "return"
                    | "function"
                    | "settimeout"
                    | "setinterval"
                    | "setimmediate"
                    | "describe"
                    | "it"
                    | "test"
            )
            || !l.trim_end().ends_with('{') && !l.contains(") {")
        {
            return None;
        }
        (n.to_string(), &l[p..])
    };
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    {
        return None;
    }
    let close = rest.find(')')?;
    Some((name, rest[1..close].to_string()))
}

fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [".js", ".mjs", ".cjs", ".ts", ".py"]
        .iter()
        .any(|e| p.ends_with(e))
}

/// The functions a file defines, with their bodies' extent and own request line.
fn functions(lines: &[&str], lower: &[String], python: bool) -> Vec<Func> {
    let mut out = Vec::new();
    for (i, l) in lower.iter().enumerate() {
        let Some((name, params)) = header(l) else {
            continue;
        };
        let params: Vec<String> = idents(&params)
            .filter(|p| !matches!(*p, "self" | "this" | "cls"))
            .map(str::to_string)
            .collect();
        let last = (i + BODY).min(lower.len().saturating_sub(1));
        let end = if python {
            let indent = lines[i].len() - lines[i].trim_start().len();
            (i + 1..=last)
                .find(|&k| {
                    !lines[k].trim().is_empty()
                        && lines[k].len() - lines[k].trim_start().len() <= indent
                })
                .map_or(last, |k| k.saturating_sub(1).max(i))
        } else {
            let mut depth = 0i32;
            let mut opened = false;
            let mut end = last;
            for (k, lk) in lines.iter().enumerate().take(last + 1).skip(i) {
                for c in lk.chars() {
                    match c {
                        '{' => {
                            depth += 1;
                            opened = true;
                        }
                        '}' => depth -= 1,
                        _ => {}
                    }
                }
                if opened && depth <= 0 {
                    end = k;
                    break;
                }
            }
            end
        };
        let send = (i..=end).find(|&k| SENDS.iter().any(|s| lower[k].contains(s)));
        out.push(Func {
            name,
            params,
            at: i,
            end,
            send,
        });
    }
    out
}

/// Whether a request's lines name only this machine.
fn local_only(lines: &[&str], at: usize) -> bool {
    let hosts: Vec<_> = (at..(at + CALL_LINES + 1).min(lines.len()))
        .flat_map(|k| hosts_in(lines[k]))
        .collect();
    !hosts.is_empty() && hosts.iter().all(|h| h.class == HostClass::Local)
}

pub(super) fn wallet_secret_sent(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b.files.iter().filter(|f| is_code(f.path) && !f.place.test) {
        let all = file.lower_all();
        if !CONTEXT.iter().any(|w| all.contains(w)) || !SENDS.iter().any(|w| all.contains(w)) {
            continue;
        }
        let lw = file.lowered();
        let python = file.path.to_ascii_lowercase().ends_with(".py");
        let funcs = functions(&lw.lines, &lw.lower, python);
        // A function sends by its own request, or by naming one that does (one step).
        let direct: Vec<Option<usize>> = funcs
            .iter()
            .map(|f| f.send.filter(|&s| !local_only(&lw.lines, s)))
            .collect();
        let sends: Vec<Option<usize>> = funcs
            .iter()
            .enumerate()
            .map(|(k, f)| {
                direct[k].or_else(|| {
                    funcs.iter().enumerate().find_map(|(j, g)| {
                        (j != k
                            && direct[j].is_some()
                            && (f.at + 1..=f.end).any(|i| {
                                idents(&lw.lower[i]).any(|w| w == g.name)
                                    && !lw.lower[i].contains(&format!("function {}", g.name))
                            }))
                        .then_some(direct[j])
                        .flatten()
                    })
                })
            })
            .collect();
        let mut hit: Option<(usize, usize, String)> = None; // (line, send line, secret)
        'funcs: for (fi, f) in funcs.iter().enumerate() {
            let entry = SECRET_ENTRIES.iter().any(|e| f.name.contains(e));
            let secrets: Vec<&String> = f
                .params
                .iter()
                .filter(|p| entry || secret_named(p))
                .collect();
            if secrets.is_empty() {
                continue;
            }
            // Its own request carries the secret.
            if let Some(s) = direct[fi] {
                let call_end = (s + CALL_LINES).min(f.end);
                if let Some(p) = secrets
                    .iter()
                    .find(|p| (s..=call_end).any(|k| idents(&lw.lower[k]).any(|w| w == p.as_str())))
                {
                    hit = Some((s, s, (*p).clone()));
                    break 'funcs;
                }
            }
            // The secret passed to a function of the file that sends.
            for i in f.at..=f.end {
                let l = &lw.lower[i];
                for (j, g) in funcs.iter().enumerate() {
                    if g.at == f.at || g.name.len() < 3 {
                        continue;
                    }
                    let Some(s) = sends[j] else { continue };
                    let call = format!("{}(", g.name);
                    let Some(p) = l.find(&call) else { continue };
                    if p > 0 && {
                        let c = l.as_bytes()[p - 1];
                        c.is_ascii_alphanumeric() || c == b'_'
                    } {
                        continue;
                    }
                    let args = &l[p + call.len()..];
                    let args = &args[..args.find(')').unwrap_or(args.len())];
                    if let Some(sec) = secrets
                        .iter()
                        .find(|sec| idents(args).any(|w| w == sec.as_str()))
                    {
                        hit = Some((i, s, (*sec).clone()));
                        break 'funcs;
                    }
                }
            }
        }
        let Some((line, send, secret)) = hit else {
            continue;
        };
        let raw = lw.lines[line].trim();
        let sent = lw.lines[send].trim();
        let to = (send..(send + CALL_LINES + 1).min(lw.lines.len()))
            .flat_map(|k| hosts_in(lw.lines[k]))
            .next()
            .map_or("an address the file computes".to_string(), |h| {
                format!("{} ({})", h.host, h.class.phrase())
            });
        out.push(Finding {
            rule_id: "exfiltration.wallet-secret-sent".into(),
            category: "exfiltration".into(),
            severity: Severity::Critical,
            file: file.path.into(),
            line: line + 1,
            evidence: evidence(raw, 0, raw.len()),
            description: format!(
                "{}:{} hands the wallet secret `{secret}` to a request (line {}: `{}`) that goes to {to}. A wallet derives and signs on this machine; it never sends a seed, a mnemonic or a secret key anywhere. Whoever receives it owns the funds: do not install this skill.",
                file.path,
                line + 1,
                send + 1,
                sent.chars().take(80).collect::<String>(),
            ),
            related: vec![Related {
                role: "request".into(),
                file: file.path.into(),
                line: send + 1,
                evidence: evidence(sent, 0, sent.len()),
            }],
        });
    }
}
