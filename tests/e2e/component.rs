//! The lifecycle through the real component: same results as the native build of the same code.

use guest::lifecycle as native;
use guest::{Document, MemoryStore};
use host_harness::{
    Command, CommandLookup, Ctx, FeedbackAction, InstalledSkill, Lang, MemoryStateStore, Mode,
    NoticeAction, PromptSource, RankRequest, RecommendOptions, SkillRef, UpdateResponse,
};
use serde_json::Value;

use crate::common::harness;

fn script() -> Vec<(&'static str, Command)> {
    let skill = |id: &str, cats: &[&str]| SkillRef {
        skill_id: id.into(),
        name: Some(format!("Skill {id}")),
        url: Some(format!("https://clawhub.ai/x/{id}")),
        categories: cats.iter().map(|c| c.to_string()).collect(),
        mode: None,
    };
    vec![
        ("2026-11-29T09:00:00Z", Command::Status),
        (
            "2026-11-29T09:00:00Z",
            Command::PromptDaily {
                source: PromptSource::PostInstall,
            },
        ),
        ("2026-11-29T09:01:00Z", Command::ConfirmDailyEnabled),
        (
            "2026-11-29T09:02:00Z",
            Command::EnableDaily {
                scheduler_available: false,
            },
        ),
        (
            "2026-11-29T09:03:00Z",
            Command::FailDailySchedule {
                reason: "schedule_create_failed".into(),
            },
        ),
        (
            "2026-11-29T09:04:00Z",
            Command::EnableDaily {
                scheduler_available: false,
            },
        ),
        ("2026-11-29T09:05:00Z", Command::ConfirmDailyEnabled),
        (
            "2026-11-30T02:00:00Z",
            Command::DailyGate {
                search_capability: false,
            },
        ),
        (
            "2026-12-01T02:00:00Z",
            Command::DailyGate {
                search_capability: false,
            },
        ),
        (
            "2026-12-02T02:00:00Z",
            Command::DailyGate {
                search_capability: true,
            },
        ),
        (
            "2026-12-02T02:01:00Z",
            Command::Feedback {
                action: FeedbackAction::Shown,
                skill: skill("a", &["PDF"]),
            },
        ),
        (
            "2026-12-02T02:02:00Z",
            Command::DailyGate {
                search_capability: true,
            },
        ),
        (
            "2026-12-02T02:03:00Z",
            Command::Feedback {
                action: FeedbackAction::Accept,
                skill: skill("a", &[]),
            },
        ),
        (
            "2026-12-02T02:04:00Z",
            Command::Feedback {
                action: FeedbackAction::Reject,
                skill: skill("b", &["video"]),
            },
        ),
        (
            "2026-12-02T02:05:00Z",
            Command::FailureNotice {
                action: NoticeAction::Dismiss,
            },
        ),
        (
            "2026-12-02T02:06:00Z",
            Command::UpdateCheck {
                local_version: Some("0.1.0".into()),
                remote_version: "0.2.0".into(),
            },
        ),
        (
            "2026-12-02T02:07:00Z",
            Command::UpdateCheck {
                local_version: None,
                remote_version: "0.2.0".into(),
            },
        ),
        (
            "2026-12-02T02:08:00Z",
            Command::UpdateNotice {
                response: UpdateResponse::Accept,
            },
        ),
        ("2026-12-02T02:09:00Z", Command::UnsupportedDaily),
        ("2026-12-02T02:10:00Z", Command::DisableDaily),
        ("2026-12-02T02:11:00Z", Command::UnsupportedDaily),
        (
            "2026-12-02T02:12:00Z",
            Command::EnableDaily {
                scheduler_available: false,
            },
        ),
        (
            "2026-12-02T02:13:00Z",
            Command::EnableDaily {
                scheduler_available: true,
            },
        ),
        ("2026-12-02T02:14:00Z", Command::Status),
    ]
    .into_iter()
    .chain(recommend_script())
    .collect()
}

/// Ranking, recommending (daily and manual, recorded and dry) and rendering over several days.
fn recommend_script() -> Vec<(&'static str, Command)> {
    let recommend = |mode, task: Option<&str>, dry_run| Command::Recommend {
        mode,
        candidates: crate::common::real_sample_text(),
        installed: Vec::new(),
        options: RecommendOptions {
            task: task.map(str::to_owned),
            signals: vec!["weekly investment notes".into()],
            dry_run,
            remote_version: Some("0.3.0".into()),
            local_version: None,
            other_question: false,
            agent: Default::default(),
        },
    };
    // The same sample plus skills that declare platforms, commands and toolsets or carry their
    // SKILL.md, for an agent on this host's platform: the component asks the host about the commands
    // (`host-env`), the native build asks the same lookup.
    let fitted = |lang_task: &str| {
        let mut list: serde_json::Value =
            serde_json::from_str(&crate::common::real_sample_text()).unwrap();
        let extra = serde_json::json!([
            {"skill_id": "clawhub:notes-cli", "name": "notes-cli", "url": "https://clawhub.ai/a/notes-cli", "source": "clawhub",
             "description": "Turns meeting transcripts into notes with decisions and action items.", "updated_at": "2026-11-20T00:00:00Z",
             "popularity": {"downloads": 900, "stars": 30}, "prerequisites": {"commands": ["sh", "no-such-command-skill-recommender"], "env_vars": ["NOTES_TOKEN"]},
             "required_toolsets": ["browser"]},
            {"skill_id": "clawhub:notes-pro", "name": "notes-pro", "url": "https://clawhub.ai/a/notes-pro", "source": "clawhub",
             "description": "Turns meeting transcripts into notes with decisions and action items.", "updated_at": "2026-11-20T00:00:00Z",
             "popularity": {"downloads": 900, "stars": 30},
             "raw_content": "---\nname: notes-pro\ndescription: Meeting notes. Use when the user shares a transcript.\nplatforms: [windows, linux, macos]\n---\n## When to Use\nA transcript.\n## Pitfalls\n- Unnamed speakers: ask, do not guess.\n## Verification\n- Every item has an owner.\n"},
            {"skill_id": "clawhub:notes-win", "name": "notes-win", "url": "https://clawhub.ai/a/notes-win", "source": "clawhub",
             "description": "Turns meeting transcripts into notes with decisions and action items.", "updated_at": "2026-11-20T00:00:00Z",
             "popularity": {"downloads": 900, "stars": 30}, "platforms": ["plan9-only"]}
        ]);
        list["candidates"]
            .as_array_mut()
            .unwrap()
            .extend(extra.as_array().unwrap().clone());
        Command::Recommend {
            mode: Mode::Manual,
            candidates: list.to_string(),
            installed: Vec::new(),
            options: RecommendOptions {
                task: Some(lang_task.into()),
                dry_run: true,
                agent: host_harness::AgentEnv {
                    platform: host_harness::command_lookup::host_platform(),
                    capabilities: Some(vec!["terminal".into(), "web_search".into()]),
                },
                ..RecommendOptions::default()
            },
        }
    };
    let rank = |mode, task: &str| Command::Rank {
        mode,
        candidates: crate::common::real_sample_text(),
        installed: vec![InstalledSkill {
            name: "pdf-toolkit".into(),
            ..InstalledSkill::default()
        }],
        request: RankRequest {
            task: Some(task.into()),
            signals: Vec::new(),
            ..Default::default()
        },
    };
    let pick = r#"{"pick": {"skill_id": "clawhub:fridge-chef", "name": "fridge-chef", "url": "https://clawhub.ai/k/fridge-chef", "description": "拍一张冰箱照片，就能推荐今晚能做的 3 道家常菜。", "categories": ["cooking"], "source": "clawhub", "risk_level": "low", "reasons": ["好玩"]}, "local_date": "2026-12-03", "theme": "fun_try_out"}"#;
    vec![
        ("2026-12-02T02:15:00Z", Command::ConfirmDailyEnabled),
        (
            "2026-12-03T02:00:00Z",
            rank(Mode::Manual, "把 PDF 表格转成 Excel"),
        ),
        ("2026-12-03T02:00:00Z", rank(Mode::Daily, "")),
        ("2026-12-03T02:01:00Z", recommend(Mode::Daily, None, false)),
        ("2026-12-03T02:02:00Z", recommend(Mode::Daily, None, false)),
        ("2026-12-04T02:00:00Z", recommend(Mode::Daily, None, true)),
        ("2026-12-04T02:01:00Z", recommend(Mode::Daily, None, false)),
        (
            "2026-12-04T03:00:00Z",
            recommend(Mode::Manual, Some("meeting minutes"), false),
        ),
        (
            "2026-12-04T03:01:00Z",
            recommend(Mode::Manual, Some("no such thing at all"), false),
        ),
        (
            "2026-12-04T03:01:30Z",
            fitted("meeting transcript action items"),
        ),
        ("2026-12-04T03:01:40Z", fitted("会议纪要")),
        (
            "2026-12-04T03:02:00Z",
            Command::Render {
                mode: Mode::Daily,
                input: pick.into(),
            },
        ),
        (
            "2026-12-04T03:03:00Z",
            Command::Render {
                mode: Mode::Manual,
                input: "{}".into(),
            },
        ),
    ]
}

/// The harness's default command lookup, as the native build's probe.
struct Lookup(Option<CommandLookup>);

impl guest::fit::CommandProbe for Lookup {
    fn find_commands(&mut self, names: &[String]) -> Option<Vec<bool>> {
        self.0.as_ref()?.answer(names)
    }
}

fn run_native(store: &mut MemoryStore, ctx: &Ctx, command: &Command) -> Result<Value, String> {
    let r = match command {
        Command::Status => native::status(ctx, store),
        Command::PromptDaily { source } => native::prompt_daily(ctx, store, *source),
        Command::EnableDaily {
            scheduler_available,
        } => native::enable_daily(ctx, store, *scheduler_available),
        Command::ConfirmDailyEnabled => native::confirm_daily_enabled(ctx, store),
        Command::FailDailySchedule { reason } => native::fail_daily_schedule(ctx, store, reason),
        Command::DisableDaily => native::disable_daily(ctx, store),
        Command::UnsupportedDaily => native::unsupported_daily(ctx, store),
        Command::DailyGate { search_capability } => {
            native::daily_gate(ctx, store, *search_capability)
        }
        Command::FailureNotice { action } => native::failure_notice(ctx, store, *action),
        Command::UpdateCheck {
            local_version,
            remote_version,
        } => native::update_check(ctx, store, local_version.as_deref(), remote_version),
        Command::UpdateNotice { response } => native::update_notice(ctx, store, *response),
        Command::Feedback { action, skill } => native::feedback(ctx, store, *action, skill),
        Command::Filter {
            mode,
            candidates,
            installed,
            agent,
        } => guest::filter::run_for(ctx, store, *mode, candidates, installed, agent),
        Command::Normalize {
            registry,
            json,
            base_url,
        } => {
            let options = guest::normalize::Options {
                base_url: base_url.clone(),
            };
            guest::normalize::normalize(json, *registry, &options).map(|n| n.to_json())
        }
        Command::ScanCandidates { mode, candidates } => guest::model::parse_candidates(candidates)
            .map(|items| guest::scan::scan_candidates(items, *mode)),
        Command::ScanBundle {
            bundle,
            trust,
            force,
        } => Ok(guest::quality::scan_bundle_report(bundle, *trust, *force)),
        Command::Validate {
            bundle,
            strict,
            quality,
        } => Ok(guest::quality::validate_report(bundle, *strict, *quality)),
        Command::Rank {
            mode,
            candidates,
            installed,
            request,
        } => {
            let mut probe =
                Lookup(CommandLookup::Path.for_agent(request.agent.platform.as_deref()));
            guest::rank::run_text_with(
                ctx, store, &mut probe, *mode, candidates, installed, request,
            )
            .map(|t| serde_json::from_str(&t).unwrap())
        }
        Command::Recommend {
            mode,
            candidates,
            installed,
            options,
        } => {
            let mut probe =
                Lookup(CommandLookup::Path.for_agent(options.agent.platform.as_deref()));
            guest::recommend::run_with(
                ctx, store, &mut probe, *mode, candidates, installed, options,
            )
        }
        Command::Render { mode, input } => guest::render::run(ctx, *mode, input),
    };
    r.map_err(|e| e.to_string())
}

#[test]
fn the_component_behaves_exactly_like_the_native_build() {
    let mut refused = 0;
    let mut cards = 0;
    for lang in [Lang::Zh, Lang::En] {
        let wasm_store = MemoryStateStore::new();
        let mut native_store = MemoryStore::new();
        for (now, command) in script() {
            let ctx = Ctx {
                now: now.into(),
                host_timezone: Some("Asia/Shanghai".into()),
                lang,
                lang_explicit: true,
            };
            let wasm = harness()
                .run(&wasm_store, &ctx, &command)
                .map_err(|e| e.to_string());
            let native = run_native(&mut native_store, &ctx, &command);
            assert_eq!(wasm, native, "{command:?} at {now}");
            refused += wasm.is_err() as usize;
            cards += wasm
                .as_ref()
                .is_ok_and(|v| v["card"].is_string() && v["silent"] != true)
                as usize;
            assert_eq!(
                wasm_store.get(Document::State),
                native_store.state,
                "{command:?}"
            );
            assert_eq!(
                wasm_store.get(Document::History),
                native_store.history,
                "{command:?}"
            );
        }
    }
    assert!(
        refused >= 4,
        "the script exercises refusals too ({refused})"
    );
    // Seven per language: daily day 1, day 2 (dry run and recorded), manual, the fitted manual runs
    // (the Chinese one finds another match than the skill the script showed earlier), render.
    assert_eq!(cards, 14, "the script renders cards");
}

#[test]
fn the_daily_walk_through_the_component() {
    let store = MemoryStateStore::new();
    let run = |now: &str, c: Command| harness().run(&store, &Ctx::at(now), &c);
    let out = run(
        "2026-11-29T09:00:00Z",
        Command::PromptDaily {
            source: PromptSource::PostInstall,
        },
    )
    .unwrap();
    assert_eq!(out["status"], "prompted");
    let out = run(
        "2026-11-29T09:00:00Z",
        Command::EnableDaily {
            scheduler_available: false,
        },
    )
    .unwrap();
    assert_eq!(out["cron_schedule"], "0 10 * * *");
    let out = run("2026-11-29T09:00:00Z", Command::ConfirmDailyEnabled).unwrap();
    assert_eq!(out["status"], "enabled");
    let gate = run(
        "2026-11-30T01:00:00Z",
        Command::DailyGate {
            search_capability: true,
        },
    )
    .unwrap();
    assert_eq!(gate["run"], true);
    let state: Value = serde_json::from_str(&store.get(Document::State).unwrap()).unwrap();
    assert_eq!(state["daily_rec_status"], "enabled");
    assert_eq!(
        state["daily_schedule_confirmed_at"],
        "2026-11-29T09:00:00+00:00"
    );
}
