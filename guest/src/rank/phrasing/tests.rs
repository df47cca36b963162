//! Phrasing rules of requests: must-match and must-not-match cases, and the readings shown.

use super::*;
use crate::rank::text::Vocab;

fn concepts_of(text: &str) -> (Vec<String>, Analysis) {
    let mut v = Vocab::default();
    let a = v.analyze_request(text);
    let names = a
        .concepts
        .iter()
        .map(|c| lexicon().concepts[c.concept].name.clone())
        .collect();
    (names, a)
}

fn has(text: &str, concept: &str) -> bool {
    concepts_of(text).0.iter().any(|c| c == concept)
}

#[test]
fn a_separable_word_with_an_infix_is_read_as_the_word() {
    for text in [
        "下周要上公开课，帮我备一下课",
        "明天给三年级备个课",
        "课还没准备，帮我把这节课备好",
    ] {
        assert!(has(text, "lesson-plan"), "{text}");
        let (_, a) = concepts_of(text);
        assert!(
            a.readings.iter().any(|r| r.read_as == "备课"),
            "{text}: {:?}",
            a.readings
        );
    }
    for text in ["公司不跟我续签了", "老板说合同到期不打算续签"] {
        assert!(has(text, "labor-dispute"), "{text}");
    }
    assert!(has("下午开个会对一下进度", "meeting"));
}

#[test]
fn a_separable_word_needs_an_infix_not_any_word_between() {
    // 用 is no infix; 准备 and 课件 are words of their own; no 把 before a fronted object.
    for text in ["把备用的课件发我", "准备课件和讲义", "课备好了吗"] {
        let (_, a) = concepts_of(text);
        assert!(!a.readings.iter().any(|r| r.read_as == "备课"), "{text}");
    }
    // 不用续签 is "no need to renew": 用 is no infix.
    assert!(!has("这份合同不用续签", "labor-dispute"));
    // A longer word at a part: 会员 is a member, not a meeting.
    let (_, a) = concepts_of("帮我开个会员");
    assert!(
        !a.readings.iter().any(|r| r.read_as == "开会"),
        "{:?}",
        a.readings
    );
}

#[test]
fn two_places_joined_by_a_route_marker_are_travel() {
    for text in [
        "五一从深圳去西安待四天，每天去哪",
        "合肥→武汉 周六一早",
        "成都-重庆 下周二上午",
        "广州 to 厦门 三天",
        "Driving from Boston to Montreal with the kids",
    ] {
        let (_, a) = concepts_of(text);
        assert!(has(text, "travel"), "{text}: {:?}", a.readings);
        assert!(a.readings.iter().any(|r| r.read_as == "travel"), "{text}");
    }
}

#[test]
fn times_pronouns_and_formats_are_no_route() {
    for text in [
        "从周一到周五每天提醒我",
        "从头到尾看一遍这份合同",
        "我想去看看",
        "convert it from PDF to Word",
        "2026-12-03 的日志",
        "Talk to Sarah about the budget",
    ] {
        let (_, a) = concepts_of(text);
        assert!(
            !a.readings.iter().any(|r| r.read_as == "travel"),
            "{text}: {:?}",
            a.readings
        );
    }
}

#[test]
fn a_wanted_format_implies_a_conversion() {
    let lex = lexicon();
    let id = |n: &str| lex.concepts.iter().position(|c| c.name == n).unwrap();
    for (text, src, dst) in [
        ("报价单 xlsx 的，对方要 pdf 版本", "spreadsheet", "pdf"),
        ("这个 pptx 搞个 pdf 版本发群里", "slides", "pdf"),
        ("this .docx needs to be a pdf", "word-doc", "pdf"),
        ("an epub version of this pdf for my kindle", "pdf", "ebook"),
    ] {
        let (names, a) = concepts_of(text);
        assert!(
            a.directions.contains(&(id(src), id(dst))),
            "{text}: {:?}",
            a.directions
        );
        assert!(names.iter().any(|n| n == "convert"), "{text}: {names:?}");
    }
    // Two formats of one kind: a conversion without a direction between concepts.
    let (names, _) = concepts_of("录音是 m4a 的，要 mp3 的");
    assert!(names.iter().any(|n| n == "convert"), "{names:?}");
}

#[test]
fn two_formats_without_a_wanted_one_or_with_another_action_are_no_conversion() {
    for text in [
        "merge the pdf and the docx into one file",
        "compare the pdf with the docx",
        "I have a pdf and an xlsx from the bank",
    ] {
        let (names, a) = concepts_of(text);
        assert!(
            !a.readings.iter().any(|r| r.read_as == "convert"),
            "{text}: {names:?} {:?}",
            a.readings
        );
    }
}

#[test]
fn listings_are_not_read_with_the_request_rules() {
    let mut v = Vocab::default();
    let a = v.analyze_text("备一下课 合肥→武汉 xlsx 要 pdf 版本");
    assert!(a.readings.is_empty());
}

#[test]
fn the_task_detail_names_what_was_read() {
    use crate::rank::relevance::{Query, match_doc};
    use crate::rank::text::{Doc, Field};
    let mut v = Vocab::default();
    let d = Doc::new(
        &mut v,
        &[
            (Field::Name, "教案助手"),
            (Field::Lead, "输入年级和课题，生成完整教案，帮老师备课。"),
        ],
    );
    let a = v.analyze_request("明天给三年级备个课");
    let q = Query::new(&mut v, &a);
    let m = match_doc(&q, &d);
    let zh = crate::rank::factors::task_detail(&q, &m, false, 0.8, crate::Lang::Zh);
    assert!(zh.contains("「备…课」读作「备课」"), "{zh}");
    let en = crate::rank::factors::task_detail(&q, &m, false, 0.8, crate::Lang::En);
    assert!(en.contains("read as 备课"), "{en}");
    // A request without a reading shows none.
    let a = v.analyze_request("帮我写个教案");
    let q = Query::new(&mut v, &a);
    let m = match_doc(&q, &d);
    let zh = crate::rank::factors::task_detail(&q, &m, false, 0.8, crate::Lang::Zh);
    assert!(!zh.contains("读作"), "{zh}");
}
