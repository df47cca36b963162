//! The vocabulary: token interning, stems of words and the normalized text of a lower-cased text.

use super::*;

impl Vocab {
    /// The id of `token`, interning it on first sight.
    pub fn intern(&mut self, token: &str) -> u32 {
        let next = self.ends.len() as u32;
        let id = *self.ids.get_or_insert_with(token, || next);
        if id == next {
            self.texts.push_str(token);
            self.ends.push(self.texts.len() as u32);
        }
        id
    }

    /// The id of a token already seen.
    pub fn get(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// The number of distinct tokens.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Whether any analyzed text had this raw (lower-case) word of letters (numbers and codes are
    /// not recorded as words: see [`Vocab::word`]).
    pub fn knows_word(&self, raw: &str) -> bool {
        debug_assert!(!is_own_stem(raw), "asked about a number or code: {raw}");
        self.words.get(raw).is_some()
    }

    /// The token text of an id.
    pub fn text(&self, id: u32) -> &str {
        let id = id as usize;
        let start = if id == 0 {
            0
        } else {
            self.ends[id - 1] as usize
        };
        &self.texts[start..self.ends[id] as usize]
    }

    /// Whether an id is a concept token.
    pub fn is_concept(&self, id: u32) -> bool {
        self.text(id).starts_with('@')
    }

    /// A raw word's stem id and whether it is a stop word.
    pub(super) fn word(&mut self, raw: &str) -> (u32, bool) {
        if let Some(w) = self.word_cache.get(raw) {
            return w;
        }
        if is_own_stem(raw) {
            // Numbers and codes are their own stems: the stem's id is the word's, so the word map
            // (raw word -> stem) is not needed for them. They are most of the words seen only once
            // (ids, versions, counts), and `knows_word` is only asked about words of letters.
            let w = (self.intern(raw), lexicon().is_stop_stem(raw));
            self.word_cache.put(raw, w);
            return w;
        }
        if let Some(&w) = self.words.get(raw) {
            self.word_cache.put(raw, w);
            return w;
        }
        // The lexicon's stem (`lexicon::word_stem`): *important* is no import.
        let stem = super::super::lexicon::quality_stem(raw, stem_of(raw));
        let stop = lexicon().is_stop_stem(&stem);
        let w = (self.intern(&stem), stop);
        self.words.insert(raw, w);
        self.word_cache.put(raw, w);
        w
    }

    /// [`Vocab::word`] for counting only ([`Vocab::count_tokens`]), which reads a word's id only
    /// to ask whether it is one of `wanted` (ids of interned tokens). A number or code (its own
    /// stem: most words seen once, such as ids and versions) is not interned: it gets the id of
    /// the wanted token with its text, or [`UNSEEN`] (no token has it); whether it is a stop word
    /// is what [`Vocab::word`] gives. Other words are [`Vocab::word`]'s.
    pub(super) fn peek_word(&mut self, raw: &str, wanted: &[u32]) -> (u32, bool) {
        if !is_own_stem(raw) {
            return self.word(raw);
        }
        if let Some(w) = self.word_cache.get(raw) {
            return w;
        }
        let id = wanted
            .iter()
            .copied()
            .find(|&id| self.text(id) == raw)
            .unwrap_or(UNSEEN);
        (id, lexicon().is_stop_stem(raw))
    }

    /// Fill `self.norm` and `self.spans` for a lower-cased text.
    pub(super) fn normalize(&mut self, lower: &str) {
        self.normalize_with(lower, None);
    }

    /// [`Vocab::normalize`]; with `peek` (the wanted ids of [`Vocab::count_tokens`]), numbers and
    /// codes are not interned ([`Vocab::peek_word`]): a span's id is the word's when it is wanted,
    /// else maybe [`UNSEEN`]; the normalized text is the same.
    pub(super) fn normalize_with(&mut self, lower: &str, peek: Option<&[u32]>) {
        let mut norm = std::mem::take(&mut self.norm);
        let mut spans = std::mem::take(&mut self.spans);
        norm.clear();
        spans.clear();
        let base = lower.as_ptr() as usize;
        let mut clause = 0u16;
        let mut sentence = 0u16;
        pieces(lower, |p| match p {
            Piece::Word(w) => {
                let word = match peek {
                    Some(wanted) => self.peek_word(w, wanted),
                    None => self.word(w),
                };
                norm.push(' ');
                let s = norm.len();
                if word.0 == UNSEEN {
                    // A number or code: its own stem.
                    norm.push_str(w);
                } else {
                    norm.push_str(self.text(word.0));
                }
                let e = norm.len();
                norm.push(' ');
                let o = w.as_ptr() as usize - base;
                spans.push(Span {
                    norm: (s, e),
                    orig: (o, o + w.len()),
                    clause,
                    sentence,
                    word: Some(word),
                });
            }
            Piece::Cjk(r) => {
                norm.push(' ');
                let s = norm.len();
                // 繁體 read as 简体: a folded character has the same UTF-8 length, so the
                // span's offsets into the original text still hold.
                norm.extend(r.chars().map(fold_traditional));
                let e = norm.len();
                norm.push(' ');
                let o = r.as_ptr() as usize - base;
                spans.push(Span {
                    norm: (s, e),
                    orig: (o, o + r.len()),
                    clause,
                    sentence,
                    word: None,
                });
            }
            Piece::Break(strong) => {
                norm.push('|');
                clause = clause.saturating_add(1);
                if strong {
                    sentence = sentence.saturating_add(1);
                }
            }
        });
        self.norm = norm;
        self.spans = spans;
    }
}

/// The traditional → simplified character pairs (`guest/rules/traditional-simplified.txt`), sorted by
/// the traditional character. Both characters of a pair are 3 bytes in UTF-8.
pub(super) fn traditional_pairs() -> &'static [(char, char)] {
    static PAIRS: std::sync::OnceLock<Vec<(char, char)>> = std::sync::OnceLock::new();
    PAIRS.get_or_init(|| {
        let text = include_str!("../../../rules/traditional-simplified.txt");
        let chars: Vec<char> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(str::chars)
            .collect();
        let mut pairs: Vec<(char, char)> = chars.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        pairs.sort_unstable();
        pairs
    })
}

/// A traditional Chinese character's simplified form (繁體 → 简体: 經 → 经, 註 → 注); any other
/// character as it is, including those that are simplified characters in their own right (著, 乾).
pub(crate) fn fold_traditional(c: char) -> char {
    // Every traditional character of the table is a CJK ideograph above U+4E00.
    if (c as u32) < 0x4E00 || (c as u32) > 0x9FFF {
        return c;
    }
    let pairs = traditional_pairs();
    match pairs.binary_search_by(|p| p.0.cmp(&c)) {
        Ok(i) => pairs[i].1,
        Err(_) => c,
    }
}
