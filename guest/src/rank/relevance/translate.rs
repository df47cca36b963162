//! Cross-lingual objects (`rank51`): a request's free word or uncovered Chinese stretch that names an
//! everyday object or activity of the EN↔ZH table (`guest/rules/zh-en.tsv`: 自行车 ↔ bicycle, 滑冰 ↔
//! skating) also matches a listing that names it in the other language, at [`TRANSLATION_CREDIT`]
//! of what the word itself would earn. The translation is an alternative inside the unit, not a new
//! unit: the request's total weight does not move, so a listing that has the word itself loses
//! nothing. The lexicon's concepts are bilingual already; the table reaches only the words no
//! concept covers.

use super::*;
// A fixed, unseeded hash: `std`'s `RandomState` would import `wasi:random` into the component.
use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;
use std::borrow::Cow;
use std::sync::OnceLock;

/// A translated word's share of the match the word itself would earn.
pub const TRANSLATION_CREDIT: f64 = 0.5;

/// The table, both ways: Chinese word → its English words (comma-separated, as in the file), English
/// stem → Chinese words. Keys and values borrow the embedded file; only a stem that differs from its
/// word is allocated, so the table costs its two hash maps and little more.
struct Table {
    zh_en: HashMap<&'static str, &'static str>,
    en_zh: HashMap<Cow<'static, str>, SmallVec<[&'static str; 2]>>,
    /// The longest Chinese word, in characters.
    longest: usize,
}

static TABLE_TSV: &str = include_str!("../../../rules/zh-en.tsv");

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| {
        let lines = TABLE_TSV.lines().filter(|l| !l.starts_with('#'));
        let mut t = Table {
            zh_en: HashMap::with_capacity_and_hasher(lines.clone().count(), Default::default()),
            en_zh: HashMap::default(),
            longest: 0,
        };
        for line in lines {
            let Some((zh, en)) = line.split_once('\t') else {
                continue;
            };
            // The other way only from a word's first gloss: 问题 is a problem, not every problem 问题.
            let first = en.split(',').next().unwrap_or(en);
            let zhs = t
                .en_zh
                .entry(super::super::lexicon::word_stem(first))
                .or_default();
            if zhs.len() < 2 {
                zhs.push(zh);
            }
            t.longest = t.longest.max(zh.chars().count());
            t.zh_en.insert(zh, en);
        }
        t
    })
}

/// Build the table now ([`crate::initialize`]), so a pre-initialized instance holds it.
pub(super) fn initialize() {
    table();
}

/// The table's words in a Chinese text, longest first at each place, not overlapping.
fn zh_words(text: &str) -> Vec<&'static str> {
    let t = table();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let mut step = 1;
        for n in (2..=t.longest.min(chars.len() - i)).rev() {
            let end = chars.get(i + n).map_or(text.len(), |c| c.0);
            if let Some((&k, _)) = t.zh_en.get_key_value(&text[chars[i].0..end]) {
                out.push(k);
                step = n;
                break;
            }
        }
        i += step;
    }
    out
}

impl Query {
    /// The other language's words of each free word or stretch ([`Query::alts`]), and their
    /// tokens in the lexical tokens at [`TRANSLATION_CREDIT`] (so a listing that has only them is
    /// reached and scored).
    pub(super) fn translate(&mut self, vocab: &mut Vocab, a: &Analysis) {
        let t = table();
        for i in 0..self.units.len() {
            let UnitKind::Words(ids) = &self.units[i].kind else {
                continue;
            };
            let ids = ids.clone();
            let u = &self.units[i];
            // A stretch keeps no surface: its text is its bigrams' span.
            let text = if u.surface.is_empty() {
                let (mut from, mut to) = (u32::MAX, 0);
                for tok in a
                    .tokens
                    .iter()
                    .filter(|t| ids.contains(&t.id) && t.at.0 >= u.at)
                {
                    from = from.min(tok.at.0);
                    to = to.max(tok.at.1);
                }
                if from >= to {
                    continue;
                }
                a.lower[from as usize..to as usize].to_owned()
            } else {
                u.surface.clone()
            };
            let words: Vec<&str> = if text.chars().any(super::super::lexicon::is_cjk) {
                zh_words(&text)
                    .into_iter()
                    .flat_map(|w| t.zh_en[w].split(','))
                    .collect()
            } else {
                ids.first()
                    .and_then(|&id| t.en_zh.get(vocab.text(id)))
                    .map(|v| v.to_vec())
                    .unwrap_or_default()
            };
            let side = u.side;
            for w in words {
                let b = vocab.analyze_text(w);
                if !b.concepts.is_empty() {
                    continue;
                }
                let mut alt: Vec<u32> = b.tokens.iter().filter(|t| t.free).map(|t| t.id).collect();
                alt.dedup();
                if alt.is_empty() || alt.iter().any(|id| ids.contains(id)) {
                    continue;
                }
                let w = TRANSLATION_CREDIT * if side { SIDE_WEIGHT } else { 1.0 };
                for &id in &alt {
                    match self.tokens.iter_mut().find(|(t, _)| *t == id) {
                        Some(e) => e.1 = e.1.max(w),
                        None => self.tokens.push((id, w)),
                    }
                }
                self.alts.push((i, alt));
            }
        }
    }
}
