//! An action read from one Chinese character alone counts less in the order ([`LONE_CHARACTER`]).

use super::tests::doc;
use super::*;
use crate::rank::text::Vocab;

fn query(v: &mut Vocab, task: &str) -> Query {
    let a = v.analyze_text(task);
    Query::new(v, &a)
}

/// The surfaces of the request's lone-character actions.
fn lone(q: &Query) -> Vec<String> {
    q.units
        .iter()
        .filter(|u| u.lone)
        .map(|u| u.surface.trim().to_owned())
        .collect()
}

#[test]
fn a_lone_character_is_read_as_a_weak_action_and_a_word_is_not() {
    let mut v = Vocab::default();
    // Must: 写 inside an unknown compound (默写 "written from memory"; 手写 "handwritten" is a
    // concept of its own since `rank38`) or describing the object (我写的),
    // 转 in 转正 ("turn upright").
    for (task, word) in [
        ("孩子默写的单词拍了几张", "写"),
        ("我写的脚本跑起来总报错", "写"),
        ("有几页是歪的，帮我转正", "转"),
    ] {
        let q = query(&mut v, task);
        assert!(lone(&q).contains(&word.to_owned()), "{task}: {:?}", q.units);
    }
    // Must not: the same action named by a word (写一份), an English verb, a request whose only
    // characters are words, and an object of one character (an object is what the request is
    // about, not a morpheme of another word's sense).
    for task in [
        "帮我写一份周报",
        "write a weekly report",
        "把这两个文件合并",
    ] {
        let q = query(&mut v, task);
        assert!(lone(&q).is_empty(), "{task}: {:?}", q.units);
    }
    let q = query(&mut v, "家里的猫老是掉毛");
    assert!(
        q.units.iter().all(|u| !u.lone
            || matches!(
                u.kind,
                UnitKind::Concept {
                    kind: Kind::Action,
                    ..
                }
            )),
        "{:?}",
        q.units
    );
}

#[test]
fn a_word_for_the_same_action_lifts_the_lone_reading() {
    let mut v = Vocab::default();
    // 写 alone first, then 写一份: the request asks for writing in so many words.
    let q = query(&mut v, "手写的那几页，帮我写一份电子版");
    assert!(lone(&q).is_empty(), "{:?}", q.units);
}

#[test]
fn a_lone_character_action_orders_lower_but_keeps_its_strength() {
    let mut v = Vocab::default();
    let writer = doc(
        &mut v,
        "Blog Writer",
        "Writes blog posts and articles from a few bullet points.",
    );
    let task = "孩子默写的单词拍了几张";
    let q = query(&mut v, task);
    let m = match_doc(&q, &writer);
    assert!(!m.lone.is_empty(), "the writer matched 写: {m:?}");
    // The same request with the reading trusted as a word's.
    let mut trusted = q.clone();
    for u in &mut trusted.units {
        u.lone = false;
    }
    let t = match_doc(&trusted, &writer);
    assert!(t.lone.is_empty());
    // Order only: the strength the cut-off reads is the same, the order weight lower.
    assert!((m.strength - t.strength).abs() < 1e-12, "{m:?} {t:?}");
    assert!(m.order_weight < t.order_weight, "{m:?} {t:?}");
    // The detail names the character, in both languages.
    let en = crate::rank::factors::task_detail(&q, &m, false, 0.3, crate::Lang::En);
    assert!(
        en.contains("“写” is a single character read as an action"),
        "{en}"
    );
    let zh = crate::rank::factors::task_detail(&q, &m, false, 0.3, crate::Lang::Zh);
    assert!(zh.contains("「写」只是单个字读出的动作"), "{zh}");
    // Must not: the request that asks for writing in a word keeps the writer's order whole.
    let q = query(&mut v, "帮我写一份周报");
    let m = match_doc(&q, &writer);
    let name = if m.no_name_evidence {
        NO_NAME_EVIDENCE
    } else {
        1.0
    };
    let language = if m.other_language { LANGUAGE_FIT } else { 1.0 };
    assert!(
        m.lone.is_empty() && (m.order_weight - name * language).abs() < 1e-9,
        "{m:?}"
    );
    let en = crate::rank::factors::task_detail(&q, &m, false, 0.3, crate::Lang::En);
    assert!(!en.contains("single character"), "{en}");
}

#[test]
fn a_listing_sharing_the_request_s_words_goes_before_one_sharing_a_lone_character() {
    let mut v = Vocab::default();
    // The wrong listing writes (写) on the request's object; the right one turns a sheet into Excel.
    // Without the rule the writer's extra action puts it first; its strength stays the higher.
    let writer = doc(
        &mut v,
        "Excel Report Writer",
        "Writes monthly reports in Excel from your figures.",
    );
    let snap = doc(
        &mut v,
        "Table Snap",
        "Turns printed tables into an editable Excel sheet.",
    );
    let q = query(&mut v, "手写的签到表，想弄进 Excel");
    let (w, s) = (match_doc(&q, &writer), match_doc(&q, &snap));
    let order = |m: &Match| m.strength * m.order_weight;
    assert!(w.strength >= s.strength, "writer {w:?}\nsnap {s:?}");
    assert!(order(&s) > order(&w), "writer {w:?}\nsnap {s:?}");
}
