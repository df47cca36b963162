//! An English free word that WordNet relates to other words (`rank52`, [`super::kin`]: a synonym or
//! a direct hypernym of its most frequent senses) also matches a listing that names one of them, at
//! [`RELATED_CREDIT`] of what the word itself earns; the request's total weight does not move.

use super::tests::doc;
use super::*;
use crate::rank::text::Vocab;

fn query(v: &mut Vocab, text: &str) -> Query {
    let a = v.analyze_request(text);
    Query::new(v, &a)
}

/// Must pick: a request about a toboggan (a sled in WordNet) reaches a listing that names only
/// sleds, and a listing that names toboggans itself earns more than the related word does; the
/// request's total weight is what it is without the related words.
#[test]
fn a_related_word_reaches_a_listing_in_other_words() {
    let mut v = Vocab::default();
    let q = query(&mut v, "The runners of our old toboggan are rusty");
    assert!(!q.kin.is_empty(), "{:?}", q.units);
    let sled = doc(
        &mut v,
        "Sled Restorer",
        "Restores wooden sleds: sanding, rust on runners, varnish.",
    );
    let own = doc(
        &mut v,
        "Toboggan Restorer",
        "Restores wooden toboggans: sanding, rust on runners, varnish.",
    );
    let other = doc(
        &mut v,
        "Kite Patcher",
        "Patches torn kites and replaces spars.",
    );
    let (m_sled, m_own, m_other) = (
        match_doc(&q, &sled),
        match_doc(&q, &own),
        match_doc(&q, &other),
    );
    assert!(m_sled.strength > 0.0, "{m_sled:?}");
    assert!(m_own.strength > m_sled.strength, "{m_own:?} {m_sled:?}");
    assert_eq!(m_other.strength, 0.0, "{m_other:?}");
    let mut bare = q.clone();
    bare.kin.clear();
    let all = |q: &Query| q.units.iter().map(|u| u.weight).sum::<f64>();
    assert_eq!(all(&q), all(&bare));
    assert!(match_doc(&bare, &sled).strength < m_sled.strength);
}

/// Must stay silent: a word the table lacks gets no related words, a Chinese stretch gets none (the
/// table is English), and a related word alone is a `single` match under the single floor, so a
/// request that only names a word of the table picks no listing that has only its related word.
#[test]
fn no_related_word_without_a_table_word_and_a_lone_one_stays_single() {
    let mut v = Vocab::default();
    let q = query(&mut v, "zorbing near me");
    assert!(q.kin.is_empty(), "{:?}", q.kin);
    let q = query(&mut v, "鳑鲏总是死掉");
    assert!(q.kin.is_empty(), "{:?}", q.kin);
    let q = query(&mut v, "who made the first toboggan");
    let sled = doc(
        &mut v,
        "Sled Restorer",
        "Restores wooden sleds: sanding, rust on runners, varnish.",
    );
    let m = match_doc(&q, &sled);
    assert!(
        m.single && m.strength < crate::recommend::SINGLE_MATCH_FLOOR,
        "{m:?}"
    );
}
