//! Every transition of the daily state machine, allowed and refused, plus notices and feedback.

use super::*;
use crate::Lang;
use crate::state::State;
use crate::store::MemoryStore;
use proptest::prelude::*;

const NOW: &str = "2026-11-29T09:00:00Z";

fn ctx() -> Ctx {
    Ctx::at(NOW)
}

fn store_with_status(status: DailyStatus) -> MemoryStore {
    let state = State {
        daily_rec_status: status,
        ..State::default()
    };
    MemoryStore::with(Some(&serde_json::to_string(&state).unwrap()), None)
}

fn state_of(store: &MemoryStore) -> State {
    store
        .state
        .as_deref()
        .map(|t| serde_json::from_str(t).unwrap())
        .unwrap_or_default()
}

fn history_of(store: &MemoryStore) -> Vec<HistoryRecord> {
    store
        .history
        .as_deref()
        .map(|t| {
            serde_json::from_str::<crate::state::History>(t)
                .unwrap()
                .recommendations
        })
        .unwrap_or_default()
}

/// The command under test, applied to a store.
type Command = fn(&mut MemoryStore) -> Result<Value>;

fn run_all() -> Vec<(&'static str, Command)> {
    vec![
        ("prompt-daily", |s| {
            prompt_daily(&ctx(), s, PromptSource::Manual)
        }),
        ("enable-daily", |s| enable_daily(&ctx(), s, false)),
        ("enable-daily --scheduler-available", |s| {
            enable_daily(&ctx(), s, true)
        }),
        ("confirm-daily-enabled", |s| {
            confirm_daily_enabled(&ctx(), s)
        }),
        ("fail-daily-schedule", |s| {
            fail_daily_schedule(&ctx(), s, "schedule_create_failed")
        }),
        ("disable-daily", |s| disable_daily(&ctx(), s)),
        ("unsupported-daily", |s| unsupported_daily(&ctx(), s)),
    ]
}

/// The full transition table: (command, from) → Some(to) if allowed, None if refused.
fn expected(command: &str, from: DailyStatus) -> Option<DailyStatus> {
    match (command, from) {
        ("prompt-daily", Unset) => Some(Prompted),
        ("prompt-daily", other) => Some(other),
        ("enable-daily", Unsupported) => None,
        ("enable-daily" | "enable-daily --scheduler-available", Enabled) => Some(Enabled),
        ("enable-daily" | "enable-daily --scheduler-available", _) => Some(PendingSchedule),
        ("confirm-daily-enabled", PendingSchedule | Enabled) => Some(Enabled),
        ("confirm-daily-enabled", _) => None,
        ("fail-daily-schedule", PendingSchedule) => Some(Prompted),
        ("fail-daily-schedule", _) => None,
        ("disable-daily", _) => Some(Disabled),
        ("unsupported-daily", Enabled) => None,
        ("unsupported-daily", _) => Some(Unsupported),
        _ => unreachable!("{command}"),
    }
}

#[test]
fn every_transition_matches_the_table() {
    for (name, command) in run_all() {
        for from in DailyStatus::ALL {
            let mut store = store_with_status(from);
            let before = store.clone();
            let result = command(&mut store);
            match expected(name, from) {
                Some(to) => {
                    let out = result.unwrap_or_else(|e| panic!("{name} from {from:?}: {e}"));
                    assert_eq!(out["status"], to.as_str(), "{name} from {from:?}");
                    assert_eq!(out["previous"], from.as_str(), "{name} from {from:?}");
                    assert_eq!(out["changed"], to != from, "{name} from {from:?}");
                    assert_eq!(
                        state_of(&store).daily_rec_status,
                        to,
                        "{name} from {from:?}"
                    );
                }
                None => {
                    let err = result.expect_err(&format!("{name} from {from:?} must be refused"));
                    match err {
                        Error::Refused { current, hint, .. } => {
                            assert_eq!(current, from.as_str());
                            assert!(!hint.is_empty());
                        }
                        other => panic!("{name} from {from:?}: expected Refused, got {other:?}"),
                    }
                    assert_eq!(store, before, "a refused {name} must not save anything");
                }
            }
        }
    }
}

#[test]
fn prompt_records_time_and_source_once() {
    let mut store = MemoryStore::new();
    let out = prompt_daily(&ctx(), &mut store, PromptSource::PostInstall).unwrap();
    assert_eq!(out["changed"], true);
    let s = state_of(&store);
    assert_eq!(s.daily_rec_prompt_source.as_deref(), Some("post_install"));
    assert_eq!(
        s.daily_rec_prompted_at.as_deref(),
        Some("2026-11-29T09:00:00+00:00")
    );
    let saves = store.saves;
    let out = prompt_daily(&ctx(), &mut store, PromptSource::Manual).unwrap();
    assert_eq!(out["changed"], false);
    assert_eq!(store.saves, saves, "an unchanged prompt saves nothing");
    assert_eq!(
        state_of(&store).daily_rec_prompt_source.as_deref(),
        Some("post_install")
    );
}

#[test]
fn enable_daily_returns_the_schedule() {
    let mut store = MemoryStore::new();
    let out = enable_daily(&ctx(), &mut store, false).unwrap();
    assert_eq!(out["cron_job_name"], "skill-recommender-daily");
    assert_eq!(out["cron_schedule"], "0 10 * * *");
    assert_eq!(out["push_time_local"], "10:00");
    assert_eq!(out["skills"], json!(["skill-recommender"]));
    assert_eq!(out["timezone"], "UTC");
    assert!(out["cron_prompt"].as_str().unwrap().contains("SKILL.md"));
    assert!(
        out["next_step"]
            .as_str()
            .unwrap()
            .contains("confirm-daily-enabled")
    );
    assert_eq!(out["warnings"], json!([]));
}

#[test]
fn enable_daily_reads_push_time_and_zone_from_state() {
    let mut store = MemoryStore::with(
        Some(r#"{"push_time_local":"7:05","timezone":"Asia/Shanghai"}"#),
        None,
    );
    let out = enable_daily(&ctx(), &mut store, false).unwrap();
    assert_eq!(out["cron_schedule"], "5 7 * * *");
    assert_eq!(out["push_time_local"], "07:05");
    assert_eq!(out["timezone"], "Asia/Shanghai");
}

#[test]
fn enable_daily_with_bad_push_time_warns_and_uses_default() {
    for bad in ["25:00", "10:60", "ten", "", "10:00:00", "1000"] {
        let state = json!({ "push_time_local": bad }).to_string();
        let mut store = MemoryStore::with(Some(&state), None);
        let out = enable_daily(&ctx(), &mut store, false).unwrap();
        assert_eq!(out["cron_schedule"], "0 10 * * *", "{bad}");
        assert_eq!(out["warnings"].as_array().unwrap().len(), 1, "{bad}");
    }
}

#[test]
fn enable_daily_when_enabled_repeats_the_schedule_without_change() {
    let mut store = store_with_status(Enabled);
    let out = enable_daily(&ctx(), &mut store, false).unwrap();
    assert_eq!(out["changed"], false);
    assert_eq!(out["cron_schedule"], "0 10 * * *");
    assert_eq!(out["next_step"], Value::Null);
    assert_eq!(store.saves, 0);
}

#[test]
fn fail_daily_schedule_keeps_reason_and_needs_one() {
    let mut store = store_with_status(PendingSchedule);
    let err = fail_daily_schedule(&ctx(), &mut store, "  ").unwrap_err();
    assert!(matches!(err, Error::InvalidInput { ref field, .. } if field == "reason"));
    fail_daily_schedule(&ctx(), &mut store, "no_permission").unwrap();
    let s = state_of(&store);
    assert_eq!(s.daily_rec_status, Prompted);
    assert_eq!(
        s.daily_schedule_failure_reason.as_deref(),
        Some("no_permission")
    );
    assert!(s.daily_schedule_failed_at.is_some());
}

#[test]
fn gate_is_silent_unless_enabled() {
    for from in DailyStatus::ALL {
        if from == Enabled {
            continue;
        }
        let mut store = store_with_status(from);
        let out = daily_gate(&ctx(), &mut store, true).unwrap();
        assert_eq!(out["run"], false);
        let want = if from == PendingSchedule {
            "daily_schedule_pending"
        } else {
            "daily_not_enabled"
        };
        assert_eq!(out["reason"], want);
        assert_eq!(out["notice"], Value::Null);
        assert_eq!(store.saves, 0);
    }
}

#[test]
fn failure_notice_is_sent_once_then_resolved_when_capability_returns() {
    let mut store = store_with_status(Enabled);
    let first = daily_gate(&ctx(), &mut store, false).unwrap();
    assert_eq!(first["run"], false);
    assert!(first["notice"].as_str().unwrap().contains("web_search"));
    assert_eq!(first["failure_notice_status"], "shown");
    let second = daily_gate(&Ctx::at("2026-11-30T09:00:00Z"), &mut store, false).unwrap();
    assert_eq!(second["notice"], Value::Null);
    assert_eq!(second["run"], false);
    let back = daily_gate(&Ctx::at("2026-12-01T09:00:00Z"), &mut store, true).unwrap();
    assert_eq!(back["run"], true);
    assert_eq!(back["failure_notice_status"], "resolved");
    // After resolved, a new failure notifies again (once).
    let again = daily_gate(&Ctx::at("2026-12-02T09:00:00Z"), &mut store, false).unwrap();
    assert!(again["notice"].is_string());
}

#[test]
fn dismissed_notice_stays_silent_and_restore_rearms_it() {
    let mut store = store_with_status(Enabled);
    failure_notice(&ctx(), &mut store, NoticeAction::Dismiss).unwrap();
    let out = daily_gate(&ctx(), &mut store, false).unwrap();
    assert_eq!(out["notice"], Value::Null);
    let out = daily_gate(&ctx(), &mut store, true).unwrap();
    assert_eq!(
        out["failure_notice_status"], "dismissed",
        "dismissed is not turned into resolved"
    );
    failure_notice(&ctx(), &mut store, NoticeAction::Restore).unwrap();
    let out = daily_gate(&ctx(), &mut store, false).unwrap();
    assert!(out["notice"].is_string());
}

#[test]
fn english_notice_on_request() {
    let mut store = store_with_status(Enabled);
    let en = Ctx {
        lang: Lang::En,
        ..ctx()
    };
    let out = daily_gate(&en, &mut store, false).unwrap();
    assert!(
        out["notice"]
            .as_str()
            .unwrap()
            .starts_with("Daily recommendations are on")
    );
}

#[test]
fn gate_counts_today_in_the_users_zone() {
    // Shown at 2026-11-29 15:30 UTC = 23:30 in Shanghai on the 29th.
    let history = json!({"recommendations": [{
        "date": "2026-11-29T15:30:00+00:00", "skill_id": "a", "name": "A", "url": "https://x.y/a",
        "categories": [], "user_action": "shown"}]})
    .to_string();
    let state = json!({"daily_rec_status": "enabled", "timezone": "Asia/Shanghai"}).to_string();
    // 16:30 UTC on the 29th is already the 30th in Shanghai: a new day, the gate opens.
    let mut store = MemoryStore::with(Some(&state), Some(&history));
    let out = daily_gate(&Ctx::at("2026-11-29T16:30:00Z"), &mut store, true).unwrap();
    assert_eq!(out["run"], true, "{out}");
    assert_eq!(out["local_date"], "2026-11-30");
    // 15:50 UTC on the 29th is still the 29th in Shanghai: quota used.
    let out = daily_gate(&Ctx::at("2026-11-29T15:50:00Z"), &mut store, true).unwrap();
    assert_eq!(out["run"], false);
    assert_eq!(out["reason"], "daily_quota_exhausted");
    // Without a state zone, the host's zone decides.
    let state = json!({"daily_rec_status": "enabled"}).to_string();
    let mut store = MemoryStore::with(Some(&state), Some(&history));
    let host = Ctx {
        host_timezone: Some("America/New_York".into()),
        ..Ctx::at("2026-11-30T03:00:00Z")
    };
    let out = daily_gate(&host, &mut store, true).unwrap();
    assert_eq!(
        out["reason"], "daily_quota_exhausted",
        "22:00 on the 29th in New York"
    );
}

#[test]
fn update_check_semver_and_once_per_remote_version() {
    let mut store = MemoryStore::new();
    let out = update_check(&ctx(), &mut store, Some("1.2.0"), "1.10.0").unwrap();
    assert_eq!(out["notify"], true, "1.10.0 > 1.2.0 as semver, not as text");
    assert!(out["text"].as_str().unwrap().contains("回复「更新」"));
    let s = state_of(&store);
    assert_eq!(s.update_notice_status, UpdateNotice::Shown);
    assert_eq!(s.last_seen_remote_version.as_deref(), Some("1.10.0"));
    let out = update_check(&ctx(), &mut store, Some("1.2.0"), "v1.10.0").unwrap();
    assert_eq!(out["notify"], false);
    assert_eq!(out["reason"], "already_shown");
    update_notice(&ctx(), &mut store, UpdateResponse::Dismiss).unwrap();
    let out = update_check(&ctx(), &mut store, Some("1.2.0"), "1.10.0").unwrap();
    assert_eq!(out["reason"], "dismissed");
    let out = update_check(&ctx(), &mut store, Some("1.2.0"), "1.11.0").unwrap();
    assert_eq!(out["notify"], true, "a newer remote version asks again");
}

#[test]
fn update_check_respects_settings_and_order() {
    let mut store = MemoryStore::new();
    let out = update_check(&ctx(), &mut store, Some("1.10.0"), "1.9.9").unwrap();
    assert_eq!(
        (out["notify"].clone(), out["reason"].clone()),
        (json!(false), json!("up_to_date"))
    );
    let out = update_check(&ctx(), &mut store, Some("1.0.0"), "1.0.0").unwrap();
    assert_eq!(out["reason"], "up_to_date");
    let out = update_check(&ctx(), &mut store, Some("1.0.0"), "1.0.1-rc.1").unwrap();
    assert_eq!(
        out["notify"], true,
        "a pre-release of a newer patch is newer"
    );
    for (setting, reason) in [
        ("disabled", "auto_update_disabled"),
        ("unsupported", "auto_update_unsupported"),
    ] {
        let state = json!({ "auto_update_status": setting }).to_string();
        let mut store = MemoryStore::with(Some(&state), None);
        let out = update_check(&ctx(), &mut store, Some("1.0.0"), "2.0.0").unwrap();
        assert_eq!(out["reason"], reason);
        assert_eq!(state_of(&store).update_notice_status, UpdateNotice::Unset);
    }
}

#[test]
fn update_check_rejects_bad_versions_naming_the_flag() {
    let mut store = MemoryStore::new();
    for (local, remote, field) in [
        (Some("1.x"), "1.0.0", "local-version"),
        (Some("1.0.0"), "latest", "remote-version"),
    ] {
        let err = update_check(&ctx(), &mut store, local, remote).unwrap_err();
        assert!(
            matches!(err, Error::InvalidInput { field: ref f, .. } if f == field),
            "{err:?}"
        );
    }
    assert_eq!(store.saves, 0);
    // Without a local version, the component's own version is used.
    let out = update_check(&ctx(), &mut store, None, "999.0.0").unwrap();
    assert_eq!(out["local_version"], COMPONENT_VERSION);
}

fn skill(id: &str, cats: &[&str]) -> SkillRef {
    SkillRef {
        skill_id: id.into(),
        name: Some(format!("Name of {id}")),
        url: Some(format!("https://clawhub.ai/x/{id}")),
        categories: cats.iter().map(|c| c.to_string()).collect(),
        mode: None,
    }
}

#[test]
fn shown_appends_once_and_refreshes_a_pending_record() {
    let mut store = MemoryStore::new();
    feedback(
        &ctx(),
        &mut store,
        FeedbackAction::Shown,
        &skill("a", &["PDF", " documents ", "pdf"]),
    )
    .unwrap();
    let out = feedback(
        &Ctx::at("2026-11-30T09:00:00Z"),
        &mut store,
        FeedbackAction::Shown,
        &skill("a", &[]),
    )
    .unwrap();
    assert_eq!(out["refreshed"], true);
    let h = history_of(&store);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].date, "2026-11-30T09:00:00+00:00");
    assert_eq!(
        h[0].categories,
        vec!["pdf", "documents"],
        "lower-cased, trimmed, deduplicated, kept"
    );
    let s = state_of(&store);
    assert_eq!(
        s.accepted_categories["pdf"].shown, 1,
        "a refresh is the same showing"
    );
    assert_eq!(s.accepted_categories["documents"].shown, 1);
}

#[test]
fn accept_answers_the_pending_record_and_counts_its_categories() {
    let mut store = MemoryStore::new();
    feedback(
        &ctx(),
        &mut store,
        FeedbackAction::Shown,
        &skill("a", &["pdf"]),
    )
    .unwrap();
    let bare = SkillRef {
        skill_id: "a".into(),
        ..Default::default()
    };
    let out = feedback(&ctx(), &mut store, FeedbackAction::Accept, &bare).unwrap();
    assert_eq!(out["record"]["user_action"], "accepted");
    let h = history_of(&store);
    assert_eq!(h.len(), 1);
    assert_eq!(
        h[0].responded_at.as_deref(),
        Some("2026-11-29T09:00:00+00:00")
    );
    let s = state_of(&store);
    assert_eq!(s.installed_skill_ids, vec!["a"]);
    assert_eq!(s.accepted_skill_ids, vec!["a"]);
    assert_eq!(s.accepted_categories["pdf"].accepted, 1);
    assert_eq!(s.accepted_categories["pdf"].shown, 1);
    assert_eq!(s.last_actions.len(), 1);
    assert_eq!(s.last_actions[0].action, "accept");
}

#[test]
fn accept_without_shown_appends_and_counts_shown_too() {
    let mut store = MemoryStore::new();
    feedback(
        &ctx(),
        &mut store,
        FeedbackAction::Accept,
        &skill("b", &["email"]),
    )
    .unwrap();
    let h = history_of(&store);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].user_action, "accepted");
    let s = state_of(&store);
    assert_eq!(s.accepted_categories["email"].accepted, 1);
    assert_eq!(s.accepted_categories["email"].shown, 1);
    // Accepting twice does not duplicate ids.
    feedback(&ctx(), &mut store, FeedbackAction::Accept, &skill("b", &[])).unwrap();
    assert_eq!(state_of(&store).installed_skill_ids, vec!["b"]);
}

#[test]
fn reject_marks_the_record_and_a_later_accept_overrides_it() {
    let mut store = MemoryStore::new();
    feedback(
        &ctx(),
        &mut store,
        FeedbackAction::Shown,
        &skill("c", &["video"]),
    )
    .unwrap();
    feedback(&ctx(), &mut store, FeedbackAction::Reject, &skill("c", &[])).unwrap();
    let s = state_of(&store);
    assert_eq!(s.rejected_skill_ids, vec!["c"]);
    assert_eq!(s.accepted_categories["video"].accepted, 0);
    assert_eq!(history_of(&store)[0].user_action, "rejected");
    feedback(&ctx(), &mut store, FeedbackAction::Accept, &skill("c", &[])).unwrap();
    let s = state_of(&store);
    assert!(s.rejected_skill_ids.is_empty());
    assert_eq!(
        history_of(&store).len(),
        2,
        "the answered record stays; a new accepted one is added"
    );
}

#[test]
fn feedback_validates_its_fields() {
    let mut store = MemoryStore::new();
    let err = feedback(
        &ctx(),
        &mut store,
        FeedbackAction::Shown,
        &SkillRef::default(),
    )
    .unwrap_err();
    assert!(matches!(err, Error::InvalidInput { ref field, .. } if field == "skill-id"));
    for bad in [
        "ftp://x.y/a",
        "javascript:alert(1)",
        "https://",
        "clawhub.ai/a",
    ] {
        let s = SkillRef {
            url: Some(bad.into()),
            ..skill("a", &[])
        };
        let err = feedback(&ctx(), &mut store, FeedbackAction::Shown, &s).unwrap_err();
        assert!(
            matches!(err, Error::InvalidInput { ref field, .. } if field == "skill-url"),
            "{bad}"
        );
    }
    assert_eq!(store.saves, 0);
}

#[test]
fn status_summarizes_without_saving() {
    let mut store = MemoryStore::new();
    feedback(&ctx(), &mut store, FeedbackAction::Shown, &skill("a", &[])).unwrap();
    feedback(&ctx(), &mut store, FeedbackAction::Accept, &skill("b", &[])).unwrap();
    let saves = store.saves;
    let out = status(&ctx(), &mut store).unwrap();
    assert_eq!(store.saves, saves);
    assert_eq!(out["daily_rec_status"], "unset");
    assert_eq!(out["counts"]["history"], 2);
    assert_eq!(out["counts"]["shown"], 1);
    assert_eq!(out["counts"]["accepted"], 1);
    assert_eq!(out["shown_today"], true);
    assert_eq!(out["component_version"], COMPONENT_VERSION);
}

#[test]
fn corrupt_state_is_reported_and_never_overwritten() {
    let mut store = MemoryStore::with(Some("{\"daily_rec_status\": \"enabled\", "), None);
    let before = store.clone();
    for (name, command) in run_all() {
        let err = command(&mut store).unwrap_err();
        assert!(
            matches!(
                err,
                Error::CorruptDocument {
                    document: crate::Document::State,
                    ..
                }
            ),
            "{name}: {err:?}"
        );
    }
    assert!(status(&ctx(), &mut store).is_err());
    assert_eq!(store, before);
}

#[test]
fn bad_now_is_an_invalid_input() {
    let mut store = MemoryStore::new();
    let err = disable_daily(&Ctx::at("tomorrow"), &mut store).unwrap_err();
    assert!(matches!(err, Error::InvalidInput { ref field, .. } if field == "now"));
    assert_eq!(store.saves, 0);
}

#[test]
fn push_time_parser_boundaries() {
    assert_eq!(parse_push_time("00:00"), Some((0, 0)));
    assert_eq!(parse_push_time("23:59"), Some((23, 59)));
    assert_eq!(parse_push_time("9:5"), Some((9, 5)));
    assert_eq!(parse_push_time("24:00"), None);
    assert_eq!(parse_push_time("12:60"), None);
    assert_eq!(parse_push_time("-1:00"), None);
    assert_eq!(parse_push_time("+1:00"), None);
}

proptest! {
    /// Any sequence of commands from any start: `enabled` is only ever reached from `pending_schedule`
    /// (or kept), and a refused or failed command never changes the stored documents.
    #[test]
    fn enabled_only_follows_a_pending_schedule(start in 0usize..6, steps in proptest::collection::vec(0usize..7, 0..20)) {
        let commands = run_all();
        let mut store = store_with_status(DailyStatus::ALL[start]);
        for step in steps {
            let before = store.clone();
            let from = state_of(&store).daily_rec_status;
            match (commands[step].1)(&mut store) {
                Ok(_) => {
                    let to = state_of(&store).daily_rec_status;
                    if to == Enabled {
                        prop_assert!(from == PendingSchedule || from == Enabled, "{} reached enabled from {:?}", commands[step].0, from);
                    }
                }
                Err(_) => prop_assert_eq!(&store, &before),
            }
        }
    }
}
