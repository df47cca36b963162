//! The words a rule's regex cannot match without: derived from the pattern, so the scanner can skip
//! the regex on a line that lacks them.
//!
//! A rule runs its regex on a line only when one of its keywords occurs there ([`super::keywords`]).
//! Most rules name more than their keyword: `ignore … previous … instructions`, `curl … | sh`,
//! `password … zip`. On ordinary text the keyword is often there (a README says "ignore" and
//! "token" all the time) and the rest is not, so the regex scans the line only to fail; with ~200
//! rules that was most of a scan's time. Here each pattern's syntax tree is walked for **required
//! groups**: sets of literal fragments such that every match contains at least one fragment of
//! every group. The fragments join the keyword automaton (which already runs once over every
//! file), and a candidate rule whose groups are not all present on the line is not run.
//!
//! Sound by construction, never by guess: a fragment is only taken from text the regex must
//! match literally —
//! - a literal, split at white space (a soft-wrapped paragraph is searched joined with a space
//!   where the line break was, so a fragment never spans white space) and at non-ASCII bytes (the
//!   automaton reads ASCII, ASCII case-insensitively, so fragments are lowercased);
//! - a class that is one ASCII letter in either case (`(?i)` spells words that way), or one byte;
//! - a concatenation's adjacent such pieces, joined (zero-width assertions do not break them);
//! - an alternation only when every branch requires something (the union of each branch's best
//!   group), a repetition only when it repeats at least once.
//!
//! Anything else (a wider class, `.`, an optional part, a Unicode case class that also matches
//! `ſ` or the Kelvin sign) requires nothing. Missing a requirement only costs time; claiming one
//! that is not required would hide a match, so each rule's must-match examples are also checked
//! against its groups (`scan::tests`).

use regex_syntax::hir::{Class, Hir, HirKind, Literal};

/// Fragments shorter than this are not worth a place in the automaton (they occur everywhere).
pub const MIN_FRAGMENT: usize = 3;
/// At most this many alternatives in one group (an alternation of many words is a weak filter).
const MAX_ALTERNATIVES: usize = 24;
/// At most this many groups per rule (the most selective ones).
pub const MAX_GROUPS: usize = 3;

/// A disjunction of lowercased ASCII fragments: a match contains at least one of them.
pub type Group = Vec<String>;

/// The required groups of `hir` (a conjunction), before selection.
fn required(hir: &Hir) -> Vec<Group> {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => Vec::new(),
        HirKind::Literal(Literal(bytes)) => fragments(bytes).into_iter().map(|f| vec![f]).collect(),
        HirKind::Class(c) => match single_byte(c) {
            Some(b) if !b.is_ascii_whitespace() => vec![vec![(b as char).to_string()]],
            _ => Vec::new(),
        },
        HirKind::Capture(c) => required(&c.sub),
        HirKind::Repetition(r) if r.min >= 1 => required(&r.sub),
        HirKind::Repetition(_) => Vec::new(),
        HirKind::Alternation(branches) => {
            let mut union: Group = Vec::new();
            for b in branches {
                let Some(best) = best(required(b)) else {
                    return Vec::new();
                };
                for f in best {
                    if !union.contains(&f) {
                        union.push(f);
                    }
                }
            }
            if union.is_empty() || union.len() > MAX_ALTERNATIVES {
                Vec::new()
            } else {
                vec![union]
            }
        }
        HirKind::Concat(children) => {
            let mut groups = Vec::new();
            let mut run: Vec<u8> = Vec::new();
            let flush = |run: &mut Vec<u8>, groups: &mut Vec<Group>| {
                groups.extend(fragments(run).into_iter().map(|f| vec![f]));
                run.clear();
            };
            for child in children {
                match child.kind() {
                    HirKind::Literal(Literal(bytes)) => run.extend_from_slice(bytes),
                    HirKind::Class(c) if let Some(b) = single_byte(c) => run.push(b),
                    // Zero-width: the text on both sides is still contiguous.
                    HirKind::Look(_) => {}
                    _ => {
                        flush(&mut run, &mut groups);
                        groups.extend(required(child));
                    }
                }
            }
            flush(&mut run, &mut groups);
            groups
        }
    }
}

/// The one byte a class matches, ignoring ASCII case (`[Ii]` is `i`); `None` for any other class.
fn single_byte(class: &Class) -> Option<u8> {
    let mut found: Option<u8> = None;
    let mut take = |lo: u32, hi: u32| -> bool {
        for c in lo..=hi {
            let Some(b) = u8::try_from(c).ok().filter(u8::is_ascii) else {
                return false;
            };
            let b = b.to_ascii_lowercase();
            match found {
                None => found = Some(b),
                Some(f) if f == b => {}
                Some(_) => return false,
            }
        }
        true
    };
    let ok = match class {
        Class::Unicode(u) => u.ranges().iter().all(|r| {
            (r.end() as u32 - r.start() as u32) < 4 && take(r.start() as u32, r.end() as u32)
        }),
        Class::Bytes(b) => b
            .ranges()
            .iter()
            .all(|r| r.end() - r.start() < 4 && take(r.start().into(), r.end().into())),
    };
    if ok { found } else { None }
}

/// The white-space-free, ASCII-only pieces of `bytes`, lowercased.
fn fragments(bytes: &[u8]) -> Vec<String> {
    bytes
        .split(|b| b.is_ascii_whitespace() || !b.is_ascii())
        .filter(|f| !f.is_empty())
        .map(|f| String::from_utf8_lossy(f).to_ascii_lowercase())
        .collect()
}

/// The most selective of `groups` (the longest shortest fragment, then the fewest alternatives).
fn best(groups: Vec<Group>) -> Option<Group> {
    groups.into_iter().max_by_key(|g| {
        let shortest = g.iter().map(String::len).min().unwrap_or(0);
        (shortest, std::cmp::Reverse(g.len()))
    })
}

/// The groups worth checking for a rule: required by `hir`, every fragment at least
/// [`MIN_FRAGMENT`] bytes, not implied by one of the rule's `keywords` (a group every keyword
/// already contains a fragment of says nothing new), at most [`MAX_GROUPS`], most selective first.
pub fn groups_for(hir: &Hir, keywords: &[String]) -> Vec<Group> {
    let mut groups: Vec<Group> = required(hir)
        .into_iter()
        .filter(|g| g.iter().all(|f| f.len() >= MIN_FRAGMENT))
        .filter(|g| {
            keywords.is_empty()
                || !keywords.iter().all(|k| {
                    let k = k.to_ascii_lowercase();
                    g.iter().any(|f| k.contains(f.as_str()))
                })
        })
        .map(|mut g| {
            g.sort();
            g
        })
        .collect();
    groups.sort();
    groups.dedup();
    groups.sort_by_key(|g| {
        let shortest = g.iter().map(String::len).min().unwrap_or(0);
        (std::cmp::Reverse(shortest), g.len())
    });
    groups.truncate(MAX_GROUPS);
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups(pattern: &str, ascii: bool) -> Vec<Group> {
        let config = regex_automata::util::syntax::Config::new()
            .unicode(!ascii)
            .utf8(!ascii);
        let hir = regex_automata::util::syntax::parse_with(pattern, &config).unwrap();
        groups_for(&hir, &[])
    }

    #[test]
    fn words_of_a_gap_pattern_are_required() {
        let g = groups(
            r"(?i)\bignore\b.{0,40}\b(previous|prior)\s+instructions",
            true,
        );
        assert!(g.contains(&vec!["ignore".to_owned()]), "{g:?}");
        assert!(g.contains(&vec!["instructions".to_owned()]), "{g:?}");
        // The alternation is required too (regex-syntax factors out the common `pr`; what is
        // left of each branch still has to occur).
        let alt = g
            .iter()
            .find(|g| g.len() == 2)
            .expect("the alternation's group");
        assert!(
            alt.iter()
                .all(|f| "previous".contains(f.as_str()) || "prior".contains(f.as_str())),
            "{g:?}"
        );
    }

    #[test]
    fn optional_parts_and_wide_classes_require_nothing() {
        assert!(groups(r"(?i)(curl)?\s*[a-z]+", true).is_empty());
        assert!(groups(r"(?i)(curl|\w+)\s", true).is_empty());
        assert!(groups(r"ab?", true).is_empty());
    }

    #[test]
    fn unicode_case_folding_does_not_give_ascii_fragments() {
        // With Unicode case folding `s` also matches `ſ` (U+017F) and `k` the Kelvin sign: no
        // ASCII fragment containing them is required.
        let g = groups(r"(?i)passkey", false);
        assert!(
            g.iter()
                .flatten()
                .all(|f| !f.contains('s') && !f.contains('k')),
            "{g:?}"
        );
    }

    #[test]
    fn literals_split_at_white_space_and_non_ascii() {
        let g = groups("send all the tokens now", true);
        assert!(g.contains(&vec!["tokens".to_owned()]), "{g:?}");
        assert!(g.iter().flatten().all(|f| !f.contains(' ')), "{g:?}");
        let g = groups("请运行curl命令", false);
        assert_eq!(g, vec![vec!["curl".to_owned()]]);
    }
}
