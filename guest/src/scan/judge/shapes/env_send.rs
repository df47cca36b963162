//! Round 41c (scan41c): a secret read from the environment or a credential file and sent to a
//! stranger's host, in languages the flow facts do not read (Erlang, Clojure, Raku, Crystal, Nim,
//! Scala and the like), decided from one table of read forms and one of send forms rather than a
//! judge per language (`exfiltration.secret-to-network`).
//!
//! A read ([`READS`]) whose line names a secret (a variable name with `token`, `key`, `secret`,
//! `pass`, `cred`, `auth`; or the whole environment; or a credential file such as `.netrc`),
//! assigned to a name (`Key = os:getenv(…)`, `let key = getEnv(…)`, `(let [tok (System/getenv …)]`,
//! `my $t = %*ENV<…>`, `val key = sys.env(…)`); within [`REACH`] lines a send ([`SENDS`]: an HTTP
//! call, `curl`, a name lookup) whose line carries that name (or one assigned from it on the lines
//! between) and whose destination, on the send line or the two around it, is a suspicious host: not
//! a vendor's, installer's, registry's or this machine's. A vendor's key sent to its vendor's API is
//! the skill's job and is not judged. Also (`exfiltration.agent-memory-files`) an `rsync`/`scp` of
//! a secret store or an agent's memory folder to a `user@host:` on a suspicious host, on any code
//! line. One pass over a code file's lowered lines after a whole-file gate. Round 46t: Elvish's
//! `$E:NAME`, PowerShell's `Get-Content` of a credential file (through the variable naming it)
//! and `Invoke-RestMethod` / `Invoke-WebRequest`.

use super::{found, has, has_word, is_code, rel, suspicious};
use crate::scan::content::Finding;
use crate::scan::hosts::classify;
use crate::scan::judge::find::{Has, Needles};
use crate::scan::judge::{Bundle, File, Host, hosts_in};
use crate::scan::rules::Severity;

/// Lines after a read within which the send may stand.
const REACH: usize = 12;

/// Environment and credential-file reads, each with whether it reads the whole environment when
/// no name follows.
pub(super) const READS: &[&str] = &[
    "os:getenv(",
    "system/getenv",
    "%*env",
    "env[\"",
    "env['",
    "getenv(\"",
    "sys.env",
    "system.getenv(",
    "env.fetch(",
    "getenv \"",
    "readfile(",
    "slurp ",
    "file.read(",
    "file:read_file(",
    // Round 43t: Elixir's `System.get_env`, VBA's `Environ("…")`, Julia's `get(ENV, "…", d)`;
    // a browser's whole cookie store (`chrome.cookies.getAll`, `document.cookie`).
    "system.get_env(",
    "environ(\"",
    "environ$(\"",
    "get(env, \"",
    "cookies.getall(",
    "document.cookie",
    // Round 44t: the whole environment as Deno hands it over (`Deno.env.toObject()`) and as a
    // Makefile captures it at parse time (`VAR := $(shell env | …)`).
    "deno.env.toobject()",
    "$(shell env |",
    "$(shell env)",
    "$(shell printenv |",
    "$(shell printenv)",
    // Round 45t: Fortran's `get_environment_variable("NAME", value)` (the value is its second
    // argument) and a justfile's `env_var('NAME')` / `env_var_or_default('NAME', d)`.
    "get_environment_variable(",
    "env_var(",
    "env_var_or_default(",
    // Round 46t: Elvish's `$E:NAME`; PowerShell's `Get-Content` of a credential file (named on
    // its line or in the variable it reads, set a few lines above).
    "$e:",
    "get-content ",
];
static READS_N: Needles = Needles::new(READS);

/// Send forms: HTTP calls, `curl`, name lookups.
const SENDS: &[&str] = &[
    "httpc:request(",
    "/post ",
    "/get ",
    ".post(",
    ".get(",
    "postcontent(",
    "getcontent(",
    "http::client.",
    "requests.",
    "fromurl(",
    "getbyname(",
    "'curl'",
    "\"curl\"",
    "curl ",
    ".request(",
    "fetch(",
    // Round 42c: Racket's `string->url` / `get-pure-port`, Common Lisp's `drakma:http-request`,
    // `dex:post`.
    "string->url",
    "get-pure-port",
    "http-request",
    "dex:post",
    // Round 43t: name lookups (Julia `getaddrinfo`, Ruby `Resolv.getaddress`), COM's XMLHTTP
    // `.Open "GET", url`, a userscript's `GM_xmlhttpRequest`, `navigator.sendBeacon`.
    "getaddrinfo(",
    "getaddress(",
    ".open \"get\"",
    ".open \"post\"",
    "gm_xmlhttprequest(",
    "sendbeacon(",
    // Round 44t: Deno's name lookup (`Deno.resolveDns(`${chunk}.host`, "A")`).
    "resolvedns(",
    // Round 45t: name lookups run as commands (`nslookup {{token}}.host`, `dig …`).
    "nslookup ",
    "dig ",
    "wget ",
    // Round 46t: PowerShell's web calls.
    "invoke-restmethod ",
    "invoke-webrequest ",
];

/// The words this judge's whole-text gates ask ([`crate::scan::judge::File::words`]).
pub(super) const GATE_WORDS: &[&[&str]] = &[&["rsync ", "scp "], READS, SENDS];

/// Name parts that mark a secret.
const SECRET: &[&str] = &["token", "key", "secret", "pass", "cred", "auth", "pat\""];
/// Credential files.
const FILES: &[&str] = &[
    ".netrc",
    "id_rsa",
    "id_ed25519",
    ".aws/credentials",
    ".git-credentials",
    ".npmrc",
    // Round 46t: the GitHub CLI's token file.
    "gh/hosts.yml",
    "gh\\hosts.yml",
    "github cli\\hosts.yml",
];
/// Secret stores and agent folders an `rsync`/`scp` may carry.
const STORES: &[&str] = &[
    "~/.ssh",
    ".aws",
    ".gnupg",
    "~/.claude",
    "~/.codex",
    ".claude/projects",
    ".netrc",
    ".git-credentials",
];

/// Build the read table's automaton now (`scan::initialize`).
pub(super) fn initialize() {
    READS_N.force();
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if !is_code(f) {
            continue;
        }
        let all = f.words();
        if (all.has("rsync ") || all.has("scp "))
            && !has(
                out,
                f,
                "exfiltration.agent-memory-files",
                Severity::Critical,
            )
            && let Some(x) = remote_copy(f)
        {
            out.push(x);
        }
        // `read_then_send` needs a line with a `READS` word (`secret_read` finds one first) and a
        // line with a `SENDS` word after it: a file whose lowered text lacks either has no hit.
        if !(all.any(READS) && all.any(SENDS))
            || has(out, f, "exfiltration.secret-to-network", Severity::Critical)
        {
            continue;
        }
        if let Some(x) = read_then_send(f) {
            out.push(x);
        }
    }
}

/// Whether a read line reads a secret: the whole environment, a secret's name, a credential file.
fn secret_read(l: &str) -> bool {
    let Some(r) = READS.iter().find(|r| l.has(r)) else {
        return false;
    };
    let at = l.find(r).unwrap_or(0);
    let after = &l[at + r.len()..];
    if FILES.iter().any(|x| l.has(x)) {
        return true;
    }
    // A browser's cookie store is a secret store whole; so is the whole environment read at once.
    if matches!(
        *r,
        "cookies.getall("
            | "document.cookie"
            | "deno.env.toobject()"
            | "$(shell env |"
            | "$(shell env)"
            | "$(shell printenv |"
            | "$(shell printenv)"
    ) {
        return true;
    }
    if matches!(
        *r,
        "readfile(" | "slurp " | "file.read(" | "file:read_file(" | "get-content "
    ) {
        return false;
    }
    // The whole environment: `(System/getenv)`, `%*ENV.raku`, `sys.env.tostring`, `sys.env)`.
    // Round 45t: Erlang's `os:getenv()` with no name is the whole environment too.
    let whole = (*r == "os:getenv(" && after.starts_with(')'))
        || matches!(*r, "system/getenv" | "%*env" | "sys.env")
            && !after.starts_with([' ', '(', '<', '{', '.', '\''])
        || (*r == "%*env" && after.starts_with('.') && !after.starts_with(".get"))
        || (*r == "system/getenv" && after.starts_with(')'))
        || (*r == "sys.env" && after.starts_with(".to"));
    let name: String = after
        .trim_start_matches(['(', ' ', '"', '\'', '<', '{'])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    whole || (!name.is_empty() && SECRET.iter().any(|s| name.has(s.trim_end_matches('"'))))
}

/// Lines above a file read within which the variable naming its file is looked for.
const FILE_VAR_ABOVE: usize = 3;

/// Round 46t: a file read (`Get-Content -Raw $cfg`, `readFile(p)`) whose variable was set on one
/// of the lines just above to a path naming a credential file (`$cfg = Join-Path … 'gh\hosts.yml'`).
fn file_var_read(low: &[String], i: usize) -> bool {
    let l = &low[i];
    let Some(r) = ["get-content ", "readfile(", "file.read(", "slurp "]
        .iter()
        .find(|r| l.has(r))
    else {
        return false;
    };
    let after = &l[l.find(r).unwrap_or(0) + r.len()..];
    (i.saturating_sub(FILE_VAR_ABOVE)..i).any(|k| {
        FILES.iter().any(|x| low[k].has(x))
            && plain_assigned(&low[k]).is_some_and(|n| has_word(after, &n))
    })
}

/// The name a line assigns (`x = …`, `let x = …`, `val x = …`, `my $x = …`, `(let [x (…`;
/// Lisp's `(define x (…`, `(let ((x (…`).
fn assigned(l: &str) -> Option<String> {
    // Round 43t: else a callback's parameter (`(cookies) => {`, `c => …`) or a loop's variable
    // (`for (i, part) in …`, `for x in …`), bound from what the line reads.
    // Round 45t: or Fortran's output argument (`get_environment_variable("K", value)`).
    out_arg(l)
        .or_else(|| plain_assigned(l))
        .or_else(|| arrow_param(l))
        .or_else(|| loop_var(l))
}

/// The variable Fortran's `get_environment_variable("NAME", value)` fills: its second argument.
fn out_arg(l: &str) -> Option<String> {
    let at = l.find("get_environment_variable(")?;
    let args = l[at + "get_environment_variable(".len()..]
        .split(')')
        .next()?;
    let w = args.split(',').nth(1)?.trim();
    (!w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| w.to_owned())
}

fn plain_assigned(l: &str) -> Option<String> {
    if let Some(w) = lisp_binding(l) {
        return Some(w);
    }
    let left = if let Some(p) = l.find("[") {
        // Clojure's `(let [name (…`: the word after the bracket.
        let rest = &l[p + 1..];
        let w: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        if !w.is_empty() && rest[w.len()..].trim_start().starts_with('(') && l.has("let") {
            return Some(w);
        }
        l.split_once('=')?.0
    } else {
        l.split_once('=')?.0
    };
    // Round 44t: a Makefile's `NAME := …`, `NAME ?= …`, `NAME += …` (the sign apart from the name).
    let left = left.trim_end().trim_end_matches([':', '?', '+']);
    let w = left
        .split_whitespace()
        .last()?
        .trim_start_matches(['$', '@', '%', '&'])
        .trim_end_matches(':');
    (!w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| w.to_owned())
}

/// The last parameter of an arrow callback on the line (`(err, cookies) => {`, `c => …`).
fn arrow_param(l: &str) -> Option<String> {
    let at = l.find("=>")?;
    let w = l[..at]
        .trim_end()
        .trim_end_matches(')')
        .rsplit(['(', ',', ' '])
        .next()?
        .trim();
    (!w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| w.to_owned())
}

/// The last variable a `for … in` loop binds (`for (i, part) in …` → `part`).
fn loop_var(l: &str) -> Option<String> {
    let rest = l.trim_start().strip_prefix("for ")?;
    let (vars, _) = rest.split_once(" in ")?;
    let w = vars
        .trim()
        .trim_end_matches(')')
        .rsplit([',', '(', ' '])
        .next()?
        .trim();
    (!w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| w.to_owned())
}

/// A Lisp binding's name: `(define name (…`, `(let ((name (…`, `((name (…`.
fn lisp_binding(l: &str) -> Option<String> {
    let rest = l
        .strip_prefix("(define ")
        .or_else(|| l.strip_prefix("(let* (("))
        .or_else(|| l.strip_prefix("(let (("))
        .or_else(|| l.strip_prefix("(("))
        // Round 47t: Fennel's `(local x (…))` / `(var x …)` / `(global x …)`, Hy's `(setv x (…))`,
        // Clojure-like `(def x (…))`.
        .or_else(|| l.strip_prefix("(local "))
        .or_else(|| l.strip_prefix("(var "))
        .or_else(|| l.strip_prefix("(global "))
        .or_else(|| l.strip_prefix("(setv "))
        .or_else(|| l.strip_prefix("(def "))?;
    let w: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    (!w.is_empty() && rest[w.len()..].trim_start().starts_with('(')).then_some(w)
}

fn read_then_send(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        if l.starts_with("//")
            || l.starts_with('#')
            || l.starts_with(';')
            || l.starts_with("%%")
            || l.starts_with("% ")
        {
            continue;
        }
        if !READS_N.any(l) || !(secret_read(l) || file_var_read(low, i)) {
            continue;
        }
        let mut names: Vec<String> = assigned(l).into_iter().collect();
        for k in i..(i + REACH).min(low.len()) {
            let t = &low[k];
            let carries = k == i || names.iter().any(|n| has_word(t, n));
            if !carries {
                continue;
            }
            if k > i
                && let Some(n) = assigned(t)
                && !names.contains(&n)
            {
                names.push(n);
            }
            // The send may open the call on one of the two lines above (a Lisp call whose
            // arguments run on: `(http-request "https://…"` … `:parameters (… secret)`).
            let sends = |x: &str| SENDS.iter().any(|s| x.has(s));
            if !(sends(t) || (k > i && (k.saturating_sub(3).max(i + 1)..k).any(|j| sends(&low[j]))))
            {
                continue;
            }
            let host = (k.saturating_sub(3)..(k + 3).min(low.len()))
                .flat_map(|j| hosts_in(&low[j]).into_iter().chain(dotted(&low[j])))
                .find(|h| suspicious(h.class));
            let Some(h) = host else {
                continue;
            };
            return Some(found(
                "exfiltration.secret-to-network",
                "exfiltration",
                Severity::Critical,
                f,
                k,
                format!(
                    "{}:{}: a secret read at line {} ({}) is carried to {} here, a host that is not the secret's vendor or this machine.",
                    f.path,
                    k + 1,
                    i + 1,
                    if l.has("cookies.getall(") || l.has("document.cookie") {
                        "a browser's cookies"
                    } else {
                        "an environment value or a credential file"
                    },
                    h.host
                ),
                if k == i {
                    vec![]
                } else {
                    vec![rel("source", f, i)]
                },
            ));
        }
    }
    None
}

/// Host names inside an interpolated string (`s"$t.dns.example.net"`, `"#{k}.x.example.org"`),
/// which carry no scheme: the dotted name after the interpolation.
fn dotted(l: &str) -> Vec<Host> {
    let mut out = Vec::new();
    // Round 45t: a name-lookup command's argument ends at a blank or the line's end.
    let lookup = l.has("nslookup ") || l.has("dig ");
    // Round 43t: a quoted name suffix joined to a value (`".w.example.net"`) too.
    for (at, m) in l.match_indices(['}', '$', '"']) {
        let rest = &l[at + 1..];
        if m == "\"" && !rest.starts_with('.') {
            continue;
        }
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
        let Some(rest) = rest.strip_prefix('.') else {
            continue;
        };
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
            .unwrap_or(rest.len());
        let host = rest[..end].trim_end_matches('.');
        if host.split('.').count() >= 2
            && host
                .rsplit('.')
                .next()
                .is_some_and(|t| t.len() >= 2 && t.bytes().all(|c| c.is_ascii_lowercase()))
            // Round 44t: a JavaScript template literal's closing backtick too.
            && (rest[end..].starts_with(['"', '`'])
                || lookup && (rest[end..].is_empty() || rest[end..].starts_with([' ', '\t'])))
        {
            out.push(Host {
                class: classify(host, ""),
                host: host.to_owned(),
                url: host.to_owned(),
                path: String::new(),
            });
        }
    }
    out
}

/// An `rsync`/`scp` line carrying a secret store or an agent's memory folder to `user@host:` on a
/// suspicious host.
fn remote_copy(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        if !(l.has("rsync ") || l.has("scp ")) {
            continue;
        }
        // The store copied, not the key the connection uses (`-e "ssh -i ~/.ssh/deploy"`, `-i key`).
        let copied = STORES.iter().any(|s| {
            l.match_indices(s).any(|(at, _)| {
                let before = &l[..at];
                !before.ends_with("-i ")
                    && !before.rsplit_once("-e ").is_some_and(|(_, arg)| {
                        arg.starts_with(['"', '\'']) && arg.matches(['"', '\'']).count() == 1
                    })
            })
        });
        if !copied {
            continue;
        }
        let Some(h) = l.match_indices('@').find_map(|(at, _)| {
            let rest = &l[at + 1..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
                .unwrap_or(rest.len());
            let host = &rest[..end];
            (host.contains('.') && rest[end..].starts_with(':') && suspicious(classify(host, "")))
                .then(|| host.to_owned())
        }) else {
            continue;
        };
        return Some(found(
            "exfiltration.agent-memory-files",
            "exfiltration",
            Severity::Critical,
            f,
            i,
            format!(
                "{}:{}: a secret store or the agent's memory folder is copied with rsync/scp to {h}, a host that is not this machine's or a vendor's.",
                f.path,
                i + 1
            ),
            vec![],
        ));
    }
    None
}
