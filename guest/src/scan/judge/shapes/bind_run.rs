//! Round 42t (sets42t): `network.reverse-shell` as a bind shell written with a runtime's listener
//! API: a listener bound to every interface (`0.0.0.0`, `::`) and, within a few lines, a shell run
//! on what a connection sends (`Bun.spawnSync(["sh", "-c", data.toString()])`,
//! `subprocess.run(line, shell=True)`): anyone who can reach the port types the commands. A
//! listener on a loopback address, or a handler that runs a fixed command, is not this.

use super::{found, has, is_code, rel};
use crate::scan::content::Finding;
use crate::scan::judge::Bundle;
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &["0.0.0.0"];
/// Lines around the bind within which the listener and the runner are looked for.
const WINDOW: usize = 12;
/// Listener calls.
const LISTENS: &[&str] = &[
    ".listen(",
    "createserver(",
    "start_server(",
    "serve(",
    "tcplistener::bind(",
    "net.listen(",
    // Round 45t: Crystal's `TCPServer.new("0.0.0.0", p)`.
    "tcpserver.new(",
];
/// A shell run with a text as its command.
const SHELLS: &[&str] = &[
    "[\"sh\", \"-c\",",
    "['sh', '-c',",
    "[\"bash\", \"-c\",",
    "['bash', '-c',",
    "shell=true",
    "execsync(",
    "create_subprocess_shell(",
    "os.system(",
    // Round 45t: a shell and its `-c` as a program and an argument list (Crystal's
    // `Process.run("sh", ["-c", line])`).
    "\"sh\", [\"-c\",",
    "\"bash\", [\"-c\",",
];
/// Names a handler gives what a connection sent.
const RECEIVED: &[&str] = &["data", "chunk", "line", "msg", "buf", "payload", "cmd"];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if !is_code(f)
            || !f.lower_all().has("0.0.0.0")
            || has(out, f, "network.reverse-shell", Severity::Critical)
        {
            continue;
        }
        let low = &f.lowered().lower;
        let Some(bind) = low
            .iter()
            .position(|l| l.has("\"0.0.0.0\"") || l.has("'0.0.0.0'"))
        else {
            continue;
        };
        let s = bind.saturating_sub(WINDOW);
        let e = (bind + WINDOW).min(low.len());
        let Some(listen) = (s..e).find(|&k| LISTENS.iter().any(|w| low[k].has(w))) else {
            continue;
        };
        let run = (s..e).find(|&k| {
            let l = &low[k];
            let bare = bare_exec(l);
            (SHELLS.iter().any(|w| l.has(w)) || bare.is_some()) && {
                // The command is what came in: a received name as a whole word on the line,
                // after the shell words.
                let at = SHELLS
                    .iter()
                    .filter_map(|w| l.find(w))
                    .chain(bare)
                    .min()
                    .unwrap_or(0);
                // Round 46t: a call left open at the line's end (`create_subprocess_shell(`) takes
                // its command from the next line.
                let open = l.trim_end().ends_with(['(', ',']);
                let next = if open {
                    low.get(k + 1).map_or("", |x| x.as_str())
                } else {
                    ""
                };
                RECEIVED
                    .iter()
                    .any(|r| super::has_word(&l[at..], r) || super::has_word(next, r))
            }
        });
        let Some(run) = run else {
            continue;
        };
        out.push(found(
            "network.reverse-shell",
            "network",
            Severity::Critical,
            f,
            run,
            format!(
                "A listener bound to every network interface (line {}) runs what a connection sends as a shell command (line {}): a bind shell, anyone who reaches the port types the commands.",
                bind + 1,
                run + 1
            ),
            vec![rel("source", f, bind), rel("signal", f, listen)],
        ));
    }
}

/// Round 44t: Node's `child_process` `exec(text, cb)` called bare or through the module
/// (`exec(`, `child_process.exec(`, `cp.exec(`; it runs its text in a shell): where it starts. A
/// method `exec` of another object (`pattern.exec(line)`, a regular expression) is not this.
fn bare_exec(l: &str) -> Option<usize> {
    l.match_indices("exec(").map(|(at, _)| at).find(|&at| {
        let before = &l[..at];
        let prev = before.chars().next_back();
        prev.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$'))
            || before.ends_with("child_process.")
            || before.ends_with("cp.")
    })
}
