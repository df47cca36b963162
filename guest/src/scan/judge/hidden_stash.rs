//! Credentials collected into a hidden file under a temporary folder (round 49m, held-out set 27,
//! `exfiltration.hidden-temp-stash`).
//!
//! A tool that walks the environment for secret-named variables, or keeps the password it was
//! handed, and writes what it found to a dot-named file in a shared temporary folder
//! (`/tmp/.api_keys_cache`, `/tmp/.auth_cache`) is staging credentials where a later step, a
//! second process or another user can pick them up — the first half of a theft, hidden from the
//! directory listing. No ordinary tool keeps a user's secrets in a hidden `/tmp` file.
//!
//! Facts, in one code file: a quoted path under `/tmp/`, `/var/tmp/` or `/dev/shm/` whose file
//! name starts with a dot ([`TEMP_DOTS`]); a write in the file ([`WRITES`]); and a secret source —
//! the environment walked ([`super::env_pick_send::ENUMS`]) and filtered within three lines by at
//! least two secret words, or a record keeping a password-like argument under its own name
//! (`"password": password`). Judged `critical` at the source line, the hidden path related.
//! Tokens cached under the user's own config folder and hidden temp files holding no secret are
//! not judged. One pass over the file's lowered lines.

use super::Bundle;
use super::env_pick_send::ENUMS;
use super::shapes::{found, is_code, judged, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Hidden files in shared temporary folders, as quoted path openings (lower-case); also the gate.
pub(super) const TEMP_DOTS: &[&str] = &[
    "\"/tmp/.",
    "'/tmp/.",
    "`/tmp/.",
    "\"/var/tmp/.",
    "'/var/tmp/.",
    "\"/dev/shm/.",
    "'/dev/shm/.",
];
/// Writes of a file's content (lower-case).
const WRITES: &[&str] = &[
    "json.dump(",
    ".write(",
    "writefilesync(",
    "appendfilesync(",
    "writefile(",
    "appendfile(",
    "write_text(",
    "writestring(",
    "os.writefile(",
];
/// Secret words a filter names (lower-case).
const SECRET_WORDS: &[&str] = &["key", "token", "secret", "pass", "auth", "cred"];
/// Argument names that hold a credential (lower-case).
const CRED_ARGS: &[&str] = &["password", "passwd", "secret", "api_key", "token"];

/// Whether a lowered line keeps a credential argument under its own name (`"password": password`,
/// `'token': token`, `password: password,`).
fn keeps_credential(l: &str) -> bool {
    CRED_ARGS.iter().any(|w| {
        [
            format!("\"{w}\": {w}"),
            format!("'{w}': {w}"),
            format!(" {w}: {w},"),
            format!("{{ {w}: {w}"),
        ]
        .iter()
        .any(|p| l.contains(p.as_str()))
    })
}

pub(super) fn hidden_temp_stash(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| is_code(f)) {
        if !file.words().any(TEMP_DOTS) {
            continue;
        }
        let lw = file.lowered();
        let low = &lw.lower;
        let Some(stash) = low
            .iter()
            .position(|l| TEMP_DOTS.iter().any(|t| l.contains(t)))
        else {
            continue;
        };
        if !low.iter().any(|l| WRITES.iter().any(|w| l.contains(w))) {
            continue;
        }
        let walked = low.iter().enumerate().find_map(|(i, l)| {
            if !ENUMS.iter().any(|e| l.contains(e)) {
                return None;
            }
            (i..low.len().min(i + 4))
                .find(|&k| SECRET_WORDS.iter().filter(|w| low[k].contains(*w)).count() >= 2)
        });
        let source = walked.or_else(|| low.iter().position(|l| keeps_credential(l)));
        let Some(source) = source else { continue };
        if judged(b, out, file, source) {
            continue;
        }
        new.push(found(
            "exfiltration.hidden-temp-stash",
            "exfiltration",
            Severity::Critical,
            file,
            source,
            format!(
                "{}:{}: credentials (secret-named environment variables or a password the tool was given) are collected and written to a hidden file in a shared temporary folder ({}:{}). That stages them out of sight for another step or process to take; no ordinary tool keeps secrets there. Do not install this skill.",
                file.path,
                source + 1,
                file.path,
                stash + 1
            ),
            vec![rel("hidden file", file, stash)],
        ));
    }
    out.extend(new);
}
