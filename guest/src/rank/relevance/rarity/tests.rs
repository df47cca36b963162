//! The free words' rarity weights (`rank33`, [`Query::weigh_by_rarity`]).

use super::*;
use crate::rank::text::{Doc, Field, Vocab};

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
    q.weigh_by_rarity(|t| {
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
        q.weigh_by_rarity(idf);
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
    q.weigh_by_rarity(|t| Some(if t == rare { 6.0 } else { 1.5 }));
    let (r, c) = (match_doc(&q, &rare_doc), match_doc(&q, &common_doc));
    assert!(r.strength > c.strength, "{} <= {}", r.strength, c.strength);
}
