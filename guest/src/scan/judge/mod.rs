//! Pass two of the scanner: the judge combines the facts of every file of a bundle into findings.
//!
//! Each judge rule looks for a combination no single line shows: a secret read here reaching a
//! request there (following variables, function results and temporary files), a file downloaded
//! here and run there, lure prose next to a password-protected archive, an agent-settings write next
//! to permission-bypassing values, words that keep an action from the user next to that action. A
//! finding names the deciding place (`file`, `line`, `evidence`) and lists the other ends in
//! `related`, so a person can check it from the evidence alone.
//!
//! Every rule is general (no sample, name or string of a known skill), linear in the facts and the
//! bytes of the files that have them, and unit-tested (`judge/tests.rs`).

pub mod agent;
mod autorun;
mod bundled_loader;
mod carry;
pub(crate) mod claims;
mod clipper;
pub mod code;
mod concealed_acts;
mod cred_input;
pub(crate) mod disclosed;
mod errands;
pub mod exec;
mod exposed;
pub(crate) mod find;

/// Build the judges' needle automata now (`scan::initialize`, so the snapshot holds them).
pub(crate) fn initialize() {
    shapes::initialize();
    std::sync::LazyLock::force(&GATES);
    prose::reads_raw_text("");
}

/// Every gated judge's whole-text gate words ([`File::words`]): one automaton over all their
/// lists, run once per file. A word asked and not listed here is still answered, by a search.
static GATES: std::sync::LazyLock<find::GateWords> = std::sync::LazyLock::new(|| {
    let mut lists: Vec<&[&'static str]> = Vec::new();
    for judge in [
        carry::GATE_WORDS,
        decoded_drop::GATE_WORDS,
        dns_carry::GATE_WORDS,
        exposed::GATE_WORDS,
        secret_reveal::GATE_WORDS,
        staged_send::GATE_WORDS,
        tool_sinks::GATE_WORDS,
        &[native_run::RAW, char_fetch::EACH],
        &[
            agent_cfg_run::CFG_KEYS,
            agent_cfg_run::UNCHECKED,
            agent_cfg_run::ALIAS_RAW,
            agent_cfg_run::KEEP_FROM_USER,
            mem_beacon::MEM_READS,
            mem_beacon::IDENTITY_SUBS,
        ],
        &[
            loader_lure::DOWNLOADS,
            loader_lure::LOADERS,
            loader_lure::ATTACHMENT_URLS,
            quiet_orders::SECRET_FILES,
            quiet_orders::QUIET,
            quiet_orders::DEFER,
            quiet_orders::PLANTS,
            quiet_orders::ATTRS,
            quiet_orders::SECRET_KINDS,
        ],
        &[
            wallet_drop::WALLET_CONTEXT,
            wallet_drop::WALLET_STORES,
            wallet_drop::DROPS,
            wallet_drop::SESSION_NAMES,
            editor_autorun::GATE,
            env_stage::FILTERS,
        ],
        &[
            recipient_swap::GATE,
            recipient_swap::TOOL_DEF,
            tool_docstring::TOOLS,
            hook_loader::GATE,
            escaped_dest::GATE,
        ],
        &[
            install_agent_cfg::CFG,
            followed_orders::OBEY,
            env_pick_send::ENUMS,
        ],
        &[tool_desc_order::TOOL_MARKS],
        &[
            prose_send::COMMANDS,
            hidden_stash::TEMP_DOTS,
            startup_line::STARTUP,
            startup_line::HOOKS,
        ],
        &[joined_delete::JOINS, split_command::GATE],
    ]
    .into_iter()
    .chain(shapes::GATE_WORDS.iter().copied())
    {
        lists.extend_from_slice(judge);
    }
    lists.extend(prose::gate_words());
    lists.extend(foreign::gate_words());
    let words = lists.into_iter().flatten().copied();
    find::GateWords::new(words.chain(errands::gate_words()))
});

pub mod flow;
mod guard_bypass;
mod hidden_copy;
mod hidden_dest;
mod hosted_store;
mod lookalike_deps;
mod raw_words;
// Round 34m (sets34m): held-out set 13 and stop 44's leftovers.
mod account_perms;
mod codegen_backdoor;
mod concealed_upload;
mod exec_output;
mod file_exec;
mod hidden_send;
mod secret_link;
mod staged_send;
// Round 36m (sets36m): held-out set 14 (evasion variants of one key upload, hidden orders, tool calls).
mod disguise;
mod key_upload;
mod marked_param;
mod zw_order;
// Round 37m (sets37m): held-out set 15 (opaque code ordered run).
mod install_beacon;
mod opaque_run;
mod override_variant;
// Round 38m (sets38m): held-out set 16 (install-time beacons in setup.py, decoded droppers, hidden
// remote instructions, secrets ordered into answers, tool descriptions swapped, transcripts posted).
mod decoded_drop;
mod remote_orders;
mod secret_reveal;
mod setup_beacon;
mod tool_swap;
mod transcript_ship;
// Round 39m (sets39m): held-out set 17 (secret stores harvested, data in DNS names, CI secrets
// sent to drop hosts; install beacons in hook-run scripts and through wrapper functions).
mod ci_secrets;
mod dns_carry;
mod harvest;
mod unverified_run;
// Round 40m (sets40m): held-out set 18 (wallet secrets handed to requests, tokens scraped from
// application data, fetched chunks evaluated, packages run hidden from a git source).
mod chunk_eval;
mod token_scrape;
mod wallet_send;
// Round 41m (sets41m): held-out set 19 (encoded commands run, decrypted code evaluated, identity
// sent to request collectors, phishing prose and admitted keyloggers, context secrets asked of the
// model and posted, host roots wiped through a container mount).
mod collector_beacon;
mod context_ask;
mod data_phish;
mod decoded_run;
mod host_wipe;
// Round 42m (sets42m): held-out set 20 (wallet keys put in requests, secrets printed encoded past
// the redaction, forged user consent and hidden remote scripts, repositories used as drop boxes,
// code hidden in blank literals, workflows running discussion text on self-hosted runners).
mod blank_exec;
mod ci_event_run;
mod dead_drop;
mod encoded_output;
mod forged_consent;
mod wallet_request;
// Round 43m (sets43m): held-out set 21 (droppers and beacons in Rust and Go build and import code,
// commands spelled one character at a time, data spelled out one request per character).
mod char_fetch;
mod native_run;

// Round 44m (sets44m): held-out set 22 (agent configuration entries running fetched scripts, tools
// aliased to the shell, unchecked agents sent after credentials, process memory read and sent,
// machine identity carried to a stranger's address).
mod agent_cfg_run;
mod mem_beacon;

// Round 45m (sets45m): held-out set 23 (downloads handed to Windows loaders, executables from
// attachment links, secret files posted by prose orders, access planted after the review, orders in
// image attributes, secrets ordered into memory files and chat).
mod loader_lure;
mod quiet_orders;

// Round 46m (sets46m): held-out set 24 (wallet secrets packed into a request, wallet files dropped
// to a chat bot or a hub, session strings sent to a stranger, editor tasks that fetch and run code
// when a folder opens) and round 45m's open item (secrets of the environment staged in /tmp).
mod editor_autorun;
mod env_stage;
mod wallet_drop;

// Round 47m (sets47m): held-out set 25 (payment tools paying a fixed address instead of the
// recipient asked for, secrecy ordered in a tool's docstring or description argument, agent hooks
// and folder-open tasks starting a bundled loader that decodes and runs a hidden body).
mod escaped_dest;
mod hook_loader;
mod recipient_swap;
mod tool_docstring;

// Round 48m (sets48m): held-out set 26 (install-time code rewiring the agent: a downloaded hidden
// program registered as a hook, configured MCP servers repointed).
mod env_pick_send;
mod followed_orders;
mod install_agent_cfg;
mod tool_desc_order;

// Round 49m (sets49m): held-out set 27 (commands in running text sending secret variables,
// credentials staged in hidden temp files, fetch lines planted in shell start-up files and
// crontabs, npm install hooks piping downloads into a shell).
mod hidden_stash;
mod prose_send;
mod startup_line;
// Round 50m (sets50m): held-out set 28 (credential files ordered into the reply, agent auth stores
// and "local" tools' inputs posted, secrets logged to network handlers, `.pth` start-up beacons).
pub(crate) mod held50m;
// Round 50k (sets50k): known corpus misses closed by class (deletes of a path built by a
// path-join call, downloads saved in a temporary folder asked of the language, rsync daemon
// modules as destinations, socat's program handed over on a config's next line).
mod joined_delete;
mod rsync_hosts;
mod split_command;
mod temp_calls;

// Round 38c (sets38c): registry redirects, wallet drains, MCP relays, lifted settings, swapped
// packages.
mod foreign;

/// Whether the judge reads `path` as a list of dependencies (JavaScript or TypeScript source, a
/// `package.json`, a `requirements*.txt`) whatever facts its text states: the look-alike
/// dependency rule reads such files directly, so a caller that skips the judge for a text with no
/// facts must not skip these.
pub fn reads_dependencies(path: &str) -> bool {
    lookalike_deps::source_of(path).is_some()
}

mod lookalike_installer;
mod naming;
pub use naming::{
    declared_name, host_named_after, installer_named_after, name_words, picks_own_key,
    registered_name, release_named_after,
};
mod mcp_relay;
mod memory_ship;
pub(crate) mod own_forms;
mod pair;
mod printed;
pub mod prose;
mod refused_flag;
mod remote_push;
mod sandboxed;
mod scheduled_beacon;
// Round 37t (sets37t): shapes and languages of the fourth blind set of targeted cases.
mod other_skills;
mod secret_param;
pub mod secrets;
mod shapes;
mod skill_scope;
mod skills_read;
mod socket_cli;
mod socket_fd_shell;
mod store_upload;
mod stream_eval;
mod tool_sinks;
mod unlisted_tools;
// Round 50t (sets50t): inline hooks in an agent's settings JSON.
mod hook_settings;
// Round 50b (sets50b): whether a hook's file contacts any host at all.
mod net_reach;

use std::borrow::Cow;

use super::content::{FileKind, FilePlace, Finding, Related, evidence};
use super::facts::{Fact, FactKind, FileFacts, logical_text};
use super::hosts::{HostClass, classify, split_url, urls_in};
use super::rules::{RuleSet, Severity};

/// One text file as the judge sees it.
pub struct File<'a> {
    pub path: &'a str,
    pub content: &'a str,
    pub kind: FileKind,
    pub place: FilePlace,
    pub facts: &'a FileFacts,
    /// What the whole file says about hidden addresses, computed on first use (`exec::hidden`).
    pub hidden: std::cell::OnceCell<exec::hidden::FileHidden>,
    /// The file's lines and their lowered copies, computed once when the file is made
    /// ([`File::lowered`]). Not a lazy cell: a cell would make `File` invariant in `'a`.
    lowered: Lowered<'a>,
    /// The whole text ASCII-lowered, computed once ([`File::lower_all`]).
    lower_all: Cow<'a, str>,
    /// Which gate words occur in `lower_all`, computed on first use ([`File::words`]).
    words: std::cell::OnceCell<Vec<u64>>,
}

/// A file's lines and their trimmed, ASCII-lowered copies, index for index (the shape the
/// line-window rules read). Every judge borrows the one copy its file keeps ([`File::lowered`]).
pub struct Lowered<'a> {
    pub lines: Vec<&'a str>,
    pub lower: Vec<String>,
}

impl<'a> File<'a> {
    /// A file as the judge sees it, with its lines lowered once for every judge.
    pub fn new(
        path: &'a str,
        content: &'a str,
        kind: FileKind,
        place: FilePlace,
        facts: &'a FileFacts,
    ) -> Self {
        File {
            path,
            content,
            kind,
            place,
            facts,
            hidden: Default::default(),
            lowered: lines_and_lowered(content),
            lower_all: crate::ascii_lowered(content),
            words: Default::default(),
        }
    }

    /// The file's lines and their trimmed, lowered copies (lowered once per file).
    pub fn lowered(&self) -> &Lowered<'a> {
        &self.lowered
    }

    /// The whole text, ASCII-lowered (once per file).
    pub fn lower_all(&self) -> &str {
        &self.lower_all
    }

    /// The whole lowered text with the judges' gate words found in it by one pass (on first
    /// use): `words().has(w)` answers as `has(lower_all(), w)`, for a listed word from the set.
    pub(crate) fn words(&self) -> find::Found<'_> {
        let gates: &find::GateWords = &GATES;
        find::Found {
            text: &self.lower_all,
            gates,
            bits: self.words.get_or_init(|| gates.found(&self.lower_all)),
        }
    }
}

/// A fact and the file it is in.
#[derive(Clone, Copy)]
pub struct At<'a> {
    pub file: &'a File<'a>,
    pub fact: &'a Fact,
}

impl<'a> At<'a> {
    /// The logical line the fact is on.
    pub fn text(&self) -> Cow<'a, str> {
        logical_text(self.file.content, self.fact.start, self.fact.end)
    }

    /// The evidence excerpt, centred on the match.
    pub fn evidence(&self) -> String {
        let t = self.text();
        evidence(&t, self.fact.at as usize, self.fact.to as usize)
    }

    pub fn related(&self, role: &str) -> Related {
        Related {
            role: role.into(),
            file: self.file.path.into(),
            line: self.fact.line as usize,
            evidence: self.evidence(),
        }
    }

    /// Where it is, as `file:line`.
    pub fn place(&self) -> String {
        format!("{}:{}", self.file.path, self.fact.line)
    }

    /// The matched text.
    pub fn matched(&self) -> String {
        let t = self.text();
        t.get(self.fact.at as usize..self.fact.to as usize)
            .unwrap_or("")
            .to_owned()
    }
}

/// A destination host seen in text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Host {
    pub host: String,
    pub class: HostClass,
    /// The URL (or `user@host` / bare address) it came from.
    pub url: String,
    /// The URL's path and query ("" when there is none).
    pub path: String,
}

/// Every destination in a text: `scheme://host` URLs, `user@host:` (scp, rsync, git) and bare
/// IPv4 addresses (ping, nc, dig), in order.
pub fn hosts_in(text: &str) -> Vec<Host> {
    let mut out = Vec::new();
    for (s, e) in urls_in(text) {
        let url = &text[s..e];
        if let Some((host, rest)) = split_url(url) {
            out.push(Host {
                class: classify(&host, rest),
                host,
                url: url.to_owned(),
                path: rest.to_owned(),
            });
        }
    }
    option_hosts(text, &mut out);
    socket_cli::socket_cli_hosts(text, &mut out);
    rsync_hosts::rsync_module_hosts(text, &mut out);
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // A bare dotted quad not inside a URL already seen.
        if b[i].is_ascii_digit()
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric()
                    || matches!(b[i - 1], b'.' | b'/' | b':' | b'-')))
        {
            let s = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            let cand = text[s..i].trim_end_matches('.');
            if cand.split('.').count() == 4
                && cand.split('.').all(|p| {
                    !p.is_empty() && p.len() <= 3 && p.parse::<u16>().is_ok_and(|n| n < 256)
                })
                && !out.iter().any(|h: &Host| h.host == cand)
            {
                out.push(Host {
                    class: classify(cand, ""),
                    host: cand.to_owned(),
                    url: cand.to_owned(),
                    path: String::new(),
                });
            }
            continue;
        }
        // `user@host:path` (scp, rsync, git over ssh) and e-mail addresses (`user@domain`).
        if b[i] == b'@' && i > 0 && b[i - 1].is_ascii_alphanumeric() {
            let s = i + 1;
            let mut j = s;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'.' | b'-')) {
                j += 1;
            }
            let domain = text[s..j].trim_end_matches('.');
            let email = domain.contains('.')
                && domain.rsplit('.').next().is_some_and(|tld| {
                    tld.len() >= 2 && tld.bytes().all(|c| c.is_ascii_alphabetic())
                })
                && !(j < b.len() && b[j] == b':');
            if email && !out.iter().any(|h| h.host == domain) {
                let host = domain.to_ascii_lowercase();
                out.push(Host {
                    class: classify(&host, ""),
                    url: text[s..s + domain.len()].to_owned(),
                    host,
                    path: String::new(),
                });
            }
            if j < b.len() && b[j] == b':' && j > s && text[s..j].contains('.') {
                let host = text[s..j].to_ascii_lowercase();
                if !out.iter().any(|h| h.host == host) {
                    out.push(Host {
                        class: classify(&host, ""),
                        url: text[s..j].to_owned(),
                        host,
                        path: String::new(),
                    });
                }
            }
            i = j.max(i + 1);
            continue;
        }
        i += 1;
    }
    out
}

/// Hosts named as a request option rather than in a URL: `hostname: 'api.x.example'` (Node's
/// `https.request`), `host="x.example"`, `HTTPSConnection("x.example")`.
fn option_hosts(text: &str, out: &mut Vec<Host>) {
    // Every key holds `host` or `Connection(` (one search each instead of four).
    let b = text.as_bytes();
    if memchr::memmem::find(b, b"host").is_none()
        && memchr::memmem::find(b, b"Connection(").is_none()
        && memchr::memmem::find(b, b"SMTP").is_none()
        && memchr::memmem::find(b, b"FTP").is_none()
    {
        return;
    }
    // Mail and FTP clients take their server as the first argument (`smtplib.SMTP("mail.x")`,
    // `ftplib.FTP_TLS("files.x")`), like `HTTPSConnection` (round 30c).
    for key in [
        "hostname",
        "host",
        "HTTPSConnection(",
        "HTTPConnection(",
        "SMTP(",
        "SMTP_SSL(",
        "FTP(",
        "FTP_TLS(",
    ] {
        let mut from = 0;
        while let Some(i) = text[from..].find(key).map(|i| i + from) {
            from = i + key.len();
            let before_ok = i == 0 || !text.as_bytes()[i - 1].is_ascii_alphanumeric();
            let rest = text[from..].trim_start_matches([' ', ':', '=', '"', '\'']);
            // Only the form `key: 'value'` / `key = "value"` / `Conn("value")`.
            let sep = &text[from..from + (text.len() - from - rest.len())];
            if !before_ok
                || !(sep.contains(['"', '\'']) && (key.ends_with('(') || sep.contains([':', '='])))
            {
                continue;
            }
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
                .unwrap_or(rest.len());
            let host = rest[..end].trim_end_matches('.').to_ascii_lowercase();
            let tld_ok = host
                .rsplit('.')
                .next()
                .is_some_and(|t| t.len() >= 2 && t.bytes().all(|c| c.is_ascii_alphabetic()));
            if host.contains('.') && tld_ok && !out.iter().any(|h| h.host == host) {
                out.push(Host {
                    class: classify(&host, ""),
                    url: rest[..end].to_owned(),
                    host,
                    path: String::new(),
                });
            }
        }
    }
}

/// The most suspicious host of a list (ties: the first).
pub fn worst(hosts: &[Host]) -> Option<&Host> {
    let mut best: Option<&Host> = None;
    for h in hosts {
        if best.is_none_or(|b| h.class > b.class) {
            best = Some(h);
        }
    }
    best
}

/// A finding of a judge rule.
#[allow(clippy::too_many_arguments)]
pub fn finding(
    rule_id: &str,
    category: &str,
    severity: Severity,
    at: At<'_>,
    description: String,
    related: Vec<Related>,
) -> Finding {
    Finding {
        rule_id: rule_id.into(),
        category: category.into(),
        severity,
        file: at.file.path.into(),
        line: at.fact.line as usize,
        evidence: at.evidence(),
        description,
        related,
    }
}

/// The judge's view of a bundle.
pub struct Bundle<'a> {
    pub rules: &'a RuleSet,
    pub files: Vec<File<'a>>,
    /// Findings of the single-line rules (some judge rules ask whether anything else looks wrong).
    pub prior: &'a [Finding],
}

impl<'a> Bundle<'a> {
    /// Every fact of one kind in the bundle, file by file.
    pub fn all(&'a self, kind: FactKind) -> impl Iterator<Item = At<'a>> + 'a {
        self.files
            .iter()
            .flat_map(move |file| file.facts.of(kind).map(move |fact| At { file, fact }))
    }

    /// Facts of one kind in one file.
    pub fn in_file(
        &'a self,
        file: &'a File<'a>,
        kind: FactKind,
    ) -> impl Iterator<Item = At<'a>> + 'a {
        file.facts.of(kind).map(move |fact| At { file, fact })
    }

    pub fn any(&self, kind: FactKind) -> bool {
        self.files.iter().any(|f| f.facts.has(kind))
    }

    /// The rule's tag of a fact.
    pub fn tag(&self, fact: &Fact) -> &str {
        self.rules.rules[fact.rule as usize]
            .tag
            .as_deref()
            .unwrap_or("")
    }

    /// The rule's title of a fact (what it says about the line).
    pub fn title(&self, fact: &Fact) -> &str {
        &self.rules.rules[fact.rule as usize].title
    }

    /// The bundle's SKILL.md (its name matched without regard to case), if it has one.
    pub fn skill_md(&self) -> Option<&File<'a>> {
        self.files
            .iter()
            .find(|f| f.path.eq_ignore_ascii_case("SKILL.md"))
    }

    /// The words of the skill's name (SKILL.md's frontmatter `name`, split at every character that
    /// is not a letter or digit, lower-cased, four characters or more): `acme-sh-ssl` gives `acme`.
    pub fn name_words(&self) -> Vec<String> {
        self.skill_md()
            .and_then(|f| declared_name(f.content))
            .map(|n| name_words(&n))
            .unwrap_or_default()
    }
}

/// A text's lines and their trimmed, ASCII-lowered copies (judges use [`File::lowered`], which
/// computes this once per file).
fn lines_and_lowered(content: &str) -> Lowered<'_> {
    let lines: Vec<&str> = content.lines().collect();
    let lower = lines
        .iter()
        .map(|l| crate::ascii_lowered(l.trim()).into_owned())
        .collect();
    Lowered { lines, lower }
}

/// Run every judge rule over a bundle's facts.
pub fn judge(b: &Bundle<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let flows: Vec<flow::FileFlow> = b.files.iter().map(|f| flow::analyze(b, f)).collect();
    secrets::judge(b, &flows, &mut out);
    exec::judge(b, &flows, &mut out);
    agent::judge(b, &mut out);
    clipper::judge(b, &mut out);
    claims::judge(b, &flows, &mut out);
    store_upload::judge(b, &mut out);
    hosted_store::judge(b, &mut out);
    mcp_relay::mcp_server_relay(b, &mut out);
    bundled_loader::bundled_loader(b, &mut out);
    hidden_dest::hidden_destination(b, &mut out);
    guard_bypass::guard_bypass(b, &mut out);
    autorun::autorun(b, &mut out);
    exposed::judge(b, &mut out);
    hidden_copy::judge(b, &mut out);
    carry::judge(b, &mut out);
    errands::judge(b, &mut out);
    // Round 32m: look-alike dependencies in code and manifests, tools a server answers unlisted,
    // credentials taken as tool arguments and posted to a fixed outside address.
    lookalike_deps::lookalike_deps(b, &mut out);
    unlisted_tools::unlisted_tools(b, &mut out);
    cred_input::credential_input(b, &mut out);
    tool_sinks::judge(b, &mut out);
    lookalike_installer::judge(b, &mut out);
    // Round 33m: a request naming machine and user, in a file that installs a schedule.
    scheduled_beacon::scheduled_beacon(b, &mut out);
    secret_param::secret_parameter(b, &mut out);
    // Round 34t: the agent's memory files staged out of view, then sent or synced.
    memory_ship::agent_memory_staged(b, &mut out);
    // Round 34m: run file contents, account files opened, back doors ordered into written code,
    // secrets in links, hidden send orders, staged sends.
    file_exec::exec_file_contents(b, &mut out);
    account_perms::account_file_perms(b, &mut out);
    codegen_backdoor::codegen_backdoor(b, &mut out);
    secret_link::secret_in_link(b, &mut out);
    hidden_send::hidden_send_order(b, &mut out);
    staged_send::staged_send(b, &mut out);
    concealed_upload::concealed_upload(b, &mut out);
    exec_output::exec_output_sent(b, &mut out);
    // Round 36t: a socket shell over several lines, system folders deleted through a loop,
    // fetched code evaluated from pieces, `source` climbing out of the bundle.
    socket_fd_shell::split_socket_shell(b, &mut out);
    socket_fd_shell::system_path_loop(b, &mut out);
    stream_eval::streamed_eval(b, &mut out);
    stream_eval::source_escape(b, &mut out);
    // Round 36m: disguised command names, key material uploaded anywhere (local addresses too),
    // orders spelled with zero-width characters, credential files passed in tool calls.
    disguise::disguised_command(b, &mut out);
    key_upload::key_material_upload(b, &mut out);
    zw_order::zero_width_order(b, &mut out);
    marked_param::secret_file_in_call(b, &mut out);
    // Round 37m: a bundled file whose code cannot be read (bytecode, a native binary, binary data
    // behind a script's name), ordered run by a text of the bundle.
    opaque_run::opaque_code_run(b, &mut out);
    // Round 37m: an order to drop the agent's instructions with a qualifier between the words.
    override_variant::override_variant(b, &mut out);
    // Round 37m: an npm install hook that reports the machine to an outside host.
    install_beacon::install_hook_beacon(b, &mut out);
    // Round 38m: setup.py beacons, decoded droppers, secrets ordered shown in full, tool
    // descriptions rewritten at run time, session transcripts posted to a fixed host, hidden
    // remote instructions.
    setup_beacon::setup_beacon(b, &mut out);
    decoded_drop::decoded_file_run(b, &mut out);
    secret_reveal::secret_reveal(b, &mut out);
    tool_swap::tool_description_swap(b, &mut out);
    transcript_ship::transcript_upload(b, &mut out);
    remote_orders::hidden_remote_orders(b, &mut out);
    // Round 39m: secret stores harvested from home and posted, data carried in DNS names, CI
    // secrets sent to a drop host.
    harvest::secret_harvest(b, &mut out);
    dns_carry::dns_carry(b, &mut out);
    ci_secrets::ci_secrets_sent(b, &mut out);
    // Round 40c: standing orders appended to every installed skill's SKILL.md.
    other_skills::other_skills_rewrite(b, &mut out);
    // Round 40m: wallet secrets handed to a request, tokens scraped from application data and
    // posted, fetched chunks evaluated as they come, packages run hidden from a git source.
    wallet_send::wallet_secret_sent(b, &mut out);
    token_scrape::token_scrape(b, &mut out);
    chunk_eval::chunk_eval(b, &mut out);
    chunk_eval::hidden_git_run(b, &mut out);
    // Round 41m: encoded commands run, decrypted code evaluated, identity sent to request
    // collectors, phishing prose and admitted keyloggers, context secrets posted (host roots wiped:
    // after the shapes).
    decoded_run::decoded_run(b, &mut out);
    collector_beacon::identity_to_collector(b, &mut out);
    data_phish::data_phish(b, &mut out);
    context_ask::context_secrets_posted(b, &mut out);
    // Round 42m: wallet keys in requests, secrets printed encoded, forged consent and hidden
    // remote scripts, code-host drop boxes, blank-literal code, discussion-run workflows.
    wallet_request::wallet_key_in_request(b, &mut out);
    encoded_output::secrets_encoded_to_output(b, &mut out);
    forged_consent::forged_consent(b, &mut out);
    dead_drop::code_host_dead_drop(b, &mut out);
    blank_exec::whitespace_encoded_exec(b, &mut out);
    ci_event_run::ci_event_backdoor(b, &mut out);
    // Round 37t: lures told in blocks and other languages, downloads run through process APIs,
    // notebooks and WSH, whole stores uploaded, socket shells in Lua and the JVM, system and home
    // folders deleted, agent tampering in other languages.
    shapes::judge(b, &mut out);
    // Round 43m: native droppers and build-script sockets (after the shapes, whose read-and-send
    // keeps a build script's harvest), commands spelled in one-character pieces, data spelled out
    // one request per character.
    native_run::native_droppers(b, &mut out);
    char_fetch::per_character_fetch(b, &mut out);
    // Round 41m: after the shapes, whose system-part deletes keep their own finding.
    host_wipe::host_root_wipe(b, &mut out);
    // Round 38c: package indexes pointed elsewhere, wallets drained to a fixed address, MCP
    // servers relaying to a fixed host:port, settings lifted by property calls or shipped
    // configs, popular packages swapped for a stranger's archive.
    foreign::judge(b, &mut out);
    // Round 39m: fetched code evaluated from a decoded address; downloads run with TLS checks off
    // (after every rule that finds a download run).
    unverified_run::hidden_fetch_eval(b, &mut out);
    unverified_run::unverified_download_run(b, &mut out);
    // Prose rules last: some ask whether anything else in the bundle is an action or a finding.
    let more = prose::judge(b, &out);
    out.extend(more);
    // Round 32m: what a lone concealment covers (after the prose rules, which raise it).
    concealed_acts::concealed_acts(b, &mut out);
    shapes::after_prose(b, &mut out);
    // Round 44m: last, so that no earlier rule's reading changes; each skips a line already
    // judged critical.
    agent_cfg_run::agent_config_remote_run(b, &mut out);
    agent_cfg_run::tool_alias_shell(b, &mut out);
    agent_cfg_run::unchecked_agent_harvest(b, &mut out);
    agent_cfg_run::tool_description_concealment(b, &mut out);
    mem_beacon::process_memory(b, &mut out);
    mem_beacon::identity_beacon(b, &mut out);
    // Round 45m: after round 44m's, for the same reason; each skips a line already judged
    // critical.
    loader_lure::download_loader_run(b, &mut out);
    loader_lure::attachment_executable(b, &mut out);
    quiet_orders::secret_file_posted(b, &mut out);
    quiet_orders::deferred_access_plant(b, &mut out);
    quiet_orders::attribute_orders(b, &mut out);
    quiet_orders::secrets_to_memory_chat(b, &mut out);
    // Round 46m: after round 45m's, for the same reason; each skips a line already judged
    // critical.
    wallet_drop::wallet_secret_carried(b, &mut out);
    wallet_drop::wallet_files_dropped(b, &mut out);
    wallet_drop::session_string_sent(b, &mut out);
    editor_autorun::editor_autorun_task(b, &mut out);
    env_stage::secret_env_staged(b, &mut out);
    // Round 47m: after round 46m's, for the same reason; each skips a line already judged
    // critical.
    recipient_swap::payment_recipient_swap(b, &mut out);
    tool_docstring::tool_docstring_concealment(b, &mut out);
    hook_loader::hook_decoded_loader(b, &mut out);
    // Round 43m's open item (taken up in round 47m): a send whose destination is spelled in `\xNN`
    // escapes.
    escaped_dest::escaped_destination(b, &mut out);
    // Round 48m: after round 47m's, for the same reason; each skips a line already judged
    // critical.
    install_agent_cfg::install_agent_config(b, &mut out);
    followed_orders::followed_remote_orders(b, &mut out);
    env_pick_send::env_secrets_sent(b, &mut out);
    tool_desc_order::tool_description_override(b, &mut out);
    // Round 49m: after round 48m's, for the same reason; each skips a line already judged
    // critical.
    prose_send::prose_secret_send(b, &mut out);
    hidden_stash::hidden_temp_stash(b, &mut out);
    startup_line::startup_remote_line(b, &mut out);
    startup_line::install_hook_pipe(b, &mut out);
    // Round 50m: after round 49m's, for the same reason; each skips a line already judged
    // critical.
    held50m::judge(b, &mut out);
    // Round 50k: after round 49m's, for the same reason; skips a line already judged critical.
    joined_delete::joined_root_delete(b, &mut out);
    split_command::split_socat_exec(b, &mut out);
    out
}

#[cfg(test)]
mod tests;
