//! Rarity among the candidates (`rank33`): the request's free words (the words no concept term
//! covers) share their weight by how rare each is among the candidates, the way BM25 weighs a
//! term by its inverse document frequency.
//!
//! A word the concept map does not know but that the request and a listing share is evidence in
//! proportion to how few listings have it: `p0420`, `adif`, `orchard` or `harbour` name the
//! request's subject, while `week`, `day` or `long` are in dozens of listings and say little.
//! Before, every free word had the same share of [`FREE_WORDS_CAP`], so a request with a dozen
//! free words gave its one specific word a twelfth of it and a listing matching one generic
//! known concept won. Now each free word's share of the same total is proportional to its base
//! weight times `idf^RARITY_POWER` (idf over the candidate set, BM25's form). A word no candidate
//! has keeps its even share: it decides nothing among the candidates, and it still tells that
//! the request is about something no listing names (no-match requests stay silent).
//! The total weight of the free words is unchanged, so the concept units weigh as before.
//!
//! Per request and per free word; the document frequencies are those the BM25F index counts
//! anyway: no per-candidate work is added.

use super::*;

/// How strongly a free word's share follows its rarity among the candidates (its idf to this
/// power). 0: every free word its even share (the behaviour before `rank33`).
pub const RARITY_POWER: f64 = 2.0;

/// A free word whose share is at least this many times its even share is named in the `task`
/// factor's detail as a rare word that weighs more.
pub const RARE_SHOWN: f64 = 1.5;

impl Query {
    /// Share the free words' weight by their rarity among the candidates. `idf(token)` is the
    /// token's inverse document frequency over the candidates, `None` when no candidate has it.
    /// Records in [`Query::rarity`] each free word's weight against its even share.
    pub fn weigh_by_rarity(&mut self, idf: impl Fn(u32) -> Option<f64>) {
        let free: Vec<usize> = (0..self.units.len())
            .filter(|&i| matches!(self.units[i].kind, UnitKind::Words(_)))
            .collect();
        if free.len() < 2 || RARITY_POWER == 0.0 {
            return;
        }
        // A unit's idf: the mean over its tokens that some candidate has (a Chinese stretch is
        // several bigrams); `None` when no candidate has any of them.
        let unit_idf: Vec<Option<f64>> = free
            .iter()
            .map(|&i| {
                let UnitKind::Words(ids) = &self.units[i].kind else {
                    return None;
                };
                let seen: Vec<f64> = ids.iter().filter_map(|&t| idf(t)).collect();
                (!seen.is_empty()).then(|| seen.iter().sum::<f64>() / seen.len() as f64)
            })
            .collect();
        let known: Vec<f64> = unit_idf.iter().flatten().copied().collect();
        if known.is_empty() {
            return;
        }
        // A word no candidate has weighs as a word of the request's mean rarity.
        let mean = known.iter().sum::<f64>() / known.len() as f64;
        let factor: Vec<f64> = unit_idf
            .iter()
            .map(|x| libm::pow(x.unwrap_or(mean).max(1e-6) / mean, RARITY_POWER))
            .collect();
        let total: f64 = free.iter().map(|&i| self.units[i].weight).sum();
        let shared: f64 = free
            .iter()
            .zip(&factor)
            .map(|(&i, f)| self.units[i].weight * f)
            .sum();
        if shared <= 0.0 {
            return;
        }
        let scale = total / shared;
        self.rarity.clear();
        for (&i, f) in free.iter().zip(&factor) {
            self.units[i].weight *= f * scale;
            self.rarity.push((i, f * scale));
        }
    }

    /// The matched free words that weigh at least [`RARE_SHOWN`] times their even share, as the
    /// user wrote them (the `task` factor's detail): the rare words a listing shares.
    pub fn rare_matched(&self, matched: &[usize]) -> Vec<String> {
        self.rarity
            .iter()
            .filter(|(i, f)| *f >= RARE_SHOWN && matched.contains(i))
            .filter_map(|(i, _)| self.units.get(*i))
            .map(|u| u.surface.trim().to_owned())
            .filter(|s| !s.is_empty())
            .take(4)
            .collect()
    }
}

#[cfg(test)]
mod tests;
