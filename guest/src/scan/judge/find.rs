//! Substring search for the judges' word tests (`has(line, "word")`, `has_any(line, WORDS)`).
//!
//! The judges ask many short needles about each lowered line. Core's `str::contains` builds a
//! Two-Way searcher per call (a critical factorization of the needle) and, in WebAssembly, scans a
//! byte at a time: in the component it was ~39% of the catalog scan (BENCHMARKS.md, perf27). Here
//! a needle of two or more bytes is searched with `memchr`'s packed-pair finder (two of the needle's
//! rarer bytes tested 16 positions at a time, with `simd128` in WebAssembly and SSE2 on x86-64;
//! building it only picks the pair), and a haystack too short for a vector with Rabin-Karp. The
//! answer is the same as `str::contains`: both are exact byte-substring tests.
use aho_corasick::{AhoCorasick, MatchKind};
use memchr::arch::all::rabinkarp;
use std::sync::OnceLock;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use memchr::arch::wasm32::simd128::packedpair::Finder as Packed;
#[cfg(target_arch = "x86_64")]
use memchr::arch::x86_64::sse2::packedpair::Finder as Packed;

/// Whether `needle` occurs in `hay` (as `hay.contains(needle)`).
#[inline]
pub(crate) fn has(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    match n {
        [] => true,
        [b] => memchr::memchr(*b, h).is_some(),
        _ if n.len() > h.len() => false,
        _ if h.len() < SHORT => short(h, n),
        _ => find(h, n),
    }
}

/// `hay.has(needle)`: [`has`] as a method, so a judge's `l.contains("word")` on a `&str`, a
/// `String` or a `&&str` becomes `l.has("word")` whatever the receiver's type.
pub(crate) trait Has {
    fn has(&self, needle: &str) -> bool;
}

impl Has for str {
    #[inline]
    fn has(&self, needle: &str) -> bool {
        has(self, needle)
    }
}

/// Haystacks shorter than this (most lines) are searched by [`short`]: building a packed-pair or
/// Rabin-Karp finder costs more than such a line's search (~560 instructions a call on the
/// ordinary throughput set, BENCHMARKS.md perf51).
const SHORT: usize = 128;

/// Each start where the needle's first byte occurs (`memchr`), its second byte compared before
/// the rest: at most `SHORT` starts of a needle of two or more bytes that fits in `h`.
fn short(h: &[u8], n: &[u8]) -> bool {
    let (first, second, rest) = (n[0], n[1], &n[2..]);
    let last = h.len() - n.len();
    let mut from = 0;
    while let Some(p) = memchr::memchr(first, &h[from..=last]) {
        let at = from + p;
        if h[at + 1] == second && &h[at + 2..at + n.len()] == rest {
            return true;
        }
        from = at + 1;
        if from > last {
            break;
        }
    }
    false
}

/// Whether any of `words` occurs in `hay`.
pub(crate) fn has_any(hay: &str, words: &[&str]) -> bool {
    words.iter().any(|w| has(hay, w))
}

/// A judge's long needle list asked of one text in one pass: an Aho-Corasick automaton over
/// `words` (all matches, overlapping), built on first use; force it in `initialize` so the
/// component's snapshot holds it. Same answers as asking the words one by one with [`has`].
pub(crate) struct Needles {
    words: &'static [&'static str],
    ac: OnceLock<AhoCorasick>,
}

impl Needles {
    pub(crate) const fn new(words: &'static [&'static str]) -> Self {
        Self {
            words,
            ac: OnceLock::new(),
        }
    }

    fn ac(&self) -> &AhoCorasick {
        self.ac.get_or_init(|| {
            AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .build(self.words)
                .expect("needles build")
        })
    }

    /// Build the automaton now.
    pub(crate) fn force(&self) {
        self.ac();
    }

    /// Whether any word occurs in `hay` (as `has_any(hay, words)`).
    pub(crate) fn any(&self, hay: &str) -> bool {
        self.ac().is_match(hay)
    }

    /// The first word of the list (in list order, not text order) that occurs in `hay`, as
    /// `words.iter().find(|w| has(hay, w))`: the least pattern index of every overlapping match.
    pub(crate) fn first(&self, hay: &str) -> Option<&'static str> {
        let mut least: Option<usize> = None;
        for m in self.ac().find_overlapping_iter(hay) {
            let i = m.pattern().as_usize();
            if i == 0 {
                return Some(self.words[0]);
            }
            least = Some(least.map_or(i, |l| l.min(i)));
        }
        least.map(|i| self.words[i])
    }
}

/// Every judge's gate words, indexed: one Aho-Corasick automaton (all matches, overlapping) run
/// once over a file's whole lowered text gives the set of these words that occur in it
/// ([`Found`]), so a judge's whole-text gate asks a bit instead of searching the text again for
/// each word. Built once (force it in `initialize` so the component's snapshot holds it).
pub(crate) struct GateWords {
    words: Vec<&'static str>,
    index: rustc_hash::FxHashMap<&'static str, usize>,
    ac: AhoCorasick,
}

impl GateWords {
    /// The automaton over the words (each word once; an empty word is left out: it occurs in
    /// every text and is answered by [`has`]).
    pub(crate) fn new(all: impl IntoIterator<Item = &'static str>) -> Self {
        let mut words: Vec<&'static str> = Vec::new();
        let mut index = rustc_hash::FxHashMap::default();
        for w in all {
            if !w.is_empty() && !index.contains_key(w) {
                index.insert(w, words.len());
                words.push(w);
            }
        }
        let ac = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(&words)
            .expect("gate words build");
        Self { words, index, ac }
    }

    /// Which of the words occur in `text`: every overlapping match of the automaton.
    pub(crate) fn found(&self, text: &str) -> Vec<u64> {
        let mut bits = vec![0u64; self.words.len().div_ceil(64)];
        for m in self.ac.find_overlapping_iter(text) {
            let i = m.pattern().as_usize();
            bits[i / 64] |= 1 << (i % 64);
        }
        bits
    }
}

/// A whole text and the gate words found in it ([`GateWords::found`]): `has` answers as
/// [`has`] over the text, from the set for an indexed word and by a search for any other.
#[derive(Clone, Copy)]
pub(crate) struct Found<'t> {
    pub(crate) text: &'t str,
    pub(crate) gates: &'t GateWords,
    pub(crate) bits: &'t [u64],
}

impl Found<'_> {
    /// Whether `needle` occurs in the text (as `has(text, needle)`).
    #[inline]
    pub(crate) fn has(&self, needle: &str) -> bool {
        match self.gates.index.get(needle) {
            Some(&i) => self.bits[i / 64] & (1 << (i % 64)) != 0,
            None => has(self.text, needle),
        }
    }

    /// Whether any of `words` occurs in the text (as `has_any(text, words)`).
    pub(crate) fn any(&self, words: &[&str]) -> bool {
        words.iter().any(|w| self.has(w))
    }
}

impl std::ops::Deref for Found<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        self.text
    }
}

#[cfg(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    target_arch = "x86_64"
))]
fn find(h: &[u8], n: &[u8]) -> bool {
    match Packed::new(n) {
        Some(f) if h.len() >= f.min_haystack_len() => f.find(h, n).is_some(),
        _ => rabinkarp::Finder::new(n).find(h, n).is_some(),
    }
}

#[cfg(not(any(
    all(target_arch = "wasm32", target_feature = "simd128"),
    target_arch = "x86_64"
)))]
fn find(h: &[u8], n: &[u8]) -> bool {
    rabinkarp::Finder::new(n).find(h, n).is_some()
}

#[cfg(test)]
mod tests {
    use super::{GateWords, Needles, has, has_any};

    /// Every substring (and some non-substrings) of haystacks short and long, at every offset,
    /// answered as `str::contains` answers.
    #[test]
    fn scan_find_has_equals_str_contains() {
        let long = "send the api key to https://example.com/upload then delete the log; \
                    the token is read from ~/.ssh/id_rsa and posted with curl -d @- 日本語の文 ok";
        let wide = long.repeat(3);
        let hays = [
            "",
            "a",
            "ab",
            "api key",
            "short line",
            long,
            &long[..40],
            &long[..127],
            &long[..128],
            &wide,
        ];
        let extra = [
            "zz", "keyz", "api  key", "日本", "語の", "ok!", "q", "\u{3000}",
        ];
        let mut asked = 0;
        for hay in hays {
            for i in 0..=hay.len() {
                for j in i..=hay.len().min(i + 40) {
                    if let Some(n) = hay.get(i..j) {
                        assert!(has(hay, n), "{n:?} in {hay:?}");
                        // The same needle with its last byte changed: found only if it occurs.
                        if n.is_ascii() && !n.is_empty() {
                            let m = format!("{}#", &n[..n.len() - 1]);
                            assert_eq!(has(hay, &m), hay.contains(&m), "{m:?} in {hay:?}");
                        }
                        asked += 1;
                    }
                }
            }
            for n in extra {
                assert_eq!(has(hay, n), hay.contains(n), "{n:?} in {hay:?}");
            }
            for other in hays {
                assert_eq!(has(hay, other), hay.contains(other), "{other:?} in {hay:?}");
            }
        }
        assert!(asked > 1000);
        assert!(has_any(long, &["nope", "curl -d"]));
        assert!(!has_any(long, &["nope", "wget"]));
        assert!(!has_any(long, &[]));
    }

    /// `Needles` answers as the words asked one by one: `any` as `has_any`, `first` the earliest
    /// word of the list (not of the text), with overlapping and nested words.
    #[test]
    fn scan_find_needles_answer_as_words_one_by_one() {
        static WORDS: &[&str] = &["password", "pass", "word", "ssh key", "鍵", "ass"];
        static N: Needles = Needles::new(WORDS);
        let hays = [
            "",
            "the password is here",
            "a word on its own",
            "my ssh key and 鍵",
            "passage",
            "nothing to see",
            "class of glass",
            "鍵",
            "swordfish passes",
        ];
        for hay in hays {
            assert_eq!(N.any(hay), has_any(hay, WORDS), "{hay:?}");
            assert_eq!(
                N.first(hay),
                WORDS.iter().find(|w| has(hay, w)).copied(),
                "{hay:?}"
            );
        }
        // Must: list order wins over text order ("word" occurs first in the text).
        assert_eq!(N.first("word then password"), Some("password"));
        // Must: a word nested in a longer one is still seen ("ass" inside "glass").
        assert_eq!(N.first("glass"), Some("ass"));
        // Must not: none of the words.
        assert_eq!(N.first("nothing to see"), None);
        assert!(!N.any("pa ss wo rd"));
    }

    /// `Found` (the gate words found by one pass) answers as `has` over the text: for listed
    /// words nested in one another, overlapping, repeated or multi-byte, and by a search for a
    /// word not listed.
    #[test]
    fn scan_find_gate_words_answer_as_has() {
        let gates = GateWords::new(
            ["token", "to", "oke", "ken", "api key", "鍵", "to", "", "s"]
                .into_iter()
                .chain(["keys", "tok"]),
        );
        let texts = [
            "",
            "s",
            "a token here",
            "tokens and api keys",
            "the api  key is not one",
            "my 鍵 and ken",
            "nothing but ok\nand lines",
        ];
        let asked = [
            "token", "to", "oke", "ken", "api key", "鍵", "s", "keys", "tok", "",
            // Not listed: answered by a search.
            "here", "api  key", "lines", "zzz",
        ];
        for text in texts {
            let bits = gates.found(text);
            let f = super::Found {
                text,
                gates: &gates,
                bits: &bits,
            };
            for w in asked {
                assert_eq!(f.has(w), has(text, w), "{w:?} in {text:?}");
            }
            assert_eq!(f.any(&["zzz", "keys"]), has_any(text, &["zzz", "keys"]));
        }
        // Must: a word inside a longer listed word ("oke" and "ken" inside "token").
        let bits = gates.found("token");
        let f = super::Found {
            text: "token",
            gates: &gates,
            bits: &bits,
        };
        assert!(f.has("oke") && f.has("ken") && f.has("to") && f.has("tok"));
        // Must not: a listed word absent from the text, nor an unlisted one.
        assert!(!f.has("api key") && !f.has("keys") && !f.has("here"));
    }
}
