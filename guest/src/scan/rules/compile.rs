//! Compiling a rule's pattern: ASCII semantics where the pattern is ASCII, only the captures a
//! rule reads, and match spans on character boundaries.

use regex_automata::meta::Regex;
use regex_automata::nfa::thompson::WhichCaptures;

use crate::scan::utf8_bytes::{Spaces, byte_classes};

/// A rule's regex. It only ever runs on one line that already contains one of the rule's keywords,
/// so the literal prefilter the regex engine would put in front of its automaton finds nothing to
/// skip; without SIMD (WebAssembly) it cost more than the automaton it was meant to spare.
///
/// A pattern written in ASCII is compiled with ASCII semantics (`(?i)`, `\s`, `\w`, `\d` and
/// `\b` are ASCII; `.`, `[^…]` and `\S` step over one byte, not one character). Its automaton is
/// then a few times smaller than with Unicode classes and case folding (242,000 NFA states over the
/// bundled rules against 55,000), which is what a search's caches and lazy DFA states grow with.
/// The rules look for ASCII commands and words, where both semantics agree; a bounded gap
/// (`.{0,80}`) counts bytes, so across CJK text it spans a third as many characters. A pattern
/// with non-ASCII characters (Chinese phrases, full-width punctuation), or one that needs Unicode
/// (`\p{…}`), keeps Unicode semantics.
/// Either way a match is reported on character boundaries ([`Hit`], [`char_span`]).
///
/// The regex tracks no capture groups but the whole match ([`WhichCaptures::Implicit`]): only a
/// rule's own regex reads groups (its named ones, for a fact), and it is built with
/// [`hir_regex_with_groups`]. Which groups are tracked never changes what matches; it makes the
/// automata smaller to build (a capture is two more NFA states per group, forward, and the
/// one-pass DFA and backtracker carry slots for each).
pub(crate) fn line_regex(pattern: &str) -> Result<Regex, String> {
    hir_regex(&line_hir(pattern)?)
}

/// [`line_regex`] from a syntax tree.
pub(super) fn hir_regex(hir: &regex_syntax::hir::Hir) -> Result<Regex, String> {
    build_regex(hir, WhichCaptures::Implicit)
}

/// [`hir_regex`] keeping every capture group when the tree names one (a rule whose fact captures a
/// name or a path, [`RuleSet::facts_on_line`]).
pub(super) fn hir_regex_with_groups(hir: &regex_syntax::hir::Hir) -> Result<Regex, String> {
    build_regex(hir, which_captures(hir))
}

pub(super) fn which_captures(hir: &regex_syntax::hir::Hir) -> WhichCaptures {
    if has_named_group(hir) {
        WhichCaptures::All
    } else {
        WhichCaptures::Implicit
    }
}

/// A rule's own regex ([`hir_regex_with_groups`]) with its classes written as bytes that do not
/// tell non-ASCII white space apart ([`Spaces::Unchecked`]), and whether that changed anything:
/// if so, the regex matches as the pattern only on lines without such a space, and a line with one
/// runs the exact regex ([`RuleSet::exact_regex`]). The gaps (`(?:[^.\n]|\.\S){0,80}`) then
/// compile to a few states per character instead of dozens.
pub(super) fn rule_regex(hir: &regex_syntax::hir::Hir) -> Result<(Regex, bool), String> {
    let unchecked = byte_classes(hir, Spaces::Unchecked);
    let differs = unchecked != byte_classes(hir, Spaces::Exact);
    let regex = compile(unchecked.as_ref().unwrap_or(hir), which_captures(hir))?;
    Ok((regex, differs))
}

/// Every regex is built here. A tree with Unicode classes that hold nearly every character (the
/// gaps of the Unicode rules: `[^.\n]`, `\S`, `.`) is compiled with those classes written as bytes
/// ([`super::utf8_bytes`]): the same matches on the valid UTF-8 the scanner searches, a fraction of
/// the automaton (a test checks it on every rule example).
pub(super) fn build_regex(
    hir: &regex_syntax::hir::Hir,
    which: WhichCaptures,
) -> Result<Regex, String> {
    let bytes = byte_classes(hir, Spaces::Exact);
    compile(bytes.as_ref().unwrap_or(hir), which)
}

pub(super) fn compile(hir: &regex_syntax::hir::Hir, which: WhichCaptures) -> Result<Regex, String> {
    let config = Regex::config().auto_prefilter(false).which_captures(which);
    Regex::builder()
        .configure(config)
        .build_from_hir(hir)
        .map_err(|e| e.to_string())
}

/// Whether the tree has a named capture group (`(?P<name>…)`).
pub(super) fn has_named_group(hir: &regex_syntax::hir::Hir) -> bool {
    use regex_syntax::hir::HirKind;
    match hir.kind() {
        HirKind::Capture(c) => c.name.is_some() || has_named_group(&c.sub),
        HirKind::Repetition(r) => has_named_group(&r.sub),
        HirKind::Concat(v) | HirKind::Alternation(v) => v.iter().any(has_named_group),
        HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) | HirKind::Look(_) => false,
    }
}

/// The syntax tree [`line_regex`] compiles: with ASCII semantics when the pattern is ASCII and
/// parses so, else Unicode. The required fragments ([`super::literals`]) are read from the same
/// tree, so they hold for the regex that runs.
pub(crate) fn line_hir(pattern: &str) -> Result<regex_syntax::hir::Hir, String> {
    parse_line(pattern).map(|(hir, _)| hir)
}

/// [`line_hir`], and whether it has Unicode semantics.
pub(super) fn parse_line(pattern: &str) -> Result<(regex_syntax::hir::Hir, bool), String> {
    use regex_automata::util::syntax::{Config, parse_with};
    let pattern = ascii_word_boundaries(pattern);
    if pattern.is_ascii()
        && let Ok(hir) = parse_with(&pattern, &Config::new().unicode(false).utf8(false))
    {
        return Ok((hir, false));
    }
    let hir = parse_with(&pattern, &Config::new()).map_err(|e| e.to_string())?;
    Ok((hir, true))
}

/// `start..end` widened to the nearest character boundaries of `text` (a byte-semantics regex may
/// start or end a match inside a multi-byte character).
pub(crate) fn char_span(text: &str, start: usize, end: usize) -> (usize, usize) {
    let mut s = start.min(text.len());
    while !text.is_char_boundary(s) {
        s -= 1;
    }
    let mut e = end.clamp(s, text.len());
    while !text.is_char_boundary(e) {
        e += 1;
    }
    (s, e)
}

/// `pattern` with every `\b` (and `\B`) made an ASCII word boundary. A Unicode word boundary stops
/// the regex engine's fast automaton on any line with a non-ASCII character (curly quotes, dashes,
/// Chinese), and the slow engines then take most of a scan; the rules' boundaries sit next to ASCII
/// words, where both kinds agree.
pub(super) fn ascii_word_boundaries(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(b @ ('b' | 'B')) => {
                out.push_str("(?-u:\\");
                out.push(b);
                out.push(')');
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}
