//! The lexical share of the order (`rank25`, [`lexical_share`]): shared words decide more of the
//! order when no candidate matches the request's concepts well, and stay a tie-breaker otherwise.

use super::*;

#[test]
fn the_share_rises_as_the_best_concept_match_weakens() {
    assert!((lexical_share(0.0) - WEAK_LEXICAL_SHARE).abs() < 1e-12);
    assert!((lexical_share(WEAK_CONCEPT) - LEXICAL_SHARE).abs() < 1e-12);
    assert!((lexical_share(0.9) - LEXICAL_SHARE).abs() < 1e-12);
    assert!((lexical_share(1.0) - LEXICAL_SHARE).abs() < 1e-12);
    let mut last = f64::INFINITY;
    for i in 0..=100 {
        let s = lexical_share(f64::from(i) / 100.0);
        assert!(s <= last + 1e-12, "not falling at {i}: {s} > {last}");
        assert!((LEXICAL_SHARE..=WEAK_LEXICAL_SHARE).contains(&s), "{s}");
        last = s;
    }
    // The fixed share is what `relevance` uses.
    assert_eq!(
        relevance(0.5, 1.0, 2.0).to_bits(),
        relevance_with(0.5, 1.0, 2.0, LEXICAL_SHARE).to_bits()
    );
}

/// Must match: among weak concept matches (the best is 0.22), the listing that shares the request's
/// words (BM25F at the best) goes before one with a little more concept strength and few shared
/// words; with the old fixed share it went after.
#[test]
fn among_weak_concept_matches_the_shared_words_decide() {
    let share = lexical_share(0.22);
    assert!(share > LEXICAL_SHARE + 0.1, "{share}");
    let concept = relevance_with(0.22, 0.3, 1.0, share);
    let words = relevance_with(0.18, 1.0, 1.0, share);
    assert!(words > concept, "{words} <= {concept}");
    let (concept_fixed, words_fixed) = (relevance(0.22, 0.3, 1.0), relevance(0.18, 1.0, 1.0));
    assert!(concept_fixed > words_fixed);
}

/// Must not match: when a candidate matches the request's concepts well (0.6), lexical evidence
/// stays a tie-breaker: a listing with less concept strength and more shared words stays below.
#[test]
fn a_strong_concept_match_keeps_lexical_evidence_a_tie_breaker() {
    let share = lexical_share(0.6);
    assert!((share - LEXICAL_SHARE).abs() < 1e-12);
    let concept = relevance_with(0.6, 0.3, 1.0, share);
    let words = relevance_with(0.5, 1.0, 1.0, share);
    assert!(concept > words, "{concept} <= {words}");
}
