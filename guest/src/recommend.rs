//! `recommend`, the main job: filter → scan → rank → pick → render in one call, then record `shown`.
//!
//! Manual: the best pick and up to two alternatives; medium risk allowed with the risk explained; with a
//! task, only candidates that match it at all are picked. Daily: only when daily is enabled and today's
//! quota is free; exactly one low-risk pick or a silent result with the reason; never three days in a
//! row from the dev/ops/docs family. Fewer than three usable candidates: manual says its confidence is
//! low; daily stays silent. Nothing is ever made up: every card line comes from a candidate's data.

use serde_json::{Value, json};

use crate::clock::{Clock, parse_stored};
use crate::filter::{InstalledSkill, Mode, filter_for};
use crate::fit::{Agent, AgentEnv, CommandProbe, NoProbe};
use crate::lifecycle::{
    FeedbackAction, SkillRef, apply_feedback, apply_update_check, clean_skill, open, parse_versions,
};
use crate::rank::relevance::{Script, script_of};
use crate::rank::{Env, Preview, Ranked, Request, Staged, Theme, is_work_family, rank_for};
use crate::render::{Card, Item, card_text, confidence_text, unknown_fields};
use crate::scan::candidate::{Risk, assess, deciding};
use crate::state::{DailyStatus, Documents};
use crate::{Ctx, DocumentStore, Lang, Result, text};

/// Usable candidates below this make a manual pick "low confidence" and keep daily silent.
pub const MIN_CONFIDENT_CANDIDATES: usize = 3;
/// Alternatives shown beside a manual pick.
pub const MAX_ALTERNATIVES: usize = 2;
/// Ranked entries listed in the JSON output (the full ranking is `rank`'s job).
pub const RANKED_LISTED: usize = 10;
/// With a task, a pick needs at least this match strength (`rank::Ranked::coverage`, see
/// `rank::relevance`), by the script the task is written in: below it, the "match" is a generic word
/// or the right action on the wrong object, and nothing is recommended. Calibrated on the ranking
/// benchmark (docs/ranking.md): below every task's right skill, above requests nothing matches.
/// `rank23` lowered Latin from 0.25 to 0.22 and Han from 0.22 to 0.21: between those values no
/// no-match request has a plain match (theirs are single-word matches, held by
/// [`SINGLE_MATCH_FLOOR`], or higher), while right skills ranked first were withheld there.
pub const MIN_TASK_MATCH: [(Script, f64); 3] = [
    (Script::Latin, 0.22),
    (Script::Han, 0.21),
    (Script::Mixed, 0.25),
];
/// A match that has the request's goal action on the request's object (`rank::Ranked::core_match`)
/// needs only this share of the cut-off: the structure says it does the job, and what keeps its
/// strength low is the request's other words (a date, a name, a story around the ask). Matches
/// that only share an object or a topic keep the full cut-off.
pub const CORE_MATCH_SHARE: f64 = 0.6;
/// A match that rests on one word or phrase of a request that says more, and that word is an
/// action, a topic or a free word rather than a specific object (`rank::Ranked::single_match`:
/// "*tune* my guitar" against an SEO optimizer, "*家里*下水道堵了" against a home helper), needs at
/// least this strength. Requests nothing in the registry does share exactly such a word with some
/// listing; calibrated on `guest/tests/bench/no_match.json` (such matches reach 0.33) against the
/// benchmark's right picks (docs/ranking.md).
pub const SINGLE_MATCH_FLOOR: f64 = 0.35;
/// With a task, alternatives need at least this relevance (see `rank::Ranked::relevance`).
pub const RELEVANCE_FLOOR: f64 = 0.2;
/// The first candidate of the order may fall short of its cut-off by less than this and still be the
/// pick, when a candidate further down passes the cut-off with no more relevance than it has
/// (`rank30`, [`manual_pick`]): some listing does match the request, so the order decides among the
/// near matches, and the pick never jumps over the better-ordered, more relevant one to a listing
/// whose match strength passes only by the request's generic words. With no candidate passing, the
/// cut-off holds as before (no-match requests stay silent).
pub const NEAR_CUTOFF_MARGIN: f64 = 0.03;
/// The first candidate of the order is also the pick over a candidate further down that passes the
/// cut-off when its relevance is at least this many times the passing one's and its own match
/// reaches [`CORE_MATCH_SHARE`] of its cut-off (`rank47`): the order leads by that much on the words
/// the request shares with it (rare words, the name), and the passing one got past the cut-off on
/// the request's other, commoner words. On a domain the concept map does not know yet, a request's
/// own words are free words of small weight, so the right listing is first in the order and under
/// the cut-off, while a listing that shares one misread action passes it. With no candidate passing,
/// the cut-off holds as before (no-match requests stay silent).
pub const LEAD_OVER_PASSING: f64 = 2.0;

/// The pick's cut-off for a task.
pub fn min_task_match(task: &str) -> f64 {
    let script = script_of(task);
    MIN_TASK_MATCH
        .iter()
        .find(|(s, _)| *s == script)
        .map_or(0.3, |(_, v)| *v)
}
/// Consecutive days of dev/ops/docs daily picks allowed.
pub const MAX_WORK_DAYS_IN_A_ROW: usize = 2;

/// What `recommend` is asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    pub task: Option<String>,
    pub signals: Vec<String>,
    /// Compute and render, but write nothing.
    pub dry_run: bool,
    /// The latest published version, when the agent looked it up; enables the update question.
    pub remote_version: Option<String>,
    /// This installation's version (default: the component's).
    pub local_version: Option<String>,
    /// The agent asks another authorization question this turn: defer the update question.
    pub other_question: bool,
    /// The agent's situation as the host stated it: its platform drops `platform_unsupported`, its
    /// capabilities and the commands the host finds set the `fit` adjustment (unknown by default).
    pub agent: AgentEnv,
}

fn silent_message(reason: &str, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match reason {
        "daily_not_enabled" if zh => "每日推荐没有开启，静默退出。".into(),
        "daily_not_enabled" => "Daily recommendations are not enabled; staying silent.".into(),
        "daily_schedule_pending" if zh => {
            "用户已同意每日推荐，但定时任务还没确认创建成功；先完成创建再运行。".into()
        }
        "daily_schedule_pending" => {
            "The user agreed to daily recommendations but the automation is not confirmed yet; finish creating it first.".into()
        }
        "daily_quota_exhausted" if zh => "今天已经推荐过了，每天最多一条。".into(),
        "daily_quota_exhausted" => "Already recommended today: at most one a day.".into(),
        "too_few_candidates" if zh => {
            "可用的低风险候选不足 3 个，今天不勉强推荐。".into()
        }
        "too_few_candidates" => {
            "Fewer than 3 usable low-risk candidates: no daily pick rather than a weak one.".into()
        }
        "only_work_family_left" if zh => {
            "已经连续两天推荐开发/运维/文档类工具，今天没有其他类别的合格候选。".into()
        }
        "only_work_family_left" => {
            "Two days in a row were dev/ops/docs tools and no candidate of another kind qualifies today.".into()
        }
        "no_match_for_task" if zh => "没有候选和你的任务相关，不硬推。".into(),
        // `no_usable_candidates` is written by `text::nothing_left`, with its counts.
        "no_match_for_task" => "No candidate matches the task; nothing is recommended rather than something unrelated.".into(),
        _ if zh => "没有可以推荐的候选（都被过滤或拦截了）。".into(),
        _ => "No candidate is left to recommend (all were filtered or blocked).".into(),
    }
}

fn item_json(r: &Ranked, rank_no: usize, explanation: &str, lang: Lang) -> Value {
    let mut v = serde_json::to_value(&r.candidate).expect("candidates serialize");
    let summary = r.to_json(rank_no);
    for key in [
        "rank",
        "score",
        "exact_name_match",
        "breakdown",
        "reasons",
        "work_family",
    ] {
        v[key] = summary[key].clone();
    }
    v["risk_level"] = json!(r.risk.as_str());
    v["risk_explanation"] = json!(explanation);
    v["findings"] = json!(r.findings);
    v["installed"] = json!(false);
    v["unknown"] = json!(unknown_fields(&r.candidate));
    v["fit"] = r.assessed.fit.to_json(lang);
    v["quality"] = r.assessed.quality_json();
    v
}

fn explanation(r: &Ranked, lang: Lang) -> String {
    if r.risk == Risk::Low {
        return match lang {
            Lang::Zh => "低风险".into(),
            Lang::En => "low risk".into(),
        };
    }
    // A Chinese card words each deciding finding in Chinese; the rules' descriptions are English.
    let reasons: Vec<String> = match lang {
        Lang::En => deciding(&r.findings, r.risk, |f| &f.description)
            .into_iter()
            .map(str::to_owned)
            .collect(),
        Lang::Zh => {
            let mut v: Vec<String> = r
                .findings
                .iter()
                .filter(|f| f.raises_to == r.risk)
                .map(crate::scan::candidate::zh::description)
                .collect();
            v.dedup();
            v
        }
    };
    match (reasons.is_empty(), lang) {
        (true, Lang::Zh) => "候选自身标注为中等风险".into(),
        (true, Lang::En) => "labelled medium risk by the agent".into(),
        (false, Lang::Zh) => reasons.concat(),
        (false, Lang::En) => reasons.join(" "),
    }
}

fn card_item(r: &Ranked, lang: Lang) -> Item {
    Item {
        candidate: r.candidate.clone(),
        risk_level: r.risk.as_str().to_owned(),
        risk_explanation: explanation(r, lang),
        has_findings: !r.findings.is_empty(),
        reasons: r.reasons.clone(),
        installed: false,
        unknown: unknown_fields(&r.candidate),
        needs: r.assessed.fit.needs(lang),
    }
}

/// Whether the last [`MAX_WORK_DAYS_IN_A_ROW`] days before today each had a dev/ops/docs daily pick.
fn work_streak(docs: &Documents, clock: &Clock) -> bool {
    let today = clock.today();
    (1..=MAX_WORK_DAYS_IN_A_ROW as i64).all(|back| {
        let Ok(day) = today.checked_sub(jiff::Span::new().days(back)) else {
            return false;
        };
        let picks: Vec<_> = docs
            .history
            .recommendations
            .iter()
            .filter(|r| r.extra.get("mode").and_then(Value::as_str) == Some("daily"))
            .filter(|r| parse_stored(&r.date).is_some_and(|ts| clock.local_date_of(ts) == day))
            .collect();
        !picks.is_empty()
            && picks
                .iter()
                .all(|r| is_work_family(&r.categories, &r.name.replace(['-', '_'], " ")))
    })
}

/// The cut-off a candidate's match strength must reach with a task whose script's cut-off is `floor`
/// ([`MIN_TASK_MATCH`], [`CORE_MATCH_SHARE`], [`SINGLE_MATCH_FLOOR`]).
fn cutoff_for(p: &Preview, floor: f64) -> f64 {
    if p.core {
        floor * CORE_MATCH_SHARE
    } else if p.single {
        floor.max(SINGLE_MATCH_FLOOR)
    } else {
        floor
    }
}

/// Whether a manual pick may be this candidate: with a task, its match must be strong enough
/// ([`cutoff_for`]).
fn relevant(p: &Preview, has_task: bool, floor: f64) -> bool {
    !has_task || p.strength >= cutoff_for(p, floor)
}

/// How a manual pick was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManualPick {
    /// Position of the pick in the ranked order.
    pub pick: usize,
    /// Positions of the alternatives, in order.
    pub alternatives: Vec<usize>,
    /// The pick is the first of the order, within [`NEAR_CUTOFF_MARGIN`] under its cut-off, chosen
    /// over the first candidate that passes it.
    pub near_cutoff: bool,
    /// Of those, one further under its cut-off that leads the passing candidate's relevance
    /// [`LEAD_OVER_PASSING`] times over.
    pub lead: bool,
}

/// The manual pick among `previews` (the ranked order's matches): the first candidate whose match
/// passes the cut-off ([`relevant`]), or, when that is not the first of the order, the first of the
/// order if its match is within [`NEAR_CUTOFF_MARGIN`] under its own cut-off and its relevance is at
/// least the passing candidate's. Alternatives are the passing candidates after the pick that
/// [`alternative_ok`] accepts. `None`: nothing passes (silent, `no_match_for_task`).
pub fn manual_pick(previews: &[Preview], has_task: bool, floor: f64) -> Option<ManualPick> {
    let passing: Vec<usize> = (0..previews.len())
        .filter(|&i| relevant(&previews[i], has_task, floor))
        .collect();
    let &first = passing.first()?;
    let top = &previews[0];
    let near = has_task
        && first > 0
        && top.strength + NEAR_CUTOFF_MARGIN >= cutoff_for(top, floor)
        && top.relevance >= previews[first].relevance;
    let lead = has_task
        && first > 0
        && !near
        && top.strength >= cutoff_for(top, floor) * CORE_MATCH_SHARE
        && top.relevance >= LEAD_OVER_PASSING * previews[first].relevance;
    let near_cutoff = near || lead;
    let pick = if near_cutoff { 0 } else { first };
    let alternatives = passing
        .iter()
        .copied()
        .filter(|&i| i > pick && alternative_ok(&previews[i], has_task))
        .take(MAX_ALTERNATIVES)
        .collect();
    Some(ManualPick {
        pick,
        alternatives,
        near_cutoff,
        lead,
    })
}

/// Whether a relevant candidate may be shown as an alternative ([`RELEVANCE_FLOOR`]).
fn alternative_ok(p: &Preview, has_task: bool) -> bool {
    !has_task || p.relevance >= RELEVANCE_FLOOR
}

/// What a ranked candidate's match with the task was.
pub fn preview(r: &Ranked) -> Preview {
    Preview {
        exact: r.exact_name_match,
        relevance: r.relevance,
        strength: r.coverage,
        core: r.core_match,
        single: r.single_match,
    }
}

/// Whether scoring more of a manual ranking could still change `recommend`'s pick or alternatives:
/// `head` is the scored head in order, `pending` the task matches of the candidates not scored yet.
/// It could while the head holds no relevant candidate (the pick) or fewer than
/// [`MAX_ALTERNATIVES`] relevant ones after it that may be alternatives, and some pending candidate
/// could fill that place (its match alone decides whether it can).
fn head_open<'p>(
    head: impl Iterator<Item = Preview>,
    mut pending: impl Iterator<Item = &'p Preview>,
    has_task: bool,
    floor: f64,
) -> bool {
    let mut relevant_seen = 0;
    let mut alternatives_seen = 0;
    for p in head {
        if relevant(&p, has_task, floor) {
            if relevant_seen > 0 && alternative_ok(&p, has_task) {
                alternatives_seen += 1;
            }
            relevant_seen += 1;
        }
    }
    let pick_open = relevant_seen == 0;
    let alternatives_open = alternatives_seen < MAX_ALTERNATIVES;
    if !pick_open && !alternatives_open {
        return false;
    }
    pending.any(|p| {
        relevant(p, has_task, floor)
            && (pick_open || (alternatives_open && alternative_ok(p, has_task)))
    })
}

/// The head of the ranking that `recommend` reads, scored group by group ([`Staged`]): the
/// [`RANKED_LISTED`] entries it lists and, in manual mode, up to the pick and its alternatives. A
/// candidate not scored is never one of them: the head is a prefix of the full ranking, and it is
/// extended while any unscored candidate could still be the pick or an alternative (by its match
/// alone, which decides both). A daily pick is the first low-risk candidate that `daily_ok` accepts
/// (the work family's streak): the head is extended until it holds one (or every candidate).
#[allow(clippy::too_many_arguments)]
fn ranked_head(
    usable: Vec<(
        crate::model::Candidate,
        Risk,
        Vec<crate::scan::candidate::RiskFinding>,
    )>,
    mode: Mode,
    request: &Request,
    env: &Env<'_>,
    agent: &Agent,
    has_task: bool,
    floor: f64,
    daily_ok: impl Fn(&Ranked) -> bool,
) -> crate::rank::Ranking {
    let mut staged = Staged::new(usable, mode, request, env, agent);
    staged.score_at_least(RANKED_LISTED);
    match mode {
        Mode::Daily => {
            while !staged.ranked().iter().any(&daily_ok)
                && staged.score_more(staged.ranked().len().max(1))
            {}
        }
        // One candidate at a time would scan the pending ones once per step; doubling the head
        // keeps that to a few scans (a head longer than needed is still a prefix of the ranking).
        Mode::Manual => {
            while head_open(
                staged.ranked().iter().map(preview),
                staged.pending(),
                has_task,
                floor,
            ) && staged.score_more(staged.ranked().len().max(1))
            {}
        }
    }
    staged.into_ranking()
}

/// The `recommend` export, for a host that does not look commands up.
pub fn run(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    mode: Mode,
    candidates: &str,
    installed: &[InstalledSkill],
    opts: &Options,
) -> Result<Value> {
    run_with(ctx, store, &mut NoProbe, mode, candidates, installed, opts)
}

/// The `recommend` export: `probe` looks up the commands the usable candidates declare.
pub fn run_with(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    probe: &mut dyn CommandProbe,
    mode: Mode,
    candidates: &str,
    installed: &[InstalledSkill],
    opts: &Options,
) -> Result<Value> {
    run_cow(
        ctx,
        store,
        probe,
        mode,
        candidates.into(),
        installed,
        opts,
        true,
    )
}

/// [`run_with`] on input the call owns: the text is freed once parsed, so what follows reuses its
/// memory (in the component, memory once grown is never given back).
pub fn run_owned_with(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    probe: &mut dyn CommandProbe,
    mode: Mode,
    candidates: String,
    installed: &[InstalledSkill],
    opts: &Options,
) -> Result<Value> {
    run_cow(
        ctx,
        store,
        probe,
        mode,
        candidates.into(),
        installed,
        opts,
        true,
    )
}

/// `staged`: rank only the head `recommend` reads ([`ranked_head`]); false ranks every candidate
/// (the reference the tests compare the staged ranking with).
#[allow(clippy::too_many_arguments)]
fn run_cow(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    probe: &mut dyn CommandProbe,
    mode: Mode,
    candidates: std::borrow::Cow<'_, str>,
    installed: &[InstalledSkill],
    opts: &Options,
    staged: bool,
) -> Result<Value> {
    let mut agent = Agent::resolve(&opts.agent)?;
    let versions = match opts.remote_version.as_deref() {
        Some(remote) => Some(parse_versions(opts.local_version.as_deref(), remote)?),
        None => None,
    };
    let input = crate::input::parse(&candidates)?;
    drop(candidates);
    let items = input.items;
    let input_count = items.len();
    let (mut docs, clock) = open(ctx, store)?;
    // The bundled sample data is a demonstration: marked on the card, never recorded.
    let dry_run = opts.dry_run || input.demo;
    let task = opts
        .task
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let lang = ctx.lang_for_task(&docs.state, task);

    let mut out = json!({
        "mode": mode.as_str(),
        "task": task,
        "theme": null,
        "local_date": clock.today().to_string(),
        "timezone": clock.zone_name,
        "silent": true,
        "reason": null,
        "message": null,
        "confidence": null,
        "pick": null,
        "alternatives": [],
        "card": null,
        "update": null,
        "update_question": null,
        "recorded": false,
        "dry_run": dry_run,
        "demo": input.demo,
        "normalized_from": input.normalized_from.map(|r| r.as_str()),
        "confidence_reasons": [],
        "dropped": [],
        "blocked": [],
        "ranked": [],
        "summary": {"input": input_count, "kept": 0, "dropped": 0, "blocked": 0, "usable": 0, "by_reason": {}},
        "warnings": clock.warning.iter().collect::<Vec<_>>(),
    });
    let silent = |out: &mut Value, reason: &str| {
        out["reason"] = json!(reason);
        out["message"] = json!(silent_message(reason, lang));
    };

    // The daily gate.
    if mode == Mode::Daily {
        let gate = match docs.state.daily_rec_status {
            DailyStatus::Enabled => None,
            DailyStatus::PendingSchedule => Some("daily_schedule_pending"),
            _ => Some("daily_not_enabled"),
        };
        if let Some(reason) = gate {
            silent(&mut out, reason);
            return Ok(out);
        }
    }

    // Filter.
    let outcome = filter_for(
        items,
        mode,
        &docs.state,
        &docs.history,
        installed,
        &clock,
        &agent,
    );
    let quota_used = outcome
        .dropped
        .iter()
        .any(|d| d.reason == crate::filter::Reason::DailyQuotaExhausted);
    out["dropped"] = json!(outcome.dropped);
    out["summary"]["kept"] = json!(outcome.kept.len());
    out["summary"]["dropped"] = json!(outcome.dropped.len());

    // Scan: high never passes; medium only in manual mode.
    let mut usable = Vec::new();
    let mut blocked = Vec::new();
    for c in outcome.kept {
        let (risk, findings) = assess(&c);
        let pass = match risk {
            Risk::Low => true,
            Risk::Medium => mode == Mode::Manual,
            Risk::High => false,
        };
        if pass {
            usable.push((c, risk, findings));
        } else {
            let rules = deciding(&findings, risk, |f| &f.rule_id);
            let detail = if rules.is_empty() {
                format!("{} risk as labelled by the agent", risk.as_str())
            } else {
                format!("{} risk: {}", risk.as_str(), rules.join(", "))
            };
            blocked.push(json!({
                "skill_id": c.skill_id,
                "name": c.name,
                "risk_level": risk.as_str(),
                "reason": if risk == Risk::High { "high_risk" } else { "medium_risk_in_daily" },
                "detail": detail,
                "findings": findings,
            }));
        }
    }
    out["summary"]["blocked"] = json!(blocked.len());
    out["summary"]["usable"] = json!(usable.len());
    let mut by_reason: std::collections::BTreeMap<String, usize> = Default::default();
    for reason in outcome
        .dropped
        .iter()
        .map(|d| d.reason.code())
        .chain(blocked.iter().filter_map(|b| b["reason"].as_str()))
    {
        *by_reason.entry(reason.to_owned()).or_default() += 1;
    }
    out["summary"]["by_reason"] = json!(by_reason);
    out["blocked"] = json!(blocked);
    let usable_count = usable.len();

    // Rank.
    let request = Request {
        task: task.map(str::to_owned),
        signals: opts.signals.clone(),
        agent: opts.agent.clone(),
    };
    agent.look_up_commands(probe, usable.iter().map(|(c, _, _)| c));
    let env = Env {
        state: &docs.state,
        history: &docs.history,
        installed,
        clock: &clock,
        lang,
    };
    let floor = task.map_or(0.0, min_task_match);
    let streak = mode == Mode::Daily && work_streak(&docs, &clock);
    let daily_ok = |r: &Ranked| r.risk == Risk::Low && !(streak && r.work_family);
    let ranking = if staged {
        ranked_head(
            usable,
            mode,
            &request,
            &env,
            &agent,
            task.is_some(),
            floor,
            daily_ok,
        )
    } else {
        rank_for(usable, mode, &request, &env, &agent)
    };
    out["theme"] = json!(ranking.theme.map(Theme::as_str));
    out["ranked"] = json!(
        ranking
            .ranked
            .iter()
            .take(RANKED_LISTED)
            .enumerate()
            .map(|(i, r)| {
                let mut v = r.to_json(i + 1);
                v.as_object_mut().map(|m| m.remove("breakdown"));
                v
            })
            .collect::<Vec<_>>()
    );

    // Pick.
    if quota_used {
        silent(&mut out, "daily_quota_exhausted");
        return Ok(out);
    }
    if ranking.ranked.is_empty() {
        out["reason"] = json!("no_usable_candidates");
        out["message"] = json!(text::nothing_left(lang, input_count, &by_reason));
        return Ok(out);
    }
    let positions: Vec<usize> = (0..ranking.ranked.len()).collect();
    let mut near_cutoff = false;
    let mut lead = false;
    let (pick, alternatives): (usize, Vec<usize>) = match mode {
        Mode::Manual => {
            let previews: Vec<Preview> = ranking.ranked.iter().map(preview).collect();
            let Some(chosen) = manual_pick(&previews, task.is_some(), floor) else {
                silent(&mut out, "no_match_for_task");
                return Ok(out);
            };
            near_cutoff = chosen.near_cutoff;
            lead = chosen.lead;
            (chosen.pick, chosen.alternatives)
        }
        Mode::Daily => {
            if usable_count < MIN_CONFIDENT_CANDIDATES {
                silent(&mut out, "too_few_candidates");
                return Ok(out);
            }
            let eligible = positions
                .iter()
                .copied()
                .find(|&i| daily_ok(&ranking.ranked[i]));
            match eligible {
                Some(i) => (i, Vec::new()),
                None => {
                    silent(
                        &mut out,
                        if streak {
                            "only_work_family_left"
                        } else {
                            "no_usable_candidates"
                        },
                    );
                    return Ok(out);
                }
            }
        }
    };
    let chosen = &ranking.ranked[pick];
    let low_confidence = mode == Mode::Manual && usable_count < MIN_CONFIDENT_CANDIDATES;
    let mut confidence_reasons: Vec<String> = Vec::new();
    if low_confidence {
        confidence_reasons.push("few_candidates".into());
    }
    confidence_reasons.extend(
        unknown_fields(&chosen.candidate)
            .into_iter()
            .map(|f| format!("unknown_{f}")),
    );

    // The update question: only when due and no other authorization question is asked this turn.
    let mut update_question = None;
    if let Some((local, remote)) = &versions {
        let mut probe = docs.state.clone();
        let reason = apply_update_check(&mut probe, &clock, local, remote);
        let due = reason == "newer_version";
        let asked = due && !opts.other_question;
        if asked {
            apply_update_check(&mut docs.state, &clock, local, remote);
            update_question = Some(text::update_question(lang).to_owned());
        } else if !opts.other_question {
            // Record the check itself (it changed nothing else).
            docs.state.last_update_check_at = Some(clock.stamp());
        }
        out["update"] = json!({
            "reason": reason,
            "due": due,
            "asked": asked,
            "deferred": due && opts.other_question,
            "local_version": local.to_string(),
            "remote_version": remote.to_string(),
        });
    }

    let card = Card {
        pick: card_item(chosen, lang),
        alternatives: alternatives
            .iter()
            .map(|&i| card_item(&ranking.ranked[i], lang))
            .collect(),
        low_confidence,
        local_date: clock.today().to_string(),
        theme_label: ranking.theme.map(|t| t.label(lang).to_owned()),
        update_question: update_question.clone(),
        demo: input.demo,
    };
    let text = card_text(&card, mode, lang);

    out["silent"] = json!(false);
    out["reason"] = json!("ok");
    out["confidence"] = json!(if confidence_reasons.is_empty() {
        "normal"
    } else {
        "low"
    });
    out["confidence_reasons"] = json!(confidence_reasons);
    out["message"] = json!(confidence_text(&card, lang));
    out["pick"] = item_json(chosen, pick + 1, &explanation(chosen, lang), lang);
    out["pick"]["near_cutoff"] = json!(near_cutoff);
    if near_cutoff {
        let why = match lang {
            Lang::Zh if lead => "排在第一，匹配度低于门槛，但相关度是后面刚过门槛的候选的两倍以上",
            Lang::En if lead => {
                "ranked first; its match is under the cut-off, but it is more than twice as relevant as the next listing that passes it"
            }
            Lang::Zh => "排在第一，匹配度略低于门槛，但比后面刚过门槛的候选更相关",
            Lang::En => {
                "ranked first; its match is just under the cut-off, and it is more relevant than the next listing that passes it"
            }
        };
        if let Some(reasons) = out["pick"]["reasons"].as_array_mut() {
            reasons.push(json!(why));
        }
    }
    out["alternatives"] = json!(
        alternatives
            .iter()
            .map(|&i| item_json(
                &ranking.ranked[i],
                i + 1,
                &explanation(&ranking.ranked[i], lang),
                lang
            ))
            .collect::<Vec<_>>()
    );
    out["card"] = json!(text);
    out["update_question"] = json!(update_question);

    // Record.
    if !dry_run {
        let c = &chosen.candidate;
        let skill = clean_skill(&SkillRef {
            skill_id: c.skill_id.clone(),
            name: Some(c.name.clone()),
            url: Some(c.url.clone()),
            categories: c.categories.clone(),
            mode: Some(mode),
        })?;
        let (index, _) = apply_feedback(&mut docs, &clock, FeedbackAction::Shown, &skill);
        let record = &mut docs.history.recommendations[index];
        // The alternatives were shown too: feedback may name one (see `resolve_shown` in `lifecycle/feedback.rs`).
        if !alternatives.is_empty() {
            let shown: Vec<Value> = alternatives
                .iter()
                .map(|&i| {
                    let a = &ranking.ranked[i].candidate;
                    json!({"skill_id": a.skill_id, "name": a.name, "url": a.url, "categories": a.categories})
                })
                .collect();
            record.extra.insert("alternatives".into(), json!(shown));
        }
        // The language the agent chose for this user is theirs from now on (until it chooses again).
        if ctx.lang_explicit && docs.state.lang.as_deref() != Some(ctx.lang.as_str()) {
            docs.state.lang = Some(ctx.lang.as_str().to_owned());
        }
        if let Some(theme) = ranking.theme {
            record.extra.insert("theme".into(), json!(theme.as_str()));
            let rotation = &mut docs.state.daily_rotation;
            if !rotation.is_object() {
                *rotation = json!({});
            }
            rotation["last_theme"] = json!(theme.as_str());
            rotation["last_run_at"] = json!(clock.stamp());
        }
        docs.save(store)?;
        out["recorded"] = json!(true);
    }
    crate::discard(ranking);
    Ok(out)
}

#[cfg(test)]
mod pick_tests;
#[cfg(test)]
mod staged_tests;
#[cfg(test)]
mod tests;
