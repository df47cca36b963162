//! Feedback history: checking a feedback event's fields, resolving which shown skill it names,
//! and recording it (split from `lifecycle.rs`; the command is [`feedback`]).

use super::*;

/// Check and normalize a feedback event's fields.
pub(crate) fn clean_skill(skill: &SkillRef) -> Result<SkillRef> {
    let skill_id = skill.skill_id.trim();
    if skill_id.is_empty() {
        return Err(Error::invalid(
            "skill-id",
            "must not be empty (e.g. clawhub:pdf-tables)",
        ));
    }
    let non_empty = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let url = non_empty(&skill.url);
    if let Some(u) = &url {
        let rest = u
            .strip_prefix("https://")
            .or_else(|| u.strip_prefix("http://"));
        if rest.is_none_or(|r| r.is_empty() || r.starts_with('/')) {
            return Err(Error::invalid(
                "skill-url",
                format!("{u:?} is not an http(s) URL"),
            ));
        }
    }
    let mut categories: Vec<String> = Vec::new();
    for c in &skill.categories {
        let c = c.trim().to_lowercase();
        if !c.is_empty() && !categories.contains(&c) {
            categories.push(c);
        }
    }
    Ok(SkillRef {
        skill_id: skill_id.to_owned(),
        name: non_empty(&skill.name),
        url,
        categories,
        mode: skill.mode,
    })
}

/// A skill that was shown: a history record, or an alternative listed beside its pick.
struct Shown {
    skill_id: String,
    name: String,
    url: String,
    categories: Vec<String>,
    date: Option<jiff::Timestamp>,
    mode: Option<String>,
}

/// Everything the history says was shown, newest first.
fn shown_skills(history: &crate::state::History) -> Vec<Shown> {
    let mut out: Vec<Shown> = Vec::new();
    for r in &history.recommendations {
        let date = parse_stored(&r.date);
        let mode = r.mode().map(str::to_owned);
        out.push(Shown {
            skill_id: r.skill_id.clone(),
            name: r.name.clone(),
            url: r.url.clone(),
            categories: r.categories.clone(),
            date,
            mode: mode.clone(),
        });
        for a in r
            .extra
            .get("alternatives")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let text = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            if text("skill_id").is_empty() {
                continue;
            }
            out.push(Shown {
                skill_id: text("skill_id"),
                name: text("name"),
                url: text("url"),
                categories: a
                    .get("categories")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
                date,
                mode: mode.clone(),
            });
        }
    }
    // Stable: among equal dates the later record (list order) comes first.
    out.reverse();
    out.sort_by_key(|s| std::cmp::Reverse(s.date));
    out
}

/// The prefix of the ids `install` gives skills from a local source (`local:<name>`).
const LOCAL_ID_PREFIX: &str = "local:";

/// The id `install` records a skill from a local source under, when no card's id is given.
pub(crate) fn local_id(name: &str) -> String {
    format!("{LOCAL_ID_PREFIX}{name}")
}

/// Whether `id` is one [`local_id`] made.
fn is_local_id(id: &str) -> bool {
    id.strip_prefix(LOCAL_ID_PREFIX)
        .is_some_and(|name| !name.trim().is_empty())
}

/// Resolve `accept`/`reject` against what was shown: the id as printed on a card (any record), or the
/// name as a recent card showed it; the caller's name, URL and categories win over the record's.
/// A skill never shown needs `name` and `url` (a skill the user found elsewhere); otherwise the call
/// is refused, listing the recently shown ids. Returns the skill and how it was found: `id`, `name`
/// or `given`.
pub(crate) fn resolve_shown(
    history: &crate::state::History,
    clock: &Clock,
    skill: SkillRef,
) -> Result<(SkillRef, &'static str)> {
    let shown = shown_skills(history);
    let given = skill.skill_id.trim();
    let by_id = shown
        .iter()
        .find(|s| s.skill_id.trim().eq_ignore_ascii_case(given));
    let recent = |s: &&Shown| {
        s.date.is_some_and(|d| {
            clock.now.as_second().saturating_sub(d.as_second()) / 86_400 < FEEDBACK_LOOKBACK_DAYS
        })
    };
    let key = crate::filter::name_key(given);
    let by_name = || {
        shown.iter().filter(recent).find(|s| {
            !key.is_empty()
                && (crate::filter::name_key(&s.name) == key
                    || crate::filter::name_key(id_slug(&s.skill_id)) == key)
        })
    };
    let (found, how) = match by_id {
        Some(s) => (s, "id"),
        None => match by_name() {
            Some(s) => (s, "name"),
            None if skill.name.is_some() && skill.url.is_some() => return Ok((skill, "given")),
            // `local:<name>` is the id `install` gives a skill from a local source: it came from no
            // card and has no URL; its name is enough.
            None if skill.name.is_some() && is_local_id(given) => return Ok((skill, "given")),
            None => {
                let mut listed: Vec<String> = Vec::new();
                for s in shown.iter().filter(recent) {
                    let line = if s.name.is_empty() || s.name == s.skill_id {
                        s.skill_id.clone()
                    } else {
                        format!("{} ({})", s.skill_id, s.name)
                    };
                    if !listed.contains(&line) {
                        listed.push(line);
                    }
                    if listed.len() == RECENT_LISTED {
                        break;
                    }
                }
                let hint = if listed.is_empty() {
                    "no card was shown in the last 30 days".to_owned()
                } else {
                    format!("recently shown: {}", listed.join(", "))
                };
                return Err(Error::invalid(
                    "skill-id",
                    format!(
                        "{given:?} was never shown to the user ({hint}). Pass the ID printed on the card (or the skill's name as the card shows it); for a skill found elsewhere, also pass --skill-name and --skill-url."
                    ),
                ));
            }
        },
    };
    let pick = |given: Option<String>, stored: &str| {
        given.or_else(|| (!stored.is_empty()).then(|| stored.to_owned()))
    };
    let resolved = SkillRef {
        skill_id: found.skill_id.clone(),
        name: pick(skill.name, &found.name),
        url: pick(skill.url, &found.url),
        categories: if skill.categories.is_empty() {
            found.categories.clone()
        } else {
            skill.categories
        },
        mode: skill.mode.or(match found.mode.as_deref() {
            Some("daily") => Some(crate::filter::Mode::Daily),
            Some(_) => Some(crate::filter::Mode::Manual),
            None => None,
        }),
    };
    Ok((resolved, how))
}

/// The name part of an id: `clawhub:pdf-tables` → `pdf-tables`; `skillssh:o/r/skill` → `skill`.
fn id_slug(id: &str) -> &str {
    let rest = id.split_once(':').map_or(id, |(_, r)| r);
    rest.rsplit('/').next().unwrap_or(rest)
}

fn push_unique(list: &mut Vec<String>, id: &str) {
    if !list.iter().any(|x| x == id) {
        list.push(id.to_owned());
    }
}

/// `shown` / `accept` / `reject`: history and counters as the original, with its quirks fixed.
pub fn feedback(
    ctx: &Ctx,
    store: &mut dyn DocumentStore,
    action: FeedbackAction,
    skill: &SkillRef,
) -> Result<Value> {
    let skill = clean_skill(skill)?;
    let (mut docs, clock) = open(ctx, store)?;
    // `shown` records what the agent showed; an answer must be about something shown.
    let (skill, resolved) = match action {
        FeedbackAction::Shown => (skill, "given"),
        FeedbackAction::Accept | FeedbackAction::Reject => {
            resolve_shown(&docs.history, &clock, skill)?
        }
    };
    let (index, refreshed) = apply_feedback(&mut docs, &clock, action, &skill);
    let id = skill.skill_id.as_str();
    let record =
        serde_json::to_value(&docs.history.recommendations[index]).expect("records serialize");
    let history_count = docs.history.recommendations.len();
    docs.save(store)?;
    Ok(json!({
        "action": action.as_str(),
        "skill_id": id,
        "changed": true,
        "refreshed": refreshed && action == FeedbackAction::Shown,
        "resolved_by": resolved,
        "record": record,
        "history_count": history_count,
    }))
}

/// Apply one piece of feedback to loaded documents: (index of the history record, whether a pending
/// `shown` record was refreshed). `skill` must have passed `clean_skill`.
pub(crate) fn apply_feedback(
    docs: &mut Documents,
    clock: &Clock,
    action: FeedbackAction,
    skill: &SkillRef,
) -> (usize, bool) {
    let now = clock.stamp();
    let id = skill.skill_id.as_str();
    let Documents { state, history, .. } = docs;

    // The latest record of this skill still waiting for an answer.
    let pending = history
        .recommendations
        .iter()
        .rposition(|r| r.skill_id == id && r.user_action == "shown");
    let refreshed = pending.is_some();
    let fill = |r: &mut HistoryRecord| {
        if let Some(n) = &skill.name {
            r.name = n.clone();
        }
        if let Some(u) = &skill.url {
            r.url = u.clone();
        }
        if !skill.categories.is_empty() {
            r.categories = skill.categories.clone();
        }
    };
    let mode_field = |mode: Option<crate::filter::Mode>| {
        let mut extra = serde_json::Map::new();
        if let Some(m) = mode {
            extra.insert("mode".into(), json!(m.as_str()));
        }
        extra
    };
    // An answer with no shown record is the user's own doing, never a daily push.
    let new_record = |user_action: &str, responded: bool| HistoryRecord {
        date: now.clone(),
        skill_id: id.to_owned(),
        name: skill.name.clone().unwrap_or_default(),
        url: skill.url.clone().unwrap_or_default(),
        categories: skill.categories.clone(),
        user_action: user_action.to_owned(),
        responded_at: responded.then(|| now.clone()),
        extra: mode_field(if responded {
            Some(skill.mode.unwrap_or(crate::filter::Mode::Manual))
        } else {
            skill.mode
        }),
    };
    let index = match (action, pending) {
        (FeedbackAction::Shown, Some(i)) => {
            let r = &mut history.recommendations[i];
            r.date = now.clone();
            fill(r);
            r.extra.extend(mode_field(skill.mode));
            i
        }
        (FeedbackAction::Shown, None) => {
            for c in &skill.categories {
                state
                    .accepted_categories
                    .entry(c.clone())
                    .or_insert_with(CategoryCounts::default)
                    .shown += 1;
            }
            history.recommendations.push(new_record("shown", false));
            history.recommendations.len() - 1
        }
        (FeedbackAction::Accept | FeedbackAction::Reject, pending) => {
            let (verb, user_action) = match action {
                FeedbackAction::Accept => ("accept", "accepted"),
                _ => ("reject", "rejected"),
            };
            state.last_actions.push(LastAction {
                skill_id: id.to_owned(),
                action: verb.to_owned(),
                date: now.clone(),
                extra: Default::default(),
            });
            let i = match pending {
                Some(i) => {
                    let r = &mut history.recommendations[i];
                    r.user_action = user_action.to_owned();
                    r.responded_at = Some(now.clone());
                    fill(r);
                    i
                }
                None => {
                    history.recommendations.push(new_record(user_action, true));
                    history.recommendations.len() - 1
                }
            };
            if action == FeedbackAction::Accept {
                push_unique(&mut state.installed_skill_ids, id);
                push_unique(&mut state.accepted_skill_ids, id);
                // **fix**: a later accept overrides an earlier reject.
                state.rejected_skill_ids.retain(|x| x != id);
                // **fix**: without --categories, count the categories of the shown record.
                let categories = history.recommendations[i].categories.clone();
                for c in categories {
                    let counts = state
                        .accepted_categories
                        .entry(c.to_lowercase())
                        .or_default();
                    counts.accepted += 1;
                    if pending.is_none() {
                        counts.shown += 1;
                    }
                }
            } else {
                push_unique(&mut state.rejected_skill_ids, id);
            }
            i
        }
    };
    (index, refreshed)
}
