//! A wallet's private key or seed put in a request (round 42m, `exfiltration.wallet-key-in-request`).
//!
//! Wallet code signs on the machine and sends signed transactions or addresses; a key or a seed has
//! no reason to leave it. The stealers of held-out set 20 read the key from where the user put it
//! (a settings field, a config file's `PRIVATE_KEY`, local storage) and hand it to a request under
//! an innocent field name (`"gas": myprivatekey`) or glued to a URL decoded at run time
//! (`requests.request("GET", url + KEY)`), so no host or key word sits on the request's line.
//!
//! Facts, in one JavaScript/TypeScript or Python file (not a test) that speaks of wallets or
//! private keys ([`CONTEXT`]): the names that hold a secret — an identifier named as one ([`TAILS`]:
//! `myprivatekey`, `seed_phrase`), or a name assigned from a read whose quoted key names one
//! (`KEY = cfg["wallet"]["PRIVATE_KEY"]`, `k = os.getenv("MNEMONIC")`); and a request call
//! ([`REQUESTS`]) whose line or next [`CALL_LINES`] lines use such a name outside quotes. Judged
//! `critical` at the call, the secret's definition related. A value derived from the secret under
//! another name (`signed = acct.sign_transaction(tx, private_key)`), a request to this machine only,
//! and files without wallet words (a payment API's `secret_key`) are not judged. One pass over the
//! lowered lines; each request reads at most [`CALL_LINES`] more.

use super::find::has;
use super::shapes::{found, rel};
use super::{Bundle, hosts_in};
use crate::scan::content::Finding;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Words that make a file one about wallets or private keys (lower-case); also this rule's raw
/// words.
pub(super) const CONTEXT: &[&str] = &[
    "wallet",
    "privatekey",
    "private_key",
    "mnemonic",
    "seed phrase",
    "web3",
    "bip39",
    "keypair",
    "solana",
    "ethers",
];

/// Endings of an identifier that holds a wallet secret (lower-case).
const TAILS: &[&str] = &[
    "privatekey",
    "private_key",
    "privkey",
    "priv_key",
    "mnemonic",
    "seedphrase",
    "seed_phrase",
    "seed",
    "secretkey",
    "secret_key",
];

/// Request calls (lower-case).
const REQUESTS: &[&str] = &[
    "$.ajax(",
    "$.post(",
    "$.get(",
    "jquery.ajax(",
    "requests.request(",
    "requests.get(",
    "requests.post(",
    "requests.put(",
    "httpx.get(",
    "httpx.post(",
    "fetch(",
    "axios(",
    "axios.get(",
    "axios.post(",
    "urlopen(",
    "https.request(",
    "http.request(",
];

/// Lines after a request call that still belong to it (its options object).
const CALL_LINES: usize = 8;

pub(super) fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [".js", ".mjs", ".cjs", ".ts", ".jsx", ".tsx", ".py"]
        .iter()
        .any(|e| p.ends_with(e))
}

pub(super) fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// The identifiers of `l` outside quoted strings.
pub(super) fn bare_idents(l: &str) -> Vec<&str> {
    let b = l.as_bytes();
    let (mut out, mut i, mut quote) = (Vec::new(), 0, 0u8);
    while i < b.len() {
        let c = b[i];
        if quote != 0 {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == quote {
                quote = 0;
            }
            i += 1;
            continue;
        }
        if c == b'"' || c == b'\'' || c == b'`' {
            quote = c;
            i += 1;
            continue;
        }
        if ident_byte(c) {
            let s = i;
            while i < b.len() && ident_byte(b[i]) {
                i += 1;
            }
            out.push(&l[s..i]);
            continue;
        }
        i += 1;
    }
    out
}

/// One past the last line of the request call opened on line `i`: where its parentheses close,
/// at most [`CALL_LINES`] lines on.
fn call_end(lower: &[String], i: usize, n: usize) -> usize {
    let start = REQUESTS
        .iter()
        .filter_map(|w| lower[i].find(w))
        .min()
        .unwrap_or(0);
    let mut depth = 0i32;
    for k in i..(i + CALL_LINES + 1).min(n) {
        let l = if k == i {
            &lower[i][start..]
        } else {
            lower[k].as_str()
        };
        for c in l.bytes() {
            match c {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 {
            return k + 1;
        }
    }
    (i + CALL_LINES + 1).min(n)
}

fn secret_named(ident: &str) -> bool {
    TAILS.iter().any(|t| ident.ends_with(t))
        && !ident.starts_with("is_")
        && !ident.starts_with("has")
}

/// `name` when the lowered line assigns it from a read whose quoted key names a wallet secret.
fn assigned_secret(l: &str) -> Option<&str> {
    let t = l
        .strip_prefix("const ")
        .or_else(|| l.strip_prefix("let "))
        .or_else(|| l.strip_prefix("var "))
        .unwrap_or(l);
    let eq = t.find('=')?;
    if t[eq + 1..].starts_with('=') {
        return None;
    }
    let name = t[..eq].trim();
    if name.is_empty() || !name.bytes().all(ident_byte) {
        return None;
    }
    let rhs = &t[eq + 1..];
    let quoted = TAILS.iter().filter(|w| **w != "seed").any(|w| {
        rhs.match_indices(w)
            .any(|(p, _)| matches!(rhs.as_bytes().get(p + w.len()), Some(b'"' | b'\'')))
    });
    quoted.then_some(name)
}

pub(super) fn wallet_key_in_request(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| is_code(f.path) && !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        if !CONTEXT.iter().any(|w| has(all, w)) || !REQUESTS.iter().any(|w| has(all, w)) {
            continue;
        }
        let lw = file.lowered();
        let n = lw.lower.len();
        // Names assigned from a secret read, with their line.
        let mut held: Vec<(&str, usize)> = Vec::new();
        let mut hit = None;
        for i in 0..n {
            let l = lw.lower[i].as_str();
            if l.starts_with("//") || l.starts_with('#') {
                continue;
            }
            if let Some(name) = assigned_secret(l) {
                held.push((name, i));
            }
            if !REQUESTS.iter().any(|w| has(l, w)) {
                continue;
            }
            let end = call_end(&lw.lower, i, n);
            let hosts: Vec<_> = (i..end).flat_map(|k| hosts_in(lw.lines[k])).collect();
            if !hosts.is_empty() && hosts.iter().all(|h| h.class == HostClass::Local) {
                continue;
            }
            let used = (i..end).find_map(|k| {
                if k > i && REQUESTS.iter().any(|w| has(&lw.lower[k], w)) {
                    return None;
                }
                bare_idents(&lw.lower[k]).into_iter().find_map(|id| {
                    if secret_named(id) {
                        let def = (0..k).find(|&d| bare_idents(&lw.lower[d]).contains(&id));
                        Some((k, def.unwrap_or(k)))
                    } else {
                        held.iter().find(|(h, _)| *h == id).map(|(_, d)| (k, *d))
                    }
                })
            });
            if let Some((k, d)) = used {
                hit = Some((i, k, d));
                break;
            }
        }
        let Some((i, k, d)) = hit else {
            continue;
        };
        out.push(found(
            "exfiltration.wallet-key-in-request",
            "exfiltration",
            Severity::Critical,
            file,
            i,
            format!(
                "{}:{}: a request carries a wallet's private key or seed (line {}, held since line {}). Wallet code signs on the machine and never sends the key; whoever receives it can empty the wallet. Do not install this skill.",
                file.path,
                i + 1,
                k + 1,
                d + 1
            ),
            vec![rel("source", file, d), rel("sink", file, k)],
        ));
    }
}
