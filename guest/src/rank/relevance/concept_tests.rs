//! `rank38`: jobs that share an object with a neighbour and differ by what is done to it (a photo
//! stamped with a logo against a logo designed, subtitles re-timed against subtitles made, a
//! translation checked against a text translated, past rulings searched against a complaint
//! drafted), in both languages. Each listing is written for the test, not taken from the benchmark.

use super::tests::doc;
use super::*;
use crate::rank::text::Vocab;

fn strength(v: &mut Vocab, d: &crate::rank::text::Doc, task: &str) -> f64 {
    let a = v.analyze_text(task);
    let q = Query::new(v, &a);
    match_doc(&q, d).strength
}

/// `right` must match each request more strongly than `wrong`.
fn prefers(right: (&str, &str), wrong: (&str, &str), tasks: &[&str]) {
    let mut v = Vocab::default();
    let r = doc(&mut v, right.0, right.1);
    let w = doc(&mut v, wrong.0, wrong.1);
    for task in tasks {
        let (sr, sw) = (strength(&mut v, &r, task), strength(&mut v, &w, task));
        assert!(
            sr > sw,
            "{task}: {} {sr:.3} <= {} {sw:.3}",
            right.0,
            wrong.0
        );
    }
}

#[test]
fn a_logo_stamped_on_photos_is_a_watermark_not_a_logo_design() {
    prefers(
        (
            "photo stamp",
            "Adds your watermark to a whole folder of pictures.",
        ),
        (
            "logo maker",
            "Designs a logo and a brand mark for a new business.",
        ),
        &[
            "put our logo in the corner of every photo",
            "给这批照片加 logo 水印",
        ],
    );
}

#[test]
fn subtitles_out_of_time_want_a_retimer_not_a_subtitle_maker() {
    prefers(
        (
            "subtitle retimer",
            "Shifts subtitle timings when they are out of sync with the voice.",
        ),
        (
            "subtitle maker",
            "Creates subtitles for a video from its speech.",
        ),
        &[
            "the captions lag behind the voice",
            "字幕和画面对不上",
            "字幕不同步",
        ],
    );
}

#[test]
fn a_translation_to_check_wants_a_reviewer_not_a_translator() {
    prefers(
        (
            "translation qa",
            "Reviews a translation against the source: mistranslations and omissions (漏译、错译).",
        ),
        ("translator", "Translates documents into 40 languages."),
        &[
            "check this translation for mistranslations",
            "这份译稿帮我对照原文审校",
        ],
    );
}

#[test]
fn how_courts_ruled_wants_case_search_not_a_complaint_drafter() {
    prefers(
        (
            "case finder",
            "Searches published court rulings for similar cases (类案检索、判例).",
        ),
        (
            "complaint drafter",
            "Drafts the statement of claim to file a lawsuit (起诉状).",
        ),
        &[
            "find court rulings like my case",
            "有没有类似案例，法院一般怎么判",
        ],
    );
}

#[test]
fn a_budget_against_its_actuals_wants_variance_not_a_personal_budget() {
    prefers(
        (
            "variance report",
            "Compares the budget with actual spending and flags every overspent line.",
        ),
        ("family budget", "Plans a monthly household budget."),
        &[
            "compare each department's budget with actual spending",
            "预算执行情况分析，标出超支的科目",
        ],
    );
}
