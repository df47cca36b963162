//! Recursive deletes of a path built by a path-join call (round 50k, `destructive.rm-root-or-home`).
//!
//! A delete whose target is spelled out (`Remove-Item C:\Windows\System32 -Recurse`,
//! `rm -rf ~/Documents`) is read by the one-line rules. The same delete written through a
//! path-join call — `Join-Path $env:SystemRoot 'System32'`, `[IO.Path]::Combine($home, 'Documents')`,
//! `os.path.join(home, "Desktop")` — names its parts apart: the root on one side (often through a
//! variable set a few lines above, `$base = $env:USERPROFILE`), the child on the other (often a loop
//! variable walking a list of folder names). Read together, the target is the Windows system folder
//! or one of the user's own data folders, which no skill deletes.
//!
//! Facts, in one code file: a recursive delete line ([`recursive_delete`]); its target is a join
//! call on the line, or a name assigned a join call in the [`LOOK`] lines above; the join's first
//! part is (or is a name set to) the Windows folder or the home folder; its second part is (or is a
//! loop variable over a list holding) a system part of the Windows folder (`System32`, `WinSxS`…)
//! or a whole user-data folder (`Documents`, `Desktop`…). Judged `critical` at the delete, with the
//! join's and the loop's lines related. A folder below those (`Documents\old-exports`), a project's
//! own folder or a temporary folder joined the same way is not judged. One pass over the file's
//! lowered lines, a bounded look back per delete.

use super::Bundle;
use super::shapes::{found, is_code, judged, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Path-join calls (lower-case); also the gate.
pub(super) const JOINS: &[&str] = &["join-path", "::combine(", "path.join(", "filepath.join("];

/// How many lines above a delete its join, root and loop are looked for.
const LOOK: usize = 20;

/// The Windows folder, as a script names it (lower-case).
const WINDOWS_ROOTS: &[&str] = &[
    "$env:systemroot",
    "$env:windir",
    "c:\\windows",
    "%systemroot%",
    "%windir%",
    "getfolderpath('windows')",
    "getfolderpath(\"windows\")",
    "specialfolder.windows",
];

/// The home folder, as a script names it (lower-case).
const HOME_ROOTS: &[&str] = &[
    "$env:userprofile",
    "$home",
    "$env:home",
    "~",
    "%userprofile%",
    "os.homedir()",
    "path.home()",
    "os.path.expanduser(\"~\")",
    "os.path.expanduser('~')",
    "getfolderpath('userprofile')",
    "getfolderpath(\"userprofile\")",
    "specialfolder.userprofile",
    "os.userhomedir()",
];

/// Folders of the Windows folder whose loss leaves the machine unbootable.
const SYSTEM_PARTS: &[&str] = &[
    "system32", "syswow64", "winsxs", "system", "boot", "fonts", "inf",
];

/// The user's own data folders in the home folder (whole, not a folder below them).
const USER_DATA: &[&str] = &[
    "documents",
    "desktop",
    "pictures",
    "downloads",
    "music",
    "videos",
    "onedrive",
    ".ssh",
    ".gnupg",
];

/// Whether a lowered line deletes a folder tree.
fn recursive_delete(l: &str) -> bool {
    let t = l.trim_start();
    t.contains("remove-item") && t.contains("-recurse")
        || [
            "rm -r",
            "rm -fr",
            "rm -rf",
            "rmtree(",
            "removeall(",
            "rmsync(",
            "rm_rf(",
        ]
        .iter()
        .any(|w| t.contains(w))
        || t.contains("directory.delete(") && t.contains("true")
        || (t.starts_with("rd ") || t.starts_with("rmdir ")) && t.contains("/s")
}

/// The two parts of the first path-join call in a lowered text, unquoted, when it has exactly
/// two: `join-path a b`, `join-path -path a -childpath b`, `combine(a, b)`, `join(a, b)`.
fn join_parts(t: &str) -> Option<(String, String)> {
    let (at, w) = JOINS
        .iter()
        .filter_map(|w| t.find(w).map(|i| (i, *w)))
        .min_by_key(|(i, _)| *i)?;
    let rest = &t[at + w.len()..];
    let words: Vec<&str> = if w == "join-path" {
        rest.split(')')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .filter(|x| !x.starts_with('-'))
            .collect()
    } else {
        call_args(rest)
    };
    // Exactly a root and one child: a third part names a folder below the child.
    let clean = |x: &str| x.trim().trim_matches(['"', '\'']).to_owned();
    match words.as_slice() {
        [a, b] => Some((clean(a), clean(b))),
        _ => None,
    }
}

/// The top-level arguments of a call whose `(` was just read: split on commas outside brackets
/// and quotes, up to the call's closing `)`.
fn call_args(rest: &str) -> Vec<&str> {
    let b = rest.as_bytes();
    let (mut depth, mut quote, mut start) = (0usize, 0u8, 0usize);
    let mut out = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        if quote != 0 {
            if c == quote {
                quote = 0;
            }
            continue;
        }
        match c {
            b'"' | b'\'' => quote = c,
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => {
                out.push(&rest[start..i]);
                return out;
            }
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(&rest[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&rest[start..]);
    out
}

/// The value a name was last assigned in the lines `from..to` (`$x = v`, `x = v`, `x := v`,
/// `const x = v`), with its line.
fn assigned(low: &[String], from: usize, to: usize, name: &str) -> Option<(String, usize)> {
    let name = name.trim_start_matches('$');
    if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return None;
    }
    (from..to).rev().find_map(|k| {
        let t = low[k].trim_start();
        let t = ["const ", "let ", "var ", "my ", "local "]
            .iter()
            .find_map(|p| t.strip_prefix(p))
            .unwrap_or(t);
        let rest = t.strip_prefix('$').unwrap_or(t).strip_prefix(name)?;
        let rest = rest.trim_start();
        let rhs = rest.strip_prefix(":=").or_else(|| {
            rest.strip_prefix('=')
                .filter(|r| !r.starts_with(['=', '>']))
        })?;
        Some((rhs.trim().trim_end_matches(';').trim().to_owned(), k))
    })
}

/// What a join's first part is: the Windows folder (`true`) or the home folder (`false`),
/// itself or through one assignment above, with the assignment's line if any.
fn root_kind(low: &[String], from: usize, to: usize, part: &str) -> Option<(bool, Option<usize>)> {
    let kind = |v: &str| {
        let raw = v.trim();
        let bare = raw
            .trim_matches(['"', '\'', '(', ')'])
            .trim_end_matches('\\');
        let is = |list: &[&str]| list.contains(&raw) || list.contains(&bare);
        if is(WINDOWS_ROOTS) {
            Some(true)
        } else if is(HOME_ROOTS) {
            Some(false)
        } else {
            None
        }
    };
    if let Some(k) = kind(part) {
        return Some((k, None));
    }
    let (v, line) = assigned(low, from, to, part)?;
    kind(&v).map(|k| (k, Some(line)))
}

/// The values a join's second part takes: itself when it is a literal, or the quoted values of a
/// loop over it (`foreach ($d in 'a', 'b')`, `for d in ("a", "b"):`, `for (const d of ['a'])`)
/// opened in the lines above, with the loop's line.
fn child_values(
    low: &[String],
    from: usize,
    to: usize,
    part: &str,
) -> (Vec<String>, Option<usize>) {
    let name = part.trim_start_matches('$');
    let is_name = !name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
    if !is_name {
        return (vec![part.to_owned()], None);
    }
    for k in (from..to).rev() {
        let t = low[k].trim_start();
        let head = [
            format!("foreach (${name} in "),
            format!("for {name} in "),
            format!("for (const {name} of "),
            format!("for (let {name} of "),
        ];
        if let Some(rest) = head
            .iter()
            .find_map(|h| t.find(h.as_str()).map(|i| &t[i + h.len()..]))
        {
            let vals = crate::scan::judge::code::literals(rest)
                .into_iter()
                .map(str::to_owned)
                .collect();
            return (vals, Some(k));
        }
    }
    // Not a loop variable: a name set to a literal above, or the part itself.
    if let Some((v, line)) = assigned(low, from, to, part) {
        let lits = crate::scan::judge::code::literals(&v);
        if let [one] = lits.as_slice() {
            return (vec![(*one).to_owned()], Some(line));
        }
    }
    (vec![part.to_owned()], None)
}

/// Whether a joined child is the part named (a whole folder, not one below it).
fn whole<'w>(v: &str, list: &[&'w str]) -> Option<&'w str> {
    let v = v.trim_matches(['\\', '/', '"', '\'']);
    list.iter().find(|w| v == **w).copied()
}

pub(super) fn joined_root_delete(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| is_code(f)) {
        if !file.words().any(JOINS) {
            continue;
        }
        let low = &file.lowered().lower;
        for (i, l) in low.iter().enumerate() {
            if !recursive_delete(l) || judged(b, out, file, i) {
                continue;
            }
            let from = i.saturating_sub(LOOK);
            // The join on the delete's line, or a name on it assigned a join above.
            let (parts, join_line) = match join_parts(l) {
                Some(p) => (p, None),
                None => {
                    let Some((p, k)) = l
                        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                        .filter(|w| w.len() > 1)
                        .find_map(|w| {
                            let (v, k) = assigned(low, from, i, w)?;
                            join_parts(&v).map(|p| (p, k))
                        })
                    else {
                        continue;
                    };
                    (p, Some(k))
                }
            };
            let (a, c) = parts;
            let Some((windows, root_line)) = root_kind(low, from, i, &a) else {
                continue;
            };
            let (values, loop_line) = child_values(low, from, i, &c);
            let list = if windows { SYSTEM_PARTS } else { USER_DATA };
            let Some(hit) = values.iter().find_map(|v| whole(v, list)) else {
                continue;
            };
            let what = if windows {
                format!("the Windows folder's `{hit}`, which leaves the machine unbootable")
            } else {
                format!(
                    "the user's own `{hit}` folder in the home folder, every file the user keeps there"
                )
            };
            let related = [
                join_line.map(|k| rel("definition", file, k)),
                root_line.map(|k| rel("definition", file, k)),
                loop_line.map(|k| rel("signal", file, k)),
            ]
            .into_iter()
            .flatten()
            .collect();
            new.push(found(
                "destructive.rm-root-or-home",
                "destructive",
                Severity::Critical,
                file,
                i,
                format!(
                    "A recursive delete (line {}) of a path joined from `{a}` and `{c}`: that is {what}. Building the path with a join call does not change what is deleted. Do not install this skill.",
                    i + 1
                ),
                related,
            ));
            break;
        }
    }
    out.extend(new);
}

#[cfg(test)]
mod tests {
    use super::join_parts;

    #[test]
    fn join_parts_reads_two_part_joins_only() {
        let two = Some(("$env:windir".to_owned(), "system32".to_owned()));
        assert_eq!(
            join_parts("$p = join-path -path $env:windir -childpath 'system32'"),
            two
        );
        assert_eq!(
            join_parts("shutil.rmtree(os.path.join(os.path.expanduser(\"~\"), \"desktop\"))"),
            Some(("os.path.expanduser(\"~\")".to_owned(), "desktop".to_owned()))
        );
        assert_eq!(
            join_parts("os.path.join(home, \"documents\", \"cache\")"),
            None
        );
        assert_eq!(join_parts("join-path $home 'documents' 'cache'"), None);
    }
}
