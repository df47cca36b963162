//! Walk the daily opt-in lifecycle through the sandboxed component, on the bundled sample data, in a
//! throwaway state directory: what an agent does from onboarding to feedback.
//!
//!     cargo run -q -p host-harness --example walkthrough [-- --lang en] [--keep]
//!
//! It is also the smallest example of embedding the harness as a library.

use host_harness::{
    Command, Ctx, FeedbackAction, FileStateStore, Harness, Lang, PromptSource, SkillRef, StateStore,
};
use serde_json::Value;

const SAMPLE: &str = include_str!("../../data/sample_candidates.json");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let lang = if args.iter().any(|a| a == "en") {
        Lang::En
    } else {
        Lang::Zh
    };
    let dir = tempfile::Builder::new()
        .prefix("skill-recommender-walkthrough-")
        .tempdir()?;
    let store = FileStateStore::new(dir.path());
    let harness = Harness::builder().build()?;
    println!(
        "component loaded ({:?}); imports: {}",
        harness.cache_outcome(),
        harness.imports().join(", ")
    );
    println!("state dir: {}\n", dir.path().display());

    // The first low-risk sample candidate stands in for a pick (ranking arrives with `recommend`).
    let sample: Value = serde_json::from_str(SAMPLE)?;
    let pick = sample["candidates"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["risk_level"] == "low"))
        .ok_or("no low-risk sample candidate")?;
    let skill = SkillRef {
        skill_id: pick["skill_id"].as_str().unwrap_or_default().to_owned(),
        name: pick["name"].as_str().map(str::to_owned),
        url: pick["url"].as_str().map(str::to_owned),
        categories: pick["categories"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|c| c.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
    };

    let steps: Vec<(&str, &str, Command)> = vec![
        (
            "2026-11-29T09:00:00Z",
            "onboarding: ask once",
            Command::PromptDaily {
                source: PromptSource::PostInstall,
            },
        ),
        (
            "2026-11-29T09:00:10Z",
            "user said 开启: get the automation to create",
            Command::EnableDaily {
                scheduler_available: true,
            },
        ),
        (
            "2026-11-29T09:00:20Z",
            "automation created: confirm",
            Command::ConfirmDailyEnabled,
        ),
        (
            "2026-11-30T02:00:00Z",
            "daily run, no search tool today",
            Command::DailyGate {
                search_capability: false,
            },
        ),
        (
            "2026-12-01T02:00:00Z",
            "daily run, search is back",
            Command::DailyGate {
                search_capability: true,
            },
        ),
        (
            "2026-12-01T02:01:00Z",
            "card shown",
            Command::Feedback {
                action: FeedbackAction::Shown,
                skill: skill.clone(),
            },
        ),
        (
            "2026-12-01T02:02:00Z",
            "same day again: quota used",
            Command::DailyGate {
                search_capability: true,
            },
        ),
        (
            "2026-12-01T02:03:00Z",
            "user replied 安装",
            Command::Feedback {
                action: FeedbackAction::Accept,
                skill: SkillRef {
                    skill_id: skill.skill_id.clone(),
                    ..Default::default()
                },
            },
        ),
        (
            "2026-12-01T02:04:00Z",
            "a newer release exists?",
            Command::UpdateCheck {
                local_version: None,
                remote_version: "0.2.0".into(),
            },
        ),
        (
            "2026-12-01T02:05:00Z",
            "confirm again: idempotent, nothing changes",
            Command::ConfirmDailyEnabled,
        ),
        ("2026-12-01T02:06:00Z", "status", Command::Status),
    ];
    for (now, what, command) in steps {
        let ctx = Ctx {
            now: now.into(),
            host_timezone: Some("Asia/Shanghai".into()),
            lang,
        };
        println!("== {what} ({now})");
        match harness.run(&store, &ctx, &command) {
            Ok(out) => println!("{}\n", serde_json::to_string_pretty(&out)?),
            Err(e) => println!("{}\n", serde_json::to_string_pretty(&e.to_json())?),
        }
    }
    println!(
        "state.json now:\n{}",
        std::fs::read_to_string(store.location(host_harness::Document::State).unwrap())?
    );
    if args.iter().any(|a| a == "--keep") {
        println!("kept {}", dir.keep().display());
    }
    Ok(())
}
