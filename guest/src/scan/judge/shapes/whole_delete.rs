//! Round 43t (sets43t): `destructive.rm-root-or-home` for two spellings of "delete everything
//! there" the one-line rules do not read, on any code line (a string another language hands to a
//! shell too: Prolog's `shell('…')`, an Ansible `shell:` value):
//!
//! - `find` over a system root, the users' folder or the home folder whose action deletes
//!   (`-delete`, `-exec rm`) with no test that narrows what it finds (`-name`, `-path`, `-mtime`,
//!   `-size`, `-user`, `-newer`, `-empty` …): every file there is deleted. A `find` that deletes
//!   only what a test picks (`find / -name '*.pyc' -delete`) is a cleanup, not this.
//! - a recursive `rm` whose operand is the home folder written with a trailing slash or glob
//!   (`"$HOME"/`, `~/`, `${HOME}/*`): the same as deleting the home folder itself. A folder below
//!   it (`~/.cache/x`) is not this.
//!
//! One pass over a code file's lowered lines after a whole-file gate.

use super::{found, has, is_code};
use crate::scan::content::Finding;
use crate::scan::judge::find::Has;
use crate::scan::judge::{Bundle, File};
use crate::scan::rules::Severity;

const RULE: &str = "destructive.rm-root-or-home";

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &["-delete", "-exec rm", "-exec /bin/rm", "rm -"];

/// Folders whose every file deleted breaks the system or loses the user's work.
const TARGETS: &[&str] = &[
    "/",
    "/home",
    "/etc",
    "/usr",
    "/var",
    "/root",
    "/boot",
    "/opt",
    "~",
    "$home",
    "\"$home\"",
    "${home}",
    "\"${home}\"",
    "~/",
    "$home/",
    "\"$home\"/",
];

/// `find` tests that narrow what is deleted to some files.
const NARROW: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-regex",
    "-iregex",
    "-mtime",
    "-mmin",
    "-atime",
    "-amin",
    "-ctime",
    "-cmin",
    "-newer",
    "-size",
    "-user",
    "-group",
    "-empty",
    "-perm",
    "-prune",
    "-inum",
    "-samefile",
    "-links",
];

/// The home folder written with a trailing slash or glob: the folder's whole content.
const HOME_ALL: &[&str] = &[
    "~/",
    "~/*",
    "$home/",
    "$home/*",
    "\"$home\"/",
    "\"$home\"/*",
    "\"$home/\"",
    "\"$home/*\"",
    "${home}/",
    "${home}/*",
    "\"${home}\"/",
    "\"${home}/\"",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        // A file another rule already judges a critical deletion in keeps that finding.
        if !is_code(f)
            || has(out, f, "destructive.", Severity::Critical)
            || has(b.prior, f, "destructive.", Severity::Critical)
        {
            continue;
        }
        if !f.words().any(RAW) {
            continue;
        }
        if let Some(x) = scan(f) {
            out.push(x);
        }
    }
}

fn scan(f: &File<'_>) -> Option<Finding> {
    for (i, l) in f.lowered().lower.iter().enumerate() {
        let t = l.trim_start();
        if t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        let why = if let Some(at) = find_at(l) {
            let cmd = command(&l[at..], l[..at].chars().next_back());
            let words: Vec<&str> = cmd.split_whitespace().collect();
            let target = words
                .get(1)
                .map(|w| w.trim_end_matches(['\'', ')', ',']))
                .unwrap_or("");
            let deletes = cmd.has(" -delete") || cmd.has("-exec rm ") || cmd.has("-exec /bin/rm ");
            if !deletes || !TARGETS.contains(&target) || words.iter().any(|w| NARROW.contains(w)) {
                continue;
            }
            format!("`find {target}` deletes every file it walks (no test narrows it)")
        } else if let Some(op) = home_operand(l) {
            format!("a recursive `rm` of `{op}`, the home folder's whole content")
        } else {
            continue;
        };
        return Some(found(
            RULE,
            "destructive",
            Severity::Critical,
            f,
            i,
            format!(
                "{}:{}: {why}: the user's files or the system are erased. Do not install this skill.",
                f.path,
                i + 1
            ),
            vec![],
        ));
    }
    None
}

/// Where a `find` command starts on the line (at its start or after a separator or quote).
fn find_at(l: &str) -> Option<usize> {
    l.match_indices("find ").map(|(p, _)| p).find(|&p| {
        l[..p].chars().next_back().is_none_or(|c| {
            c.is_whitespace() || matches!(c, '\'' | '"' | '(' | ';' | '&' | '|' | '`' | '[')
        })
    })
}

/// One command: the text up to a separator, or up to the quote that opened it when it stands in
/// a string (`shell('find …')`).
fn command(t: &str, before: Option<char>) -> &str {
    let quote = before.filter(|c| matches!(c, '\'' | '"'));
    let end = t
        .find(|c: char| matches!(c, ';' | '|' | '&' | '`') || Some(c) == quote)
        .unwrap_or(t.len());
    &t[..end]
}

/// The home-folder operand of a recursive `rm` on the line, if any.
fn home_operand(l: &str) -> Option<&'static str> {
    let at = l.find("rm -")?;
    let cmd = &l[at..];
    let end = cmd.find([';', '|', '&', '`']).unwrap_or(cmd.len());
    let cmd = &cmd[..end];
    let flags = cmd.split_whitespace().nth(1).unwrap_or("");
    if !(flags.starts_with('-') && (flags.contains('r') || flags.contains('R'))) {
        return None;
    }
    cmd.split_whitespace().skip(2).find_map(|w| {
        let w = w.trim_end_matches([',', ')', '\'']);
        HOME_ALL.iter().find(|h| w == **h).copied()
    })
}
