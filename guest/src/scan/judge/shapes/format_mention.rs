//! Round 49b (sets49b): an instruction file's name used as the name of its **format** — "the
//! AGENTS.md specification", "the CLAUDE.md format", "see the GEMINI.md docs" — names no file of
//! the agent's, so it is no agent context for `exfiltration.agent-context-leak`
//! ([`super::context_leak`]). Without this, a migration guide's closing line "Visit the site for the
//! full AGENTS.md specification" read as "put the whole AGENTS.md into a URL": the weak word "full"
//! modifies "specification", and the link is the format's own documentation.
//!
//! A name is left out only when all of these hold: the word right after it is a format word
//! ([`FORMAT`]); the word before it (past "full", "complete", "entire", "official", "whole") is
//! no possessive ([`OWN`]: "your", "its" … make it the reader's own file); and the line carries no
//! word that moves a file by itself ([`MOVES`]: send, paste, attach, contents …). A line that
//! sends, pastes or quotes the file keeps every name, whatever follows it.

use std::borrow::Cow;

use crate::scan::judge::find::has_any;

/// The agent's instruction files (lowered), as [`super::context_leak::CONTEXT`] names them.
const FILES: &[&str] = &["claude.md", "agents.md", "gemini.md"];

/// Words that, right after a file's name, make it the name of a format.
const FORMAT: &[&str] = &[
    "specification",
    "specifications",
    "spec",
    "specs",
    "standard",
    "format",
    "convention",
    "conventions",
    "syntax",
    "schema",
    "docs",
    "documentation",
];

/// Words before a name (skipped) that qualify the format word rather than the file.
const QUALIFIERS: &[&str] = &["full", "complete", "entire", "official", "whole"];

/// Possessives that make the name the reader's (or the agent's) own file.
const OWN: &[&str] = &[
    "your", "my", "its", "our", "their", "his", "her", "agent's", "own",
];

/// Words that move or quote a file by themselves (lowered); a line holding one keeps every name.
const MOVES: &[&str] = &[
    "send", "paste", "attach", "embed", "upload", "post ", "include", "append", "copy", "content",
    "verbatim", "fill", "put ", "dump", "leak", "share", "forward", "encode",
];

/// `l` (a lowered prose line) with every instruction-file name that names a format blanked out;
/// unchanged when the line moves a file ([`MOVES`]) or names none.
pub(super) fn without_format_names(l: &str) -> Cow<'_, str> {
    if !has_any(l, FILES) || has_any(l, MOVES) {
        return Cow::Borrowed(l);
    }
    let mut out: Option<String> = None;
    for name in FILES {
        let mut from = 0;
        while let Some(p) = l[from..].find(name).map(|p| p + from) {
            let end = p + name.len();
            from = end;
            if names_format(l, p, end) {
                let s = out.get_or_insert_with(|| l.to_owned());
                s.replace_range(p..end, &" ".repeat(end - p));
            }
        }
    }
    out.map_or(Cow::Borrowed(l), Cow::Owned)
}

/// Whether the name at `l[p..end]` is followed by a format word and not owned by anyone.
fn names_format(l: &str, p: usize, end: usize) -> bool {
    let next = l[end..]
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .find(|w| !w.is_empty());
    if !next.is_some_and(|w| FORMAT.contains(&w)) {
        return false;
    }
    // The name must stand as a word of its own (not the tail of `my-agents.md`).
    if l[..p]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '/' | '.' | '~'))
    {
        return false;
    }
    let before = l[..p]
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .rev()
        .find(|w| !QUALIFIERS.contains(w));
    !before.is_some_and(|w| OWN.contains(&w) || w.ends_with("'s"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blanked(l: &str) -> bool {
        !has_any(&without_format_names(l), FILES)
    }

    #[test]
    fn a_format_named_after_the_file_is_no_file() {
        assert!(blanked(
            "read the complete claude.md format guide before you start."
        ));
        assert!(blanked("the gemini.md spec lives on the project site."));
        assert!(blanked(
            "see agents.md conventions at https://docs.example/ for details."
        ));
    }

    #[test]
    fn the_readers_own_file_or_a_moving_word_keeps_the_name() {
        // Must-not: a possessive makes it the reader's own file.
        assert!(!blanked(
            "open your full claude.md format page in the browser."
        ));
        assert!(!blanked("the agent's agents.md standard section is shown."));
        // Must-not: a word that moves the file.
        assert!(!blanked("paste the whole claude.md spec into the form."));
        assert!(!blanked("upload the agents.md format to the review site."));
        // Must-not: no format word after the name.
        assert!(!blanked(
            "the full claude.md goes to https://collector.example/in"
        ));
        // Must-not: the name is the tail of another file's name.
        assert!(!blanked("the team-agents.md format is ours."));
    }
}
