//! Tokens scraped out of the user's application data and posted (round 40m,
//! `exfiltration.token-scrape`).
//!
//! A token grabber does not know where a chat client or a CLI keeps its session: it reads the
//! files of the user's application-data or home folders and runs a pattern shaped like the token
//! over them (a Discord token's three dotted parts, `gh[op]_…`, `npm_…`, `xox[bp]-…`, `AKIA…`), then
//! posts what matched. A secret scanner runs the same patterns over a project and prints what it
//! found; it does not read the home folder's stores and send the matches away.
//!
//! Facts, in one JavaScript/TypeScript, Python or PowerShell file: a token-shaped pattern
//! ([`SHAPES`]); the user's application-data or home folder named ([`PLACES`]); a file read
//! ([`READS`]); and a post or upload ([`super::harvest::POSTS`], a chat service's webhook or bot
//! endpoint, `https.request(`) whose destinations are not only this machine nor a host named after
//! the skill. Judged `critical` at the post, the pattern related. One pass over the lowered lines.

use super::Bundle;
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::rules::Severity;

/// Pieces of a pattern shaped like a service's token (lower-case, as written in a regex literal).
pub(super) const SHAPES: &[&str] = &[
    "{24}\\.",
    "{24,26}\\.",
    "mfa\\.",
    "gh[op]_",
    "gh[pousr]_",
    "ghp_[",
    "github_pat_[",
    "npm_[",
    "xox[",
    "xoxb-[",
    "akia[",
    "sk-[a-z",
    "sk_live_[",
];

/// The user's application-data or home folder (lower-case).
const PLACES: &[&str] = &[
    "appdata",
    "localappdata",
    "homedir()",
    "expanduser(",
    "path.home()",
    "process.env.home",
    "userprofile",
    "local storage",
    "library/application support",
];

const READS: &[&str] = &[
    "readfilesync(",
    "readfile(",
    "createreadstream(",
    "open(",
    "read_text(",
    "get-content",
];

/// Chat services' incoming webhooks and bot endpoints (lower-case).
const CHAT_SINKS: &[&str] = &["/api/webhooks/", "api.telegram.org/bot", "/sendmessage"];

fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [".js", ".mjs", ".cjs", ".ts", ".py", ".ps1"]
        .iter()
        .any(|e| p.ends_with(e))
}

pub(super) fn token_scrape(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = b.name_words();
    for file in b
        .files
        .iter()
        .filter(|f| is_code(f.path) && !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        if !SHAPES.iter().any(|w| all.contains(w))
            || !PLACES.iter().any(|w| all.contains(w))
            || !READS.iter().any(|w| all.contains(w))
        {
            continue;
        }
        let lw = file.lowered();
        let Some(shape) = lw
            .lower
            .iter()
            .position(|l| SHAPES.iter().any(|w| l.contains(w)))
        else {
            continue;
        };
        let post = (0..lw.lower.len()).find(|&i| {
            let l = &lw.lower[i];
            let sends = super::harvest::POSTS.iter().any(|p| l.contains(p))
                || CHAT_SINKS.iter().any(|p| l.contains(p))
                || l.contains("https.request(")
                || l.contains("http.request(");
            if !sends || l.starts_with("//") || l.starts_with('#') {
                return false;
            }
            !super::harvest::stays_here(&lw.lines, i, 3, &words)
        });
        let Some(i) = post else {
            continue;
        };
        let raw = lw.lines[i].trim();
        let pat = lw.lines[shape].trim();
        out.push(Finding {
            rule_id: "exfiltration.token-scrape".into(),
            category: "exfiltration".into(),
            severity: Severity::Critical,
            file: file.path.into(),
            line: i + 1,
            evidence: evidence(raw, 0, raw.len()),
            description: format!(
                "{}: the file reads files of the user's application-data or home folder, runs a pattern shaped like a service's token over them (line {}) and posts (line {}: `{}`). A secret scanner prints what it finds in a project; scraping the user's stores for tokens and sending them out is a token grabber. Do not install this skill.",
                file.path,
                shape + 1,
                i + 1,
                raw.chars().take(80).collect::<String>(),
            ),
            related: vec![Related {
                role: "token pattern".into(),
                file: file.path.into(),
                line: shape + 1,
                evidence: evidence(pat, 0, pat.len()),
            }],
        });
    }
}
