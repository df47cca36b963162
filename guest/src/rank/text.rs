//! Text analysis for task matching, English and Chinese alike, and BM25F over a candidate's fields.
//!
//! The analyzer lower-cases the text and splits it into ASCII words, CJK runs and clause breaks
//! ([`lexicon::pieces`]). An ASCII word becomes its Snowball stem (`tables` → `tabl`). The stems and
//! CJK runs form a normalized text in which one pass of the lexicon's automaton finds every concept
//! term (adding a `@concept` token) and, inside a Chinese run, every dictionary word: that is the
//! Chinese word segmentation (forward maximum matching over the lexicon's terms and words). The
//! parts of a Chinese run no dictionary word covers fall back to character bigrams (a lone character
//! stays itself), the standard CJK indexing of search engines. Stop words of both languages are
//! dropped.
//!
//! BM25 is written out here rather than taken from a crate: the crates available key their term maps by
//! std's randomly seeded `HashMap`, which would add a `wasi:random` import to the component.

use std::collections::BTreeSet;

use super::lexicon::{Kind, Piece, lexicon, pieces, stemmer};
use crate::strmap::StrMap;

/// BM25 parameters (the usual defaults).
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// The fields of a candidate that task matching reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    /// The name and the id's slug.
    Name,
    Categories,
    /// The description's first sentence: what the skill is.
    Lead,
    /// The rest of the description.
    Body,
    /// `pain_point` and `highlights`, when the agent wrote them.
    AgentNotes,
}

/// The number of fields.
pub const FIELDS: usize = 5;

/// Field weights for BM25F: a term in the name counts three times one in the description's body.
pub const FIELD_WEIGHTS: [(Field, f64); FIELDS] = [
    (Field::Name, 3.0),
    (Field::Categories, 2.0),
    (Field::Lead, 1.5),
    (Field::Body, 1.0),
    (Field::AgentNotes, 0.5),
];

/// Build the lexicon and the stemmer now ([`crate::initialize`]).
pub(crate) fn initialize() {
    lexicon();
    stemmer();
}

/// What kind of token a lexical token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokKind {
    /// An English stem.
    Word,
    /// A Chinese dictionary word.
    CjkWord,
    /// A character bigram (or lone character) of a Chinese stretch no dictionary word covers.
    CjkGram,
}

/// One lexical token of an analyzed text.
#[derive(Debug, Clone, Copy)]
pub struct Token {
    pub id: u32,
    pub kind: TokKind,
    /// Clause index.
    pub clause: u16,
    /// Inside the text's side part (after a side marker such as "then" or 然后).
    pub side: bool,
    /// Not part of any concept term.
    pub free: bool,
    /// For a bigram: which uncovered stretch it comes from (bigrams of one stretch form one unit).
    pub stretch: u32,
    /// Byte range in the lower-cased text.
    pub at: (u32, u32),
}

/// One concept found in an analyzed text.
#[derive(Debug, Clone, Copy)]
pub struct ConceptHit {
    pub concept: usize,
    pub clause: u16,
    /// Sentence index.
    pub sentence: u16,
    pub side: bool,
    /// Byte range in the lower-cased text.
    pub at: (u32, u32),
}

/// An analyzed text.
#[derive(Debug, Clone, Default)]
pub struct Analysis {
    /// The lower-cased text the byte ranges refer to.
    pub lower: String,
    pub tokens: Vec<Token>,
    pub concepts: Vec<ConceptHit>,
    /// Conversions the text describes: (source object, target object), from "X to Y", "X 转 Y".
    pub directions: Vec<(usize, usize)>,
    /// The text calls itself all-in-one (a lexicon catch-all marker).
    pub catch_all: bool,
    /// A request's text as written (set by [`Vocab::analyze_request`] only: routes read capitals).
    pub raw: String,
    /// What the phrasing rules read beyond the lexicon's terms ([`super::phrasing`]).
    pub readings: Vec<Reading>,
}

/// One reading of a phrasing rule: "备…课" read as 备课, "深圳→西安" as travel.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// The request's words, as found (parts joined by …, places by →).
    pub surface: String,
    /// The term or concept it is read as.
    pub read_as: String,
    /// The concepts it adds.
    pub concepts: Vec<usize>,
}

/// A token of the normalized text, with where it came from.
#[derive(Debug, Clone, Copy)]
struct Span {
    norm: (usize, usize),
    orig: (usize, usize),
    clause: u16,
    sentence: u16,
    /// For a word: its stem's id; `None` for a CJK run.
    word: Option<(u32, bool)>,
}

/// A stretch of the normalized text a lexicon hit covers.
#[derive(Debug, Clone, Copy)]
struct Cover {
    from: usize,
    to: usize,
    concept: bool,
    stop: bool,
}

/// The claims a first sentence enumerates: the items of the list after its first colon
/// ("every household question answered: cleaning and stain removal, laundry, DIY repairs, …";
/// 生活百事通：做饭菜谱、衣物去渍、…), split at commas, 、 and "and"/"or". 0 without a colon. A
/// listing's breadth is the larger of this count and its distinct objects and actions, so a
/// catch-all whose claims the concept map does not name (laundry, car care, parenting) still
/// counts as broad.
pub fn enumerated_claims(lead: &str) -> u16 {
    let Some(colon) = lead.find([':', '：']) else {
        return 0;
    };
    let list = &lead[colon..];
    let mut n = 0u16;
    for item in list.split([',', '、', '，', ';', '；']) {
        let parts = item
            .split(" and ")
            .flat_map(|p| p.split(" or "))
            .filter(|p| p.chars().any(char::is_alphanumeric))
            .count();
        n = n.saturating_add(parts as u16);
    }
    n
}

/// Interned tokens: every distinct token is a number, and each distinct word is stemmed once, so
/// ranking 100,000 candidates allocates per distinct token, not per occurrence.
#[derive(Debug, Default)]
pub struct Vocab {
    ids: StrMap<u32>,
    /// Every token's text, one after another (one allocation for all, not one per token).
    texts: String,
    /// Where each token's text ends in `texts`, by id.
    ends: Vec<u32>,
    /// Raw lower-case word → (its stem's id, whether it is a stop word).
    words: StrMap<(u32, bool)>,
    /// The most recent answers of `words` for short words.
    word_cache: word_cache::WordCache,
    /// Scratch buffers reused between texts.
    norm: String,
    lower: String,
    spans: Vec<Span>,
    /// Token id of each concept's `@name`, once interned.
    concept_ids: Vec<Option<u32>>,
}

/// The English stem of a lower-case word. A word of ASCII letters and digits that ends in a digit
/// (`2`, `v3`, `s1234`: numbers, versions, ids) is its own stem: every suffix the stemmer removes or
/// rewrites ends in a letter or an apostrophe, so it is returned without running the stemmer (a
/// candidate list with numbered names had one such word per candidate, each stemmed once).
fn stem_of(raw: &str) -> std::borrow::Cow<'_, str> {
    if is_own_stem(raw) {
        return std::borrow::Cow::Borrowed(raw);
    }
    stemmer().stem(raw)
}

/// A number or code (`2024`, `v2`, `s3`): its own stem, never stemmed.
fn is_own_stem(raw: &str) -> bool {
    raw.as_bytes().last().is_some_and(u8::is_ascii_digit)
        && raw.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Normalize a text without a vocabulary (stems computed on the spot): for one-off lookups.
pub fn normalize_plain(text: &str) -> String {
    let mut v = Vocab::default();
    let lower = crate::lowercase(text);
    v.normalize(&lower);
    std::mem::take(&mut v.norm)
}

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
    fn word(&mut self, raw: &str) -> (u32, bool) {
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
        let stem = stem_of(raw);
        let stop = lexicon().is_stop_stem(&stem);
        let w = (self.intern(&stem), stop);
        self.words.insert(raw, w);
        self.word_cache.put(raw, w);
        w
    }

    /// Fill `self.norm` and `self.spans` for a lower-cased text.
    fn normalize(&mut self, lower: &str) {
        let mut norm = std::mem::take(&mut self.norm);
        let mut spans = std::mem::take(&mut self.spans);
        norm.clear();
        spans.clear();
        let base = lower.as_ptr() as usize;
        let mut clause = 0u16;
        let mut sentence = 0u16;
        pieces(lower, |p| match p {
            Piece::Word(w) => {
                let word = self.word(w);
                norm.push(' ');
                let s = norm.len();
                norm.push_str(self.text(word.0));
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
                norm.push_str(r);
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

    /// Analyze a request: [`Vocab::analyze_text`], then the phrasing rules of requests
    /// ([`super::phrasing`]: separable words, routes, implied conversions).
    pub fn analyze_request(&mut self, text: &str) -> Analysis {
        let mut a = self.analyze_text(text);
        a.raw = text.to_owned();
        super::phrasing::apply(&mut a);
        a
    }

    /// Analyze a text: lexical tokens (stems, Chinese words, bigrams of uncovered Chinese stretches)
    /// and the concepts it names.
    pub fn analyze_text(&mut self, text: &str) -> Analysis {
        let lower = crate::lowercase(text);
        self.normalize(&lower);
        let lex = lexicon();
        let mut out = Analysis::default();
        let spans = std::mem::take(&mut self.spans);
        let norm = std::mem::take(&mut self.norm);
        // Where the side part starts in the normalized text (after the first side marker that
        // follows some content).
        let mut side_from = usize::MAX;
        // Per span: the norm ranges inside it that hits cover, and whether a concept covers it.
        // (span index, cover) in span order: hits come left to right.
        let mut covered: Vec<(usize, Cover)> = Vec::new();
        let mut first = 0usize;
        // (sentence, position, object) in text order, and the first direction marker of each
        // sentence.
        let mut objects: Vec<(u16, usize, usize)> = Vec::new();
        let mut markers: Vec<(u16, usize)> = Vec::new();
        // The first source marker of each sentence ("builds X from Y"): (sentence, clause, position).
        let mut sources: Vec<(u16, u16, usize)> = Vec::new();
        // The clause of each object in `objects`.
        let mut object_clauses: Vec<u16> = Vec::new();
        // (clause, position) of each making action ("builds", "turns … into").
        let mut makings: Vec<(u16, usize)> = Vec::new();
        let mut converts = false;
        let mut seen_action = false;
        for hit in lex.hits(&norm) {
            while first < spans.len() && spans[first].norm.1 <= hit.start {
                first += 1;
            }
            if first >= spans.len() {
                break;
            }
            let concepts = lex.hit_concepts(&hit);
            let stop = lex.hit_is_stop(&hit);
            if lex.hit_is_side(&hit) && side_from == usize::MAX && hit.start > 2 {
                side_from = hit.start;
            }
            out.catch_all |= lex.hit_is_catch_all(&hit);
            if lex.hit_is_direction(&hit) && !markers.iter().any(|m| m.0 == spans[first].sentence) {
                markers.push((spans[first].sentence, hit.start));
            }
            if concepts.iter().any(|&c| {
                matches!(
                    lex.concepts[c].name.as_str(),
                    super::relevance::GENERIC_MAKING | "convert"
                )
            }) {
                makings.push((spans[first].clause, hit.start));
            }
            if lex.hit_is_source(&hit) && !sources.iter().any(|m| m.0 == spans[first].sentence) {
                sources.push((spans[first].sentence, spans[first].clause, hit.start));
            }
            let is_action = concepts
                .iter()
                .any(|&c| lex.concepts[c].kind == Kind::Action);
            // "… and remove the blank pages": a second action after "and" starts the side part.
            if is_action && seen_action && side_from == usize::MAX && first > 0 {
                let prev = &spans[first - 1];
                if prev.clause == spans[first].clause
                    && prev.word.is_some_and(|(id, _)| self.text(id) == "and")
                {
                    side_from = prev.norm.0;
                }
            }
            seen_action |= is_action;
            for &c in concepts {
                let concept = &lex.concepts[c];
                match concept.kind {
                    Kind::Object if !concept.generic => {
                        objects.push((spans[first].sentence, hit.start, c));
                        object_clauses.push(spans[first].clause);
                    }
                    Kind::Action
                        if matches!(
                            concept.name.as_str(),
                            "convert" | "extract" | "transcribe"
                        ) =>
                    {
                        converts = true;
                    }
                    _ => {}
                }
            }
            let mut last = first;
            while last + 1 < spans.len() && spans[last + 1].norm.0 < hit.end {
                last += 1;
            }
            let clause = spans[first].clause;
            let sentence = spans[first].sentence;
            let o_start = spans[first].orig.0 + hit.start.saturating_sub(spans[first].norm.0);
            let o_end = if hit.end >= spans[last].norm.1 {
                spans[last].orig.1
            } else {
                spans[last].orig.0 + (hit.end - spans[last].norm.0)
            };
            for span in first..=last {
                covered.push((
                    span,
                    Cover {
                        from: hit.start,
                        to: hit.end,
                        concept: !concepts.is_empty(),
                        stop,
                    },
                ));
            }
            for &c in concepts {
                out.concepts.push(ConceptHit {
                    concept: c,
                    clause,
                    sentence,
                    side: hit.start >= side_from,
                    at: (o_start as u32, o_end as u32),
                });
            }
        }
        // A name ("PDF to Word") is a conversion by itself.
        if converts || spans.len() <= 6 {
            for &(clause, at) in &markers {
                let before = objects.iter().filter(|o| o.0 == clause && o.1 < at);
                for &(_, _, src) in before {
                    for &(_, _, dst) in objects.iter().filter(|o| o.0 == clause && o.1 > at) {
                        if src != dst && !out.directions.contains(&(src, dst)) {
                            out.directions.push((src, dst));
                        }
                    }
                }
            }
            // "Builds an expense report from a folder of receipts": the objects before the marker
            // are made from those after it in the same clause (receipts → expense report), when a
            // making action comes before it in that clause ("summarize a video from its transcript"
            // makes no video).
            for &(sentence, clause, at) in &sources {
                if !makings.iter().any(|&(c, p)| c == clause && p < at) {
                    continue;
                }
                let in_sentence = || {
                    objects
                        .iter()
                        .zip(&object_clauses)
                        .filter(move |(o, _)| o.0 == sentence)
                };
                for (&(_, _, dst), _) in in_sentence().filter(|(o, _)| o.1 < at) {
                    for (&(_, _, src), _) in
                        in_sentence().filter(|(o, c)| **c == clause && o.1 > at)
                    {
                        if src != dst && !out.directions.contains(&(src, dst)) {
                            out.directions.push((src, dst));
                        }
                    }
                }
            }
        }
        let mut stretch = 0u32;
        let mut next_cover = 0usize;
        for (i, sp) in spans.iter().enumerate() {
            let from = next_cover;
            while next_cover < covered.len() && covered[next_cover].0 == i {
                next_cover += 1;
            }
            let covers = &covered[from..next_cover];
            let side = sp.norm.0 >= side_from;
            let clause = sp.clause;
            match sp.word {
                Some((id, stop)) => {
                    if !stop {
                        out.tokens.push(Token {
                            id,
                            kind: TokKind::Word,
                            clause,
                            side,
                            free: !covers.iter().any(|c| c.1.concept),
                            stretch: 0,
                            at: (sp.orig.0 as u32, sp.orig.1 as u32),
                        });
                    }
                }
                None => {
                    // Walk the CJK run: dictionary hits are words; the gaps become bigrams.
                    let mut pos = sp.norm.0;
                    let mut emit_gap =
                        |from: usize, to: usize, out: &mut Analysis, v: &mut Vocab| {
                            if from >= to {
                                return;
                            }
                            stretch += 1;
                            let gap = &norm[from..to];
                            let idx: Vec<usize> = gap
                                .char_indices()
                                .map(|(k, _)| k)
                                .chain([gap.len()])
                                .collect();
                            let grams: Vec<(usize, usize)> = if idx.len() == 2 {
                                vec![(0, gap.len())]
                            } else {
                                idx.windows(3).map(|w| (w[0], w[2])).collect()
                            };
                            for (a, b) in grams {
                                let id = v.intern(&gap[a..b]);
                                let o = sp.orig.0 + (from - sp.norm.0);
                                out.tokens.push(Token {
                                    id,
                                    kind: TokKind::CjkGram,
                                    clause,
                                    side: from >= side_from,
                                    free: true,
                                    stretch,
                                    at: ((o + a) as u32, (o + b) as u32),
                                });
                            }
                        };
                    for (_, c) in covers {
                        let (s, e) = (c.from.max(sp.norm.0), c.to.min(sp.norm.1));
                        if s > pos {
                            emit_gap(pos, s, &mut out, self);
                        }
                        let word = &norm[s..e];
                        if !c.stop {
                            let id = self.intern(word);
                            let o = sp.orig.0 + (s - sp.norm.0);
                            out.tokens.push(Token {
                                id,
                                kind: TokKind::CjkWord,
                                clause,
                                side: s >= side_from,
                                free: !c.concept,
                                stretch: 0,
                                at: (o as u32, (o + (e - s)) as u32),
                            });
                        }
                        pos = pos.max(e);
                    }
                    if pos < sp.norm.1 {
                        emit_gap(pos, sp.norm.1, &mut out, self);
                    }
                }
            }
        }
        self.spans = spans;
        self.norm = norm;
        out.lower = lower;
        out
    }

    /// What [`Doc::assemble`] reads of [`Vocab::analyze_text`]'s analysis of `text` when the
    /// document is not made: how many tokens it adds to its field (lexical tokens and concept
    /// hits: `tokens.len() + concepts.len()`) and whether one of them is wanted (a lexical token
    /// id in `wanted_ids`, sorted; a concept whose index is true in `wanted_concepts`). The same
    /// normalization, lexicon hits and Chinese segmentation, without the positions, clauses, side
    /// parts and conversions the analysis records, and without interning Chinese words and bigrams
    /// (an id not interned yet is no wanted one).
    pub fn count_tokens(
        &mut self,
        text: &str,
        wanted_ids: &[u32],
        wanted_concepts: &[bool],
    ) -> (usize, bool) {
        let wanted = |id: Option<u32>| id.is_some_and(|id| wanted_ids.binary_search(&id).is_ok());
        // The lower-cased text is needed only while it is normalized: a buffer reused between
        // texts (one allocation less per text counted).
        let mut lower = std::mem::take(&mut self.lower);
        lower.clear();
        if crate::is_ascii(text) {
            lower.push_str(text);
            lower.make_ascii_lowercase();
        } else {
            lower.push_str(&text.to_lowercase());
        }
        self.normalize(&lower);
        self.lower = lower;
        let lex = lexicon();
        let spans = std::mem::take(&mut self.spans);
        let norm = std::mem::take(&mut self.norm);
        let mut count = 0usize;
        let mut touched = false;
        // The hits that cover each Chinese run: (span index, from, to, stop), in span order.
        let mut covered: Vec<(usize, usize, usize, bool)> = Vec::new();
        let mut first = 0usize;
        for hit in lex.hits(&norm) {
            while first < spans.len() && spans[first].norm.1 <= hit.start {
                first += 1;
            }
            if first >= spans.len() {
                break;
            }
            let concepts = lex.hit_concepts(&hit);
            count += concepts.len();
            touched = touched || concepts.iter().any(|&c| wanted_concepts[c]);
            let mut last = first;
            while last + 1 < spans.len() && spans[last + 1].norm.0 < hit.end {
                last += 1;
            }
            let stop = lex.hit_is_stop(&hit);
            for (span, sp) in spans.iter().enumerate().take(last + 1).skip(first) {
                if sp.word.is_none() {
                    covered.push((span, hit.start, hit.end, stop));
                }
            }
        }
        let mut next_cover = 0usize;
        for (i, sp) in spans.iter().enumerate() {
            let from = next_cover;
            while next_cover < covered.len() && covered[next_cover].0 == i {
                next_cover += 1;
            }
            match sp.word {
                Some((id, stop)) => {
                    if !stop {
                        count += 1;
                        touched = touched || wanted(Some(id));
                    }
                }
                None => {
                    let mut pos = sp.norm.0;
                    // An uncovered stretch: its bigrams (a lone character stays itself).
                    let gap = |from: usize, to: usize, count: &mut usize, touched: &mut bool| {
                        if from >= to {
                            return;
                        }
                        let gap = &norm[from..to];
                        let idx: Vec<usize> = gap
                            .char_indices()
                            .map(|(k, _)| k)
                            .chain([gap.len()])
                            .collect();
                        if idx.len() == 2 {
                            *count += 1;
                            *touched = *touched || wanted(self.get(gap));
                            return;
                        }
                        *count += idx.len() - 2;
                        *touched =
                            *touched || idx.windows(3).any(|w| wanted(self.get(&gap[w[0]..w[2]])));
                    };
                    for &(_, c_from, c_to, stop) in &covered[from..next_cover] {
                        let (s, e) = (c_from.max(sp.norm.0), c_to.min(sp.norm.1));
                        if s > pos {
                            gap(pos, s, &mut count, &mut touched);
                        }
                        if !stop {
                            count += 1;
                            touched = touched || wanted(self.get(&norm[s..e]));
                        }
                        pos = pos.max(e);
                    }
                    if pos < sp.norm.1 {
                        gap(pos, sp.norm.1, &mut count, &mut touched);
                    }
                }
            }
        }
        self.spans = spans;
        self.norm = norm;
        (count, touched)
    }

    /// The lexical and concept token ids of a text, in order (concepts last; repeats kept).
    pub fn analyze(&mut self, text: &str) -> Vec<u32> {
        let a = self.analyze_text(text);
        let mut ids: Vec<u32> = a.tokens.iter().map(|t| t.id).collect();
        let lex = lexicon();
        for c in &a.concepts {
            let name = format!("@{}", lex.concepts[c.concept].name);
            ids.push(self.intern(&name));
        }
        ids
    }
}

/// The tokens of a text as strings: stems, Chinese words, bigrams and `@concept` tokens.
pub fn analyze(text: &str) -> Vec<String> {
    let mut vocab = Vocab::default();
    let ids = vocab.analyze(text);
    ids.into_iter()
        .map(|id| vocab.text(id).to_owned())
        .collect()
}

/// A concept occurrence in a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Occurrence {
    pub concept: u16,
    pub field: u8,
    pub clause: u16,
    pub sentence: u16,
}

/// A document: the analyzed fields of one candidate, as token ids, and its concepts.
#[derive(Debug, Clone, Default)]
pub struct Doc {
    fields: [Vec<u32>; FIELDS],
    /// Every distinct token, sorted.
    terms: Vec<u32>,
    /// Concept occurrences, sorted by concept.
    pub occurrences: Vec<Occurrence>,
    /// Distinct specific objects and actions claimed (see `relevance::breadth_weight`).
    pub breadth: u16,
    /// The listing calls itself all-in-one.
    pub catch_all: bool,
    /// Conversions it describes: (source, target) concept pairs.
    pub directions: Vec<(u16, u16)>,
    /// Actions its name states (`pptx-translator`, `youtube-downloader`).
    pub name_actions: Vec<u16>,
    /// It names at least one specific object (not only files, text or data).
    pub has_object: bool,
    /// The script its description is written in (English only, Chinese, or both).
    pub script: Option<super::relevance::Script>,
}

impl Doc {
    pub fn new(vocab: &mut Vocab, fields: &[(Field, &str)]) -> Doc {
        let analyses = Doc::analyze(vocab, fields);
        Doc::assemble(vocab, fields, analyses)
    }

    /// The analyses of `fields`' texts, in order: what [`Doc::new`] builds a document from.
    pub fn analyze(vocab: &mut Vocab, fields: &[(Field, &str)]) -> Vec<Analysis> {
        fields
            .iter()
            .map(|(_, text)| vocab.analyze_text(text))
            .collect()
    }

    /// The document of `fields`, from their analyses ([`Doc::analyze`]).
    pub fn assemble(vocab: &mut Vocab, fields: &[(Field, &str)], analyses: Vec<Analysis>) -> Doc {
        let mut doc = Doc::default();
        let lex = lexicon();
        // Clause numbers run on across the texts of a field, so that two texts never share one.
        let mut clause_base = [0u16; FIELDS];
        let mut sentence_base = [0u16; FIELDS];
        let mut description = String::new();
        let mut enumerated = 0u16;
        for ((f, text), a) in fields.iter().zip(analyses) {
            let fi = *f as usize;
            if matches!(f, Field::Lead | Field::Body) {
                description.push_str(text);
                description.push(' ');
            }
            if *f == Field::Lead {
                enumerated = enumerated_claims(text);
            }
            doc.catch_all |= a.catch_all;
            for &(x, y) in &a.directions {
                let pair = (x as u16, y as u16);
                if !doc.directions.contains(&pair) {
                    doc.directions.push(pair);
                }
            }
            let base = clause_base[fi];
            let sbase = sentence_base[fi];
            let mut max_clause = 0;
            let mut max_sentence = 0;
            doc.fields[fi].extend(a.tokens.iter().map(|t| t.id));
            for c in &a.concepts {
                let name = &lex.concepts[c.concept].name;
                let id = vocab.concept_id(c.concept, name);
                doc.fields[fi].push(id);
                doc.occurrences.push(Occurrence {
                    concept: c.concept as u16,
                    field: fi as u8,
                    clause: base + c.clause,
                    sentence: sbase + c.sentence,
                });
                max_clause = max_clause.max(c.clause);
                max_sentence = max_sentence.max(c.sentence);
            }
            clause_base[fi] = base + max_clause + 1;
            sentence_base[fi] = sbase + max_sentence + 1;
            if fi == Field::Name as usize {
                for c in &a.concepts {
                    if lex.concepts[c.concept].kind == Kind::Action
                        && !doc.name_actions.contains(&(c.concept as u16))
                    {
                        doc.name_actions.push(c.concept as u16);
                    }
                }
            }
        }
        if !description.trim().is_empty() {
            doc.script = Some(super::relevance::script_of(&description));
        }
        let mut terms: Vec<u32> = doc.fields.iter().flatten().copied().collect();
        terms.sort_unstable();
        terms.dedup();
        doc.terms = terms;
        doc.occurrences.sort_unstable();
        doc.occurrences.dedup();
        let mut claimed: Vec<u16> = doc
            .occurrences
            .iter()
            // The registry's tags restate the job the text claims in other words (`finance`,
            // `pdf`, `table-extraction` for a bank-statement parser): they are no claims of their
            // own, so they do not count towards the breadth. A catch-all claims in its text.
            .filter(|o| o.field != Field::AgentNotes as u8 && o.field != Field::Categories as u8)
            .filter(|o| {
                let c = &lex.concepts[o.concept as usize];
                c.kind == Kind::Action || (c.kind == Kind::Object && !c.generic)
            })
            .map(|o| lex.kin_root(o.concept as usize) as u16)
            .collect();
        claimed.sort_unstable();
        claimed.dedup();
        doc.breadth = (claimed.len() as u16).max(enumerated);
        doc.has_object = doc.occurrences.iter().any(|o| {
            let c = &lex.concepts[o.concept as usize];
            c.kind == Kind::Object && !c.generic && o.field != Field::AgentNotes as u8
        });
        doc
    }

    /// Whether the document has a token anywhere.
    pub fn has(&self, id: u32) -> bool {
        self.terms.binary_search(&id).is_ok()
    }

    /// Every distinct token, sorted.
    pub fn terms(&self) -> &[u32] {
        &self.terms
    }

    /// The fields (by [`Field`] index) holding a token.
    pub fn fields_with(&self, id: u32) -> impl Iterator<Item = usize> + '_ {
        (0..FIELDS).filter(move |&f| self.fields[f].contains(&id))
    }

    /// The occurrences of a concept.
    /// Every concept occurrence, sorted by concept.
    pub fn occurrences(&self) -> &[Occurrence] {
        &self.occurrences
    }

    pub fn occurrences_of(&self, concept: usize) -> &[Occurrence] {
        let c = concept as u16;
        let from = self.occurrences.partition_point(|o| o.concept < c);
        let to = self.occurrences.partition_point(|o| o.concept <= c);
        &self.occurrences[from..to]
    }
}

impl Vocab {
    /// The token id of a concept (`@name`), cached by concept index.
    fn concept_id(&mut self, concept: usize, name: &str) -> u32 {
        if let Some(Some(id)) = self.concept_ids.get(concept) {
            return *id;
        }
        let mut key = String::with_capacity(name.len() + 1);
        key.push('@');
        key.push_str(name);
        let id = self.intern(&key);
        if self.concept_ids.len() <= concept {
            self.concept_ids.resize(concept + 1, None);
        }
        self.concept_ids[concept] = Some(id);
        id
    }
}

/// BM25F over a set of documents.
pub struct Index<'a> {
    docs: &'a [Doc],
    /// The number of documents in the collection (`docs` and the others).
    count: usize,
    avg_len: [f64; FIELDS],
    /// Documents containing each token id.
    doc_freq: Vec<u32>,
}

impl<'a> Index<'a> {
    pub fn new(docs: &'a [Doc], vocab: &Vocab) -> Index<'a> {
        Index::with_others(docs, vocab, [0; FIELDS], 0)
    }

    /// The index of a collection of which `docs` are analyzed and `others` more documents, whose
    /// field lengths sum to `other_lengths`, hold none of the tokens this index will be asked
    /// about (their document frequencies are not counted; their lengths and number are).
    pub fn with_others(
        docs: &'a [Doc],
        vocab: &Vocab,
        other_lengths: [usize; FIELDS],
        others: usize,
    ) -> Index<'a> {
        let mut total = other_lengths;
        let mut doc_freq = vec![0u32; vocab.len()];
        for d in docs {
            for (f, toks) in d.fields.iter().enumerate() {
                total[f] += toks.len();
            }
            for &t in &d.terms {
                doc_freq[t as usize] += 1;
            }
        }
        let n = (docs.len() + others).max(1) as f64;
        let avg_len = total.map(|len| (len as f64 / n).max(1.0));
        Index {
            docs,
            count: docs.len() + others,
            avg_len,
            doc_freq,
        }
    }

    /// How many documents hold a token (0 for a token first seen in the query).
    pub fn doc_freq(&self, term: u32) -> u32 {
        self.doc_freq.get(term as usize).copied().unwrap_or(0)
    }

    /// Inverse document frequency (the BM25+ form, always positive).
    pub fn idf(&self, term: u32) -> f64 {
        let n = self.count as f64;
        let df = self.doc_freq(term) as f64;
        libm::log(1.0 + (n - df + 0.5) / (df + 0.5))
    }

    /// The BM25F score of document `i` for the distinct query tokens, and the ones it matched.
    pub fn score(&self, i: usize, query: &[(u32, f64)]) -> (f64, Vec<u32>) {
        let doc = &self.docs[i];
        let mut score = 0.0;
        let mut matched = Vec::new();
        for &(term, weight) in query {
            if !doc.has(term) {
                continue;
            }
            // Field-weighted, length-normalized term frequency.
            let mut tf = 0.0;
            for (field, fw) in FIELD_WEIGHTS {
                let toks = &doc.fields[field as usize];
                let count = toks.iter().filter(|&&t| t == term).count() as f64;
                if count == 0.0 {
                    continue;
                }
                let norm = 1.0 - B + B * (toks.len() as f64 / self.avg_len[field as usize]);
                tf += fw * count / norm;
            }
            score += weight * self.idf(term) * tf * (K1 + 1.0) / (tf + K1);
            matched.push(term);
        }
        (score, matched)
    }
}

/// Distinct ids in first-seen order.
pub fn distinct(ids: &[u32]) -> Vec<u32> {
    let mut seen = BTreeSet::new();
    ids.iter().copied().filter(|id| seen.insert(*id)).collect()
}

mod word_cache;

#[cfg(test)]
mod tests;
