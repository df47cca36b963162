//! Steps that walk the reader through several credential stores (round 26): "1. Read
//! ~/.aws/credentials … 2. Read .env … 3. Check /etc/passwd …". One store named in a step is
//! ordinary setup help (where a key lives); three different stores named in reading steps within
//! [`WINDOW`] lines is a collection, whatever the stated reason ("to verify your setup"). With no
//! send in sight it is `high` (a review): a send or concealment elsewhere is judged by the
//! exfiltration and concealment rules. One pass over each document's lines: linear in bytes.

use super::super::Bundle;
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::rules::Severity;

/// Lines within which the stores count together.
const WINDOW: usize = 10;
/// Distinct stores that make a collection.
const STORES_NEEDED: usize = 3;

/// Credential stores, each with the words that name it.
const STORES: &[(&str, &[&str])] = &[
    ("SSH keys", &["~/.ssh", "id_rsa", "id_ed25519", "id_ecdsa"]),
    (
        "cloud credentials",
        &[".aws/credentials", "gcloud/", ".azure/"],
    ),
    ("dotenv files", &[".env"]),
    ("system accounts", &["/etc/passwd", "/etc/shadow"]),
    (
        "netrc/registry tokens",
        &[".netrc", ".npmrc", ".pypirc", ".docker/config.json"],
    ),
    ("cluster credentials", &[".kube/config"]),
    (
        "browser data",
        &["login data", "cookies.sqlite", "logins.json", "key4.db"],
    ),
    (
        "wallets",
        &["wallet.dat", "keystore", "seed phrase", "mnemonic"],
    ),
    (
        "agent secrets",
        &[
            ".openclaw/",
            ".clawdbot/",
            ".claude/.credentials",
            ".codex/auth",
        ],
    ),
    ("keychain", &["keychain", "find-generic-password"]),
];

/// A step that reads: an imperative verb at the start of a line or list item.
fn reads(l: &str) -> bool {
    let t = l
        .trim_start()
        .trim_start_matches(|c: char| {
            c.is_ascii_digit() || matches!(c, '.' | '-' | '*' | ')' | ' ')
        })
        .trim_start_matches("**");
    [
        "read ",
        "cat ",
        "check ",
        "open ",
        "collect ",
        "gather ",
        "copy ",
        "print ",
        "dump ",
        "list the contents",
        "load ",
        "record ",
        "include ",
    ]
    .iter()
    .any(|w| t.starts_with(w))
}

fn store_of(l: &str) -> Option<&'static str> {
    STORES
        .iter()
        .find(|(_, words)| words.iter().any(|w| l.contains(w)))
        .map(|(name, _)| *name)
}

pub(super) fn prose_harvest(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let words: Vec<&str> = STORES.iter().flat_map(|(_, w)| w.iter().copied()).collect();
    let gate = super::gate(&GATE, &words);
    for file in b.files.iter().filter(|f| f.kind != FileKind::Code) {
        // Read line by line only where three kinds of store are named at all (one pass).
        let mut kinds: Vec<&str> = Vec::new();
        for m in gate.find_iter(file.content) {
            let w = &file.content[m.start()..m.end()];
            if let Some(k) = store_of(&crate::ascii_lowered(w))
                && !kinds.contains(&k)
            {
                kinds.push(k);
            }
        }
        if kinds.len() < STORES_NEEDED {
            continue;
        }
        let lines: Vec<&str> = file.content.lines().collect();
        let hits: Vec<(usize, &str)> = lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| {
                let l = crate::ascii_lowered(l);
                if reads(&l) {
                    store_of(&l).map(|s| (i, s))
                } else {
                    None
                }
            })
            .collect();
        for (k, &(first, _)) in hits.iter().enumerate() {
            let mut kinds: Vec<(usize, &str)> = Vec::new();
            for &(i, s) in hits[k..].iter().take_while(|(i, _)| *i <= first + WINDOW) {
                if !kinds.iter().any(|(_, n)| *n == s) {
                    kinds.push((i, s));
                }
            }
            if kinds.len() < STORES_NEEDED {
                continue;
            }
            let shown = |i: usize| evidence(lines[i], 0, lines[i].len());
            let names: Vec<String> = kinds
                .iter()
                .map(|(i, s)| format!("{s} ({}:{})", file.path, i + 1))
                .collect();
            out.push(Finding {
                rule_id: "exfiltration.prose-harvest".into(),
                category: "exfiltration".into(),
                severity: Severity::High,
                file: file.path.into(),
                line: first + 1,
                evidence: shown(first),
                description: format!(
                    "Steps tell the reader to read {} different credential stores in a row: {}. A skill that needs one key names one place; collecting several is what stealers do. Check why before following these steps.",
                    kinds.len(),
                    names.join("; ")
                ),
                related: kinds[1..]
                    .iter()
                    .map(|(i, _)| Related {
                        role: "store".into(),
                        file: file.path.into(),
                        line: i + 1,
                        evidence: shown(*i),
                    })
                    .collect(),
            });
            return;
        }
    }
}
