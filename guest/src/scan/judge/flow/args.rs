//! Values passed as arguments to a function of the same file: `send(secret)` where `send`'s body
//! makes a request that reads the parameter, directly or through a name assigned from it.

use std::collections::BTreeMap;

use crate::scan::judge::code;

/// Most functions, requests in functions and calls remembered per file for argument flows.
const MAX_ARG_ITEMS: usize = 64;

/// Followed names a statement reads, each with the facts its value came from.
type Followed = Vec<(String, Vec<usize>)>;

/// Values passed as arguments to a function of the same file: `send(secret)` where `send`'s
/// body makes a request that reads the parameter (directly or through a name assigned from it).
#[derive(Debug, Default)]
pub(super) struct ArgFlows {
    /// Function → its parameter names (without `self`/`cls`).
    params: BTreeMap<String, Vec<String>>,
    /// Names assigned in a function from its parameters: (function, name) → parameters.
    derived: BTreeMap<(String, String), Vec<String>>,
    /// Requests in a function's body: (function, sink fact, parameters the request reads).
    sinks: Vec<(String, usize, Vec<String>)>,
    /// Statements that read a followed name: (line, text, followed names read with their origins).
    calls: Vec<(u32, String, Followed)>,
}

impl ArgFlows {
    pub(super) fn define(&mut self, name: &str, text: &str) {
        if self.params.len() >= MAX_ARG_ITEMS {
            return;
        }
        let Some(open) = text.find('(') else { return };
        let inner = &text[open + 1..];
        let Some(args) = call_args(inner) else { return };
        let mut names: Vec<String> = args
            .iter()
            .filter_map(|a| param_name(a))
            .map(str::to_owned)
            .collect();
        if names.first().is_some_and(|n| n == "self" || n == "cls") {
            names.remove(0);
        }
        if !names.is_empty() {
            self.params.insert(name.to_owned(), names);
        }
    }

    /// The parameters (and names derived from them) a statement of `f` reads.
    pub(super) fn read_params(&self, f: &str, text: &str) -> Vec<String> {
        let Some(params) = self.params.get(f) else {
            return Vec::new();
        };
        let mut out: Vec<String> = Vec::new();
        for r in code::refs(text) {
            if params.iter().any(|p| p == r) {
                out.push(r.to_owned());
            } else if let Some(ps) = self.derived.get(&(f.to_owned(), r.to_owned())) {
                out.extend(ps.iter().cloned());
            }
        }
        out.sort();
        out.dedup();
        out
    }

    pub(super) fn local_assign(&mut self, f: &str, text: &str) {
        if self.derived.len() >= MAX_ARG_ITEMS || !(text.contains('=') || text.contains(" <- ")) {
            return;
        }
        let read = self.read_params(f, text);
        if read.is_empty() {
            return;
        }
        for n in code::assigned(text) {
            self.derived
                .insert((f.to_owned(), n.to_owned()), read.clone());
        }
    }

    pub(super) fn sink_in(&mut self, f: &str, sink: usize, body: &str) {
        if self.sinks.len() >= MAX_ARG_ITEMS {
            return;
        }
        let read = self.read_params(f, body);
        if !read.is_empty() {
            self.sinks.push((f.to_owned(), sink, read));
        }
    }

    pub(super) fn record_call(
        &mut self,
        line: u32,
        text: &str,
        tainted: &BTreeMap<String, Vec<usize>>,
        inner: &[(String, Vec<usize>)],
    ) {
        if self.calls.len() >= MAX_ARG_ITEMS || text.len() > 4096 || !text.contains('(') {
            return;
        }
        let mut read: Vec<(String, Vec<usize>)> = Vec::new();
        for r in code::refs(text) {
            let o = tainted
                .get(r)
                .or_else(|| inner.iter().find(|(n, _)| n == r).map(|(_, o)| o));
            if let Some(o) = o
                && !read.iter().any(|(n, _)| n == r)
            {
                read.push((r.to_owned(), o.clone()));
            }
        }
        if !read.is_empty() {
            self.calls.push((line, text.to_owned(), read));
        }
    }

    /// (source, sink, (call line, `function(parameter)`)) for every followed value passed to a
    /// parameter that a request in the function reads.
    pub(super) fn flows(&self) -> Vec<(usize, usize, (u32, String))> {
        let mut out = Vec::new();
        for (f, sink, read) in &self.sinks {
            let Some(params) = self.params.get(f) else {
                continue;
            };
            for (line, text, tainted) in &self.calls {
                for (at, args) in calls_of(text, f) {
                    let line = line + text[..at].matches('\n').count() as u32;
                    for (i, arg) in args.iter().enumerate() {
                        // `name=value` (a keyword argument) goes to that parameter.
                        let (param, value) = match keyword_arg(arg) {
                            Some((k, v)) => (Some(k), v),
                            None => (params.get(i).map(String::as_str), *arg),
                        };
                        let Some(param) = param else { continue };
                        if !read.iter().any(|r| r == param) {
                            continue;
                        }
                        for r in code::refs(value) {
                            if let Some((_, origins)) = tainted.iter().find(|(n, _)| n == r) {
                                for &o in origins {
                                    out.push((o, *sink, (line, format!("{f}({param})"))));
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// The top-level comma-separated pieces of an argument list that starts right after `(`, up to
/// its closing bracket (`None` if it never closes).
fn call_args(inner: &str) -> Option<Vec<&str>> {
    let (out, closed) = arg_pieces(inner);
    closed.then_some(out)
}

/// [`call_args`]'s pieces, trimmed, and whether the list closes on this text: an unclosed list
/// (continued on the next line) keeps its last piece, a closed one drops an empty last piece.
pub(super) fn arg_pieces(inner: &str) -> (Vec<&str>, bool) {
    let mut depth = 0i32;
    let mut start = 0;
    let mut out = Vec::new();
    for (i, c) in code::unquoted(inner) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => {
                let last = inner[start..i].trim();
                if !last.is_empty() {
                    out.push(last);
                }
                return (out, true);
            }
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                out.push(inner[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(inner[start..].trim());
    (out, false)
}

/// A parameter's name: the first identifier of `*args`, `name: str = 1`, `name string`, `$name`.
fn param_name(p: &str) -> Option<&str> {
    let p = p.trim_start_matches(['*', '&', '$', '.', ' ']);
    let n = p
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    (n > 0 && !p.as_bytes()[0].is_ascii_digit()).then(|| &p[..n])
}

/// `name=value` (not `==`): a keyword argument.
fn keyword_arg(arg: &str) -> Option<(&str, &str)> {
    let (k, v) = arg.split_once('=')?;
    let k = k.trim();
    (!v.starts_with('=')
        && !k.is_empty()
        && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    .then_some((k, v))
}

/// The argument lists of every call of `f` in `text` (`f(…)`, `obj.f(…)`, `await f(…)`), not its
/// definition.
fn calls_of<'a>(text: &'a str, f: &str) -> Vec<(usize, Vec<&'a str>)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(f).map(|i| i + from) {
        from = i + f.len();
        let before = text[..i].bytes().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
            continue;
        }
        let head = text[..i].trim_end();
        if ["def", "function", "func", "fn", "sub"]
            .iter()
            .any(|k| head.ends_with(k))
        {
            continue;
        }
        let rest = &text[from..];
        if let Some(inner) = rest.strip_prefix('(')
            && let Some(args) = call_args(inner)
        {
            out.push((i, args));
        }
        if out.len() >= 8 {
            break;
        }
    }
    out
}
