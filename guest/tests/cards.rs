//! Golden files for the cards: both modes, both languages, on the bundled sample data.
//! `UPDATE_GOLDEN=1 cargo test -p guest --test cards` rewrites them; review the diff before committing.

use guest::filter::Mode;
use guest::recommend::{Options, run};
use guest::state::{DailyStatus, State};
use guest::{Ctx, Lang, MemoryStore};

const DEMO: &str = include_str!("../../data/sample_candidates.json");

/// The sample candidates as real input: without `"demo": true`, which marks the card as a demonstration.
fn sample() -> String {
    let mut v: serde_json::Value = serde_json::from_str(DEMO).unwrap();
    v.as_object_mut().unwrap().remove("demo");
    v.to_string()
}

fn check(name: &str, actual: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    assert_eq!(actual, expected, "{name} differs from its golden file");
}

fn ctx(lang: Lang) -> Ctx {
    Ctx {
        now: "2026-11-29T02:00:00Z".into(),
        host_timezone: Some("Asia/Shanghai".into()),
        lang,
        lang_explicit: true,
    }
}

fn card(mode: Mode, lang: Lang, opts: &Options) -> String {
    let state = State {
        daily_rec_status: DailyStatus::Enabled,
        daily_rotation: serde_json::json!({"last_theme": "hot_discovery", "last_run_at": "2026-11-28T02:00:00Z"}),
        ..State::default()
    };
    let mut store = MemoryStore::with(Some(&serde_json::to_string(&state).unwrap()), None);
    let out = run(&ctx(lang), &mut store, mode, &sample(), &[], opts).unwrap();
    out["card"].as_str().expect("a card").to_owned()
}

#[test]
fn daily_card_zh() {
    let c = card(Mode::Daily, Lang::Zh, &Options::default());
    // The protocol's structure, line by line.
    let lines: Vec<&str> = c.lines().filter(|l| !l.is_empty()).collect();
    assert!(lines[0].starts_with("📡 每日精选推荐 · 2026-11-29"));
    assert!(lines[1].starts_with("🎯 今日推荐："));
    assert!(lines[2].starts_with("这个 skill 专治一个很常见的问题："));
    assert_eq!(lines[3], "它能做什么：");
    assert!(lines[4..7].iter().all(|l| l.starts_with("• ")));
    assert!(lines[7].starts_with("为什么值得装："));
    assert!(lines[8].starts_with("来源：https://"));
    // Beyond the protocol's lines: the ID an agent passes to `accept`.
    assert_eq!(lines[9], "ID：clawhub:ai-tone-polisher");
    assert!(lines[10].starts_with("安全状态："));
    assert_eq!(lines[11], "需要我帮你装上吗？回复「安装」即可。");
    check("daily.zh.txt", &c);
}

#[test]
fn daily_card_en() {
    check(
        "daily.en.txt",
        &card(Mode::Daily, Lang::En, &Options::default()),
    );
}

#[test]
fn manual_card_zh_with_the_update_question() {
    let opts = Options {
        task: Some("把 PDF 表格转成 Excel".into()),
        remote_version: Some("0.2.0".into()),
        ..Options::default()
    };
    let c = card(Mode::Manual, Lang::Zh, &opts);
    assert!(c.starts_with("推荐给你："));
    assert!(c.contains("已安装状态：未安装"));
    check("manual.zh.txt", &c);
}

#[test]
fn manual_card_en() {
    let opts = Options {
        task: Some("summarize my meeting recordings".into()),
        ..Options::default()
    };
    check("manual.en.txt", &card(Mode::Manual, Lang::En, &opts));
}

#[test]
fn no_card_uses_markdown_tables_or_headings() {
    for mode in [Mode::Daily, Mode::Manual] {
        for lang in [Lang::Zh, Lang::En] {
            let c = card(mode, lang, &Options::default());
            assert!(
                !c.lines()
                    .any(|l| l.starts_with('|') || l.starts_with('#') || l.contains("---")),
                "{c}"
            );
        }
    }
}

#[test]
fn the_demo_card_says_so_first() {
    let mut store = MemoryStore::new();
    let out = run(
        &ctx(Lang::Zh),
        &mut store,
        Mode::Manual,
        DEMO,
        &[],
        &Options::default(),
    )
    .unwrap();
    let card = out["card"].as_str().unwrap();
    assert!(
        card.starts_with("【演示】以下内容来自内置示例数据，不是真实推荐。\n\n推荐给你："),
        "{card}"
    );
}

/// A Chinese card words the risk in Chinese: the rules' English descriptions stay in the JSON
/// findings, never on the card (issue 15: every label follows the card's language). The same
/// candidate's English card still explains the risk in English.
#[test]
fn a_chinese_card_explains_a_medium_risk_in_chinese() {
    let candidates = serde_json::json!([{
        "skill_id": "clawhub:meeting-minutes-cn",
        "name": "meeting-minutes-cn",
        "url": "https://clawhub.ai/a/meeting-minutes-cn",
        "source": "clawhub",
        "description": "把会议录音转成结构化纪要，自动提取决议和待办事项。",
        "updated_at": "2026-11-01T00:00:00Z",
        "popularity": {"downloads": 900, "stars": 30}
    }])
    .to_string();
    let opts = Options {
        task: Some("把会议录音转成纪要".into()),
        dry_run: true,
        ..Options::default()
    };
    let render = |lang: Lang| {
        let mut store = MemoryStore::new();
        let out = run(
            &ctx(lang),
            &mut store,
            Mode::Manual,
            &candidates,
            &[],
            &opts,
        )
        .unwrap();
        out["card"].as_str().expect("a card").to_owned()
    };
    let zh = render(Lang::Zh);
    let safety = zh
        .lines()
        .find(|l| l.starts_with("安全状态："))
        .expect("a safety line");
    assert!(safety.contains("中等风险"), "{safety}");
    assert!(safety.contains("信息太少"), "{safety}");
    assert!(
        !safety.chars().any(|c| c.is_ascii_alphabetic()),
        "English in a Chinese safety line: {safety}"
    );
    let en = render(Lang::En);
    assert!(en.contains("too little to judge the skill by"), "{en}");
}
