//! The rules' keyword automaton as one flat transition table, walked by a loop that has a function to
//! itself.
//!
//! aho-corasick builds the automaton (its DFA: every keyword, ASCII case-insensitive, every
//! overlapping occurrence) and this module copies it into a table of its own: byte classes, states
//! numbered so that a single comparison tells a state where keywords end, and transitions stored
//! as the next state's row offset. The search loop then does one class lookup, one table load and
//! one comparison per byte.
//!
//! Why not aho-corasick's overlapping iterator: in the component its search loop was inlined into the
//! scanner's per-line loop, and with that many values live Cranelift kept the automaton's state on
//! the stack, so every byte paid a store and a reload on the loop's critical path (`perf`: 23% of the
//! bundle scan's samples on the one instruction after the table load). [`Keywords::advance`] is
//! never inlined and has nothing else live, so the state stays in a register. The occurrences are
//! the same, in the same order (property-tested against aho-corasick).

use std::ops::Range;

use rustc_hash::FxHashMap;

use aho_corasick::automaton::Automaton;
use aho_corasick::{Anchored, MatchKind, StartKind, dfa};

/// Largest transition table accepted, in entries (a guard against a keyword list that would make
/// the table huge; the bundled rules need far less).
const MAX_TABLE_ENTRIES: usize = 1 << 22;

/// A keyword automaton: every occurrence of every keyword, ASCII case-insensitively.
#[derive(Debug, Clone)]
pub struct Keywords {
    /// The class of each byte (bytes no state tells apart share one), as a byte offset into a row:
    /// class × 4.
    classes: [u32; 256],
    /// Bytes in one state's row: number of classes × 4.
    stride: u32,
    /// The transitions as native-endian `u32`s, addressed in bytes: the four bytes at
    /// `state + class` are the next state. States are byte offsets of their rows (index × stride),
    /// so a step is one addition and one load with no scaling in between (in WebAssembly, the
    /// scaling was one more instruction on the loop's critical path).
    trans: Vec<u8>,
    /// States below this are those where at least one keyword ends; they are numbered first.
    match_limit: u32,
    /// Where a search starts.
    start: u32,
    /// For match state `i` (its offset / stride), its occurrences' range in `ends`.
    match_ranges: Vec<Range<usize>>,
    /// (keyword, length in bytes) of every keyword ending in a match state, in aho-corasick's order.
    ends: Vec<(usize, usize)>,
}

impl Keywords {
    /// Build the automaton for `patterns` (keyword `i` is reported as `i`). Keywords must not be
    /// empty (an empty keyword would occur everywhere).
    pub fn new<P: AsRef<[u8]>>(patterns: &[P]) -> Result<Keywords, String> {
        if let Some(i) = patterns.iter().position(|p| p.as_ref().is_empty()) {
            return Err(format!("keywords: keyword {i} is empty"));
        }
        let dfa = dfa::Builder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .start_kind(StartKind::Unanchored)
            .prefilter(false)
            .build(patterns)
            .map_err(|e| format!("keywords: {e}"))?;
        let start = dfa
            .start_state(Anchored::No)
            .map_err(|e| format!("keywords: {e}"))?;
        // Every state reachable from the start, and each one's 256 successors (as indices). (Hash
        // maps here and for the columns below: the numbering follows `states` and byte order, not
        // the maps' order, and with ordered maps these lookups were a third of `initialize`'s
        // keyword build.)
        let mut index: FxHashMap<u32, usize> = FxHashMap::default();
        index.insert(start.as_u32(), 0);
        let mut states = vec![start];
        let mut next: Vec<usize> = Vec::new();
        let mut i = 0;
        while i < states.len() {
            let sid = states[i];
            for byte in 0..=255u8 {
                let to = dfa.next_state(Anchored::No, sid, byte);
                if dfa.is_dead(to) {
                    // Unanchored overlapping search never stops; a dead state would be a bug here.
                    return Err("keywords: the automaton has a dead state".into());
                }
                let n = *index.entry(to.as_u32()).or_insert_with(|| {
                    states.push(to);
                    states.len() - 1
                });
                next.push(n);
            }
            i += 1;
            if states.len().saturating_mul(256) > MAX_TABLE_ENTRIES {
                return Err("keywords: too many automaton states".into());
            }
        }
        // Number match states first, the rest after, each group in discovery order.
        let mut order: Vec<usize> = (0..states.len()).collect();
        order.sort_by_key(|&s| !dfa.is_match(states[s]));
        let mut renumber = vec![0usize; states.len()];
        for (new, &old) in order.iter().enumerate() {
            renumber[old] = new;
        }
        let matching = order
            .iter()
            .take_while(|&&s| dfa.is_match(states[s]))
            .count();
        // Byte classes: two bytes are one class when every state moves the same way on both.
        let mut classes = [0u32; 256];
        let mut columns: FxHashMap<Vec<usize>, u32> = FxHashMap::default();
        for (byte, class) in classes.iter_mut().enumerate() {
            let column: Vec<usize> = (0..states.len()).map(|s| next[s * 256 + byte]).collect();
            let fresh = 4 * columns.len() as u32; // at most 256 classes
            *class = *columns.entry(column).or_insert(fresh);
        }
        let stride = columns.len() * 4; // bytes per row
        let offset = |s: usize| -> Result<u32, String> {
            u32::try_from(renumber[s] * stride).map_err(|_| "keywords: table too large".to_string())
        };
        let mut trans = vec![0u8; states.len() * stride];
        for s in 0..states.len() {
            for byte in 0..256usize {
                let at = renumber[s] * stride + classes[byte] as usize;
                trans[at..at + 4].copy_from_slice(&offset(next[s * 256 + byte])?.to_ne_bytes());
            }
        }
        let mut match_ranges = Vec::with_capacity(matching);
        let mut ends = Vec::new();
        for &old in &order[..matching] {
            let sid = states[old];
            let from = ends.len();
            for k in 0..dfa.match_len(sid) {
                let pid = dfa.match_pattern(sid, k);
                ends.push((pid.as_usize(), dfa.pattern_len(pid)));
            }
            match_ranges.push(from..ends.len());
        }
        Ok(Keywords {
            classes,
            stride: u32::try_from(stride).map_err(|_| "keywords: table too large")?,
            trans,
            match_limit: u32::try_from(matching * stride)
                .map_err(|_| "keywords: table too large")?,
            start: offset(0)?,
            match_ranges,
            ends,
        })
    }

    /// Every keyword occurrence in `text` as (start, end, keyword), in order of where they end (and,
    /// for one end, in aho-corasick's order): what its overlapping iterator gives.
    pub fn find_iter<'a>(&'a self, text: &'a [u8]) -> Occurrences<'a> {
        Occurrences {
            keywords: self,
            text,
            at: 0,
            state: self.start,
            pending: 0..0,
        }
    }

    /// Walk `text` from `at` in `state` up to the first byte after which keywords end: that position
    /// and state, or `None` at the end of the text.
    #[inline(never)]
    fn advance(&self, text: &[u8], at: usize, mut state: u32) -> Option<(usize, u32)> {
        let (trans, classes, limit) = (self.trans.as_slice(), &self.classes, self.match_limit);
        for (i, &byte) in text.get(at..)?.iter().enumerate() {
            // The class's column is found from the byte alone, off the chain of dependent steps;
            // the state is then added last, so each step waits for one addition and one load.
            let column = &trans[classes[usize::from(byte)] as usize..];
            let x = state as usize;
            state = u32::from_ne_bytes(column[x..x + 4].try_into().expect("four bytes"));
            if state < limit {
                return Some((at + i + 1, state));
            }
        }
        None
    }

    /// How many bytes the table takes (tests).
    #[cfg(test)]
    pub fn memory_usage(&self) -> usize {
        self.trans.len() + self.ends.len() * 16 + self.match_ranges.len() * 16 + 256
    }
}

/// The iterator [`Keywords::find_iter`] returns.
#[derive(Debug, Clone)]
pub struct Occurrences<'a> {
    keywords: &'a Keywords,
    text: &'a [u8],
    /// Where the walk goes on from (just after the last match state's byte).
    at: usize,
    state: u32,
    /// Occurrences ending at `at` not yet returned, as a range of `ends`.
    pending: Range<usize>,
}

impl Iterator for Occurrences<'_> {
    type Item = (usize, usize, usize);

    fn next(&mut self) -> Option<(usize, usize, usize)> {
        loop {
            if let Some(i) = self.pending.next() {
                let (keyword, len) = self.keywords.ends[i];
                return Some((self.at - len, self.at, keyword));
            }
            let (at, state) = self.keywords.advance(self.text, self.at, self.state)?;
            self.at = at;
            self.state = state;
            self.pending =
                self.keywords.match_ranges[(state / self.keywords.stride) as usize].clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Keywords;
    use aho_corasick::{AhoCorasick, MatchKind};
    use proptest::prelude::*;

    fn reference(patterns: &[&str], text: &str) -> Vec<(usize, usize, usize)> {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(patterns)
            .unwrap()
            .find_overlapping_iter(text)
            .map(|m| (m.start(), m.end(), m.pattern().as_usize()))
            .collect()
    }

    fn ours(patterns: &[&str], text: &str) -> Vec<(usize, usize, usize)> {
        Keywords::new(patterns)
            .unwrap()
            .find_iter(text.as_bytes())
            .collect()
    }

    #[test]
    fn overlapping_occurrences_in_order() {
        let p = ["he", "she", "hers", "his", "e"];
        assert_eq!(
            ours(&p, "uSHErs his"),
            vec![(1, 4, 1), (2, 4, 0), (3, 4, 4), (2, 6, 2), (7, 10, 3)]
        );
        assert_eq!(ours(&p, "uSHErs his"), reference(&p, "uSHErs his"));
        assert!(ours(&p, "").is_empty());
        assert!(ours(&p, "xyz").is_empty());
        assert!(ours(&[], "abc").is_empty());
        assert_eq!(
            Keywords::new(&["a", ""]).err().unwrap(),
            "keywords: keyword 1 is empty"
        );
    }

    #[test]
    fn the_bundled_keywords_fit_a_small_table() {
        let k = crate::scan::RuleSet::builtin().keyword_table();
        let classes = k.stride / 4;
        eprintln!("{classes} classes, {} bytes", k.memory_usage());
        assert!(classes <= 128, "{classes} classes");
        // 2.12 MB at 240 rules (round 16's word classes in other languages), 2.37 MB at 262 rules
        // with round 29's widened patterns; the bound stays well below the 53 MB the snapshot
        // carries, and a jump past it (a keyword class exploding the states) still fails.
        assert!(k.memory_usage() < 10 << 18, "{} bytes", k.memory_usage());
    }

    proptest! {
        /// The same occurrences as aho-corasick's overlapping iterator, for keywords and texts drawn
        /// from a small alphabet (so that keywords overlap and nest), in any case, and non-ASCII.
        #[test]
        fn same_as_aho_corasick(
            patterns in proptest::collection::vec("[abcAB中-]{1,4}", 1..12),
            text in "[abcdABC中文 -]{0,80}",
        ) {
            let p: Vec<&str> = patterns.iter().map(String::as_str).collect();
            prop_assert_eq!(ours(&p, &text), reference(&p, &text));
        }

        /// The bundled rule keywords on text made of them, cut and joined at random.
        #[test]
        fn bundled_keywords_same_as_aho_corasick(picks in proptest::collection::vec((0usize..10_000, 0usize..3, "[ ._/=|-]{0,2}"), 0..30)) {
            let set = crate::scan::RuleSet::builtin();
            let all = set.keyword_patterns();
            let mut text = String::new();
            for (k, cut, sep) in picks {
                let k = &all[k % all.len()];
                let cut = k.char_indices().nth(cut).map_or(0, |(i, _)| i);
                text.push_str(&k[cut..].to_uppercase());
                text.push_str(&sep);
            }
            let p: Vec<&str> = all.iter().map(String::as_str).collect();
            let got: Vec<_> = set.keyword_table().find_iter(text.as_bytes()).collect();
            prop_assert_eq!(got, reference(&p, &text));
        }
    }
}
