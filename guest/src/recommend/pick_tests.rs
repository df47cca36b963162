//! The manual pick's cut-off and the near-cut-off rule (`rank30`, [`manual_pick`]).

use super::*;

fn p(strength: f64, relevance: f64) -> Preview {
    Preview {
        exact: false,
        relevance,
        strength,
        core: false,
        single: false,
    }
}

const FLOOR: f64 = 0.22;

#[test]
fn the_first_passing_candidate_is_the_pick() {
    let got = manual_pick(&[p(0.40, 0.40), p(0.30, 0.30), p(0.25, 0.25)], true, FLOOR).unwrap();
    assert_eq!(got.pick, 0);
    assert_eq!(got.alternatives, vec![1, 2]);
    assert!(!got.near_cutoff);
}

#[test]
fn a_first_just_under_the_cut_off_beats_a_less_relevant_passing_one() {
    // Must match: 0.20 is within the margin of 0.22, and the passing one is less relevant; the
    // passing one stays an alternative (its relevance is above `RELEVANCE_FLOOR`).
    let got = manual_pick(&[p(0.20, 0.30), p(0.25, 0.25), p(0.05, 0.05)], true, FLOOR).unwrap();
    assert_eq!(got.pick, 0);
    assert!(got.near_cutoff);
    assert_eq!(got.alternatives, vec![1]);
}

#[test]
fn a_passing_candidate_under_the_relevance_floor_is_no_alternative() {
    // Must not match as an alternative: relevance 0.17 is under `RELEVANCE_FLOOR`.
    let got = manual_pick(&[p(0.20, 0.18), p(0.25, 0.17)], true, FLOOR).unwrap();
    assert_eq!((got.pick, got.near_cutoff), (0, true));
    assert!(got.alternatives.is_empty());
}

#[test]
fn a_first_far_under_the_cut_off_does_not_block_the_passing_one() {
    // Must not match: 0.18 is more than the margin under 0.22.
    let got = manual_pick(&[p(0.18, 0.30), p(0.25, 0.20)], true, FLOOR).unwrap();
    assert_eq!(got.pick, 1);
    assert!(!got.near_cutoff);
}

#[test]
fn a_less_relevant_first_does_not_block_the_passing_one() {
    // Must not match: the passing candidate is the more relevant one.
    let got = manual_pick(&[p(0.21, 0.18), p(0.25, 0.19)], true, FLOOR).unwrap();
    assert_eq!(got.pick, 1);
    assert!(!got.near_cutoff);
}

#[test]
fn with_nothing_passing_the_cut_off_holds() {
    // Must not match: a near miss alone is no pick (no-match requests stay silent).
    assert_eq!(
        manual_pick(&[p(0.21, 0.30), p(0.10, 0.10)], true, FLOOR),
        None
    );
}

#[test]
fn a_single_word_match_is_near_against_its_own_floor() {
    let single = Preview {
        single: true,
        ..p(0.33, 0.40)
    };
    // 0.33 is within the margin of the single-match floor 0.35.
    let got = manual_pick(&[single, p(0.30, 0.30)], true, FLOOR).unwrap();
    assert_eq!((got.pick, got.near_cutoff), (0, true));
    let weaker = Preview {
        single: true,
        ..p(0.30, 0.40)
    };
    let got = manual_pick(&[weaker, p(0.30, 0.30)], true, FLOOR).unwrap();
    assert_eq!((got.pick, got.near_cutoff), (1, false));
}

#[test]
fn without_a_task_the_order_alone_decides() {
    let got = manual_pick(&[p(0.0, 0.0), p(0.0, 0.0)], false, 0.0).unwrap();
    assert_eq!((got.pick, got.near_cutoff), (0, false));
}

#[test]
fn a_first_that_leads_the_passing_one_twice_over_is_the_pick() {
    // Must match: 0.15 is under 0.22 by more than the margin but above 0.6 of it (0.132), and its
    // relevance (0.50) is at least twice the passing one's (0.24).
    let got = manual_pick(&[p(0.15, 0.50), p(0.30, 0.24)], true, FLOOR).unwrap();
    assert_eq!((got.pick, got.near_cutoff), (0, true));
    assert_eq!(got.alternatives, vec![1]);
}

#[test]
fn a_lead_under_twice_or_a_match_under_the_core_share_does_not_block_the_passing_one() {
    // Must not match: a lead of 1.9 times; then a lead of 3 times with a match of 0.12 (< 0.132).
    let got = manual_pick(&[p(0.15, 0.38), p(0.30, 0.20)], true, FLOOR).unwrap();
    assert_eq!((got.pick, got.near_cutoff), (1, false));
    let got = manual_pick(&[p(0.12, 0.60), p(0.30, 0.20)], true, FLOOR).unwrap();
    assert_eq!((got.pick, got.near_cutoff), (1, false));
    // And with nothing passing, a far lead picks nothing.
    assert!(manual_pick(&[p(0.15, 0.90), p(0.10, 0.05)], true, FLOOR).is_none());
}
