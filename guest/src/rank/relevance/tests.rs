//! Relevance: objects and actions, breadth, the side part, direction, and what the card shows.

use super::*;
use crate::rank::text::{Doc, Field, Vocab};

/// A document of a name and a description (first sentence and the rest), as the scorer makes it.
pub(super) fn doc(v: &mut Vocab, name: &str, description: &str) -> Doc {
    let (lead, body) = crate::render::first_sentence(description);
    Doc::new(
        v,
        &[
            (Field::Name, name),
            (Field::Lead, lead),
            (Field::Body, body),
        ],
    )
}

fn strength(v: &mut Vocab, d: &Doc, task: &str) -> Match {
    let a = v.analyze_text(task);
    let q = Query::new(v, &a);
    match_doc(&q, d)
}

#[test]
fn the_action_on_the_wrong_object_is_a_miss_not_half_a_hit() {
    let mut v = Vocab::default();
    let pdf = doc(
        &mut v,
        "pdf merge",
        "Combine several PDFs into a single file.",
    );
    let excel = doc(
        &mut v,
        "excel merge",
        "Merge several Excel workbooks into one sheet.",
    );
    for task in ["merge these PDFs", "把几个 PDF 合并成一个"] {
        let right = strength(&mut v, &pdf, task);
        let wrong = strength(&mut v, &excel, task);
        assert!(wrong.object_miss && !right.object_miss, "{task}");
        assert!(right.strength > 0.8, "{task}: {right:?}");
        assert!(
            wrong.strength < 0.25 * right.strength + 0.01,
            "{task}: {wrong:?}"
        );
    }
}

#[test]
fn an_action_counts_on_the_request_s_object_only() {
    let mut v = Vocab::default();
    // The catch-all translates, and reads PDFs: not "translates PDFs".
    let list = doc(
        &mut v,
        "assistant",
        "Helps you: translates, reads PDFs, drafts emails.",
    );
    let real = doc(
        &mut v,
        "pdf translator",
        "Translate PDF documents and keep the layout.",
    );
    let a = strength(&mut v, &list, "translate this PDF");
    let b = strength(&mut v, &real, "translate this PDF");
    assert!(b.strength > a.strength + 0.2, "{a:?} {b:?}");
}

#[test]
fn catch_alls_and_broad_listings_weigh_less() {
    assert_eq!(breadth_weight(3), 1.0);
    assert!(breadth_weight(20) < 0.6);
    assert!(breadth_weight(12) > breadth_weight(16));
    let mut v = Vocab::default();
    let all = doc(
        &mut v,
        "office everything",
        "All-in-one office AI: merge PDFs, translate, summarize, review contracts, make slides, edit video.",
    );
    let one = doc(
        &mut v,
        "pdf merge",
        "Combine several PDFs into a single file.",
    );
    let a = strength(&mut v, &all, "merge PDFs");
    let b = strength(&mut v, &one, "merge PDFs");
    assert!(a.catch_all && !b.catch_all);
    assert!(b.strength > a.strength, "{a:?} {b:?}");
}

#[test]
fn the_side_part_weighs_less_than_the_main_part() {
    let mut v = Vocab::default();
    let merge = doc(
        &mut v,
        "pdf merge",
        "Combine several PDFs into a single file.",
    );
    let split = doc(&mut v, "pdf split", "Delete or extract pages of a PDF.");
    let task = "Combine the PDFs into one, then delete the blank pages";
    let m = strength(&mut v, &merge, task);
    let s = strength(&mut v, &split, task);
    assert!(m.strength > s.strength, "main {m:?} side {s:?}");
}

#[test]
fn a_minor_action_is_the_means_and_the_other_the_goal() {
    let mut v = Vocab::default();
    let dl = doc(
        &mut v,
        "youtube downloader",
        "Download YouTube videos in any quality.",
    );
    let sum = doc(
        &mut v,
        "youtube summarizer",
        "Summarize a YouTube video from its transcript.",
    );
    let task = "download this YouTube talk and give me a summary";
    let d = strength(&mut v, &dl, task);
    let s = strength(&mut v, &sum, task);
    assert!(s.strength > d.strength, "{s:?} {d:?}");
}

#[test]
fn a_conversion_the_other_way_round_is_a_miss() {
    let mut v = Vocab::default();
    let to_word = doc(
        &mut v,
        "PDF to Word",
        "Convert PDF to an editable Word document.",
    );
    let to_pdf = doc(
        &mut v,
        "Office to PDF",
        "Convert Word, Excel and PowerPoint files to PDF.",
    );
    for task in ["Turn this Word doc into a PDF", "word 转 pdf"] {
        let w = strength(&mut v, &to_word, task);
        let p = strength(&mut v, &to_pdf, task);
        assert!(w.reversed && !p.reversed, "{task}: {w:?} {p:?}");
        assert!(p.strength > w.strength, "{task}");
    }
    let w = strength(&mut v, &to_word, "pdf 转 word");
    assert!(!w.reversed);
}

#[test]
fn a_listing_that_builds_its_target_from_the_asked_source_converts_that_way() {
    let mut v = Vocab::default();
    // "X from Y" reads Y → X; "exports it to Excel" adds budget → spreadsheet.
    let budget = doc(
        &mut v,
        "statement budgeter",
        "Builds a monthly budget from your bank statements and exports it to Excel.",
    );
    for task in [
        "turn my bank statements into a budget",
        "make a budget out of these bank statements and put it in Excel",
    ] {
        let m = strength(&mut v, &budget, task);
        assert!(!m.reversed, "{task}: {m:?}");
    }
    // The other way round is still a miss.
    let m = strength(&mut v, &budget, "turn my budget into a bank statement");
    assert!(m.reversed, "{m:?}");
    // Only an object in the marker's own clause is its source: "from scratch" makes nothing.
    let a = v.analyze_text(
        "Builds a monthly budget from scratch, reads your bank statements and exports it to Excel.",
    );
    let name = |c: usize| lexicon().concepts[c].name.as_str();
    assert!(
        a.directions
            .iter()
            .any(|&(s, d)| name(s) == "budget" && name(d) == "spreadsheet"),
        "{:?}",
        a.directions
    );
    assert!(
        !a.directions.iter().any(|&(_, d)| name(d) == "budget"),
        "{:?}",
        a.directions
    );
    // Without a making action before it, "from" names where the input comes from, not a target
    // made of it: the video is summarized, not made from the transcript.
    let a = v.analyze_text("Summarize a video from its transcript and export the summary to PDF.");
    assert!(
        !a.directions.iter().any(|&(_, d)| name(d) == "video"),
        "{:?}",
        a.directions
    );
}

#[test]
fn the_name_s_action_must_be_asked_for() {
    let mut v = Vocab::default();
    let tr = doc(
        &mut v,
        "pptx translator",
        "Translate PowerPoint decks, keeping layout and fonts.",
    );
    let m = strength(
        &mut v,
        &tr,
        "restyle my deck: the fonts are all over the place",
    );
    assert!(m.name_action_miss, "{m:?}");
}

#[test]
fn a_name_that_only_makes_is_another_action_when_the_request_asks_no_making() {
    let mut v = Vocab::default();
    let drafter = doc(
        &mut v,
        "Draft Agreements",
        "Write service agreements from a template: answer a few questions, get a file to sign.",
    );
    // Must: a review of an agreement the user already has is not what a maker does.
    let m = strength(
        &mut v,
        &drafter,
        "review this service agreement before I sign it",
    );
    assert!(m.name_action_miss, "{m:?}");
    // Must not: a request to make one is what it does.
    let m = strength(&mut v, &drafter, "write a service agreement for my client");
    assert!(!m.name_action_miss, "{m:?}");
    // Must not: a maker's name stays no other action for a request with only generic verbs.
    let charts = doc(
        &mut v,
        "Make Bar Charts",
        "Make bar and line charts from spreadsheet columns.",
    );
    let m = strength(&mut v, &charts, "a bar chart of these spreadsheet columns");
    assert!(!m.name_action_miss, "{m:?}");
    // Must not: drawing a chart (`visualize`) is making one, in either language.
    let m = strength(
        &mut v,
        &charts,
        "plot the monthly totals of this spreadsheet",
    );
    assert!(!m.name_action_miss, "{m:?}");
    let m = strength(&mut v, &charts, "把这个表格里每个月的数据画成柱状图");
    assert!(!m.name_action_miss, "{m:?}");
}

#[test]
fn typos_are_read_as_the_lexicon_word_one_edit_away() {
    let v = Vocab::default();
    assert_eq!(correct_typos(&v, "mrege pdfs"), "merge pdfs");
    assert_eq!(
        correct_typos(&v, "extarct tabels from pdf to exel"),
        "extract tables from pdf to excel"
    );
    // A four-letter word is only corrected for a missing or swapped letter, and known words stay.
    assert_eq!(correct_typos(&v, "tune my guitar"), "tune my guitar");
    assert_eq!(correct_typos(&v, "merge sheets"), "merge sheets");
    // A slip rarely hits the first letter: a real word is not read as another one.
    assert_eq!(
        correct_typos(&v, "engine light keeps coming on"),
        "engine light keeps coming on"
    );
    // One wrong letter is corrected in long words only: a short real word one letter from a
    // lexicon word is another word ('taken' is no 'token', 'lever' no 'level').
    assert_eq!(
        correct_typos(&v, "have I taken my tablets"),
        "have I taken my tablets"
    );
    assert_eq!(
        correct_typos(&v, "summerize this meeting"),
        "summarize this meeting"
    );
}

#[test]
fn a_wrong_letter_is_a_slip_only_on_a_neighbouring_key_or_a_vowel() {
    let v = Vocab::default();
    // Must: a neighbouring key (t/r), a vowel for a vowel (e/a).
    assert_eq!(
        correct_typos(&v, "extracr the tables"),
        "extract the tables"
    );
    assert_eq!(correct_typos(&v, "summerize it"), "summarize it");
    // Must not: a far consonant makes another real word ('remote' is no 'remove').
    assert_eq!(
        correct_typos(&v, "set up remote access"),
        "set up remote access"
    );
    assert!(super::typos::keys_touch(b'a', b'q') && super::typos::keys_touch(b'a', b'z'));
    assert!(super::typos::keys_touch(b'g', b'h') && !super::typos::keys_touch(b't', b'v'));
    assert!(!super::typos::keys_touch(b'q', b'p') && !super::typos::keys_touch(b'1', b'q'));
}

#[test]
fn script_decides_the_cut_off_language() {
    assert_eq!(script_of("merge pdfs"), Script::Latin);
    assert_eq!(script_of("把年报 PDF 里的表格导出到 Excel"), Script::Han);
    assert_eq!(
        script_of("这个 PDF 里有好几个 table，能不能 export 成 xlsx"),
        Script::Mixed
    );
}

#[test]
fn the_card_shows_words_and_concepts_never_fragments() {
    let mut v = Vocab::default();
    let d = doc(
        &mut v,
        "meeting-minutes-cn",
        "把会议录音转成文字，并整理成带待办事项和负责人的中文会议纪要。",
    );
    let a = v.analyze_text("把会议录音整理成纪要");
    let q = Query::new(&mut v, &a);
    let m = match_doc(&q, &d);
    let shown = display_terms(&q, &m.matched);
    assert!(
        shown.contains(&"会议".to_owned()) && shown.contains(&"纪要".to_owned()),
        "{shown:?}"
    );
    for bad in ["把会", "议录", "音整"] {
        assert!(!shown.iter().any(|s| s == bad), "{shown:?}");
    }
    // English: the words as written, not their stems.
    let d = doc(
        &mut v,
        "pdf-table-extract",
        "Extract tables from PDF documents into Excel.",
    );
    let a = v.analyze_text("extract tables from a PDF into a spreadsheet");
    let q = Query::new(&mut v, &a);
    let shown = display_terms(&q, &match_doc(&q, &d).matched);
    assert!(shown.contains(&"tables".to_owned()), "{shown:?}");
    assert!(!shown.iter().any(|s| s == "tabl"), "{shown:?}");
}

#[test]
fn a_listing_without_objects_does_its_action_on_anything() {
    let mut v = Vocab::default();
    let proof = doc(
        &mut v,
        "grammar fix",
        "Proofread English: grammar, spelling and punctuation.",
    );
    let writer = doc(
        &mut v,
        "email drafter",
        "Writes emails from bullet points. Also proofreads contracts.",
    );
    let task = "proofread my cover letter for spelling mistakes";
    let right = strength(&mut v, &proof, task);
    let wrong = strength(&mut v, &writer, task);
    // The proofreader names no object, so its action is not bound to another one.
    assert!(right.strength > 0.3, "{right:?}");
    assert!(right.strength > 2.0 * wrong.strength, "{right:?} {wrong:?}");
}

fn units_of(v: &mut Vocab, task: &str) -> Query {
    let a = v.analyze_text(task);
    Query::new(v, &a)
}

fn side_of(q: &Query, concept: &str) -> Option<bool> {
    let lex = lexicon();
    q.units.iter().find_map(|u| match u.kind {
        UnitKind::Concept { concept: c, .. } if lex.concepts[c].name == concept => Some(u.side),
        _ => None,
    })
}

#[test]
fn a_declined_alternative_is_a_constraint_and_an_a_not_a_question_is_none() {
    let mut v = Vocab::default();
    // "Not this, but that": the declined job weighs as a side part.
    let q = units_of(&mut v, "不是要做新的幻灯片，是把现成这套弄整齐");
    assert_eq!(side_of(&q, "create"), Some(true));
    let q = units_of(
        &mut v,
        "Not looking to translate the manual, I just want to ask it about the warranty",
    );
    assert_eq!(side_of(&q, "translate"), Some(true));
    let q = units_of(&mut v, "summarize the thread instead of translating it");
    assert_eq!(side_of(&q, "translate"), Some(true));
    assert_eq!(side_of(&q, "summarize"), Some(false));
    // 要不要, 是不是要: a yes-no question asks, it does not negate.
    let q = units_of(&mut v, "这份合同要不要翻译成英文");
    assert_eq!(side_of(&q, "translate"), Some(false));
    let q = units_of(&mut v, "是不是要重新翻译一遍");
    assert_eq!(side_of(&q, "translate"), Some(false));
    assert!(a_not_a("要不要", 3, "不要"));
    assert!(!a_not_a("我不要", 3, "不要"));
}

#[test]
fn detail_after_a_colon_and_constraints_after_a_negation_weigh_as_a_side_part() {
    let mut v = Vocab::default();
    // The report is the job; the bugs and the review are its content.
    let q = units_of(&mut v, "帮我写本周周报：修了三个 bug，做了代码评审");
    assert_eq!(side_of(&q, "weekly-report"), Some(false));
    assert_eq!(side_of(&q, "review"), Some(true));
    assert!(
        !q.objects
            .iter()
            .any(|&o| lexicon().concepts[o].name == "bug")
    );
    // Without an object and an action before it, a colon is no such break.
    let q = units_of(&mut v, "Question: can you review this contract?");
    assert_eq!(side_of(&q, "contract"), Some(false));
    // A time is no colon break.
    let q = units_of(&mut v, "translate the slides for the 10:30 review");
    assert_eq!(side_of(&q, "review"), Some(false));
    // What follows a negation in its clause is a constraint.
    let q = units_of(
        &mut v,
        "undo my last commit without losing my changes, then summarize it",
    );
    assert_eq!(side_of(&q, "undo"), Some(false));
    assert_eq!(side_of(&q, "edit"), Some(true));
    let q = units_of(&mut v, "把幻灯片的字体统一一下，内容别修改");
    assert_eq!(side_of(&q, "format"), Some(false));
    assert_eq!(side_of(&q, "edit"), Some(true));
}

#[test]
fn a_name_that_makes_something_or_whose_lead_does_the_job_is_no_name_action_miss() {
    let mut v = Vocab::default();
    let chart = doc(
        &mut v,
        "chart maker",
        "Make clean bar and line charts from CSV data.",
    );
    let m = strength(&mut v, &chart, "plot monthly revenue from this csv");
    assert!(!m.name_action_miss, "{m:?}");
    let polish = doc(
        &mut v,
        "deck polish",
        "Restyles an existing PowerPoint: consistent fonts and colors.",
    );
    let m = strength(&mut v, &polish, "restyle my deck, the fonts are a mess");
    assert!(!m.name_action_miss, "{m:?}");
    // The mismatch lowers the order only, never the strength the cut-off reads.
    let dl = doc(
        &mut v,
        "youtube downloader",
        "Download YouTube videos and their subtitles.",
    );
    let m = strength(&mut v, &dl, "summarize this youtube video");
    assert!(m.name_action_miss && m.order_weight < 1.0, "{m:?}");
}

#[test]
fn a_listing_only_in_the_other_language_orders_a_little_lower_but_keeps_its_strength() {
    let mut v = Vocab::default();
    let en = doc(
        &mut v,
        "contract review",
        "Reviews contracts clause by clause and flags risky terms.",
    );
    let zh = doc(
        &mut v,
        "hetong-shencha",
        "合同审查：自动识别合同中的风险条款，给出修改建议。",
    );
    let both = doc(
        &mut v,
        "contract review 合同审查",
        "Reviews contracts and flags risky terms. 合同审查，标出风险条款。",
    );
    let task = "review this contract for risky terms";
    let (m_en, m_zh, m_both) = (
        strength(&mut v, &en, task),
        strength(&mut v, &zh, task),
        strength(&mut v, &both, task),
    );
    assert!(!m_en.other_language && !m_both.other_language);
    assert!(m_zh.other_language, "{m_zh:?}");
    // (Its name is pinyin: nothing it matches is in it, which weighs apart from the language.)
    let name = if m_zh.no_name_evidence {
        NO_NAME_EVIDENCE
    } else {
        1.0
    };
    assert!(
        (m_zh.order_weight - LANGUAGE_FIT * name).abs() < 1e-9,
        "{m_zh:?}"
    );
    // The cut-off reads the strength, which the language does not lower.
    assert!(m_zh.strength > 0.5, "{m_zh:?}");
    // The reverse: a Chinese request and an English-only listing.
    let m = strength(&mut v, &en, "帮我审查这份合同的风险条款");
    assert!(m.other_language);
    // A mixed-language request prefers neither.
    let m = strength(&mut v, &zh, "帮我 review 一下这个 contract 的 risk");
    assert!(!m.other_language);
}

#[test]
fn an_action_whose_clause_names_another_object_is_that_object_s() {
    let mut v = Vocab::default();
    // PDF in the name, but the merge is of table cells.
    let tables = doc(
        &mut v,
        "pdf table extract",
        "Extracts tables from PDF files into Excel. Restores merged table cells, handles scans.",
    );
    let merger = doc(
        &mut v,
        "pdf merge",
        "Combine several PDFs into a single file.",
    );
    for task in ["merge these PDFs", "把这几个 PDF 合并成一个"] {
        let wrong = strength(&mut v, &tables, task);
        let right = strength(&mut v, &merger, task);
        assert!(
            wrong.strength < 0.8 * right.strength,
            "{task}: {wrong:?} against {right:?}"
        );
    }
    // An action with no object of its own still rides on the name: "merge files" in a PDF toolkit.
    let toolkit = doc(
        &mut v,
        "pdf toolkit",
        "Page toolkit: merge files, split, delete pages.",
    );
    let m = strength(&mut v, &toolkit, "merge these PDFs");
    assert!(m.strength > 0.8, "{m:?}");
}

#[test]
fn a_listing_that_only_makes_the_object_out_of_another_is_half_a_match() {
    let mut v = Vocab::default();
    let maker = doc(
        &mut v,
        "image to pdf",
        "Turn photos and screenshots into one PDF, straightened and cropped.",
    );
    let m = strength(&mut v, &maker, "merge these PDFs");
    assert!(m.target_only, "{m:?}");
    // Asked to make the PDF from photos, it is the job.
    let m = strength(&mut v, &maker, "make one PDF out of these photos");
    assert!(!m.target_only, "{m:?}");
    let m = strength(&mut v, &maker, "把这几张照片弄成一个 PDF");
    assert!(!m.target_only && !m.reversed, "{m:?}");
}

#[test]
fn one_offered_conversion_is_enough() {
    let mut v = Vocab::default();
    let gif = doc(
        &mut v,
        "gif maker",
        "Turn a screen recording into a small GIF.",
    );
    let m = strength(
        &mut v,
        &gif,
        "Turn this screen recording into a GIF for the README",
    );
    assert!(!m.reversed, "{m:?}");
}

#[test]
fn a_request_that_names_only_generic_objects_does_not_make_a_specific_listing_a_miss() {
    let mut v = Vocab::default();
    let splitter = doc(
        &mut v,
        "sheet splitter",
        "Split one large Excel sheet into parts by the values of a column.",
    );
    // 'data' and 'file' say nothing about the format: a spreadsheet splitter is no other object.
    for task in [
        "split the sales data into a few files by region",
        "把销售数据按地区拆成几个文件",
    ] {
        let m = strength(&mut v, &splitter, task);
        assert!(!m.object_miss, "{task}: {m:?}");
    }
    // A specific object the listing lacks still is a miss.
    let m = strength(&mut v, &splitter, "split this PDF into chapters");
    assert!(m.object_miss, "{m:?}");
}

#[test]
fn a_core_match_has_the_goal_action_on_the_request_s_object() {
    let mut v = Vocab::default();
    let merge = doc(
        &mut v,
        "pdf merge",
        "Combine several PDFs into a single file.",
    );
    let reader = doc(
        &mut v,
        "pdf reader",
        "Open any PDF, highlight, annotate and bookmark.",
    );
    let excel = doc(
        &mut v,
        "excel merge",
        "Merge several Excel workbooks into one sheet.",
    );
    // Long requests dilute the strength with their other words; the structure stays.
    let task = "the three PDFs my accountant sent on Friday for the audit, merge them";
    assert!(strength(&mut v, &merge, task).core);
    // The object without the action, and the action on another object, are no core match.
    assert!(!strength(&mut v, &reader, task).core);
    assert!(!strength(&mut v, &excel, task).core);
    // A request that names no specific object has no structure to trust.
    let m = strength(&mut v, &merge, "combine them, the usual way");
    assert!(!m.core, "{m:?}");
}

#[test]
fn a_match_on_one_action_topic_or_free_word_of_a_longer_request_is_single() {
    let mut v = Vocab::default();
    let seo = doc(
        &mut v,
        "seo tuning",
        "Tune your site's pages so they rank higher on search engines.",
    );
    let pets = doc(
        &mut v,
        "pet health",
        "Describe your cat's or dog's symptoms and learn the likely causes.",
    );
    let merge = doc(
        &mut v,
        "pdf merge",
        "Combine several PDFs into a single file.",
    );
    // Only the action of a request that also names something else matches: single. (Not "tune
    // my guitar": instrument tuning is a concept of its own since heldout-41.)
    let m = strength(&mut v, &seo, "tune my sourdough starter");
    assert!(m.strength > 0.0 && m.single, "{m:?}");
    // A specific object carries its own evidence (a right pet-health pick often shares only
    // the pet), and so does a match on two places of the request.
    assert!(!strength(&mut v, &pets, "my cat keeps sneezing, should I worry").single);
    assert!(!strength(&mut v, &merge, "merge these PDFs").single);
    // A one-word request has nothing else to match.
    assert!(!strength(&mut v, &merge, "merge").single);
    // A concept the request comes back to in another place is what it is about.
    let web = doc(
        &mut v,
        "web research",
        "Searches the web and returns a digest with sources.",
    );
    assert!(strength(&mut v, &web, "帮我搜一下固态电池").single);
    assert!(!strength(&mut v, &web, "查一下固态电池有什么新进展，每条都要有来源").single);
}

#[test]
fn a_match_on_generic_actions_alone_is_single() {
    let mut v = Vocab::default();
    let slides = doc(
        &mut v,
        "slide maker",
        "Write and design slides for your class and answer the questions pupils ask about them.",
    );
    // Only 'write' / 'how do I' matched; what the request is about (a barbecue banner, a cake)
    // the listing lacks.
    let m = strength(
        &mut v,
        &slides,
        "write a funny line for the banner at my grandpa's barbecue",
    );
    assert!(m.strength > 0.0 && m.single, "{m:?}");
    let m = strength(&mut v, &slides, "蛋糕烤出来总是塌怎么办，做的时候要注意啥");
    assert!(m.strength > 0.0 && m.single, "{m:?}");
    // On the request's object the verb is evidence: not single.
    assert!(!strength(&mut v, &slides, "write slides for my class on volcanoes").single);
    // A request of generic actions only has nothing else the listing could lack.
    assert!(!strength(&mut v, &slides, "write one").single);
}

#[test]
fn a_conversion_to_a_narrower_kind_of_the_target_is_the_asked_one() {
    let mut v = Vocab::default();
    let csv = doc(
        &mut v,
        "pdf tables",
        "Extracts tables from text-based PDFs as CSV files.",
    );
    let word = doc(
        &mut v,
        "pdf to word",
        "Convert PDF to an editable Word document.",
    );
    for task in ["pdf tables to excel", "把 PDF 表格转成 Excel"] {
        let m = strength(&mut v, &csv, task);
        assert!(!m.reversed && m.strength > 0.4, "{task}: {m:?}");
        // Another target is still a miss.
        assert!(strength(&mut v, &word, task).reversed, "{task}");
    }
    // A CSV-only listing is a narrower match for an Excel request than an Excel one.
    let excel = doc(
        &mut v,
        "excel cleaner",
        "Removes duplicate rows from Excel workbooks.",
    );
    let csv_clean = doc(
        &mut v,
        "csv cleaner",
        "Removes duplicate rows from CSV files.",
    );
    let task = "remove duplicate rows from this Excel workbook";
    assert!(strength(&mut v, &excel, task).strength > strength(&mut v, &csv_clean, task).strength);
}

fn reach_of(v: &mut Vocab, task: &str) -> Reach {
    let a = v.analyze_text(task);
    Query::new(v, &a).reach()
}

/// Texts for the reach tests: English, Chinese (dictionary words, concepts and uncovered
/// stretches), mixed, stop words only, punctuation, empty.
const REACH_TEXTS: &[&str] = &[
    "Combine several PDFs into a single file.",
    "Merge Excel workbooks, then export them as CSV; fast!",
    "PDF合并工具：把几个文件合成一个",
    "帮你整理会议纪要和待办事项",
    "猫砂盆自动清理提醒",
    "Track your running workouts and daily steps",
    "the and of with to",
    "skill 12345 v2.3 .xlsx 2026-10-01",
    "用 Python 写爬虫 scraper，然后存到 Excel",
    "",
    "…!!! ---",
    "一",
];

/// [`Vocab::count_tokens`] is [`Doc`]'s field length of the text's analysis and
/// [`Reach::touches`] of it, for every text and request.
#[test]
fn counting_a_text_gives_what_its_analysis_gives() {
    let tasks = [
        "merge pdf files",
        "把 PDF 表格转成 Excel",
        "猫砂盆",
        "summarize meeting notes",
        "tune my guitar",
        "写一首诗",
    ];
    for task in tasks {
        for text in REACH_TEXTS {
            let mut v = Vocab::default();
            let reach = reach_of(&mut v, task);
            let a = v.analyze_text(text);
            let (n, touched) = reach.count(&mut v, text);
            assert_eq!(n, a.tokens.len() + a.concepts.len(), "{task:?} / {text:?}");
            assert_eq!(touched, reach.touches(&a), "{task:?} / {text:?}");
        }
    }
}

/// What a request can match: its objects and actions in either language, its free words and the
/// bigrams of its uncovered Chinese stretches; not a text that shares none of them.
#[test]
fn reach_holds_the_requests_tokens_and_concepts() {
    let cases: &[(&str, &str, bool)] = &[
        (
            "merge pdf files",
            "Combine several PDFs into a single file.",
            true,
        ),
        ("merge pdf files", "PDF合并工具：把几个文件合成一个", true),
        (
            "merge pdf files",
            "Track your running workouts and daily steps",
            false,
        ),
        ("merge pdf files", "帮你整理会议纪要和待办事项", false),
        (
            "summarize meeting notes",
            "帮你整理会议纪要和待办事项",
            true,
        ),
        ("猫砂盆", "猫砂盆自动清理提醒", true),
        ("猫砂盆", "帮你整理会议纪要和待办事项", false),
        (
            "tune my guitar",
            "Track your running workouts and daily steps",
            false,
        ),
        ("merge pdf files", "the and of with to", false),
        ("merge pdf files", "", false),
    ];
    for &(task, text, expected) in cases {
        let mut v = Vocab::default();
        let reach = reach_of(&mut v, task);
        assert_eq!(reach.count(&mut v, text).1, expected, "{task:?} / {text:?}");
        let a = v.analyze_text(text);
        assert_eq!(reach.touches(&a), expected, "{task:?} / {text:?}");
    }
}

#[test]
fn a_finished_action_describes_the_object_and_is_no_goal() {
    let mut v = Vocab::default();
    // Must: a verb with 好了 / 完了 / 好的, or 了 before what it made, was already done.
    let q = units_of(&mut v, "视频剪好了，就差配上字幕");
    assert_eq!(side_of(&q, "cut"), Some(true));
    assert_eq!(side_of(&q, "subtitle"), Some(false));
    assert_eq!(q.done.len(), 1);
    assert_eq!(q.done[0].1, "剪好了");
    let q = units_of(&mut v, "闺女写了篇作文，帮我看看能打几分");
    assert_eq!(side_of(&q, "create"), Some(true));
    assert_eq!(side_of(&q, "essay"), Some(false));
    // Must not: the ask itself, a state that came about (sentence-final 了), a question.
    let q = units_of(&mut v, "帮我写一篇作文");
    assert_eq!(side_of(&q, "create"), Some(false));
    assert!(q.done.is_empty());
    let q = units_of(&mut v, "照片发黄了，能修吗");
    assert_eq!(side_of(&q, "restore"), Some(false));
    let q = units_of(&mut v, "作文写完了吗");
    assert_eq!(side_of(&q, "create"), Some(false));
    // English past tenses are not read (no aspect marker).
    let q = units_of(&mut v, "I wrote an essay, please grade it");
    assert!(q.done.is_empty());
}

#[test]
fn the_task_detail_says_what_was_already_done() {
    let mut v = Vocab::default();
    let d = doc(
        &mut v,
        "口播视频剪辑",
        "剪辑视频：去除停顿和口误，一键导出成片。",
    );
    let a = v.analyze_text("视频剪好了，就差配上字幕");
    let q = Query::new(&mut v, &a);
    let m = match_doc(&q, &d);
    assert!(
        m.matched
            .iter()
            .any(|&i| side_of_unit(&q, i) == Some("cut"))
    );
    let zh = crate::rank::factors::task_detail(&q, &m, false, 0.5, crate::Lang::Zh);
    assert!(zh.contains("「剪好了」是已经做完的事"), "{zh}");
    let en = crate::rank::factors::task_detail(&q, &m, false, 0.5, crate::Lang::En);
    assert!(en.contains("“剪好了” is what was already done"), "{en}");
    // A listing that did not match the finished action gets no such note.
    let other = doc(
        &mut v,
        "Auto Subtitles",
        "Auto-generate subtitles for any video.",
    );
    let m = match_doc(&q, &other);
    let en = crate::rank::factors::task_detail(&q, &m, false, 0.5, crate::Lang::En);
    assert!(!en.contains("already done"), "{en}");
}

fn side_of_unit(q: &Query, i: usize) -> Option<&'static str> {
    match q.units[i].kind {
        UnitKind::Concept { concept, .. } => Some(lexicon().concepts[concept].name.as_str()),
        UnitKind::Words(_) => None,
    }
}

#[test]
fn a_topic_counts_half_on_a_listing_broader_than_the_free_breadth() {
    let mut v = Vocab::default();
    let broad = doc(
        &mut v,
        "Home Helper",
        "Every household question answered: cleaning and stain removal, laundry, DIY repairs, \
         appliances, car care, gardening, pets, parenting tips, cooking and moving checklists.",
    );
    assert!(f64::from(broad.breadth) > BREADTH_FREE, "{}", broad.breadth);
    let focused = doc(
        &mut v,
        "Home Cleaning Tips",
        "Household cleaning tips for every room of your home.",
    );
    assert!(f64::from(focused.breadth) <= BREADTH_FREE);
    let task = "家里的猫老是掉毛，正常吗";
    let a = v.analyze_text(task);
    let q = Query::new(&mut v, &a);
    assert!(
        q.units.iter().any(|u| matches!(
            u.kind,
            UnitKind::Concept {
                kind: Kind::Topic,
                ..
            }
        )),
        "the request names a topic"
    );
    // Must: the broad listing's match on the topic is halved, and the detail says so.
    let m = match_doc(&q, &broad);
    assert!(m.broad_topic);
    let en = crate::rank::factors::task_detail(&q, &m, false, 0.3, crate::Lang::En);
    assert!(
        en.contains("the topic") && en.contains("counts half"),
        "{en}"
    );
    // Must not: a listing within the free breadth keeps its topic whole.
    let m = match_doc(&q, &focused);
    assert!(!m.broad_topic);
    let en = crate::rank::factors::task_detail(&q, &m, false, 0.3, crate::Lang::En);
    assert!(!en.contains("counts half"), "{en}");
}

/// The same-job twin rule: only an other-language listing whose parts matched an own-language,
/// specific listing matches as strongly (nearly) orders lower; every other listing is left as is.
#[test]
fn an_other_language_listing_orders_lower_only_beside_its_own_language_twin() {
    let m = |matched: &[usize], strength: f64, other_language: bool, catch_all: bool| Match {
        strength,
        order_weight: if other_language { LANGUAGE_FIT } else { 1.0 },
        matched: matched.to_vec(),
        other_language,
        catch_all,
        ..Match::default()
    };
    let mut ms = vec![
        // A foreign listing for the same two parts as an own-language one at 90% of its strength.
        m(&[0, 2], 0.8, true, false),
        m(&[0, 2], 0.72, false, false),
        // A foreign listing whose only own-language rival matches fewer parts: no twin.
        m(&[1, 3], 0.7, true, false),
        m(&[1], 0.7, false, false),
        // Same parts, but the own-language rival is a catch-all or much weaker: no twin.
        m(&[4], 0.9, true, false),
        m(&[4], 0.9, false, true),
        m(&[5], 0.9, true, false),
        m(&[5], 0.5, false, false),
    ];
    prefer_same_language_twin(&mut ms);
    assert!(
        (ms[0].order_weight - TWIN_LANGUAGE_FIT).abs() < 1e-9,
        "{:?}",
        ms[0]
    );
    assert!((ms[1].order_weight - 1.0).abs() < 1e-9);
    for i in [2, 4, 6] {
        assert!(
            (ms[i].order_weight - LANGUAGE_FIT).abs() < 1e-9,
            "{i}: {:?}",
            ms[i]
        );
    }
}
