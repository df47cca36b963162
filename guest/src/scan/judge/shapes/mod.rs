//! Round 37t (sets37t): judges for shapes and languages the fact rules do not read as flows — a
//! lure told in a numbered table or list and in other languages, a download and its run written
//! through a process API, a notebook cell or a WSH script, a whole secret store (the environment,
//! a credential file) and an upload in the same script, a socket wired to a command runner in Lua
//! or the JVM, Windows system folders and the home folder deleted, and agent-tampering words in
//! other languages. Plain Rust over the file's shared lowered view; each reads a file's lines once
//! (windows are bounded), so the scanner stays linear in bytes.

use super::{Bundle, File, Host};
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::hosts::{HostClass, classify};
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

mod agent_words;
mod bind_run;
mod fenced;
#[cfg(test)]
pub(in crate::scan::judge) use fenced::fenced_only_for_tests;
mod fetch_run;
mod inetd_shell;
mod intl_orders;
// Round 42t (sets42t): the prose judges' words in this set's languages.
mod langs42;
mod lure_blocks;
mod memory_remote;
mod more_langs;
mod service_args;
mod socket_run;
mod staged_run;
mod store_send;
mod system_wipe;
mod wipe;
// Round 41c (scan41c): orders decided from language-independent tokens, secret reads sent from
// thin languages, system folders deleted by resources and library calls.
mod env_send;
mod token_orders;
mod tree_delete;
// Round 42c (scan42c): control handed elsewhere — remote texts obeyed, the skill overwritten from
// a URL, DNS records run, model traffic routed through a relay, the agent's context ordered out.
mod context_leak;
mod model_relay;
mod remote_follow;
// Round 43t (sets43t): whole folders deleted by `find … -delete` or `rm -r "$HOME"/`.
mod whole_delete;
// Round 44t (sets44t): recursive deletes written as CMake's and Tcl's own calls.
mod call_delete;
// Round 45t (sets45t): recursive deletes written as Puppet/Chef resources over lists and Dart's
// `deleteSync(recursive: true)`; a fetched body saved and then run in languages' own calls.
mod list_delete;
mod pam_authtok;
mod saved_run;
/// Words without one of which no round-45t judge of this module can fire (chained into
/// [`raw_words`]).
const RAW_45T: &[&[&str]] = &[
    list_delete::RAW,
    saved_run::RAW,
    pam_authtok::RAW,
    request_shell::RAW,
];
// Round 46t (sets46t): a request's input run in a shell by OpenResty's Lua (a web shell).
mod request_shell;
// Round 47t (sets47t): a downloader written in a process call's text, its saved file run later.
mod text_saved_run;
/// Words without one of which no round-47t judge of this module can fire.
const RAW_47T: &[&[&str]] = &[text_saved_run::RAW];
// Round 48t (sets48t): a language's own recursive-delete call of a system folder.
mod lib_delete;
// Round 49b (sets49b): an instruction file's name used as the name of its format, left out of
// the agent-context judge.
mod format_mention;
/// Words without one of which no round-48t judge of this module can fire.
const RAW_48T: &[&[&str]] = &[lib_delete::RAW];
/// Round 44t's words for shapes that read files stating no fact (CMake/Tcl deletes, Zig's
/// `tcpConnectToHost`): a text holding one is judged even with no fact or finding
/// (`judge_adds_nothing_without_facts_or_findings`).
pub(super) fn raw_words_44t() -> impl Iterator<Item = &'static str> {
    call_delete::RAW
        .iter()
        .copied()
        .chain(["tcpconnecttohost("])
}

/// Judges that read facts or earlier findings of the other judges (run before the prose judges).
pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    fetch_run::judge(b, out);
    staged_run::judge(b, out);
    store_send::judge(b, out);
    socket_run::judge(b, out);
    bind_run::judge(b, out);
    service_args::judge(b, out);
    wipe::judge(b, out);
    system_wipe::judge(b, out);
    inetd_shell::judge(b, out);
    memory_remote::judge(b, out);
    agent_words::judge(b, out);
    env_send::judge(b, out);
    tree_delete::judge(b, out);
    whole_delete::judge(b, out);
    call_delete::judge(b, out);
    list_delete::judge(b, out);
    saved_run::judge(b, out);
    pam_authtok::judge(b, out);
    request_shell::judge(b, out);
    text_saved_run::judge(b, out);
    lib_delete::judge(b, out);
    remote_follow::judge(b, out);
    model_relay::judge(b, out);
    context_leak::judge(b, out);
    // Round 40t: the same code judges over documents' fenced blocks.
    fenced::judge(b, out);
}

/// The words these judges' whole-text gates ask ([`super::File::words`]).
pub(super) const GATE_WORDS: &[&[&[&str]]] = &[
    agent_words::GATE_WORDS,
    env_send::GATE_WORDS,
    socket_run::GATE_WORDS,
    store_send::GATE_WORDS,
    remote_follow::GATE_WORDS,
    &[whole_delete::RAW],
    &[call_delete::RAW],
    RAW_45T,
    RAW_47T,
    RAW_48T,
];

/// Build this module's needle automata now (`scan::initialize`).
pub(super) fn initialize() {
    intl_orders::initialize();
    more_langs::initialize();
    langs42::initialize();
    wipe::initialize();
    env_send::initialize();
    token_orders::initialize();
}

/// Judges that read what the prose judges found (run after them): a lure the prose rules already
/// found in a file is not found twice.
pub(super) fn after_prose(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    lure_blocks::judge(b, out);
    intl_orders::judge(b, out);
    agent_words::covered_condition(b, out);
    token_orders::judge(b, out);
}

/// Words without one of which no judge of this module can fire on a text that states no fact
/// (chained into `prose::reads_raw_text`).
pub(crate) fn raw_words() -> impl Iterator<Item = &'static str> {
    socket_run::RAW
        .iter()
        .chain(wipe::RAW)
        .chain(bind_run::RAW)
        .chain(service_args::RAW)
        .chain(inetd_shell::RAW)
        .chain(agent_words::ALWAYS)
        .chain(agent_words::REPLACE)
        .chain(agent_words::AUTO_KEYS)
        .chain(env_send::READS)
        .chain(tree_delete::RAW)
        .chain(whole_delete::RAW)
        .chain(token_orders::RAW)
        .chain(remote_follow::RAW)
        .chain(model_relay::RAW)
        .chain(context_leak::CONTEXT)
        .chain(context_leak::CONVERSATION)
        .chain(["rsync ", "scp "].iter())
        .copied()
        .chain(more_langs::raw_words())
        .chain(langs42::raw_words())
        .chain(RAW_45T.iter().flat_map(|w| w.iter().copied()))
        .chain(RAW_47T.iter().flat_map(|w| w.iter().copied()))
        .chain(RAW_48T.iter().flat_map(|w| w.iter().copied()))
}

/// A destination that is not the machine, a vendor, an installer host or a registry.
pub(super) fn suspicious(class: HostClass) -> bool {
    class.is_outside()
}

/// The most suspicious `scheme://` destination among `hosts` that is [`suspicious`].
pub(super) fn worst_suspicious(hosts: &[Host]) -> Option<&Host> {
    hosts
        .iter()
        .filter(|h| h.url.has("://") && suspicious(h.class))
        .max_by_key(|h| h.class)
}

/// Hosts named as the first string argument of a socket call (`connect("h.example:443")`,
/// `Socket("h.example", 9001)`, `TcpClient('h.example', 443)`, `fsockopen("h.example", 1)`), which
/// carry no scheme. `lower` is an ASCII-lowered line.
pub(super) fn socket_hosts(lower: &str) -> Vec<Host> {
    let mut out = Vec::new();
    for key in SOCKET_CALLS {
        // A key the text does not hold is found in no part of it.
        if !lower.has(key) {
            continue;
        }
        let mut from = 0;
        while let Some(i) = lower[from..].find(key).map(|i| i + from) {
            from = i + key.len();
            // `host = "h"` (a named argument) and Elixir's `~c"h"` charlist hold the host too.
            let rest = lower[from..].trim_start();
            let rest = rest.strip_prefix("host").map_or(rest, |r| {
                r.trim_start().strip_prefix('=').unwrap_or(r).trim_start()
            });
            let rest = rest.strip_prefix("~c").unwrap_or(rest);
            let Some(rest) = rest.strip_prefix(['"', '\'']) else {
                continue;
            };
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
                .unwrap_or(rest.len());
            let host = rest[..end].trim_end_matches('.');
            let tld_ok = host
                .rsplit('.')
                .next()
                .is_some_and(|t| t.len() >= 2 && t.bytes().all(|c| c.is_ascii_alphabetic()));
            let quad =
                host.split('.').count() == 4 && host.split('.').all(|p| p.parse::<u8>().is_ok());
            if host.contains('.') && (tld_ok || quad) && !out.iter().any(|h: &Host| h.host == host)
            {
                out.push(Host {
                    class: classify(host, ""),
                    host: host.to_owned(),
                    url: host.to_owned(),
                    path: String::new(),
                });
            }
        }
    }
    out
}

/// Calls whose first string argument is the remote host of a socket.
pub(super) const SOCKET_CALLS: &[&str] = &[
    "tcpstream::connect(",
    ":connect(",
    ".connect(",
    "socket(",
    "tcpclient(",
    "fsockopen(",
    "net.dial(\"tcp\",",
    "createconnection(",
    // Round 38t: Julia's `connect("h", p)` (`Sockets`), R's `socketConnection(host = "h", …)`.
    "connect(",
    "socketconnection(",
    // Round 39t: OCaml's `Unix.gethostbyname "h"`, Haskell's `connect "h" "p"`, Emacs Lisp's
    // `make-network-process … :host "h"`.
    "gethostbyname ",
    "connect ",
    ":host ",
    // Round 40t: Crystal's `TCPSocket.new("h", p)`.
    "tcpsocket.new(",
    // Round 41t: C's address literals (`inet_pton(AF_INET, "h", …)`, `inet_addr("h")`,
    // `gethostbyname("h")`).
    "inet_pton(af_inet, ",
    "inet_pton(af_inet6, ",
    "inet_addr(",
    "gethostbyname(",
    // Round 42t: Guile's `(inet-pton AF_INET "h")`, Python asyncio's `open_connection("h", p)`.
    "(inet-pton af_inet ",
    "open_connection(",
    // Round 43t: D's `InternetAddress("h", p)`.
    "internetaddress(",
];

/// A finding at line index `i` (0-based) of `file`, its evidence the whole line.
pub(in crate::scan::judge) fn found(
    rule: &str,
    category: &str,
    severity: Severity,
    file: &File<'_>,
    i: usize,
    description: String,
    related: Vec<Related>,
) -> Finding {
    let line = file.lowered().lines.get(i).copied().unwrap_or("").trim();
    Finding {
        rule_id: rule.into(),
        category: category.into(),
        severity,
        file: file.path.into(),
        line: i + 1,
        evidence: evidence(line, 0, line.len()),
        description,
        related,
    }
}

/// A related place at line index `i` (0-based) of `file`.
pub(in crate::scan::judge) fn rel(role: &str, file: &File<'_>, i: usize) -> Related {
    let line = file.lowered().lines.get(i).copied().unwrap_or("").trim();
    Related {
        role: role.into(),
        file: file.path.into(),
        line: i + 1,
        evidence: evidence(line, 0, line.len()),
    }
}

/// Whether `out` already holds a finding of `rule` (any id starting with it) in `file` at
/// `severity` or above.
pub(super) fn has(out: &[Finding], file: &File<'_>, rule: &str, severity: Severity) -> bool {
    out.iter()
        .any(|f| f.file == file.path && f.rule_id.starts_with(rule) && f.severity >= severity)
}

/// Whether a critical finding already stands on this file's line `i` (0-based), found by this run
/// (`out`) or an earlier pass (`b.prior`): the judges of rounds 44m–46m skip such a line.
pub(super) fn judged(b: &Bundle<'_>, out: &[Finding], file: &File<'_>, i: usize) -> bool {
    out.iter()
        .chain(b.prior.iter())
        .any(|f| f.file == file.path && f.line == i + 1 && f.severity == Severity::Critical)
}

/// Whether `word` occurs in `text` as a whole identifier (not inside a longer one).
pub(super) fn has_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let b = text.as_bytes();
    let mut from = 0;
    while let Some(i) = text[from..].find(word).map(|i| i + from) {
        let end = i + word.len();
        if (i == 0 || !ident(b[i - 1])) && (end >= b.len() || !ident(b[end])) {
            return true;
        }
        from = i + 1;
    }
    false
}

/// Whether `text` holds any of `words` (round 38m's judges share it).
pub(super) fn any_of(text: &str, words: &[&str]) -> bool {
    words.iter().any(|w| text.has(w))
}

/// Whether a file is read as code (a script or config, or a Markdown file's fenced block is not
/// enough: these judges read scripts).
pub(super) fn is_code(file: &File<'_>) -> bool {
    file.kind == FileKind::Code && !file.place.test && !file.place.signature
}

/// A quoted line (`> …`): someone else's text, shown.
pub(super) fn quoted(l: &str) -> bool {
    l.trim_start().starts_with('>')
}

/// Round 47t: whether a blockquote's first line opens with a bold label ending in a colon
/// (`> **Note:** …`, `> **Important**: …`): the Markdown callout written before GitHub's alerts,
/// the author's own box, not someone else's words quoted.
pub(super) fn callout_label(inner: &str) -> bool {
    let Some(rest) = inner.strip_prefix("**") else {
        return false;
    };
    let Some(end) = rest.find("**") else {
        return false;
    };
    let label = &rest[..end];
    let after = &rest[end + 2..];
    (1..=32).contains(&label.chars().count())
        && !label.contains('`')
        && (label.trim_end().ends_with(':') || after.starts_with(':'))
}

/// The prose blocks of a document: runs of non-blank lines outside code fences and quotes, as
/// line ranges `s..e`.
pub(super) fn prose_blocks(f: &File<'_>) -> Vec<(usize, usize)> {
    use crate::scan::markdown::{FencePlace, fence_places};
    let lines = &f.lowered().lines;
    let places = fence_places(lines.iter().copied());
    // Round 45t: a GitHub alert (`> [!IMPORTANT]`, `> [!NOTE]` …) is the author's own callout
    // drawn as a box, not someone else's text quoted: its lines are read as prose.
    let mut alert = vec![false; lines.len()];
    let mut open = false;
    for (i, l) in lines.iter().enumerate() {
        if !quoted(l) {
            open = false;
            continue;
        }
        let inner = l.trim_start().trim_start_matches('>').trim_start();
        if inner.starts_with("[!") || callout_label(inner) {
            open = true;
        }
        alert[i] = open;
    }
    let prose = |i: usize| {
        !lines[i].trim().is_empty()
            && places[i] == FencePlace::Outside
            && (!quoted(lines[i]) || alert[i])
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !prose(i) {
            i += 1;
            continue;
        }
        let s = i;
        while i < lines.len() && prose(i) {
            i += 1;
        }
        out.push((s, i));
    }
    out
}
