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
//! A written word (not a stretch of Chinese bigrams) at most [`RARE_SHARE`] of the candidates have
//! also earns a listing that has it a raise towards [`RARE_WORD_WEIGHT`] (nearly a specific
//! object's weight), whatever its share (`rank35`).
//! The raise orders the candidates (a rare exact match goes before listings that share only the
//! request's common words) but is no part of the match strength the pick's cut-off reads: it never
//! lifts a listing over the cut-off, so a request that shares one rare word with some listing by
//! chance (a place, a brand, a hobby) stays as silent as before. `rank33` tried the raise in the
//! strength as well: more right picks, but 22 of the 114 no-match requests answered.
//!
//! Per request and per free word; the document frequencies are those the BM25F index counts
//! anyway. Per candidate, only a look-up in the request's few raised words for each free word it
//! matches (`match_doc`).

use super::*;
use crate::rank::text::idf_at;

/// How strongly a free word's share follows its rarity among the candidates (its idf to this
/// power). 0: every free word its even share (the behaviour before `rank33`).
pub const RARITY_POWER: f64 = 2.0;

/// A free word at most [`RARE_SHARE`] of the candidates have is worth at least this much to the
/// order (× the side weight in the side part) for a listing that has it, however many free words
/// the request has: a word one listing in a hundred shares with the request names its subject as
/// a specific object does (1.0), even when the concept map does not know it. The raise grows
/// linearly with the word's idf from [`RARE_SHARE`] of the candidates (none) to a word a single
/// candidate has (all of it).
pub const RARE_WORD_WEIGHT: f64 = 0.8;
/// The share of the candidates at which a word stops counting as rare ([`RARE_WORD_WEIGHT`]).
pub const RARE_SHARE: f64 = 0.02;

/// A free word whose share is at least this many times its even share is named in the `task`
/// factor's detail as a rare word that weighs more.
pub const RARE_SHOWN: f64 = 1.5;

impl Query {
    /// Share the free words' weight by their rarity among the candidates. `idf(token)` is the
    /// token's inverse document frequency over the candidates, `None` when no candidate has it.
    /// Records in [`Query::rarity`] each free word's weight against its even share, and in
    /// [`Query::rare_bonus`] the order's raise of the rare ones. `count` is the number of
    /// candidates the idf is over.
    pub fn weigh_by_rarity(&mut self, count: usize, idf: impl Fn(u32) -> Option<f64>) {
        let free: Vec<usize> = (0..self.units.len())
            .filter(|&i| matches!(self.units[i].kind, UnitKind::Words(_)))
            .collect();
        self.weigh_stretches(&free, count, &idf);
        if free.is_empty() || RARITY_POWER == 0.0 {
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
        // The idf of a word a single candidate has, and of one [`RARE_SHARE`] of them have.
        let top = idf_at(count, 1.0);
        let common = idf_at(count, (RARE_SHARE * count as f64).max(1.0));
        self.rarity.clear();
        self.rare_bonus.clear();
        for ((&i, f), x) in free.iter().zip(&factor).zip(&unit_idf) {
            let even = self.units[i].weight;
            let u = &mut self.units[i];
            u.weight *= f * scale;
            let mut bonus = 0.0;
            // A stretch of Chinese is read as character bigrams, and a bigram rare among the
            // candidates is as often a chance join of two words (把会, 议录) as a word of the
            // subject: only a written word (Latin script, digits) earns the raise. A stretch's
            // unit keeps no surface (`Query::new`), a lone character's is Chinese.
            let word =
                !u.surface.is_empty() && !u.surface.chars().any(crate::rank::lexicon::is_cjk);
            if let Some(x) = x
                && word
                && top > common
            {
                let rare = ((x - common) / (top - common)).clamp(0.0, 1.0);
                let side = if u.side { SIDE_WEIGHT } else { 1.0 };
                bonus = (RARE_WORD_WEIGHT * rare * side - u.weight).max(0.0);
            }
            self.rarity.push((i, (u.weight + bonus) / even));
            if bonus > 0.0 {
                self.rare_bonus.push((i, bonus));
            }
        }
    }

    /// [`Query::stretch_weights`] (`rank49`): each uncovered Chinese stretch's characters weighed
    /// by the idf over the candidates of the bigrams that hold them. The bigrams are consecutive
    /// (bigram `j` holds characters `j` and `j + 1`), so a character weighs the highest idf of the
    /// bigrams some candidate has among its two, and a listing matches it when it has one of them:
    /// a chance join of two words (式八 of 中式|八球) that no listing has no longer dilutes the words
    /// either side of it, and a rare pair weighs more than a common one. A character in no bigram
    /// any candidate has weighs the stretch's mean: it is something the request names that no
    /// listing does, and it keeps a listing that matches only the rest of the stretch from its
    /// whole weight (no-match requests stay silent). A stretch none of whose bigrams any candidate
    /// has gets no weights: it matches nothing anyway.
    ///
    /// It also records each stretch's rarity ([`Query::stretch_rare`], `rank50`): the mean of its
    /// characters' weights placed between the idf of a pair [`RARE_SHARE`] of the candidates have (0)
    /// and that of a pair one candidate has (1).
    fn weigh_stretches(&mut self, free: &[usize], count: usize, idf: &impl Fn(u32) -> Option<f64>) {
        self.stretch_weights.clear();
        self.stretch_rare.clear();
        let top = idf_at(count, 1.0);
        let common = idf_at(count, (RARE_SHARE * count as f64).max(1.0));
        for &i in free {
            let u = &self.units[i];
            let UnitKind::Words(ids) = &u.kind else {
                continue;
            };
            // A stretch's unit keeps no surface (`Query::new`); a word's or a lone character's does.
            if ids.len() < 2 || !u.surface.is_empty() {
                continue;
            }
            let seen: Vec<Option<f64>> = ids.iter().map(|&t| idf(t)).collect();
            let known: Vec<f64> = seen.iter().flatten().copied().collect();
            if known.is_empty() {
                continue;
            }
            let mean = known.iter().sum::<f64>() / known.len() as f64;
            let w = (0..=ids.len())
                .map(|c| {
                    let before = c.checked_sub(1).and_then(|j| seen[j]);
                    let after = seen.get(c).copied().flatten();
                    match (before, after) {
                        (None, None) => mean,
                        (a, b) => a.unwrap_or(0.0).max(b.unwrap_or(0.0)),
                    }
                })
                .collect::<Vec<f64>>();
            if top > common {
                let per = w.iter().sum::<f64>() / w.len() as f64;
                self.stretch_rare
                    .push((i, ((per - common) / (top - common)).clamp(0.0, 1.0)));
            }
            self.stretch_weights.push((i, w));
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
