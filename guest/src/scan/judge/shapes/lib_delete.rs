//! Round 48t (sets48t): `destructive.rm-root-or-home` for a language's own recursive-delete call
//! whose first argument is a system or home folder itself — written as a literal
//! (`std.fs.deleteTreeAbsolute("/etc")`, `fs::remove_dir_all("/usr")`) or as the variable of a
//! loop a few lines above that walks a list written in its own head (`for p in ["/usr", "/etc"] {`,
//! `for d in ("/var", "/opt"):`, `for (const d of ["/etc"])`).
//!
//! Not judged: a folder below a system folder (`/usr/share/app`, `/var/lib/tool`), a project's
//! folder (`"target"`, `"./build"`), a loop whose list names no system folder, a comment. One pass
//! over a code file's lowered lines after a whole-file gate; the loop is looked for within
//! [`LOOP_BACK`] lines.

use super::call_delete::{each_code_file, hit};
use crate::scan::content::Finding;
use crate::scan::judge::File;

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &["remove_dir_all(", "deletetreeabsolute(", "deletetree("];

/// Recursive deletes whose first argument is the folder deleted with all it holds: Rust's
/// `remove_dir_all`, Zig's `deleteTreeAbsolute` / `Dir.deleteTree`.
const CALLS: &[&str] = &["remove_dir_all(", "deletetreeabsolute(", "deletetree("];

/// How many lines above a delete its loop's head may stand.
const LOOP_BACK: usize = 4;

pub(super) fn judge(b: &crate::scan::judge::Bundle<'_>, out: &mut Vec<Finding>) {
    each_code_file(b, out, RAW, scan);
}

/// A system or home folder itself (`"/etc"`, `'/usr/'`), as a quoted literal.
fn root_literal(w: &str) -> Option<&str> {
    let w = w.trim();
    let q = w.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &w[1..];
    let p = body[..body.find(q)?].trim_end_matches('/');
    let p = if p.is_empty() { "/" } else { p };
    super::tree_delete::ROOTS.contains(&p).then_some(p)
}

/// The first argument of the call opening `rest` (after its `(`), up to `,` or `)`.
fn first_arg(rest: &str) -> &str {
    let rest = rest.trim_start().trim_start_matches('&');
    match rest.chars().next() {
        Some(q @ ('"' | '\'')) => rest[1..].find(q).map(|e| &rest[..e + 2]).unwrap_or(rest),
        _ => rest.split([',', ')']).next().unwrap_or(rest).trim(),
    }
}

/// A loop head at most [`LOOP_BACK`] lines above `at` whose variable is `var` and whose list,
/// written in the head, holds a system or home folder: the head's line and the folder.
fn listed_head(low: &[String], at: usize, var: &str) -> Option<(usize, String)> {
    (at.saturating_sub(LOOP_BACK)..at).rev().find_map(|k| {
        let t = low[k].trim_start();
        let head = t
            .strip_prefix("for ")
            .or_else(|| t.strip_prefix("for("))
            .or_else(|| t.strip_prefix("foreach "))?;
        let head = head.trim_start_matches('(').trim_start();
        let head = head
            .strip_prefix("const ")
            .or_else(|| head.strip_prefix("let "))
            .or_else(|| head.strip_prefix("var "))
            .unwrap_or(head);
        let (v, list) = head
            .split_once(" in ")
            .or_else(|| head.split_once(" of "))?;
        if v.trim().trim_matches(['(', ')']) != var {
            return None;
        }
        list.split(',').find_map(|w| {
            let w = w
                .trim()
                .trim_start_matches(['&', '[', '(', '{'])
                .trim_start();
            root_literal(w).map(|p| (k, p.to_owned()))
        })
    })
}

fn scan(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        let t = l.trim_start();
        if t.starts_with("//") || t.starts_with('#') {
            continue;
        }
        for c in CALLS {
            let Some(at) = l.find(c) else {
                continue;
            };
            let arg = first_arg(&l[at + c.len()..]);
            let name = c.trim_end_matches('(');
            if let Some(p) = root_literal(arg) {
                return Some(hit(f, i, format!("`{name}(\"{p}\")`"), None));
            }
            let var = arg.trim();
            if !var.is_empty()
                && var
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || ch == '_')
                && let Some((def, p)) = listed_head(low, i, var)
            {
                return Some(hit(
                    f,
                    i,
                    format!(
                        "`{name}({var})` inside a loop over a list holding `{p}` (line {})",
                        def + 1
                    ),
                    Some(def),
                ));
            }
        }
    }
    None
}
