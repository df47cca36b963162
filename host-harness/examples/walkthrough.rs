//! Walk the daily flow through the sandboxed component, on the bundled sample data, in a throwaway
//! state directory: what an agent does from onboarding to feedback.
//!
//!     cargo run -q -p host-harness --example walkthrough [-- --lang en] [--keep]
//!
//! It is also the smallest example of embedding the harness as a library.

use host_harness::{
    Command, Ctx, FeedbackAction, FileStateStore, Harness, Lang, Mode, PromptSource,
    RecommendOptions, SkillRef, StateStore,
};
use serde_json::Value;

const SAMPLE: &str = include_str!("../../data/sample_candidates.json");

struct Walk<'a> {
    harness: &'a Harness,
    store: &'a FileStateStore,
    lang: Lang,
}

impl Walk<'_> {
    /// Run one command at `now` and print what the agent would see.
    fn step(&self, now: &str, what: &str, command: Command, quiet: bool) -> Value {
        let ctx = Ctx {
            now: now.into(),
            host_timezone: Some("Asia/Shanghai".into()),
            lang: self.lang,
            lang_explicit: true,
        };
        println!("== {what} ({now})");
        let out = match self.harness.run(self.store, &ctx, &command) {
            Ok(out) => out,
            Err(e) => e.to_json(),
        };
        if !quiet {
            println!(
                "{}\n",
                serde_json::to_string_pretty(&out).unwrap_or_default()
            );
        }
        out
    }
}

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
    println!("component loaded: {}", harness.cache_outcome().to_json());
    println!("imports: {}", harness.imports().join(", "));
    println!("state dir: {}\n", dir.path().display());
    let walk = Walk {
        harness: &harness,
        store: &store,
        lang,
    };

    // Onboarding, right after install.
    let post_install = PromptSource::PostInstall;
    walk.step(
        "2026-11-29T09:00:00Z",
        "onboarding: ask once",
        Command::PromptDaily {
            source: post_install,
        },
        false,
    );
    let enable = Command::EnableDaily {
        scheduler_available: true,
    };
    walk.step(
        "2026-11-29T09:00:10Z",
        "user said 开启: the automation to create",
        enable,
        false,
    );
    walk.step(
        "2026-11-29T09:00:20Z",
        "automation created: confirm",
        Command::ConfirmDailyEnabled,
        false,
    );

    // Two daily runs.
    let no_search = Command::DailyGate {
        search_capability: false,
    };
    walk.step(
        "2026-11-30T02:00:00Z",
        "daily run without a search tool: notice once",
        no_search,
        false,
    );
    let gate = walk.step(
        "2026-12-01T02:00:00Z",
        "daily run, search is back",
        Command::DailyGate {
            search_capability: true,
        },
        false,
    );
    assert_eq!(gate["run"], true);

    // The agent searched; the bundled sample candidates stand in for what it found (without their
    // `"demo": true`, which would mark the card as a demonstration and record nothing). One call
    // filters, scans, ranks, picks, renders the card and records `shown`.
    let mut found: serde_json::Value = serde_json::from_str(SAMPLE)?;
    found.as_object_mut().map(|o| o.remove("demo"));
    let recommend = Command::Recommend {
        mode: Mode::Daily,
        candidates: found.to_string(),
        installed: Vec::new(),
        options: RecommendOptions::default(),
    };
    let rec = walk.step(
        "2026-12-01T02:00:30Z",
        "recommend on the sample candidates",
        recommend,
        true,
    );
    println!("summary: {}  theme: {}", rec["summary"], rec["theme"]);
    for d in rec["dropped"]
        .as_array()
        .into_iter()
        .chain(rec["blocked"].as_array())
        .flatten()
    {
        let field = |k: &str| d[k].as_str().unwrap_or_default().to_owned();
        println!(
            "  not shown {:<45} {:<26} {}",
            field("skill_id"),
            field("reason"),
            field("detail")
        );
    }
    println!(
        "\n{}",
        rec["card"].as_str().ok_or("no card: nothing usable")?
    );
    let skill = SkillRef {
        skill_id: rec["pick"]["skill_id"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        ..Default::default()
    };
    walk.step(
        "2026-12-01T02:02:00Z",
        "same day again: quota used",
        Command::DailyGate {
            search_capability: true,
        },
        false,
    );
    let accept = Command::Feedback {
        action: FeedbackAction::Accept,
        skill,
    };
    walk.step("2026-12-01T02:03:00Z", "user replied 安装", accept, false);
    let update = Command::UpdateCheck {
        local_version: None,
        remote_version: "0.2.0".into(),
    };
    walk.step(
        "2026-12-01T02:04:00Z",
        "is a newer release out?",
        update,
        false,
    );
    walk.step("2026-12-01T02:06:00Z", "status", Command::Status, false);

    let state = store
        .location(host_harness::Document::State)
        .ok_or("no state path")?;
    println!("state.json now:\n{}", std::fs::read_to_string(state)?);
    if args.iter().any(|a| a == "--keep") {
        println!("kept {}", dir.keep().display());
    }
    Ok(())
}
