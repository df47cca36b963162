//! Round 46t (sets46t): `network.reverse-shell` as a web shell in OpenResty's Lua: a request's
//! own input (`ngx.var.arg_x`, `ngx.req.get_uri_args()`, `ngx.req.get_body_data()`) handed to a
//! shell (`io.popen(…)`, `os.execute(…)`, `ngx.pipe.spawn(…)`), directly or through a name
//! assigned from it a few lines above: whoever reaches the server types the commands. A handler
//! that runs a fixed command, or reads the request for anything else, is not this. One pass over
//! a code file's lowered lines after a whole-file gate; windows are bounded.

use super::{found, has, has_word, is_code, rel};
use crate::scan::content::Finding;
use crate::scan::judge::{Bundle, File};
use crate::scan::rules::Severity;

const RULE: &str = "network.reverse-shell";

/// A request's input as OpenResty hands it over (the words without one of which this rule cannot
/// fire).
pub(super) const RAW: &[&str] = &[
    "ngx.var.arg_",
    "ngx.req.get_uri_args(",
    "ngx.req.get_post_args(",
    "ngx.req.get_body_data(",
    "ngx.var.request_body",
];

/// Calls that run their text in a shell.
const SHELLS: &[&str] = &["io.popen(", "os.execute(", "ngx.pipe.spawn("];

/// Lines above a run within which a name assigned from the request is looked for.
const ABOVE: usize = 6;

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if !is_code(f) || !f.words().any(RAW) || has(out, f, RULE, Severity::Critical) {
            continue;
        }
        if let Some(x) = scan(f) {
            out.push(x);
        }
    }
}

/// Whether a line reads the request's input.
fn reads(l: &str) -> bool {
    RAW.iter().any(|w| l.contains(w))
}

/// The name a line assigns from the request (`local c = ngx.var.arg_cmd`, `args = ngx.req…`).
fn assigned(l: &str) -> Option<&str> {
    let (left, right) = l.split_once('=')?;
    if !reads(right) || left.ends_with(['~', '=', '<', '>']) {
        return None;
    }
    let w = left.trim().trim_start_matches("local ").trim();
    (!w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then_some(w)
}

fn scan(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        let t = l.trim_start();
        if t.starts_with("--") || t.starts_with('#') {
            continue;
        }
        let Some(at) = SHELLS.iter().filter_map(|w| l.find(w)).min() else {
            continue;
        };
        let arg = &l[at..];
        let source = if reads(arg) {
            Some(i)
        } else {
            (i.saturating_sub(ABOVE)..i).rev().find(|&k| {
                assigned(&low[k]).is_some_and(|n| {
                    let inner = arg.split_once('(').map_or("", |x| x.1);
                    has_word(inner, n)
                })
            })
        };
        let Some(k) = source else {
            continue;
        };
        return Some(found(
            RULE,
            "network",
            Severity::Critical,
            f,
            i,
            format!(
                "{}:{}: what an HTTP request sends (read at line {}) is run as a shell command: a web shell, anyone who reaches the server types the commands.",
                f.path,
                i + 1,
                k + 1
            ),
            if k == i {
                vec![]
            } else {
                vec![rel("source", f, k)]
            },
        ));
    }
    None
}
