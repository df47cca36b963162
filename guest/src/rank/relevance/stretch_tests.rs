//! An uncovered Chinese stretch matches by its characters, weighed by the idf of the bigrams that
//! hold them (`rank49`, [`Query::stretch_weights`]).

use super::tests::doc;
use super::*;
use crate::rank::text::{Vocab, idf_at};

fn query(v: &mut Vocab, text: &str) -> Query {
    let a = v.analyze_request(text);
    Query::new(v, &a)
}

/// The request's only unit, an uncovered Chinese stretch: its bigrams' ids.
fn stretch(q: &Query) -> Vec<u32> {
    assert_eq!(q.units.len(), 1, "{:?}", q.units);
    match &q.units[0].kind {
        UnitKind::Words(ids) if q.units[0].surface.is_empty() && ids.len() >= 3 => ids.clone(),
        _ => panic!("no stretch of three bigrams: {:?}", q.units),
    }
}

/// The stretch's match in a listing (the request's only unit, so its coverage).
fn unit_match(q: &Query, d: &crate::rank::text::Doc) -> f64 {
    match_doc(q, d).coverage
}

/// Must match: a listing that has the two word pairs of a stretch matches all of it, though the
/// chance join between them (no listing has it) is one of its three bigrams; and of two pairs the
/// candidates have, the rarer weighs more.
#[test]
fn a_stretch_matches_by_the_bigrams_the_candidates_have() {
    let mut v = Vocab::default();
    // 鳑鲏 | 蚌壳: two words and the join 鲏蚌.
    let mut q = query(&mut v, "鳑鲏蚌壳");
    let grams = stretch(&q);
    let (first, join, last) = (grams[0], grams[1], grams[2]);
    let listing = doc(&mut v, "鳑鲏与蚌壳", "养鱼的好帮手。");
    let plain = unit_match(&q, &listing);
    q.weigh_by_rarity(1000, |t| (t != join).then(|| idf_at(1000, 2.0)));
    let weighed = unit_match(&q, &listing);
    assert!(
        plain < 0.7 && weighed > 0.99,
        "plain {plain} weighed {weighed}: {:?}",
        q.stretch_weights
    );
    // A rare pair (one listing in a thousand) against a common one (three hundred).
    let mut q = query(&mut v, "鳑鲏蚌壳");
    q.weigh_by_rarity(1000, |t| {
        if t == first {
            Some(idf_at(1000, 1.0))
        } else if t == last {
            Some(idf_at(1000, 300.0))
        } else {
            None
        }
    });
    let has_rare = doc(&mut v, "鳑鲏图鉴", "识别常见品种。");
    let has_common = doc(&mut v, "蚌壳图鉴", "识别常见品种。");
    let (r, c) = (unit_match(&q, &has_rare), unit_match(&q, &has_common));
    assert!(r > 2.0 * c && c > 0.0, "rare {r} common {c}");
}

/// Must not match: a listing that has only the head of a stretch whose rest no candidate has
/// does not get the whole stretch (what no listing names still counts, so a no-match request stays
/// silent); a stretch none of whose bigrams any candidate has gets no weights and keeps its
/// weight; the weighing leaves the request's total weight unchanged; a listing with none of the
/// stretch's bigrams matches nothing of it.
#[test]
fn what_no_candidate_has_still_counts_against_a_match() {
    let mut v = Vocab::default();
    let mut q = query(&mut v, "鳑鲏蚌壳繁育");
    let grams = stretch(&q);
    let total: f64 = q.units.iter().map(|u| u.weight).sum();
    q.weigh_by_rarity(1000, |t| (t == grams[0]).then(|| idf_at(1000, 1.0)));
    let after: f64 = q.units.iter().map(|u| u.weight).sum();
    assert!((total - after).abs() < 1e-12, "{total} {after}");
    let head = doc(&mut v, "鳑鲏助手", "养鱼的好帮手。");
    let m = unit_match(&q, &head);
    assert!(m > 0.0 && m < 0.5, "{m}: {:?}", q.stretch_weights);
    let unrelated = doc(&mut v, "鱼缸换水提醒", "按时提醒换水和喂食。");
    assert_eq!(unit_match(&q, &unrelated), 0.0);
    let mut q = query(&mut v, "鳑鲏蚌壳繁育");
    q.weigh_by_rarity(1000, |_| None);
    assert!(q.stretch_weights.is_empty(), "{:?}", q.stretch_weights);
    let after: f64 = q.units.iter().map(|u| u.weight).sum();
    assert!((total - after).abs() < 1e-12, "{total} {after}");
}
