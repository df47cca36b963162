//! A free word or uncovered Chinese stretch that names an everyday object of the EN↔ZH table
//! (`rank51`, [`super::translate`]) also matches a listing that names it in the other language, at
//! [`TRANSLATION_CREDIT`] of what the word itself earns; the request's total weight does not move.

use super::tests::doc;
use super::*;
use crate::rank::text::Vocab;

fn query(v: &mut Vocab, text: &str) -> Query {
    let a = v.analyze_request(text);
    Query::new(v, &a)
}

/// Must pick: a Chinese request about a pillow (枕头, in no concept) reaches an English-only
/// listing that names pillows, and a Chinese listing that names 枕头 itself earns more than the
/// translation does; the request's total weight is what it is without the table.
#[test]
fn a_chinese_object_reaches_an_english_listing_of_it() {
    let mut v = Vocab::default();
    let q = query(&mut v, "枕头里的羽绒结块了");
    assert!(!q.alts.is_empty(), "{:?}", q.units);
    let en = doc(
        &mut v,
        "Pillow Care",
        "Washes and fluffs down pillows and fixes clumped filling.",
    );
    let zh = doc(&mut v, "枕头护理", "清洗和晾晒羽绒枕头。");
    let other = doc(&mut v, "Tent Patcher", "Patches tears in tents and tarps.");
    let (m_en, m_zh, m_other) = (
        match_doc(&q, &en),
        match_doc(&q, &zh),
        match_doc(&q, &other),
    );
    assert!(m_en.strength > 0.0, "{m_en:?}");
    assert!(m_zh.strength > m_en.strength, "{m_zh:?} {m_en:?}");
    assert_eq!(m_other.strength, 0.0, "{m_other:?}");
    let mut bare = q.clone();
    bare.alts.clear();
    let all = |q: &Query| q.units.iter().map(|u| u.weight).sum::<f64>();
    assert_eq!(all(&q), all(&bare));
    assert_eq!(match_doc(&bare, &en).strength, 0.0);
}

/// Must pick, the reverse: an English request's free word (pillow) reaches a Chinese-only
/// listing that names 枕头.
#[test]
fn an_english_object_reaches_a_chinese_listing_of_it() {
    let mut v = Vocab::default();
    let q = query(&mut v, "The down in my pillow has clumped");
    let zh = doc(&mut v, "枕头护理", "清洗和晾晒羽绒枕头。");
    assert!(match_doc(&q, &zh).strength > 0.0, "{:?}", q.alts);
}

/// Must stay silent: a word the table lacks gets no translation (鳑鲏), and neither does a word a
/// concept covers (the lexicon's concepts are bilingual already); a translation alone is a
/// `single` match, held to the single floor, so a request that names only an object of the table
/// and asks nothing of it picks no listing of the other language.
#[test]
fn no_translation_without_a_table_word_and_a_lone_one_stays_single() {
    let mut v = Vocab::default();
    let q = query(&mut v, "鳑鲏总是死掉");
    assert!(q.alts.is_empty(), "{:?}", q.alts);
    let q = query(&mut v, "把这份合同翻译成英文");
    assert!(q.alts.is_empty(), "{:?}", q.alts);
    let q = query(&mut v, "枕头是哪个朝代的人发明的，历史有多久");
    let en = doc(
        &mut v,
        "Pillow Care",
        "Washes and fluffs down pillows and fixes clumped filling.",
    );
    let m = match_doc(&q, &en);
    assert!(
        m.single && m.strength < crate::recommend::SINGLE_MATCH_FLOOR,
        "{m:?}"
    );
}
