//! The pipeline on the sample data and on hand-made scenarios.

use super::*;
use crate::MemoryStore;
use crate::state::{History, State};

const DEMO: &str = include_str!("../../../data/sample_candidates.json");

/// The sample candidates as real input (without `"demo": true`, which would mark every card as a
/// demonstration and record nothing).
static REAL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let mut v: serde_json::Value = serde_json::from_str(DEMO).unwrap();
    v.as_object_mut().unwrap().remove("demo");
    v.to_string()
});
const NOW: &str = "2026-11-29T02:00:00Z";

fn ctx_at(now: &str, lang: Lang) -> Ctx {
    Ctx {
        now: now.into(),
        host_timezone: Some("Asia/Shanghai".into()),
        lang,
        lang_explicit: true,
    }
}

fn ctx(lang: Lang) -> Ctx {
    ctx_at(NOW, lang)
}

fn manual(task: &str) -> Options {
    Options {
        task: Some(task.into()),
        dry_run: true,
        ..Options::default()
    }
}

fn enabled_store() -> MemoryStore {
    let state = State {
        daily_rec_status: DailyStatus::Enabled,
        ..State::default()
    };
    MemoryStore::with(Some(&serde_json::to_string(&state).unwrap()), None)
}

fn history_of(store: &MemoryStore) -> History {
    store
        .history
        .as_deref()
        .map(|t| serde_json::from_str(t).unwrap())
        .unwrap_or_default()
}

fn state_of(store: &MemoryStore) -> State {
    store
        .state
        .as_deref()
        .map(|t| serde_json::from_str(t).unwrap())
        .unwrap_or_default()
}

fn ids(v: &Value) -> Vec<String> {
    std::iter::once(&v["pick"])
        .chain(v["alternatives"].as_array().unwrap())
        .filter_map(|x| x["skill_id"].as_str())
        .map(str::to_owned)
        .collect()
}

#[test]
fn manual_pick_has_alternatives_the_card_and_a_shown_record() {
    let mut store = MemoryStore::new();
    let opts = Options {
        dry_run: false,
        ..manual("把 PDF 表格转成 Excel")
    };
    let out = run(&ctx(Lang::Zh), &mut store, Mode::Manual, &REAL, &[], &opts).unwrap();
    assert_eq!(out["silent"], false);
    assert_eq!(out["pick"]["skill_id"], "clawhub:pdf-table-to-excel");
    assert_eq!(
        out["alternatives"][0]["skill_id"],
        "glama:docuflow/pdf-tables-mcp"
    );
    assert!(out["alternatives"].as_array().unwrap().len() <= MAX_ALTERNATIVES);
    assert_eq!(out["confidence"], "normal");
    let card = out["card"].as_str().unwrap();
    assert!(
        card.starts_with("推荐给你：pdf-table-to-excel — "),
        "{card}"
    );
    assert!(!card.contains('|'), "no markdown tables: {card}");
    assert_eq!(out["recorded"], true);
    let h = history_of(&store);
    assert_eq!(h.recommendations.len(), 1);
    let r = &h.recommendations[0];
    assert_eq!(
        (r.skill_id.as_str(), r.user_action.as_str()),
        ("clawhub:pdf-table-to-excel", "shown")
    );
    assert_eq!(r.extra["mode"], "manual");
    // The dropped and blocked lists say why.
    assert!(
        out["dropped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["reason"] == "blacklist_category")
    );
    assert!(
        out["blocked"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["skill_id"] == "clawhub:quick-env-bootstrap" && b["reason"] == "high_risk")
    );
}

#[test]
fn a_dry_run_writes_nothing() {
    let mut store = enabled_store();
    let before = (store.state.clone(), store.history.clone());
    for mode in [Mode::Manual, Mode::Daily] {
        let out = run(
            &ctx(Lang::En),
            &mut store,
            mode,
            &REAL,
            &[],
            &Options {
                dry_run: true,
                ..Options::default()
            },
        )
        .unwrap();
        assert_eq!(out["silent"], false, "{mode:?}: {out}");
        assert_eq!(out["recorded"], false);
    }
    assert_eq!((store.state.clone(), store.history.clone()), before);
}

#[test]
fn a_high_risk_skill_never_appears() {
    for task in [
        "一键配置开发环境",
        "quick env bootstrap",
        "devops productivity",
        "shell",
    ] {
        for mode in [Mode::Manual, Mode::Daily] {
            let mut store = enabled_store();
            let out = run(&ctx(Lang::Zh), &mut store, mode, &REAL, &[], &manual(task)).unwrap();
            assert!(
                !ids(&out).contains(&"clawhub:quick-env-bootstrap".to_owned()),
                "{task}: {out}"
            );
            assert!(
                !out["ranked"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|r| r["skill_id"] == "clawhub:quick-env-bootstrap")
            );
            assert!(
                !out["card"]
                    .as_str()
                    .unwrap_or("")
                    .contains("quick-env-bootstrap")
            );
        }
    }
}

#[test]
fn medium_risk_is_explained_in_manual_and_never_shown_daily() {
    let mut store = enabled_store();
    let out = run(
        &ctx(Lang::En),
        &mut store,
        Mode::Manual,
        &REAL,
        &[],
        &manual("auto-dub short videos into other languages"),
    )
    .unwrap();
    assert_eq!(out["pick"]["skill_id"], "x:clipdub", "{out}");
    assert_eq!(out["pick"]["risk_level"], "medium");
    let card = out["card"].as_str().unwrap();
    assert!(
        card.contains("Safety: medium risk, please review before installing: "),
        "{card}"
    );
    let daily = run(
        &ctx(Lang::En),
        &mut store,
        Mode::Daily,
        &REAL,
        &[],
        &Options {
            dry_run: true,
            ..Options::default()
        },
    )
    .unwrap();
    assert_ne!(daily["pick"]["skill_id"], "x:clipdub");
    assert!(
        daily["blocked"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["skill_id"] == "x:clipdub" && b["reason"] == "medium_risk_in_daily")
    );
}

#[test]
fn a_task_nothing_matches_gets_no_pick_rather_than_a_random_one() {
    // One generic concept in common is not a match either.
    let mut store = MemoryStore::new();
    let out = run(
        &ctx(Lang::En),
        &mut store,
        Mode::Manual,
        &REAL,
        &[],
        &manual("kubernetes helm chart linting"),
    )
    .unwrap();
    assert_eq!(
        out["reason"], "no_match_for_task",
        "{}",
        out["pick"]["skill_id"]
    );
    let mut store = MemoryStore::new();
    let out = run(
        &ctx(Lang::En),
        &mut store,
        Mode::Manual,
        &REAL,
        &[],
        &manual("astronomy telescope star charts"),
    )
    .unwrap();
    assert_eq!(out["silent"], true, "{}", out["pick"]);
    assert_eq!(out["reason"], "no_match_for_task");
    assert!(out["card"].is_null());
}

#[test]
fn fewer_than_three_usable_lowers_confidence_or_keeps_daily_silent() {
    let two = r#"{"candidates": [
      {"skill_id": "clawhub:pdf-merge-pro", "name": "pdf-merge-pro", "url": "https://clawhub.ai/o/pdf-merge-pro", "description": "Merges PDF files and keeps bookmarks and page labels.", "categories": ["pdf"], "source": "clawhub", "updated_at": "2026-11-20T00:00:00Z", "source_code_url": "https://github.com/o/pdf-merge-pro", "has_install_docs": true, "has_security_disclosure": true, "popularity": {"downloads": 900, "stars": 40}},
      {"skill_id": "clawhub:pdf-split", "name": "pdf-split", "url": "https://clawhub.ai/o/pdf-split", "description": "Splits a PDF into chapters by its outline.", "categories": ["pdf"], "source": "clawhub", "updated_at": "2026-11-20T00:00:00Z", "source_code_url": "https://github.com/o/pdf-split", "has_install_docs": true, "has_security_disclosure": true, "popularity": {"downloads": 300, "stars": 10}}
    ]}"#;
    let mut store = enabled_store();
    let out = run(
        &ctx(Lang::Zh),
        &mut store,
        Mode::Manual,
        two,
        &[],
        &manual("merge pdf"),
    )
    .unwrap();
    assert_eq!(out["confidence"], "low");
    assert!(out["card"].as_str().unwrap().contains("可用候选不足 3 个"));
    let daily = run(
        &ctx(Lang::Zh),
        &mut store,
        Mode::Daily,
        two,
        &[],
        &Options::default(),
    )
    .unwrap();
    assert_eq!(
        (daily["silent"].as_bool(), daily["reason"].as_str()),
        (Some(true), Some("too_few_candidates"))
    );
    // Nothing usable at all: silent in both modes, never a made-up candidate.
    for mode in [Mode::Manual, Mode::Daily] {
        let none = run(
            &ctx(Lang::Zh),
            &mut store,
            mode,
            "[]",
            &[],
            &Options::default(),
        )
        .unwrap();
        assert_eq!(none["silent"], true);
        assert!(none["pick"].is_null());
    }
}

#[test]
fn daily_runs_only_when_the_gate_allows() {
    for (status, reason) in [
        (DailyStatus::Unset, "daily_not_enabled"),
        (DailyStatus::Prompted, "daily_not_enabled"),
        (DailyStatus::Disabled, "daily_not_enabled"),
        (DailyStatus::Unsupported, "daily_not_enabled"),
        (DailyStatus::PendingSchedule, "daily_schedule_pending"),
    ] {
        let state = State {
            daily_rec_status: status,
            ..State::default()
        };
        let mut store = MemoryStore::with(Some(&serde_json::to_string(&state).unwrap()), None);
        let before = store.state.clone();
        let out = run(
            &ctx(Lang::Zh),
            &mut store,
            Mode::Daily,
            &REAL,
            &[],
            &Options::default(),
        )
        .unwrap();
        assert_eq!(
            (out["silent"].as_bool(), out["reason"].as_str()),
            (Some(true), Some(reason)),
            "{status:?}"
        );
        assert_eq!(store.state, before);
        assert!(store.history.is_none());
    }
}

#[test]
fn seven_daily_runs_rotate_themes_never_repeat_and_cap_work_streaks() {
    let mut store = enabled_store();
    let mut picks = Vec::new();
    let mut themes = Vec::new();
    let mut work = Vec::new();
    for day in 0..7 {
        let now = format!("2026-12-{:02}T02:00:00Z", day + 1);
        let c = ctx_at(&now, Lang::Zh);
        let out = run(&c, &mut store, Mode::Daily, &REAL, &[], &Options::default()).unwrap();
        assert_eq!(out["silent"], false, "day {day}: {out}");
        assert_eq!(out["pick"]["risk_level"], "low");
        assert!(
            out["alternatives"].as_array().unwrap().is_empty(),
            "daily shows exactly one"
        );
        let card = out["card"].as_str().unwrap();
        assert!(
            card.starts_with(&format!(
                "📡 每日精选推荐 · 2026-12-{:02}\n\n🎯 今日推荐：",
                day + 1
            )),
            "{card}"
        );
        picks.push(out["pick"]["skill_id"].as_str().unwrap().to_owned());
        themes.push(out["theme"].as_str().unwrap().to_owned());
        work.push(out["pick"]["work_family"].as_bool().unwrap());
        // A second run the same day stays silent.
        let again = run(&c, &mut store, Mode::Daily, &REAL, &[], &Options::default()).unwrap();
        assert_eq!(again["reason"], "daily_quota_exhausted");
    }
    let distinct: std::collections::BTreeSet<_> = picks.iter().collect();
    assert_eq!(distinct.len(), 7, "{picks:?}");
    for w in themes.windows(2) {
        assert_ne!(w[0], w[1], "{themes:?}");
    }
    assert!(
        themes.iter().any(|t| t == "fun_try_out")
            && themes.iter().any(|t| t == "hot_discovery")
            && themes.iter().any(|t| t == "practical_boost")
    );
    for w in work.windows(3) {
        assert!(
            !(w[0] && w[1] && w[2]),
            "three dev/ops/docs days in a row: {picks:?}"
        );
    }
    let state = state_of(&store);
    assert_eq!(
        state.daily_rotation["last_theme"],
        serde_json::json!(themes[6])
    );
    let h = history_of(&store);
    assert_eq!(h.recommendations.len(), 7);
    assert!(h.recommendations.iter().all(|r| r.extra["mode"] == "daily"));
}

#[test]
fn a_third_work_day_in_a_row_is_refused() {
    // Two previous daily picks were dev tools; only dev tools remain today.
    let history = serde_json::json!({"recommendations": [
        {"date": "2026-11-27T02:00:00Z", "skill_id": "clawhub:a", "name": "git-helper", "url": "https://clawhub.ai/o/a", "categories": ["coding", "git"], "user_action": "shown", "mode": "daily"},
        {"date": "2026-11-28T02:00:00Z", "skill_id": "clawhub:b", "name": "ci-doctor", "url": "https://clawhub.ai/o/b", "categories": ["devops"], "user_action": "shown", "mode": "daily"}
    ]});
    let state = State {
        daily_rec_status: DailyStatus::Enabled,
        ..State::default()
    };
    let dev = |id: &str| serde_json::json!({"skill_id": format!("clawhub:{id}"), "name": id, "url": format!("https://clawhub.ai/o/{id}"), "description": "Developer tool for git repositories and continuous integration.", "categories": ["coding", "devops"], "source": "clawhub", "source_code_url": format!("https://github.com/o/{id}"), "has_install_docs": true, "has_security_disclosure": true, "updated_at": "2026-11-20T00:00:00Z"});
    let cands =
        serde_json::json!([dev("lint-fixer"), dev("commit-bot"), dev("release-notes")]).to_string();
    let mut store = MemoryStore::with(
        Some(&serde_json::to_string(&state).unwrap()),
        Some(&history.to_string()),
    );
    let out = run(
        &ctx(Lang::En),
        &mut store,
        Mode::Daily,
        &cands,
        &[],
        &Options::default(),
    )
    .unwrap();
    assert_eq!(out["reason"], "only_work_family_left", "{out}");
    // With one non-dev candidate, that one is picked.
    let mut list: Vec<Value> = serde_json::from_str(&cands).unwrap();
    list.push(serde_json::json!({"skill_id": "clawhub:fridge", "name": "fridge-chef", "url": "https://clawhub.ai/o/fridge", "description": "Suggests dinner recipes from a photo of your fridge.", "categories": ["cooking", "lifestyle"], "source": "clawhub", "source_code_url": "https://github.com/o/fridge", "has_install_docs": true, "has_security_disclosure": true, "updated_at": "2026-11-20T00:00:00Z"}));
    let out = run(
        &ctx(Lang::En),
        &mut store,
        Mode::Daily,
        &Value::from(list).to_string(),
        &[],
        &Options {
            dry_run: true,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(out["pick"]["skill_id"], "clawhub:fridge");
}

#[test]
fn the_update_question_is_appended_only_when_due_and_no_other_question_is_asked() {
    let opts = |other: bool| Options {
        remote_version: Some("9.0.0".into()),
        other_question: other,
        dry_run: false,
        ..manual("pdf 表格")
    };
    // Another authorization question this turn: deferred, and not marked shown.
    let mut store = MemoryStore::new();
    let out = run(
        &ctx(Lang::Zh),
        &mut store,
        Mode::Manual,
        &REAL,
        &[],
        &opts(true),
    )
    .unwrap();
    assert_eq!(out["update"]["deferred"], true);
    assert!(!out["card"].as_str().unwrap().contains("新版"));
    assert_eq!(
        state_of(&store).update_notice_status,
        crate::state::UpdateNotice::Unset
    );
    // No other question: appended after the install question, and marked shown.
    let out = run(
        &ctx(Lang::Zh),
        &mut store,
        Mode::Manual,
        &REAL,
        &[],
        &opts(false),
    )
    .unwrap();
    let card = out["card"].as_str().unwrap();
    assert!(
        card.ends_with(&format!(
            "回复「安装」即可。\n\n{}\n",
            text::update_question(Lang::Zh)
        )),
        "{card}"
    );
    assert_eq!(out["update"]["asked"], true);
    assert_eq!(
        state_of(&store).last_seen_remote_version.as_deref(),
        Some("9.0.0")
    );
    // Asked once: not again for the same version.
    let out = run(
        &ctx(Lang::Zh),
        &mut store,
        Mode::Manual,
        &REAL,
        &[],
        &opts(false),
    )
    .unwrap();
    assert_eq!(out["update"]["reason"], "already_shown");
    assert!(out["update_question"].is_null());
    // A bad version is invalid input naming the flag, before anything is read.
    let bad = Options {
        remote_version: Some("soon".into()),
        ..manual("pdf")
    };
    let err = run(&ctx(Lang::Zh), &mut store, Mode::Manual, &REAL, &[], &bad).unwrap_err();
    assert!(err.to_string().contains("remote-version"), "{err}");
}

#[test]
fn bad_candidates_are_invalid_input_and_change_nothing() {
    let mut store = enabled_store();
    let before = store.state.clone();
    let err = run(
        &ctx(Lang::Zh),
        &mut store,
        Mode::Manual,
        "{\"candidates\": 3}",
        &[],
        &Options::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("candidates"), "{err}");
    assert_eq!(store.state, before);
}

#[test]
fn the_pick_threshold_does_not_depend_on_how_many_candidates_there_are() {
    // Generic "helps with pdf tasks" skills: a partial but real match for "extract pdf tables",
    // whether there are 30 of them or 600.
    for n in [30, 600] {
        let cats = ["pdf", "devops", "finance", "travel", "audio", "coding"];
        let list: Vec<Value> = (0..n)
            .map(|i| {
                let cat = cats[i % cats.len()];
                serde_json::json!({"skill_id": format!("clawhub:s{i}"), "name": format!("skill-{i}"), "source": "clawhub",
                    "url": format!("https://clawhub.ai/o/s{i}"), "description": format!("Skill number {i} that helps with {cat} tasks and daily work."),
                    "categories": [cat], "updated_at": "2026-10-01T00:00:00Z", "source_code_url": format!("https://github.com/o/s{i}"),
                    "has_install_docs": true, "has_security_disclosure": true})
            })
            .collect();
        let mut store = MemoryStore::new();
        let out = run(
            &ctx(Lang::En),
            &mut store,
            Mode::Manual,
            &Value::from(list).to_string(),
            &[],
            &manual("extract pdf tables"),
        )
        .unwrap();
        assert_eq!(
            out["pick"]["categories"][0], "pdf",
            "{n}: {}",
            out["reason"]
        );
    }
}

// ---------------------------------------------------------------------------------------------------
// The agent's path (issue 15): what a search gives, demo data, nothing left, feedback, language.

/// What an agent's web search gives: name, page, description, source; no date, no counts.
fn search_only() -> String {
    json!({"candidates": [
        {"skill_id": "clawhub:invoice-ocr", "name": "invoice-ocr", "url": "https://clawhub.ai/acme/invoice-ocr", "source": "clawhub",
         "description": "Reads scanned invoices and receipts and exports line items to a spreadsheet."},
        {"skill_id": "skillssh:acme/skills/meeting-notes", "name": "meeting-notes", "url": "https://skills.sh/acme/skills/meeting-notes", "source": "skillssh",
         "description": "Turns meeting transcripts into notes with decisions and action items. Scanned pages are not supported."},
        {"skill_id": "github:acme/k8s-helper", "name": "k8s-helper", "url": "https://github.com/acme/k8s-helper", "source": "github",
         "description": "Deploys services to Kubernetes with health checks and rollbacks."}
    ]})
    .to_string()
}

#[test]
fn search_only_candidates_are_kept_and_the_card_says_what_was_unknown() {
    let mut store = MemoryStore::new();
    let out = run(
        &ctx(Lang::En),
        &mut store,
        Mode::Manual,
        &search_only(),
        &[],
        &manual("turn my meeting transcript into action items"),
    )
    .unwrap();
    assert_eq!(out["summary"]["kept"], 3, "{}", out["dropped"]);
    assert_eq!(
        out["pick"]["skill_id"],
        "skillssh:acme/skills/meeting-notes"
    );
    assert_eq!(out["pick"]["unknown"], json!(["updated_at", "popularity"]));
    assert_eq!(out["confidence"], "low");
    assert_eq!(
        out["confidence_reasons"],
        json!(["unknown_updated_at", "unknown_popularity"])
    );
    let card = out["card"].as_str().unwrap();
    assert!(
        card.contains(
            "(This pick is less certain: the source states neither an update date nor download or star counts.)"
        ),
        "{card}"
    );
    // The pain point is never the limitation sentence.
    assert!(!card.contains("not supported"), "{card}");
    // Every label, joiner and mark of an English card is English.
    assert!(
        !card.chars().any(|c| matches!(c, '\u{3000}'..='\u{303f}' | '\u{4e00}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')),
        "{card}"
    );
    assert!(
        card.contains("\nID: skillssh:acme/skills/meeting-notes\n"),
        "{card}"
    );
}

#[test]
fn the_sample_data_is_a_demonstration_and_never_recorded() {
    let mut store = MemoryStore::new();
    let opts = Options {
        dry_run: false,
        ..manual("把 PDF 表格转成 Excel")
    };
    let out = run(&ctx(Lang::Zh), &mut store, Mode::Manual, DEMO, &[], &opts).unwrap();
    assert_eq!(
        (out["demo"].clone(), out["recorded"].clone()),
        (json!(true), json!(false))
    );
    let card = out["card"].as_str().unwrap();
    assert!(card.starts_with("【演示】"), "{card}");
    assert_eq!(store.saves, 0, "a demonstration writes nothing");
    let en = run(&ctx(Lang::En), &mut store, Mode::Manual, DEMO, &[], &opts).unwrap();
    assert!(en["card"].as_str().unwrap().starts_with("[Demo] "));
}

#[test]
fn nothing_left_says_why_per_reason() {
    let mut store = MemoryStore::new();
    let stale = json!([
        {"skill_id": "github:a/old", "name": "old", "url": "https://github.com/a/old", "description": "An old tool nobody uses for anything much.",
         "updated_at": "2020-01-01T00:00:00Z", "popularity": {"downloads": 1, "stars": 0}},
        {"skill_id": "github:a/old2", "name": "old2", "url": "https://github.com/a/old2", "description": "Another old tool nobody uses at all.",
         "updated_at": "2020-01-01T00:00:00Z", "popularity": {"downloads": 0, "stars": 2}},
        {"skill_id": "github:a/short", "name": "short", "url": "https://github.com/a/short", "description": "Too short."}
    ])
    .to_string();
    let out = run(
        &ctx(Lang::En),
        &mut store,
        Mode::Manual,
        &stale,
        &[],
        &manual("anything"),
    )
    .unwrap();
    assert_eq!(out["reason"], "no_usable_candidates");
    assert_eq!(
        out["summary"]["by_reason"],
        json!({"stale_and_low_popularity": 2, "description_too_short": 1})
    );
    let m = out["message"].as_str().unwrap();
    assert!(
        m.starts_with("No candidate is left to recommend: all 3"),
        "{m}"
    );
    assert!(m.contains("\n- stale_and_low_popularity: 2 ("), "{m}");
    assert!(m.contains("\n- description_too_short: 1 ("), "{m}");
    let none = run(
        &ctx(Lang::Zh),
        &mut store,
        Mode::Manual,
        "[]",
        &[],
        &manual("x"),
    )
    .unwrap();
    assert_eq!(none["reason"], "no_usable_candidates");
    assert!(
        none["message"]
            .as_str()
            .unwrap()
            .starts_with("没有收到任何候选")
    );
}

#[test]
fn manual_recommendations_never_use_up_the_daily_push() {
    let mut store = enabled_store();
    let opts = Options {
        dry_run: false,
        ..manual("把 PDF 表格转成 Excel")
    };
    for _ in 0..2 {
        let out = run(&ctx(Lang::Zh), &mut store, Mode::Manual, &REAL, &[], &opts).unwrap();
        assert_eq!(out["recorded"], true);
    }
    let gate = crate::lifecycle::daily_gate(&ctx(Lang::Zh), &mut store, true).unwrap();
    assert_eq!(
        (gate["run"].clone(), gate["reason"].clone()),
        (json!(true), json!("ok"))
    );
    let daily = run(
        &ctx(Lang::Zh),
        &mut store,
        Mode::Daily,
        &REAL,
        &[],
        &Options::default(),
    )
    .unwrap();
    assert_eq!(daily["silent"], false, "{}", daily["reason"]);
    // The daily push does use it up; a record without `mode` (the original's) counts as daily too.
    let again = crate::lifecycle::daily_gate(&ctx(Lang::Zh), &mut store, true).unwrap();
    assert_eq!(again["reason"], "daily_quota_exhausted");
    let legacy = json!({"recommendations": [{"date": NOW, "skill_id": "clawhub:x", "name": "x", "url": "https://clawhub.ai/a/x",
        "categories": [], "user_action": "shown"}]});
    let mut old = MemoryStore::with(
        Some(
            &serde_json::to_string(&State {
                daily_rec_status: DailyStatus::Enabled,
                ..State::default()
            })
            .unwrap(),
        ),
        Some(&legacy.to_string()),
    );
    let gate = crate::lifecycle::daily_gate(&ctx(Lang::Zh), &mut old, true).unwrap();
    assert_eq!(gate["reason"], "daily_quota_exhausted");
}

#[test]
fn feedback_resolves_against_what_was_shown() {
    use crate::lifecycle::{FeedbackAction, SkillRef, feedback};
    let mut store = MemoryStore::new();
    let opts = Options {
        dry_run: false,
        ..manual("把 PDF 表格转成 Excel")
    };
    let out = run(&ctx(Lang::Zh), &mut store, Mode::Manual, &REAL, &[], &opts).unwrap();
    let alt = out["alternatives"][0].clone();
    let by = |id: &str| SkillRef {
        skill_id: id.into(),
        ..SkillRef::default()
    };
    // The name as the card shows it.
    let accepted = feedback(
        &ctx(Lang::Zh),
        &mut store,
        FeedbackAction::Accept,
        &by("pdf-table-to-excel"),
    )
    .unwrap();
    assert_eq!(accepted["skill_id"], "clawhub:pdf-table-to-excel");
    assert_eq!(accepted["resolved_by"], "name");
    assert_eq!(
        accepted["record"]["url"],
        "https://clawhub.ai/tabulark/pdf-table-to-excel"
    );
    assert_eq!(accepted["record"]["user_action"], "accepted");
    // An alternative, by its id: a new record with its name and URL.
    let alt_id = alt["skill_id"].as_str().unwrap();
    let rejected = feedback(
        &ctx(Lang::Zh),
        &mut store,
        FeedbackAction::Reject,
        &by(alt_id),
    )
    .unwrap();
    assert_eq!(rejected["resolved_by"], "id");
    assert_eq!(rejected["record"]["name"], alt["name"]);
    assert_eq!(rejected["record"]["url"], alt["url"]);
    assert_eq!(rejected["record"]["mode"], "manual");
    // Never shown, no name and URL: refused, listing what was shown; nothing written.
    let before = store.saves;
    let err = feedback(
        &ctx(Lang::Zh),
        &mut store,
        FeedbackAction::Accept,
        &by("meeting-minutes-cn"),
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("skill-id") && text.contains("clawhub:pdf-table-to-excel"),
        "{text}"
    );
    assert_eq!(store.saves, before);
    // A skill found elsewhere: with its name and URL it is recorded as given.
    let given = SkillRef {
        name: Some("Meeting minutes".into()),
        url: Some("https://clawhub.ai/a/meeting-minutes-cn".into()),
        ..by("clawhub:meeting-minutes-cn")
    };
    let ok = feedback(&ctx(Lang::Zh), &mut store, FeedbackAction::Accept, &given).unwrap();
    assert_eq!(ok["resolved_by"], "given");
    // A skill installed from a local source (`install`'s `local:<name>`): its name is enough.
    let local = SkillRef {
        name: Some("date-format".into()),
        ..by("local:date-format")
    };
    let ok = feedback(&ctx(Lang::Zh), &mut store, FeedbackAction::Accept, &local).unwrap();
    assert_eq!(ok["resolved_by"], "given");
    // Without a name it is refused like any unknown id, and `local:` alone is no id.
    for id in ["local:other", "local:"] {
        assert!(feedback(&ctx(Lang::Zh), &mut store, FeedbackAction::Accept, &by(id)).is_err());
    }
}

#[test]
fn a_chosen_language_is_kept_for_later_calls() {
    let mut store = MemoryStore::new();
    let opts = Options {
        dry_run: false,
        ..manual("meeting minutes")
    };
    run(&ctx(Lang::En), &mut store, Mode::Manual, &REAL, &[], &opts).unwrap();
    assert_eq!(state_of(&store).lang.as_deref(), Some("en"));
    // A later call that does not choose (the locale said zh) follows the state; one that chooses wins.
    let guess = Ctx {
        lang: Lang::Zh,
        lang_explicit: false,
        ..ctx(Lang::Zh)
    };
    let out = run(
        &guess,
        &mut store,
        Mode::Manual,
        &REAL,
        &[],
        &manual("pdf tables to excel"),
    )
    .unwrap();
    assert!(
        out["card"]
            .as_str()
            .unwrap()
            .starts_with("Recommended for you")
    );
    let status = crate::lifecycle::status(&guess, &mut store).unwrap();
    assert_eq!(
        (status["lang"].clone(), status["lang_source"].clone()),
        (json!("en"), json!("state"))
    );
    let chosen = run(
        &ctx(Lang::Zh),
        &mut store,
        Mode::Manual,
        &REAL,
        &[],
        &manual("pdf tables to excel"),
    )
    .unwrap();
    assert!(chosen["card"].as_str().unwrap().starts_with("推荐给你"));
}

#[test]
fn a_task_written_in_chinese_gets_a_chinese_card_unless_a_language_was_chosen() {
    // The locale said English and nothing chose a language: the task's script decides.
    let locale_en = Ctx {
        lang_explicit: false,
        ..ctx(Lang::En)
    };
    let card = |ctx: &Ctx, store: &mut MemoryStore, task: &str| {
        let out = run(ctx, store, Mode::Manual, &REAL, &[], &manual(task)).unwrap();
        out["card"].as_str().unwrap().to_owned()
    };
    let mut store = MemoryStore::new();
    assert!(card(&locale_en, &mut store, "把 PDF 表格转成 Excel").starts_with("推荐给你"));
    // Must not: a task in English, or in kana only (no Chinese characters), follows the locale.
    assert!(card(&locale_en, &mut store, "pdf tables to excel").starts_with("Recommended for you"));
    assert!(card(&locale_en, &mut store, "pdf を エクセル に").starts_with("Recommended for you"));
    // Must not: a language chosen now (`--lang en`) or saved in the state wins over the task.
    assert!(card(&ctx(Lang::En), &mut store, "把 PDF 表格转成 Excel").starts_with("Recommended"));
    let state = State {
        lang: Some("en".into()),
        ..State::default()
    };
    let mut saved = MemoryStore::with(Some(&serde_json::to_string(&state).unwrap()), None);
    assert!(card(&locale_en, &mut saved, "把 PDF 表格转成 Excel").starts_with("Recommended"));
}

/// The cut-off by script (`rank23`): a plain match (neither core nor single) at the cut-off of the
/// request's script is picked, one just below it is not, and a single-word match still needs
/// [`SINGLE_MATCH_FLOOR`] whatever the script.
#[test]
fn the_cut_off_by_script_passes_a_plain_match_at_it_and_not_below() {
    let p = |strength: f64, core: bool, single: bool| Preview {
        exact: false,
        relevance: strength,
        strength,
        core,
        single,
    };
    let latin = min_task_match("my basil keeps wilting, what is wrong with it");
    let han = min_task_match("帮我把照片背景去掉");
    assert!((latin - 0.22).abs() < 1e-9, "{latin}");
    assert!((han - 0.21).abs() < 1e-9, "{han}");
    // Must match: a plain match at the cut-off.
    assert!(relevant(&p(0.222, false, false), true, latin));
    assert!(relevant(&p(0.216, false, false), true, han));
    // Must not match: just below the cut-off.
    assert!(!relevant(&p(0.215, false, false), true, latin));
    assert!(!relevant(&p(0.205, false, false), true, han));
    // A single-word match below its own floor stays withheld in both scripts.
    assert!(!relevant(&p(0.30, false, true), true, latin));
    assert!(!relevant(&p(0.34, false, true), true, han));
    assert!(relevant(&p(SINGLE_MATCH_FLOOR, false, true), true, han));
    // A core match keeps its lower share of the cut-off.
    assert!(relevant(&p(0.6 * latin, true, false), true, latin));
    assert!(!relevant(&p(0.6 * latin - 0.01, true, false), true, latin));
}
