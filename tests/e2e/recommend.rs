//! Issue 5 end to end: `rank`, `recommend` and `render` through the real CLI and component.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{cli, cli_input, code, json, read};

/// The sample candidates as real search results (see `common::real_sample`).
fn sample() -> PathBuf {
    crate::common::real_sample()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

fn history(dir: &Path) -> Value {
    serde_json::from_str(&read(&dir.join("history.json"))).unwrap_or(Value::Null)
}

#[test]
fn recommend_prints_the_card_and_records_shown() {
    let dir = tempfile::tempdir().unwrap();
    let s = sample();
    let args = [
        "recommend",
        "--mode",
        "manual",
        "--task",
        "把 PDF 表格转成 Excel",
        "--candidates",
        s.to_str().unwrap(),
        "--no-discover",
    ];
    let out = cli(Some(dir.path()), &args, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let card = stdout(&out);
    assert!(
        card.starts_with("推荐给你：pdf-table-to-excel — "),
        "{card}"
    );
    assert!(
        card.ends_with("需要我帮你装上吗？回复「安装」即可。\n"),
        "{card}"
    );
    let h = history(dir.path());
    assert_eq!(
        h["recommendations"][0]["skill_id"],
        "clawhub:pdf-table-to-excel"
    );
    assert_eq!(h["recommendations"][0]["user_action"], "shown");
    // Shown once: the next identical request moves on to another candidate.
    let again = cli(Some(dir.path()), &args, &[]);
    assert!(!stdout(&again).starts_with("推荐给你：pdf-table-to-excel"));
}

#[test]
fn the_sample_data_only_on_request_and_marked_as_a_demonstration() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "--lang",
        "en",
        "recommend",
        "--mode",
        "manual",
        "--no-discover",
    ];
    // Without candidates: an error that says how to give them.
    let out = cli(Some(dir.path()), &base, &[]);
    assert_eq!(code(&out), 3);
    let e = &json(&out)["error"];
    assert_eq!(e["field"], "candidates");
    let m = e["message"].as_str().unwrap();
    assert!(
        m.contains("--candidates FILE") && m.contains("--sample") && m.contains("schema"),
        "{m}"
    );
    let sample = [&base[..], &["--sample", "--json"]].concat();
    let out = cli(Some(dir.path()), &sample, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    for key in [
        "pick",
        "alternatives",
        "dropped",
        "blocked",
        "card",
        "ranked",
        "summary",
    ] {
        assert!(v.get(key).is_some(), "{key} missing");
    }
    assert_eq!(
        (v["demo"].clone(), v["recorded"].clone()),
        (json!(true), json!(false))
    );
    assert!(
        v["card"].as_str().unwrap().starts_with("[Demo] "),
        "{}",
        v["card"]
    );
    assert_eq!(v["summary"]["input"], 22);
    assert!(v["pick"]["breakdown"]["task"]["weight"] == 30.0);
    assert!(
        v["blocked"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["reason"] == "high_risk")
    );
    assert!(
        !dir.path().join("history.json").exists(),
        "a demonstration writes nothing"
    );
    // --sample goes alone.
    let both = [&sample[..], &["--candidates", "x.json"]].concat();
    assert_eq!(code(&cli(Some(dir.path()), &both, &[])), 2);
}

#[test]
fn a_silent_daily_prints_nothing_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let s = sample();
    let out = cli(
        Some(dir.path()),
        &[
            "recommend",
            "--mode",
            "daily",
            "--candidates",
            s.to_str().unwrap(),
            "--no-discover",
        ],
        &[],
    );
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("daily_not_enabled"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("state.json").exists());
    assert!(!dir.path().join("history.json").exists());
}

#[test]
fn daily_recommend_once_per_local_day_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("state.json"),
        json!({"daily_rec_status": "enabled", "timezone": "Asia/Shanghai"}).to_string(),
    )
    .unwrap();
    let s = sample();
    let args = [
        "recommend",
        "--mode",
        "daily",
        "--candidates",
        s.to_str().unwrap(),
        "--no-discover",
        "--json",
    ];
    let first = json(&cli(Some(dir.path()), &args, &[]));
    assert_eq!(first["silent"], false);
    assert!(
        first["card"]
            .as_str()
            .unwrap()
            .starts_with("📡 每日精选推荐 · 2026-11-29")
    );
    let second = json(&cli(Some(dir.path()), &args, &[]));
    assert_eq!(second["reason"], "daily_quota_exhausted");
    let state: Value = serde_json::from_str(&read(&dir.path().join("state.json"))).unwrap();
    assert_eq!(state["daily_rotation"]["last_theme"], first["theme"]);
    assert_eq!(
        history(dir.path())["recommendations"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn rank_reads_stdin_and_explains_every_score() {
    let dir = tempfile::tempdir().unwrap();
    let text = crate::common::real_sample_text();
    let out = cli_input(
        Some(dir.path()),
        &[
            "rank",
            "--candidates",
            "-",
            "--mode",
            "manual",
            "--task",
            "meeting minutes",
            "--signal",
            "weekly team syncs",
            "--no-discover",
        ],
        &[],
        Some(&text),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    let ranked = v["ranked"].as_array().unwrap();
    assert_eq!(
        ranked.len(),
        22,
        "rank ranks what it is given; filtering is filter's job"
    );
    assert_eq!(ranked[0]["skill_id"], "clawhub:meeting-minutes-cn");
    for r in ranked {
        let b = r["breakdown"].as_object().unwrap();
        let sum: f64 = b.values().map(|f| f["points"].as_f64().unwrap()).sum();
        assert!((sum - r["score"].as_f64().unwrap()).abs() < 0.06, "{r}");
    }
    assert_eq!(v["weights"]["task"], 30.0);
    assert!(!dir.path().join("state.json").exists(), "rank never writes");
    // Bad input: exit 3 naming the field.
    let bad = cli_input(
        Some(dir.path()),
        &["rank", "--candidates", "-", "--mode", "manual"],
        &[],
        Some("{nope"),
    );
    assert_eq!(code(&bad), 3);
    assert!(
        json(&bad)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("candidates")
    );
}

#[test]
fn render_reproduces_the_card_in_either_language() {
    let dir = tempfile::tempdir().unwrap();
    let s = sample();
    let rec = cli(
        Some(dir.path()),
        &[
            "recommend",
            "--mode",
            "manual",
            "--task",
            "冰箱食材做菜",
            "--candidates",
            s.to_str().unwrap(),
            "--json",
            "--dry-run",
            "--no-discover",
        ],
        &[],
    );
    let v = json(&rec);
    let input = serde_json::to_string(&v).unwrap();
    let zh = cli_input(
        None,
        &["render", "--mode", "manual", "--input", "-"],
        &[],
        Some(&input),
    );
    assert_eq!(code(&zh), 0, "{}", stderr(&zh));
    assert_eq!(stdout(&zh), v["card"].as_str().unwrap());
    let en = cli_input(
        None,
        &[
            "--lang", "en", "render", "--mode", "manual", "--input", "-", "--json",
        ],
        &[],
        Some(&input),
    );
    let e = json(&en);
    assert_eq!(e["lang"], "en");
    assert!(
        e["card"]
            .as_str()
            .unwrap()
            .starts_with("Recommended for you: fridge-chef")
    );
    // A silent result has nothing to render.
    let silent = cli_input(
        None,
        &["render", "--mode", "daily", "--input", "-"],
        &[],
        Some(r#"{"silent": true, "pick": null}"#),
    );
    assert_eq!(code(&silent), 3);
}

#[test]
fn help_teaches_the_main_job() {
    let out = cli(None, &["recommend", "--help"], &[]);
    let help = stdout(&out);
    for flag in [
        "--mode",
        "--candidates",
        "--task",
        "--signal",
        "--json",
        "--dry-run",
        "--remote-version",
        "--other-question",
        "--no-discover",
    ] {
        assert!(help.contains(flag), "{flag} missing from recommend --help");
    }
}
