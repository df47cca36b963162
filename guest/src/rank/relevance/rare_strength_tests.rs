//! `rank48`'s general rules: a corroborated rare free word is match strength ([`RARE_STRENGTH`]),
//! a match on the request's objects alone is a single match, and a Chinese stretch's rare bigrams
//! earn the order's raise as a written word does.

use super::tests::doc;
use super::*;
use crate::rank::text::{Doc, Field, Vocab, idf_at};

fn query(v: &mut Vocab, text: &str) -> Query {
    let a = v.analyze_request(text);
    Query::new(v, &a)
}

/// The first token of the free word written `word`.
fn token(q: &Query, word: &str) -> u32 {
    q.units
        .iter()
        .find_map(|u| match &u.kind {
            UnitKind::Words(ids) if u.surface.trim() == word => Some(ids[0]),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no free word {word}: {:?}", q.units))
}

/// Must pick: a listing that shares the request's rare word and another of its words (two places
/// of the request) gains match strength from the rare word, the share [`RARE_STRENGTH`] of its
/// raise; the order (strength + what is left of the raise) is what it was.
#[test]
fn a_rare_word_with_a_second_shared_word_is_strength() {
    let mut v = Vocab::default();
    let mut q = query(
        &mut v,
        "quorvane lacquer weekly daily evening tonight friday monday summer winter",
    );
    let (rare, second) = (token(&q, "quorvane"), token(&q, "lacquer"));
    q.weigh_by_rarity(1000, |t| {
        Some(idf_at(
            1000,
            if t == rare {
                1.0
            } else if t == second {
                30.0
            } else {
                100.0
            },
        ))
    });
    let d = Doc::new(&mut v, &[(Field::Lead, "Quorvane lacquer for old boats.")]);
    let raised = match_doc(&q, &d);
    let mut plain = q.clone();
    plain.rare_bonus.clear();
    let without = match_doc(&plain, &d);
    let gained = raised.strength - without.strength;
    assert!(gained > 0.05, "{raised:?} {without:?}");
    let lift = gained + raised.rare_lift;
    assert!(
        (gained - RARE_STRENGTH * lift).abs() < 1e-9,
        "{gained} of {lift}"
    );
}

/// Must stay silent: the same rare word shared alone (one place of the request) stays order only,
/// so a request that names a place or a brand some listing has by chance gains no strength.
#[test]
fn a_rare_word_shared_alone_is_no_strength() {
    let mut v = Vocab::default();
    let mut q = query(
        &mut v,
        "quorvane lacquer weekly daily evening tonight friday monday summer winter",
    );
    let rare = token(&q, "quorvane");
    q.weigh_by_rarity(1000, |t| {
        Some(idf_at(1000, if t == rare { 1.0 } else { 100.0 }))
    });
    let d = Doc::new(&mut v, &[(Field::Lead, "Quorvane harbour tide tables.")]);
    let raised = match_doc(&q, &d);
    let mut plain = q.clone();
    plain.rare_bonus.clear();
    let without = match_doc(&plain, &d);
    assert!(
        (raised.strength - without.strength).abs() < 1e-12,
        "{raised:?}"
    );
    assert!(raised.rare_lift > 0.0, "{raised:?}");
}

/// Must stay silent: a listing that shares only the request's object, while the request asks
/// something else about it (what year, who made it), rests on the object alone: a single match,
/// which needs `recommend::SINGLE_MATCH_FLOOR`.
#[test]
fn an_object_alone_is_a_single_match() {
    let mut v = Vocab::default();
    let d = doc(&mut v, "PDF Joiner", "Joins several PDF files into one.");
    for task in [
        "In what year did Adobe first publish the PDF format?",
        "PDF 格式是哪一年发明的",
    ] {
        let a = v.analyze_text(task);
        let q = Query::new(&mut v, &a);
        let m = match_doc(&q, &d);
        assert!(
            !m.matched.is_empty() && m.single && !m.core,
            "{task}: {m:?}"
        );
    }
}

/// Must pick: the object with the asked job is no single match, and neither is a request that
/// names nothing but the object.
#[test]
fn an_object_with_its_job_or_alone_in_the_request_is_not_single() {
    let mut v = Vocab::default();
    let d = doc(&mut v, "PDF Joiner", "Joins several PDF files into one.");
    for task in [
        "join these three PDF files into one",
        "把这几个 PDF 合并",
        "PDF",
    ] {
        let a = v.analyze_text(task);
        let q = Query::new(&mut v, &a);
        let m = match_doc(&q, &d);
        assert!(!m.single, "{task}: {m:?}");
    }
}

/// Must match: a Chinese stretch no dictionary word covers earns the order's raise when its
/// bigrams are rare among the candidates. Must not: a stretch whose bigrams no candidate has.
#[test]
fn a_rare_chinese_stretch_earns_the_raise() {
    let mut v = Vocab::default();
    let q0 = query(
        &mut v,
        "鹦鹉螺壳上的纹路 weekly daily evening tonight friday monday summer",
    );
    let stretch = q0
        .units
        .iter()
        .position(|u| matches!(u.kind, UnitKind::Words(_)) && u.surface.is_empty())
        .unwrap_or_else(|| panic!("no Chinese stretch: {:?}", q0.units));
    let UnitKind::Words(grams) = q0.units[stretch].kind.clone() else {
        unreachable!()
    };
    let mut q = q0.clone();
    q.weigh_by_rarity(1000, |t| {
        Some(idf_at(1000, if grams.contains(&t) { 1.0 } else { 100.0 }))
    });
    assert!(
        q.rare_bonus.iter().any(|(i, _)| *i == stretch),
        "{:?}",
        q.rare_bonus
    );
    let mut q = q0.clone();
    q.weigh_by_rarity(1000, |t| (!grams.contains(&t)).then(|| idf_at(1000, 100.0)));
    assert!(
        !q.rare_bonus.iter().any(|(i, _)| *i == stretch),
        "{:?}",
        q.rare_bonus
    );
}
