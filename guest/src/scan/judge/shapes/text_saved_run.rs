//! Round 47t (sets47t): `supply_chain.download-execute` for a downloader written as text inside a
//! language's own process call — `curl … -o PATH` / `wget … -O PATH` handed to Ada's `Spawn`,
//! Janet's `os/shell`, a COBOL `CALL "SYSTEM"` — or a download property (`download_file = "…"`,
//! Godot's `HTTPRequest`), and that saved file then run by a later process call of the same file:
//! as the call's program (`OS.execute(p, …)`, `(os/execute [p])`), as the script of a shell
//! (`(os/execute ["sh" tmp] :p)`), or as the argument list a shell call is handed on the line just
//! above (`Args := Argument_String_To_List ("/tmp/x.sh");` then `Spawn ("/bin/sh", Args.all, Ok)`).
//! The line facts read neither the string's downloader as a fetch nor the process call as a run.
//!
//! The saved name is the path after the output flag (a literal, or the identifier a string is
//! joined with: `-o " tmp`), and names assigned on later lines from that literal
//! (`var p := globalize_path("user://packer")`). A file only unpacked, listed or hashed after the
//! download is not run. The host, on the download line or the lines around it, is not a vendor's,
//! installer's or registry's. `critical` when the file sits in a temporary place or is made
//! executable; `high` otherwise. One pass over a code file's lowered lines after a whole-file gate;
//! windows are bounded.

use super::{found, has, is_code, rel, worst_suspicious};
use crate::scan::content::Finding;
use crate::scan::judge::find::Has;
use crate::scan::judge::{Bundle, File, hosts_in};
use crate::scan::rules::Severity;

const RULE: &str = "supply_chain.download-execute";

/// Words without one of which this rule cannot fire (an output flag, a download property).
pub(super) const RAW: &[&str] = &[
    "-o ",
    "--output ",
    "download_file =",
    // Round 48t: the flag as an element of an argument list (`{ 'curl', '-o', p, url }`).
    "\"-o\",",
    "'-o',",
    "\"--output\",",
    "'--output',",
];
/// Round 48t: output flags written as an element of an argument list, each followed by the saved
/// path as the next element (a literal or a name).
const LIST_FLAGS: &[&str] = &["\"-o\",", "'-o',", "\"--output\",", "'--output',"];

/// Lines around a download within which its host is looked for.
const AROUND: usize = 8;
/// Lines after a download within which its run is looked for.
const WINDOW: usize = 12;

/// Downloaders named in the text of a process call.
const DOWNLOADERS: &[&str] = &["curl", "wget"];
/// Output flags, each followed by the saved path.
const FLAGS: &[&str] = &["--output ", " -o ", "\"-o ", "'-o "];
/// Process calls, followed by their program or argument list.
const RUNS: &[&str] = &[
    "spawn (",
    "spawn(",
    "os.execute(",
    "os/execute ",
    "os/spawn ",
    "os/shell ",
    "execute(",
    "system(",
    "call \"system\" using ",
    "popen(",
    "shell_exec(",
    "startprocess(",
    "process.start(",
    // Round 48t: WezTerm's `run_child_process { prog, … }`, Gleam shellout's `command(run: prog, …)`.
    "run_child_process",
    "command(run:",
];
/// Shells a saved script may be handed to (as a call's first argument).
const SHELLS: &[&str] = &["sh", "bash", "/bin/sh", "/bin/bash", "/usr/bin/bash", "zsh"];
/// Words that make a saved file executable.
const EXEC_BIT: &[&str] = &["chmod", "+x", "0o755", "0755", "0o700", "0700"];
/// Words of a temporary place.
const TEMP: &[&str] = &["/tmp", "%temp%", "$env:temp", "tmpdir", "gettempdir"];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if !is_code(f)
            || !f.words().any(RAW)
            || has(out, f, RULE, Severity::High)
            || has(b.prior, f, RULE, Severity::High)
        {
            continue;
        }
        if let Some(x) = scan(f) {
            out.push(x);
        }
    }
}

fn ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// The path a downloader on line `i` saves to (a literal path, or the identifier a string is
/// joined with), or the literal a download property is set to.
fn saved(low: &[String], i: usize) -> Option<String> {
    let l = &low[i];
    if let Some(at) = l.find("download_file =") {
        let v = l[at + "download_file =".len()..].trim();
        let v = v.strip_prefix('"')?;
        return Some(v.split('"').next()?.to_owned()).filter(|s| !s.is_empty());
    }
    // The downloader is named on this line or the one below (an argument list built first).
    let near = (i.saturating_sub(1)..(i + 2).min(low.len()))
        .any(|k| DOWNLOADERS.iter().any(|d| low[k].has(d)));
    if !near {
        return None;
    }
    let Some((flag, at)) = FLAGS.iter().find_map(|w| l.find(w).map(|at| (*w, at))) else {
        return list_saved(l);
    };
    let rest = &l[at + flag.len()..];
    let rest = rest.trim_start();
    // `-o " tmp` — the string ends and a name is joined on.
    if let Some(r) = rest.strip_prefix(['"', '\'']) {
        let r = r.trim_start_matches([' ', ')', '+', '.', ',']);
        let w: String = r.chars().take_while(|&c| ident(c)).collect();
        return (!w.is_empty() && w.chars().any(|c| c.is_ascii_alphabetic())).then_some(w);
    }
    let p: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && !"\"'`),;]".contains(*c))
        .collect();
    (p.len() > 1 && (p.contains('/') || p.contains('.') || p.chars().all(ident))).then_some(p)
}

/// Round 48t: the path after an output flag written as a list element (`'-o', helper,`,
/// `"-o", "/tmp/x.sh",`): the next element, a literal's text or a name.
fn list_saved(l: &str) -> Option<String> {
    let (flag, at) = LIST_FLAGS
        .iter()
        .find_map(|w| l.find(w).map(|at| (*w, at)))?;
    let rest = l[at + flag.len()..].trim_start();
    if let Some(r) = rest.strip_prefix(['"', '\'']) {
        let p: String = r.chars().take_while(|c| !"\"'".contains(*c)).collect();
        return (p.len() > 1).then_some(p);
    }
    let w: String = rest.chars().take_while(|&c| ident(c)).collect();
    (!w.is_empty() && w.chars().any(|c| c.is_ascii_alphabetic())).then_some(w)
}

/// A name a line assigns from an expression holding `lit` (`var p := f("lit")`, `p = "lit"`).
fn alias(l: &str, lit: &str) -> Option<String> {
    let at = l.find(lit)?;
    let head = &l[..at];
    let eq = head.rfind('=')?;
    let left = head[..eq].trim_end().trim_end_matches(':').trim_end();
    let w: String = left
        .chars()
        .rev()
        .take_while(|&c| ident(c))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    (!w.is_empty() && w.chars().any(|c| c.is_ascii_alphabetic()) && w != lit).then_some(w)
}

/// The first argument after a process call word in `l`, its quotes and brackets removed.
fn first_args(l: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for w in RUNS {
        let mut from = 0;
        while let Some(at) = l[from..].find(w).map(|p| p + from) {
            from = at + w.len();
            let rest = l[from..].trim_start_matches(|c: char| "\"'[({ ".contains(c));
            out.push(rest);
        }
    }
    out
}

/// Whether `arg` (the text after a call word) starts with `name` as a whole token.
fn starts_with_name(arg: &str, name: &str) -> bool {
    arg.strip_prefix(name)
        .is_some_and(|r| !r.starts_with(|c: char| ident(c) || c == '.' && name.contains('/')))
}

/// Whether line `k` runs one of `names`: as its call's program, as the script of a shell, or as
/// the argument list built on the line above a shell call.
fn runs(low: &[String], k: usize, names: &[String]) -> bool {
    for arg in first_args(&low[k]) {
        if names.iter().any(|n| starts_with_name(arg, n)) {
            return true;
        }
        let Some(shell) = SHELLS.iter().find(|s| {
            arg.strip_prefix(**s)
                .is_some_and(|r| r.starts_with(['"', '\'', ' ', ',']))
        }) else {
            continue;
        };
        let after = arg[shell.len()..].trim_start_matches(|c: char| "\"', ".contains(c));
        // Round 48t: a labelled argument list (`with: [tmp]`, Gleam's shellout).
        let after = after
            .strip_prefix("with:")
            .map_or(after, |r| r.trim_start_matches([' ', '[']));
        if names.iter().any(|n| starts_with_name(after, n)) {
            return true;
        }
        // The shell's arguments were built on the line above (and only there).
        if k > 0
            && !DOWNLOADERS.iter().any(|d| low[k - 1].has(d))
            && names.iter().any(|n| has_token(&low[k - 1], n))
        {
            return true;
        }
    }
    false
}

/// Whether `name` stands in `l` as a whole token.
fn has_token(l: &str, name: &str) -> bool {
    l.match_indices(name).any(|(at, _)| {
        let before = l[..at].chars().next_back();
        let after = l[at + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

fn scan(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for i in 0..low.len() {
        let t = low[i].trim_start();
        if t.starts_with('#') || t.starts_with("//") || t.starts_with(';') || t.starts_with("--") {
            continue;
        }
        let Some(name) = saved(low, i) else {
            continue;
        };
        let from = i.saturating_sub(AROUND);
        let to = (i + AROUND + 1).min(low.len());
        let near = f.lowered().lines[from..to].join("\n");
        let hosts = hosts_in(&near);
        let Some(host) = worst_suspicious(&hosts) else {
            continue;
        };
        let end = (i + 1 + WINDOW).min(low.len());
        let mut names = vec![name.clone()];
        let mut run = None;
        for k in i + 1..end {
            if let Some(a) = alias(&low[k], &name)
                && !names.contains(&a)
            {
                names.push(a);
            }
            if runs(low, k, &names) {
                run = Some(k);
                break;
            }
        }
        let Some(run) = run else {
            continue;
        };
        let span = low[from..=run].join("\n");
        let temp = TEMP.iter().any(|w| span.has(w));
        let exec = EXEC_BIT.iter().any(|w| span.has(w));
        let sev = if temp || exec {
            Severity::Critical
        } else {
            Severity::High
        };
        return Some(found(
            RULE,
            "supply_chain",
            sev,
            f,
            run,
            format!(
                "{}:{}: a downloader in the text of a process call fetches from {} ({}) and saves `{name}` at line {}; a later process call runs it at line {}{}. Whatever that host serves runs with the user's rights.",
                f.path,
                run + 1,
                host.host,
                host.class.phrase(),
                i + 1,
                run + 1,
                match (temp, exec) {
                    (true, true) => " (saved in a temporary place and made executable)",
                    (true, false) => " (saved in a temporary place)",
                    (false, true) => " (made executable)",
                    (false, false) => "",
                }
            ),
            vec![rel("download", f, i), rel("execute", f, run)],
        ));
    }
    None
}
