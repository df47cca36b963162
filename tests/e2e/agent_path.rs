//! Issue 15 through the real CLI: the path an agent walks from a search result to a correct card.
//! Each observed case is a test here.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::{cli, cli_input, code, json, read, root};

fn out_text(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err_text(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// What a web search gives: name, page, description, source. No date, no counts.
fn search_only() -> Value {
    json!({"candidates": [
        {"skill_id": "clawhub:invoice-ocr", "name": "invoice-ocr", "url": "https://clawhub.ai/acme/invoice-ocr", "source": "clawhub",
         "description": "Reads scanned invoices and receipts and exports line items to a spreadsheet."},
        {"skill_id": "skillssh:acme/skills/meeting-notes", "name": "meeting-notes", "url": "https://skills.sh/acme/skills/meeting-notes", "source": "skillssh",
         "description": "Turns meeting transcripts into notes with decisions and action items. Scanned pages are not supported."},
        {"skill_id": "github:acme/k8s-helper", "name": "k8s-helper", "url": "https://github.com/acme/k8s-helper", "source": "github",
         "description": "Deploys services to Kubernetes with health checks and rollbacks."}
    ]})
}

fn write(dir: &Path, name: &str, v: &Value) -> String {
    let p = dir.join(name);
    std::fs::write(&p, v.to_string()).unwrap();
    p.to_str().unwrap().to_owned()
}

const TASK: &str = "turn my meeting transcript into action items";

fn has_cjk(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c, '\u{3000}'..='\u{303f}' | '\u{4e00}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')
    })
}

#[test]
fn search_only_candidates_give_an_english_card_that_says_what_was_unknown() {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "search.json", &search_only());
    let args = [
        "--lang",
        "en",
        "recommend",
        "--mode",
        "manual",
        "--task",
        TASK,
        "--candidates",
        &f,
        "--no-discover",
    ];
    let out = cli(Some(d.path()), &args, &[]);
    assert_eq!(code(&out), 0, "{}", err_text(&out));
    let card = out_text(&out);
    assert!(
        card.starts_with("Recommended for you: meeting-notes — "),
        "{card}"
    );
    assert!(
        card.contains("less certain") && card.contains("update date"),
        "{card}"
    );
    assert!(
        !has_cjk(&card),
        "an English card is English throughout: {card}"
    );
    assert!(
        !card
            .lines()
            .any(|l| l.starts_with("The problem it solves") && l.contains("not supported")),
        "the pain point is never a limitation: {card}"
    );
    assert!(
        card.contains("\nID: skillssh:acme/skills/meeting-notes\n"),
        "{card}"
    );
    // The history record has the name and URL, and `mode`.
    let h: Value = serde_json::from_str(&read(&d.path().join("history.json"))).unwrap();
    let r = &h["recommendations"][0];
    assert_eq!(
        (r["name"].clone(), r["mode"].clone()),
        (json!("meeting-notes"), json!("manual"))
    );
}

#[test]
fn a_registry_response_is_accepted_as_it_came() {
    let d = tempfile::tempdir().unwrap();
    let raw = root().join("tests/fixtures/registries/clawhub-search.json");
    let raw = raw.to_str().unwrap();
    let base = [
        "recommend",
        "--mode",
        "manual",
        "--task",
        "pdf tables",
        "--json",
        "--dry-run",
        "--no-discover",
        "--candidates",
        raw,
    ];
    let out = cli(Some(d.path()), &base, &[]);
    assert_eq!(code(&out), 0, "{}", err_text(&out));
    let v = json(&out);
    assert_eq!(v["normalized_from"], "clawhub");
    assert!(
        v["pick"]["skill_id"]
            .as_str()
            .unwrap()
            .starts_with("clawhub:")
    );
    // Named with --from; the same through filter, scan and rank.
    let named = [&base[..], &["--from", "clawhub"]].concat();
    assert_eq!(json(&cli(Some(d.path()), &named, &[]))["pick"], v["pick"]);
    for args in [
        &[
            "filter",
            "--mode",
            "manual",
            "--candidates",
            raw,
            "--no-discover",
        ][..],
        &["scan", "--mode", "manual", "--candidates", raw],
        &[
            "rank",
            "--mode",
            "manual",
            "--candidates",
            raw,
            "--no-discover",
        ],
    ] {
        let out = cli(Some(d.path()), args, &[]);
        assert_eq!(code(&out), 0, "{args:?}: {}", err_text(&out));
    }
    // A skills.sh response named explicitly (its items alone are not recognisable).
    let sk = json!({"skills": [{"id": "acme/skills/notes", "name": "notes", "installs": 40}]});
    let f = write(d.path(), "sk.json", &sk);
    let out = cli(
        Some(d.path()),
        &[
            "filter",
            "--mode",
            "manual",
            "--candidates",
            &f,
            "--from",
            "skillssh",
            "--no-discover",
        ],
        &[],
    );
    assert_eq!(
        json(&out)["normalized_from"],
        "skillssh",
        "{}",
        out_text(&out)
    );
    // A list mixing candidates and raw items is refused, naming the item.
    let mixed = json!([search_only()["candidates"][0], {"full_name": "a/b", "html_url": "https://github.com/a/b", "description": "A repository of things."}]);
    let f = write(d.path(), "mixed.json", &mixed);
    let out = cli(
        Some(d.path()),
        &[
            "filter",
            "--mode",
            "manual",
            "--candidates",
            &f,
            "--no-discover",
        ],
        &[],
    );
    assert_eq!(code(&out), 3);
    assert!(
        json(&out)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("item 1")
    );
}

#[test]
fn errors_teach_what_was_expected_and_what_would_work() {
    let d = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str]); 3] = [
        (
            r#"["pdf-tool", "k8s-tool"]"#,
            &["object", "skill_id", "schema/candidates.schema.json"],
        ),
        (
            "pdf-tool: extracts tables\n",
            &["not JSON", "\"candidates\"", "registry"],
        ),
        (r#"{"hits": [{"title": "pdf"}]}"#, &["--from", "normalize"]),
    ];
    for (input, needles) in cases {
        let out = cli_input(
            Some(d.path()),
            &[
                "recommend",
                "--mode",
                "manual",
                "--candidates",
                "-",
                "--no-discover",
            ],
            &[],
            Some(input),
        );
        assert_eq!(code(&out), 3, "{input}");
        let e = &json(&out)["error"];
        assert_eq!(e["field"], "candidates");
        let m = e["message"].as_str().unwrap();
        for n in needles {
            assert!(m.contains(n), "{input}: {m} lacks {n}");
        }
    }
    assert!(!d.path().join("history.json").exists());
}

#[test]
fn when_everything_is_dropped_stdout_says_why_and_the_exit_code_is_10() {
    let d = tempfile::tempdir().unwrap();
    let old = json!([
        {"skill_id": "github:a/old", "name": "old", "url": "https://github.com/a/old", "description": "An old tool nobody uses for anything much.",
         "updated_at": "2020-01-01T00:00:00Z", "popularity": {"downloads": 1, "stars": 0}},
        {"skill_id": "github:a/short", "name": "short", "url": "https://github.com/a/short", "description": "Too short."}
    ]);
    let f = write(d.path(), "old.json", &old);
    let out = cli(
        Some(d.path()),
        &[
            "--lang",
            "en",
            "recommend",
            "--mode",
            "manual",
            "--candidates",
            &f,
            "--no-discover",
        ],
        &[],
    );
    assert_eq!(code(&out), 10);
    let text = out_text(&out);
    assert!(
        text.starts_with("No candidate is left to recommend: all 2"),
        "{text}"
    );
    assert!(
        text.contains("\n- stale_and_low_popularity: 1 (")
            && text.contains("\n- description_too_short: 1 ("),
        "{text}"
    );
    let out = cli(
        Some(d.path()),
        &[
            "filter",
            "--mode",
            "manual",
            "--candidates",
            &f,
            "--no-discover",
        ],
        &[],
    );
    assert_eq!(code(&out), 10);
    assert_eq!(
        json(&out)["summary"]["by_reason"]["stale_and_low_popularity"],
        1
    );
}

#[test]
fn feedback_refers_to_what_was_shown() {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "search.json", &search_only());
    let rec = cli(
        Some(d.path()),
        &[
            "recommend",
            "--mode",
            "manual",
            "--task",
            TASK,
            "--candidates",
            &f,
            "--no-discover",
            "--json",
        ],
        &[],
    );
    let pick = json(&rec)["pick"]["skill_id"].as_str().unwrap().to_owned();
    // An id never shown, without name and URL: refused, with the ids that were shown.
    let out = cli(
        Some(d.path()),
        &["accept", "--skill-id", "meeting-minutes-cn"],
        &[],
    );
    assert_eq!(code(&out), 3);
    let e = &json(&out)["error"];
    assert_eq!(e["field"], "skill-id");
    assert!(e["message"].as_str().unwrap().contains(&pick), "{e}");
    // The name as the card showed it resolves to the shown record, with its name and URL.
    let out = cli(
        Some(d.path()),
        &["accept", "--skill-id", "meeting-notes"],
        &[],
    );
    assert_eq!(code(&out), 0, "{}", out_text(&out));
    let v = json(&out);
    assert_eq!(
        (
            v["skill_id"].as_str().unwrap(),
            v["resolved_by"].as_str().unwrap()
        ),
        (pick.as_str(), "name")
    );
    let h: Value = serde_json::from_str(&read(&d.path().join("history.json"))).unwrap();
    let records = h["recommendations"].as_array().unwrap();
    assert_eq!(records.len(), 1, "no second record: {h}");
    assert_eq!(records[0]["user_action"], "accepted");
    assert_eq!(
        records[0]["url"],
        "https://skills.sh/acme/skills/meeting-notes"
    );
    let s: Value = serde_json::from_str(&read(&d.path().join("state.json"))).unwrap();
    assert_eq!(s["installed_skill_ids"], json!([pick]));
}

#[test]
fn manual_recommendations_leave_the_daily_push_free() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("state.json"),
        json!({"daily_rec_status": "enabled", "timezone": "UTC"}).to_string(),
    )
    .unwrap();
    let f = write(d.path(), "search.json", &search_only());
    for _ in 0..2 {
        cli(
            Some(d.path()),
            &[
                "recommend",
                "--mode",
                "manual",
                "--task",
                "meeting notes",
                "--candidates",
                &f,
                "--no-discover",
            ],
            &[],
        );
    }
    let gate = json(&cli(Some(d.path()), &["daily-gate"], &[]));
    assert_eq!(
        (gate["run"].clone(), gate["reason"].clone()),
        (json!(true), json!("ok"))
    );
    // A shown recorded by hand without --mode counts as daily (as the original's records do).
    cli(
        Some(d.path()),
        &[
            "shown",
            "--skill-id",
            "github:x/y",
            "--skill-name",
            "y",
            "--skill-url",
            "https://github.com/x/y",
        ],
        &[],
    );
    let gate = json(&cli(Some(d.path()), &["daily-gate"], &[]));
    assert_eq!(gate["reason"], "daily_quota_exhausted");
}

#[test]
fn the_language_follows_the_user() {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "search.json", &search_only());
    let args = [
        "recommend",
        "--mode",
        "manual",
        "--task",
        TASK,
        "--candidates",
        &f,
        "--no-discover",
        "--dry-run",
    ];
    let en = cli(Some(d.path()), &args, &[("LANG", "en_US.UTF-8")]);
    assert!(
        out_text(&en).starts_with("Recommended for you"),
        "{}",
        out_text(&en)
    );
    let zh = cli(
        Some(d.path()),
        &args,
        &[("LANG", "en_US.UTF-8"), ("LC_ALL", "zh_CN.UTF-8")],
    );
    assert!(
        out_text(&zh).starts_with("推荐给你"),
        "LC_ALL wins: {}",
        out_text(&zh)
    );
    // A chosen language is saved and then wins over the locale. (A recorded run shows its pick,
    // which is then not shown again for a while: this one asks for another skill than `args`.)
    let rec = [
        "--lang",
        "en",
        "recommend",
        "--mode",
        "manual",
        "--task",
        "export the line items of scanned invoices to a spreadsheet",
        "--candidates",
        &f,
        "--no-discover",
    ];
    cli(Some(d.path()), &rec, &[("LANG", "zh_CN.UTF-8")]);
    let later = cli(Some(d.path()), &["status"], &[("LANG", "zh_CN.UTF-8")]);
    let s = json(&later);
    assert_eq!(
        (s["lang"].clone(), s["lang_source"].clone()),
        (json!("en"), json!("state"))
    );
    let again = cli(Some(d.path()), &args, &[("LANG", "zh_CN.UTF-8")]);
    assert!(out_text(&again).starts_with("Recommended for you"));
    let chosen = cli(
        Some(d.path()),
        &[&["--lang", "zh"][..], &args].concat(),
        &[("LANG", "en_US.UTF-8")],
    );
    assert!(out_text(&chosen).starts_with("推荐给你"));
}

#[test]
fn status_is_short_and_the_first_run_prepares_nothing() {
    let d = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let env = [(
        "SKILL_RECOMMENDER_CACHE_DIR",
        cache.path().to_str().unwrap(),
    )];
    let first = cli(Some(d.path()), &["status"], &env);
    assert_eq!(code(&first), 0);
    // The binary carries the component compiled for this machine: nothing to prepare, nothing said.
    assert!(
        !err_text(&first).contains("preparing"),
        "{}",
        err_text(&first)
    );
    let short = out_text(&first);
    assert!(
        short.lines().count() <= 60,
        "{} lines",
        short.lines().count()
    );
    let v: Value = serde_json::from_str(&short).unwrap();
    assert!(
        v.get("host").is_none() && v["paths"].get("cache").is_none(),
        "{v}"
    );
    let second = cli(Some(d.path()), &["status", "--verbose"], &env);
    assert!(!err_text(&second).contains("preparing"));
    let v = json(&second);
    assert_eq!(v["paths"]["cache"]["outcome"], "embedded");
    assert!(v["host"]["component_imports"].as_array().unwrap().len() > 3);
}
