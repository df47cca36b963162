//! BM25F over a set of documents.

use super::*;

/// BM25 parameters (the usual defaults).
const K1: f64 = 1.2;
const B: f64 = 0.75;

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
        idf_at(self.count, f64::from(self.doc_freq(term)))
    }

    /// The number of documents the frequencies are over (the analyzed ones and the others).
    pub fn count(&self) -> usize {
        self.count
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

/// The inverse document frequency of a token `df` of `count` documents hold ([`Index::idf`]).
pub fn idf_at(count: usize, df: f64) -> f64 {
    let n = count as f64;
    libm::log(1.0 + (n - df + 0.5) / (df + 0.5))
}
