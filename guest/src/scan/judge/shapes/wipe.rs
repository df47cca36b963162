//! Deletions of what the user cannot lose, in shapes the one-line rules do not read:
//!
//! - `destructive.rm-root-or-home`: a Windows recursive delete (`rd /s`, `rmdir /s`, `del /s`,
//!   `Remove-Item -Recurse`) of the Windows folder, Program Files, a drive root or the users'
//!   folder, or a system part of the Windows folder (`System32`, `WinSxS`, `Fonts`; a `Temp`, cache or
//!   update folder below them is cleanup, not this); the home folder deleted through a
//!   value that holds exactly it (`val home = File(System.getProperty("user.home"))` …
//!   `home.deleteRecursively()`, `shutil.rmtree(Path.home())`).
//! - `destructive.system-path-loop`: a recursive delete of a loop variable whose loop walks a list
//!   named a few lines above that holds a system folder (`local dirs = { "/etc", … }` …
//!   `for _, d in ipairs(dirs)` … `os.execute("rm -rf " .. d)`).

use super::{found, has, has_word, is_code, rel};
use crate::scan::content::Finding;
use crate::scan::judge::find::{Has, Needles};
use crate::scan::judge::{Bundle, File};
use crate::scan::rules::Severity;

/// Words without one of which these rules cannot fire.
pub(super) const RAW: &[&str] = &[
    "rd /s",
    "rmdir /s",
    "del /",
    "erase ",
    "remove-item",
    "rm(",
    "rmsync(",
    "deletedirectory(",
    "deleterecursively",
    "rmtree",
    "rm -rf",
    "rm_rf",
    "removeall",
    "remove_dir_all",
    "unlink(",
    "dirdelete",
    "fileremovedir",
    "state: absent",
    "state=absent",
    // Round 39t: Haskell, other recursive `rm` spellings, a raw device write (`system_wipe.rs`).
    "removedirectoryrecursive",
    "rm -",
    "of=/dev/",
    // Round 41t: AutoIt's `DirRemove`, Dart's `deleteSync(recursive: true)`.
    "dirremove(",
    "deletesync(",
    // Round 42t: C++'s `std::filesystem::remove_all`, xmake's `os.rmdir`, WSH's `DeleteFolder`.
    "remove_all(",
    "os.rmdir(",
    "deletefolder",
];

const WIN_ROOTS: &[&str] = &[
    "%systemroot%",
    "%windir%",
    "c:\\windows",
    "$env:windir",
    "$env:systemroot",
    "c:\\program files",
    "%programfiles%",
    "%programfiles(x86)%",
    "c:\\users",
    "a_windir",
    "%a_windir%",
    "a_programfiles",
    // Round 41t: AutoIt's macros.
    "@windowsdir",
    "@systemdir",
    "@userprofiledir",
    "@programfilesdir",
];
/// Recursive deletes that take their target as an argument.
const DELETES: &[&str] = &[
    "deleterecursively()",
    "rmtree(",
    "rm_rf(",
    "removeall(",
    "remove_dir_all(",
    "rm -rf",
    "rm(",
    "rmsync(",
    "deletedirectory(",
    "rm_rf!(",
    "unlink(",
    // Round 42t: C++'s `std::filesystem::remove_all(p)` (every entry below `p`), xmake's
    // `os.rmdir(p)` (recursive there).
    "remove_all(",
    "os.rmdir(",
];
/// Expressions that are the home folder itself.
const HOME: &[&str] = &[
    "system.getproperty(\"user.home\")",
    "path.home()",
    "os.homedir()",
    "os.path.expanduser(\"~\")",
    "dirs::home_dir()",
    "env::home_dir()",
    "filemanager.default.homedirectoryforcurrentuser",
    // Round 38t: Julia, R, Elixir, .NET.
    "homedir()",
    "path.expand(\"~\")",
    // Round 39t: Haskell's `home <- getHomeDirectory`.
    "gethomedirectory",
    "system.user_home!()",
    "system.user_home()",
    "specialfolder.userprofile)",
    // Round 41t: Dart's `Platform.environment['HOME']`.
    "platform.environment['home']",
    "platform.environment[\"home\"]",
    "platform.environment['userprofile']",
    "platform.environment[\"userprofile\"]",
    // Round 42t: the variable read by name (C/C++ `getenv("HOME")`, Lua/xmake `os.getenv("HOME")`).
    "getenv(\"home\")",
    "getenv('home')",
    "getenv(\"userprofile\")",
    "getenv('userprofile')",
];
static HOME_N: Needles = Needles::new(HOME);

/// Build the home expressions' automaton now (`scan::initialize`).
pub(super) fn initialize() {
    HOME_N.force();
}

const SYSTEM_DIRS: &[&str] = &[
    "\"/\"",
    "\"/etc",
    "\"/usr",
    "\"/var",
    "\"/bin",
    "\"/sbin",
    "\"/boot",
    "\"/lib",
    "\"/opt",
    "\"/root",
    "\"/home\"",
    "'/etc",
    "'/usr",
    "'/var",
    "'/bin",
    "'/boot",
    "'/lib",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if !is_code(f) {
            continue;
        }
        if !has(out, f, "destructive.rm-root-or-home", Severity::Critical)
            && let Some(x) = windows_roots(f).or_else(|| home_value(f))
        {
            out.push(x);
        }
        if !has(out, f, "destructive.system-path-loop", Severity::Critical) {
            out.extend(listed_loop(f).or_else(|| absent_task(f)));
        }
    }
}

fn windows_roots(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        // Round 44t: the command may stand in a string another program hands to `cmd`
        // (`RunWait A_ComSpec ' /c rd /s /q C:\Users'`, `cmd.exe /c rmdir /s …`): read from it.
        let t = cmd_string_delete(l).unwrap_or_else(|| l.trim_start_matches('@'));
        let recursive = ((t.starts_with("rd ") || t.starts_with("rmdir ")) && t.has("/s"))
            || (t.starts_with("del ") || t.starts_with("erase ")) && t.has("/s")
            || (t.starts_with("remove-item") && t.has("-recurse"))
            // AutoHotkey: `DirDelete Dir, true` (v2), `FileRemoveDir, Dir, 1` (v1).
            || ((t.starts_with("dirdelete") || t.starts_with("fileremovedir"))
                && (t.ends_with("true") || t.ends_with(", 1") || t.ends_with(",1")))
            // AutoIt: `DirRemove(dir, 1)` (the flag 1 deletes what the folder holds too).
            || (t.starts_with("dirremove(") && (t.ends_with(", 1)") || t.ends_with(",1)")))
            // Round 42t: WSH's `fso.DeleteFolder "dir", True` (always deletes what it holds).
            || t.has(".deletefolder ")
            || t.has(".deletefolder(");
        if !recursive || t.has("temp") || t.has("\\tmp") {
            continue;
        }
        let Some(root) = WIN_ROOTS.iter().find(|r| {
            t.find(*r).is_some_and(|at| {
                // The folder itself, or a system part of the Windows folder; a cache or update
                // folder below it (`SoftwareDistribution\Download`, `Prefetch`) is cleanup.
                let after = t[at + r.len()..].trim_start_matches(['\\', '"', '\'']);
                let next: String = after
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                after.is_empty()
                    || after.starts_with(['*', ' ', ',', ')'])
                    || matches!(
                        next.as_str(),
                        "system32" | "syswow64" | "system" | "winsxs" | "boot" | "fonts" | "inf"
                    )
            })
        }) else {
            continue;
        };
        return Some(found(
            "destructive.rm-root-or-home",
            "destructive",
            Severity::Critical,
            f,
            i,
            format!(
                "A recursive delete of a Windows system or user folder ({root}): it breaks the machine or erases every user's files."
            ),
            vec![],
        ));
    }
    None
}

/// Round 44t: a `rd /s` / `rmdir /s` that a `/c` or `/k` hands to `cmd` inside a longer line
/// (a string of AutoHotkey, a task's arguments): the text from the command on.
fn cmd_string_delete(l: &str) -> Option<&str> {
    ["/c rd ", "/c rmdir ", "/k rd ", "/k rmdir "]
        .iter()
        .find_map(|w| l.find(w).map(|at| &l[at + 3..]))
}

/// The name a line assigns, when its value is exactly the home folder.
fn home_name(l: &str) -> Option<String> {
    let (left, right) = l.split_once("<-").or_else(|| l.split_once('='))?;
    let right = right.trim().trim_end_matches(';');
    let home = HOME.iter().find(|h| right.has(h))?;
    // Nothing joined below it (`home + "/x"`, `.resolve(…)`, `join(…)`, `/ "x"`).
    let rest = right.replacen(home, "", 1);
    if rest.contains('+')
        || rest.has("resolve")
        || rest.has("join")
        || rest.contains('/')
        || rest.contains(',')
    {
        return None;
    }
    let name = left
        .split_whitespace()
        .last()?
        .trim_start_matches(['$', '&']);
    let name = name.split(':').next().unwrap_or(name);
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| name.to_owned())
}

fn home_value(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        // Both ways need a home expression in the line (`direct` in `l`, `home_name` in the part
        // after its `=` or `<-`): one pass over the line for all of them.
        if !HOME_N.any(l) {
            continue;
        }
        // The home expression deleted on one line (`File(….home).deleteRecursively()`).
        let direct = HOME.iter().any(|h| {
            l.find(h).is_some_and(|at| {
                let after = &l[at + h.len()..];
                after.starts_with(").deleterecursively()")
                    || after.starts_with(".deleterecursively()")
                    // Round 42t: the expression as a recursive delete's whole argument
                    // (`os.rmdir(os.getenv("HOME"))`).
                    || (after.starts_with(')')
                        && DELETES
                            .iter()
                            .any(|d| {
                                let pre = l[..at].trim_end_matches("os.").trim_end_matches("std::");
                                d.ends_with('(') && pre.ends_with(d)
                            }))
            })
        });
        let hit = if direct {
            Some(i)
        } else {
            home_name(l).and_then(|name| {
                (i + 1..(i + 15).min(low.len())).find(|&k| {
                    let t = &low[k];
                    t.contains(&format!("{name}.deleterecursively()"))
                        // Dart's `Directory(home).deleteSync(recursive: true)`.
                        || ["deletesync(recursive: true)", "delete(recursive: true)"]
                            .iter()
                            .any(|d| t.contains(&format!("({name}).{d}")))
                        // Haskell's `removeDirectoryRecursive home` (the name as the argument).
                        || ["removedirectoryrecursive ", "removepathforcibly "].iter().any(|d| {
                            t.find(d).is_some_and(|p| {
                                t[p + d.len()..].split_whitespace().next()
                                    == Some(name.as_str())
                            })
                        })
                        || DELETES.iter().any(|d| {
                            d.ends_with('(')
                                && (t.contains(&format!("{d}{name})"))
                                    || t.contains(&format!("{d}&{name})"))
                                    || t.has(&format!("{d}{name},"))
                                    || t.has(&format!("{d}{name};")))
                        })
                })
            })
        };
        if let Some(k) = hit {
            return Some(found(
                "destructive.rm-root-or-home",
                "destructive",
                Severity::Critical,
                f,
                k,
                format!(
                    "The user's home folder (line {}) is deleted recursively at line {}: every file the user owns.",
                    i + 1,
                    k + 1
                ),
                if k == i {
                    vec![]
                } else {
                    vec![rel("definition", f, i)]
                },
            ));
        }
    }
    None
}

/// A loop header's variable and the list it walks: `for _, d in ipairs(dirs)`, `for d in dirs:`,
/// `for _, d := range dirs {`, `foreach ($d in $dirs)`.
fn loop_parts(l: &str) -> Option<(String, String)> {
    let t = l
        .trim_start_matches("foreach")
        .trim_start_matches("for")
        .trim_start();
    if t.len() == l.len() {
        return None;
    }
    let t = t.trim_start_matches('(');
    let (vars, list) = t.split_once(" in ").or_else(|| t.split_once(":= range "))?;
    let var = vars
        .rsplit([',', ' '])
        .find(|v| !v.is_empty())?
        .trim_start_matches('$');
    let list = list
        .trim_start_matches("ipairs(")
        .trim_start_matches("pairs(")
        .trim_start_matches('$');
    let list: String = list
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!var.is_empty() && !list.is_empty()).then(|| (var.to_owned(), list))
}

fn listed_loop(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        let Some((var, list)) = loop_parts(l) else {
            continue;
        };
        let Some(def) = (i.saturating_sub(8)..i).find(|&k| {
            let t = &low[k];
            t.split_once('=')
                .is_some_and(|(left, _)| has_word(left, &list))
                && SYSTEM_DIRS.iter().any(|d| t.has(d))
        }) else {
            continue;
        };
        let Some(del) = (i..(i + 4).min(low.len())).find(|&k| {
            let t = &low[k];
            DELETES.iter().any(|d| t.has(d)) && has_word(t, &var)
        }) else {
            continue;
        };
        return Some(found(
            "destructive.system-path-loop",
            "destructive",
            Severity::Critical,
            f,
            del,
            format!(
                "A recursive delete of `{var}` (line {}) runs over the list `{list}` named at line {}, which holds a system folder: the loop deletes it.",
                del + 1,
                def + 1
            ),
            vec![rel("definition", f, def), rel("signal", f, i)],
        ));
    }
    None
}

/// Folders whose removal breaks the system or erases every user's files, as a config tool names
/// them (the folder itself, not a file or an application's folder below it).
const WHOLE_SYSTEM_DIRS: &[&str] = &[
    "/",
    "/etc",
    "/usr",
    "/usr/local",
    "/usr/bin",
    "/usr/lib",
    "/usr/share",
    "/var",
    "/var/lib",
    "/bin",
    "/sbin",
    "/boot",
    "/lib",
    "/lib64",
    "/root",
    "/home",
    "/opt",
    "/srv",
];

/// A config-management task that makes a path absent (Ansible `file: … state: absent`, Salt
/// `file.absent`) where the path, or a loop item the task walks (`with_items:`, `loop:`), is a
/// whole system folder.
fn absent_task(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        if !(l.has("state: absent") || l.has("state=absent") || l.has("file.absent")) {
            continue;
        }
        let from = i.saturating_sub(6);
        let to = (i + 12).min(low.len());
        let hit = (from..to).find(|&k| {
            let t = low[k].trim_start_matches("- ").trim();
            let v = t
                .strip_prefix("path:")
                .or_else(|| t.strip_prefix("name:"))
                .or_else(|| t.strip_prefix("dest:"))
                .or_else(|| low[k].trim().strip_prefix("- "))
                .unwrap_or("")
                .trim()
                .trim_matches(['"', '\'']);
            let v = v.strip_suffix('/').filter(|s| !s.is_empty()).unwrap_or(v);
            WHOLE_SYSTEM_DIRS.contains(&v)
        });
        let Some(k) = hit else {
            continue;
        };
        return Some(found(
            "destructive.system-path-loop",
            "destructive",
            Severity::Critical,
            f,
            i,
            format!(
                "A task makes a whole system folder absent (line {}): `{}`. Applying it deletes what the machine needs to run.",
                k + 1,
                low[k].trim()
            ),
            vec![rel("definition", f, k)],
        ));
    }
    None
}
