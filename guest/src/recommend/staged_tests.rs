//! The staged ranking ([`super::ranked_head`]) against the full one: `recommend`'s whole result must
//! be the same, byte for byte, whichever ranks it.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::MemoryStore;

const NOW: &str = "2026-11-29T02:00:00Z";
const DEMO: &str = include_str!("../../../data/sample_candidates.json");

fn both(candidates: &str, mode: Mode, task: Option<&str>, lang: Lang) -> (Value, Value) {
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
            MemoryStore::with(Some(&serde_json::to_string(&state).unwrap()), None)
        } else {
            MemoryStore::default()
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
