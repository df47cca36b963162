//! Wallet secrets and session strings carried to a request, and wallet files dropped to a chat bot
//! or a hub (round 46m, held-out set 24).
//!
//! - `exfiltration.wallet-secret-carried`: in a JavaScript/TypeScript or Python file about wallets,
//!   a name is assigned from an expression that *packs* a wallet secret — a mnemonic, seed phrase,
//!   private or secret key named as such, put into an object, a JSON string, a concatenation or an
//!   encoding (`data = json.dumps({"mnemonic": r.mnemonic})`) — and a request call within twelve
//!   lines carries that name (`Request(url, data=data)`) to a host that is not local, a vendor, an
//!   installer or a registry. Round 42m's rule reads the secret's own name on the request's lines;
//!   this one follows the one step through a packing assignment. A value *derived* from the
//!   secret (a signature, an address, a ciphertext: [`DERIVED`]) is not a carry.
//! - `exfiltration.wallet-files-dropped`: a code file names wallet stores ([`WALLET_STORES`]:
//!   `wallet.dat`, keystores, `UTC--` files, Solana's `id.json`, wallet extensions' folders) — in
//!   itself or in a bundled data file it names — reads files, and hands files to a drop: a
//!   Telegram bot's `sendDocument`, a chat webhook with a file part, or an upload authorised by a
//!   token shipped in the file (`hf_…`, `ghp_…`). Wallet software keeps these files on the machine;
//!   a bot or a hub account of the author's is where stealers collect them.
//! - `exfiltration.session-string-sent`: a session string (`STRING_SESSION`, `SESSION_STRING`,
//!   Telegram's `API_HASH`) read from the environment is put on a request's lines to a host that
//!   is not local or a vendor. A session string logs in as the user without a password or a second
//!   factor; its client library talks to its own servers, never through a stranger's web address.
//!
//! Each gated on its necessary words over the file's lowered text; one pass over the lowered lines,
//! each request read at most [`CALL_LINES`] more lines.

use super::shapes::{found, judged, rel};
// The code-file test and the identifier reader of round 42m's wallet-request judge.
use super::wallet_request::{bare_idents, ident_byte, is_code};
use super::{Bundle, File, hosts_in};
use crate::scan::content::Finding;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Identifier endings that hold a wallet secret (lower-case; not a bare `seed`, which is mostly a
/// random generator's).
const SECRET_TAILS: &[&str] = &[
    "mnemonic",
    "seed_phrase",
    "seedphrase",
    "seedwords",
    "seed_words",
    "privatekey",
    "private_key",
    "privkey",
    "secretkey",
    "secret_key",
];
/// Words of a file about wallets (lower-case); also the carried rule's gate words.
pub(super) const WALLET_CONTEXT: &[&str] = &[
    "mnemonic",
    "seed phrase",
    "seed_phrase",
    "privatekey",
    "private_key",
    "wallet",
    "bip39",
];
/// Expressions that pack a value for sending (lower-case).
const PACK: &[&str] = &[
    "json.dumps(",
    "json.stringify(",
    "{",
    "urlencode(",
    "b64encode(",
    "btoa(",
    "f\"",
    "f'",
    "`",
    " + ",
    ".format(",
    "% (",
];
/// Expressions that derive another value from a secret (lower-case): not a carry.
const DERIVED: &[&str] = &[
    "sign",
    "derive",
    "encrypt",
    "address",
    "pubkey",
    "public",
    "hash",
    "cipher",
    "fromseed",
    "from_seed",
    "keypair",
    "account",
    "valid",
    "check",
    "len(",
    ".length",
    "mask",
    "redact",
];
/// Request calls (lower-case).
const CALLS: &[&str] = &[
    "requests.post(",
    "requests.get(",
    "requests.put(",
    "requests.request(",
    "httpx.post(",
    "httpx.get(",
    "urllib.request.request(",
    "urlopen(",
    "fetch(",
    "axios(",
    "axios.post(",
    "axios.get(",
    "https.request(",
    "http.request(",
    "$.post(",
    "$.ajax(",
];
/// Lines a request call is read for after its first.
const CALL_LINES: usize = 8;
/// Lines a packed name is carried for.
const CARRY: usize = 12;

/// Wallet stores by file or folder name (lower-case); also the dropped rule's gate words.
pub(super) const WALLET_STORES: &[&str] = &[
    "wallet.dat",
    "keystore",
    "utc--",
    "solana",
    "exodus",
    "electrum",
    ".mnemonic",
    "nkbihfbeogaeaoehlefnkodbefgpgknn",
    "bfnaelmomeimhlpmgjnjophhpkkoljpa",
];
/// File reads (lower-case).
const READS: &[&str] = &[
    "readfilesync(",
    "readfile(",
    "read_bytes(",
    "createreadstream(",
    "open(",
];
/// Drops that take a file (lower-case); also the dropped rule's gate words.
pub(super) const DROPS: &[&str] = &[
    "senddocument",
    "api/webhooks/",
    "hooks.slack.com/",
    "upload",
];
/// Words without one of which neither wallet rule can fire on a text (lower-case): the carried
/// rule's secret names, the dropped rule's drops and shipped tokens.
pub(super) const RAW: &[&str] = &[
    "mnemonic",
    "seed_phrase",
    "seedphrase",
    "privatekey",
    "private_key",
    "senddocument",
    "api/webhooks/",
    "hooks.slack.com/",
    "'hf_",
    "\"hf_",
    "'ghp_",
    "\"ghp_",
];
/// Tokens shipped in a file (lower-case prefixes as they open a string).
const SHIPPED_TOKENS: &[&str] = &["'hf_", "\"hf_", "'ghp_", "\"ghp_", "'glpat-", "\"glpat-"];
/// File parts of a multipart request (lower-case).
const FILE_PARTS: &[&str] = &["form.append(", "formdata", "files=", "multipart"];

/// Session strings by environment name (lower-case); also the session rule's gate words.
pub(super) const SESSION_NAMES: &[&str] = &[
    "string_session",
    "stringsession",
    "session_string",
    "api_hash",
];
/// Environment reads (lower-case).
const ENV_READS: &[&str] = &["environ", "getenv(", "process.env"];

/// `(name, rhs)` when the lowered line assigns a plain name.
fn assignment(l: &str) -> Option<(&str, &str)> {
    let t = l
        .strip_prefix("const ")
        .or_else(|| l.strip_prefix("let "))
        .or_else(|| l.strip_prefix("var "))
        .unwrap_or(l);
    let eq = t.find('=')?;
    let rhs = &t[eq + 1..];
    if rhs.starts_with('=') || t[..eq].ends_with(['!', '<', '>', '=']) {
        return None;
    }
    let name = t[..eq].trim();
    (!name.is_empty() && name.bytes().all(ident_byte)).then_some((name, rhs))
}

/// Whether an expression holds a wallet secret itself, not only inside a call that derives
/// another value from it ([`DERIVED`]: `sign(tx, private_key)`, `len(mnemonic)`) or a length of it
/// (`mnemonic.length`).
fn packs_secret(rhs: &str) -> bool {
    let b = rhs.as_bytes();
    // The names of the calls still open at each point, outermost first.
    let mut calls: Vec<&str> = Vec::new();
    let (mut i, mut quote, mut last) = (0, 0u8, "");
    while i < b.len() {
        let c = b[i];
        if quote != 0 {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == quote {
                quote = 0;
            } else if c == b'{' {
                // A template's or an f-string's placeholder: `${mnemonic}`, `{seed_phrase}`.
                let inner = rhs[i + 1..].split('}').next().unwrap_or("");
                let derived = DERIVED.iter().any(|d| inner.contains(d));
                if !derived && bare_idents(inner).into_iter().any(secret_named) {
                    return true;
                }
            }
            i += 1;
            continue;
        }
        match c {
            b'"' | b'\'' | b'`' => quote = c,
            b'(' => calls.push(last),
            b')' => {
                calls.pop();
            }
            _ if ident_byte(c) || c == b'.' => {
                let s = i;
                while i < b.len() && (ident_byte(b[i]) || b[i] == b'.') {
                    i += 1;
                }
                let word = &rhs[s..i];
                last = word;
                let tail = word.rsplit('.').next().unwrap_or(word);
                let own = word.split('.').any(secret_named);
                let measured = !secret_named(tail);
                if own && !measured && !calls.iter().any(|f| DERIVED.iter().any(|d| f.contains(d)))
                {
                    return true;
                }
                continue;
            }
            _ => {}
        }
        if !ident_byte(c) && c != b'.' && !c.is_ascii_whitespace() {
            last = "";
        }
        i += 1;
    }
    false
}

fn secret_named(id: &str) -> bool {
    SECRET_TAILS.iter().any(|t| id.ends_with(t)) && !id.starts_with("is_") && !id.starts_with("has")
}

fn has_call(l: &str) -> bool {
    CALLS.iter().any(|c| l.contains(c))
}

/// One past the last line of the call opened on line `i` (its parentheses closed), at most
/// [`CALL_LINES`] lines on.
fn call_end(low: &[String], i: usize) -> usize {
    let mut depth = 0i32;
    let last = (i + CALL_LINES + 1).min(low.len());
    for (k, l) in low.iter().enumerate().take(last).skip(i) {
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
    last
}

/// Whether the host is a stranger's: not local, a vendor, an installer or a registry.
fn stranger(class: HostClass) -> bool {
    class.is_outside()
}

/// The first stranger's host on lines `s..e`, or else in the whole file (the address may be a
/// constant defined above).
fn destination(file: &File<'_>, s: usize, e: usize) -> Option<String> {
    let lines = &file.lowered().lines;
    let near: Vec<_> = (s..e).flat_map(|k| hosts_in(lines[k])).collect();
    let pool = if near.is_empty() {
        hosts_in(file.content)
    } else {
        near
    };
    pool.into_iter().find(|h| stranger(h.class)).map(|h| h.host)
}

fn code_files<'b, 'a>(b: &'b Bundle<'a>) -> impl Iterator<Item = &'b File<'a>> {
    b.files
        .iter()
        .filter(|f| is_code(f.path) && !f.place.test && !f.place.signature)
}

/// The first request at or after line `from` whose lines name one of `held` (defined at most
/// [`CARRY`] lines before it): `(call line, use line, definition line)`.
fn carried(low: &[String], held: &[(&str, usize)], i: usize) -> Option<(usize, usize)> {
    let end = call_end(low, i);
    (i..end).find_map(|k| {
        bare_idents(&low[k]).into_iter().find_map(|id| {
            held.iter()
                .find(|(h, d)| *h == id && *d < i + 1 && i - *d <= CARRY)
                .map(|(_, d)| (k, *d))
        })
    })
}

pub(super) fn wallet_secret_carried(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in code_files(b) {
        let words = file.words();
        if !words.any(WALLET_CONTEXT) || !words.any(CALLS) {
            continue;
        }
        let low = &file.lowered().lower;
        let mut held: Vec<(&str, usize)> = Vec::new();
        for i in 0..low.len() {
            let l = low[i].as_str();
            if l.starts_with("//") || l.starts_with('#') {
                continue;
            }
            if let Some((name, rhs)) = assignment(l)
                && PACK.iter().any(|p| rhs.contains(p))
                && packs_secret(rhs)
            {
                held.push((name, i));
            }
            if held.is_empty() || !has_call(l) {
                continue;
            }
            let Some((k, d)) = carried(low, &held, i) else {
                continue;
            };
            let Some(host) = destination(file, i, call_end(low, i)) else {
                continue;
            };
            if judged(b, out, file, i) {
                break;
            }
            new.push(found(
                "exfiltration.wallet-secret-carried",
                "exfiltration",
                Severity::Critical,
                file,
                i,
                format!(
                    "{}:{}: a request to {host} carries `{}`, which line {} packed from a wallet's mnemonic, seed or private key. Wallet code signs on the machine and never sends the secret; whoever receives it can empty the wallet. Do not install this skill.",
                    file.path,
                    i + 1,
                    held.iter().find(|(_, x)| *x == d).map_or("", |(n, _)| n),
                    d + 1
                ),
                vec![rel("source", file, d), rel("sink", file, k)],
            ));
            break;
        }
    }
    out.extend(new);
}

/// The line of the first of `words` in the lowered lines, if any.
fn line_of(low: &[String], words: &[&str]) -> Option<usize> {
    low.iter().position(|l| words.iter().any(|w| l.contains(w)))
}

pub(super) fn wallet_files_dropped(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in code_files(b) {
        let words = file.words();
        if !words.any(DROPS) || !words.any(READS) {
            continue;
        }
        let all = file.lower_all();
        let telegram = all.contains("api.telegram.org") && all.contains("senddocument");
        let webhook_file = (all.contains("api/webhooks/") || all.contains("hooks.slack.com/"))
            && FILE_PARTS.iter().any(|p| all.contains(p));
        let hub = all.contains("upload") && SHIPPED_TOKENS.iter().any(|t| all.contains(t));
        if !(telegram || webhook_file || hub) {
            continue;
        }
        let low = &file.lowered().lower;
        // Wallet stores named here, or in a bundled data file this file names.
        let here = line_of(low, WALLET_STORES).map(|i| (file, i));
        let there = || {
            b.files.iter().find_map(|d| {
                if is_code(d.path) || std::ptr::eq(d, file) {
                    return None;
                }
                let base = d.path.rsplit('/').next().unwrap_or(d.path);
                let base = crate::ascii_lowered(base);
                if base.len() < 6 || !all.contains(base.as_ref()) {
                    return None;
                }
                line_of(&d.lowered().lower, WALLET_STORES).map(|i| (d, i))
            })
        };
        let Some((store_file, store_line)) = here.or_else(there) else {
            continue;
        };
        let sink_words: &[&str] = if telegram {
            &["senddocument"]
        } else if webhook_file {
            &["api/webhooks/", "hooks.slack.com/"]
        } else {
            &["upload"]
        };
        let Some(sink) = line_of(low, sink_words) else {
            continue;
        };
        // The read nearest before the drop (the files handed on), else the first.
        let reads = |l: &String| READS.iter().any(|w| l.contains(w));
        let Some(read) = low[..sink]
            .iter()
            .rposition(reads)
            .or_else(|| low.iter().position(reads))
        else {
            continue;
        };
        if judged(b, out, file, sink) {
            continue;
        }
        let how = if telegram {
            "a Telegram bot's sendDocument"
        } else if webhook_file {
            "a chat webhook, as a file part"
        } else {
            "an upload authorised by a token shipped in the file"
        };
        new.push(found(
            "exfiltration.wallet-files-dropped",
            "exfiltration",
            Severity::Critical,
            file,
            sink,
            format!(
                "{}:{}: wallet stores are named ({}:{}), files are read ({}:{}) and handed to {how}. Wallet software keeps these files on the machine; a bot or a hub account is where stealers collect them. Do not install this skill.",
                file.path,
                sink + 1,
                store_file.path,
                store_line + 1,
                file.path,
                read + 1
            ),
            vec![
                rel("wallet store named", store_file, store_line),
                rel("read", file, read),
            ],
        ));
    }
    out.extend(new);
}

pub(super) fn session_string_sent(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in code_files(b) {
        let words = file.words();
        if !words.any(SESSION_NAMES) || !words.any(ENV_READS) {
            continue;
        }
        let bare_requests = file.lower_all().contains("from requests import");
        let low = &file.lowered().lower;
        let mut held: Vec<(&str, usize)> = Vec::new();
        for i in 0..low.len() {
            let l = low[i].as_str();
            if let Some((name, rhs)) = assignment(l)
                && ENV_READS.iter().any(|e| rhs.contains(e))
                && SESSION_NAMES.iter().any(|s| rhs.contains(s))
            {
                held.push((name, i));
            }
            let bare = bare_requests
                && ["get(", "post("].iter().any(|c| {
                    l.match_indices(c).any(|(p, _)| {
                        p == 0 || (!ident_byte(l.as_bytes()[p - 1]) && l.as_bytes()[p - 1] != b'.')
                    })
                });
            if held.is_empty() || !(has_call(l) || bare) {
                continue;
            }
            let end = call_end(low, i);
            let used = (i..end).find_map(|k| {
                bare_idents(&low[k])
                    .into_iter()
                    .find_map(|id| held.iter().find(|(h, _)| *h == id).map(|(_, d)| (k, *d)))
            });
            let Some((k, d)) = used else {
                continue;
            };
            let Some(host) = destination(file, i, end) else {
                continue;
            };
            if judged(b, out, file, i) {
                break;
            }
            new.push(found(
                "exfiltration.session-string-sent",
                "exfiltration",
                Severity::Critical,
                file,
                i,
                format!(
                    "{}:{}: a request to {host} carries a session string read from the environment (line {}). A session string logs in as the user without a password or second factor, and its client talks only to its own servers. Do not install this skill.",
                    file.path,
                    i + 1,
                    d + 1
                ),
                vec![rel("source", file, d), rel("sink", file, k)],
            ));
            break;
        }
    }
    out.extend(new);
}
