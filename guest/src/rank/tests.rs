//! Ranking scenarios and properties.

use super::*;
use crate::clock::Clock;
use proptest::prelude::*;

const SAMPLE: &str = include_str!("../../../data/sample_candidates.json");
const NOW: &str = "2026-11-29T02:00:00Z";

fn sample() -> Vec<Candidate> {
    crate::model::parse_candidates(SAMPLE)
        .unwrap()
        .into_iter()
        .map(Result::unwrap)
        .collect()
}

fn clock() -> Clock {
    Clock::new(NOW, None, Some("Asia/Shanghai")).unwrap()
}

fn rank_with(cands: Vec<Candidate>, mode: Mode, task: Option<&str>, lang: Lang) -> Ranking {
    let request = Request {
        task: task.map(str::to_owned),
        signals: Vec::new(),
        ..Default::default()
    };
    rank(
        cands,
        mode,
        &request,
        &Env {
            state: &State::default(),
            history: &History::default(),
            installed: &[],
            clock: &clock(),
            lang,
        },
    )
}

fn top(task: &str) -> String {
    rank_with(sample(), Mode::Manual, Some(task), Lang::Zh).ranked[0]
        .candidate
        .skill_id
        .clone()
}

#[test]
fn a_pdf_task_picks_a_pdf_table_skill() {
    assert_eq!(top("把 PDF 表格转成 Excel"), "clawhub:pdf-table-to-excel");
    assert_eq!(
        top("extract tables from a PDF into a spreadsheet"),
        "clawhub:pdf-table-to-excel"
    );
    assert_eq!(top("merge two pdf files"), "smithery:@pagepress/pdf-merge");
}

#[test]
fn chinese_only_tasks_work() {
    assert_eq!(top("把会议录音整理成纪要"), "clawhub:meeting-minutes-cn");
    assert_eq!(top("冰箱里剩的食材今晚能做什么菜"), "clawhub:fridge-chef");
    assert_eq!(top("给视频加双语字幕"), "github:framecut/subtitle-studio");
    assert_eq!(top("发票记账"), "skillhub:receipt-to-ledger");
}

#[test]
fn english_tasks_meet_chinese_descriptions_through_the_concept_map() {
    // The skill's description is Chinese only; its categories and the lexicon carry the match.
    assert_eq!(
        top("meeting minutes from a recording"),
        "clawhub:meeting-minutes-cn"
    );
    assert_eq!(
        top("make my text sound less like AI"),
        "clawhub:ai-tone-polisher"
    );
}

#[test]
fn a_popular_but_unrelated_skill_loses_to_a_relevant_one() {
    let mut popular = sample()
        .into_iter()
        .find(|c| c.skill_id.contains("commit-message-writer"))
        .unwrap();
    popular.popularity.downloads = 5_000_000;
    popular.popularity.stars = 900_000;
    popular.cross_source_count = 6;
    let mut relevant = sample()
        .into_iter()
        .find(|c| c.skill_id == "smithery:@pagepress/pdf-merge")
        .unwrap();
    relevant.popularity.downloads = 3;
    relevant.popularity.stars = 0;
    let r = rank_with(
        vec![popular, relevant],
        Mode::Manual,
        Some("combine PDFs"),
        Lang::En,
    );
    assert_eq!(
        r.ranked[0].candidate.skill_id,
        "smithery:@pagepress/pdf-merge"
    );
    // Popularity is capped: five million downloads earn no more than the cap.
    let trend = r.ranked[1].factor(FactorKey::Trend).unwrap();
    assert!(trend.value <= 1.0 && trend.points() <= 5.0, "{trend:?}");
}

#[test]
fn an_exact_name_match_ranks_first_and_says_so() {
    let r = rank_with(sample(), Mode::Manual, Some("Inbox Triage"), Lang::En);
    assert_eq!(
        r.ranked[0].candidate.skill_id,
        "skillssh:mailbright/skills/inbox-triage"
    );
    assert!(r.ranked[0].exact_name_match);
    assert!(r.ranked[1..].iter().all(|x| !x.exact_name_match));
}

#[test]
fn breakdown_uses_the_protocol_weights_and_adds_up() {
    for (mode, table) in [
        (Mode::Manual, &MANUAL_WEIGHTS),
        (Mode::Daily, &DAILY_WEIGHTS),
    ] {
        assert_eq!(table.iter().map(|(_, w)| w).sum::<f64>(), 100.0);
        let r = rank_with(sample(), mode, Some("pdf"), Lang::Zh);
        for x in &r.ranked {
            let keys: Vec<_> = x.factors.iter().map(|f| (f.key, f.weight)).collect();
            // The protocol's factors, then the two adjustments (neutral here: no content, no agent).
            assert_eq!(keys[..7], table[..]);
            assert_eq!(
                keys[7..],
                [(FactorKey::Fit, 12.0), (FactorKey::Quality, 16.0)]
            );
            assert!(x.factors[7..].iter().all(|f| f.points() == 0.0));
            let sum: f64 = x.factors.iter().map(Factor::points).sum();
            assert!((sum - x.score).abs() < 1e-9);
            assert!(x.factors.iter().all(|f| (0.0..=1.0).contains(&f.value)));
        }
        let json = r.to_json(Vec::new());
        assert_eq!(json["ranked"][0]["breakdown"].as_object().unwrap().len(), 9);
    }
}

#[test]
fn scenario_signals_and_installed_skills_move_the_ranking() {
    let signals = Request {
        task: None,
        signals: vec!["每周整理投资观察和股票简报".into()],
        ..Default::default()
    };
    let r = rank(
        sample(),
        Mode::Manual,
        &signals,
        &Env {
            state: &State::default(),
            history: &History::default(),
            installed: &[],
            clock: &clock(),
            lang: Lang::Zh,
        },
    );
    assert_eq!(
        r.ranked[0].candidate.skill_id,
        "mcpmarket:portfolio-morning-brief"
    );
    assert!(
        r.ranked[0].reasons.iter().any(|x| x.contains("场景")),
        "{:?}",
        r.ranked[0].reasons
    );

    // With a PDF skill installed, a PDF candidate fills no gap.
    let installed = [InstalledSkill {
        name: "pdf-toolkit".into(),
        ..InstalledSkill::default()
    }];
    let none = Request::default();
    let with = rank(
        sample(),
        Mode::Manual,
        &none,
        &Env {
            state: &State::default(),
            history: &History::default(),
            installed: &installed,
            clock: &clock(),
            lang: Lang::Zh,
        },
    );
    let without = rank_with(sample(), Mode::Manual, None, Lang::Zh);
    let gap = |r: &Ranking, id: &str| {
        r.ranked
            .iter()
            .find(|x| x.candidate.skill_id == id)
            .unwrap()
            .factor(FactorKey::Gap)
            .unwrap()
            .value
    };
    assert!(
        gap(&with, "smithery:@pagepress/pdf-merge")
            < gap(&without, "smithery:@pagepress/pdf-merge")
    );
}

#[test]
fn daily_themes_rotate_from_the_state() {
    let c = clock();
    let mut state = State {
        daily_rotation: serde_json::json!({"last_theme": "practical_boost", "last_run_at": "2026-11-28T02:00:00Z"}),
        ..State::default()
    };
    assert_eq!(theme_for_today(&state, &c), Theme::Hot);
    state.daily_rotation =
        serde_json::json!({"last_theme": "fun_try_out", "last_run_at": "2026-11-28T02:00:00Z"});
    assert_eq!(theme_for_today(&state, &c), Theme::Practical);
    // Already ran today: the same theme.
    state.daily_rotation =
        serde_json::json!({"last_theme": "fun_try_out", "last_run_at": "2026-11-29T01:00:00Z"});
    assert_eq!(theme_for_today(&state, &c), Theme::Fun);
    // Nothing usable: by the day number, so consecutive days still differ.
    state.daily_rotation = serde_json::json!({"last_theme": "bogus"});
    let next = Clock::new("2026-11-30T02:00:00Z", None, Some("Asia/Shanghai")).unwrap();
    assert_ne!(theme_for_today(&state, &c), theme_for_today(&state, &next));
}

#[test]
fn the_fun_theme_prefers_fun_skills() {
    let state = State {
        daily_rotation: serde_json::json!({"last_theme": "hot_discovery", "last_run_at": "2026-11-28T02:00:00Z"}),
        ..State::default()
    };
    let r = rank(
        sample(),
        Mode::Daily,
        &Request::default(),
        &Env {
            state: &state,
            history: &History::default(),
            installed: &[],
            clock: &clock(),
            lang: Lang::Zh,
        },
    );
    assert_eq!(r.theme, Some(Theme::Fun));
    assert!(
        Traits::of(&r.ranked[0].candidate).in_family("fun"),
        "{}",
        r.ranked[0].candidate.skill_id
    );
}

#[test]
fn work_family_classification() {
    assert!(is_work_family(&["coding".into(), "git".into()], ""));
    assert!(!is_work_family(
        &["content-creation".into(), "writing".into()],
        ""
    ));
    // Mixed: a daily-life category wins.
    assert!(!is_work_family(
        &["finance".into(), "spreadsheet".into()],
        ""
    ));
    // No categories: by the words.
    assert!(is_work_family(&[], "deploy docker containers"));
}

fn arb_candidate() -> impl Strategy<Value = Candidate> {
    let words = prop::sample::subsequence(
        vec![
            "pdf", "table", "excel", "meeting", "notes", "video", "subtitle", "stock", "recipe",
            "email", "翻译", "表格", "会议", "视频",
        ],
        1..5,
    );
    (
        words,
        0u64..100_000,
        0u64..5_000,
        prop::bool::ANY,
        prop::bool::ANY,
    )
        .prop_map(|(w, d, s, docs, sec)| Candidate {
            skill_id: String::new(),
            name: w.join("-"),
            url: "https://example.com/s".into(),
            description: format!("A skill about {} for everyday work.", w.join(" ")),
            categories: vec![w[0].to_owned()],
            source: "clawhub".into(),
            popularity: crate::model::Popularity {
                downloads: d,
                stars: s,
                ..Default::default()
            },
            has_install_docs: docs,
            has_security_disclosure: sec,
            updated_at: Some("2026-11-01T00:00:00Z".into()),
            cross_source_count: 1,
            ..Candidate::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The order of the input never changes the ranking.
    #[test]
    fn ranking_is_independent_of_input_order(seed in any::<u64>(), task in prop::sample::select(vec!["pdf 表格", "meeting notes", "视频字幕", "stocks"])) {
        let base = sample();
        let mut shuffled = base.clone();
        // A deterministic shuffle from the seed.
        let mut x = seed | 1;
        for i in (1..shuffled.len()).rev() {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            shuffled.swap(i, (x % (i as u64 + 1)) as usize);
        }
        for mode in [Mode::Manual, Mode::Daily] {
            let a = rank_with(base.clone(), mode, Some(task), Lang::Zh);
            let b = rank_with(shuffled.clone(), mode, Some(task), Lang::Zh);
            let ids = |r: &Ranking| r.ranked.iter().map(|x| (x.candidate.skill_id.clone(), x.score.to_bits())).collect::<Vec<_>>();
            prop_assert_eq!(ids(&a), ids(&b));
        }
    }

    /// Two candidates alike in everything but their text: the more relevant one scores higher.
    #[test]
    fn score_is_monotonic_in_relevance(a in arb_candidate(), b_text in prop::sample::subsequence(vec!["pdf", "table", "meeting", "video", "stock", "会议", "表格"], 1..4), task in prop::sample::select(vec!["pdf table", "meeting notes", "会议 表格", "video stock"])) {
        let mut b = a.clone();
        b.name = b_text.join("-");
        b.description = format!("A skill about {} for everyday work.", b_text.join(" "));
        let mut a = a;
        a.skill_id = "clawhub:a".into();
        b.skill_id = "clawhub:b".into();
        let r = rank_with(vec![a, b], Mode::Manual, Some(task), Lang::En);
        let (x, y) = (&r.ranked[0], &r.ranked[1]);
        if x.relevance != y.relevance && !x.exact_name_match && !y.exact_name_match {
            prop_assert!(x.relevance > y.relevance, "higher score with lower relevance: {} {} / {} {}", x.score, x.relevance, y.score, y.relevance);
        }
    }

    /// The same candidate at a higher risk or with less metadata never scores higher.
    #[test]
    fn score_is_monotonic_in_safety(c in arb_candidate(), task in prop::sample::select(vec!["pdf", "会议"])) {
        for mode in [Mode::Manual, Mode::Daily] {
            let mut low = c.clone();
            low.skill_id = "clawhub:low".into();
            let mut medium = c.clone();
            medium.skill_id = "clawhub:medium".into();
            medium.risk_level = Some("medium".into());
            let mut bare = c.clone();
            bare.skill_id = "clawhub:bare".into();
            bare.has_security_disclosure = false;
            bare.has_install_docs = false;
            bare.source_code_url = None;
            let r = rank_with(vec![medium, low, bare], mode, Some(task), Lang::En);
            let score = |id: &str| r.ranked.iter().find(|x| x.candidate.skill_id == id).unwrap().score;
            let risk = |id: &str| r.ranked.iter().find(|x| x.candidate.skill_id == id).unwrap().risk;
            // Missing metadata may already raise the "low" copy to medium; then they tie.
            if risk("clawhub:low") == Risk::Low {
                prop_assert!(score("clawhub:low") > score("clawhub:medium"));
            } else {
                prop_assert!(score("clawhub:low") >= score("clawhub:medium"));
            }
            prop_assert!(score("clawhub:low") >= score("clawhub:bare"));
        }
    }
}

/// The export writes each entry straight from the ranking; its text must be what the entry's tree
/// prints, byte for byte, for every entry of both modes and languages, and for factors the ranking
/// never makes (a repeated key, non-finite numbers, a negative zero).
#[test]
fn entry_text_is_the_tree_text() {
    for (mode, task, lang) in [
        (Mode::Manual, Some("把 PDF 表格转成 Excel"), Lang::Zh),
        (Mode::Manual, None, Lang::En),
        (Mode::Daily, None, Lang::Zh),
    ] {
        let ranking = rank_with(sample(), mode, task, lang);
        assert!(!ranking.ranked.is_empty());
        for (i, r) in ranking.ranked.iter().enumerate() {
            let text = serde_json::to_string(&entry::Entry::of(r, i + 1)).unwrap();
            assert_eq!(
                text,
                r.to_json(i + 1).to_string(),
                "{}",
                r.candidate.skill_id
            );
        }
    }
    let mut r = rank_with(sample(), Mode::Manual, None, Lang::En)
        .ranked
        .remove(0);
    let mut odd = r.factors[0].clone();
    odd.detail = "again \"quoted\" \u{1}".into();
    odd.value = f64::NAN;
    odd.neutral = -0.0;
    r.factors.push(odd);
    r.factors[1].weight = f64::INFINITY;
    r.factors[2].neutral = f64::NAN;
    r.score = f64::NEG_INFINITY;
    let text = serde_json::to_string(&entry::Entry::of(&r, 7)).unwrap();
    assert_eq!(text, r.to_json(7).to_string());
}

/// The export's text is the ranking's tree printed, and it is written into one buffer reserved at
/// its final size: the result's capacity is its length plus at most the head's slack. A buffer that
/// grew by doubling (what took `rank` at 100,000 candidates past the component's memory limit) would
/// show a capacity up to twice the length.
#[test]
fn the_export_text_is_reserved_once_at_its_size() {
    let many: Vec<Candidate> = (0..40)
        .flat_map(|k| {
            sample().into_iter().map(move |mut c| {
                c.skill_id = format!("{}-{k}", c.skill_id);
                c
            })
        })
        .collect();
    let ranking = rank_with(
        many,
        Mode::Manual,
        Some("summarize meeting notes"),
        Lang::En,
    );
    let skipped =
        vec![serde_json::json!({"index": 3, "reason": "invalid_candidate", "detail": "x"})];
    let entries: Vec<Value> = ranking
        .ranked
        .iter()
        .enumerate()
        .map(|(i, r)| r.to_json(i + 1))
        .collect();
    let text = ranking.into_json_text(skipped.clone());
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["ranked"], Value::Array(entries));
    assert_eq!(v["skipped"], Value::Array(skipped));
    assert_eq!(text, v.to_string());
    let bytes = text.into_bytes();
    assert!(
        bytes.capacity() - bytes.len() < 4096,
        "{} bytes in a buffer of {}",
        bytes.len(),
        bytes.capacity()
    );
}

/// The `rank` export scores each candidate twice and writes in rank order; its text must be what
/// ranking them all at once and printing the ranking gives, byte for byte: for both modes, with and
/// without a task, with ties (the same candidates repeated) and skipped items.
#[test]
fn the_export_writes_what_the_ranking_prints() {
    let mut many = sample();
    many.extend(sample());
    for (i, c) in many.iter_mut().enumerate().skip(3).step_by(4) {
        c.skill_id = format!("{}-{i}", c.skill_id);
    }
    let skipped =
        vec![serde_json::json!({"index": 1, "reason": "invalid_candidate", "detail": "x"})];
    let agent = crate::fit::Agent::default();
    let (state, history, clock) = (State::default(), History::default(), clock());
    for (mode, task, lang) in [
        (Mode::Manual, Some("把 PDF 表格转成 Excel"), Lang::Zh),
        (Mode::Manual, Some("pdf-table-to-excel"), Lang::En),
        (Mode::Manual, None, Lang::En),
        (Mode::Daily, None, Lang::Zh),
    ] {
        let request = Request {
            task: task.map(str::to_owned),
            ..Default::default()
        };
        let env = Env {
            state: &state,
            history: &history,
            installed: &[],
            clock: &clock,
            lang,
        };
        let assessed = many
            .iter()
            .map(|c| {
                let (risk, findings) = assess(c);
                (c.clone(), risk, findings)
            })
            .collect();
        let whole =
            rank_for(assessed, mode, &request, &env, &agent).into_json_text(skipped.clone());
        let streamed = export::write_ranking(&many, mode, &request, &env, &agent, skipped.clone());
        assert_eq!(streamed, whole, "{mode:?} {task:?}");
        let bytes = streamed.into_bytes();
        assert!(
            bytes.capacity() - bytes.len() < 4096,
            "reserved at its size"
        );
    }
}

/// `rank25`: the `task` factor's detail says when shared words decide more of the order
/// (`relevance::lexical_share`): exactly when no candidate matches the request's concepts well (the
/// best match strength under `relevance::WEAK_CONCEPT`), on every matched entry, and never otherwise.
#[test]
fn the_detail_says_when_shared_words_decide_more_of_the_order() {
    let (mut weak, mut strong) = (0, 0);
    for task in [
        "extract tables from a PDF into a spreadsheet",
        "把 PDF 表格转成 Excel",
        "merge two pdf files",
        "what should I cook tonight with eggs and tomatoes",
        "help me name my new puppy",
        "写一首关于秋天的诗",
        "plan a weekend trip",
    ] {
        for lang in [Lang::En, Lang::Zh] {
            let r = rank_with(sample(), Mode::Manual, Some(task), lang);
            let best = r.ranked.iter().map(|x| x.coverage).fold(0.0, f64::max);
            let is_weak = relevance::lexical_share(best) > relevance::LEXICAL_SHARE + 0.005;
            let note = match lang {
                Lang::En => "decide",
                Lang::Zh => "共有的词占",
            };
            for x in &r.ranked {
                let d = &x.factor(FactorKey::Task).unwrap().detail;
                if x.exact_name_match || x.relevance <= 0.0 {
                    assert!(!d.contains(note), "{task}: {d}");
                    continue;
                }
                if d.contains("unrelated") || d.contains("不相关") {
                    continue;
                }
                assert_eq!(d.contains(note), is_weak, "{task} (best {best:.3}): {d}");
                if is_weak {
                    weak += 1;
                } else {
                    strong += 1;
                }
            }
        }
    }
    assert!(weak > 0 && strong > 0, "weak {weak}, strong {strong}");
}
