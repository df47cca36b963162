//! Servers and installers that open the host up (round 31c, scan34).
//!
//! - `execution.exposed-runner` (`critical`): a server bound to every interface (`0.0.0.0`) whose
//!   handler, in the same script or in a local module it imports, runs what it receives: `exec`/
//!   `eval` of a name, a shell run of a name, or `node`/`python` started on a written file. A
//!   "benchmark grader" or "probe" built like that is a remote shell for anyone who reaches the
//!   port. Loopback servers, fixed commands and servers that run nothing are left alone.
//! - `exfiltration.home-served` (`critical`): a static file server whose folder is the home folder
//!   or the file-system root, bound to every interface (Python's `http.server` binds all by
//!   default): keys, cloud credentials and agent tokens on the network.
//! - `exfiltration.call-count-switch` (`critical`): a counter raised on every call and, once past a
//!   threshold, a read of a credential file: a tool that behaves while it is being watched and then
//!   turns (a rug pull).
//! - `persistence.real-home-escape` (`critical`): a script that resolves a home folder past `$HOME`
//!   (the password database, `getent passwd`, `dscl … NFSHomeDirectory`, a loop over `/home/*`)
//!   and installs a cron line, a LaunchAgent or a systemd unit there: it escapes a sandboxed
//!   `$HOME` or reaches other users to persist. The user's own `$HOME` is left alone.
//!
//! One pass over each code file's lowered lines; imports are matched by file stem: linear in bytes.

use super::Bundle;
use super::pair::{End, push};
use crate::scan::content::{FileKind, Finding};
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

/// Words one of these rules needs on a lone text before it can fire (`prose::reads_raw_text`).
pub(crate) fn raw_words() -> impl Iterator<Item = &'static str> {
    [
        "0.0.0.0",
        "http.server",
        "http-server",
        "simplehttprequesthandler",
        "+= 1",
        "++",
    ]
    .into_iter()
    .chain(ESCAPES.iter().copied())
}

/// A bind to every interface.
fn binds_all(l: &str) -> bool {
    let quoted = l.has("'0.0.0.0'") || l.has("\"0.0.0.0\"") || l.has("`0.0.0.0`");
    quoted || l.has("--bind 0.0.0.0") || l.has("-b 0.0.0.0") || l.has("host=0.0.0.0")
}

/// What a handler receives from the network.
const RECEIVES: &[&str] = &[
    "rfile.read",
    "req.body",
    "request.body",
    "request.get_data",
    "request.data",
    "request.json",
    "request.form",
    "req.on('data'",
    "req.on(\"data\"",
    "on('message'",
    "on(\"message\"",
    "async for msg in",
    "async for message in",
    ".recv(",
    "await request.",
];

/// The name a call runs, when its first argument is a bare name (not a literal).
fn runs_a_name(l: &str) -> bool {
    const CALLS: &[&str] = &[
        "exec(",
        "eval(",
        "execsync(",
        "new function(",
        "runinnewcontext(",
        "runinthiscontext(",
        "os.system(",
        "subprocess.run(",
        "subprocess.popen(",
        "subprocess.check_output(",
        "subprocess.call(",
    ];
    for c in CALLS {
        let mut from = 0;
        while let Some(i) = l[from..].find(c).map(|i| i + from) {
            from = i + c.len();
            // `re.exec(`, `.exec(` of a regex and `cursor.execute(` are not runs.
            if i > 0 && l.as_bytes()[i - 1] == b'.' {
                let object: String = l[..i - 1]
                    .chars()
                    .rev()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                if !matches!(
                    object.as_str(),
                    "cp" | "child_process" | "childprocess" | "child" | "proc" | "shell"
                ) {
                    continue;
                }
            }
            if i > 0 && (l.as_bytes()[i - 1].is_ascii_alphanumeric() || l.as_bytes()[i - 1] == b'_')
            {
                continue;
            }
            let arg = l[from..].trim_start();
            let first = arg.chars().next().unwrap_or(' ');
            if !(first.is_ascii_alphabetic() || first == '_') {
                continue;
            }
            let shell_needed = c.starts_with("subprocess.");
            if shell_needed && !l.has("shell=true") {
                continue;
            }
            return true;
        }
    }
    // `spawnSync('node', [file])`, `spawn("python3", [path])`: an interpreter on a name.
    (l.has("spawn(") || l.has("spawnsync(") || l.has("execfile"))
        && [
            "'node'", "\"node\"", "'python", "\"python", "'bash'", "'sh'",
        ]
        .iter()
        .any(|w| l.has(w))
        && l.contains('[')
        && !l.has("['-")
}

/// The stems of local modules a file imports (`from score import`, `require('./runner')`,
/// `import … from './run'`).
fn imported_stems(lower: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for l in lower {
        if let Some(rest) = l.strip_prefix("from ")
            && let Some(m) = rest.split_whitespace().next()
        {
            out.push(
                m.trim_start_matches('.')
                    .rsplit('.')
                    .next()
                    .unwrap_or(m)
                    .to_owned(),
            );
        }
        for key in ["require('./", "require(\"./", "from './", "from \"./"] {
            if let Some(i) = l.find(key) {
                let rest = &l[i + key.len()..];
                let m: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '/'))
                    .collect();
                out.push(m.rsplit('/').next().unwrap_or(&m).to_owned());
            }
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

fn stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split('.').next().unwrap_or(name)
}

/// Home or root as the served folder.
fn serves_home(l: &str) -> bool {
    const HOMES: &[&str] = &[
        "~",
        "$home",
        "\"$home\"",
        "${home}",
        "\"${home}\"",
        "/",
        "~/",
    ];
    let t = l.trim().trim_end_matches(';');
    if let Some(d) = t
        .strip_prefix("cd ")
        .or_else(|| t.strip_prefix("set-location "))
    {
        return HOMES.contains(&d.trim());
    }
    for key in ["--directory ", "--directory=", " -d "] {
        if let Some(i) = t.find(key) {
            let d = t[i + key.len()..].split_whitespace().next().unwrap_or("");
            if HOMES.contains(&d) {
                return true;
            }
        }
    }
    [
        "directory=str(path.home())",
        "directory=path.home()",
        "directory=os.path.expanduser('~')",
        "directory=os.path.expanduser(\"~\")",
        "os.chdir(os.path.expanduser('~'))",
        "os.chdir(os.path.expanduser(\"~\"))",
        "os.chdir(path.home())",
        "os.chdir('/')",
    ]
    .iter()
    .any(|w| t.has(w))
}

/// Static file servers ([`serves_files`]).
const SERVERS: &[&str] = &["http.server", "simplehttprequesthandler", "http-server"];

/// The words this judge's whole-text gates ask ([`super::File::words`]).
pub(super) const GATE_WORDS: &[&[&str]] = &[&["0.0.0.0", "+= 1", "++"], SERVERS, ESCAPES, PERSISTS];

/// A static file server without a loopback bind.
fn serves_files(l: &str) -> bool {
    SERVERS.iter().any(|w| l.has(w)) && !l.has("127.0.0.1") && !l.has("localhost") && !l.has("::1")
}

/// Credential files and folders.
const CREDENTIALS: &[&str] = &[
    "credential",
    ".aws",
    ".ssh",
    "id_rsa",
    "id_ed25519",
    ".netrc",
    ".npmrc",
    ".pypirc",
    "auth.json",
    "hosts.yml",
    ".env",
    "secret",
    "password",
    "passwd",
    "token",
];

const READS: &[&str] = &[
    "read_text(",
    "read_bytes(",
    "open(",
    ".read()",
    "readfilesync(",
    "readfile(",
    "get-content",
    "cat ",
];

/// The name a line raises by one (`_calls += 1`, `count++`, `$n++`).
fn raised(l: &str) -> Option<String> {
    let i = l.find("+= 1").or_else(|| l.find("++"))?;
    let name: String = l[..i]
        .trim_end()
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    (name.len() >= 2).then_some(name)
}

/// Lines after a threshold compare where the turned behaviour is looked for.
const AFTER: usize = 14;

/// Where a script reaches a home folder past `$HOME`.
const ESCAPES: &[&str] = &[
    "getpwuid(",
    "getpwnam(",
    "getent passwd",
    "nfshomedirectory",
    "for h in /home/*",
    "for d in /home/*",
    "for u in /home/*",
    "in /users/*",
    "real_user_home",
    "real_home = ",
    "realhome = ",
    "~$sudo_user",
    "eval echo ~$",
];

fn escapes_home(l: &str) -> bool {
    ESCAPES.iter().any(|w| l.has(w))
}

/// A scheduled or login job installed ([`persists`]).
const PERSISTS: &[&str] = &[
    "* * * * *",
    "*/1 * * * *",
    "crontab",
    "launchagents",
    "launchdaemons",
    "<key>runatload</key>",
    "<key>keepalive</key>",
    "systemd/user",
    "oncalendar",
    "systemctl --user enable",
    "schtasks",
    "register-scheduledtask",
];

fn persists(l: &str) -> bool {
    PERSISTS.iter().any(|w| l.has(w))
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let code: Vec<(usize, &[&str], &[String])> = b
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind == FileKind::Code)
        .map(|(i, f)| {
            let l = f.lowered();
            (i, &l.lines[..], &l.lower[..])
        })
        .collect();
    // Real-home escape with persistence: the two may sit in two scripts of one installer.
    let mut escape: Option<End<'_>> = None;
    let mut persist: Option<End<'_>> = None;
    for (fi, lines, lower) in &code {
        let path = b.files[*fi].path;
        // Each rule below needs its words on a line of this file (`binds_all`: `0.0.0.0`;
        // `serves_files`: a static server's name; `raised`: `+= 1` or `++`; `escapes_home`: one of
        // `ESCAPES`; `persists`: one of `PERSISTS`), so it is skipped when the file's whole lowered
        // text has none: one search of the text instead of one per line.
        let all = b.files[*fi].words();
        // Exposed runner.
        if all.has("0.0.0.0")
            && let Some(bind) = lower.iter().position(|l| binds_all(l))
            && lower.iter().any(|l| RECEIVES.iter().any(|w| l.has(w)))
        {
            let stems = imported_stems(lower);
            let mut run: Option<End<'_>> = None;
            for (gi, glines, glower) in &code {
                let gpath = b.files[*gi].path;
                if gi != fi && !stems.iter().any(|s| s == stem(gpath)) {
                    continue;
                }
                if let Some(j) = glower.iter().position(|l| runs_a_name(l)) {
                    run = Some(End::new(gpath, j, glines[j]));
                    break;
                }
            }
            if let Some(run) = run {
                let bound = End::new(path, bind, lines[bind]);
                push(
                    out,
                    "execution.exposed-runner",
                    Severity::Critical,
                    ("signal", bound),
                    run,
                    format!(
                        "A server bound to every interface ({}) runs what it receives ({}): anyone who reaches the port runs code on this machine. Bind to 127.0.0.1 and never execute request data.",
                        bound.place(),
                        run.place()
                    ),
                );
            }
        }
        // Home served.
        let served = SERVERS.iter().any(|w| all.has(w));
        for (i, l) in lower.iter().enumerate().filter(|_| served) {
            if !serves_files(l) {
                continue;
            }
            let window = &lower[i.saturating_sub(4)..=i];
            let Some(k) = window.iter().position(|w| serves_home(w)) else {
                continue;
            };
            let local = window
                .iter()
                .any(|w| w.has("127.0.0.1") || w.has("localhost"));
            if local {
                continue;
            }
            let h = i.saturating_sub(4) + k;
            let home = End::new(path, h, lines[h]);
            let serve = End::new(path, i, lines[i]);
            push(
                out,
                "exfiltration.home-served",
                Severity::Critical,
                ("source", home),
                serve,
                format!(
                    "The home folder or the file-system root ({}) is served over HTTP on every interface ({}): SSH keys, cloud credentials and agent tokens can be downloaded by anyone on the network.",
                    home.place(),
                    serve.place()
                ),
            );
            break;
        }
        // Call-count switch.
        let counts = all.has("+= 1") || all.has("++");
        'count: for (i, l) in lower.iter().enumerate().filter(|_| counts) {
            let Some(name) = raised(l) else { continue };
            let bare = name.trim_start_matches('$');
            for j in i + 1..(i + 4).min(lower.len()) {
                let c = &lower[j];
                let compares = c.has(bare)
                    && (c.has(" > ") || c.has(" >= ") || c.has(" < ") || c.has(" <= "))
                    && c.trim_start().starts_with("if");
                if !compares {
                    continue;
                }
                for k in j + 1..(j + AFTER).min(lower.len()) {
                    let r = &lower[k];
                    let named = lower[j + 1..=k]
                        .iter()
                        .any(|x| CREDENTIALS.iter().any(|w| x.has(w)));
                    if READS.iter().any(|w| r.has(w)) && named {
                        let cmp = End::new(path, j, lines[j]);
                        let read = End::new(path, k, lines[k]);
                        push(
                            out,
                            "exfiltration.call-count-switch",
                            Severity::Critical,
                            ("condition", cmp),
                            read,
                            format!(
                                "A call counter ({}) switches the code to reading a credential file ({}) once a threshold is passed: the tool behaves while it is tried and turns later (a rug pull).",
                                cmp.place(),
                                read.place()
                            ),
                        );
                        break 'count;
                    }
                }
            }
        }
        if escape.is_none()
            && ESCAPES.iter().any(|w| all.has(w))
            && let Some(e) = lower.iter().position(|l| escapes_home(l))
        {
            escape = Some(End::new(path, e, lines[e]));
        }
        if persist.is_none()
            && PERSISTS.iter().any(|w| all.has(w))
            && let Some(p) = lower.iter().position(|l| persists(l))
        {
            persist = Some(End::new(path, p, lines[p]));
        }
    }
    if let (Some(esc), Some(per)) = (escape, persist) {
        push(
            out,
            "persistence.real-home-escape",
            Severity::Critical,
            ("source", esc),
            per,
            format!(
                "The installer reaches a home folder past $HOME ({}) and installs a scheduled or login job ({}): it escapes a sandboxed home or plants jobs for other users.",
                esc.place(),
                per.place()
            ),
        );
    }
}
