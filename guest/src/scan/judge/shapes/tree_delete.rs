//! Round 41c (scan41c): recursive deletes of a system or home folder written as a resource or a
//! library call rather than `rm -rf` (`destructive.rm-root-or-home`): a Chef `directory '/etc'`
//! resource with `recursive true` and `action :delete` within its block, Babashka's
//! `(fs/delete-tree "/usr/local")` or `(fs/delete-tree (fs/home))`. One table of delete forms, the
//! target the form's first argument; the target must be a system folder itself (or one level
//! below `/usr`, `/var`) or the home folder itself — a project's own folder (`"target"`,
//! `"#{app_dir}/build"`) is cleanup.

use super::{found, has, is_code, rel};
use crate::scan::content::Finding;
use crate::scan::judge::find::Has;
use crate::scan::judge::{Bundle, File};
use crate::scan::rules::Severity;

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &["action :delete", "delete-tree"];

/// Folders whose recursive delete breaks the machine or erases the user's files (also read by
/// `call_delete`).
pub(super) const ROOTS: &[&str] = &[
    "/",
    "/etc",
    "/usr",
    "/usr/local",
    "/usr/bin",
    "/usr/lib",
    "/usr/share",
    "/var",
    "/var/lib",
    "/var/log",
    "/bin",
    "/sbin",
    "/boot",
    "/lib",
    "/lib64",
    "/opt",
    "/root",
    "/home",
    "/users",
    "/system",
    "/library",
    "/applications",
    "~",
    "~/",
];
/// Expressions that are the home folder itself.
const HOMES: &[&str] = &[
    "(fs/home))",
    "(fs/home) ",
    "(system/getproperty \"user.home\"))",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if !is_code(f) || !RAW.iter().any(|w| f.lower_all().has(w)) {
            continue;
        }
        if has(out, f, "destructive.rm-root-or-home", Severity::Critical) {
            continue;
        }
        if let Some(x) = deletes(f) {
            out.push(x);
        }
    }
}

/// The quoted literal that opens `rest` (`'/etc'`, `"/usr/local"`), if any.
fn literal(rest: &str) -> Option<&str> {
    let rest = rest.trim_start();
    let q = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &rest[1..];
    body.find(q).map(|e| &body[..e])
}

fn root(p: &str) -> bool {
    let p = p.trim_end_matches('/');
    ROOTS.contains(&p) || p.is_empty() || p == "~"
}

fn deletes(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        // Chef: `directory '/etc' do` … `recursive true` … `action :delete` … `end`.
        if let Some(rest) = l.strip_prefix("directory ")
            && let Some(p) = literal(rest)
            && root(p)
        {
            let end = (i + 1..(i + 8).min(low.len()))
                .find(|&k| low[k] == "end")
                .unwrap_or((i + 8).min(low.len()));
            let body = &low[i + 1..end];
            if body
                .iter()
                .any(|t| t.starts_with("recursive") && t.has("true"))
                && let Some(k) = body
                    .iter()
                    .position(|t| t.starts_with("action") && t.has(":delete"))
            {
                return Some(found(
                    "destructive.rm-root-or-home",
                    "destructive",
                    Severity::Critical,
                    f,
                    i + 1 + k,
                    format!(
                        "{}:{}: a Chef `directory` resource deletes `{p}` recursively (line {}): a system or home folder, not the project's own.",
                        f.path,
                        i + 2 + k,
                        i + 1
                    ),
                    vec![rel("resource", f, i)],
                ));
            }
        }
        // Babashka / Clojure: `(fs/delete-tree "/usr/local")`, `(fs/delete-tree (fs/home))`.
        for (at, _) in l.match_indices("delete-tree") {
            let rest = &l[at + "delete-tree".len()..];
            let hit = literal(rest).is_some_and(root)
                || HOMES
                    .iter()
                    .any(|h| rest.trim_start().starts_with(h) || rest.trim_start() == h.trim_end());
            if hit {
                return Some(found(
                    "destructive.rm-root-or-home",
                    "destructive",
                    Severity::Critical,
                    f,
                    i,
                    format!(
                        "{}:{}: `delete-tree` removes a system folder or the home folder itself, with everything below it.",
                        f.path,
                        i + 1
                    ),
                    vec![],
                ));
            }
        }
    }
    None
}
