//! A listing that names most of a rare uncovered Chinese stretch has evidence of the request's
//! subject, as a specific object is: its match is not `single` (`rank50`, [`RARE_STRETCH_SHARE`]).

use super::tests::doc;
use super::*;
use crate::rank::text::{Vocab, idf_at};

fn query(v: &mut Vocab, text: &str) -> Query {
    let a = v.analyze_request(text);
    Query::new(v, &a)
}

/// The request's uncovered stretch of `grams` bigrams: its bigrams' ids.
fn stretch_of(q: &Query, grams: usize) -> Vec<u32> {
    q.units
        .iter()
        .find_map(|u| match &u.kind {
            UnitKind::Words(ids) if u.surface.is_empty() && ids.len() == grams => Some(ids.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no stretch of {grams} bigrams: {:?}", q.units))
}

/// The idf over 1,000 candidates: `common` tokens three in ten have, `unseen` none, every other
/// token of the request (the stretch's words and the request's other words) two.
fn weigh(q: &mut Query, common: &[u32], unseen: &[u32]) {
    let (common, unseen) = (common.to_vec(), unseen.to_vec());
    q.weigh_by_rarity(1000, move |t| {
        if unseen.contains(&t) {
            None
        } else if common.contains(&t) {
            Some(idf_at(1000, 300.0))
        } else {
            Some(idf_at(1000, 2.0))
        }
    });
}

/// Must pick: a listing that names both words of a rare stretch (马头琴 | 揉弦, the join 琴揉 no
/// candidate has) and nothing else of the request is no single match, and its strength passes the
/// Chinese cut-off; the same listing for the same stretch made common among the candidates is a
/// single match again (the rule reads the rarity).
#[test]
fn most_of_a_rare_stretch_is_evidence_of_the_subject() {
    let mut v = Vocab::default();
    let text = "马头琴揉弦总是失败";
    let mut q = query(&mut v, text);
    let grams = stretch_of(&q, 4);
    let listing = doc(&mut v, "马头琴练习", "揉弦、泛音和换把的练习计划。");
    weigh(&mut q, &[], &[grams[2]]);
    assert!(
        q.stretch_rare.iter().any(|&(_, r)| r > 0.0),
        "{:?}",
        q.stretch_rare
    );
    let m = match_doc(&q, &listing);
    assert!(
        !m.single && m.strength >= crate::recommend::min_task_match(text),
        "{m:?}"
    );
    let mut common = query(&mut v, text);
    weigh(&mut common, &[grams[0], grams[1], grams[3]], &[grams[2]]);
    let m = match_doc(&common, &listing);
    assert!(m.single, "{m:?}: {:?}", common.stretch_rare);
}

/// Must stay silent: a listing that has only the first word of a rare stretch whose second word
/// no candidate has (鳑鲏 of 鳑鲏繁育: half of it) stays a single match under the single floor; a
/// listing that has a rare stretch of two characters (one word, as a rare written word is) is still
/// a single match (its cut-off is the single floor).
#[test]
fn half_a_rare_stretch_or_one_rare_word_stays_single() {
    let mut v = Vocab::default();
    let mut q = query(&mut v, "鳑鲏繁育总是失败");
    let grams = stretch_of(&q, 3);
    weigh(&mut q, &[], &[grams[1], grams[2]]);
    let head = doc(&mut v, "鳑鲏图鉴", "识别常见品种和产地。");
    let m = match_doc(&q, &head);
    assert!(m.strength > 0.0 && m.single, "{m:?}");
    assert!(m.strength < crate::recommend::SINGLE_MATCH_FLOOR, "{m:?}");
    let mut q = query(&mut v, "鳑鲏总是死掉");
    stretch_of(&q, 1);
    weigh(&mut q, &[], &[]);
    let m = match_doc(&q, &head);
    assert!(m.strength > 0.0 && m.single, "{m:?}");
}
