//! The lazy analysis ([`Scorer::new`] with `lazy`) against the eager one: every candidate's match
//! with the task and every score must be the same, bit for bit, on the sample data and on the
//! ranking benchmark's listings with all of its tasks.

use super::*;
use crate::clock::Clock;
use crate::state::{History, State};

const SAMPLE: &str = include_str!("../../../../data/sample_candidates.json");
const LISTINGS: &str = include_str!("../../../../tests/fixtures/ranking/listings.json");
const TASKS: &str = include_str!("../../../../tests/fixtures/ranking/tasks.json");
const NO_MATCH: &str = include_str!("../../../tests/bench/no_match.json");

fn parse(text: &str) -> Vec<Candidate> {
    crate::model::parse_candidates(text)
        .unwrap()
        .into_iter()
        .filter_map(Result::ok)
        .collect()
}

/// Every field of a preview, as bits.
fn preview_bits(p: &Preview) -> (bool, u64, u64, bool, bool) {
    (
        p.exact,
        p.relevance.to_bits(),
        p.strength.to_bits(),
        p.core,
        p.single,
    )
}

/// What a score shows: the score, the factors with their details, the reasons, the ties.
fn score_text(s: &Scored) -> String {
    let factors: Vec<String> = s
        .factors
        .iter()
        .map(|f| {
            format!(
                "{:?} {} {} {} {}",
                f.key,
                f.weight.to_bits(),
                f.value.to_bits(),
                f.neutral.to_bits(),
                f.detail
            )
        })
        .collect();
    format!(
        "{} {} {} {} {} {} {} {:?} {:?} {:?} {}",
        s.exact,
        s.relevance.to_bits(),
        s.strength.to_bits(),
        s.core,
        s.single,
        s.work_family,
        s.score.to_bits(),
        factors,
        s.reasons,
        (s.tie.0.to_bits(), s.tie.1.to_bits(), s.tie.2),
        s.assessed.quality_json(),
    )
}

/// Compare the lazy and the eager scorer on `cands` for `task`: every preview, and the scores of
/// every candidate when `score_all` (else of the analyzed ones and every seventh other one).
/// Returns how many candidates the lazy scorer left unanalyzed.
fn compare(cands: &[Candidate], task: &str, lang: Lang, score_all: bool) -> usize {
    let clock = Clock::new("2026-12-01T02:00:00Z", None, Some("Asia/Shanghai")).unwrap();
    let (state, history) = (State::default(), History::default());
    let env = Env {
        state: &state,
        history: &history,
        installed: &[],
        clock: &clock,
        lang,
    };
    let request = Request {
        task: Some(task.to_owned()),
        ..Default::default()
    };
    let agent = crate::fit::Agent::default();
    let eager = Scorer::new(cands.iter(), Mode::Manual, &request, &env, &agent, false);
    let lazy = Scorer::new(cands.iter(), Mode::Manual, &request, &env, &agent, true);
    assert_eq!(eager.best.to_bits(), lazy.best.to_bits(), "task {task:?}");
    let mut unanalyzed = 0;
    for (i, c) in cands.iter().enumerate() {
        assert_eq!(
            preview_bits(&eager.preview(i, c)),
            preview_bits(&lazy.preview(i, c)),
            "task {task:?}, candidate {}",
            c.skill_id
        );
        let skipped = lazy.slot(i).is_none();
        unanalyzed += usize::from(skipped);
        if score_all || !skipped || i % 7 == 0 {
            assert_eq!(
                score_text(&eager.score(i, c, Risk::Low)),
                score_text(&lazy.score(i, c, Risk::Low)),
                "task {task:?}, candidate {}",
                c.skill_id
            );
        }
    }
    unanalyzed
}

#[test]
fn lazy_analysis_equals_eager_on_the_sample_data() {
    let cands = parse(SAMPLE);
    let tasks = [
        "把 PDF 表格转成 Excel",
        "merge pdf files",
        "extract-pdf-tables",
        "summarize meeting notes into action items",
        "deploy to kubernetes",
        "写一首诗",
        "tune my guitar",
        // Typos: the task is analyzed after the candidates (nothing is left unanalyzed).
        "mrege pdf files",
        "extarct tabels from pdf",
    ];
    for task in tasks {
        for lang in [Lang::En, Lang::Zh] {
            compare(&cands, task, lang, true);
        }
    }
}

/// A task with a typo asks the candidates' vocabulary: no candidate is left unanalyzed, and one
/// without any leaves most of a catalog that does not match it unanalyzed.
#[test]
fn lazy_analysis_skips_only_when_the_task_does_not_depend_on_the_candidates() {
    let cands = parse(SAMPLE);
    assert_eq!(compare(&cands, "mrege pdf files", Lang::En, false), 0);
    let skipped = compare(&cands, "merge pdf files", Lang::En, false);
    assert!(skipped > 0 && skipped < cands.len(), "{skipped}");
}

/// The ranking benchmark's listings with every graded task and every no-match request.
#[test]
fn lazy_analysis_equals_eager_on_the_ranking_benchmark() {
    let cands = parse(LISTINGS);
    let mut tasks: Vec<(String, String)> = Vec::new();
    for file in [TASKS, NO_MATCH] {
        let v: serde_json::Value = serde_json::from_str(file).unwrap();
        for t in v["tasks"].as_array().unwrap() {
            tasks.push((
                t["task"].as_str().unwrap().to_owned(),
                t["lang"].as_str().unwrap_or("en").to_owned(),
            ));
        }
    }
    assert!(tasks.len() > 1000, "{}", tasks.len());
    // Every third task (the whole set takes minutes: each task is ranked twice), each language and
    // batch is in every third.
    let tested: Vec<&(String, String)> = tasks.iter().step_by(3).collect();
    let mut skipped = 0;
    for (n, (task, lang)) in tested.iter().enumerate() {
        let lang = if lang == "zh" { Lang::Zh } else { Lang::En };
        skipped += compare(&cands, task, lang, n % 17 == 0);
    }
    // Most tasks match a few listings: most listings are left unanalyzed.
    assert!(skipped > tested.len() * cands.len() / 2, "{skipped}");
}

/// Without a task or signal words, [`Scorer::key`] on a scorer that deferred every document gives
/// every candidate the key the full scoring gives it, bit for bit: on the sample data and the ranking
/// benchmark's listings, with and without installed skills (so the gap and complement factors,
/// which read the categories' concepts, vary), in both languages, and for category lists that
/// differ only where the analysis does not look (`a-b` and `a b`, case, padding).
#[test]
fn key_equals_score_when_documents_are_deferred() {
    let clock = Clock::new("2026-12-01T02:00:00Z", None, Some("Asia/Shanghai")).unwrap();
    let (state, history) = (State::default(), History::default());
    let mut cands = parse(SAMPLE);
    cands.extend(parse(LISTINGS));
    let mut variants = Vec::new();
    for (n, cats) in [
        vec!["content-creation"],
        vec!["content creation"],
        vec!["Content-Creation "],
        vec!["pdf", "ocr"],
        vec!["pdf, ocr"],
        vec!["ocr", "pdf"],
        vec![],
        vec![""],
    ]
    .into_iter()
    .enumerate()
    {
        let mut c = cands[n].clone();
        c.categories = cats.into_iter().map(str::to_owned).collect();
        variants.push(c);
    }
    cands.extend(variants);
    let installed = [crate::filter::InstalledSkill {
        name: "pdf-toolkit".into(),
        ..Default::default()
    }];
    let agent = crate::fit::Agent::default();
    let distinct_lists: std::collections::BTreeSet<&Vec<String>> =
        cands.iter().map(|c| &c.categories).collect();
    for installed in [&[][..], &installed[..]] {
        for lang in [Lang::En, Lang::Zh] {
            let env = Env {
                state: &state,
                history: &history,
                installed,
                clock: &clock,
                lang,
            };
            let request = Request::default();
            let eager = Scorer::new(cands.iter(), Mode::Manual, &request, &env, &agent, false);
            let deferred = Scorer::new(cands.iter(), Mode::Manual, &request, &env, &agent, true);
            assert!(!eager.deferred && deferred.deferred && deferred.docs.is_empty());
            let mut cache = key::KeyCache::default();
            for (i, c) in cands.iter().enumerate() {
                for risk in [Risk::Low, Risk::Medium] {
                    let s = eager.score(i, c, risk);
                    let want = key::SortKey {
                        exact: s.exact,
                        score: s.score,
                        tie: s.tie,
                    };
                    let got = deferred.key(i, c, risk, &mut cache);
                    assert_eq!(
                        (
                            got.exact,
                            got.score.to_bits(),
                            got.tie.0.to_bits(),
                            got.tie.1.to_bits(),
                            got.tie.2
                        ),
                        (
                            want.exact,
                            want.score.to_bits(),
                            want.tie.0.to_bits(),
                            want.tie.1.to_bits(),
                            want.tie.2
                        ),
                        "{} {:?}",
                        c.skill_id,
                        c.categories
                    );
                    // The head's full scoring is unchanged by the deferral.
                    assert_eq!(score_text(&deferred.score(i, c, risk)), score_text(&s));
                }
            }
            assert_eq!(cache.lists(), distinct_lists.len());
        }
    }
    // One analysis per distinct category list, and lists repeat.
    assert!(
        distinct_lists.len() < cands.len(),
        "{}",
        distinct_lists.len()
    );
}

/// The documents are deferred only where the key cannot read them: never with a task, with a
/// signal that has words, in daily mode, or for the eager scorer.
#[test]
fn documents_are_deferred_only_without_task_signals_or_daily() {
    let clock = Clock::new("2026-12-01T02:00:00Z", None, Some("Asia/Shanghai")).unwrap();
    let (state, history) = (State::default(), History::default());
    let cands = parse(SAMPLE);
    let env = Env {
        state: &state,
        history: &history,
        installed: &[],
        clock: &clock,
        lang: Lang::En,
    };
    let agent = crate::fit::Agent::default();
    let deferred = |request: &Request, mode: Mode, lazy: bool| {
        let s = Scorer::new(cands.iter(), mode, request, &env, &agent, lazy);
        assert_eq!(s.deferred, s.docs.is_empty());
        s.deferred
    };
    let none = Request::default();
    assert!(deferred(&none, Mode::Manual, true));
    // A blank task is no task.
    let blank = Request {
        task: Some("  ".into()),
        ..Default::default()
    };
    assert!(deferred(&blank, Mode::Manual, true));
    let task = Request {
        task: Some("merge pdf files".into()),
        ..Default::default()
    };
    assert!(!deferred(&task, Mode::Manual, true));
    let signal = Request {
        signals: vec!["weekly finance reports".into()],
        ..Default::default()
    };
    assert!(!deferred(&signal, Mode::Manual, true));
    assert!(!deferred(&none, Mode::Daily, true));
    assert!(!deferred(&none, Mode::Daily, false));
    assert!(!deferred(&none, Mode::Manual, false));
}
