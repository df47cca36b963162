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

use regex_syntax::hir::{Class, Hir, HirKind, Literal, Look};

/// Fragments shorter than this are not worth a place in the automaton (they occur everywhere)…
pub const MIN_FRAGMENT: usize = 3;
/// …unless the match must have them at a word start (`\brm\s`): `rm` inside `form` or
/// `platform` is then no evidence, and a two-letter word is rare.
pub const MIN_WORD_FRAGMENT: usize = 2;
/// At most this many alternatives in one group (an alternation of many words is a weak filter).
const MAX_ALTERNATIVES: usize = 24;
/// At most this many groups per rule (the most selective ones).
pub const MAX_GROUPS: usize = 3;

/// A literal fragment a match must contain: lowercased ASCII, and whether the match has it at a
/// **word start**, where the byte before it is no ASCII letter, digit or `_` (or there is none).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fragment {
    pub text: String,
    pub word_start: bool,
}

impl Fragment {
    /// How selective the fragment is: its length, and a two-letter fragment at a word start
    /// counts as a longer one.
    fn weight(&self) -> usize {
        self.text.len() + 2 * usize::from(self.word_start)
    }

    fn long_enough(&self) -> bool {
        self.text.len()
            >= if self.word_start {
                MIN_WORD_FRAGMENT
            } else {
                MIN_FRAGMENT
            }
    }
}

/// A disjunction of fragments: a match contains at least one of them.
pub type Group = Vec<Fragment>;

/// Whether the byte before `at` in `text` is no ASCII word byte: what a fragment with
/// [`Fragment::word_start`] needs where it occurs. Deliberately generous, never stricter than the
/// regex: any byte outside ASCII counts as a non-word byte (a Unicode `\b` is stricter there), and
/// so does a letter after a backslash (a JSON string's `\n` escape, which the scanner reads as a
/// line break).
pub fn at_word_start(text: &[u8], at: usize) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    at == 0 || !word(text[at - 1]) || (at >= 2 && text[at - 2] == b'\\')
}

/// What the regex guarantees about the byte just before the next piece of a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Lead {
    /// Nothing.
    Any,
    /// A word boundary (`\b`): if the piece starts with a word byte, the byte before is none.
    Boundary,
    /// No ASCII word byte (the text's start, a line start, white space, punctuation, or a
    /// character outside ASCII).
    NonWord,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// What a zero-width assertion tells about the byte before the position.
fn look_lead(look: Look) -> Lead {
    match look {
        Look::Start
        | Look::StartLF
        | Look::StartCRLF
        | Look::WordStartAscii
        | Look::WordStartUnicode
        | Look::WordStartHalfAscii
        | Look::WordStartHalfUnicode => Lead::NonWord,
        Look::WordAscii | Look::WordUnicode => Lead::Boundary,
        _ => Lead::Any,
    }
}

/// Whether a class holds no ASCII word byte (every character it matches ends in a non-word byte).
fn non_word_class(class: &Class) -> bool {
    let word = |lo: u32, hi: u32| {
        [(b'0', b'9'), (b'A', b'Z'), (b'a', b'z'), (b'_', b'_')]
            .iter()
            .any(|&(a, b)| lo <= u32::from(b) && u32::from(a) <= hi)
    };
    match class {
        Class::Unicode(u) => !u
            .ranges()
            .iter()
            .any(|r| word(r.start() as u32, r.end() as u32)),
        Class::Bytes(b) => !b
            .ranges()
            .iter()
            .any(|r| word(r.start().into(), r.end().into())),
    }
}

/// What follows `hir` is guaranteed about the byte before it, given `lead` before `hir`.
fn lead_after(hir: &Hir, lead: Lead) -> Lead {
    match hir.kind() {
        HirKind::Class(c) if non_word_class(c) => Lead::NonWord,
        HirKind::Literal(Literal(bytes)) => match bytes.last() {
            Some(&b) if !is_word_byte(b) => Lead::NonWord,
            Some(_) => Lead::Any,
            None => lead,
        },
        HirKind::Look(l) => lead.max(look_lead(*l)),
        HirKind::Capture(c) => lead_after(&c.sub, lead),
        HirKind::Concat(children) => children.iter().fold(lead, |l, c| lead_after(c, l)),
        // What every branch guarantees.
        HirKind::Alternation(branches) => branches
            .iter()
            .map(|b| lead_after(b, lead))
            .min()
            .unwrap_or(Lead::Any),
        HirKind::Repetition(r) if matches!(r.sub.kind(), HirKind::Class(c) if non_word_class(c)) => {
            if r.min >= 1 {
                Lead::NonWord
            } else {
                // None at all leaves what came before.
                lead.min(Lead::NonWord)
            }
        }
        _ => Lead::Any,
    }
}

/// The required groups of `hir` (a conjunction), before selection; `lead` is what the regex
/// guarantees about the byte before `hir`'s text.
fn required(hir: &Hir, lead: Lead) -> Vec<Group> {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => Vec::new(),
        HirKind::Literal(Literal(bytes)) => fragments(bytes, lead)
            .into_iter()
            .map(|f| vec![f])
            .collect(),
        HirKind::Class(c) => match single_byte(c) {
            Some(b) if !b.is_ascii_whitespace() => vec![vec![Fragment {
                text: (b as char).to_string(),
                word_start: starts_word(lead, b),
            }]],
            _ => Vec::new(),
        },
        HirKind::Capture(c) => required(&c.sub, lead),
        // The first repetition follows what came before.
        HirKind::Repetition(r) if r.min >= 1 => required(&r.sub, lead),
        HirKind::Repetition(_) => Vec::new(),
        HirKind::Alternation(branches) => {
            let mut union: Group = Vec::new();
            for b in branches {
                let Some(best) = best(required(b, lead)) else {
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
            // What precedes the run (taken when it starts) and the next piece.
            let mut run_lead = lead;
            let mut lead = lead;
            let flush = |run: &mut Vec<u8>, run_lead: Lead, groups: &mut Vec<Group>| {
                groups.extend(fragments(run, run_lead).into_iter().map(|f| vec![f]));
                run.clear();
            };
            for child in children {
                match child.kind() {
                    HirKind::Literal(Literal(bytes)) => {
                        if run.is_empty() {
                            run_lead = lead;
                        }
                        run.extend_from_slice(bytes);
                    }
                    HirKind::Class(c) if let Some(b) = single_byte(c) => {
                        if run.is_empty() {
                            run_lead = lead;
                        }
                        run.push(b);
                    }
                    // Zero-width: the text on both sides is still contiguous.
                    HirKind::Look(_) => {}
                    _ => {
                        flush(&mut run, run_lead, &mut groups);
                        groups.extend(required(child, lead));
                    }
                }
                lead = match child.kind() {
                    HirKind::Class(c) if let Some(b) = single_byte(c) => {
                        if is_word_byte(b) {
                            Lead::Any
                        } else {
                            Lead::NonWord
                        }
                    }
                    // Inside a run a look is skipped: `lead` then describes the run's last byte.
                    HirKind::Look(_) if !run.is_empty() => lead,
                    _ => lead_after(child, lead),
                };
            }
            flush(&mut run, run_lead, &mut groups);
            groups
        }
    }
}

/// Whether a fragment starting with `first` after `lead` is at a word start.
fn starts_word(lead: Lead, first: u8) -> bool {
    match lead {
        Lead::NonWord => true,
        Lead::Boundary => is_word_byte(first),
        Lead::Any => false,
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

/// The white-space-free, ASCII-only pieces of `bytes`, lowercased; the first at a word start as
/// `lead` says, each later one after white space or a byte outside ASCII (so at a word start).
fn fragments(bytes: &[u8], lead: Lead) -> Vec<Fragment> {
    let mut out = Vec::new();
    let mut from = 0;
    for piece in bytes.split(|b| b.is_ascii_whitespace() || !b.is_ascii()) {
        let at = from;
        from += piece.len() + 1;
        if piece.is_empty() {
            continue;
        }
        out.push(Fragment {
            text: String::from_utf8_lossy(piece).to_ascii_lowercase(),
            word_start: if at == 0 {
                starts_word(lead, piece[0])
            } else {
                true
            },
        });
    }
    out
}

/// The most selective of `groups` (the heaviest lightest fragment, then the fewest alternatives).
fn best(groups: Vec<Group>) -> Option<Group> {
    groups.into_iter().max_by_key(|g| {
        let lightest = g.iter().map(Fragment::weight).min().unwrap_or(0);
        (lightest, std::cmp::Reverse(g.len()))
    })
}

/// The groups worth checking for a rule: required by `hir`, every fragment long enough
/// ([`MIN_FRAGMENT`], [`MIN_WORD_FRAGMENT`]), not implied by one of the rule's `keywords` (a group
/// every keyword already contains a fragment of says nothing new — unless the fragment must stand
/// at a word start, which a keyword occurrence does not tell), at most [`MAX_GROUPS`], most
/// selective first.
pub fn groups_for(hir: &Hir, keywords: &[String]) -> Vec<Group> {
    let mut groups: Vec<Group> = required(hir, Lead::Any)
        .into_iter()
        .filter(|g| g.iter().all(Fragment::long_enough))
        .filter(|g| {
            keywords.is_empty()
                || !keywords.iter().all(|k| {
                    let k = k.to_ascii_lowercase();
                    g.iter()
                        .any(|f| !f.word_start && k.contains(f.text.as_str()))
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
        let lightest = g.iter().map(Fragment::weight).min().unwrap_or(0);
        (std::cmp::Reverse(lightest), g.len())
    });
    groups.truncate(MAX_GROUPS);
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pattern: &str, ascii: bool) -> Hir {
        let config = regex_automata::util::syntax::Config::new()
            .unicode(!ascii)
            .utf8(!ascii);
        regex_automata::util::syntax::parse_with(pattern, &config).unwrap()
    }

    /// The groups' texts, word starts marked with a leading `^`.
    fn groups(pattern: &str, ascii: bool) -> Vec<Vec<String>> {
        groups_for(&parse(pattern, ascii), &[])
            .into_iter()
            .map(|g| {
                g.into_iter()
                    .map(|f| {
                        if f.word_start {
                            format!("^{}", f.text)
                        } else {
                            f.text
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn texts(pattern: &str, ascii: bool) -> Vec<Vec<String>> {
        groups(pattern, ascii)
            .into_iter()
            .map(|g| {
                g.into_iter()
                    .map(|f| f.trim_start_matches('^').to_owned())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn words_of_a_gap_pattern_are_required() {
        let g = texts(
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
        let g = texts(r"(?i)passkey", false);
        assert!(
            g.iter()
                .flatten()
                .all(|f| !f.contains('s') && !f.contains('k')),
            "{g:?}"
        );
    }

    #[test]
    fn literals_split_at_white_space_and_non_ascii() {
        let g = texts("send all the tokens now", true);
        assert!(g.contains(&vec!["tokens".to_owned()]), "{g:?}");
        assert!(g.iter().flatten().all(|f| !f.contains(' ')), "{g:?}");
        let g = groups("请运行curl命令", false);
        assert_eq!(g, vec![vec!["^curl".to_owned()]]);
    }

    /// Must be at a word start: after `\b` (a fragment starting with a word byte), `^`, white
    /// space or another non-word class, repeated or not, and each later word of a literal.
    #[test]
    fn fragments_at_word_starts() {
        for (pattern, ascii, want) in [
            (r"(?i)\brm\s+-rf", true, "^rm"),
            (r"(?i)\brm\s+-rf", false, "^rm"),
            (r"^curl", true, "^curl"),
            (r"(?m)^\s*curl", true, "^curl"),
            (r"[ /]+wget", true, "^wget"),
            (r"(^|;)\s*wget", true, "^wget"),
            (r"x+ eval", true, "^eval"),
            (r"\b(?:mkfs|dd)\b", true, "^dd"),
            (r"\b(chmod)\s", true, "^chmod"),
        ] {
            let g = groups(pattern, ascii);
            assert!(g.iter().flatten().any(|f| f == want), "{pattern}: {g:?}");
        }
    }

    /// May stand inside a word: no boundary, a word class or an optional part before it, a `\b`
    /// before a non-word byte, or a gap that may be empty after a letter.
    #[test]
    fn fragments_inside_words_are_not_word_starts() {
        for (pattern, ascii, text) in [
            (r"(?i)rmx\s+-rf", true, "rmx"),
            (r"\s*wget", true, "wget"),
            (r"(?i)\w*passwd", true, "passwd"),
            (r"(?i)(\s|x)curl", true, "curl"),
            (r"(?i)\b-rf", true, "-rf"),
            (r"(?i)a\s*curl", true, "curl"),
            (r"(?i)\b\w?wget", true, "wget"),
            (r"(?i)[a-z]+\.exec", true, ".exec"),
            (r"(?i)(?:\.|x)?shadow", true, "shadow"),
        ] {
            let g = groups(pattern, ascii);
            assert!(
                g.iter().flatten().any(|f| f == text),
                "{pattern}: {text} missing from {g:?}"
            );
        }
        // Too short to check where it may stand anywhere.
        assert!(groups(r"(?i)rm\s", true).is_empty());
    }

    #[test]
    fn word_start_test_is_generous() {
        assert!(at_word_start(b"rm -rf", 0));
        assert!(at_word_start(b"x rm", 2));
        assert!(at_word_start(b"\"\\nrm -rf", 3));
        assert!(at_word_start("é rm".as_bytes(), 3));
        assert!(at_word_start("érm".as_bytes(), 2));
        assert!(!at_word_start(b"form", 2));
        assert!(!at_word_start(b"x_rm", 2));
        assert!(!at_word_start(b"9rm", 1));
    }
}
