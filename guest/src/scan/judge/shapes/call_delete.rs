//! Round 44t (sets44t): `destructive.rm-root-or-home` for recursive deletes written as a build or
//! script language's own call rather than `rm -rf`:
//!
//! - CMake `file(REMOVE_RECURSE …)` whose arguments name a system folder itself or the home
//!   folder itself (`"$ENV{HOME}"`, `/usr/local`); a build folder (`${CMAKE_BINARY_DIR}/gen`) is
//!   cleanup, not this.
//! - Tcl `file delete -force …` of such a folder, written directly or as the variable of a
//!   `foreach` a few lines above that walks a list (`set dirs [list … /etc …]`) holding one.
//!
//! One pass over a code file's lowered lines after a whole-file gate; windows are bounded.

use super::{found, has, is_code, rel};
use crate::scan::content::Finding;
use crate::scan::judge::{Bundle, File};
use crate::scan::rules::Severity;

const RULE: &str = "destructive.rm-root-or-home";

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &["remove_recurse", "file delete"];

/// The home folder as CMake and Tcl spell it; the other folders are `tree_delete::ROOTS` (a
/// root's trailing `/` is cut before either list is asked).
const HOME: &[&str] = &[
    "$env{home}",
    "$env{userprofile}",
    "$env(home)",
    "$::env(home)",
    "$env(userprofile)",
    "$::env(userprofile)",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    each_code_file(b, out, RAW, scan);
}

/// Runs `scan` over the code files holding one of `raw` and not yet judged destructive at
/// `critical` (also `list_delete`'s loop).
pub(super) fn each_code_file(
    b: &Bundle<'_>,
    out: &mut Vec<Finding>,
    raw: &[&str],
    scan: fn(&File<'_>) -> Option<Finding>,
) {
    for f in &b.files {
        if !is_code(f)
            || has(out, f, "destructive.", Severity::Critical)
            || has(b.prior, f, "destructive.", Severity::Critical)
            || !f.words().any(raw)
        {
            continue;
        }
        if let Some(x) = scan(f) {
            out.push(x);
        }
    }
}

/// One argument with its quotes, braces and a trailing slash taken off.
fn clean(w: &str) -> &str {
    let w = w.trim_matches(['"', '\'', '{', '}', '[', ']', ')', '(', ';']);
    if w.len() > 1 {
        w.trim_end_matches('/')
    } else {
        w
    }
}

fn root(w: &str) -> bool {
    let w = clean(w);
    super::tree_delete::ROOTS.contains(&w) || HOME.contains(&w)
}

fn scan(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        let t = l.trim_start();
        if t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        // CMake: `file(REMOVE_RECURSE "$ENV{HOME}" "/usr/local")`.
        if let Some(at) = l.find("file(remove_recurse") {
            let rest = &l[at + "file(remove_recurse".len()..];
            let args = rest.split(')').next().unwrap_or(rest);
            if let Some(w) = args.split_whitespace().find(|w| root(w)) {
                return Some(hit(
                    f,
                    i,
                    format!("CMake `file(REMOVE_RECURSE …)` of `{}`", clean(w)),
                    None,
                ));
            }
        }
        // Tcl: `file delete -force -- /etc` or `file delete -force $d` inside a listed loop.
        let Some(at) = l.find("file delete ") else {
            continue;
        };
        let rest = &l[at + "file delete ".len()..];
        let rest = rest.split([';', ']']).next().unwrap_or(rest);
        let words: Vec<&str> = rest.split_whitespace().collect();
        if !words.contains(&"-force") {
            continue;
        }
        let args = words.iter().filter(|w| !w.starts_with('-'));
        for w in args {
            if root(w) {
                return Some(hit(
                    f,
                    i,
                    format!("Tcl `file delete -force` of `{}`", clean(w)),
                    None,
                ));
            }
            if let Some(var) = clean(w).strip_prefix('$')
                && let Some((def, what)) = listed(low, i, var)
            {
                return Some(hit(
                    f,
                    i,
                    format!(
                        "Tcl `file delete -force ${var}` over a list holding `{what}` (line {})",
                        def + 1
                    ),
                    Some(def),
                ));
            }
        }
    }
    None
}

/// A `foreach var $list` (or `foreach var [list …]` / `{…}`) up to 6 lines above `at` whose list
/// holds a system or home folder: the line that names the folder, and the folder.
fn listed(low: &[String], at: usize, var: &str) -> Option<(usize, String)> {
    let head = format!("foreach {var} ");
    let k = (at.saturating_sub(6)..=at)
        .rev()
        .find(|&k| low[k].contains(&head))?;
    let after = &low[k][low[k].find(&head)? + head.len()..];
    let list = after.split_whitespace().next().unwrap_or("");
    // The list written in the loop's head.
    if let Some(w) = after.split_whitespace().find(|w| root(w)) {
        return Some((k, clean(w).to_owned()));
    }
    let name = list.strip_prefix('$')?;
    let set = format!("set {name} ");
    (k.saturating_sub(10)..k).rev().find_map(|d| {
        let t = &low[d];
        let p = t.find(&set)?;
        t[p + set.len()..]
            .split_whitespace()
            .find(|w| root(w))
            .map(|w| (d, clean(w).to_owned()))
    })
}

/// The finding of a recursive delete of a system or home folder (also `list_delete`'s).
pub(super) fn hit(f: &File<'_>, i: usize, what: String, def: Option<usize>) -> Finding {
    found(
        RULE,
        "destructive",
        Severity::Critical,
        f,
        i,
        format!(
            "{}:{}: {what} deletes a system folder or the home folder itself, with everything below it. Do not install this skill.",
            f.path,
            i + 1
        ),
        def.map(|d| vec![rel("definition", f, d)])
            .unwrap_or_default(),
    )
}
