//! The command layer (`host_harness::commands`) through the real component: the same command gives the
//! same result through the library as through the CLI, and a shared `Host` serves threads at once.

use std::path::Path;
use std::sync::{Arc, Mutex};

use host_harness::commands::{
    DailyAction, DailyArgs, DiscoveryArgs, FeedbackArgs, FeedbackKind, Host, HostEnv, JsonText,
    ModeArg, RecommendArgs, ValidateArgs, Verdict,
};
use host_harness::{CacheMode, Ctx, Harness, InstancePool, Lang, Limits};
use serde_json::{Value, json};

use crate::common::{NOW, cache_dir, cli, code, json, read};

/// A host on `state_dir` with the shared test cache and the warm instance pool (as the MCP server
/// runs), collecting its notes instead of printing them.
fn host(state_dir: &Path) -> (Host, Arc<Mutex<Vec<String>>>) {
    let harness = Harness::builder()
        .cache(CacheMode::Dir(cache_dir()))
        .limits(Limits::for_testing())
        .instance_pool(Some(InstancePool::default()))
        .build()
        .expect("the real component loads");
    let notes = Arc::new(Mutex::new(Vec::new()));
    let sink = notes.clone();
    let mut env = HostEnv::from_process();
    env.state_dir = Some(state_dir.to_path_buf());
    env.vars.clear();
    env.home = None;
    env.notes = Arc::new(move |n| sink.lock().unwrap().push(n.to_owned()));
    (Host::new(Arc::new(harness), env), notes)
}

fn ctx() -> Ctx {
    Ctx {
        now: NOW.into(),
        host_timezone: Some("UTC".into()),
        lang: Lang::Zh,
        lang_explicit: true,
    }
}

#[test]
fn the_library_command_and_the_cli_give_the_same_result() {
    let lib_dir = tempfile::tempdir().unwrap();
    let cli_dir = tempfile::tempdir().unwrap();
    let (host, _) = host(lib_dir.path());
    let sample = crate::common::real_sample();
    let task = "把 PDF 表格转成 Excel";
    let from_lib = host
        .recommend(
            &ctx(),
            RecommendArgs {
                mode: ModeArg::Manual,
                candidates: Some(JsonText(read(&sample))),
                sample: false,
                source: Default::default(),
                task: Some(task.into()),
                signals: vec![],
                dry_run: false,
                remote_version: None,
                local_version: None,
                other_question: false,
                discovery: DiscoveryArgs {
                    skills_dirs: vec![],
                    no_discover: true,
                },
                agent: Default::default(),
            },
        )
        .unwrap();
    assert_eq!(from_lib.verdict(), Verdict::Done);
    assert!(
        from_lib.guest_text().is_some(),
        "recommend passes the guest's text through unparsed"
    );
    let out = cli(
        Some(cli_dir.path()),
        &[
            "--timezone",
            "UTC",
            "recommend",
            "--mode",
            "manual",
            "--task",
            task,
            "--candidates",
            sample.to_str().unwrap(),
            "--no-discover",
            "--json",
        ],
        &[],
    );
    assert_eq!(code(&out), 0);
    assert_eq!(from_lib.to_value().unwrap(), json(&out));
    // And the same state was written.
    assert_eq!(
        read(&lib_dir.path().join("history.json")),
        read(&cli_dir.path().join("history.json"))
    );
}

#[test]
fn a_shared_host_serves_threads_at_once_and_loses_no_update() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _) = host(dir.path());
    std::thread::scope(|s| {
        for t in 0..4 {
            let host = host.clone();
            s.spawn(move || {
                for i in 0..25 {
                    let args = FeedbackArgs {
                        categories: vec!["c".into()],
                        ..FeedbackArgs::new(FeedbackKind::Shown, format!("clawhub:t{t}-{i}"))
                    };
                    host.feedback(&ctx(), args).unwrap();
                }
            });
        }
    });
    let status = host.status_verbose(&ctx()).unwrap().into_value().unwrap();
    assert_eq!(status["counts"]["history"], json!(100), "{status}");
    assert_eq!(status["state_dir"], json!(dir.path()));
    assert_eq!(status["host"]["state_dir_source"], "--state-dir");
    let h: Value = serde_json::from_str(&read(&dir.path().join("history.json"))).unwrap();
    assert_eq!(h["recommendations"].as_array().unwrap().len(), 100);
}

#[test]
fn refusals_and_verdicts_are_the_clis() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _) = host(dir.path());
    let err = host
        .daily(&ctx(), &DailyArgs::new(DailyAction::Confirm))
        .unwrap_err();
    assert_eq!(err.code(), "refused_transition");
    assert_eq!(err.exit_code(), 6);
    let bad = tempfile::tempdir().unwrap();
    std::fs::write(bad.path().join("SKILL.md"), "no frontmatter\n").unwrap();
    let out = host
        .validate(
            &ctx(),
            &ValidateArgs {
                path: bad.path().into(),
                strict: false,
                quality: false,
            },
        )
        .unwrap();
    assert_eq!(out.verdict(), Verdict::Blocked);
    assert_eq!(out.to_value().unwrap()["valid"], false);
    let missing = host
        .validate(
            &ctx(),
            &ValidateArgs {
                path: bad.path().join("nope"),
                strict: false,
                quality: false,
            },
        )
        .unwrap_err();
    assert_eq!(missing.to_json()["error"]["field"], "path");
}
