//! `rank54`: in a request no listing matches well by its concepts, a listing that shares none of
//! the request's rare words yields order to a specific listing that shares one
//! ([`NO_SUBJECT_WORD`]). Worded apart from the benchmark: a curling request, a loan calculator.

use super::*;

/// A request of three units: an action read from a common phrase (unit 0, *work out*), a rare
/// word of its subject (unit 1, *curling*, weighed twice its even share; in the side part when
/// `rare_side`) and a common word (unit 2, *week*, half its even share).
fn request(rare_side: bool) -> Query {
    let unit = |kind, surface: &str, at, side| Unit {
        kind,
        weight: 0.4,
        side,
        surface: surface.to_owned(),
        at,
        also_at: Vec::new(),
        lone: false,
    };
    Query {
        units: vec![
            unit(
                UnitKind::Concept {
                    concept: 0,
                    kind: Kind::Action,
                },
                "work out",
                0,
                false,
            ),
            unit(UnitKind::Words(vec![1]), "curling", 1, rare_side),
            unit(UnitKind::Words(vec![2]), "week", 2, false),
        ],
        rarity: vec![(1, 2.0), (2, 0.5)],
        ..Query::default()
    }
}

fn listing(strength: f64, rare_lift: f64, matched: &[usize]) -> Match {
    Match {
        strength,
        rare_lift,
        order_weight: 1.0,
        matched: matched.to_vec(),
        ..Match::default()
    }
}

/// What the order reads of a match (`Scorer::preview`, before the lexical share).
fn order(m: &Match) -> f64 {
    (m.strength + m.rare_lift) * m.order_weight
}

/// Must pick: a calculator that matches only the action read from *work out* leads a curling
/// listing that shares the rare word and the common one; with the rule, the curling listing leads,
/// the calculator is flagged for the reason and its strength (what the cut-off reads) is unchanged.
#[test]
fn a_listing_without_the_rare_subject_word_yields_to_one_with_it() {
    let q = request(false);
    let mut ms = vec![listing(0.36, 0.0, &[0]), listing(0.22, 0.06, &[1, 2])];
    assert!(order(&ms[0]) > order(&ms[1]), "without the rule: {ms:?}");
    prefer_subject_words(&mut ms, &q);
    assert!(order(&ms[1]) > order(&ms[0]), "{ms:?}");
    assert!(ms[0].no_subject_word && !ms[1].no_subject_word, "{ms:?}");
    assert_eq!(ms[0].strength, 0.36);
    assert_eq!(rare_subject_words(&q), vec![1]);
}

/// Must not move: a listing that shares only the request's common word (its question phrase)
/// is no evidence of the subject, so with nobody sharing the rare word nobody is lowered.
#[test]
fn a_listing_sharing_only_a_common_word_lowers_nobody() {
    let q = request(false);
    let mut ms = vec![listing(0.30, 0.0, &[0]), listing(0.25, 0.0, &[2])];
    prefer_subject_words(&mut ms, &q);
    assert!(
        ms.iter()
            .all(|m| m.order_weight == 1.0 && !m.no_subject_word),
        "{ms:?}"
    );
}

/// Must not move: when some listing matches the request's concepts well, the rare word may be a
/// name or a place around a job the map knows; the order is left to the concepts.
#[test]
fn a_strong_concept_match_is_left_alone() {
    let q = request(false);
    let mut ms = vec![
        listing(WEAK_CONCEPT + 0.1, 0.0, &[0]),
        listing(0.20, 0.06, &[1]),
    ];
    prefer_subject_words(&mut ms, &q);
    assert!(ms.iter().all(|m| m.order_weight == 1.0), "{ms:?}");
}

/// Must not move: a rare word of the side part says nothing of the main job, and a catch-all that
/// lists the rare word (it lists every hobby) is no evidence that another listing is off-subject.
#[test]
fn a_side_part_word_or_a_catch_all_sharer_lowers_nobody() {
    let side = request(true);
    assert!(rare_subject_words(&side).is_empty());
    let mut ms = vec![listing(0.30, 0.0, &[0]), listing(0.20, 0.06, &[1])];
    prefer_subject_words(&mut ms, &side);
    assert!(ms.iter().all(|m| m.order_weight == 1.0), "{ms:?}");
    let q = request(false);
    let mut omni = listing(0.15, 0.06, &[1]);
    omni.catch_all = true;
    let mut ms = vec![listing(0.30, 0.0, &[0]), omni];
    prefer_subject_words(&mut ms, &q);
    assert!(ms.iter().all(|m| m.order_weight == 1.0), "{ms:?}");
}
