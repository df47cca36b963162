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

/// Build the lexicon, the stemmer and the tables analysis and relevance read on first use
/// ([`crate::initialize`]).
pub(crate) fn initialize() {
    lexicon();
    stemmer();
    vocab::traditional_pairs();
    super::relevance::initialize();
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

/// The id [`Vocab::peek_word`] gives a number or code it does not intern and no wanted token has.
const UNSEEN: u32 = u32::MAX;

/// Normalize a text without a vocabulary (stems computed on the spot): for one-off lookups.
pub fn normalize_plain(text: &str) -> String {
    let mut v = Vocab::default();
    let lower = crate::lowercase(text);
    v.normalize(&lower);
    std::mem::take(&mut v.norm)
}

mod analysis;
mod bm25;
mod doc;
mod vocab;
pub use analysis::analyze;
pub use bm25::{Index, distinct, idf_at};
pub use doc::{Doc, Occurrence, in_parentheses, is_library};

mod word_cache;

#[cfg(test)]
mod tests;
