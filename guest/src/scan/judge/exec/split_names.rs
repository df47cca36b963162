//! `obfuscation.split-name`: the name of a command runner, an interpreter or a downloader spelled in
//! pieces so that no reader (and no line rule) sees it whole: `'ev' + 'al'`, `['ex', 'ec',
//! 'Sync'].join('')`, `getattr(__import__('o' + 's'), 'sy' + 'stem')`, a shell array of letters
//! `(c u r l)`, or a reversed literal (`'hs' | rev`, `'lave'[::-1]`). Code that means to call
//! `eval` writes `eval`; cutting the name up has one purpose, getting past a reviewer.
//!
//! The pieces come from `decode` facts tagged `split` (concatenated or joined short literals, letter
//! arrays) and from the reversal decode facts; the judge joins them and reports only when the whole
//! is one of the names below. Alone it is `high`; with a second hidden name in the file, or with
//! decoding, fetching or running code in the same file, `critical`.

use super::super::{At, Bundle, finding};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// Names nobody needs to assemble at run time (lower case).
const HIDDEN_NAMES: &[&str] = &[
    "eval",
    "exec",
    "execsync",
    "execfile",
    "execfilesync",
    "spawn",
    "spawnsync",
    "system",
    "popen",
    "os",
    "subprocess",
    "child_process",
    "__import__",
    "__builtins__",
    "builtins",
    "compile",
    "function",
    "invoke-expression",
    "iex",
    "curl",
    "wget",
    "bash",
    "sh",
    "zsh",
    "powershell",
    "pwsh",
    "frombase64string",
    "downloadstring",
    "downloadfile",
    "webclient",
    "socket",
    "pty",
    "dup2",
    "nc",
    "ncat",
    "/bin/sh",
    "/bin/bash",
    "b64decode",
    "urlopen",
    "urlretrieve",
];

/// Reversed commands worth naming even when the whole literal is longer than a name.
const REVERSED_WORDS: &[&str] = &[
    "curl ", "wget ", "bash ", "/bin/sh", "sh -c", "nc -e", "eval ",
];

/// The quoted literals of `text`, in order.
fn literals(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let q = b[i];
        if matches!(q, b'"' | b'\'' | b'`') {
            if let Some(len) = text[i + 1..].find(q as char) {
                out.push(&text[i + 1..i + 1 + len]);
                i += len + 2;
                continue;
            }
            break;
        }
        i += 1;
    }
    out
}

/// The letters of a shell array of single characters (`(c u r l)` → `curl`), if the text has one.
fn letter_array(text: &str) -> Option<String> {
    let open = text.find("=(")? + 2;
    let close = text[open..].find(')')? + open;
    let mut word = String::new();
    for tok in text[open..close].split_whitespace() {
        let t = tok.trim_matches(['"', '\'']);
        if t.chars().count() != 1 {
            return None;
        }
        word.push_str(t);
    }
    (word.len() >= 2).then_some(word)
}

/// The hidden names a split fact's pieces spell (each the longest run of adjacent pieces that
/// spells one: `ex` `ec` `Sync` is `execsync`, not `exec`; `'o' + 's'` and `'sy' + 'stem'` on one
/// line are two).
fn joined_names(matched: &str) -> Vec<String> {
    if let Some(w) = letter_array(matched) {
        let w = w.to_ascii_lowercase();
        return if HIDDEN_NAMES.contains(&w.as_str()) {
            vec![w]
        } else {
            Vec::new()
        };
    }
    let lits = literals(matched);
    let mut out = Vec::new();
    let mut s = 0;
    while s + 1 < lits.len() {
        let mut w = String::new();
        let mut best: Option<(String, usize)> = None;
        for (k, piece) in lits[s..].iter().enumerate() {
            w.push_str(piece);
            let l = w.to_ascii_lowercase();
            if k > 0 && HIDDEN_NAMES.contains(&l.as_str()) {
                best = Some((l, s + k + 1));
            }
            if w.len() > 24 {
                break;
            }
        }
        match best {
            Some((name, next)) => {
                out.push(name);
                s = next;
            }
            None => s += 1,
        }
    }
    out
}

/// The first hidden name a split fact's pieces spell.
#[cfg(test)]
fn joined_name(matched: &str) -> Option<String> {
    joined_names(matched).into_iter().next()
}

/// What a reversal decode fact's literal spells backwards, if it names a runner or a command.
fn reversed_name(line: &str) -> Option<String> {
    for lit in literals(line) {
        if lit.len() < 2 {
            continue;
        }
        let r: String = lit.chars().rev().collect::<String>().to_ascii_lowercase();
        let first = r.split_whitespace().next().unwrap_or("");
        if HIDDEN_NAMES.contains(&first) || REVERSED_WORDS.iter().any(|w| r.contains(w)) {
            return Some(r);
        }
    }
    None
}

/// Whether a decode fact is a reversal (`.reverse().join(`, `| rev`, `[::-1]`).
fn reversal(matched: &str) -> bool {
    matched.contains("reverse") || matched.contains("rev") || matched.contains("::-1")
}

pub fn split_names(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        if !file.facts.has(FactKind::Decode) {
            continue;
        }
        let mut hits: Vec<(At<'_>, Vec<String>)> = Vec::new();
        for at in b.in_file(file, FactKind::Decode) {
            if at.fact.prose || hits.len() >= 8 {
                continue;
            }
            let text = at.text();
            let matched = text
                .get(at.fact.at as usize..at.fact.to as usize)
                .unwrap_or("");
            let names = if b.tag(at.fact) == "split" {
                joined_names(matched)
            } else if reversal(matched) {
                reversed_name(&text).into_iter().collect()
            } else {
                Vec::new()
            };
            if names.is_empty() {
                continue;
            }
            // Every match on a line is a fact of its own (`'o' + 's'`, then `'sy' + 'stem'`).
            match hits.iter_mut().find(|(h, _)| h.fact.line == at.fact.line) {
                Some((_, seen)) => {
                    for n in names {
                        if !seen.contains(&n) {
                            seen.push(n);
                        }
                    }
                }
                None => hits.push((at, names)),
            }
        }
        let Some((first, _)) = hits.first() else {
            continue;
        };
        let count: usize = hits.iter().map(|(_, n)| n.len()).sum();
        // Other code facts of the file: decoding, fetching, evaluating or running.
        let other = file.facts.facts.iter().find(|f| {
            let skip = f.prose
                || hits.iter().any(|(h, _)| h.fact.line == f.line)
                || f.kind == FactKind::Decode && b.tag(f) == "split";
            !skip
                && matches!(
                    f.kind,
                    FactKind::Decode
                        | FactKind::EvalValue
                        | FactKind::RunFile
                        | FactKind::PipeExec
                        | FactKind::FetchToValue
                        | FactKind::Download
                )
        });
        let sev = if count >= 2 || other.is_some() {
            Severity::Critical
        } else {
            Severity::High
        };
        let mut related: Vec<_> = hits[1..]
            .iter()
            .map(|(h, _)| h.related("hidden name"))
            .collect();
        if let Some(f) = other {
            related.push(At { file, fact: f }.related("code"));
        }
        let names: Vec<String> = hits
            .iter()
            .map(|(h, n)| format!("`{}` ({})", n.join("`, `"), h.place()))
            .collect();
        let why = format!(
            "{} spells {} in pieces at run time, so neither a reader nor a search sees the name{}. Code that means to call it writes it out: hiding it only serves to slip past review.{}",
            file.path,
            names.join(", "),
            match other {
                Some(f) => format!(
                    ", and the file also decodes, fetches or runs code at {}:{}",
                    file.path, f.line
                ),
                None => String::new(),
            },
            if sev == Severity::Critical {
                " Do not install this skill."
            } else {
                ""
            }
        );
        out.push(finding(
            "obfuscation.split-name",
            "obfuscation",
            sev,
            At {
                file,
                fact: first.fact,
            },
            why,
            related,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_join_into_names() {
        assert_eq!(joined_name("'ev' + 'al'").as_deref(), Some("eval"));
        assert_eq!(joined_name("\"o\" + \"s\"").as_deref(), Some("os"));
        assert_eq!(
            joined_name("['ex', 'ec', 'Sync'].join(").as_deref(),
            Some("execsync")
        );
        assert_eq!(joined_name("parts=(c u r l)").as_deref(), Some("curl"));
        assert_eq!(
            joined_name("-join ('Invoke', '-Expression')").as_deref(),
            Some("invoke-expression")
        );
        assert_eq!(joined_name("'Content-' + 'Type'"), None);
        assert_eq!(joined_name("['a', 'b', 'c'].join("), None);
        assert_eq!(joined_name("dirs=(src lib)"), None);
        // A whole name in one piece is not split.
        assert_eq!(joined_name("'eval' + 'uate'"), None);
    }

    #[test]
    fn reversed_literals() {
        assert_eq!(
            reversed_name("x=$(echo \"hs\" | rev)").as_deref(),
            Some("sh")
        );
        assert!(reversed_name("r = 'c- hsab'[::-1]").is_some());
        assert_eq!(reversed_name("name = 'olleh'[::-1]"), None);
    }
}
