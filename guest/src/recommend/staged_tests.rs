//! The staged ranking ([`super::ranked_head`]) against the full one: `recommend`'s whole result must
//! be the same, byte for byte, whichever ranks it.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::MemoryStore;

const NOW: &str = "2026-11-29T02:00:00Z";
const DEMO: &str = include_str!("../../../data/sample_candidates.json");

fn both(candidates: &str, mode: Mode, task: Option<&str>, lang: Lang) -> (Value, Value) {
    both_after(candidates, mode, task, lang, None)
}

/// [`both`] with `history` as the history document.
fn both_after(
    candidates: &str,
    mode: Mode,
    task: Option<&str>,
    lang: Lang,
    history: Option<&str>,
) -> (Value, Value) {
    let ctx = Ctx {
        now: NOW.into(),
        host_timezone: Some("Asia/Shanghai".into()),
        lang,
        lang_explicit: true,
    };
    let opts = Options {
        task: task.map(str::to_owned),
        dry_run: true,
        ..Options::default()
    };
    let run = |staged: bool| {
        let mut store = if mode == Mode::Daily {
            let state = crate::state::State {
                daily_rec_status: DailyStatus::Enabled,
                ..Default::default()
            };
            MemoryStore::with(Some(&serde_json::to_string(&state).unwrap()), history)
        } else {
            MemoryStore::with(None, history)
        };
        run_cow(
            &ctx,
            &mut store,
            &mut NoProbe,
            mode,
            candidates.into(),
            &[],
            &opts,
            staged,
        )
        .unwrap()
    };
    (run(true), run(false))
}

#[test]
fn staged_equals_full_on_the_sample_data() {
    let tasks = [
        "把 PDF 表格转成 Excel",
        "merge pdf files",
        "extract-pdf-tables",
        "pdf-table-to-excel",
        "summarize meeting notes into action items",
        "deploy to kubernetes",
        "写一首诗",
        "translate a poem",
        "",
    ];
    for task in tasks {
        for lang in [Lang::En, Lang::Zh] {
            let task = (!task.is_empty()).then_some(task);
            let (staged, full) = both(DEMO, Mode::Manual, task, lang);
            assert_eq!(staged, full, "task {task:?}");
            assert!(!staged["ranked"].as_array().unwrap().is_empty());
        }
    }
}

/// Words the random listings are made of: objects, actions and topics of the lexicon in both
/// languages, filler, and names that tasks name exactly.
const WORDS: &[&str] = &[
    "pdf",
    "files",
    "merge",
    "split",
    "tables",
    "excel",
    "spreadsheet",
    "extract",
    "convert",
    "word",
    "images",
    "photos",
    "resize",
    "meeting",
    "notes",
    "summarize",
    "kubernetes",
    "deploy",
    "translate",
    "poem",
    "daily",
    "work",
    "helps",
    "with",
    "tasks",
    "all-in-one",
    "表格",
    "合并",
    "转成",
    "文件",
    "翻译",
    "会议",
    "纪要",
    "图片",
];

const TASKS: &[&str] = &[
    "merge pdf files",
    "extract tables from a pdf into excel",
    "把 PDF 表格转成 Excel",
    "合并 PDF 文件",
    "resize my photos",
    "summarize meeting notes",
    "translate a poem",
    "deploy to kubernetes",
    "pdf-merge",
    "tune my guitar",
    "写一首诗",
    // A possible typo: analyzed after the candidates, every one of them analyzed.
    "mrege pdf files",
];

const CATEGORIES: &[&str] = &[
    "pdf",
    "documents",
    "devops",
    "audio",
    "education",
    "images",
    "",
];

fn listing() -> impl Strategy<Value = Value> {
    (
        proptest::collection::vec(proptest::sample::select(WORDS), 0..4),
        proptest::collection::vec(proptest::sample::select(WORDS), 0..12),
        proptest::collection::vec(proptest::sample::select(CATEGORIES), 0..3),
        0u64..100_000,
        0u64..1_000,
        proptest::sample::select(&["clawhub", "github", "skillssh", "unknown"][..]),
        proptest::sample::select(&["low", "low", "low", "medium", "high"][..]),
        any::<bool>(),
    )
        .prop_map(
            |(name, description, categories, downloads, stars, source, risk, docs)| {
                let name = if name.is_empty() {
                    "pdf-merge".to_owned()
                } else {
                    name.join("-")
                };
                json!({
                    "name": name,
                    "description": format!("{}.", description.join(" ")),
                    "categories": categories,
                    "popularity": {"downloads": downloads, "stars": stars},
                    "source": source,
                    "risk_level": risk,
                    "has_install_docs": docs,
                    "has_security_disclosure": true,
                    "source_code_url": "https://example.com/src",
                    "updated_at": "2026-10-01T00:00:00Z",
                })
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random listings (so that matches fall in every band, fewer or more than ten match, the pick
    /// or its alternatives lie beyond the first group, exact names, blocked and medium risks) and
    /// tasks in both languages: the staged ranking's result is the full ranking's.
    #[test]
    fn staged_recommend_equals_full(
        listings in proptest::collection::vec(listing(), 0..40),
        task in proptest::option::of(proptest::sample::select(TASKS)),
        daily in proptest::bool::weighted(0.15),
        zh in any::<bool>(),
    ) {
        let candidates: Vec<Value> = listings
            .into_iter()
            .enumerate()
            .map(|(i, mut l)| {
                // Distinct ids, pages and source URLs: listings that share a source URL are one
                // skill to the filter, and would be merged into a single candidate.
                l["skill_id"] = json!(format!("clawhub:s{i}"));
                l["url"] = json!(format!("https://example.com/s{i}"));
                l["source_code_url"] = json!(format!("https://example.com/src/s{i}"));
                l
            })
            .collect();
        let text = json!({"candidates": candidates}).to_string();
        let mode = if daily { Mode::Daily } else { Mode::Manual };
        let lang = if zh { Lang::Zh } else { Lang::En };
        let (staged, full) = both(&text, mode, task, lang);
        prop_assert_eq!(staged, full);
    }
}

fn p(strength: f64, relevance: f64) -> Preview {
    Preview {
        exact: false,
        relevance,
        strength,
        core: false,
        single: false,
    }
}

/// The head is extended exactly while a pending candidate could still be the pick or an
/// alternative.
#[test]
fn head_open_while_a_pending_candidate_could_be_the_pick_or_an_alternative() {
    let floor = 0.25;
    let weak = p(0.2, 0.6);
    let strong = p(0.5, 0.5);
    let strong_low = p(0.5, 0.1); // relevant, but below the alternatives' relevance floor
    let open = |head: &[Preview], pending: &[Preview]| {
        head_open(head.iter().copied(), pending.iter(), true, floor)
    };
    // No pick in the head: a relevant pending candidate reopens it, a weak one does not.
    assert!(open(&[weak; 10], &[weak, strong]));
    assert!(!open(&[weak; 10], &[weak, weak]));
    assert!(!open(&[weak; 10], &[]));
    // A pick and fewer than two alternatives: a pending alternative reopens it.
    assert!(open(&[strong, weak, strong], &[strong]));
    assert!(!open(&[strong, weak, strong], &[strong_low, weak]));
    // The pick and both alternatives are in the head: nothing pending matters.
    assert!(!open(&[strong, strong, strong], &[strong, strong]));
    // A core match needs only a share of the floor; a single-word match needs more.
    let core = Preview {
        core: true,
        ..p(0.2, 0.3)
    };
    let single = Preview {
        single: true,
        ..p(0.3, 0.3)
    };
    assert!(open(&[weak], &[core]));
    assert!(!open(&[weak], &[single]));
    // Without a task every candidate is relevant: a head without a pick is open.
    assert!(head_open([].into_iter(), [weak].iter(), false, 0.0));
    assert!(!head_open(
        [weak, weak, weak].into_iter(),
        [weak].iter(),
        false,
        0.0
    ));
}

/// Listings `0..n`, all low risk, distinct ids: `work` of them in a dev/ops category with many
/// downloads, the rest of no family and with few, so that the work family fills the head of the
/// order.
fn work_then_other(n: usize, work: usize) -> String {
    let candidates: Vec<Value> = (0..n)
        .map(|i| {
            let (category, downloads) = if i < work {
                (Some("devops"), 90_000 - i as u64)
            } else {
                (None, 10 + i as u64)
            };
            json!({
                "skill_id": format!("clawhub:s{i}"),
                "name": format!("tool-{i}"),
                "url": format!("https://example.com/s{i}"),
                "source_code_url": format!("https://example.com/src/s{i}"),
                "description": format!("Tool number {i}, a helper for everyday chores."),
                "categories": category.into_iter().collect::<Vec<_>>(),
                "popularity": {"downloads": downloads, "stars": downloads / 100},
                "source": "clawhub",
                "risk_level": "low",
                "has_install_docs": true,
                "has_security_disclosure": true,
                "updated_at": "2026-10-01T00:00:00Z",
            })
        })
        .collect();
    json!({"candidates": candidates}).to_string()
}

/// A daily pick read from a head made only as far as needed: after two days of work-family daily
/// picks, the first eligible candidate lies beyond the ten listed entries, and the staged result
/// is still the full one (and without the streak, the pick is the first entry).
#[test]
fn daily_pick_beyond_the_listed_head_equals_full() {
    let history = json!({"recommendations": [
        {"date": "2026-11-28T04:00:00Z", "skill_id": "clawhub:old1", "name": "ci-runner",
         "categories": ["devops"], "user_action": "shown", "mode": "daily"},
        {"date": "2026-11-27T04:00:00Z", "skill_id": "clawhub:old2", "name": "ci-runner-two",
         "categories": ["devops"], "user_action": "shown", "mode": "daily"},
    ]})
    .to_string();
    let text = work_then_other(40, 25);
    for lang in [Lang::En, Lang::Zh] {
        let (staged, full) = both_after(&text, Mode::Daily, None, lang, Some(&history));
        assert_eq!(staged, full);
        let rank = staged["pick"]["rank"].as_u64().expect("a daily pick");
        assert!(rank > RANKED_LISTED as u64, "pick at {rank}");
        let (staged, full) = both_after(&text, Mode::Daily, None, lang, None);
        assert_eq!(staged, full);
        assert_eq!(staged["pick"]["rank"], json!(1));
    }
}

/// Without a task every candidate is in one group: the head stops at the ten listed entries, and
/// the result is the full ranking's, in both modes.
#[test]
fn one_large_group_read_to_its_head_equals_full() {
    let text = work_then_other(60, 30);
    for mode in [Mode::Manual, Mode::Daily] {
        for task in [None, Some("devops tool")] {
            let (staged, full) = both(&text, mode, task, Lang::En);
            assert_eq!(staged, full, "{mode:?} {task:?}");
            assert_eq!(
                staged["ranked"].as_array().map(Vec::len),
                Some(RANKED_LISTED)
            );
        }
    }
}

/// [`Staged::score_more`] one entry at a time makes a prefix of [`rank_for`]'s order, entry for
/// entry, also where keys tie all the way (equal listings under one id: the input order decides).
#[test]
fn the_head_made_entry_by_entry_is_a_prefix_of_the_full_ranking() {
    let listing = |i: usize, id: usize, downloads: u64| {
        let c: crate::model::Candidate = serde_json::from_value(json!({
            "skill_id": format!("clawhub:s{id}"),
            "name": format!("tool-{id}"),
            "url": format!("https://example.com/s{id}"),
            "description": format!("Tool {i} for audio work."),
            "categories": ["audio"],
            "popularity": {"downloads": downloads, "stars": 3},
            "source": "clawhub",
            "risk_level": "low",
        }))
        .unwrap();
        (c, Risk::Low, Vec::new())
    };
    // Ties: equal downloads under one id (ties on every key), and equal downloads under distinct
    // ids (the id decides).
    let cands: Vec<_> = (0..30)
        .map(|i| listing(i, if i % 3 == 0 { 7 } else { i }, 1_000 * (i as u64 % 4)))
        .collect();
    let ctx_clock = crate::clock::Clock::new(NOW, Some("Asia/Shanghai"), None).unwrap();
    let (state, history) = Default::default();
    let env = Env {
        state: &state,
        history: &history,
        installed: &[],
        clock: &ctx_clock,
        lang: Lang::En,
    };
    let agent = Agent::resolve(&Default::default()).unwrap();
    for (mode, task) in [
        (Mode::Manual, None),
        (Mode::Manual, Some("audio tool")),
        (Mode::Daily, None),
    ] {
        let request = Request {
            task: task.map(str::to_owned),
            ..Default::default()
        };
        let full = rank_for(cands.clone(), mode, &request, &env, &agent);
        let mut staged = Staged::new(cands.clone(), mode, &request, &env, &agent);
        while staged.score_more(1) {
            let n = staged.ranked().len();
            assert_eq!(
                staged.ranked()[n - 1].to_json(n),
                full.ranked[n - 1].to_json(n),
                "{mode:?} {task:?} at {n}"
            );
            assert_eq!(
                staged.ranked()[n - 1].candidate,
                full.ranked[n - 1].candidate
            );
        }
        assert!(staged.is_complete());
        assert_eq!(staged.ranked().len(), full.ranked.len());
    }
}
