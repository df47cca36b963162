//! The request's rare words as evidence of its subject when its concepts match weakly (`rank54`).
//!
//! On a domain the concept map does not know, a request's own words (the game, the craft, the
//! animal: *overtrick*, 菩提子手串, 飞盘) are free words, and the concepts it does name are often
//! another domain's reading of a common word (*work out* as a calculation, *vulnerable* as security,
//! 是不是 and 坏了 as a question about a repair). A listing of that other domain then matches the
//! request's concepts and none of its words, and leads the order over the listing that shares the
//! request's rare words. When no listing matches the request's concepts well (the best match
//! strength under [`WEAK_CONCEPT`]) and some specific listing shares one of the request's rare
//! words of its main part (a free word weighed [`RARE_SHOWN`] times its even share or more, as the
//! `task` factor's detail names it), a listing that shares none of them keeps
//! [`NO_SUBJECT_WORD`] of its order.
//!
//! Order only: the strength the cut-off reads is unchanged, so it makes no pick silent and no
//! no-match request picked. A request whose concepts some listing matches well is left alone (its
//! rare words may be a name or a place around a job the map knows), and so is one whose rare
//! words no listing shares, or shares only in the side part. Linear in the candidates: one pass to
//! find a sharer, one to lower the others.

use super::*;

/// The order a listing keeps when, in a request no listing matches well by its concepts, it shares
/// none of the request's rare words while a specific listing shares one (`rank54`: 0.7 gained two
/// picks net on `heldout-46` … `heldout-50`'s 300 tasks, 146 → 148; BENCHMARKS.md, "heldout-50 AFTER").
pub const NO_SUBJECT_WORD: f64 = 0.7;

/// The request's rare free words of its main part, by unit index ([`Query::rarity`] at least
/// [`RARE_SHOWN`]).
pub fn rare_subject_words(q: &Query) -> Vec<usize> {
    q.rarity
        .iter()
        .filter(|&&(i, f)| f >= RARE_SHOWN && q.units.get(i).is_some_and(|u| !u.side))
        .map(|&(i, _)| i)
        .collect()
}

/// Applies [`NO_SUBJECT_WORD`] to `matches` (one per candidate) for request `q`.
pub fn prefer_subject_words(matches: &mut [Match], q: &Query) {
    let best = matches.iter().map(|m| m.strength).fold(0.0, f64::max);
    if best >= WEAK_CONCEPT {
        return;
    }
    let rare = rare_subject_words(q);
    if rare.is_empty() {
        return;
    }
    let shares = |m: &Match| m.matched.iter().any(|i| rare.contains(i));
    if !matches
        .iter()
        .any(|m| !m.catch_all && m.strength > 0.0 && shares(m))
    {
        return;
    }
    for m in matches.iter_mut() {
        if m.strength > 0.0 && !shares(m) {
            m.order_weight *= NO_SUBJECT_WORD;
            m.no_subject_word = true;
        }
    }
}
