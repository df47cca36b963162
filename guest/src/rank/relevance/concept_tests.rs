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

// `rank40`: the half-A jobs of `heldout-36` whose words the concept map did not know, and two
// word senses the batch's listings showed (a model that is *trained*, a product *photo*).

#[test]
fn a_form_to_make_fillable_wants_a_form_builder_not_a_form_filler() {
    prefers(
        (
            "form builder",
            "Turns a flat PDF into a fillable form with text fields and checkboxes.",
        ),
        ("form filler", "Fills in PDF forms from your data."),
        &[
            "make our sign-up sheet fillable with tick boxes",
            "这个申请表想做成可以直接在电脑上填写的",
        ],
    );
}

#[test]
fn merged_cells_to_undo_want_an_unmerger_not_a_workbook_merger() {
    prefers(
        (
            "cell unmerger",
            "Unmerges merged cells and fills each blank with the value above.",
        ),
        (
            "workbook merger",
            "Merges several Excel workbooks into one sheet.",
        ),
        &[
            "unmerge the merged cells in this sheet",
            "把表格里的合并单元格拆开",
        ],
    );
}

#[test]
fn a_cover_letter_and_a_resume_are_two_objects() {
    let letter = (
        "letter writer",
        "Writes a cover letter for a job posting (求职信).",
    );
    let resume = ("resume tailor", "Tailors your resume to a job posting.");
    prefers(
        letter,
        resume,
        &["write my cover letter for this job", "帮我写一封求职信"],
    );
    prefers(
        resume,
        letter,
        &["tweak my resume for this opening", "简历对着 JD 改一改"],
    );
}

#[test]
fn a_model_that_is_trained_is_no_train() {
    prefers(
        ("train tickets", "Checks train tickets and free seats."),
        (
            "churn model",
            "Trains a model on your usage data to score customers.",
        ),
        &["is there a train to Hangzhou with seats on Friday"],
    );
}

#[test]
fn a_voice_to_change_wants_a_voice_changer_not_text_to_speech() {
    prefers(
        (
            "voice changer",
            "Changes the voice in your recording into another one: male to female, robot (变声器).",
        ),
        ("text to speech", "Reads your text aloud in natural voices."),
        &[
            "change my voice in this recording so nobody recognizes it",
            "把这段录音变声成萌妹子的声音",
        ],
    );
}

#[test]
fn receivables_by_age_want_an_aging_report_not_an_invoice_maker() {
    prefers(
        (
            "receivables aging",
            "Accounts receivable aging from your invoices, by customer in 30-day buckets.",
        ),
        ("invoice maker", "Creates and sends invoices to clients."),
        &[
            "an accounts receivable aging report from our invoice export",
            "做一张应收账款账龄分析表",
        ],
    );
}

// `rank42`: jobs of the `heldout-38` batch whose words the concept map did not know; the listings
// are written for the tests, worded apart from the batch's.

#[test]
fn two_medicines_together_want_an_interaction_check_not_a_pill_reminder() {
    prefers(
        (
            "medicine clash check",
            "Tells whether medicines and supplements are safe to take together.",
        ),
        (
            "pill alarm",
            "Sends a reminder when it is time for the next pill.",
        ),
        &[
            "can I take aspirin together with my blood thinner, is it safe to take both",
            "感冒药和降压药能一起吃吗",
        ],
    );
    prefers(
        (
            "pill alarm",
            "Sends a reminder when it is time for the next pill.",
        ),
        (
            "medicine clash check",
            "Tells whether medicines and supplements are safe to take together.",
        ),
        &["remind grandpa to take his pill at 8 every night"],
    );
}

#[test]
fn a_name_for_a_newborn_is_no_brand_name() {
    prefers(
        (
            "newborn names",
            "Suggests baby names by meaning and origin for expecting parents.",
        ),
        (
            "brand namer",
            "Comes up with brand names and a slogan for a new shop.",
        ),
        &[
            "we need boy names for our son due in June",
            "给刚出生的女宝宝取个名字",
        ],
    );
}

#[test]
fn a_full_drive_wants_a_disk_analyzer_and_a_sorry_wants_an_apology_writer() {
    prefers(
        (
            "drive doctor",
            "Shows which folders use the most disk space and what is safe to delete.",
        ),
        (
            "photo shrinker",
            "Makes photos smaller so they load faster on a website.",
        ),
        &[
            "my laptop is running out of space, what is eating it",
            "C盘又红了，帮我看看",
        ],
    );
    prefers(
        (
            "sorry note writer",
            "Writes an apology to a customer or a friend that owns the mistake.",
        ),
        (
            "quit letter writer",
            "Writes a resignation letter with the notice period and last day.",
        ),
        &[
            "help me apologise to my neighbour for the noise",
            "帮我写一份检讨书",
        ],
    );
}

#[test]
fn objects_in_parentheses_are_details_and_libraries_are_no_makers() {
    use crate::rank::text::{in_parentheses, is_library};
    let t = "批量读取合同（word、pdf、扫描件），汇总成台账";
    assert!(in_parentheses(t, t.find("pdf").unwrap()));
    assert!(!in_parentheses(t, t.find("台账").unwrap()));
    let t = "transcribes audio files (mp3, wav) to text";
    assert!(in_parentheses(t, t.find("wav").unwrap()));
    assert!(!in_parentheses(t, t.find("audio").unwrap()));
    assert!(is_library(
        "Invitation Templates 8,000+",
        "Browse and copy."
    ));
    assert!(is_library("Cards Samples", "Over 20K+ samples to copy."));
    assert!(is_library("祝福语大全", ""));
    assert!(!is_library(
        "Template Filler",
        "Fills a Word template from the rows of a sheet."
    ));
    assert!(!is_library("Free Fonts 5000+", "Fonts to download."));
    // A listing that names a format only as what it reads is no tool for that format.
    prefers(
        (
            "pdf joiner",
            "Combines several PDF files into one document.",
        ),
        (
            "lease terms ledger",
            "Reads leases (Word, PDF, scans) and merges their key dates into one sheet.",
        ),
        &[
            "merge these two PDF files into one",
            "把两个 PDF 合并成一个",
        ],
    );
    // A library of ready-made invitations does not write one; asked for a template, it may.
    let mut v = Vocab::default();
    let lib = doc(
        &mut v,
        "Invitation Templates 8,000+",
        "8,000+ invitation templates for parties and weddings: copy, paste and send.",
    );
    let writer = doc(
        &mut v,
        "invitation writer",
        "Writes the invitation for a party or a wedding from the date, the place and the tone.",
    );
    let write = "write an invitation to my sister's engagement party";
    let a = v.analyze_text(write);
    let q = Query::new(&mut v, &a);
    let (ml, mw) = (match_doc(&q, &lib), match_doc(&q, &writer));
    assert!(ml.library && !mw.library && mw.strength > ml.strength);
    let a = v.analyze_text("find me a free invitation template for a wedding");
    let q = Query::new(&mut v, &a);
    assert!(!match_doc(&q, &lib).library);
}
