//! Following values through one file: which secrets reach which requests, which downloaded or
//! decoded content reaches which `eval`/`exec`/run, and which files a secret or a download is
//! written to (for the cross-file rules).
//!
//! One pass over the file's statements ([`super::code::statements`]), in order. A statement with a
//! source fact (a secret read, a fetch, a decode) or that reads a name already tainted taints the
//! names it assigns, the function it sits in (its result carries the value) and the files it writes;
//! a statement with a sink fact (a request, a run) that carries a taint is a flow. Only files with
//! both kinds of facts are walked, and a statement's names are read only once something is tainted,
//! so files without flows cost almost nothing.

use std::collections::BTreeMap;

use super::code::{self, Definitions};
use args::ArgFlows;
pub(crate) use paths::fixed_program;
use paths::reads_content;
pub use paths::{names_key, path_key};
use paths::{write_handle, write_targets};
use scope::{Scope, ScopeLang, close};

mod args;
mod blocks;
mod commands;
pub mod exports;
mod filled;
mod line_hosts;
use line_hosts::{host_literal, line_hosts};
mod paths;
mod request_object;

mod scope;
use super::secrets;
use super::{Bundle, File, Host, hosts_in};
use crate::scan::facts::{Fact, FactKind};

/// Most origins remembered per tainted name.
const MAX_ORIGINS: usize = 4;
/// Most flows recorded per file (each becomes a finding at most).
const MAX_FLOWS: usize = 64;
/// Most tainted files remembered per file.
const MAX_PATHS: usize = 32;

/// A value's way from a source fact to a sink fact (indices into the file's facts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flow {
    pub source: usize,
    pub sink: usize,
    /// The names it travelled through (line where each was assigned), in order, at most a few.
    pub via: Vec<(u32, String)>,
}

/// A file that a tainted value was written to, or a download saved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// How later code names the file: a basename (`state.json`), or a variable (`$TMP`, `target`).
    pub key: String,
    /// The fact that tainted it.
    pub origin: usize,
    pub line: u32,
}

/// A sink's destinations, and the name (with the line of its definition) they were resolved through.
pub type SinkHosts = (Vec<Host>, Option<(String, u32)>);

/// What following values through one file found.
#[derive(Debug, Clone, Default)]
pub struct FileFlow {
    /// Definitions as they stand at the end of the file.
    pub defs: Definitions,
    /// Secret → request.
    pub secret_flows: Vec<Flow>,
    /// Fetched, downloaded or decoded content → run or eval.
    pub code_flows: Vec<Flow>,
    /// Files a secret was written to.
    pub secret_files: Vec<Written>,
    /// Files a download was saved to.
    pub downloads: Vec<Written>,
    /// Hosts of each sink-like fact (request, download, fetch, pipe), as resolved where it stands:
    /// from a URL in the statement, else from a name defined earlier (with that definition's line).
    pub hosts: BTreeMap<usize, SinkHosts>,
    /// Names whose value came from a secret, with the fact (for other rules).
    pub tainted_names: BTreeMap<String, Vec<usize>>,
    /// Names (and functions) whose value came from fetched or downloaded content, with the fact:
    /// what another module that imports them may run (see `exec::imported`).
    pub code_names: BTreeMap<String, Vec<usize>>,
}

pub fn is_secret_source(k: FactKind) -> bool {
    matches!(
        k,
        FactKind::SecretEnv
            | FactKind::EnvDump
            | FactKind::EnvCopy
            | FactKind::EnvNames
            | FactKind::SecretHarvest
            | FactKind::SecretFile
            | FactKind::SecretCommand
    )
}

fn is_code_source(k: FactKind) -> bool {
    matches!(
        k,
        FactKind::FetchToValue | FactKind::Download | FactKind::Decode
    )
}

fn is_runner(k: FactKind) -> bool {
    matches!(
        k,
        FactKind::RunFile | FactKind::EvalValue | FactKind::PipeExec
    )
}

fn needs_hosts(k: FactKind) -> bool {
    matches!(
        k,
        FactKind::NetSend | FactKind::Download | FactKind::FetchToValue | FactKind::PipeExec
    )
}

/// Follow values through one file.
pub fn analyze(b: &Bundle<'_>, file: &File<'_>) -> FileFlow {
    let mut ff = FileFlow::default();
    let facts = &file.facts.facts;
    let code = |f: &&Fact| !f.prose;
    let kinds: Vec<FactKind> = facts.iter().filter(code).map(|f| f.kind).collect();
    let has = |pred: &dyn Fn(FactKind) -> bool| kinds.iter().any(|k| pred(*k));
    let wanted = has(&needs_hosts)
        || has(&|k| {
            matches!(
                k,
                FactKind::RemoveTree
                    | FactKind::DeviceWrite
                    | FactKind::RunFile
                    | FactKind::EvalValue
            )
        })
        || has(&is_secret_source)
        || has(&is_code_source) && has(&is_runner);
    if !wanted {
        return ff;
    }
    let lower = file.path.to_ascii_lowercase();
    let data = [
        ".json", ".jsonc", ".toml", ".xml", ".plist", ".lock", ".csv",
    ]
    .iter()
    .any(|e| lower.ends_with(e));
    // After the last code fact, only a value still being followed (tainted, and perhaps written to
    // a file another script sends) can matter: the statements are read up to that fact, and the
    // rest only if something is tainted by then. (A file's facts are capped per kind, so a huge
    // file is otherwise followed only as far as its facts reach.)
    let until = facts.iter().filter(code).map(|f| f.line).max().unwrap_or(0);
    let mut statements = code::statements_until(file.content, file.kind, data, until);
    let mut whole = false;
    let mut tainted: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut via: BTreeMap<String, (u32, String)> = BTreeMap::new();
    // Files opened for writing, by the name they were opened under (`with open(p, "w") as f`).
    let mut handles: BTreeMap<String, String> = BTreeMap::new();
    let mut function: Option<String> = None;
    // The function whose local names are being followed (Python; JS/TS, shell and Go declarations).
    let mut scope: Option<Scope> = None;
    let lang = ScopeLang::of(&lower);
    // Values passed as arguments: each local function's parameters, the requests in its body and
    // the parameters they read, and the statements that pass a followed value to some call.
    let mut calls = ArgFlows::default();
    let mut fi = 0;
    let mut next = 0;
    loop {
        if next == statements.len() {
            if whole || tainted.is_empty() {
                break;
            }
            let done = statements.last().map_or(0, |s| s.last);
            statements = code::statements_of(file.content, file.kind, data);
            next = statements.partition_point(|s| s.first <= done);
            whole = true;
            continue;
        }
        let stmt = statements[next];
        next += 1;
        let text = stmt.text(file.content);
        // Facts of this statement (facts are in line order; prose facts sit between fences).
        while fi < facts.len() && facts[fi].line < stmt.first {
            fi += 1;
        }
        let mut here: Vec<usize> = Vec::new();
        let mut j = fi;
        while j < facts.len() && facts[j].line <= stmt.last {
            // A secret-word filter over what `curl`/`wget` prints reads a fetched page (round 30).
            let page_filter = facts[j].kind == FactKind::SecretHarvest && {
                let f = &facts[j];
                let line = crate::scan::facts::logical_text(file.content, f.start, f.end);
                super::disclosed::filters_download(&line, f.at as usize)
            };
            if !facts[j].prose && !page_filter {
                here.push(j);
            }
            j += 1;
        }
        let first_line = text.split('\n').next().unwrap_or("");
        if handles.len() < MAX_PATHS
            && let Some((name, path)) = write_handle(first_line)
        {
            handles.insert(name.to_owned(), path.to_owned());
        }
        let defines = code::defines_function(first_line);
        let indent = first_line.len() - first_line.trim_start().len();
        if let Some(name) = defines {
            function = Some(name.to_owned());
            calls.define(name, text);
            // A function defined beside (not inside) the one being read ends that one's locals.
            if scope.as_ref().is_some_and(|sc| indent <= sc.indent) {
                close(&mut scope, &mut tainted, &mut via);
            }
            if scope.is_none() && lang != ScopeLang::None {
                scope = Some(Scope {
                    indent,
                    globals: Vec::new(),
                    saved: Vec::new(),
                });
            }
        } else if first_line.starts_with('}')
            || (!first_line.starts_with([' ', '\t'])
                && !first_line.trim().is_empty()
                && file.path.ends_with(".py")
                && !first_line.starts_with(['#', '@', ')', ']']))
        {
            // Back at the top level (a closing brace in column 0, or an unindented Python line).
            function = None;
            close(&mut scope, &mut tainted, &mut via);
        }
        if let Some(sc) = &mut scope {
            sc.note_globals(first_line);
        }
        // Hosts of the sink-like facts, resolved where they stand.
        if here.iter().any(|&i| needs_hosts(facts[i].kind)) {
            let direct = hosts_in(text);
            let resolved = if direct.is_empty() {
                line_hosts::unbound_refs(text).into_iter().find_map(|r| {
                    ff.defs
                        .resolve(r, &host_literal)
                        .map(|(url, line)| (hosts_in(&url), (r.to_owned(), line)))
                })
            } else {
                None
            };
            for &i in here.iter().filter(|&&i| needs_hosts(facts[i].kind)) {
                // In a statement of several lines (a JS function body is one statement), each
                // request's own line says first where it goes (round 30c): a templated call to a
                // vendor earlier in the body does not lend its host to a later `fetch(endpoint)`.
                let own = (stmt.last > stmt.first)
                    .then(|| line_hosts(file.content, &facts[i], &ff.defs))
                    .flatten();
                let entry = match (own, &resolved) {
                    (Some(e), _) => e,
                    (None, Some((hosts, by))) => (hosts.clone(), Some(by.clone())),
                    (None, None) => (direct.clone(), None),
                };
                ff.hosts.insert(i, entry);
            }
        }
        // Origins: sources here, tainted names read here, tainted files named here.
        let mut origins: Vec<usize> = here
            .iter()
            .copied()
            .filter(|&i| {
                is_secret_source(facts[i].kind)
                    // Literals joined from pieces are judged by what they spell
                    // (`obfuscation.split-name`), not followed as decoded data.
                    || is_code_source(facts[i].kind)
                        && !(facts[i].kind == FactKind::Decode && b.tag(&facts[i]) == "split")
            })
            .collect();
        let mut through: Vec<(u32, String)> = Vec::new();
        if !tainted.is_empty() {
            // `req = Request(…)`: the name a statement gives a new value is not read by it.
            let written = code::overwritten(text);
            for r in code::refs(text) {
                // (In a block, a name set anew before it is read does not carry its old value.)
                if Some(r) == written
                    || stmt.last > stmt.first
                        && tainted.contains_key(r)
                        && blocks::set_before_read(text, r)
                {
                    continue;
                }
                if let Some(o) = tainted.get(r) {
                    origins.extend(o.iter().copied());
                    if let Some(v) = via.get(r) {
                        through.push(v.clone());
                    }
                }
            }
        }
        // Files written earlier and named here; a downloaded one only counts for a run that runs
        // it (not one that reads it as data), checked at the sink below.
        let mut by_path: Vec<(usize, String)> = Vec::new();
        for w in ff.secret_files.iter().chain(&ff.downloads) {
            if w.line < stmt.first && names_key(text, &w.key) {
                origins.push(w.origin);
                through.push((w.line, w.key.clone()));
                by_path.push((w.origin, w.key.clone()));
            }
        }
        origins.sort_unstable();
        origins.dedup();
        // Requests inside a local function's body, with the parameters they read; statements
        // that pass a followed value on.
        if let Some(f) = &function
            && (defines.is_some() || first_line.starts_with([' ', '\t']))
        {
            let body = if defines.is_some() {
                text.split_once('\n').map_or("", |(_, r)| r)
            } else {
                text
            };
            for &i in here.iter().filter(|&&i| facts[i].kind == FactKind::NetSend) {
                calls.sink_in(f, i, body);
            }
            if defines.is_none() {
                calls.local_assign(f, text);
            }
        }
        // Sinks (and a request object made earlier that this statement writes a value to).
        let late = if origins.is_empty() {
            None
        } else {
            request_object::written_request(text, &ff.defs).and_then(|line| {
                facts
                    .iter()
                    .position(|f| !f.prose && f.kind == FactKind::NetSend && f.line == line)
            })
        };
        for &s in here.iter().chain(late.iter()) {
            let sink = &facts[s];
            let secret_sink = sink.kind == FactKind::NetSend;
            let code_sink = is_runner(sink.kind);
            for &o in &origins {
                if o == s {
                    continue;
                }
                let src = facts[o].kind;
                // A read on a later line of the same statement (a shell function or `if` block
                // read as one statement), after the block of the request has closed, cannot feed
                // that request, unless the statement repeats (round 43b).
                let read_after = || {
                    here.contains(&o)
                        && facts[o].line > sink.line
                        && !blocks::repeats(text)
                        && blocks::closed_between(&file.lowered().lines, sink.line, facts[o].line)
                };
                let record = if secret_sink && is_secret_source(src) && !read_after() {
                    Some(&mut ff.secret_flows)
                } else if code_sink && is_code_source(src) {
                    // A run in the same statement as a download must name the downloaded file.
                    let same = facts[o].line >= stmt.first && facts[o].line <= stmt.last;
                    let target = sink_target(file, sink);
                    // An interpreter named as a string (`spawn('bash', [dest])`,
                    // `run(["python3", path])`) runs the file it is handed (round 34t).
                    let interp = paths::quoted_interpreter(&target);
                    let runs_it = |k: &str| {
                        names_key(&target, k)
                            || (sink.kind == FactKind::PipeExec || interp) && names_key(text, k)
                    };
                    // The run's program is the result of a local function whose body downloaded
                    // it (`Popen([engine(), …])`, `engine()` saving and returning the path).
                    let from_call = paths::called_name(&target)
                        .and_then(|n| tainted.get(n))
                        .is_some_and(|l| l.contains(&o));
                    let ok = match (src, sink.kind) {
                        // A downloaded file is evaluated only where its contents are read into
                        // the evaluation (`exec(compile(open(p).read(), …))`); an `eval` that
                        // merely names the path does not run it.
                        (FactKind::Download, FactKind::EvalValue) => reads_content(text),
                        (FactKind::Download, _) if same => {
                            download_key(b, file, &facts[o]).is_some_and(|k| runs_it(&k))
                        }
                        (FactKind::Download, _) => {
                            by_path.iter().any(|(oo, k)| *oo == o && runs_it(k))
                                || sink.kind == FactKind::RunFile && from_call
                        }
                        // Fetched content written to a file, then run: the same check.
                        (FactKind::FetchToValue, FactKind::RunFile)
                            if by_path.iter().any(|(oo, _)| *oo == o) =>
                        {
                            by_path.iter().any(|(oo, k)| *oo == o && runs_it(k))
                        }
                        // A fixed program that is not an interpreter (`execFile('git', […])`,
                        // `subprocess.run(["jq", …])`): fetched or decoded values reach only its
                        // arguments, not the code that runs.
                        (_, FactKind::RunFile) if fixed_program(&target) => false,
                        _ => true,
                    };
                    ok.then_some(&mut ff.code_flows)
                } else {
                    None
                };
                if let Some(list) = record
                    && list.len() < MAX_FLOWS
                    && !list.iter().any(|f| f.source == o && f.sink == s)
                {
                    list.push(Flow {
                        source: o,
                        sink: s,
                        via: through.iter().take(4).cloned().collect(),
                    });
                }
            }
        }
        // Downloads remember where they were saved.
        for &i in &here {
            if facts[i].kind == FactKind::Download
                && let Some(key) = download_key(b, file, &facts[i])
                && ff.downloads.len() < MAX_PATHS
                && !ff.downloads.iter().any(|w| w.key == key)
            {
                ff.downloads.push(Written {
                    key,
                    origin: i,
                    line: stmt.first,
                });
            }
        }
        let names = if text.contains('=')
            // R's and Haskell's `k <- …` (stop 58).
            || first_line.contains(" <- ")
            || first_line.trim_start().starts_with("for ")
            || first_line.trim_start().starts_with("with ")
            // AppleScript's `set pw to …` (stop 57).
            || first_line.trim_start().starts_with("set ") && first_line.contains(" to ")
            // `NAME: value` (a workflow's `env:` entry; see `code::assigned`).
            || first_line
                .trim_start()
                .as_bytes()
                .first()
                .is_some_and(u8::is_ascii_uppercase)
                && first_line.contains(": ")
        {
            code::assigned(text)
        } else {
            Vec::new()
        };
        // A request that authenticates with the key is answered by the remote: `resp =
        // requests.post(vendor, headers={"x-api-key": key})` or `out=$(curl -H "x-api-key: $KEY" …)`
        // does not put the key in `resp` (the request itself is judged as a sink above), so a
        // summary posted to a chat afterwards does not carry it. Only where every mention of the key
        // sits in a header: a key in a body, a query or an upload may come back (an upload's link),
        // and a request object (`Request(url, data=…)`) is not sent yet. Fetched code still taints.
        let answer = here
            .iter()
            .any(|&i| facts[i].kind == FactKind::NetSend && facts[i].line == stmt.first)
            && !first_line.contains("Request(")
            && {
                let mut keys: Vec<&str> = here
                    .iter()
                    .filter(|&&i| is_secret_source(facts[i].kind))
                    .filter_map(|&i| facts[i].capture.as_deref())
                    .collect();
                keys.extend(code::refs(text).into_iter().filter(|r| {
                    tainted
                        .get(*r)
                        .is_some_and(|l| l.iter().any(|&o| is_secret_source(facts[o].kind)))
                }));
                !keys.is_empty() && secrets::in_header(text, &keys)
            };
        let carried: Vec<usize> = origins
            .iter()
            .copied()
            .filter(|&o| !(answer && is_secret_source(facts[o].kind)))
            .collect();
        if !carried.is_empty() {
            // A line of several commands: each name takes what its own command reads.
            let by_name = (stmt.first == stmt.last && !names.is_empty())
                .then(|| {
                    let named_files = |command: &str| -> Vec<usize> {
                        ff.secret_files
                            .iter()
                            .chain(&ff.downloads)
                            .filter(|w| w.line < stmt.first && names_key(command, &w.key))
                            .map(|w| w.origin)
                            .collect()
                    };
                    commands::origins_by_name(
                        text,
                        stmt.start,
                        facts,
                        &carried,
                        &tainted,
                        &named_files,
                    )
                })
                .flatten();
            let origins = carried;
            let mut targets: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
            // A message, archive or buffer filled through a method (`msg.set_content(v)`).
            if names.is_empty()
                && let Some(o) = filled::filled_object(first_line)
            {
                targets.push(o.to_owned());
            }
            if let Some(f) = &function
                && !(stmt.last == stmt.first && only_tests(text, lower.ends_with(".py")))
            {
                targets.push(f.clone());
            }
            for t in targets {
                if let Some(sc) = &mut scope
                    && Some(&t) != function.as_ref()
                    && lang.is_local(first_line, &t, sc)
                {
                    sc.save(&t, &tainted, &via);
                }
                let own = by_name.as_ref().and_then(|m| m.get(&t)).unwrap_or(&origins);
                if own.is_empty() {
                    continue;
                }
                let list = tainted.entry(t.clone()).or_default();
                for &o in own {
                    if list.len() < MAX_ORIGINS && !list.contains(&o) {
                        list.push(o);
                    }
                }
                via.insert(t.clone(), (stmt.first, t));
            }
            // Fetched content written to a file: a download saved there.
            if origins
                .iter()
                .any(|&o| matches!(facts[o].kind, FactKind::FetchToValue))
            {
                let mut targets: Vec<String> =
                    write_targets(text).into_iter().map(str::to_owned).collect();
                // A file handle it is written into: `f` from `open(path, "wb")`, `os.Create(path)`,
                // `os.OpenFile(path, …)` (`f.write(data)`, `shutil.copyfileobj(r.raw, f)`,
                // `io.Copy(out, resp.Body)`).
                for r in code::refs(text) {
                    let Some(def) = ff.defs.get(r) else { continue };
                    for opener in ["open(", "Create(", "OpenFile(", "createWriteStream("] {
                        if let Some(i) = def.text.find(opener) {
                            let args = &def.text[i + opener.len()..];
                            let writes = opener != "open("
                                || args.split(')').next().is_some_and(|a| {
                                    a.contains("'w")
                                        || a.contains("\"w")
                                        || a.contains("'a")
                                        || a.contains("\"a")
                                });
                            if writes {
                                targets.push(
                                    args.split([',', ')'])
                                        .next()
                                        .unwrap_or("")
                                        .trim()
                                        .to_owned(),
                                );
                            }
                        }
                    }
                }
                let origin = *origins
                    .iter()
                    .find(|&&o| facts[o].kind == FactKind::FetchToValue)
                    .unwrap_or(&origins[0]);
                for t in targets {
                    if let Some(key) = path_key(&t)
                        && ff.downloads.len() < MAX_PATHS
                        && !ff.downloads.iter().any(|w| w.key == key)
                    {
                        ff.downloads.push(Written {
                            key,
                            origin,
                            line: stmt.first,
                        });
                    }
                }
            }
            if origins.iter().any(|&o| is_secret_source(facts[o].kind)) {
                let mut writes = write_targets(text);
                // Written through a handle opened for writing earlier (`f.write(v)`).
                if let Some(p) = filled::filled_object(first_line).and_then(|o| handles.get(o)) {
                    writes.push(p);
                }
                for target in writes {
                    let resolved = ff
                        .defs
                        .resolve(
                            target.trim_matches(['"', '\'', '$', '{', '}']),
                            &|rhs: &str| {
                                code::literals(rhs)
                                    .into_iter()
                                    .find(|l| l.contains('/') || l.contains('.'))
                                    .map(str::to_owned)
                            },
                        )
                        .map(|(v, _)| v);
                    for key in [path_key(target), resolved.as_deref().and_then(path_key)]
                        .into_iter()
                        .flatten()
                    {
                        if ff.secret_files.len() < MAX_PATHS
                            && !ff.secret_files.iter().any(|w| w.key == key)
                        {
                            let origin = *origins
                                .iter()
                                .find(|&&o| is_secret_source(facts[o].kind))
                                .unwrap_or(&origins[0]);
                            ff.secret_files.push(Written {
                                key,
                                origin,
                                line: stmt.first,
                            });
                        }
                    }
                }
            }
        }
        // After the names this statement assigns are followed (a value read and passed on in
        // one statement, as in a block that is one statement).
        // In a block joined into one statement, names assigned on its lines from a source's line
        // on carry that source too (`const k = read(…)` then `send(k)` inside one block).
        let mut inner: Vec<(String, Vec<usize>)> = Vec::new();
        if stmt.last > stmt.first
            && let Some(from) = here
                .iter()
                .filter(|&&i| is_secret_source(facts[i].kind))
                .map(|&i| facts[i].line)
                .min()
        {
            let own: Vec<usize> = here
                .iter()
                .copied()
                .filter(|&i| is_secret_source(facts[i].kind))
                .collect();
            for (k, line) in text.split('\n').enumerate() {
                if stmt.first + k as u32 >= from {
                    for n in code::assigned(line) {
                        if inner.len() < MAX_ORIGINS * 4 {
                            inner.push((n.to_owned(), own.clone()));
                        }
                    }
                }
            }
        }
        if !tainted.is_empty() || !inner.is_empty() {
            calls.record_call(stmt.first, text, &tainted, &inner);
        }
        // Names the block assigns on its later lines without declaring them outlive it.
        if stmt.last > stmt.first {
            let sources: Vec<(usize, u32)> = here
                .iter()
                .filter(|&&i| is_secret_source(facts[i].kind))
                .map(|&i| (i, facts[i].line))
                .collect();
            // Lines whose request authenticates with the key (see `answer` above) pass nothing on.
            let lines: Vec<&str> = text.split('\n').collect();
            let sends: Vec<u32> = here
                .iter()
                .filter(|&&i| facts[i].kind == FactKind::NetSend)
                .map(|&i| facts[i].line)
                .filter(|&l| {
                    let line = lines.get((l - stmt.first) as usize).copied().unwrap_or("");
                    let mut keys: Vec<&str> = here
                        .iter()
                        .filter(|&&i| facts[i].line == l && is_secret_source(facts[i].kind))
                        .filter_map(|&i| facts[i].capture.as_deref())
                        .collect();
                    keys.extend(
                        code::refs(line)
                            .into_iter()
                            .filter(|r| tainted.contains_key(*r)),
                    );
                    !line.contains("Request(")
                        && !keys.is_empty()
                        && secrets::in_header(line, &keys)
                })
                .collect();
            if !sources.is_empty() || !tainted.is_empty() {
                let out = blocks::escaping(lang, text, stmt.first, &sources, &sends, &tainted);
                for (name, list, line) in out {
                    let entry = tainted.entry(name.clone()).or_default();
                    for o in list {
                        if entry.len() < MAX_ORIGINS && !entry.contains(&o) {
                            entry.push(o);
                        }
                    }
                    via.insert(name.clone(), (line, name));
                }
            }
        }
        if !names.is_empty() {
            ff.defs.record(&names, stmt.first, text);
        }
    }
    close(&mut scope, &mut tainted, &mut via);
    for (source, sink, via) in calls.flows() {
        if is_secret_source(facts[source].kind)
            && ff.secret_flows.len() < MAX_FLOWS
            && !ff
                .secret_flows
                .iter()
                .any(|f| f.source == source && f.sink == sink)
        {
            ff.secret_flows.push(Flow {
                source,
                sink,
                via: vec![via],
            });
        }
    }
    for (name, list) in tainted {
        if list
            .iter()
            .any(|&o| matches!(facts[o].kind, FactKind::FetchToValue | FactKind::Download))
        {
            ff.code_names.insert(name.clone(), list.clone());
        }
        if list.iter().any(|&o| is_secret_source(facts[o].kind)) {
            ff.tainted_names.insert(name, list);
        }
    }
    ff
}

/// Whether a one-line statement only tests a value, so the function it sits in does not return it:
/// a Python `if`/`elif`/`while`/`assert` header (`if _get_token():` chooses a branch; the value goes
/// nowhere), or a `return` of a yes/no about it (`return bool(os.environ.get("KEY"))`, `return key
/// is not None`, `return !!process.env.KEY`). (In the brace languages and shell an `if` is joined
/// with its body into one statement, so only the `return` form is recognized there.)
fn only_tests(text: &str, python: bool) -> bool {
    let t = text.trim();
    if python
        && (["if ", "elif ", "while "].iter().any(|k| t.starts_with(k)) && t.ends_with(':')
            || t.starts_with("assert "))
    {
        return true;
    }
    let Some(value) = t.strip_prefix("return ") else {
        return false;
    };
    let value = value.trim_end_matches(';').trim();
    ["bool(", "Boolean(", "!!", "not ", "!"]
        .iter()
        .any(|k| value.starts_with(k))
        || [
            " is not None",
            " is None",
            " != null",
            " !== undefined",
            " != None",
        ]
        .iter()
        .any(|k| value.ends_with(k))
}

/// What a run fact runs: its capture, else its matched text.
pub fn sink_target(file: &File<'_>, fact: &Fact) -> String {
    match &fact.capture {
        Some(c) => c.to_string(),
        None => {
            let t = crate::scan::facts::logical_text(file.content, fact.start, fact.end);
            t.get(fact.at as usize..fact.to as usize)
                .unwrap_or("")
                .to_owned()
        }
    }
}

/// How later code names a downloaded file: the captured output path, else the URL's basename
/// (`curl -O`, `wget URL`).
pub fn download_key(_b: &Bundle<'_>, file: &File<'_>, fact: &Fact) -> Option<String> {
    if let Some(c) = &fact.capture
        && let Some(k) = path_key(c)
    {
        return Some(k);
    }
    let text = crate::scan::facts::logical_text(file.content, fact.start, fact.end);
    let hosts = hosts_in(&text);
    let url = hosts.first()?;
    let path = url.path.split(['?', '#']).next().unwrap_or("");
    let base = path.rsplit('/').next().unwrap_or("");
    (base.len() >= 3).then(|| base.to_owned())
}
