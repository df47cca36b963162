//! Round 40m: fetched code run without a file in between, two more shapes.
//!
//! - `supply_chain.download-execute` (chunk form): a request to a host that is neither local nor a
//!   vendor's (`https.get({hostname: …}, r => …)`, `https.get(url, …)`), and within [`WINDOW`]
//!   lines a response handler whose own argument is evaluated (`r.on('data', function (c) {
//!   eval(c); })`, `.then(t => eval(t))`, `new Function(c)`, `vm.runInThisContext(c)`). The streamed
//!   rule of round 36t needs the pieces gathered into a name; this one evaluates each piece as it
//!   comes.
//! - `supply_chain.hidden-git-run`: a package runner started on a package fetched from a git
//!   source (`npx -y github:owner/repo#<commit>`, `npm exec git+https://…`, `pnpm dlx`, `bunx`,
//!   `pip install git+…`), from code, with the process hidden from the user (`detached: true`,
//!   `stdio: 'ignore'`, `windowsHide`, `start_new_session`, `nohup … &`). Whatever that commit holds
//!   runs out of sight, and a commit of an unlisted branch is where a compromised account keeps it.
//!   A runner started in the open, or a command in prose for the user to type, is not judged.
//!
//! One pass over each file's lowered lines; windows bounded.

use super::{Bundle, hosts_in};
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::rules::Severity;

/// Lines after a request within which the handler's evaluation is looked for.
const WINDOW: usize = 8;

/// Calls that make a request (lower-case).
const REQUESTS: &[&str] = &[
    "https.get(",
    "http.get(",
    "https.request(",
    "http.request(",
    "fetch(",
    "axios.get(",
    "request(",
];

/// Package runners (lower-case, with a trailing space or quote after the word).
const RUNNERS: &[&str] = &[
    "npx",
    "bunx",
    "pnpm dlx",
    "yarn dlx",
    "npm exec",
    "pip install",
    "uvx",
    "pipx run",
];

/// Package specs that name a git source (lower-case).
pub(super) const GIT_SOURCES: &[&str] = &[
    "github:",
    "gitlab:",
    "bitbucket:",
    "git+https://",
    "git+ssh://",
    "git+http://",
    "git://",
];

/// Marks of a process started out of the user's sight (lower-case).
const HIDDEN: &[&str] = &[
    "detached: true",
    "detached:true",
    "stdio: 'ignore'",
    "stdio:'ignore'",
    "stdio: \"ignore\"",
    "windowshide",
    "start_new_session",
    "creationflags",
    "nohup ",
    "subprocess.devnull",
];

fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [".js", ".mjs", ".cjs", ".ts", ".py", ".sh", ".ps1"]
        .iter()
        .any(|e| p.ends_with(e))
}

/// The argument name of a handler on the line (`function (c)`, `(c) =>`, `c =>`), lowered.
fn handler_arg(l: &str) -> Option<String> {
    let ident = |s: &str| -> Option<String> {
        let n: String = s
            .trim()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        (!n.is_empty()).then_some(n)
    };
    if let Some(i) = l.find("function") {
        let rest = l[i + "function".len()..].trim_start();
        if let Some(args) = rest.strip_prefix('(')
            && let Some(n) = ident(args)
        {
            return Some(n);
        }
    }
    let p = l.find("=>")?;
    let head = l[..p].trim_end();
    if let Some(inner) = head.strip_suffix(')') {
        let start = inner.rfind('(').map_or(0, |s| s + 1);
        return ident(inner[start..].split(',').next().unwrap_or(""));
    }
    let name: String = head
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Whether the line evaluates `name` (`eval(name)`, `new Function(name)`, `runInThisContext(name)`).
fn evaluates(l: &str, name: &str) -> bool {
    [
        "eval(",
        "function(",
        "runinthiscontext(",
        "runinnewcontext(",
    ]
    .iter()
    .any(|o| {
        l.match_indices(o).any(|(i, _)| {
            let arg = l[i + o.len()..].trim_start();
            arg.strip_prefix(name)
                .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        })
    })
}

pub(super) fn chunk_eval(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| is_code(f.path) && !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        if !all.contains("eval(")
            && !all.contains("new function(")
            && !all.contains("runinthiscontext(")
        {
            continue;
        }
        let lw = file.lowered();
        'req: for (i, l) in lw.lower.iter().enumerate() {
            if !REQUESTS.iter().any(|r| l.contains(r)) || l.starts_with("//") {
                continue;
            }
            let hi = (i + WINDOW + 1).min(lw.lines.len());
            let host = (i..(i + 3).min(lw.lines.len()))
                .flat_map(|k| hosts_in(lw.lines[k]))
                .find(|h| h.class.is_outside());
            let Some(host) = host else { continue };
            for k in i..hi {
                let Some(arg) = handler_arg(&lw.lower[k]) else {
                    continue;
                };
                let Some(e) = (k..(k + 3).min(hi)).find(|&e| evaluates(&lw.lower[e], &arg)) else {
                    continue;
                };
                if out.iter().any(|o| {
                    o.rule_id == "supply_chain.download-execute"
                        && o.file == file.path
                        && o.line == e + 1
                }) {
                    break 'req;
                }
                let raw = lw.lines[e].trim();
                let req = lw.lines[i].trim();
                out.push(Finding {
                    rule_id: "supply_chain.download-execute".into(),
                    category: "supply_chain".into(),
                    severity: Severity::Critical,
                    file: file.path.into(),
                    line: e + 1,
                    evidence: evidence(raw, 0, raw.len()),
                    description: format!(
                        "{}:{} evaluates as code what the response handler receives (`{arg}`) from the request at line {} to {} ({}). Whatever that host serves runs here, and nothing of it is ever saved where it could be read: do not install this skill.",
                        file.path,
                        e + 1,
                        i + 1,
                        host.host,
                        host.class.phrase()
                    ),
                    related: vec![Related {
                        role: "download".into(),
                        file: file.path.into(),
                        line: i + 1,
                        evidence: evidence(req, 0, req.len()),
                    }],
                });
                break 'req;
            }
        }
    }
}

pub(super) fn hidden_git_run(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| is_code(f.path) && !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        if !GIT_SOURCES.iter().any(|w| all.contains(w)) || !HIDDEN.iter().any(|w| all.contains(w)) {
            continue;
        }
        let lw = file.lowered();
        for (i, l) in lw.lower.iter().enumerate() {
            if l.starts_with("//") || l.starts_with('#') {
                continue;
            }
            let runner = RUNNERS.iter().find(|r| {
                l.match_indices(*r).any(|(p, _)| {
                    let before = l[..p].chars().next_back();
                    let after = l[p + r.len()..].chars().next();
                    !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                        && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                })
            });
            let Some(runner) = runner else { continue };
            let Some(src) = GIT_SOURCES.iter().find(|g| l.contains(*g)) else {
                continue;
            };
            let lo = i.saturating_sub(1);
            let hi = (i + 3).min(lw.lines.len());
            let Some(hidden) =
                (lo..hi).find_map(|k| HIDDEN.iter().find(|h| lw.lower[k].contains(*h)))
            else {
                continue;
            };
            let raw = lw.lines[i].trim();
            out.push(Finding {
                rule_id: "supply_chain.hidden-git-run".into(),
                category: "supply_chain".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{} starts `{runner}` on a package fetched from a git source (`{src}`…) with the process hidden from the user (`{hidden}`): code that no registry lists and the user never sees is downloaded and run in the background. Do not install this skill.",
                    file.path,
                    i + 1,
                ),
                related: Vec::new(),
            });
            break;
        }
    }
}
