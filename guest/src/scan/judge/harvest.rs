//! Secrets of several kinds collected from the home folder and posted out (round 39m,
//! `exfiltration.secret-harvest`).
//!
//! A stealer does not read one known file: it looks through the user's home for whatever holds
//! credentials — SSH private keys, wallet and keystore files, the browser's saved logins, the
//! keychain, and (round 40m) package-registry and developer-tool token files — reads what it finds
//! and posts the lot. A tool with a real job touches one store (a
//! wallet skill reads its keypair to sign; an SSH helper checks one key's mode), and a folder
//! backup names no secret stores at all.
//!
//! Facts, in one JavaScript/TypeScript or Python file: the home folder named (`homedir()`,
//! `expanduser('~')`, `Path.home()`); names of at least two different kinds of secret store
//! ([`KINDS`]); a file read (`readFileSync`, `createReadStream`, `open(`, `read_text(`); and, within
//! [`REACH`] lines after the first of these, a call that posts or uploads ([`POSTS`]) — unless the
//! only destinations on that call's lines are this machine or a host named after the skill. Judged
//! `critical`, the post as evidence and the store names related. One pass over the lowered lines.

use super::{Bundle, host_named_after, hosts_in};
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Lines after the first fact within which the post may stand.
const REACH: usize = 80;

/// Kinds of secret store, each with the names that mark it (lower-case).
const KINDS: &[(&str, &[&str])] = &[
    ("SSH private keys", &["id_rsa", "id_ed25519", "id_ecdsa"]),
    (
        "wallet or keystore files",
        &[
            "wallet",
            "keystore",
            "solana/id.json",
            "'id.json'",
            "mnemonic",
        ],
    ),
    ("the browser's saved logins", &["login data", "logins.json"]),
    ("the keychain", &["keychain"]),
    (
        "cloud credentials",
        &[
            ".aws/credentials",
            "gcloud/credentials",
            "application_default_credentials",
            ".azure/accesstokens",
        ],
    ),
    // Round 40m: the plain-text token stores of package registries and developer tools.
    (
        "package-registry tokens",
        &[
            ".npmrc",
            ".pypirc",
            ".gem/credentials",
            ".cargo/credentials",
        ],
    ),
    (
        "developer tool tokens",
        &[
            "gh/hosts.yml",
            ".git-credentials",
            ".docker/config.json",
            ".kube/config",
        ],
    ),
];

const HOME: &[&str] = &[
    "homedir()",
    "expanduser('~')",
    "expanduser(\"~\")",
    "path.home()",
    "os.environ['home']",
    "os.environ[\"home\"]",
    "process.env.home",
];

const READS: &[&str] = &[
    "readfilesync(",
    "readfile(",
    "createreadstream(",
    "open(",
    "read_text(",
    "read_bytes(",
];

/// Calls that post or upload (lower-case).
pub(super) const POSTS: &[&str] = &[
    "requests.post(",
    "httpx.post(",
    "axios.post(",
    "request.post(",
    "method: 'post'",
    "method: \"post\"",
    "method:'post'",
    "method='post'",
    "method=\"post\"",
    "/sendmessage",
    "formdata",
    "urlopen(",
];

/// Whether the hosts written from `before` lines above line `i` to three lines below it include
/// this machine or a host named after the skill (`words`): a post there stays with the user.
pub(super) fn stays_here(lines: &[&str], i: usize, before: usize, words: &[String]) -> bool {
    (i.saturating_sub(before)..(i + 4).min(lines.len()))
        .flat_map(|k| hosts_in(lines[k]))
        .any(|h| h.class == HostClass::Local || host_named_after(&h.host, words))
}

fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [".js", ".mjs", ".cjs", ".ts", ".py"]
        .iter()
        .any(|e| p.ends_with(e))
}

pub(super) fn secret_harvest(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = b.name_words();
    for file in b.files.iter().filter(|f| is_code(f.path)) {
        let lw = file.lowered();
        let mut home = None;
        let mut read = None;
        let mut kinds: Vec<(usize, usize)> = Vec::new(); // (kind, line)
        for (i, l) in lw.lower.iter().enumerate() {
            if l.starts_with('#') || l.starts_with("//") {
                continue;
            }
            if home.is_none() && HOME.iter().any(|w| l.contains(w)) {
                home = Some(i);
            }
            if read.is_none() && READS.iter().any(|w| l.contains(w)) {
                read = Some(i);
            }
            for (k, (_, names)) in KINDS.iter().enumerate() {
                if !kinds.iter().any(|(kk, _)| *kk == k) && names.iter().any(|n| l.contains(n)) {
                    kinds.push((k, i));
                }
            }
        }
        let (Some(home), Some(read)) = (home, read) else {
            continue;
        };
        if kinds.len() < 2 {
            continue;
        }
        let first = kinds
            .iter()
            .map(|(_, i)| *i)
            .chain([home, read])
            .min()
            .unwrap_or(0);
        let end = (first + REACH).min(lw.lines.len());
        let post = (first..end).find(|&i| {
            let l = &lw.lower[i];
            if !POSTS.iter().any(|p| l.contains(p)) {
                return false;
            }
            !stays_here(&lw.lines, i, 2, &words)
        });
        let Some(i) = post else {
            continue;
        };
        let raw = lw.lines[i].trim();
        let names: Vec<&str> = kinds.iter().map(|(k, _)| KINDS[*k].0).collect();
        out.push(Finding {
            rule_id: "exfiltration.secret-harvest".into(),
            category: "exfiltration".into(),
            severity: Severity::Critical,
            file: file.path.into(),
            line: i + 1,
            evidence: evidence(raw, 0, raw.len()),
            description: format!(
                "{}:{}: the file looks through the home folder for {} and reads them, then posts (`{}`): a credential stealer's harvest. A tool with a real job touches one store, not several. Do not install this skill.",
                file.path,
                i + 1,
                names.join(" and "),
                raw.chars().take(80).collect::<String>(),
            ),
            related: kinds
                .iter()
                .map(|(_, l)| {
                    let t = lw.lines[*l].trim();
                    Related {
                        role: "secret store named".into(),
                        file: file.path.into(),
                        line: l + 1,
                        evidence: evidence(t, 0, t.len()),
                    }
                })
                .collect(),
        });
    }
}
