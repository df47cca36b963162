//! Related words (`rank52`): an English free word of the request (one no concept covers) that
//! WordNet relates to other words — a synonym or a direct hypernym of its most frequent senses
//! (`guest/rules/en-related.tsv`: incisor → tooth, gnaw → chew) — also matches a listing that names
//! one of them, at [`RELATED_CREDIT`] of what the word itself would earn. Like a translation
//! ([`super::translate`]) it is an alternative inside the word's unit, not a new unit: the
//! request's total weight does not move, and a listing that has the word itself loses nothing. It
//! reaches the paraphrase, a request that names its goal in other words than the listing does.

use super::*;
// A fixed, unseeded hash: `std`'s `RandomState` would import `wasi:random` into the component.
use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

/// A related word's share of the match the word itself would earn.
pub const RELATED_CREDIT: f64 = 0.3;

static RELATED_TSV: &str = include_str!("../../../rules/en-related.tsv");

/// English stem → related words, parsed and stemmed once.
fn table() -> &'static HashMap<String, Vec<&'static str>> {
    static T: OnceLock<HashMap<String, Vec<&'static str>>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t: HashMap<String, Vec<&'static str>> = HashMap::default();
        for line in RELATED_TSV.lines().filter(|l| !l.starts_with('#')) {
            let Some((word, related)) = line.split_once('\t') else {
                continue;
            };
            let stem = super::super::lexicon::word_stem(word).into_owned();
            let words = t.entry(stem).or_default();
            for r in related.split(',') {
                if !words.contains(&r) {
                    words.push(r);
                }
            }
        }
        t
    })
}

impl Query {
    /// The related words of each English free word ([`Query::kin`]), and their tokens in the
    /// lexical tokens at [`RELATED_CREDIT`] (so a listing that has only them is reached and scored).
    pub(super) fn relate(&mut self, vocab: &mut Vocab) {
        let t = table();
        for i in 0..self.units.len() {
            let UnitKind::Words(ids) = &self.units[i].kind else {
                continue;
            };
            let u = &self.units[i];
            // A Chinese stretch keeps no surface; only English words are in the table.
            if u.surface.is_empty() || !u.surface.is_ascii() {
                continue;
            }
            let Some(words) = ids.first().and_then(|&id| t.get(vocab.text(id))) else {
                continue;
            };
            let ids = ids.clone();
            let w = RELATED_CREDIT * if u.side { SIDE_WEIGHT } else { 1.0 };
            for word in words {
                let b = vocab.analyze_text(word);
                // A word a concept reads is the concept's evidence, not this word's.
                if !b.concepts.is_empty() {
                    continue;
                }
                let mut alt: Vec<u32> = b.tokens.iter().filter(|t| t.free).map(|t| t.id).collect();
                alt.dedup();
                if alt.is_empty() || alt.iter().any(|id| ids.contains(id)) {
                    continue;
                }
                for &id in &alt {
                    match self.tokens.iter_mut().find(|(t, _)| *t == id) {
                        Some(e) => e.1 = e.1.max(w),
                        None => self.tokens.push((id, w)),
                    }
                }
                self.kin.push((i, alt));
            }
        }
    }
}
