//! `supply_chain.download-execute` in shapes the line facts do not read as a download and a run:
//!
//! - a process API (`Command::new("curl").args([.., "-o", &path])`, `exec.Command("wget", "-O",
//!   p)`) saving a file that a later process call (`Command::new("sh").arg(&path)`) runs;
//! - a notebook cell (`!wget … -O P`) and a later cell running `P` (`%run P`, `!python P`);
//! - a WSH script saving an HTTP response body (`responseBody` → `.SaveToFile P`) and running `P`
//!   (`.Run P`, `ShellExecute P`);
//! - (round 43t) a WSH script reading an HTTP response's text into a name (`cmd =
//!   http.responseText`) that a later `.Exec(`/`.Run(` runs: commands polled from a host;
//! - a Lua chunk read from a fetching process (`io.popen("curl …"):read`) and `load`ed.
//!
//! From a host that is not a vendor's, installer's or registry's. `critical` when the file is
//! run by a build (`build.rs`), the saved file sits in a temporary place, the run is hidden, or
//! the code runs in memory; `high` otherwise.

use super::{found, has, has_word, is_code, rel, worst_suspicious};
use crate::scan::content::Finding;
use crate::scan::judge::find::Has;
use crate::scan::judge::temp_calls::names_temp;
use crate::scan::judge::{Bundle, File, hosts_in};
use crate::scan::rules::Severity;

const RULE: &str = "supply_chain.download-execute";
/// Lines after a download within which its run is looked for.
const WINDOW: usize = 14;

const RUNNERS: &[&str] = &[
    "\"sh\"",
    "\"bash\"",
    "\"zsh\"",
    "\"python\"",
    "\"python3\"",
    "\"node\"",
    "\"powershell\"",
    "\"pwsh\"",
    "\"cmd\"",
    "\"perl\"",
    "\"ruby\"",
];
const TEMP: &[&str] = &[
    "/tmp/",
    "%temp%",
    "temp\\",
    "$tmpdir",
    "gettempname",
    "tmpdir",
    "runner_temp",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if f.place.test || has(out, f, RULE, Severity::Critical) {
            continue;
        }
        let found = if f.path.to_ascii_lowercase().ends_with(".ipynb") {
            notebook(f)
        } else if is_code(f) {
            process_api(f)
                .or_else(|| wsh(f))
                .or_else(|| wsh_text(f))
                .or_else(|| lua_load(f))
        } else {
            None
        };
        out.extend(found);
    }
}

fn url_host_near(f: &File<'_>, from: usize, to: usize) -> Option<super::Host> {
    let lines = &f.lowered().lines;
    let to = to.min(lines.len());
    let near = lines[from..to].join("\n");
    worst_suspicious(&hosts_in(&near)).cloned().or_else(|| {
        let hosts = hosts_in(f.content);
        let vendor = hosts.iter().any(|h| !super::suspicious(h.class));
        (!vendor)
            .then(|| worst_suspicious(&hosts).cloned())
            .flatten()
    })
}

/// The name a process-API download saves to: the argument after `"-o"` / `"-O"` / `"--output"`.
fn output_name(lower: &str) -> Option<String> {
    for flag in [
        "\"-o\"",
        "\"-O\"",
        "\"--output\"",
        "\"-so\"",
        "\"-sslo\"",
        "\"-fsslo\"",
        "\"-sslfo\"",
    ] {
        let flag = flag.to_ascii_lowercase();
        if let Some(i) = lower.find(&flag) {
            let rest = lower[i + flag.len()..].trim_start_matches([',', ' ']);
            let rest = rest.trim_start_matches(['&', '*']);
            let name: String = rest
                .trim_start_matches('"')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-'))
                .collect();
            let name = name.rsplit('/').next().unwrap_or("").to_owned();
            if !name.is_empty() {
                return Some(name);
            }
        }
    }
    None
}

/// Round 48t: whether `name` was assigned a temporary place on one of the few lines above `at`
/// (`let tmp = "/tmp/x.sh"`, then `"-o", tmp`).
fn assigned_temp(low: &[String], at: usize, name: &str) -> bool {
    low[at.saturating_sub(8)..at].iter().any(|l| {
        l.split_once('=').is_some_and(|(left, right)| {
            has_word(left, name) && (TEMP.iter().any(|w| right.has(w)) || names_temp(right))
        })
    })
}

fn process_api(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        if !(l.has("\"curl\"") || l.has("\"wget\"")) {
            continue;
        }
        // The arguments may follow on the next lines.
        let args = low[i..(i + 4).min(low.len())].join(" ");
        let Some(name) = output_name(&args) else {
            continue;
        };
        let Some(run) = (i + 1..(i + WINDOW).min(low.len())).find(|&k| {
            let t = &low[k];
            RUNNERS.iter().any(|r| t.has(r)) && has_word(t, &name)
                || (t.has("command::new(&") || t.has("exec.command(")) && has_word(t, &name)
        }) else {
            continue;
        };
        let host = url_host_near(f, i, i + 5)?;
        // Round 41t: the build definitions of Gradle, sbt and Zig run the same way as Cargo's.
        let p = f.path.to_ascii_lowercase();
        let build = [
            "build.rs",
            "build.gradle",
            "build.gradle.kts",
            "settings.gradle.kts",
            "build.sbt",
            "build.zig",
        ]
        .iter()
        .any(|n| p.ends_with(n));
        // Round 46t: a file saved in a temporary place (the module's rule; the process-API shape
        // did not read it).
        // Round 50k: or a temporary folder the program asks its language for (`os.TempDir()`).
        let temp =
            TEMP.iter().any(|w| args.has(w)) || names_temp(&args) || assigned_temp(low, i, &name);
        let sev = if build || temp {
            Severity::Critical
        } else {
            Severity::High
        };
        let when = if build {
            " by the build script (it runs on every build, before anyone reads it)"
        } else if temp {
            ", saved in a temporary place"
        } else {
            ""
        };
        return Some(found(
            RULE,
            "supply_chain",
            sev,
            f,
            run,
            format!(
                "A file is downloaded from {} ({}) through a process call at line {} and run by another process call at line {}{when}. Whatever that host serves runs with the user's rights.",
                host.host,
                host.class.phrase(),
                i + 1,
                run + 1
            ),
            vec![rel("download", f, i), rel("execute", f, run)],
        ));
    }
    None
}

/// A notebook line's code: the JSON string's text without quotes, `\n` and the trailing comma.
fn cell_code(lower: &str) -> &str {
    lower
        .trim_end_matches(',')
        .trim_matches('"')
        .trim_end_matches("\\n")
        .trim()
}

fn notebook(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        let code = cell_code(l);
        if !(code.starts_with("!wget") || code.starts_with("!curl")) {
            continue;
        }
        let words: Vec<&str> = code.split_whitespace().collect();
        let Some(path) = words
            .iter()
            .position(|w| matches!(*w, "-o" | "-O" | "--output" | "--output-document"))
            .and_then(|p| words.get(p + 1))
            .map(|p| p.trim_matches(['"', '\'']))
        else {
            continue;
        };
        let Some(run) = (i + 1..low.len()).find(|&k| {
            let c = cell_code(&low[k]);
            (c.starts_with("%run ")
                || c.starts_with("!python")
                || c.starts_with("!bash ")
                || c.starts_with("!sh ")
                || c.starts_with("exec(open("))
                && c.has(path)
        }) else {
            continue;
        };
        let host = url_host_near(f, i, i + 1)?;
        let hidden = TEMP.iter().any(|t| path.has(t))
            || path
                .split('/')
                .any(|c| c.len() > 1 && c.starts_with('.') && !c.starts_with(".."));
        let sev = if hidden || host.class > crate::scan::hosts::HostClass::Unknown {
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
                "A notebook cell downloads {path} from {} ({}) at line {} and a later cell runs it at line {}{}. Running the notebook runs whatever that host serves.",
                host.host,
                host.class.phrase(),
                i + 1,
                run + 1,
                if hidden {
                    ", from a temporary or hidden place"
                } else {
                    ""
                }
            ),
            vec![rel("download", f, i), rel("execute", f, run)],
        ));
    }
    None
}

fn wsh(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    if !low.iter().any(|l| l.has("responsebody")) {
        return None;
    }
    let (save, name) = low.iter().enumerate().find_map(|(i, l)| {
        let at = l.find(".savetofile")?;
        let name: String = l[at + ".savetofile".len()..]
            .trim_start_matches(['(', ' '])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty()).then_some((i, name))
    })?;
    let run = (save + 1..low.len()).find(|&k| {
        let l = &low[k];
        (l.has(".run ") || l.has(".run(") || l.has("shellexecute") || l.has(".exec("))
            && has_word(l, &name)
    })?;
    let host = url_host_near(f, 0, low.len())?;
    let hidden_run = low[run].has(", 0");
    let temp = low
        .iter()
        .any(|l| has_word(l, &name) && l.contains('=') && TEMP.iter().any(|t| l.has(t)));
    let sev = if hidden_run || temp {
        Severity::Critical
    } else {
        Severity::High
    };
    Some(found(
        RULE,
        "supply_chain",
        sev,
        f,
        run,
        format!(
            "A script saves an HTTP response from {} ({}) to `{name}` (line {}) and runs it (line {}){}{}.",
            host.host,
            host.class.phrase(),
            save + 1,
            run + 1,
            if temp {
                ", from the temporary folder"
            } else {
                ""
            },
            if hidden_run {
                ", in a hidden window"
            } else {
                ""
            }
        ),
        vec![rel("download", f, save), rel("execute", f, run)],
    ))
}

fn lua_load(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        if !(l.has("popen(") && (l.has("curl") || l.has("wget"))) {
            continue;
        }
        let handle: String = l
            .split('=')
            .next()
            .unwrap_or("")
            .trim()
            .trim_start_matches("local ")
            .trim()
            .to_owned();
        let end = (i + WINDOW).min(low.len());
        // `body = h:read("*a")` (or the read on the popen line itself).
        let mut values: Vec<String> = Vec::new();
        for t in &low[i..end] {
            if t.has(":read(")
                && t.contains('=')
                && (t.has("popen(")
                    || (!handle.is_empty() && t.contains(&format!("{handle}:read("))))
            {
                let v = t
                    .split('=')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .trim_start_matches("local ")
                    .trim();
                if !v.is_empty() {
                    values.push(v.to_owned());
                }
            }
        }
        let Some(run) = (i..end).find(|&k| {
            let t = &low[k];
            values
                .iter()
                .any(|v| t.contains(&format!("load({v}")) || t.contains(&format!("loadstring({v}")))
        }) else {
            continue;
        };
        let url = low[i..end].join("\n") + "\n" + &low[..i].join("\n");
        let host = worst_suspicious(&hosts_in(&url)).cloned()?;
        return Some(critical_run(
            f,
            i,
            run,
            format!(
                "Code is read from a process fetching {} ({}) at line {} and loaded as code at line {}: it runs in memory, never saved where it could be read.",
                host.host,
                host.class.phrase(),
                i + 1,
                run + 1
            ),
        ));
    }
    None
}

/// Round 43t: a WSH script's HTTP response text bound to a name (`var cmd = http.responseText`)
/// that a later line within [`WINDOW`] runs (`sh.Exec("cmd /c " + cmd)`, `.Run(cmd)`): whatever the
/// host answers runs as a command. From a host that is not a vendor's, installer's or registry's.
fn wsh_text(f: &File<'_>) -> Option<Finding> {
    if !f.lower_all().has("responsetext") {
        return None;
    }
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        let Some(at) = l.find(".responsetext") else {
            continue;
        };
        let Some((left, _)) = l[..at].rsplit_once('=') else {
            continue;
        };
        let name = left.split_whitespace().last().unwrap_or("");
        if name.len() < 2 || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let end = (i + WINDOW).min(low.len());
        let Some(run) = (i + 1..end).find(|&k| {
            let t = &low[k];
            (t.has(".exec(") || t.has(".run(") || t.has("shellexecute")) && has_word(t, name)
        }) else {
            continue;
        };
        let host = url_host_near(f, i.saturating_sub(4), i + 1)?;
        return Some(critical_run(
            f,
            i,
            run,
            format!(
                "A script reads the text an HTTP request to {} ({}) answers into `{name}` (line {}) and runs it as a command (line {}): whatever that host sends runs on this machine.",
                host.host,
                host.class.phrase(),
                i + 1,
                run + 1
            ),
        ));
    }
    None
}

/// A `critical` download-execute finding at the run (line index `run`), the fetch at `i` related.
fn critical_run(f: &File<'_>, i: usize, run: usize, why: String) -> Finding {
    found(
        RULE,
        "supply_chain",
        Severity::Critical,
        f,
        run,
        why,
        vec![rel("download", f, i), rel("execute", f, run)],
    )
}
