//! The daily opt-in state machine, the failure and update notices, and feedback history.
//!
//! Each public function is one command of the protocol: it loads the documents, applies the rule, stages
//! the documents that changed and returns the JSON object documented on the matching WIT function.
//! Rules that differ from the original are marked **fix** (see the README's "Differences" section).

use serde_json::{Value, json};

use crate::Ctx;
use crate::clock::{Clock, parse_stored};
use crate::error::{Error, Result};
use crate::state::{
    AutoUpdate, CategoryCounts, DailyStatus, Documents, HistoryRecord, LastAction, NoticeStatus,
    UpdateNotice,
};
use crate::store::DocumentStore;
use crate::text;

use DailyStatus::*;

mod feedback;
pub use feedback::feedback;
pub(crate) use feedback::{apply_feedback, clean_skill, local_id};

/// The component's own version (`update-check` compares against it when no local version is given).
pub const COMPONENT_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The push time used when `push_time_local` is missing or not `HH:MM`.
pub const DEFAULT_PUSH_TIME: (u8, u8) = (10, 0);

/// Where the daily question was asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptSource {
    PostInstall,
    Manual,
}

impl PromptSource {
    pub fn as_str(self) -> &'static str {
        match self {
            PromptSource::PostInstall => "post_install",
            PromptSource::Manual => "manual",
        }
    }
}

/// The user's answer to the failure notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeAction {
    Dismiss,
    Restore,
}

/// The user's answer to the update question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateResponse {
    Accept,
    Dismiss,
}

/// A feedback event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedbackAction {
    Shown,
    Accept,
    Reject,
}

impl FeedbackAction {
    pub fn as_str(self) -> &'static str {
        match self {
            FeedbackAction::Shown => "shown",
            FeedbackAction::Accept => "accept",
            FeedbackAction::Reject => "reject",
        }
    }
}

/// The skill a feedback event is about, as the caller gave it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillRef {
    /// The id printed on the card; for `accept`/`reject` also the name as the card showed it.
    pub skill_id: String,
    pub name: Option<String>,
    pub url: Option<String>,
    pub categories: Vec<String>,
    /// For `shown`: the flow that showed it (a `daily` record uses up the day's push; without a
    /// mode the record counts as daily, as the original's records do).
    pub mode: Option<crate::filter::Mode>,
}

/// How long a shown skill can be named in feedback by its name alone (the recommend cooldown).
pub const FEEDBACK_LOOKBACK_DAYS: i64 = crate::filter::RECOMMEND_COOLDOWN_DAYS;

/// The most recent shown skills a refusal lists.
pub const RECENT_LISTED: usize = 5;

/// Load both documents and the clock (the state's `timezone` takes precedence over the host's).
pub(crate) fn open(ctx: &Ctx, store: &mut dyn DocumentStore) -> Result<(Documents, Clock)> {
    // Validate `now` before touching anything, so a bad argument is reported as such.
    crate::clock::parse_now(&ctx.now)?;
    let docs = Documents::load(store)?;
    let clock = Clock::new(
        &ctx.now,
        docs.state.timezone.as_deref(),
        ctx.host_timezone.as_deref(),
    )?;
    Ok((docs, clock))
}

/// The first history record that used up `day`'s daily push (in the clock's zone), if any. Only daily
/// pushes count (**fix**: the original counted every record, so a manual recommendation in the
/// morning silenced that day's daily one); see [`HistoryRecord::is_daily_push`].
pub(crate) fn daily_push_on<'h>(
    history: &'h crate::state::History,
    clock: &Clock,
    day: jiff::civil::Date,
) -> Option<&'h HistoryRecord> {
    history.recommendations.iter().find(|r| {
        r.is_daily_push() && parse_stored(&r.date).is_some_and(|ts| clock.local_date_of(ts) == day)
    })
}

fn refuse(command: &str, current: DailyStatus, allowed: &[DailyStatus], hint: &str) -> Error {
    Error::Refused {
        command: command.to_owned(),
        current: current.as_str().to_owned(),
        allowed_from: allowed.iter().map(|s| s.as_str().to_owned()).collect(),
        hint: hint.to_owned(),
    }
}

/// Save and describe a daily-status transition.
fn finish(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    docs: Documents,
    command: &str,
    previous: DailyStatus,
) -> Result<Value> {
    let status = docs.state.daily_rec_status;
    let changed = status != previous;
    let lang = ctx.lang_with(&docs.state);
    docs.save(store)?;
    Ok(json!({
        "command": command,
        "status": status.as_str(),
        "previous": previous.as_str(),
        "changed": changed,
        "message": text::transition_message(lang, command, changed, status.as_str()),
    }))
}

/// `status`: the state summary. Never saves.
pub fn status(ctx: &Ctx, store: &mut dyn DocumentStore) -> Result<Value> {
    let (docs, clock) = open(ctx, store)?;
    let s = &docs.state;
    let recs = &docs.history.recommendations;
    let count = |action: &str| recs.iter().filter(|r| r.user_action == action).count();
    let today = clock.today();
    let shown_today = daily_push_on(&docs.history, &clock, today).is_some();
    Ok(json!({
        "component_version": COMPONENT_VERSION,
        "daily_rec_status": s.daily_rec_status.as_str(),
        "daily": {
            "prompted_at": s.daily_rec_prompted_at,
            "prompt_source": s.daily_rec_prompt_source,
            "schedule_pending_at": s.daily_schedule_pending_at,
            "schedule_confirmed_at": s.daily_schedule_confirmed_at,
            "schedule_failed_at": s.daily_schedule_failed_at,
            "schedule_failure_reason": s.daily_schedule_failure_reason,
            "unsupported_at": s.daily_rec_unsupported_at,
        },
        "failure_notice": {
            "status": s.daily_failure_notice_status,
            "reason": s.daily_failure_notice_reason,
            "last_shown_at": s.daily_failure_notice_last_shown_at,
        },
        "update": {
            "auto_update_status": s.auto_update_status,
            "update_notice_status": s.update_notice_status,
            "last_seen_remote_version": s.last_seen_remote_version,
            "last_update_check_at": s.last_update_check_at,
            "last_update_notice_at": s.last_update_notice_at,
        },
        "push_time_local": s.push_time_local,
        "lang": ctx.lang_with(s).as_str(),
        "lang_source": ctx.lang_source(s),
        "timezone": s.timezone,
        "effective_timezone": clock.zone_name,
        "local_date": today.to_string(),
        "shown_today": shown_today,
        "counts": {
            "history": recs.len(),
            "shown": count("shown"),
            "accepted": count("accepted"),
            "rejected": count("rejected"),
            "installed_skill_ids": s.installed_skill_ids.len(),
            "accepted_skill_ids": s.accepted_skill_ids.len(),
            "rejected_skill_ids": s.rejected_skill_ids.len(),
        },
        "warnings": clock.warning.iter().collect::<Vec<_>>(),
    }))
}

/// `prompt-daily`: `unset` → `prompted` (ask once); otherwise unchanged.
pub fn prompt_daily(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    source: PromptSource,
) -> Result<Value> {
    let (mut docs, clock) = open(ctx, store)?;
    let previous = docs.state.daily_rec_status;
    if previous == Unset {
        let s = &mut docs.state;
        s.daily_rec_status = Prompted;
        s.daily_rec_prompted_at = Some(clock.stamp());
        s.daily_rec_prompt_source = Some(source.as_str().to_owned());
    }
    finish(ctx, store, docs, "prompt-daily", previous)
}

/// Parse `HH:MM` (one or two digits each) into hour and minute.
pub fn parse_push_time(text: &str) -> Option<(u8, u8)> {
    let (h, m) = text.trim().split_once(':')?;
    let valid = |p: &str| (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit());
    if !valid(h) || !valid(m) {
        return None;
    }
    let (h, m) = (h.parse::<u8>().ok()?, m.parse::<u8>().ok()?);
    (h < 24 && m < 60).then_some((h, m))
}

/// `enable-daily`: → `pending_schedule`, returning the automation to create.
pub fn enable_daily(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    scheduler_available: bool,
) -> Result<Value> {
    const COMMAND: &str = "enable-daily";
    let (mut docs, clock) = open(ctx, store)?;
    let ctx = &ctx.resolved(&docs.state);
    let previous = docs.state.daily_rec_status;
    match previous {
        Unset | Prompted | PendingSchedule | Disabled => {}
        Unsupported if scheduler_available => {}
        Unsupported => {
            return Err(refuse(
                COMMAND,
                previous,
                &[Unset, Prompted, PendingSchedule, Disabled, Unsupported],
                "the agent reported no scheduler earlier; pass --scheduler-available once it has one",
            ));
        }
        Enabled => {}
    }
    if previous != Enabled {
        docs.state.daily_rec_status = PendingSchedule;
        docs.state.daily_schedule_pending_at = Some(clock.stamp());
    }
    let mut warnings: Vec<String> = clock.warning.iter().cloned().collect();
    let given = docs.state.push_time_local.clone().unwrap_or_default();
    let (hour, minute) = parse_push_time(&given).unwrap_or_else(|| {
        warnings.push(text::push_time_warning(ctx.lang, &given));
        DEFAULT_PUSH_TIME
    });
    let zone = clock.zone_name.clone();
    let mut out = finish(ctx, store, docs, COMMAND, previous)?;
    if previous == Enabled {
        out["message"] = json!(text::enabled_already(ctx.lang));
    }
    let extra = json!({
        "cron_job_name": text::CRON_JOB_NAME,
        "cron_schedule": format!("{minute} {hour} * * *"),
        "cron_prompt": text::CRON_PROMPT,
        "skills": ["skill-recommender"],
        "push_time_local": format!("{hour:02}:{minute:02}"),
        "timezone": zone,
        "cron_time_note": text::cron_time_note(ctx.lang, &zone),
        "next_step": if previous == Enabled { Value::Null } else { json!(text::enable_next_step(ctx.lang)) },
        "warnings": warnings,
    });
    merge(&mut out, extra);
    Ok(out)
}

fn merge(into: &mut Value, from: Value) {
    if let (Value::Object(into), Value::Object(from)) = (into, from) {
        into.extend(from);
    }
}

/// `confirm-daily-enabled`: `pending_schedule` → `enabled` (**fix**: the original allowed it from anywhere).
pub fn confirm_daily_enabled(ctx: &Ctx, store: &mut dyn DocumentStore) -> Result<Value> {
    const COMMAND: &str = "confirm-daily-enabled";
    let (mut docs, clock) = open(ctx, store)?;
    let previous = docs.state.daily_rec_status;
    match previous {
        PendingSchedule => {
            docs.state.daily_rec_status = Enabled;
            docs.state.daily_schedule_confirmed_at = Some(clock.stamp());
        }
        Enabled => {}
        _ => {
            return Err(refuse(
                COMMAND,
                previous,
                &[PendingSchedule, Enabled],
                "run enable-daily, create the automation, and confirm only after it was created",
            ));
        }
    }
    finish(ctx, store, docs, COMMAND, previous)
}

/// `fail-daily-schedule`: `pending_schedule` → `prompted`, keeping the reason.
pub fn fail_daily_schedule(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    reason: &str,
) -> Result<Value> {
    const COMMAND: &str = "fail-daily-schedule";
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(Error::invalid(
            "reason",
            "must not be empty (e.g. schedule_create_failed)",
        ));
    }
    let (mut docs, clock) = open(ctx, store)?;
    let previous = docs.state.daily_rec_status;
    if previous != PendingSchedule {
        return Err(refuse(
            COMMAND,
            previous,
            &[PendingSchedule],
            "only a pending schedule can fail; run enable-daily first",
        ));
    }
    let s = &mut docs.state;
    s.daily_rec_status = Prompted;
    s.daily_schedule_failed_at = Some(clock.stamp());
    s.daily_schedule_failure_reason = Some(reason.to_owned());
    finish(ctx, store, docs, COMMAND, previous)
}

/// `disable-daily`: any → `disabled`.
pub fn disable_daily(ctx: &Ctx, store: &mut dyn DocumentStore) -> Result<Value> {
    let (mut docs, _) = open(ctx, store)?;
    let previous = docs.state.daily_rec_status;
    docs.state.daily_rec_status = Disabled;
    finish(ctx, store, docs, "disable-daily", previous)
}

/// `unsupported-daily`: any but `enabled` → `unsupported` (**fix**: a working automation is not
/// silently declared unsupported; disable it first).
pub fn unsupported_daily(ctx: &Ctx, store: &mut dyn DocumentStore) -> Result<Value> {
    const COMMAND: &str = "unsupported-daily";
    let (mut docs, clock) = open(ctx, store)?;
    let previous = docs.state.daily_rec_status;
    if previous == Enabled {
        return Err(refuse(
            COMMAND,
            previous,
            &[Unset, Prompted, PendingSchedule, Disabled, Unsupported],
            "daily is enabled with a working automation; run disable-daily first if the scheduler is gone",
        ));
    }
    if previous != Unsupported {
        docs.state.daily_rec_status = Unsupported;
        docs.state.daily_rec_unsupported_at = Some(clock.stamp());
    }
    finish(ctx, store, docs, COMMAND, previous)
}

/// `daily-gate`: what the daily automation does first.
pub fn daily_gate(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    search_capability: bool,
) -> Result<Value> {
    let (mut docs, clock) = open(ctx, store)?;
    let ctx = &ctx.resolved(&docs.state);
    let today = clock.today();
    let (run, reason, notice) = match docs.state.daily_rec_status {
        PendingSchedule => (false, "daily_schedule_pending", None),
        Enabled if !search_capability => {
            let s = &mut docs.state;
            match s.daily_failure_notice_status {
                NoticeStatus::Unset | NoticeStatus::Resolved => {
                    s.daily_failure_notice_status = NoticeStatus::Shown;
                    s.daily_failure_notice_reason = Some("no_search_capability".into());
                    s.daily_failure_notice_last_shown_at = Some(clock.stamp());
                    (
                        false,
                        "no_search_capability",
                        Some(text::failure_notice(ctx.lang)),
                    )
                }
                NoticeStatus::Shown | NoticeStatus::Dismissed => {
                    (false, "no_search_capability", None)
                }
            }
        }
        Enabled => {
            if docs.state.daily_failure_notice_status == NoticeStatus::Shown {
                docs.state.daily_failure_notice_status = NoticeStatus::Resolved;
            }
            // Only daily pushes use up the day (a manual recommendation never does).
            if daily_push_on(&docs.history, &clock, today).is_some() {
                (false, "daily_quota_exhausted", None)
            } else {
                (true, "ok", None)
            }
        }
        _ => (false, "daily_not_enabled", None),
    };
    let notice_status = docs.state.daily_failure_notice_status;
    docs.save(store)?;
    Ok(json!({
        "run": run,
        "reason": reason,
        "notice": notice,
        "failure_notice_status": notice_status,
        "local_date": today.to_string(),
        "timezone": clock.zone_name,
        "warnings": clock.warning.iter().collect::<Vec<_>>(),
    }))
}

/// `failure-notice --dismiss|--restore`.
pub fn failure_notice(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    action: NoticeAction,
) -> Result<Value> {
    let (mut docs, _) = open(ctx, store)?;
    let previous = docs.state.daily_failure_notice_status;
    docs.state.daily_failure_notice_status = match action {
        NoticeAction::Dismiss => NoticeStatus::Dismissed,
        NoticeAction::Restore => NoticeStatus::Unset,
    };
    let now = docs.state.daily_failure_notice_status;
    docs.save(store)?;
    Ok(json!({
        "command": "failure-notice",
        "failure_notice_status": now,
        "previous": previous,
        "changed": now != previous,
    }))
}

/// Parse a version for `update-check`; a leading `v` is accepted.
fn parse_version(field: &str, text: &str) -> Result<semver::Version> {
    let t = text.trim();
    let t = t.strip_prefix(['v', 'V']).unwrap_or(t);
    semver::Version::parse(t).map_err(|e| {
        Error::invalid(
            field,
            format!("{text:?} is not a semantic version like 1.2.0 ({e})"),
        )
    })
}

/// `update-check`: should the user be asked about a new version?
pub fn update_check(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    local_version: Option<&str>,
    remote_version: &str,
) -> Result<Value> {
    let (local, remote) = parse_versions(local_version, remote_version)?;
    let (mut docs, clock) = open(ctx, store)?;
    let ctx = &ctx.resolved(&docs.state);
    let reason = apply_update_check(&mut docs.state, &clock, &local, &remote);
    let notify = reason == "newer_version";
    let status = docs.state.update_notice_status;
    docs.save(store)?;
    Ok(json!({
        "notify": notify,
        "reason": reason,
        "text": notify.then(|| text::update_question(ctx.lang)),
        "local_version": local.to_string(),
        "remote_version": remote.to_string(),
        "update_notice_status": status,
    }))
}

/// Parse `update-check`'s versions (`local` defaults to this component's version).
pub(crate) fn parse_versions(
    local_version: Option<&str>,
    remote_version: &str,
) -> Result<(semver::Version, semver::Version)> {
    Ok((
        parse_version("local-version", local_version.unwrap_or(COMPONENT_VERSION))?,
        parse_version("remote-version", remote_version)?,
    ))
}

/// The update-notice rules on loaded state: returns the reason; `newer_version` means "ask now", and
/// the notice is then marked shown for `remote`.
pub(crate) fn apply_update_check(
    s: &mut crate::state::State,
    clock: &Clock,
    local: &semver::Version,
    remote: &semver::Version,
) -> &'static str {
    s.last_update_check_at = Some(clock.stamp());
    let seen = s
        .last_seen_remote_version
        .as_deref()
        .and_then(|v| parse_version("last_seen_remote_version", v).ok());
    let reason = match s.auto_update_status {
        AutoUpdate::Disabled => "auto_update_disabled",
        AutoUpdate::Unsupported => "auto_update_unsupported",
        AutoUpdate::Ask if remote <= local => "up_to_date",
        AutoUpdate::Ask if seen.as_ref() == Some(remote) => match s.update_notice_status {
            UpdateNotice::Shown => "already_shown",
            UpdateNotice::Dismissed => "dismissed",
            UpdateNotice::Accepted => "accepted",
            UpdateNotice::Unset => "newer_version",
        },
        AutoUpdate::Ask => "newer_version",
    };
    if reason == "newer_version" {
        s.update_notice_status = UpdateNotice::Shown;
        s.last_seen_remote_version = Some(remote.to_string());
        s.last_update_notice_at = Some(clock.stamp());
    }
    reason
}

/// `update-notice --accept|--dismiss`.
pub fn update_notice(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    response: UpdateResponse,
) -> Result<Value> {
    let (mut docs, _) = open(ctx, store)?;
    let previous = docs.state.update_notice_status;
    docs.state.update_notice_status = match response {
        UpdateResponse::Accept => UpdateNotice::Accepted,
        UpdateResponse::Dismiss => UpdateNotice::Dismissed,
    };
    let now = docs.state.update_notice_status;
    docs.save(store)?;
    Ok(json!({
        "command": "update-notice",
        "update_notice_status": now,
        "previous": previous,
        "changed": now != previous,
    }))
}

#[cfg(test)]
mod tests;
