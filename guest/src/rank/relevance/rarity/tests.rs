//! The free words' rarity weights (`rank33`, [`Query::weigh_by_rarity`]).

use super::*;
use crate::rank::text::{Doc, Field, Vocab, idf_at};

fn query(v: &mut Vocab, text: &str) -> Query {
    let a = v.analyze_request(text);
    Query::new(v, &a)
}

/// The free word written `word`: its weight and its first token.
fn free(q: &Query, word: &str) -> (f64, u32) {
    q.units
        .iter()
        .find_map(|u| match &u.kind {
            UnitKind::Words(ids) if u.surface.trim() == word => Some((u.weight, ids[0])),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no free word {word}: {:?}", q.units))
}

/// Must match: a word few candidates have takes more of the free words' weight than a word many
/// have, a word none has keeps the mean share, and the total is unchanged.
#[test]
fn rare_words_take_the_free_words_weight() {
    let mut v = Vocab::default();
    let mut q = query(&mut v, "zorblat quexit morning weekly");
    let words: Vec<f64> = q
        .units
        .iter()
        .filter(|u| matches!(u.kind, UnitKind::Words(_)))
        .map(|u| u.weight)
        .collect();
    assert_eq!(words.len(), 4, "{:?}", q.units);
    let before: f64 = words.iter().sum();
    let rare = free(&q, "zorblat").1;
    let unseen = free(&q, "quexit").1;
    // One candidate: no word is rarer than another by share, so only the sharing acts.
    q.weigh_by_rarity(1, |t| {
        if t == rare {
            Some(6.0)
        } else if t == unseen {
            None
        } else {
            Some(2.0)
        }
    });
    let after: f64 = q
        .units
        .iter()
        .filter(|u| matches!(u.kind, UnitKind::Words(_)))
        .map(|u| u.weight)
        .sum();
    assert!((before - after).abs() < 1e-9, "{before} {after}");
    let (r, u, m) = (
        free(&q, "zorblat").0,
        free(&q, "quexit").0,
        free(&q, "morning").0,
    );
    assert!(r > 3.0 * m, "{r} {m}");
    assert!(u > m && u < r, "unseen {u} between {m} and {r}");
    assert_eq!(
        q.rare_matched(&(0..q.units.len()).collect::<Vec<_>>()),
        ["zorblat"]
    );
}

/// Must not match: with every free word equally common, or with no candidate having any of them,
/// the weights stay as they were.
#[test]
fn even_or_unseen_words_keep_their_weights() {
    let mut v = Vocab::default();
    let q0 = query(&mut v, "zorblat quexit morning");
    for idf in [|_| Some(3.0), |_| None] {
        let mut q = q0.clone();
        q.weigh_by_rarity(1, idf);
        for (a, b) in q.units.iter().zip(&q0.units) {
            assert!((a.weight - b.weight).abs() < 1e-9);
        }
        assert!(q.rare_matched(&[0, 1, 2]).is_empty());
    }
}

/// Must match: a listing that shares the request's one rare word goes before one that shares two
/// common words, once the weights follow rarity; with even shares it went after.
#[test]
fn a_rare_shared_word_outweighs_common_ones() {
    let mut v = Vocab::default();
    let q0 = query(&mut v, "zorblat morning weekly");
    let rare_doc = Doc::new(&mut v, &[(Field::Lead, "Zorblat tables for sailors.")]);
    let common_doc = Doc::new(&mut v, &[(Field::Lead, "A morning weekly digest.")]);
    let rare = free(&q0, "zorblat").1;
    let even = (match_doc(&q0, &rare_doc), match_doc(&q0, &common_doc));
    assert!(even.0.strength < even.1.strength, "{even:?}");
    let mut q = q0.clone();
    q.weigh_by_rarity(1000, |t| {
        Some(idf_at(1000, if t == rare { 1.0 } else { 150.0 }))
    });
    let (r, c) = (match_doc(&q, &rare_doc), match_doc(&q, &common_doc));
    assert!(r.strength > c.strength, "{} <= {}", r.strength, c.strength);
}

/// Must match: a word one candidate in a thousand has is worth nearly a specific object to the
/// order of a listing that has it, however many free words the request has; a word a tenth of
/// them have keeps its share. Must not: the raise is no part of the match strength the cut-off
/// reads (a request that shares one rare word with a listing by chance stays as silent as before).
#[test]
fn a_rare_word_raises_the_order_not_the_strength() {
    let mut v = Vocab::default();
    let mut q = query(
        &mut v,
        "zorblat morning weekly daily evening tonight friday monday summer winter",
    );
    let even = free(&q, "zorblat").0;
    assert!(even < 0.2, "{even}");
    let rare = free(&q, "zorblat").1;
    q.weigh_by_rarity(1000, |t| {
        Some(idf_at(1000, if t == rare { 1.0 } else { 100.0 }))
    });
    assert_eq!(q.rare_bonus.len(), 1, "{:?}", q.rare_bonus);
    let (i, bonus) = q.rare_bonus[0];
    assert!((q.units[i].weight + bonus - RARE_WORD_WEIGHT).abs() < 1e-9);
    assert!(free(&q, "weekly").0 < 0.2);
    assert_eq!(
        q.rare_matched(&(0..q.units.len()).collect::<Vec<_>>()),
        ["zorblat"]
    );
    let doc = Doc::new(&mut v, &[(Field::Lead, "Zorblat tables for sailors.")]);
    let raised = match_doc(&q, &doc);
    let mut plain = q.clone();
    plain.rare_bonus.clear();
    let without = match_doc(&plain, &doc);
    assert!(
        (raised.strength - without.strength).abs() < 1e-12,
        "{raised:?}"
    );
    assert!(
        without.rare_lift == 0.0 && raised.rare_lift > 0.0,
        "{raised:?}"
    );
    // A listing without the word earns nothing from it.
    let other = Doc::new(&mut v, &[(Field::Lead, "A morning weekly digest.")]);
    assert_eq!(match_doc(&q, &other).rare_lift, 0.0);
}

/// Must not match: a stretch of Chinese (character bigrams) rare among the candidates earns no
/// raise: a rare bigram is as often a chance join of two words as a word of the subject.
#[test]
fn a_rare_chinese_stretch_earns_no_raise() {
    let mut v = Vocab::default();
    let mut q = query(&mut v, "鳑鲏 morning weekly daily evening tonight friday");
    let stretch: Vec<u32> = q
        .units
        .iter()
        .find_map(|u| match &u.kind {
            // A stretch of Chinese keeps no surface (`Query::new`).
            UnitKind::Words(ids) if u.surface.is_empty() => Some(ids.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no free Chinese stretch: {:?}", q.units));
    q.weigh_by_rarity(1000, |t| {
        Some(idf_at(1000, if stretch.contains(&t) { 1.0 } else { 100.0 }))
    });
    assert!(q.rare_bonus.is_empty(), "{:?}", q.rare_bonus);
}
