//! `network.reverse-shell` in languages the one-line rules do not read: a socket opened to a
//! remote host (Lua `socket.tcp()` + `:connect("h", port)`, the JVM's `Socket("h", port)`, PHP
//! `fsockopen`, .NET `TcpClient`) and, within a few lines, what comes in on it handed to a
//! command runner (`io.popen`, `ProcessBuilder("/bin/sh")`, `proc_open`, `Invoke-Expression`)
//! while the socket is read (`receive`, `getInputStream`, `ReadLine`, `copyTo`). A local address
//! (a test server) is not a remote shell.

use super::{found, has, is_code, rel, socket_hosts};
use crate::scan::content::Finding;
use crate::scan::judge::Bundle;
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

const RULE: &str = "network.reverse-shell";
/// Lines after the socket is opened within which the runner and the read are looked for.
const WINDOW: usize = 12;
/// Lines before the socket within which a handler that runs commands is looked for.
const BEFORE: usize = 6;

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &[
    "connect(",
    "socket(",
    "tcpclient(",
    "fsockopen(",
    "net.dial(",
    "socketconnection(",
    "/inet/tcp/",
    // Round 39t: OCaml/Haskell, Tcl and Emacs Lisp sockets.
    "gethostbyname",
    "connect ",
    "[socket ",
    "make-network-process",
    // Round 40t: Crystal's `TCPSocket.new`, Raku's `IO::Socket::INET.new`.
    "tcpsocket.new(",
    "io::socket::inet",
    // Round 41t: C's address literals.
    "inet_pton(",
    "inet_addr(",
    // Round 42t: Guile's `inet-pton`, Python asyncio's `open_connection`.
    "inet-pton ",
    "open_connection(",
    // Round 43t: D's `new InternetAddress("h", p)`.
    "internetaddress(",
];

/// The words this judge's whole-text gate asks ([`crate::scan::judge::File::words`]).
pub(super) const GATE_WORDS: &[&[&str]] = &[RUNNERS, READS];

const RUNNERS: &[&str] = &[
    "io.popen(",
    "os.execute(",
    "processbuilder(",
    "getruntime().exec(",
    "\"/bin/sh",
    "\"/bin/bash",
    "'/bin/sh",
    "\"cmd.exe\"",
    "proc_open(",
    "invoke-expression",
    "shell_exec(",
    // Round 38t: Elixir, R, Julia, Dart and awk runners.
    "system.cmd(",
    "system(",
    "`sh -c",
    "process.start(",
    "| getline",
    // Round 39t: Tcl `exec sh`, Emacs Lisp, OCaml `execv`.
    "exec sh ",
    "shell-command-to-string",
    "execv \"/bin/",
    // Round 40t: Erlang `os:cmd`, Nim `execProcess`, Raku `qqx{…}` and `shell`.
    "os:cmd(",
    "execprocess(",
    "qqx{",
    "shell(",
    // Round 42t: Python asyncio's shell runner, Guile's `execl`, an argv that runs `sh -c`.
    "create_subprocess_shell(",
    "(execl \"/bin/",
    "[\"sh\", \"-c\"",
    "['sh', '-c'",
    "[\"bash\", \"-c\"",
    // Round 43t: D's `executeShell(cmd)`.
    "executeshell(",
    // Round 47t: LFE's `(os:cmd …)` (Erlang's call in Lisp form).
    "(os:cmd ",
];
const READS: &[&str] = &[
    ":receive(",
    "getinputstream",
    "inputstream",
    "readline(",
    ".recv(",
    "copyto(",
    "fread(",
    "=> $sock",
    "=>$sock",
    "gen_tcp.recv(",
    "readlines(",
    ".listen(",
    "|& getline",
    // Round 39t: the socket made the shell's standard streams (OCaml `dup2`, Haskell `UseHandle`),
    // Tcl's `gets $sock`, an Emacs network process's filter.
    "dup2 ",
    "= usehandle",
    "[gets $",
    ":filter",
    // Round 40t: Erlang `gen_tcp:recv`, Nim `recvLine`, Raku `$sock.get` in a loop, the socket
    // passed as a process's standard input (Crystal `Process.run(…, input: sock)`).
    "gen_tcp:recv(",
    "recvline(",
    ".get {",
    ".get;",
    "input: ",
    // Round 41t: C's `dup2(sock, 0)` (the socket made the shell's standard streams).
    "dup2(",
    // Round 43t: D's `sock.receive(buf)`, libuv's `read_start` callback (Neovim's `vim.loop`).
    ".receive(",
    "read_start(",
    // Round 45t: Racket's `(subprocess out in out "/bin/sh" …)`, the socket's ports handed to the
    // process as its standard streams.
    "(subprocess ",
    // Round 47t: LFE's `(gen_tcp:recv sock 0)`.
    "(gen_tcp:recv ",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if !is_code(f) || has(out, f, "network.reverse-shell", Severity::Critical) {
            continue;
        }
        // Gate: a finding needs a line with a `RUNNERS` word and one with a `READS` word: a file
        // whose lowered text lacks either is skipped before each line's hosts are read.
        let all = f.words();
        if !(RUNNERS.iter().any(|r| all.has(r)) && READS.iter().any(|r| all.has(r))) {
            continue;
        }
        let low = &f.lowered().lower;
        for (i, l) in low.iter().enumerate() {
            let Some(host) = socket_hosts(l)
                .into_iter()
                .chain(inet_host(l))
                .chain(tcl_host(l))
                .chain(angle_host(l))
                .chain(after_first_arg(l))
                .find(|h| super::suspicious(h.class))
            else {
                continue;
            };
            let end = (i + WINDOW).min(low.len());
            // Round 39t: a handler defined just above the socket (an Emacs process filter, a
            // callback) counts too.
            let start = i.saturating_sub(BEFORE);
            let runner = (start..end).find(|&k| RUNNERS.iter().any(|r| low[k].has(r)));
            let read = (start..end).find(|&k| READS.iter().any(|r| low[k].has(r)));
            let (Some(run), Some(read)) = (runner, read) else {
                continue;
            };
            out.push(found(
                RULE,
                "network",
                Severity::Critical,
                f,
                run,
                format!(
                    "A socket is opened to {} ({}) at line {} and what it sends is read (line {}) by a command runner at line {}: a remote shell, the other end types the commands.",
                    host.host,
                    host.class.phrase(),
                    i + 1,
                    read + 1,
                    run + 1
                ),
                vec![rel("source", f, i), rel("signal", f, read), rel("execute", f, run)],
            ));
            break;
        }
    }
}

/// Round 44t: the remote host of a connect call that takes an allocator or a context first
/// (Zig's `std.net.tcpConnectToHost(alloc, "h", port)`): the quoted second argument.
fn after_first_arg(l: &str) -> Option<crate::scan::judge::Host> {
    let at = l.find("tcpconnecttohost(")?;
    let rest = &l[at + "tcpconnecttohost(".len()..];
    let rest = rest.split_once(',')?.1.trim_start().strip_prefix('"')?;
    let host: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
        .collect();
    (host.contains('.')).then(|| crate::scan::judge::Host {
        class: crate::scan::hosts::classify(&host, ""),
        url: host.clone(),
        host,
        path: String::new(),
    })
}

/// The remote host of a Raku socket named in angle brackets (`:host<h.example>`).
fn angle_host(l: &str) -> Option<crate::scan::judge::Host> {
    let at = l.find(":host<")?;
    host_at_start(&l[at + 6..])
}

/// The remote host of a Tcl client socket (`[socket host port]`, the host unquoted).
fn tcl_host(l: &str) -> Option<crate::scan::judge::Host> {
    let at = l.find("[socket ")?;
    host_at_start(l[at + 8..].trim_start())
}

/// The host name `t` starts with (letters, digits, dots and dashes, with a dot and an alphabetic
/// top-level label of two or more letters), as a host the socket checks read.
fn host_at_start(t: &str) -> Option<crate::scan::judge::Host> {
    let host: String = t
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
        .collect();
    let tld = host.rsplit('.').next().unwrap_or("");
    (host.contains('.') && tld.len() >= 2 && tld.bytes().all(|c| c.is_ascii_alphabetic())).then(
        || crate::scan::judge::Host {
            class: crate::scan::hosts::classify(&host, ""),
            url: host.clone(),
            host,
            path: String::new(),
        },
    )
}

/// The remote host of a gawk network special file (`/inet/tcp/LPORT/HOST/RPORT`).
fn inet_host(l: &str) -> Option<crate::scan::judge::Host> {
    let at = l.find("/inet/tcp/").or_else(|| l.find("/inet/udp/"))?;
    let mut parts = l[at..].split('/').skip(4);
    let host: String = parts
        .next()?
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
        .collect();
    (host.contains('.')).then(|| crate::scan::judge::Host {
        class: crate::scan::hosts::classify(&host, ""),
        url: host.clone(),
        host,
        path: String::new(),
    })
}
