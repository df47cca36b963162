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

#[test]
fn a_verb_before_de_and_a_noun_describes_the_noun() {
    // Must: what someone wrote, sent or cut is what the request works on, not its job.
    let q = query("我要签的这份租房协议，房东写的那些规定会不会坑我");
    assert_eq!(has(&q, "create"), Some(true), "{:?}", actions(&q));
    assert_eq!(has(&q, "review"), Some(false));
    assert!(q.done.iter().any(|(_, w)| w == "写的"), "{:?}", q.done);
    let q = query("刚剪的视频，帮我配上字幕");
    assert_eq!(has(&q, "cut"), Some(true), "{:?}", actions(&q));
}

#[test]
fn a_verb_before_de_still_asks_after_a_modal_a_request_word_or_one_and_a_measure() {
    // Must not: a file to translate, a tool that can merge, a letter to write, "when translating".
    let q = query("有一份要翻译的合同");
    assert_eq!(has(&q, "translate"), Some(false), "{:?}", actions(&q));
    let q = query("有没有能合并的工具，PDF 的");
    assert_eq!(has(&q, "merge"), Some(false), "{:?}", actions(&q));
    let q = query("想给每个人发一封带自己名字的感谢信");
    assert_eq!(has(&q, "personalize"), Some(false), "{:?}", actions(&q));
    let q = query("翻译的时候保留格式");
    assert_eq!(has(&q, "translate"), Some(false), "{:?}", actions(&q));
    assert!(q.done.is_empty());
}

#[test]
fn a_purpose_clause_is_a_side_part() {
    // Must: what the result is for weighs as a side part.
    let q = query("pull the transactions out of my statement so I can see how much I spent");
    assert_eq!(has(&q, "extract"), Some(false));
    assert_eq!(has(&q, "calculate"), Some(true), "{:?}", actions(&q));
    let q = query("把PDF里的表格导出来，以便做汇总");
    assert_eq!(has(&q, "merge"), Some(true), "{:?}", actions(&q));
    // Must not: "so" alone, or "that" after another word, starts no side part.
    let q = query("the pdf is so big that I need to compress it");
    assert_eq!(has(&q, "compress"), Some(false), "{:?}", actions(&q));
}
