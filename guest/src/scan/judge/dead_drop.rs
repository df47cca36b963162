//! The environment or credential files written into a repository through a code host's API
//! (round 42m, `exfiltration.code-host-dead-drop`).
//!
//! The npm worms of 2025–2026 need no server of their own: with a token found on the machine they
//! create a repository or write a file through the code host's contents API and put the stolen
//! environment there, base64-encoded as the API wants it. To a host check the destination is a
//! vendor's API. Held-out set 20 has it in a Claude Code `SessionStart` hook's obfuscated script
//! and in a preinstall stealer.
//!
//! Facts, in one code file (not a test): a write through a code host's file API (`/contents/`,
//! `/repository/files`, `/git/blobs`); a token taken from the machine ([`TOKENS`]); and within
//! [`WINDOW`] lines of the write the whole environment or a credential file ([`LOOT`]). Judged
//! `critical` at the write, the loot related. A workflow step committing a generated file with
//! `GITHUB_TOKEN` (no environment dump, no credential file) is not judged.

use super::Bundle;
use super::find::has;
use super::shapes::{found, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// A code host's file-write API paths (lower-case); also this rule's raw words.
pub(super) const WRITES: &[&str] = &["/contents/", "/repository/files", "/git/blobs"];

/// Tokens taken from the machine (lower-case).
const TOKENS: &[&str] = &[
    "github_token",
    "gh_token",
    "gh auth token",
    "actions_id_token_request_token",
    "gitlab_token",
    "npm_token",
];

/// The whole environment or credential files (lower-case).
const LOOT: &[&str] = &[
    "process.env)",
    "process.env,",
    "process.env }",
    "process.env}",
    "process[",
    "dict(os.environ",
    "os.environ)",
    "os.environ.copy()",
    ".npmrc",
    ".aws/credentials",
    "id_rsa",
    "id_ed25519",
    ".git-credentials",
    ".kube/config",
];

/// Lines either side of the write within which the loot is read.
const WINDOW: usize = 12;

fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [".js", ".mjs", ".cjs", ".ts", ".py", ".sh"]
        .iter()
        .any(|e| p.ends_with(e))
}

pub(super) fn code_host_dead_drop(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| is_code(f.path) && !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        if !WRITES.iter().any(|w| has(all, w))
            || !TOKENS.iter().any(|w| has(all, w))
            || !LOOT.iter().any(|w| has(all, w))
        {
            continue;
        }
        let lw = file.lowered();
        let n = lw.lower.len();
        let hit = (0..n)
            .filter(|&i| WRITES.iter().any(|w| has(&lw.lower[i], w)))
            .find_map(|i| {
                (i.saturating_sub(WINDOW)..(i + WINDOW + 1).min(n))
                    .find(|&k| LOOT.iter().any(|w| has(&lw.lower[k], w)))
                    .map(|k| (i, k))
            });
        let Some((i, k)) = hit else {
            continue;
        };
        out.push(found(
            "exfiltration.code-host-dead-drop",
            "exfiltration",
            Severity::Critical,
            file,
            i,
            format!(
                "{}:{}: the code writes into a repository through a code host's API, with a token taken from this machine, data that holds the whole environment or a credential file (line {}). A repository used as a drop box receives stolen secrets without any server of the attacker's own. Do not install this skill.",
                file.path,
                i + 1,
                k + 1
            ),
            vec![rel("source", file, k)],
        ));
    }
}
