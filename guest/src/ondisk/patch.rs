//! A targeted find-and-replace in a skill's text, as Hermes' `skill_manage patch` does it: the exact
//! text first; if it does not occur, a whitespace-tolerant match; every match counted; more than one
//! match is refused as ambiguous unless the caller asks to replace all.
//!
//! Strategies, tried in order (the first that finds anything decides):
//! 1. `exact` — the bytes of `old` as given.
//! 2. `line_trimmed` — `old`'s lines against consecutive lines of the text, each compared without its
//!    leading and trailing whitespace (an agent that re-indented or lost trailing spaces). The match
//!    spans whole lines; it includes the last line's ending only when `old` ends with a newline.
//! 3. `whitespace` — every run of whitespace (spaces, tabs, line breaks) in both counts as one space
//!    (an agent that re-wrapped a paragraph).
//!
//! `new` is inserted as given. Matches never overlap.

use serde::Serialize;

/// How `old` was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    Exact,
    LineTrimmed,
    Whitespace,
}

/// A successful patch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Patched {
    #[serde(skip)]
    pub text: String,
    /// How many places were replaced.
    pub matches: usize,
    pub strategy: Strategy,
    /// The 1-based line of each match in the original text.
    pub lines: Vec<usize>,
}

/// Why a patch was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchError {
    /// `old` is empty or only whitespace.
    EmptyOld,
    /// Nothing matched; `near` is a line that contains `old`'s first line, if any (1-based, text).
    NoMatch { near: Option<(usize, String)> },
    /// More than one match and `replace_all` was not given.
    Ambiguous {
        count: usize,
        strategy: Strategy,
        lines: Vec<usize>,
    },
    /// The result equals the original.
    Unchanged,
}

impl PatchError {
    /// A stable code for agents.
    pub fn code(&self) -> &'static str {
        match self {
            PatchError::EmptyOld => "empty_old",
            PatchError::NoMatch { .. } => "no_match",
            PatchError::Ambiguous { .. } => "ambiguous_match",
            PatchError::Unchanged => "unchanged",
        }
    }
}

impl std::fmt::Display for PatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PatchError::EmptyOld => f.write_str("--old is empty: give the text to replace"),
            PatchError::NoMatch { near: Some((line, text)) } => write!(
                f,
                "--old was not found, exactly or ignoring whitespace; line {line} is close: {text:?}"
            ),
            PatchError::NoMatch { near: None } => f.write_str(
                "--old was not found, exactly or ignoring whitespace; read the file again and copy the text",
            ),
            PatchError::Ambiguous {
                count,
                strategy,
                lines,
            } => write!(
                f,
                "--old matches {count} places ({}, lines {}); give more surrounding text so it matches once, or pass --replace-all",
                match strategy {
                    Strategy::Exact => "exactly",
                    Strategy::LineTrimmed => "ignoring indentation",
                    Strategy::Whitespace => "ignoring whitespace",
                },
                lines
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            PatchError::Unchanged => f.write_str("the patch changes nothing (--new equals what is there)"),
        }
    }
}

/// The 1-based line of byte offset `at`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

fn exact(text: &str, old: &str) -> Vec<(usize, usize)> {
    text.match_indices(old)
        .map(|(i, m)| (i, i + m.len()))
        .collect()
}

fn line_trimmed(text: &str, old: &str) -> Vec<(usize, usize)> {
    let mut want: Vec<&str> = old.lines().map(str::trim).collect();
    while want.first() == Some(&"") {
        want.remove(0);
    }
    while want.last() == Some(&"") {
        want.pop();
    }
    if want.is_empty() {
        return vec![];
    }
    let with_eol = old.ends_with('\n');
    // (start, end without line ending, end with it) of each line.
    let mut ls = Vec::new();
    let mut start = 0;
    for piece in text.split_inclusive('\n') {
        let content = piece.strip_suffix('\n').unwrap_or(piece);
        let content = content.strip_suffix('\r').unwrap_or(content);
        ls.push((start, start + content.len(), start + piece.len()));
        start += piece.len();
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i + want.len() <= ls.len() {
        let hit = want
            .iter()
            .enumerate()
            .all(|(k, w)| text[ls[i + k].0..ls[i + k].1].trim() == *w);
        if hit {
            let last = ls[i + want.len() - 1];
            out.push((ls[i].0, if with_eol { last.2 } else { last.1 }));
            i += want.len();
        } else {
            i += 1;
        }
    }
    out
}

/// `s` with every whitespace run as one space, and for each byte kept its offset in `s`.
fn collapse(s: &str) -> (Vec<u8>, Vec<usize>) {
    let mut out = Vec::with_capacity(s.len());
    let mut map = Vec::with_capacity(s.len());
    let mut in_space = false;
    for (i, b) in s.bytes().enumerate() {
        if b.is_ascii_whitespace() {
            if !in_space {
                out.push(b' ');
                map.push(i);
            }
            in_space = true;
        } else {
            out.push(b);
            map.push(i);
            in_space = false;
        }
    }
    (out, map)
}

fn whitespace(text: &str, old: &str) -> Vec<(usize, usize)> {
    let (needle, _) = collapse(old.trim());
    if needle.is_empty() {
        return vec![];
    }
    let (hay, map) = collapse(text);
    let finder = memchr::memmem::Finder::new(&needle);
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = finder.find(&hay[from..]) {
        let at = from + pos;
        let last = at + needle.len() - 1;
        out.push((map[at], map[last] + 1));
        from = at + needle.len();
    }
    out
}

/// Replace `old` by `new` in `text` (see the module documentation).
pub fn apply(text: &str, old: &str, new: &str, replace_all: bool) -> Result<Patched, PatchError> {
    if old.trim().is_empty() {
        return Err(PatchError::EmptyOld);
    }
    let (spans, strategy) = [
        (
            exact as fn(&str, &str) -> Vec<(usize, usize)>,
            Strategy::Exact,
        ),
        (line_trimmed, Strategy::LineTrimmed),
        (whitespace, Strategy::Whitespace),
    ]
    .into_iter()
    .map(|(find, s)| (find(text, old), s))
    .find(|(spans, _)| !spans.is_empty())
    .ok_or_else(|| {
        let first = old
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("");
        let near = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(first))
            .map(|(i, l)| (i + 1, l.chars().take(120).collect()));
        PatchError::NoMatch { near }
    })?;
    let lines: Vec<usize> = spans.iter().map(|(s, _)| line_of(text, *s)).collect();
    if spans.len() > 1 && !replace_all {
        return Err(PatchError::Ambiguous {
            count: spans.len(),
            strategy,
            lines,
        });
    }
    let mut out = String::with_capacity(text.len() + new.len());
    let mut at = 0;
    for (s, e) in &spans {
        out.push_str(&text[at..*s]);
        out.push_str(new);
        at = *e;
    }
    out.push_str(&text[at..]);
    if out == text {
        return Err(PatchError::Unchanged);
    }
    Ok(Patched {
        text: out,
        matches: spans.len(),
        strategy,
        lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::{any, prop_assert, prop_assert_eq, prop_assert_ne, proptest};

    const DOC: &str = "# Weekly report\n## Procedure\n1. Read the export.\n2. Sum the hours.\n\n  - indented item\n";

    #[test]
    fn exact_first() {
        let p = apply(DOC, "1. Read the export.", "1. Read the CSV export.", false).unwrap();
        assert_eq!(
            (p.matches, p.strategy, p.lines.clone()),
            (1, Strategy::Exact, vec![3])
        );
        assert_eq!(
            p.text,
            DOC.replace("Read the export", "Read the CSV export")
        );
    }

    #[test]
    fn indentation_and_trailing_spaces_are_tolerated_by_lines() {
        let p = apply(DOC, "- indented item   \n", "  - changed item\n", false).unwrap();
        assert_eq!(p.strategy, Strategy::LineTrimmed);
        assert!(p.text.ends_with("\n  - changed item\n"), "{:?}", p.text);
        let p = apply(
            DOC,
            "   1. Read the export.\n2. Sum the hours.  ",
            "X",
            false,
        )
        .unwrap();
        assert_eq!(p.strategy, Strategy::LineTrimmed);
        assert_eq!(
            p.text,
            "# Weekly report\n## Procedure\nX\n\n  - indented item\n"
        );
    }

    #[test]
    fn rewrapped_text_matches_ignoring_whitespace() {
        let text = "Always check the\nfigures twice before sending.\n";
        let p = apply(
            text,
            "check the figures   twice",
            "verify the figures",
            false,
        )
        .unwrap();
        assert_eq!(p.strategy, Strategy::Whitespace);
        assert_eq!(p.text, "Always verify the figures before sending.\n");
    }

    #[test]
    fn ambiguity_is_refused_unless_replace_all() {
        let text = "run it\nthen run it again\n";
        match apply(text, "run it", "go", false) {
            Err(PatchError::Ambiguous { count, lines, .. }) => {
                assert_eq!((count, lines), (2, vec![1, 2]));
            }
            other => panic!("{other:?}"),
        }
        let p = apply(text, "run it", "go", true).unwrap();
        assert_eq!((p.matches, p.text.as_str()), (2, "go\nthen go again\n"));
    }

    #[test]
    fn refusals_say_why() {
        assert_eq!(apply(DOC, "  \n", "x", false), Err(PatchError::EmptyOld));
        match apply(DOC, "Read the exports carefully.", "x", false) {
            Err(PatchError::NoMatch { near: None }) => {}
            other => panic!("{other:?}"),
        }
        match apply(DOC, "Sum the hours.\nand more", "x", false) {
            Err(e @ PatchError::NoMatch { near: Some((4, _)) }) => {
                assert!(e.to_string().contains("line 4"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            apply(DOC, "Sum the hours.", "Sum the hours.", false),
            Err(PatchError::Unchanged)
        );
    }

    #[test]
    fn non_ascii_text_keeps_its_boundaries() {
        let text = "步骤：\n1. 读取导出文件。\n";
        let p = apply(text, "读取导出文件", "读取 CSV 导出文件", false).unwrap();
        assert_eq!(p.text, "步骤：\n1. 读取 CSV 导出文件。\n");
        let p = apply(text, "步骤：   1. 读取", "开始", false).unwrap();
        assert_eq!(
            (p.strategy, p.text.as_str()),
            (Strategy::Whitespace, "开始导出文件。\n")
        );
    }

    proptest! {
        /// A unique exact substring is always replaced exactly there.
        #[test]
        fn unique_exact_match_replaces_in_place(pre in "[a-z \n]{0,30}", mid in "[A-Z]{3,8}", post in "[a-z \n]{0,30}", new in "[a-z0-9]{0,10}") {
            let text = format!("{pre}{mid}{post}");
            let p = apply(&text, &mid, &new, false).unwrap();
            prop_assert_eq!(p.strategy, Strategy::Exact);
            prop_assert_eq!(p.text, format!("{pre}{new}{post}"));
        }

        /// Whatever the input, a patch either fails or changes the text, and never panics.
        #[test]
        fn never_panics(text in "\\PC{0,60}", old in "\\PC{0,12}", new in "\\PC{0,12}", all in any::<bool>()) {
            if let Ok(p) = apply(&text, &old, &new, all) {
                prop_assert_ne!(p.text, text);
                prop_assert!(p.matches >= 1);
            }
        }
    }
}
