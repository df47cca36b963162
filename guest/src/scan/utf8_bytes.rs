//! A Unicode class that holds nearly every character, written as a small byte automaton.
//!
//! Twenty-odd rules keep Unicode semantics ([`super::rules::line_hir`]), and their bounded gaps
//! (`(?:[^.\n]|\.\S){0,80}`, `[^。\n]{0,30}`, `.{0,6}`) repeat a class that holds nearly every
//! character. The regex engine compiles such a class into an exact UTF-8 automaton: a dozen
//! states forward, and in the reverse automaton (which it does not shrink) one branch per UTF-8
//! sequence, several dozen states for `\S`. Repeated eighty times per gap and several gaps per
//! rule, that was most of the rules' compiled memory (30.9 MB of regexes, BENCHMARKS.md).
//!
//! The scanner only ever searches valid UTF-8 (lines of a `&str`, from a character boundary). On
//! valid UTF-8 a class that holds every non-ASCII character but a few (`left out`) needs no exact
//! decoder: a lead byte says how many continuation bytes follow, so "any character" is
//! `[ASCII part] | [\xC0-\xDF][\x80-\xBF] | [\xE0-\xEF][\x80-\xBF]{2} | [\xF0-\xF7][\x80-\xBF]{3}`,
//! and each character left out removes its own path from that byte trie. [`byte_classes`] rewrites
//! every such class of a tree that way, and leaves every other node as it is.
//!
//! On a valid UTF-8 haystack the rewritten tree matches exactly what the original matches, at the
//! same spans, in the same order: from a character boundary the byte automaton consumes exactly one
//! encoded character, and only one of the class; it cannot start on a continuation byte (no path
//! begins with `\x80-\xBF`), so like the exact decoder it never matches from inside a character;
//! its paths are disjoint (no two begin with the same byte), so no preference among them changes
//! leftmost-first results; and a class matches one character either way, so bounds
//! (`{0,80}` characters), greed, captures and look-arounds are untouched. The difference is only
//! on invalid UTF-8 (an overlong or out-of-range sequence would be taken as one character), which
//! the scanner never searches.

use std::collections::BTreeMap;

use regex_syntax::hir::{
    Capture, Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind,
    Repetition,
};

/// Most non-ASCII characters a class may leave out and still be rewritten: beyond that the byte
/// trie of what is left out would be no smaller than the exact decoder (Unicode `\S` leaves out
/// 19, `[^。\n]` one; `\w` or `\d` leave out far more and stay as they are).
const MAX_LEFT_OUT: u32 = 64;

/// `hir` with every class that holds all non-ASCII characters but at most [`MAX_LEFT_OUT`] written
/// as bytes (see the module's comment), or `None` when it has no such class. Equivalent on valid
/// UTF-8 only.
pub(crate) fn byte_classes(hir: &Hir, spaces: Spaces) -> Option<Hir> {
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => class_as_bytes(class, spaces),
        HirKind::Repetition(rep) => Some(Hir::repetition(Repetition {
            sub: Box::new(byte_classes(&rep.sub, spaces)?),
            ..rep.clone()
        })),
        HirKind::Capture(cap) => Some(Hir::capture(Capture {
            sub: Box::new(byte_classes(&cap.sub, spaces)?),
            ..cap.clone()
        })),
        HirKind::Concat(subs) => rewrite_all(subs, spaces).map(Hir::concat),
        HirKind::Alternation(subs) => rewrite_all(subs, spaces).map(Hir::alternation),
        HirKind::Empty
        | HirKind::Literal(_)
        | HirKind::Class(Class::Bytes(_))
        | HirKind::Look(_) => None,
    }
}

/// `subs` rewritten by [`byte_classes`], or `None` when none changes.
fn rewrite_all(subs: &[Hir], spaces: Spaces) -> Option<Vec<Hir>> {
    let rewritten: Vec<Option<Hir>> = subs.iter().map(|s| byte_classes(s, spaces)).collect();
    if rewritten.iter().all(Option::is_none) {
        return None;
    }
    Some(
        rewritten
            .into_iter()
            .zip(subs)
            .map(|(new, old)| new.unwrap_or_else(|| old.clone()))
            .collect(),
    )
}

/// Whether the classes of [`byte_classes`] tell the non-ASCII white space apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spaces {
    /// Exactly: a class keeps or leaves out each white-space character as it did.
    Exact,
    /// Not at all: every class that leaves out only non-ASCII white space (`\S`, `[^\s\n]`)
    /// takes every non-ASCII character. The tree then matches as the original only on text
    /// without such characters ([`has_unicode_space`]); elsewhere the exact tree must run.
    Unchecked,
}

/// The non-ASCII white space (Unicode `\s` outside ASCII: no-break, en, em and ideographic spaces,
/// line and paragraph separators, …).
fn unicode_spaces() -> ClassUnicode {
    let parsed = regex_syntax::parse(r"[\s&&[^\x00-\x7F]]").expect("a valid class");
    match parsed.into_kind() {
        HirKind::Class(Class::Unicode(spaces)) => spaces,
        _ => unreachable!("a Unicode class"),
    }
}

/// Whether `text` holds a non-ASCII white-space character (where a tree built with
/// [`Spaces::Unchecked`] may differ from the original).
pub(crate) fn has_unicode_space(text: &str) -> bool {
    !text.is_ascii() && text.chars().any(|c| !c.is_ascii() && c.is_whitespace())
}

/// A byte trie of encoded characters: each node's children by their next byte.
#[derive(Default)]
struct Trie(BTreeMap<u8, Trie>);

/// The byte automaton of `class`, or `None` when it is ASCII (one byte class already) or leaves
/// out too many non-ASCII characters.
fn class_as_bytes(class: &ClassUnicode, spaces: Spaces) -> Option<Hir> {
    if class.is_ascii() {
        return None;
    }
    let mut left_out = class.clone();
    left_out.negate();
    left_out.intersect(&ClassUnicode::new([ClassUnicodeRange::new(
        '\u{80}',
        char::MAX,
    )]));
    if spaces == Spaces::Unchecked {
        left_out.difference(&unicode_spaces());
    }
    let count: u32 = left_out
        .iter()
        .map(|r| u32::from(r.end()) - u32::from(r.start()) + 1)
        .sum();
    let ascii_ranges = class
        .iter()
        .filter(|r| r.start().is_ascii())
        .map(|r| ClassBytesRange::new(r.start() as u8, (r.end().min('\x7f')) as u8));
    if count == 0 {
        // Every non-ASCII character: a lead byte and whatever continuation bytes follow it.
        let mut first = ClassBytes::new(ascii_ranges);
        first.union(&ClassBytes::new([ClassBytesRange::new(0xC0, 0xF7)]));
        return Some(Hir::concat(vec![
            Hir::class(Class::Bytes(first)),
            Hir::repetition(Repetition {
                min: 0,
                max: None,
                greedy: true,
                sub: Box::new(continuation(1)),
            }),
        ]));
    }
    if count > MAX_LEFT_OUT {
        return None;
    }
    let mut trie = Trie::default();
    for c in left_out.iter().flat_map(|r| r.start()..=r.end()) {
        let mut buf = [0; 4];
        let mut node = &mut trie;
        for &b in c.encode_utf8(&mut buf).as_bytes() {
            node = node.0.entry(b).or_default();
        }
    }
    let ascii = ClassBytes::new(ascii_ranges);
    let mut branches = Vec::new();
    if !ascii.ranges().is_empty() {
        branches.push(Hir::class(Class::Bytes(ascii)));
    }
    // Lead bytes by how many continuation bytes follow.
    for (lo, hi, more) in [(0xC0, 0xDF, 1), (0xE0, 0xEF, 2), (0xF0, 0xF7, 3)] {
        branches.extend(below(&trie, lo, hi, more));
    }
    Some(Hir::alternation(branches))
}

/// The paths from `node` over its bytes `lo..=hi`, each followed by `more` continuation bytes,
/// that avoid every character in the trie: the bytes with no child, then each child's own paths.
fn below(node: &Trie, lo: u8, hi: u8, more: u32) -> Vec<Hir> {
    let mut free = ClassBytes::new([ClassBytesRange::new(lo, hi)]);
    for &b in node.0.keys().filter(|&&b| (lo..=hi).contains(&b)) {
        free.difference(&ClassBytes::new([ClassBytesRange::new(b, b)]));
    }
    let mut branches = Vec::new();
    if !free.ranges().is_empty() {
        branches.push(Hir::concat(vec![
            Hir::class(Class::Bytes(free)),
            continuation(more),
        ]));
    }
    for (&b, child) in node.0.range(lo..=hi) {
        // A child at the last byte is a character left out: no path.
        if more > 0 {
            let rest = below(child, 0x80, 0xBF, more - 1);
            if !rest.is_empty() {
                branches.push(Hir::concat(vec![
                    Hir::class(Class::Bytes(ClassBytes::new([ClassBytesRange::new(b, b)]))),
                    Hir::alternation(rest),
                ]));
            }
        }
    }
    branches
}

/// `n` continuation bytes.
fn continuation(n: u32) -> Hir {
    Hir::repetition(Repetition {
        min: n,
        max: Some(n),
        greedy: true,
        sub: Box::new(Hir::class(Class::Bytes(ClassBytes::new([
            ClassBytesRange::new(0x80, 0xBF),
        ])))),
    })
}

#[cfg(test)]
mod tests {
    use super::{Spaces, byte_classes, has_unicode_space};
    use regex_automata::meta::Regex;

    fn pair(pattern: &str) -> (Regex, Regex) {
        pair_with(pattern, Spaces::Exact)
    }

    fn pair_with(pattern: &str, spaces: Spaces) -> (Regex, Regex) {
        let hir = regex_automata::util::syntax::parse(pattern).unwrap();
        // A class that is not rewritten stays as it is.
        let bytes = byte_classes(&hir, spaces).unwrap_or_else(|| hir.clone());
        (
            Regex::builder().build_from_hir(&hir).unwrap(),
            Regex::builder().build_from_hir(&bytes).unwrap(),
        )
    }

    /// Every character the classes could tell apart: ASCII, each length of UTF-8, the characters
    /// Unicode `\s` holds outside ASCII, their neighbours, and the ends of each encoding length.
    fn characters() -> Vec<char> {
        let mut v: Vec<char> = (0u8..0x80).map(char::from).collect();
        for c in [
            0x80, 0x84, 0x85, 0x86, 0x9F, 0xA0, 0xA1, 0xFF, 0x17F, 0x7FF, 0x800, 0x1680, 0x1FFF,
            0x2000, 0x2005, 0x200A, 0x200B, 0x2027, 0x2028, 0x2029, 0x202A, 0x202F, 0x205F, 0x2060,
            0x212A, 0x2FFF, 0x3000, 0x3001, 0x3002, 0x3003, 0x4E2D, 0xD7FF, 0xE000, 0xFF1A, 0xFFFF,
            0x10000, 0x1F600, 0x10FFFF,
        ] {
            v.push(char::from_u32(c).unwrap());
        }
        v
    }

    #[test]
    fn each_class_matches_the_same_characters() {
        for pattern in [
            r"[^.\n]",
            r"\S",
            r"\s",
            r".",
            r"(?s).",
            r"[^。\n]",
            r"[^\s`'「*:：=]",
            r"(?i)[^a-z]",
        ] {
            let (exact, bytes) = pair(&format!("^(?:{pattern})$"));
            for c in characters() {
                let s = c.to_string();
                assert_eq!(
                    exact.is_match(&s),
                    bytes.is_match(&s),
                    "{pattern} on U+{:04X}",
                    c as u32
                );
            }
        }
    }

    #[test]
    fn gaps_find_the_same_spans_and_compile_smaller() {
        let pattern = r"(?i)(?-u:\b)(send|发送)(?-u:\b)(?:[^.\n]|\.\S){0,20}(?-u:\b)(keys?|密钥)|(复制|copy)[^。\n]{0,5}(终端|terminal)";
        let (exact, bytes) = pair(pattern);
        for line in [
            "please SEND the keys to bob",
            "send — “the” keys",
            "send.\u{a0}the keys",
            "send. the keys",
            "send.x the keys",
            "发送全部密钥",
            "发送 ſ 密钥",
            "复制到终端",
            "复制。终端",
            "copy ab\u{3000}cd terminal",
            "copy abcdef terminal",
            "send 😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀 key",
            "send 😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀 key",
        ] {
            assert_eq!(exact.find(line), bytes.find(line), "{line:?}");
            let all = |r: &Regex| r.find_iter(line).map(|m| m.span()).collect::<Vec<_>>();
            assert_eq!(all(&exact), all(&bytes), "{line:?}");
        }
        // A match never starts inside a character: searched from a continuation byte, both find
        // the next whole one.
        let line = "发送发送 key";
        let input = regex_automata::Input::new(line).span(1..line.len());
        assert_eq!(exact.find(input.clone()), bytes.find(input));
        assert!(
            bytes.memory_usage() < exact.memory_usage(),
            "{} vs {}",
            bytes.memory_usage(),
            exact.memory_usage()
        );
    }

    #[test]
    fn classes_that_leave_out_many_characters_stay() {
        for pattern in [r"\w", r"\d", r"[a-zé]", r"(?i)s"] {
            let hir = regex_automata::util::syntax::parse(pattern).unwrap();
            assert_eq!(byte_classes(&hir, Spaces::Exact), None, "{pattern}");
            assert_eq!(byte_classes(&hir, Spaces::Unchecked), None, "{pattern}");
        }
        let hir = regex_automata::util::syntax::parse(r"\S").unwrap();
        assert!(byte_classes(&hir, Spaces::Exact).is_some());
        assert_ne!(
            byte_classes(&hir, Spaces::Exact),
            byte_classes(&hir, Spaces::Unchecked)
        );
        // A class that leaves out nothing but line breaks needs no check.
        let hir = regex_automata::util::syntax::parse(r"[^.\n]").unwrap();
        assert_eq!(
            byte_classes(&hir, Spaces::Exact),
            byte_classes(&hir, Spaces::Unchecked)
        );
    }

    /// Unchecked, a class matches as the original on every character but non-ASCII white space,
    /// which it takes as a member (`\S` takes U+00A0, exact `\S` does not); [`has_unicode_space`] finds exactly those.
    #[test]
    fn unchecked_classes_differ_only_on_unicode_spaces() {
        for pattern in [r"\S", r"[^\s\n]", r"[^\s`'「*:：=]", r"[^。\n]"] {
            let (exact, bytes) = pair_with(&format!("^(?:{pattern})$"), Spaces::Unchecked);
            for c in characters() {
                let s = c.to_string();
                if has_unicode_space(&s) {
                    assert!(bytes.is_match(&s), "{pattern} on U+{:04X}", c as u32);
                } else {
                    assert_eq!(
                        exact.is_match(&s),
                        bytes.is_match(&s),
                        "{pattern} on U+{:04X}",
                        c as u32
                    );
                }
            }
        }
        let (exact, bytes) = pair_with(r"^\S$", Spaces::Unchecked);
        assert!(!exact.is_match("\u{a0}") && bytes.is_match("\u{a0}"));
        assert!(has_unicode_space("a\u{a0}b"));
        assert!(has_unicode_space("中\u{3000}文"));
        assert!(!has_unicode_space("a b\tc\n"));
        assert!(!has_unicode_space("中文。“引号”"));
    }
}

/// Every bundled rule's pattern and exemption, compiled with and without [`byte_classes`], finds
/// the same matches at the same spans on every example line of every rule.
#[cfg(test)]
mod rule_tests {
    use super::{Spaces, byte_classes};
    use crate::scan::rules::{RuleSet, line_hir};
    use regex_automata::meta::Regex;

    #[test]
    fn the_rules_find_the_same_spans_with_byte_classes() {
        let set = RuleSet::builtin();
        let mut lines: Vec<String> = set
            .rules
            .iter()
            .flat_map(|r| r.examples_match.iter().chain(&r.no_match).cloned())
            .collect();
        // The same lines with their spaces and full stops made non-ASCII (a no-break space is
        // Unicode whitespace, `\S` must not step over it; an ideographic full stop ends a CJK gap),
        // so the gaps meet the characters they must not cross.
        let more: Vec<String> = lines
            .iter()
            .flat_map(|l| {
                [
                    l.replace(' ', "\u{a0}"),
                    l.replace('.', "。"),
                    l.replace(' ', " “é” "),
                ]
            })
            .collect();
        lines.extend(more);
        let build = |hir: &regex_syntax::hir::Hir| {
            Regex::builder()
                .configure(Regex::config().auto_prefilter(false))
                .build_from_hir(hir)
                .unwrap()
        };
        let (mut rewritten, mut matches) = (0, 0);
        for rule in &set.rules {
            for pattern in std::iter::once(&rule.pattern).chain(&rule.unless) {
                let hir = line_hir(pattern).unwrap();
                let Some(bytes) = byte_classes(&hir, Spaces::Exact) else {
                    continue;
                };
                rewritten += 1;
                let (exact, bytes) = (build(&hir), build(&bytes));
                for line in &lines {
                    let found = exact.find(line.as_str());
                    matches += usize::from(found.is_some());
                    assert_eq!(bytes.find(line.as_str()), found, "{} on {line:?}", rule.id);
                }
            }
        }
        // The scanner's choice per line (the twin, the unchecked regex, or the exact one on a line
        // with non-ASCII white space) finds what the pattern finds.
        for (i, rule) in set.rules.iter().enumerate() {
            let exact = build(&line_hir(&rule.pattern).unwrap());
            for line in &lines {
                assert_eq!(
                    set.regex_for(i, line).find(line.as_str()),
                    exact.find(line.as_str()),
                    "{} on {line:?}",
                    rule.id
                );
            }
        }
        // The Unicode rules' gaps are rewritten, and the lines exercise them.
        assert!(rewritten >= 20, "{rewritten} patterns rewritten");
        assert!(matches >= 100, "{matches} matches");
    }

    /// The heap the bundled rules' compiled regexes hold (own regexes, ASCII twins, exemptions:
    /// what every call's memory and the component's snapshot carry) stays within a budget.
    /// Measured 20.9 MB with 240 rules (38.2 MB before the gaps were written as bytes, BENCHMARKS.md);
    /// the budget leaves a quarter for rules to come. A new Unicode rule whose gaps repeat a class
    /// this module cannot rewrite (`\w`, `\d`, `[^\s\d]`) costs about a megabyte: see
    /// docs/security.md, "Cost", for how to write a cheap gap. Stop 57: 272 rules hold 26.02 MB
    /// (`regex_memory`: regexes 20.29, ASCII twins 4.23, exemptions 1.50; the largest rule 1.87 MB),
    /// so the budget moved to 27 MB: a new rule's cost is still checked, and no rule may take a tenth.
    #[test]
    fn the_rules_compiled_memory_stays_within_its_budget() {
        const BUDGET: usize = 27_000_000;
        let memory = RuleSet::builtin().regex_memory();
        let total: usize = memory.iter().map(|m| m.total()).sum();
        assert!(total <= BUDGET, "{total} bytes of compiled regexes");
        // No single rule takes a tenth of it.
        let largest = memory.iter().map(|m| m.total()).max().unwrap_or(0);
        assert!(
            largest <= BUDGET / 10,
            "a rule's regexes take {largest} bytes"
        );
    }
}
