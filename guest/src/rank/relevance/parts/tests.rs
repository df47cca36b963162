//! The parts of a request that are not the job: must-match and must-not-match cases.

use super::super::{Query, UnitKind};
use crate::rank::lexicon::{Kind, lexicon};
use crate::rank::text::Vocab;

fn query(task: &str) -> Query {
    let mut v = Vocab::default();
    let a = v.analyze_text(task);
    Query::new(&mut v, &a)
}

/// Whether the request has this concept as a unit, and in which part (`Some(side)`).
fn has(q: &Query, name: &str) -> Option<bool> {
    let lex = lexicon();
    q.units.iter().find_map(|u| match u.kind {
        UnitKind::Concept { concept, .. } if lex.concepts[concept].name == name => Some(u.side),
        _ => None,
    })
}

fn actions(q: &Query) -> Vec<String> {
    let lex = lexicon();
    q.units
        .iter()
        .filter_map(|u| match u.kind {
            UnitKind::Concept {
                concept,
                kind: Kind::Action,
            } => Some(lex.concepts[concept].name.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_word_for_a_thing_and_a_job_names_the_thing_beside_another_job() {
    // Must: the recording, the screen recording, the minutes are what the request works on.
    let q = query("把 meeting 的 recording 整理一下，然后 email 给每个人");
    assert!(has(&q, "audio").is_some());
    assert!(has(&q, "record").is_none(), "{:?}", actions(&q));
    let q = query("my ideas are all in one rambling recording, turn it into a to-do list");
    assert!(has(&q, "record").is_none(), "{:?}", actions(&q));
    let q = query("录屏的视频太长了，帮我把开头和结尾剪掉");
    assert!(has(&q, "screen").is_some());
    assert!(has(&q, "record").is_none(), "{:?}", actions(&q));
    assert_eq!(has(&q, "cut"), Some(false));
    let q = query("会议纪要太长了，做成一张脑图");
    assert!(has(&q, "minutes").is_some());
    assert!(has(&q, "summarize").is_none(), "{:?}", actions(&q));
}

#[test]
fn a_word_for_a_thing_and_a_job_is_the_job_when_nothing_else_is_asked() {
    // Must not: alone, or beside a means only (send), the word still asks its job.
    let q = query("帮我出一份会议纪要");
    assert!(has(&q, "summarize").is_some(), "{:?}", actions(&q));
    let q = query("录屏");
    assert!(has(&q, "record").is_some(), "{:?}", actions(&q));
    let q = query("Record Thursday's call and send it to me");
    assert!(has(&q, "record").is_some(), "{:?}", actions(&q));
    // An action word that names no thing is untouched beside another job.
    let q = query("translate the contract and summarize it");
    assert!(has(&q, "translate").is_some());
    assert!(has(&q, "summarize").is_some());
}
