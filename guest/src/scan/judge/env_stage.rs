//! The environment filtered for secrets and written to a temporary file (round 46m, round 45m's
//! open item, `exfiltration.secret-env-staged`).
//!
//! `env | grep -i -E 'token|key|secret' > /tmp/ctx.txt` sends nothing by itself, but it is how a
//! harvest is staged: every secret of the session gathered into one file in a folder any later
//! step (another script, a hook, the agent told to "attach the context") can read and send. A build
//! script that records its environment writes all of it, or passes chosen variables to the next CI
//! step (`>> $GITHUB_ENV`), or writes a project `.env`; it does not pick out the secrets by name
//! and park them in a temporary folder. Judged `high` (a reviewer should look; no send is seen):
//! one line lists the environment (`env`, `printenv`, `export -p`, `declare -x`, `compgen -e`,
//! PowerShell's `Get-ChildItem Env:`), filters it by at least two secret words ([`SECRET_WORDS`]),
//! and writes the result under a temporary folder ([`TEMP_DIRS`]). A line that warns ("never",
//! "do not") is not read.

use super::shapes::found;
use super::{Bundle, File};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Filters (lower-case); also this rule's gate words.
pub(super) const FILTERS: &[&str] = &["grep", "select-string", "where-object", "findstr", "where "];
/// Ways of listing the environment, each followed by a pipe (lower-case).
const LISTS: &[&str] = &[
    "env",
    "printenv",
    "export -p",
    "declare -x",
    "compgen -e",
    "get-childitem env:",
    "gci env:",
    "dir env:",
    "ls env:",
];
/// Words naming secrets in a filter (lower-case).
const SECRET_WORDS: &[&str] = &["token", "key", "secret", "pass", "auth", "cred"];
/// Temporary folders (lower-case).
const TEMP_DIRS: &[&str] = &[
    "/tmp/",
    "/var/tmp/",
    "/dev/shm/",
    "$tmpdir",
    "${tmpdir",
    "%temp%",
    "$env:temp",
    "$env:tmp",
];
/// Lines that warn instead of ordering (lower-case).
const REFUSALS: &[&str] = &["never ", "do not ", "don't ", "avoid ", "must not"];

/// Whether the lowered line starts an environment listing piped on (a word start, then a pipe).
fn lists_env(l: &str) -> Option<usize> {
    LISTS.iter().find_map(|w| {
        l.match_indices(w).find_map(|(p, _)| {
            let before = l[..p].chars().next_back();
            let word_start =
                before.is_none_or(|c| c.is_whitespace() || matches!(c, '(' | '`' | ';' | '&'));
            let rest = l[p + w.len()..].trim_start();
            (word_start && rest.starts_with('|')).then_some(p + w.len())
        })
    })
}

/// Where the line writes, if it redirects or tees into a temporary folder after `from`.
fn staged_in_temp(l: &str, from: usize) -> bool {
    let rest = &l[from..];
    let writes = rest.contains('>')
        || rest.contains("tee ")
        || rest.contains("out-file")
        || rest.contains("set-content");
    writes && TEMP_DIRS.iter().any(|d| rest.contains(d))
}

fn staged_line(l: &str) -> bool {
    if REFUSALS.iter().any(|w| l.contains(w)) || !FILTERS.iter().any(|f| l.contains(f)) {
        return false;
    }
    let Some(after) = lists_env(l) else {
        return false;
    };
    let filter = &l[after..];
    let secrets = SECRET_WORDS.iter().filter(|w| filter.contains(*w)).count();
    secrets >= 2 && staged_in_temp(l, after)
}

pub(super) fn secret_env_staged(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b
        .files
        .iter()
        .filter(|f: &&File<'_>| !f.place.test && !f.place.signature)
    {
        if !file.words().any(FILTERS) {
            continue;
        }
        let Some(i) = file.lowered().lower.iter().position(|l| staged_line(l)) else {
            continue;
        };
        let taken = out
            .iter()
            .chain(b.prior.iter())
            .any(|f| f.file == file.path && f.line == i + 1 && f.severity >= Severity::High);
        if taken {
            continue;
        }
        new.push(found(
            "exfiltration.secret-env-staged",
            "exfiltration",
            Severity::High,
            file,
            i,
            format!(
                "{}:{}: the environment is filtered for secrets by name and written to a temporary folder: every token and key of the session gathered in one file any later step can read and send. A build script records all of its environment or passes chosen variables on; it does not park the secrets in /tmp. Check what reads that file.",
                file.path,
                i + 1
            ),
            Vec::new(),
        ));
    }
    out.extend(new);
}
