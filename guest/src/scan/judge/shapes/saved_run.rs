//! Round 45t (sets45t): `supply_chain.download-execute` for a body fetched from a stranger's host,
//! saved to a file by the language's own call, and that file then run — the shape of Nim
//! (`downloadFile(url, dest)` → `execShellCmd(dest)`), Go (`http.Get` → `os.WriteFile(p, b, 0o755)`
//! → `exec.Command(p)`), Crystal (`HTTP::Client.get` → `File.write(path, body, perm: 0o755)` →
//! `Process.run(path)`) and Racket (`get-pure-port` → `call-with-output-file p` → `(system "sh
//! p")`), which the line facts do not read as a download and a run; round 46t: V
//! (`http.download_file(url, p)` → `os.execute(p)`) and Octave/MATLAB (`f = urlwrite(url, p)` →
//! `system(['sh ' f])`).
//!
//! The saved name is the save call's target (a string literal or an identifier); the run must
//! start with it (directly or as the script of `sh`/`bash`), not merely mention it — a file read
//! back or handed to `cat` is not run. The fetch is a fetch call from [`ABOVE`] lines above the
//! save up to the run, and a host that is not a vendor's, an installer's or a registry's is named
//! on those lines. `critical` when the file sits in a temporary place or is made
//! executable; `high` otherwise. One pass over a code file's lowered lines after a whole-file
//! gate; windows are bounded.

use super::{found, has, is_code, rel, worst_suspicious};
use crate::scan::content::Finding;
use crate::scan::judge::find::Has;
use crate::scan::judge::temp_calls::names_temp;
use crate::scan::judge::{Bundle, File, hosts_in};
use crate::scan::rules::Severity;

const RULE: &str = "supply_chain.download-execute";

/// Words without one of which this rule cannot fire (the save calls).
pub(super) const RAW: &[&str] = &[
    "downloadfile(",
    "file.write(",
    "writefile(",
    "call-with-output-file",
    "file.writeallbytes(",
    // Round 45t, round 44t's open cases: Haskell's `L.writeFile path body` and Zig's
    // `createFile("/tmp/x", …)` (the fetch may fill the file on the lines below it).
    "writefile ",
    "createfile(",
    // Round 46t: V's `http.download_file(url, path)`, Octave/MATLAB's `urlwrite(url, path)` and
    // `websave(path, url)` (both return the saved path: `f = urlwrite(…)`).
    "download_file(",
    "urlwrite(",
    "websave(",
];

/// Lines above a save within which its fetch is looked for.
const ABOVE: usize = 8;
/// Lines after a save within which its run is looked for.
const WINDOW: usize = 10;

/// Calls that fetch a body over the network.
const FETCH: &[&str] = &[
    "downloadfile(",
    "http::client.get(",
    "http.get(",
    "get-pure-port",
    "get-impure-port",
    "httpc:request(",
    "getcontent(",
    "urlopen(",
    "requests.get(",
    "fetch(",
    "httpget(",
    "readallbytes(",
    "httplbs",
    "httpbs ",
    // Round 46t: the save calls that fetch (V, Octave/MATLAB).
    "download_file(",
    "urlwrite(",
    "websave(",
];

/// Calls that run a program, followed by the program.
const RUNS: &[&str] = &[
    "execshellcmd(",
    "execprocess(",
    "startprocess(",
    "execcmd(",
    "process.run(",
    "process.new(",
    "process.exec(",
    "exec.command(",
    "exec.commandcontext(ctx, ",
    "(system ",
    "(system* ",
    "(process ",
    "os.execute(",
    "system(",
    "spawn(",
    "callprocess ",
    "child.init(&.{",
];

/// Interpreters a saved script may be handed to.
const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "python3", "python", "perl", "ruby", "node",
];

/// Words that make a saved file executable.
const EXEC_BIT: &[&str] = &[
    "fpuserexec",
    "0o755",
    "0o700",
    "0755",
    "0700",
    "chmod",
    "+x",
    "setfilepermissions",
    "setownerexecutable",
];
/// Words of a temporary place.
const TEMP: &[&str] = &[
    "/tmp",
    "gettempdir",
    "tempdir",
    "%temp%",
    "temp_dir",
    "tmpdir",
];

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
    c.is_ascii_alphanumeric() || c == '_'
}

/// The target of a save call on line `l`: a path literal or an identifier.
fn target(l: &str) -> Option<String> {
    let (call, arg) = RAW
        .iter()
        .find_map(|w| l.find(w).map(|at| (*w, &l[at + w.len()..])))?;
    // Round 46t: a call that returns the saved path, assigned (`f = urlwrite(…)`): that name.
    if matches!(call, "urlwrite(" | "websave(")
        && let Some(w) = l[..l.find(call)?]
            .trim_end()
            .strip_suffix('=')
            .map(|x| x.trim().rsplit([' ', '\t']).next().unwrap_or(""))
            .filter(|w| !w.is_empty() && w.chars().all(ident))
    {
        return Some(w.to_owned());
    }
    let raw = if call == "downloadfile(" || call == "download_file(" || call == "urlwrite(" {
        arg.split(')').next()?.split(',').nth(1)?
    } else if call == "call-with-output-file" || call == "writefile " {
        arg.split_whitespace().next()?
    } else {
        arg.split([',', ')']).next()?
    };
    let t = raw.trim().trim_matches(['"', '\'', '`']);
    let literal = raw.trim().starts_with(['"', '\'']);
    let ok = if literal {
        t.contains('/') || t.contains('\\') || t.contains('.')
    } else {
        !t.is_empty() && t.chars().all(ident) && !t.chars().all(|c| c.is_ascii_digit())
    };
    ok.then(|| t.to_owned())
}

/// Whether the run call at `at` in `l` runs `name` (first, or as the script of a shell).
fn runs(l: &str, name: &str) -> bool {
    RUNS.iter().any(|w| {
        let mut from = 0;
        while let Some(at) = l[from..].find(w).map(|p| p + from) {
            from = at + w.len();
            // `system(` inside `os.system(` or `subprocess(` is still a run; a longer identifier
            // (`filesystem(`) is not.
            if w.starts_with(char::is_alphabetic)
                && l[..at].chars().next_back().is_some_and(ident)
                && !l[..at].ends_with('.')
            {
                continue;
            }
            let rest = l[from..].trim_start_matches(|c: char| "\"'[({ ".contains(c));
            let rest = SHELLS
                .iter()
                .find_map(|s| {
                    rest.strip_prefix(s)
                        .filter(|r| r.starts_with(|c: char| !ident(c)))
                })
                .map_or(rest, |r| {
                    r.trim_start_matches(|c: char| "\"', ".contains(c))
                        .trim_start_matches("-c ")
                });
            if rest
                .strip_prefix(name)
                .is_some_and(|r| !r.starts_with(ident))
            {
                return true;
            }
        }
        false
    })
}

fn scan(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        let t = l.trim_start();
        if t.starts_with('#') || t.starts_with("//") || t.starts_with(';') {
            continue;
        }
        let Some(name) = target(l) else {
            continue;
        };
        let from = i.saturating_sub(ABOVE);
        let Some(run) = (i + 1..(i + 1 + WINDOW).min(low.len())).find(|&k| runs(&low[k], &name))
        else {
            continue;
        };
        // The fetch stands above the save, or between the save and the run (a file opened first
        // and filled by the fetch: Zig's `createFile` then `client.fetch`).
        let Some(fetch) = (from..run).find(|&k| FETCH.iter().any(|w| low[k].has(w))) else {
            continue;
        };
        let near = f.lowered().lines[from..run].join("\n");
        let hosts = hosts_in(&near);
        let Some(host) = worst_suspicious(&hosts) else {
            continue;
        };
        let span = low[from..=run].join("\n");
        // Round 50k: or a temporary folder the program asks its language for
        // (`Path.GetTempPath()`).
        let temp = TEMP.iter().any(|w| span.has(w)) || names_temp(&span);
        let exec = EXEC_BIT.iter().any(|w| span.has(w));
        let sev = if temp || exec {
            Severity::Critical
        } else {
            Severity::High
        };
        let how = match (temp, exec) {
            (true, true) => " (saved in a temporary place and made executable)",
            (true, false) => " (saved in a temporary place)",
            (false, true) => " (made executable)",
            (false, false) => "",
        };
        return Some(found(
            RULE,
            "supply_chain",
            sev,
            f,
            run,
            format!(
                "{}:{}: a body fetched from {} ({}) at line {} is saved as `{name}` at line {}{how} and run at line {}. Whatever that host serves runs with the user's rights.",
                f.path,
                run + 1,
                host.host,
                host.class.phrase(),
                fetch + 1,
                i + 1,
                run + 1
            ),
            vec![
                rel("download", f, fetch),
                rel("write", f, i),
                rel("execute", f, run),
            ],
        ));
    }
    None
}
