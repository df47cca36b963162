//! The analyzer, the segmentation and BM25F.

use super::*;
use crate::rank::lexicon::lexicon;

fn has(toks: &[String], t: &str) -> bool {
    toks.iter().any(|x| x == t)
}

#[test]
fn chinese_runs_are_segmented_into_words_and_concepts() {
    let toks = analyze("把 PDF 表格转成 Excel");
    for t in [
        "pdf",
        "表格",
        "转成",
        "excel",
        "@pdf",
        "@table",
        "@convert",
        "@spreadsheet",
    ] {
        assert!(has(&toks, t), "{t} missing from {toks:?}");
    }
    // Words, not bigrams that straddle them.
    assert!(!has(&toks, "格转"), "{toks:?}");
    assert!(!has(&toks, "把"), "stop word kept: {toks:?}");
}

#[test]
fn meeting_words_are_words_not_fragments() {
    let toks = analyze("把会议录音整理成纪要");
    for t in ["会议", "录音", "纪要", "@meeting", "@audio", "@minutes"] {
        assert!(has(&toks, t), "{t} missing from {toks:?}");
    }
    for bad in ["把会", "议录", "音整"] {
        assert!(!has(&toks, bad), "{bad} in {toks:?}");
    }
}

#[test]
fn uncovered_chinese_stretches_fall_back_to_bigrams() {
    // No dictionary word for these characters: bigrams keep them searchable.
    let mut v = Vocab::default();
    let a = v.analyze_text("魑魅魍魉");
    let grams: Vec<&str> = a.tokens.iter().map(|t| v.text(t.id)).collect();
    assert_eq!(grams, ["魑魅", "魅魍", "魍魉"]);
    assert!(
        a.tokens
            .iter()
            .all(|t| t.kind == TokKind::CjkGram && t.free)
    );
    assert!(a.tokens.iter().all(|t| t.stretch == a.tokens[0].stretch));
}

#[test]
fn english_words_are_stemmed_and_inflections_meet_concepts() {
    let toks = analyze("Extracts tables from PDFs; merged files");
    for t in [
        "extract", "tabl", "@table", "@pdf", "@extract", "@merge", "@file",
    ] {
        assert!(has(&toks, t), "{t} missing from {toks:?}");
    }
}

#[test]
fn ascii_terms_match_whole_words_only() {
    // `ci` is a devops term; it must not fire inside `social` or `recipe`.
    let toks = analyze("social recipes");
    assert!(!has(&toks, "@ci"), "{toks:?}");
    assert!(has(&toks, "@recipe"), "{toks:?}");
}

#[test]
fn mixed_script_runs_split_at_the_script_change() {
    let toks = analyze("导出为Excel文件");
    assert!(has(&toks, "excel"), "{toks:?}");
    // 导出为 is one word (a direction marker) that still names the conversion.
    assert!(has(&toks, "导出为") && has(&toks, "@convert"), "{toks:?}");
    assert!(has(&toks, "文件"), "{toks:?}");
}

#[test]
fn clauses_and_the_side_part_are_marked() {
    let mut v = Vocab::default();
    let a = v.analyze_text("把三个 PDF 合成一个，再把最后一页删掉");
    let lex = lexicon();
    let find = |name: &str| {
        a.concepts
            .iter()
            .find(|c| lex.concepts[c.concept].name == name)
            .copied()
            .unwrap_or_else(|| panic!("{name} missing"))
    };
    assert!(!find("merge").side && !find("pdf").side);
    assert!(find("delete").side, "deleting pages is the side part");
    assert!(find("delete").clause > find("merge").clause);
    let en = v.analyze_text("Combine the PDFs, then remove the blank pages");
    assert!(
        en.concepts
            .iter()
            .any(|c| c.side && lex.concepts[c.concept].name == "delete")
    );
    assert!(
        en.concepts
            .iter()
            .any(|c| !c.side && lex.concepts[c.concept].name == "merge")
    );
}

#[test]
fn bm25_prefers_the_field_weighted_match_and_the_rarer_term() {
    let mut v = Vocab::default();
    let docs = vec![
        Doc::new(
            &mut v,
            &[(Field::Name, "pdf-merge"), (Field::Body, "merge files")],
        ),
        Doc::new(
            &mut v,
            &[(Field::Name, "notes"), (Field::Body, "keeps pdf notes")],
        ),
        Doc::new(
            &mut v,
            &[(Field::Name, "calendar"), (Field::Body, "family calendar")],
        ),
    ];
    let q: Vec<(u32, f64)> = distinct(&v.analyze("pdf"))
        .into_iter()
        .map(|t| (t, 1.0))
        .collect();
    let ix = Index::new(&docs, &v);
    let (a, _) = ix.score(0, &q);
    let (b, _) = ix.score(1, &q);
    let (c, m) = ix.score(2, &q);
    assert!(a > b && b > 0.0, "name beats description: {a} {b}");
    assert_eq!((c, m.len()), (0.0, 0));
}

#[test]
fn interning_stems_each_word_once_and_keeps_stop_words_out() {
    let mut v = Vocab::default();
    let a = v.analyze("Tables and tables, the TABLE");
    assert!(a[..3].iter().all(|&id| v.text(id) == "tabl"), "{a:?}");
    assert!(a[3..].iter().all(|&id| v.text(id) == "@table"));
    assert!(v.is_concept(a[3]));
}

#[test]
fn doc_breadth_counts_kinds_of_one_object_once() {
    let mut v = Vocab::default();
    let one = Doc::new(
        &mut v,
        &[(
            Field::Lead,
            "Turns statements in PDF into a clean list in Excel.",
        )],
    );
    // CSV and XLSX are kinds of spreadsheet: naming them as well claims no new job.
    let kinds = Doc::new(
        &mut v,
        &[(
            Field::Lead,
            "Turns statements in PDF into a clean list in Excel, CSV or XLSX.",
        )],
    );
    assert_eq!(one.breadth, kinds.breadth);
    // Another object is another job.
    let other = Doc::new(
        &mut v,
        &[(
            Field::Lead,
            "Turns statements in PDF into a clean list in Excel, or into a video.",
        )],
    );
    assert_eq!(other.breadth, one.breadth + 1);
    let lex = lexicon();
    let id = |n: &str| lex.concepts.iter().position(|c| c.name == n).unwrap();
    assert_eq!(lex.kin_root(id("csv")), id("spreadsheet"));
    assert_eq!(lex.kin_root(id("nda")), id("contract"));
    // A generic broader concept (a bank statement is a document) is not a kind to collapse into.
    assert_eq!(lex.kin_root(id("bank-statement")), id("bank-statement"));
    assert_eq!(lex.kin_root(id("video")), id("video"));
}

#[test]
fn doc_breadth_counts_distinct_objects_and_actions() {
    let mut v = Vocab::default();
    let narrow = Doc::new(
        &mut v,
        &[
            (Field::Name, "pdf merge"),
            (Field::Lead, "Combine several PDFs into one file."),
        ],
    );
    let broad = Doc::new(
        &mut v,
        &[(
            Field::Lead,
            "AI assistant: writes, translates, makes PPT, reads PDFs, Excel, reviews contracts, summarizes meetings, edits videos, plans trips.",
        )],
    );
    assert!(narrow.breadth <= 4, "{}", narrow.breadth);
    assert!(broad.breadth >= 12, "{}", broad.breadth);
}

/// Words that end in a digit skip the stemmer: it would return them unchanged. Words that do not
/// (or hold anything but ASCII letters and digits) are still stemmed.
#[test]
fn words_ending_in_a_digit_are_their_own_stems() {
    let stemmer = crate::rank::lexicon::stemmer();
    for w in [
        "2", "2024", "v3", "s1234", "mp3", "files2", "ies1", "sing7", "y9",
    ] {
        assert!(matches!(stem_of(w), std::borrow::Cow::Borrowed(_)), "{w}");
        assert_eq!(stem_of(w), stemmer.stem(w), "{w}");
    }
    for (w, stem) in [("files", "file"), ("merging", "merg"), ("3ds", "3ds")] {
        assert_eq!(stem_of(w), stemmer.stem(w), "{w}");
        assert_eq!(stem_of(w), stem, "{w}");
    }
    // Not ASCII letters and digits only: left to the stemmer.
    assert_eq!(stem_of("'s2"), stemmer.stem("'s2"));
    assert_eq!(stem_of("é2"), stemmer.stem("é2"));
}

proptest::proptest! {
    /// The shortcut gives the stemmer's own answer for any word of letters and digits.
    #[test]
    fn stem_of_is_the_stemmers(w in "[a-z0-9y']{0,10}[0-9]?") {
        proptest::prop_assert_eq!(stem_of(&w), crate::rank::lexicon::stemmer().stem(&w));
    }
}

#[test]
fn a_first_sentence_list_counts_its_claims() {
    // A household catch-all whose claims the concept map mostly does not name.
    let home = "Home Hero AI every household question answered: cleaning and stain removal, \
                laundry, DIY repairs, appliances, car care, gardening, pets, parenting tips, \
                cooking and moving checklists.";
    assert_eq!(enumerated_claims(home), 11);
    assert_eq!(
        enumerated_claims("生活百事通：做饭菜谱、衣物去渍、家电维修、养花养宠、育儿经验、健身减肥"),
        6
    );
    // No colon: no enumerated list; a short list stays under the free breadth.
    assert_eq!(
        enumerated_claims("Combine several PDFs into a single file, in any order."),
        0
    );
    assert!(
        enumerated_claims("PDF page toolkit: merge files, split, delete or extract pages") <= 5
    );
    // The breadth is the larger of the list and the concepts claimed.
    let mut v = Vocab::default();
    let d = Doc::new(
        &mut v,
        &[(Field::Name, "Home Hero AI"), (Field::Lead, home)],
    );
    assert!(d.breadth >= 11, "{}", d.breadth);
}

#[test]
fn categories_restate_the_job_and_add_no_breadth() {
    let mut v = Vocab::default();
    let lead = "Turns bank statements into a transaction list in Excel.";
    let plain = Doc::new(
        &mut v,
        &[(Field::Name, "Statement Parser"), (Field::Lead, lead)],
    );
    let tagged = Doc::new(
        &mut v,
        &[
            (Field::Name, "Statement Parser"),
            (
                Field::Categories,
                "finance pdf table-extraction spreadsheet ocr invoice csv",
            ),
            (Field::Lead, lead),
        ],
    );
    assert_eq!(tagged.breadth, plain.breadth);
    // Claims in the text still count: the same words in the description widen it.
    let claimed = Doc::new(
        &mut v,
        &[
            (Field::Name, "Statement Parser"),
            (
                Field::Lead,
                "Turns bank statements into a transaction list in Excel, reads invoices, \
                 OCRs scans and extracts PDF tables.",
            ),
        ],
    );
    assert!(
        claimed.breadth > plain.breadth,
        "{} {}",
        claimed.breadth,
        plain.breadth
    );
}

/// The directions a text is read with, as concept names.
fn directions(text: &str) -> Vec<(String, String)> {
    let mut v = Vocab::default();
    let a = v.analyze_text(text);
    let lex = lexicon();
    a.directions
        .iter()
        .map(|&(s, d)| (lex.concepts[s].name.clone(), lex.concepts[d].name.clone()))
        .collect()
}

#[test]
fn a_direction_word_before_a_format_reads_a_conversion_without_a_verb() {
    let pair = |s: &str, d: &str| (s.to_owned(), d.to_owned());
    // Must: "as", "to", "into" before a file format, modifiers allowed between.
    for (text, from, to) in [
        (
            "compress page 4 of the report pdf as a sharp jpg",
            "pdf",
            "image",
        ),
        (
            "clean up this excel sheet and save it to pdf",
            "spreadsheet",
            "pdf",
        ),
        ("restyle the slides as an editable pptx", "slides", "slides"),
        (
            "keep the fonts of my docx as a printable pdf",
            "word-doc",
            "pdf",
        ),
    ] {
        let d = directions(text);
        if from != to {
            assert!(d.contains(&pair(from, to)), "{text}: {d:?}");
        }
        assert!(!d.contains(&pair(to, from)) || from == to, "{text}: {d:?}");
    }
    // Must not: a place or a person after the direction word is no target.
    for text in [
        "add english subtitles to my lecture video",
        "jot these tasks into my to-do app",
        "send the pdf to my boss",
        "upload the invoice pdf to our accounting tool",
    ] {
        assert!(
            directions(text).is_empty(),
            "{text}: {:?}",
            directions(text)
        );
    }
}

#[test]
fn a_word_ending_in_ant_is_no_action_of_its_stem() {
    use crate::rank::lexicon::word_stem;
    // Must not match: the quality or the agent is its own stem (rank26).
    assert_eq!(word_stem("important"), "important");
    assert_eq!(word_stem("assistants"), "assistant");
    assert_ne!(normalize_plain("important"), normalize_plain("import"));
    // Must match: inflections still meet their stem; a word the stemmer keeps whole is unchanged.
    assert_eq!(word_stem("imported"), word_stem("import"));
    assert_eq!(
        word_stem("tenants"),
        crate::rank::lexicon::stemmer().stem("tenants")
    );
    assert_eq!(word_stem("plants"), "plant");
    // Terms are stemmed alike: a lexicon term holding such a word still meets the text.
    let lex = crate::rank::lexicon::lexicon();
    let redundant = lex.concept("labor-dispute").expect("labor-dispute");
    assert!(
        lex.concepts_in("I was made redundant last week")
            .contains(&redundant)
    );
}

#[test]
fn sum_up_is_a_summary_and_sum_alone_a_calculation() {
    let lex = crate::rank::lexicon::lexicon();
    let summarize = lex.concept("summarize").expect("summarize");
    let calculate = lex.concept("calculate").expect("calculate");
    // Must match: the phrasal verb in its forms (rank26).
    for t in [
        "Sum up the key points of this report",
        "summing up the thread for me",
        "it sums up the call",
    ] {
        let c = lex.concepts_in(t);
        assert!(c.contains(&summarize) && !c.contains(&calculate), "{t}");
    }
    // Must not match: a sum without *up* is still a calculation.
    let c = lex.concepts_in("sum the amounts in column B");
    assert!(c.contains(&calculate) && !c.contains(&summarize));
}

#[test]
fn traditional_characters_are_read_as_simplified() {
    // Must: a 繁體 character folds to its 简体 form, in words and in concepts alike.
    assert_eq!(super::vocab::fold_traditional('經'), '经');
    assert_eq!(super::vocab::fold_traditional('註'), '注');
    assert_eq!(super::vocab::fold_traditional('後'), '后');
    for (traditional, simplified, concept) in [
        ("想寫一份起訴狀", "想写一份起诉状", "@lawsuit"),
        (
            "營業執照要改地址",
            "营业执照要改地址",
            "@company-registration",
        ),
        ("幫我把這個PDF轉成Word", "帮我把这个PDF转成Word", "@convert"),
    ] {
        let (t, s) = (analyze(traditional), analyze(simplified));
        assert!(has(&t, concept), "{traditional}: {t:?}");
        assert_eq!(t, s, "{traditional} is read otherwise than {simplified}");
    }
    // Must not: a character that is simplified Chinese in its own right stays (著名 is no 着名,
    // 乾坤 no 干坤), and text without Chinese is untouched.
    for c in ['著', '乾', '覆', '经', 'a', 'é', 'ア'] {
        assert_eq!(super::vocab::fold_traditional(c), c);
    }
    assert!(has(&analyze("著名的律师"), "著名"));
}

#[test]
fn a_one_character_action_inside_a_word_is_no_action() {
    // Must not: 打算 (intend) is no calculation, 发烧/发起 no publishing, 问诊 no answering.
    for (text, concept) in [
        ("打算下个月去", "@calculate"),
        ("孩子发烧了三天", "@publish"),
        ("帮我发起一个审批", "@publish"),
        ("医生问诊的录音", "@answer"),
        ("买了点证券", "@discount"),
    ] {
        let toks = analyze(text);
        assert!(!has(&toks, concept), "{text}: {toks:?}");
    }
    // Must: the same characters as the action where they stand alone.
    for (text, concept) in [
        ("帮我算一下利息", "@calculate"),
        ("把通知发到群里", "@publish"),
        ("满300减50的券怎么用", "@discount"),
    ] {
        let toks = analyze(text);
        assert!(has(&toks, concept), "{text}: {toks:?}");
    }
}

#[test]
fn office_trade_clinic_school_and_court_jobs_are_concepts() {
    // Must: how people name these jobs, in both languages.
    for (text, concept) in [
        ("钉钉上的请假单怎么提", "@approval"),
        ("start a leave request for Friday", "@approval"),
        ("办居住证要什么材料", "@government-service"),
        ("how do I get a residence permit", "@government-service"),
        ("营业执照的经营范围怎么写", "@company-registration"),
        ("register a company in Shanghai", "@company-registration"),
        ("今晚开播，直播间的流程", "@live-selling"),
        ("a live selling script", "@live-selling"),
        ("叠了优惠券之后的到手价", "@discount"),
        ("which items will run out next month", "@restock"),
        ("这几款快断货了", "@restock"),
        ("写一份民事起诉状", "@lawsuit"),
        ("can I sue my landlord", "@lawsuit"),
        ("给对方发律师函", "@demand-letter"),
        ("draft a demand letter", "@demand-letter"),
        ("头疼该挂哪个科", "@clinic-visit"),
        ("which department should I see", "@clinic-visit"),
        ("异地就医医保能报多少", "@medical-insurance"),
        ("排下学期的课表", "@timetable"),
        ("a weekly timetable for the school", "@timetable"),
        ("给公众号文章起标题", "@headline"),
        ("ten headline ideas", "@headline"),
        ("把错题整理成错题本", "@mistake-notebook"),
        ("期末评语写不完", "@report-comment"),
        ("帮我选品", "@product-research"),
        ("my dad's blood sugar readings", "@blood-sugar"),
        ("要能商用的背景音乐", "@royalty-free"),
        ("royalty-free music for a vlog", "@royalty-free"),
        ("开一张增值税专票", "@invoice"),
        ("孩子的口算本", "@math"),
        ("出差回来的差旅报销", "@expense"),
        ("血常规结果怎么看", "@health-report"),
        ("reply to a one-star review", "@customer-review"),
        ("scan the ID card photos", "@personal-info"),
    ] {
        let toks = analyze(text);
        assert!(has(&toks, concept), "{text}: {toks:?}");
    }
    // Must not: the neighbouring sense of the same characters or words.
    for (text, concept) in [
        ("给科室添两台打印机", "@clinic-visit"),
        ("血糖高的老人晚饭吃什么", "@blood-sugar"),
        ("Word 里的标题字号不统一", "@headline"),
        ("注册一个账号", "@company-registration"),
        ("the store's refund policy", "@discount"),
    ] {
        let toks = analyze(text);
        assert!(!has(&toks, concept), "{text}: {toks:?}");
    }
    // 审批 is an approval wherever it is filed, not DingTalk as such.
    let toks = analyze("飞书审批");
    assert!(
        has(&toks, "@approval") && !has(&toks, "@dingtalk"),
        "{toks:?}"
    );
}
