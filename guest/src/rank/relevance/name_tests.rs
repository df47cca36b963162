//! A listing that matches a request only outside its name keeps [`NO_NAME_EVIDENCE`] of its match
//! in the order (`Match::no_name_evidence`).

use super::tests::doc;
use super::*;
use crate::rank::text::Vocab;

fn matched(v: &mut Vocab, name: &str, description: &str, task: &str) -> Match {
    let d = doc(v, name, description);
    let a = v.analyze_text(task);
    let q = Query::new(v, &a);
    match_doc(&q, &d)
}

#[test]
fn a_match_outside_the_name_counts_less_in_the_order() {
    let mut v = Vocab::default();
    // Must: the request's train is only in the body (quizzes for the train ride).
    let (name, description, task) = (
        "Music Theory Buddy",
        "A patient tutor for music theory: explains scales and chords, with short quizzes for the train ride home.",
        "Book me a train from Shenzhen to Guilin on Friday",
    );
    let m = matched(&mut v, name, description, task);
    assert!(!m.matched.is_empty(), "{task}: {m:?}");
    assert!(m.no_name_evidence, "{name} / {task}: {m:?}");
    assert!(m.order_weight < 1.0, "{name} / {task}: {m:?}");
    // Must not: the same request against a listing whose name names the train; a request word in
    // the id's slug-like name; a listing that matches nothing at all (no evidence to weigh).
    for (name, description, task) in [
        (
            "12306火车票查询",
            "查询火车票余票、票价和时刻，支持高铁和动车。",
            "Book me a train from Shenzhen to Guilin on Friday",
        ),
        (
            "pdf-merge",
            "Combine several files into one, in the order you choose.",
            "merge these PDFs into one file",
        ),
        (
            "Music Theory Buddy",
            "A patient tutor for music theory: explains scales and chords.",
            "merge these PDFs into one file",
        ),
    ] {
        let m = matched(&mut v, name, description, task);
        assert!(!m.no_name_evidence, "{name} / {task}: {m:?}");
    }
}

#[test]
fn the_strength_the_cut_off_reads_is_unchanged() {
    let mut v = Vocab::default();
    let description = "A patient tutor for music theory: explains scales and chords, with short quizzes for the train ride home.";
    let task = "Book me a train from Shenzhen to Guilin on Friday";
    let m = matched(&mut v, "Music Theory Buddy", description, task);
    assert!(m.no_name_evidence && m.order_weight < 1.0, "{m:?}");
    // Order only: the strength is the coverage under the object rule and the breadth weight.
    let rule = if m.object_miss || m.reversed {
        OBJECT_MISS
    } else if m.target_only {
        TARGET_ONLY
    } else {
        1.0
    };
    assert!(
        (m.strength - m.coverage * rule * m.breadth_weight).abs() < 1e-12,
        "{m:?}"
    );
    // A name that holds the matched word has no such weight.
    let named = matched(&mut v, "Music Training Buddy", description, task);
    assert!(!named.no_name_evidence, "{named:?}");
}

#[test]
fn an_action_read_only_from_a_lone_character_is_no_name_action_miss() {
    let mut v = Vocab::default();
    let (name, description) = (
        "体检报告解读",
        "上传体检报告或化验单，逐项解读异常指标并给出就医建议。",
    );
    // Must not: 写 in 写着 ("written on") and 转 in 转氨酶 (an enzyme) are the request's only actions.
    let m = matched(
        &mut v,
        name,
        description,
        "化验单上写着转氨酶偏高，这是啥意思",
    );
    assert!(!m.name_action_miss, "{m:?}");
    // Must: a word that asks another job (翻译) against a name that explains.
    let m = matched(&mut v, name, description, "帮我把这份体检报告翻译成英文");
    assert!(m.name_action_miss, "{m:?}");
}
