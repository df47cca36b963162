//! A Unicode rule's twin for plain-ASCII lines: the same regex with everything an ASCII line cannot
//! hold taken out.
//!
//! Twenty rules keep Unicode semantics ([`super::rules::line_hir`]): they name Chinese, Cyrillic or
//! Japanese phrases next to their English ones. Their automata are large: every `\S`, `[^.\n]` or
//! `.` in a bounded gap (`(?:[^.\n]|\.\S){0,80}`) is a UTF-8 decoder of its own, repeated eighty
//! times, and the lazy DFA's new states (which it builds all the time on varied text) cost in
//! proportion. Yet most lines are plain ASCII, and on such a line the regex can only ever step
//! over ASCII characters. The twin keeps exactly that: each class cut down to its ASCII members
//! (one byte each), each branch that needs a non-ASCII literal dropped (it cannot match).
//!
//! On a haystack of ASCII bytes the twin finds exactly the original's matches, at the same spans,
//! in the same order: every character is one byte, a class matches a character exactly when its
//! ASCII part does, a dropped branch never matched, and order, greed and look-around (ASCII word
//! boundaries, line anchors) are kept as they are. A tree with a Unicode word boundary gets no
//! twin (the scanner's rules have none: [`super::rules`] makes every `\b` ASCII).

use regex_syntax::hir::{
    Capture, Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind,
    Literal, Look, Repetition,
};

/// The ASCII-only twin of `hir` (see the module's comment), or `None` when it has none.
pub(crate) fn ascii_twin(hir: &Hir) -> Option<Hir> {
    Some(match hir.kind() {
        HirKind::Empty => Hir::empty(),
        HirKind::Look(look) => {
            if matches!(
                look,
                Look::WordUnicode
                    | Look::WordUnicodeNegate
                    | Look::WordStartUnicode
                    | Look::WordEndUnicode
                    | Look::WordStartHalfUnicode
                    | Look::WordEndHalfUnicode
            ) {
                return None;
            }
            Hir::look(*look)
        }
        HirKind::Literal(Literal(bytes)) => {
            if bytes.is_ascii() {
                Hir::literal(bytes.clone())
            } else {
                Hir::fail()
            }
        }
        HirKind::Class(Class::Unicode(class)) => {
            let ascii = ClassUnicode::new([ClassUnicodeRange::new('\0', '\x7f')]);
            let mut cut = class.clone();
            cut.intersect(&ascii);
            Hir::class(Class::Unicode(cut))
        }
        HirKind::Class(Class::Bytes(class)) => {
            let ascii = ClassBytes::new([ClassBytesRange::new(0, 0x7f)]);
            let mut cut = class.clone();
            cut.intersect(&ascii);
            Hir::class(Class::Bytes(cut))
        }
        HirKind::Repetition(rep) => Hir::repetition(Repetition {
            sub: Box::new(ascii_twin(&rep.sub)?),
            ..rep.clone()
        }),
        HirKind::Capture(cap) => Hir::capture(Capture {
            sub: Box::new(ascii_twin(&cap.sub)?),
            ..cap.clone()
        }),
        HirKind::Concat(subs) => {
            Hir::concat(subs.iter().map(ascii_twin).collect::<Option<Vec<_>>>()?)
        }
        HirKind::Alternation(subs) => {
            let mut kept = Vec::with_capacity(subs.len());
            for sub in subs {
                let twin = ascii_twin(sub)?;
                // A branch that can never match (it needs a non-ASCII character) goes; the others
                // keep their order, so leftmost-first picks the same one.
                if twin.properties().minimum_len().is_some() {
                    kept.push(twin);
                }
            }
            Hir::alternation(kept)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::ascii_twin;
    use regex_automata::meta::Regex;

    fn pair(pattern: &str) -> (Regex, Regex) {
        let hir = regex_automata::util::syntax::parse(pattern).unwrap();
        let twin = ascii_twin(&hir).expect("a twin");
        (
            Regex::builder().build_from_hir(&hir).unwrap(),
            Regex::builder().build_from_hir(&twin).unwrap(),
        )
    }

    #[test]
    fn the_twin_finds_the_same_spans_on_ascii_lines() {
        let (full, twin) = pair(
            r"(?i)(?-u:\b)(send|发送)(?-u:\b)(?:[^.\n]|\.\S){0,20}(?-u:\b)(keys?|密钥)\s+to\s+\w+|(复制|copy) .{0,5}$",
        );
        for line in [
            "please SEND the keys to bob",
            "send all.the key  to x",
            "send. the keys to bob",
            "copy abc",
            "copy abcdefgh",
            "nothing here",
            "send the ſecret keys to bob",
        ] {
            let line = line.as_bytes();
            if line.is_ascii() {
                assert_eq!(
                    full.find(line),
                    twin.find(line),
                    "{:?}",
                    line.escape_ascii()
                );
            }
        }
        // Off ASCII the two differ, which is why only ASCII lines use the twin.
        assert!(full.is_match("复制 abc"));
        assert!(!twin.is_match("复制 abc"));
        assert!(full.is_match("copy 密钥"));
        assert!(!twin.is_match("copy 密钥"));
    }

    #[test]
    fn a_unicode_word_boundary_gets_no_twin() {
        let hir = regex_automata::util::syntax::parse(r"\bsend\b").unwrap();
        assert!(ascii_twin(&hir).is_none());
    }
}
