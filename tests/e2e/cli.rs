//! The CLI contract: commands, JSON, exit codes, state files, concurrency.

use std::fs;
use std::path::Path;

use serde_json::{Value, json};

use crate::common::{cli, code, json, read, root};

fn state(dir: &Path) -> Value {
    serde_json::from_str(&read(&dir.join("state.json"))).unwrap_or(Value::Null)
}

fn history(dir: &Path) -> Vec<Value> {
    let h: Value = serde_json::from_str(&read(&dir.join("history.json"))).unwrap_or(json!({}));
    h["recommendations"].as_array().cloned().unwrap_or_default()
}

#[test]
fn the_daily_opt_in_walk() {
    let d = tempfile::tempdir().unwrap();
    let d = d.path();
    let out = cli(Some(d), &["prompt-daily", "--source", "post_install"], &[]);
    assert_eq!(
        (code(&out), json(&out)["status"].clone()),
        (0, json!("prompted"))
    );
    let out = cli(Some(d), &["confirm-daily-enabled"], &[]);
    assert_eq!(code(&out), 6, "refused transition");
    let err = &json(&out)["error"];
    assert_eq!(err["code"], "refused_transition");
    assert_eq!(err["current"], "prompted");
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("not allowed while daily_rec_status is prompted")
    );
    assert_eq!(state(d)["daily_rec_status"], "prompted", "nothing written");
    let out = cli(Some(d), &["enable-daily"], &[]);
    assert_eq!(json(&out)["cron_schedule"], "0 10 * * *");
    let out = cli(Some(d), &["confirm-daily-enabled"], &[]);
    assert_eq!(json(&out)["status"], "enabled");
    let out = cli(Some(d), &["status", "--verbose"], &[]);
    let s = json(&out);
    assert_eq!(s["daily_rec_status"], "enabled");
    assert_eq!(s["host"]["state_dir_source"], "--state-dir");
    assert_eq!(
        s["paths"]["cache"]["outcome"], "hit",
        "the shared test cache was warmed by earlier calls"
    );
    assert_eq!(s["paths"]["state"], d.join("state.json").to_str().unwrap());
    let out = cli(Some(d), &["unsupported-daily"], &[]);
    assert_eq!(code(&out), 6);
    let out = cli(Some(d), &["disable-daily"], &[]);
    assert_eq!(json(&out)["status"], "disabled");
}

#[test]
fn bad_values_are_invalid_input_naming_the_flag() {
    let d = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["update-check", "--remote-version", "latest"],
            "remote-version",
        ),
        (
            &[
                "update-check",
                "--remote-version",
                "1.0.0",
                "--local-version",
                "x",
            ],
            "local-version",
        ),
        (
            &["shown", "--skill-id", "a", "--skill-url", "ftp://x"],
            "skill-url",
        ),
        (&["shown", "--skill-id", " "], "skill-id"),
        (&["fail-daily-schedule", "--reason", ""], "reason"),
    ];
    for (args, field) in cases {
        let out = cli(Some(d.path()), args, &[]);
        assert_eq!(code(&out), 3, "{args:?}");
        assert_eq!(json(&out)["error"]["field"], *field, "{args:?}");
    }
    let out = cli(Some(d.path()), &["--now", "yesterday", "status"], &[]);
    assert_eq!(code(&out), 3);
    assert_eq!(json(&out)["error"]["field"], "now");
    assert!(
        !d.path().join("state.json").exists(),
        "no invalid call wrote anything"
    );
}

#[test]
fn usage_errors_exit_2_and_help_teaches() {
    for args in [
        &["no-such-command"][..],
        &["failure-notice"],
        &["recommend", "--bogus-flag"],
        &["--compact", "recommend", "--mode", "sometimes"],
    ] {
        let out = cli(None, args, &[]);
        assert_eq!(code(&out), 2, "{args:?}");
        // The same error object as every other failure, on stdout; clap's text on stderr.
        let e = &json(&out)["error"];
        assert_eq!(
            (e["code"].clone(), e["exit_code"].clone()),
            (json!("usage"), json!(2)),
            "{args:?}"
        );
        assert!(!e["message"].as_str().unwrap().is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).contains("error:"));
    }
    let out = cli(None, &["--help"], &[]);
    assert_eq!(code(&out), 0);
    let help = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "Exit codes",
        "SKILL_RECOMMENDER_STATE_DIR",
        "daily-gate",
        "refused transition",
    ] {
        assert!(help.contains(needle), "--help lacks {needle}");
    }
}

#[test]
fn corrupt_state_is_never_reset() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("state.json");
    let bad = "{\"daily_rec_status\": \"enabled\", ";
    fs::write(&path, bad).unwrap();
    for args in [
        &["status"][..],
        &["disable-daily"],
        &["shown", "--skill-id", "x"],
    ] {
        let out = cli(Some(d.path()), args, &[]);
        assert_eq!(code(&out), 4, "{args:?}");
        let err = &json(&out)["error"];
        assert_eq!(err["code"], "corrupt_state");
        assert_eq!(err["path"], path.to_str().unwrap());
        assert!(String::from_utf8_lossy(&out.stderr).contains("state.json"));
        assert_eq!(read(&path), bad, "the corrupt file is left as it was");
        assert!(!d.path().join("history.json").exists());
    }
    // A wrong type in a known field names the field.
    fs::write(&path, "{\"installed_skill_ids\": 3}").unwrap();
    let out = cli(Some(d.path()), &["status"], &[]);
    assert_eq!(code(&out), 4);
    assert!(
        json(&out)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("installed_skill_ids")
    );
}

#[test]
fn the_originals_files_are_read_and_written_compatibly() {
    let d = tempfile::tempdir().unwrap();
    let d = d.path();
    let mut orig: Value = serde_json::from_str(&read(&root().join("data/state.json"))).unwrap();
    orig["daily_rec_status"] = json!("enabled");
    orig["x_custom_key"] = json!({"kept": 1});
    fs::write(d.join("state.json"), serde_json::to_string(&orig).unwrap()).unwrap();
    let old = json!({"recommendations": [{"date": "2026-11-01T02:00:00", "skill_id": "clawhub:old", "name": "Old",
        "url": "https://clawhub.ai/a/old", "categories": ["pdf"], "user_action": "shown", "note": "mine"}],
        "meta": {"by": "python"}});
    fs::write(d.join("history.json"), old.to_string()).unwrap();
    let out = cli(
        Some(d),
        &[
            "shown",
            "--skill-id",
            "clawhub:pdf-tables",
            "--skill-name",
            "PDF 表格",
            "--skill-url",
            "https://clawhub.ai/x/pdf-tables",
            "--categories",
            "pdf,Documents",
        ],
        &[],
    );
    assert_eq!(code(&out), 0);
    let s = state(d);
    assert_eq!(s["x_custom_key"], json!({"kept": 1}));
    assert_eq!(s["daily_rec_status"], "enabled");
    assert_eq!(s["accepted_categories"]["documents"]["shown"], 1);
    let h = history(d);
    assert_eq!(h.len(), 2);
    assert_eq!(h[0]["note"], "mine", "unknown record keys kept");
    assert_eq!(h[1]["name"], "PDF 表格");
    assert_eq!(h[1]["date"], "2026-11-29T09:00:00+00:00");
    let raw = read(&d.join("history.json"));
    assert!(
        raw.contains("PDF 表格"),
        "non-ASCII written as is, like ensure_ascii=False"
    );
    assert!(raw.contains("\"meta\""), "unknown top-level keys kept");
    let out = cli(
        Some(d),
        &["accept", "--skill-id", "clawhub:pdf-tables"],
        &[],
    );
    assert_eq!(code(&out), 0);
    let s = state(d);
    assert_eq!(s["installed_skill_ids"], json!(["clawhub:pdf-tables"]));
    assert_eq!(s["accepted_categories"]["pdf"]["accepted"], 1);
    assert_eq!(history(d)[1]["user_action"], "accepted");
}

#[test]
fn state_dir_comes_from_the_environment_never_the_cwd() {
    let d = tempfile::tempdir().unwrap();
    let target = d.path().join("from-env");
    let out = cli(
        None,
        &["prompt-daily", "--source", "manual"],
        &[("SKILL_RECOMMENDER_STATE_DIR", target.to_str().unwrap())],
    );
    assert_eq!(code(&out), 0);
    assert!(target.join("state.json").exists());
    let hermes = d.path().join("hermes");
    let out = cli(
        None,
        &["status", "--verbose"],
        &[("HERMES_HOME", hermes.to_str().unwrap())],
    );
    assert_eq!(
        json(&out)["state_dir"],
        hermes.join("state/skill-recommender").to_str().unwrap()
    );
    assert_eq!(json(&out)["host"]["state_dir_source"], "$HERMES_HOME");
}

#[test]
fn legacy_data_is_migrated_once() {
    let legacy = tempfile::tempdir().unwrap();
    let d = tempfile::tempdir().unwrap();
    fs::write(
        legacy.path().join("state.json"),
        "{\"daily_rec_status\": \"enabled\", \"mine\": 1}",
    )
    .unwrap();
    let args = [
        "--legacy-data-dir",
        legacy.path().to_str().unwrap(),
        "status",
    ];
    let out = cli(Some(d.path()), &args, &[]);
    assert_eq!(json(&out)["daily_rec_status"], "enabled");
    assert!(String::from_utf8_lossy(&out.stderr).contains("migrated legacy"));
    fs::write(
        legacy.path().join("state.json"),
        "{\"daily_rec_status\": \"disabled\"}",
    )
    .unwrap();
    let out = cli(Some(d.path()), &args, &[]);
    assert_eq!(
        json(&out)["daily_rec_status"],
        "enabled",
        "after migration only the external file counts"
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("migrated"));
}

#[test]
fn daily_gate_and_failure_notice_once() {
    let d = tempfile::tempdir().unwrap();
    let out = cli(Some(d.path()), &["daily-gate"], &[]);
    assert_eq!(json(&out)["run"], false);
    cli(Some(d.path()), &["enable-daily"], &[]);
    cli(Some(d.path()), &["confirm-daily-enabled"], &[]);
    let first = json(&cli(
        Some(d.path()),
        &["daily-gate", "--no-search-capability"],
        &[],
    ));
    let second = json(&cli(
        Some(d.path()),
        &["daily-gate", "--no-search-capability"],
        &[],
    ));
    assert!(first["notice"].is_string());
    assert!(second["notice"].is_null());
    let en = json(&cli(
        Some(d.path()),
        &["--lang", "en", "failure-notice", "--restore"],
        &[],
    ));
    assert_eq!(en["failure_notice_status"], "unset");
    let again = json(&cli(
        Some(d.path()),
        &["--lang", "en", "daily-gate", "--no-search-capability"],
        &[],
    ));
    assert!(
        again["notice"]
            .as_str()
            .unwrap()
            .starts_with("Daily recommendations are on")
    );
}

#[test]
fn concurrent_cli_processes_lose_no_event() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().to_path_buf();
    cli(Some(&dir), &["status"], &[]); // warm the component cache before the race
    std::thread::scope(|s| {
        for p in 0..4 {
            let dir = dir.clone();
            s.spawn(move || {
                for i in 0..25 {
                    let id = format!("clawhub:p{p}-{i}");
                    let out = cli(
                        Some(&dir),
                        &["shown", "--skill-id", &id, "--categories", "c"],
                        &[],
                    );
                    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
                }
            });
        }
    });
    let h = history(&dir);
    assert_eq!(h.len(), 100, "every shown event is in the history");
    let mut ids: Vec<_> = h
        .iter()
        .map(|r| r["skill_id"].as_str().unwrap().to_owned())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 100);
    assert_eq!(
        state(&dir)["accepted_categories"]["c"]["shown"],
        100,
        "and every counter update"
    );
    let leftovers: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn update_check_and_answer() {
    let d = tempfile::tempdir().unwrap();
    let out = json(&cli(
        Some(d.path()),
        &[
            "update-check",
            "--local-version",
            "1.2.0",
            "--remote-version",
            "1.10.0",
        ],
        &[],
    ));
    assert_eq!(out["notify"], true);
    assert!(
        out["text"]
            .as_str()
            .unwrap()
            .contains("要不要更新到最新版本")
    );
    let out = json(&cli(
        Some(d.path()),
        &[
            "update-check",
            "--local-version",
            "1.2.0",
            "--remote-version",
            "1.10.0",
        ],
        &[],
    ));
    assert_eq!(out["notify"], false);
    let out = json(&cli(Some(d.path()), &["update-notice", "--accept"], &[]));
    assert_eq!(out["update_notice_status"], "accepted");
}

#[test]
fn another_component_build_is_checked_before_use() {
    let d = tempfile::tempdir().unwrap();
    let fs_import = d.path().join("fs.wasm");
    let wat = r#"(component
        (import "wasi:filesystem/preopens@0.2.3" (instance (export "get-directories" (func))))
        (instance $i)
        (export "skill-recommender:core/lifecycle@0.1.0" (instance $i)))"#;
    fs::write(&fs_import, wat::parse_str(wat).unwrap()).unwrap();
    let out = cli(
        Some(d.path()),
        &[
            "--no-cache",
            "--component",
            fs_import.to_str().unwrap(),
            "status",
        ],
        &[],
    );
    assert_eq!(code(&out), 1);
    assert_eq!(json(&out)["error"]["code"], "component_load");
    assert!(
        json(&out)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("wasi:filesystem")
    );
    let out = cli(
        Some(d.path()),
        &["--component", "/no/such.wasm", "status"],
        &[],
    );
    assert_eq!(
        (code(&out), json(&out)["error"]["field"].clone()),
        (3, json!("component"))
    );
    // The real component, given explicitly, works.
    let real = env!("SKILL_RECOMMENDER_GUEST_WASM");
    let out = cli(Some(d.path()), &["--component", real, "status"], &[]);
    assert_eq!(code(&out), 0);
}

#[test]
fn a_reader_closing_the_pipe_early_is_not_a_crash() {
    use std::process::{Command, Stdio};
    let d = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_skill-recommender"))
        .env("SKILL_RECOMMENDER_CACHE_DIR", crate::common::cache_dir())
        .args(["--state-dir", d.path().to_str().unwrap(), "status"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // close the read end before the CLI writes
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0));
}
