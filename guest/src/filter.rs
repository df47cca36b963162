//! The candidate filter: the original's order and reason codes, with its quirks fixed.
//!
//! Order (each candidate is dropped by the first rule that applies):
//! 0. daily mode only: a daily push already recorded today → everything `daily_quota_exhausted`
//!    (manual recommendations never use up the day; a record without `mode` counts, as before);
//! 1. unparseable item → `invalid_candidate`;
//! 2. dedup by id, normalized name and canonical source URL → losers `duplicate` (with `duplicate_of`);
//! 3. `missing_required_fields`, `invalid_url`;
//! 4. `already_installed` (by id, normalized name or source URL);
//! 5. `recommended_recently` (newest history record of the skill within [`RECOMMEND_COOLDOWN_DAYS`]);
//! 6. `rejected_recently` (newest reject in `last_actions` within [`REJECT_COOLDOWN_DAYS`]);
//! 7. `platform_unsupported` (the skill declares platforms and the agent's is not one of them; see
//!    [`crate::fit`]); 8. `blacklist_category`; 9. `description_too_short`;
//!    10. `stale_and_low_popularity` (a *known* update date older than [`STALE_AFTER_DAYS`] with *known*
//!    low counts: unknown is neither stale nor unpopular — **fix**: the original read a missing date as
//!    9999 days old and missing counts as 0, so every candidate a web search produced was dropped).

use std::collections::{BTreeMap, BTreeSet};

use jiff::Timestamp;
use serde::Serialize;
use serde_json::{Value, json};

use crate::clock::{Clock, parse_stored};
use crate::fit::{Agent, AgentEnv};
use crate::model::{Candidate, trust_rank};
use crate::state::{History, State};

mod dedup;
mod keys;
use dedup::{Groups, KINDS, Members, key_hash, key_hashes, link_hashed};
#[cfg(test)]
use dedup::{KeyKind, link_equal};
use keys::id_slug;
pub use keys::{canonical_url, name_key};

/// A skill shown (or answered) this many days ago or less is not recommended again (whole days, floored).
pub const RECOMMEND_COOLDOWN_DAYS: i64 = 30;
/// A skill rejected this many days ago or less is not recommended again (the protocol's rule).
pub const REJECT_COOLDOWN_DAYS: i64 = 14;
/// Categories never recommended (compared case-insensitively).
pub const BLACKLIST_CATEGORIES: &[&str] = &["entertainment", "fortune", "astrology"];
/// Descriptions shorter than this many characters (after trimming; a CJK character counts one) are dropped.
pub const MIN_DESCRIPTION_CHARS: usize = 20;
/// A skill whose known update date is more than this many days old is stale…
pub const STALE_AFTER_DAYS: i64 = 180;
/// …and dropped when also its known downloads + stars are below this.
pub const MIN_POPULARITY_WHEN_STALE: u64 = 50;

/// Manual (the user asked) or daily (the automation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Manual,
    Daily,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Manual => "manual",
            Mode::Daily => "daily",
        }
    }
}

/// Why a candidate was dropped. The codes are the original's, plus `invalid_candidate` and `duplicate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    DailyQuotaExhausted,
    InvalidCandidate,
    Duplicate,
    MissingRequiredFields,
    InvalidUrl,
    AlreadyInstalled,
    RecommendedRecently,
    RejectedRecently,
    PlatformUnsupported,
    BlacklistCategory,
    DescriptionTooShort,
    StaleAndLowPopularity,
}

impl Reason {
    pub fn code(self) -> &'static str {
        match self {
            Reason::DailyQuotaExhausted => "daily_quota_exhausted",
            Reason::InvalidCandidate => "invalid_candidate",
            Reason::Duplicate => "duplicate",
            Reason::MissingRequiredFields => "missing_required_fields",
            Reason::InvalidUrl => "invalid_url",
            Reason::AlreadyInstalled => "already_installed",
            Reason::RecommendedRecently => "recommended_recently",
            Reason::RejectedRecently => "rejected_recently",
            Reason::PlatformUnsupported => "platform_unsupported",
            Reason::BlacklistCategory => "blacklist_category",
            Reason::DescriptionTooShort => "description_too_short",
            Reason::StaleAndLowPopularity => "stale_and_low_popularity",
        }
    }
}

/// A skill installed on this machine, as the host found it (or as recorded in the state).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InstalledSkill {
    /// The SKILL.md `name`.
    pub name: String,
    /// Where it is installed (for messages).
    pub dir: String,
    /// Which agent's skill directory, if known (e.g. `claude`, `hermes`).
    pub source: Option<String>,
    /// Its source repository, if the SKILL.md names one.
    pub source_url: Option<String>,
}

/// One dropped candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dropped {
    /// Position in the input.
    pub index: usize,
    pub skill_id: String,
    pub name: String,
    pub reason: Reason,
    /// A human-readable explanation (which record, how many days, which field).
    pub detail: String,
    /// For `duplicate`: the skill that was kept instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<String>,
    /// For `duplicate` and `already_installed`: `id`, `name` or `source_url`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_on: Option<&'static str>,
}

/// The filter's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub kept: Vec<Candidate>,
    pub dropped: Vec<Dropped>,
    /// The registry whose own response was read as the input, if it was not candidates.
    pub normalized_from: Option<crate::normalize::Registry>,
}

impl Outcome {
    /// The JSON the `filter` export returns.
    pub fn to_json(&self, mode: Mode, clock: &Clock) -> Value {
        serde_json::from_str(&self.to_json_text(mode, clock)).expect("the filter writes JSON")
    }

    /// [`Outcome::to_json`] as JSON text, written candidate by candidate (see [`crate::json`]).
    pub fn to_json_text(&self, mode: Mode, clock: &Clock) -> String {
        self.to_json_text_laid_out(mode, clock, &crate::json::Layout::default())
    }

    /// [`Outcome::to_json_text`] laid out as `layout` asks: pretty or compact, with the host's
    /// members added at the top level (replacing the result's own of the same name, a list too).
    pub fn to_json_text_laid_out(
        &self,
        mode: Mode,
        clock: &Clock,
        layout: &crate::json::Layout,
    ) -> String {
        let one = crate::json::Layout {
            piece: None,
            ..layout.clone()
        };
        self.laid_out(mode, clock, &one).finish()
    }

    /// [`Outcome::to_json_text_laid_out`] in the pieces `layout.piece` asks for (see
    /// [`crate::json::ObjectWriter::in_pieces`]), which together are that text.
    pub fn to_json_pieces_laid_out(
        &self,
        mode: Mode,
        clock: &Clock,
        layout: &crate::json::Layout,
    ) -> Vec<String> {
        self.laid_out(mode, clock, layout).finish_pieces()
    }

    fn laid_out(
        &self,
        mode: Mode,
        clock: &Clock,
        layout: &crate::json::Layout,
    ) -> crate::json::ObjectWriter {
        let mut by_reason: BTreeMap<&str, usize> = BTreeMap::new();
        for d in &self.dropped {
            *by_reason.entry(d.reason.code()).or_default() += 1;
        }
        let head = json!({
            "mode": mode.as_str(),
            "summary": {
                "input": self.kept.len() + self.dropped.len(),
                "kept": self.kept.len(),
                "dropped": self.dropped.len(),
                "by_reason": by_reason,
            },
            "local_date": clock.today().to_string(),
            "timezone": clock.zone_name,
            "normalized_from": self.normalized_from.map(|r| r.as_str()),
        });
        let mut head = head;
        let replaced = |key: &str| layout.extra.iter().any(|(k, _)| k == key);
        if let Value::Object(members) = &mut head {
            for (k, v) in &layout.extra {
                members.insert(k.clone(), v.clone());
            }
        }
        let mut out = crate::json::ObjectWriter::laid_out(head, layout.pretty);
        if let Some(size) = layout.piece {
            out = out.in_pieces(size);
        }
        if !replaced("dropped") {
            out.list("dropped", self.dropped.len(), |l| {
                for d in &self.dropped {
                    l.push(d);
                }
            });
        }
        if !replaced("kept") {
            out.list("kept", self.kept.len(), |l| {
                let depth = l.item_depth();
                for c in &self.kept {
                    l.push_with(|buf| c.write_json_at(buf, depth));
                }
            });
        }
        out
    }
}

fn is_http_url(url: &str) -> bool {
    let u = url.trim();
    let scheme = |p: &str| {
        u.get(..p.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(p))
            .then(|| &u[p.len()..])
    };
    let rest = scheme("https://").or_else(|| scheme("http://"));
    rest.is_some_and(|r| {
        !r.is_empty() && !r.starts_with('/') && !r.chars().any(char::is_whitespace)
    })
}

/// Required fields and URL scheme: the per-listing validity check.
fn validity(c: &Candidate) -> Option<(Reason, String)> {
    let filled = |v: &str| !v.trim().is_empty();
    if filled(&c.skill_id)
        && filled(&c.name)
        && filled(&c.description)
        && filled(&c.url)
        && is_http_url(&c.url)
    {
        return None;
    }
    let missing: Vec<&str> = crate::model::REQUIRED_FIELDS
        .into_iter()
        .zip([&c.skill_id, &c.name, &c.url, &c.description])
        .filter(|(_, v)| v.trim().is_empty())
        .map(|(k, _)| k)
        .collect();
    if !missing.is_empty() {
        return Some((
            Reason::MissingRequiredFields,
            format!("empty or missing: {}", missing.join(", ")),
        ));
    }
    if !is_http_url(&c.url) {
        return Some((
            Reason::InvalidUrl,
            format!("url {:?} is not an http(s) URL", c.url),
        ));
    }
    None
}

/// Whether a category is one of [`BLACKLIST_CATEGORIES`] (trimmed, any case).
fn blacklisted(category: &str) -> bool {
    let c = category.trim();
    if crate::is_ascii(c) {
        BLACKLIST_CATEGORIES
            .iter()
            .any(|b| b.eq_ignore_ascii_case(c))
    } else {
        BLACKLIST_CATEGORIES.contains(&c.to_lowercase().as_str())
    }
}

fn days_between(earlier: Timestamp, now: Timestamp) -> i64 {
    now.as_second()
        .saturating_sub(earlier.as_second())
        .div_euclid(86_400)
}

/// Identity of installed skills, for matching.
#[derive(Default)]
struct InstalledIndex {
    ids: BTreeMap<String, String>,
    names: BTreeMap<String, String>,
    urls: BTreeMap<String, String>,
}

impl InstalledIndex {
    fn new(state: &State, installed: &[InstalledSkill]) -> Self {
        let mut ix = InstalledIndex::default();
        for id in &state.installed_skill_ids {
            ix.ids.insert(id.trim().to_lowercase(), id.clone());
            let key = name_key(id_slug(id));
            if !key.is_empty() {
                ix.names.entry(key).or_insert_with(|| id.clone());
            }
        }
        // `_installed_skills_meta`: agent-written records, any of skill_id / name / url / source_code_url.
        if let Some(items) = state.installed_skills_meta.as_array() {
            for m in items {
                let label = ["skill_id", "name"]
                    .iter()
                    .find_map(|k| m.get(k).and_then(Value::as_str))
                    .unwrap_or("installed skill")
                    .to_owned();
                if let Some(id) = m.get("skill_id").and_then(Value::as_str) {
                    ix.ids.insert(id.trim().to_lowercase(), label.clone());
                }
                if let Some(n) = m.get("name").and_then(Value::as_str) {
                    ix.names.insert(name_key(n), label.clone());
                }
                for k in ["source_code_url", "url"] {
                    if let Some(u) = m
                        .get(k)
                        .and_then(Value::as_str)
                        .and_then(|u| canonical_url(u, None))
                    {
                        ix.urls.insert(u, label.clone());
                    }
                }
            }
        }
        for s in installed {
            let label = if s.dir.is_empty() {
                s.name.clone()
            } else {
                format!("{} ({})", s.name, s.dir)
            };
            let key = name_key(&s.name);
            if !key.is_empty() {
                ix.names.insert(key, label.clone());
            }
            if let Some(u) = s.source_url.as_deref().and_then(|u| canonical_url(u, None)) {
                ix.urls.insert(u, label);
            }
        }
        ix
    }

    fn matches(&self, c: &Candidate) -> Option<(&'static str, &str)> {
        if self.ids.is_empty() && self.names.is_empty() && self.urls.is_empty() {
            return None;
        }
        if let Some(l) = self.ids.get(&crate::lowercase(c.skill_id.trim())) {
            return Some(("id", l));
        }
        for key in [name_key(&c.name), name_key(id_slug(&c.skill_id))] {
            if let Some(l) = self.names.get(&key).filter(|_| !key.is_empty()) {
                return Some(("name", l));
            }
        }
        let url = c
            .source_code_url
            .as_deref()
            .and_then(|u| canonical_url(u, c.source_subpath.as_deref()))?;
        self.urls.get(&url).map(|l| ("source_url", l.as_str()))
    }
}

/// The `filter` export: parse the list, load state and history (read only), filter.
pub fn run(
    ctx: &crate::Ctx,
    store: &mut dyn crate::DocumentStore,
    mode: Mode,
    candidates: &str,
    installed: &[InstalledSkill],
) -> crate::Result<Value> {
    run_for(
        ctx,
        store,
        mode,
        candidates,
        installed,
        &AgentEnv::default(),
    )
}

/// [`run`] for an agent whose situation the host stated (its platform drops `platform_unsupported`).
pub fn run_for(
    ctx: &crate::Ctx,
    store: &mut dyn crate::DocumentStore,
    mode: Mode,
    candidates: &str,
    installed: &[InstalledSkill],
    agent: &AgentEnv,
) -> crate::Result<Value> {
    run_text(ctx, store, mode, candidates, installed, agent)
        .map(|t| serde_json::from_str(&t).expect("the filter writes JSON"))
}

/// [`run_for`] as JSON text (what the component returns).
pub fn run_text(
    ctx: &crate::Ctx,
    store: &mut dyn crate::DocumentStore,
    mode: Mode,
    candidates: &str,
    installed: &[InstalledSkill],
    agent: &AgentEnv,
) -> crate::Result<String> {
    let agent = Agent::resolve(agent)?;
    let input = crate::input::parse(candidates)?;
    let layout = crate::json::Layout::default();
    run_parsed(ctx, store, mode, input, installed, &agent, &layout)
        .map(|(_, mut t)| t.pop().expect("one piece"))
}

/// [`run_text`] on input the call owns: the text is freed once parsed, so the filter's own lists
/// and the result reuse its memory (in the component, memory once grown is never given back).
pub fn run_owned(
    ctx: &crate::Ctx,
    store: &mut dyn crate::DocumentStore,
    mode: Mode,
    candidates: String,
    installed: &[InstalledSkill],
    agent: &AgentEnv,
) -> crate::Result<String> {
    let layout = crate::json::Layout::default();
    run_owned_laid_out(ctx, store, mode, candidates, installed, agent, &layout)
        .map(|(_, mut t)| t.pop().expect("one piece"))
}

/// [`run_owned`] laid out as `layout` asks (`filter-text`): how many candidates were kept, and the
/// text's pieces in order (one, unless `layout.piece` asks for pieces).
pub fn run_owned_laid_out(
    ctx: &crate::Ctx,
    store: &mut dyn crate::DocumentStore,
    mode: Mode,
    candidates: String,
    installed: &[InstalledSkill],
    agent: &AgentEnv,
    layout: &crate::json::Layout,
) -> crate::Result<(usize, Vec<String>)> {
    let agent = Agent::resolve(agent)?;
    let input = crate::input::parse(&candidates)?;
    drop(candidates);
    run_parsed(ctx, store, mode, input, installed, &agent, layout)
}

fn run_parsed(
    ctx: &crate::Ctx,
    store: &mut dyn crate::DocumentStore,
    mode: Mode,
    input: crate::input::Input,
    installed: &[InstalledSkill],
    agent: &Agent,
    layout: &crate::json::Layout,
) -> crate::Result<(usize, Vec<String>)> {
    let (docs, clock) = crate::lifecycle::open(ctx, store)?;
    let mut outcome = filter_for(
        input.items,
        mode,
        &docs.state,
        &docs.history,
        installed,
        &clock,
        agent,
    );
    outcome.normalized_from = input.normalized_from;
    let text = outcome.laid_out(mode, &clock, layout).finish_pieces();
    let kept = outcome.kept.len();
    crate::discard(outcome);
    Ok((kept, text))
}

/// Run the filter for an agent whose situation is unknown (nothing is dropped for its platform).
/// `items` are the parsed input candidates (or why each could not be parsed).
pub fn filter(
    items: Vec<Result<Candidate, String>>,
    mode: Mode,
    state: &State,
    history: &History,
    installed: &[InstalledSkill],
    clock: &Clock,
) -> Outcome {
    filter_for(
        items,
        mode,
        state,
        history,
        installed,
        clock,
        &Agent::default(),
    )
}

/// Run the filter for `agent`: [`filter`] plus `platform_unsupported`.
pub fn filter_for(
    items: Vec<Result<Candidate, String>>,
    mode: Mode,
    state: &State,
    history: &History,
    installed: &[InstalledSkill],
    clock: &Clock,
    agent: &Agent,
) -> Outcome {
    let mut dropped: Vec<Dropped> = Vec::new();
    let drop = |index: usize, c: &Candidate, reason: Reason, detail: String| Dropped {
        index,
        skill_id: c.skill_id.clone(),
        name: c.name.clone(),
        reason,
        detail,
        duplicate_of: None,
        matched_on: None,
    };

    // 0. Daily quota, in the user's zone.
    if mode == Mode::Daily {
        let today = clock.today();
        if let Some(r) = crate::lifecycle::daily_push_on(history, clock, today) {
            let detail = format!(
                "{} was already pushed today ({today}, {})",
                r.skill_id, clock.zone_name
            );
            for (i, item) in items.iter().enumerate() {
                let c = item.as_ref().cloned().unwrap_or_default();
                dropped.push(drop(i, &c, Reason::DailyQuotaExhausted, detail.clone()));
            }
            return Outcome {
                kept: Vec::new(),
                dropped,
                normalized_from: None,
            };
        }
    }

    // 1. Parse failures. The candidates stay where they are (a `Candidate` is ~800 bytes: moving
    //    100,000 of them into another list costs more than the rest of this step); `at[j]` is where
    //    the j-th parsed candidate sits in `items`.
    let mut at: Vec<usize> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item {
            Ok(_) => at.push(i),
            Err(message) => dropped.push(Dropped {
                index: i,
                skill_id: String::new(),
                name: String::new(),
                reason: Reason::InvalidCandidate,
                detail: message.clone(),
                duplicate_of: None,
                matched_on: None,
            }),
        }
    }
    let view: &[Result<Candidate, String>] = &items;
    let cand = |j: usize| -> &Candidate {
        view[at[j]]
            .as_ref()
            .expect("`at` lists parsed candidates only")
    };

    // 2. Dedup: group by any shared id, name or source URL; the group keeps its most trusted valid
    //    listing (valid before invalid, then trust, then first seen).
    let n = at.len();
    let mut groups = Groups((0..n).collect());
    // Candidates sharing an id, a name or a source URL key are one group.
    let hashes = key_hashes(&KINDS, n, cand, &mut String::new(), key_hash);
    for kind in KINDS {
        link_hashed(kind, &hashes, cand, &mut groups);
    }
    std::mem::drop(hashes);
    let members = Members::new(&mut groups);
    let mut winner_of = vec![usize::MAX; n];
    for list in members.groups() {
        let best = match list {
            [only] => *only,
            _ => *list
                .iter()
                .min_by_key(|&&j| {
                    let c = cand(j);
                    (
                        validity(c).is_some(),
                        std::cmp::Reverse(trust_rank(&c.source)),
                        j,
                    )
                })
                .expect("groups are never empty"),
        };
        for &j in list {
            winner_of[j] = best;
        }
    }
    let matched_on = |a: &Candidate, b: &Candidate| -> &'static str {
        if a.skill_id.trim().eq_ignore_ascii_case(b.skill_id.trim())
            && !a.skill_id.trim().is_empty()
            && a.owner == b.owner
        {
            "id"
        } else if !name_key(&a.name).is_empty() && name_key(&a.name) == name_key(&b.name) {
            "name"
        } else {
            "source_url"
        }
    };

    let installed_ix = InstalledIndex::new(state, installed);
    // Newest history record and newest reject per lower-cased id.
    let mut last_shown: BTreeMap<String, (Timestamp, &str)> = BTreeMap::new();
    for r in &history.recommendations {
        if let Some(ts) = parse_stored(&r.date) {
            let e = last_shown
                .entry(r.skill_id.trim().to_lowercase())
                .or_insert((ts, &r.user_action));
            if ts > e.0 {
                *e = (ts, &r.user_action);
            }
        }
    }
    let mut last_reject: BTreeMap<String, Timestamp> = BTreeMap::new();
    for a in state.last_actions.iter().filter(|a| a.action == "reject") {
        if let Some(ts) = parse_stored(&a.date) {
            let e = last_reject
                .entry(a.skill_id.trim().to_lowercase())
                .or_insert(ts);
            *e = (*e).max(ts);
        }
    }

    let mut kept_idx: Vec<usize> = Vec::new();
    for j in 0..n {
        let (index, c) = (&at[j], cand(j));
        let w = winner_of[j];
        if w != j {
            let winner = cand(w);
            dropped.push(Dropped {
                duplicate_of: Some(winner.skill_id.clone()),
                matched_on: Some(matched_on(c, winner)),
                ..drop(
                    *index,
                    c,
                    Reason::Duplicate,
                    format!(
                        "same skill as {} ({} is trusted more or listed first)",
                        winner.skill_id, winner.source
                    ),
                )
            });
            continue;
        }
        // The group's ids, for history lookups (a skill shown under another registry's id is still shown).
        let group_ids: BTreeSet<String> = if last_shown.is_empty() && last_reject.is_empty() {
            BTreeSet::new()
        } else {
            members
                .of(j)
                .iter()
                .map(|&m| cand(m).skill_id.trim().to_lowercase())
                .collect()
        };
        if let Some((reason, detail)) = validity(c) {
            dropped.push(drop(*index, c, reason, detail));
            continue;
        }
        if let Some((on, what)) = installed_ix.matches(c) {
            dropped.push(Dropped {
                matched_on: Some(on),
                ..drop(
                    *index,
                    c,
                    Reason::AlreadyInstalled,
                    format!("already installed as {what} (matched on {on})"),
                )
            });
            continue;
        }
        let newest = group_ids
            .iter()
            .filter_map(|id| last_shown.get(id))
            .max_by_key(|(ts, _)| *ts);
        if let Some((ts, action)) = newest {
            let days = days_between(*ts, clock.now);
            if days < RECOMMEND_COOLDOWN_DAYS {
                let detail = format!(
                    "last {action} {days} day(s) ago ({}); cooldown {RECOMMEND_COOLDOWN_DAYS} days",
                    crate::clock::stamp(*ts)
                );
                dropped.push(drop(*index, c, Reason::RecommendedRecently, detail));
                continue;
            }
        }
        let rejected = group_ids.iter().filter_map(|id| last_reject.get(id)).max();
        if let Some(ts) = rejected {
            let days = days_between(*ts, clock.now);
            if days < REJECT_COOLDOWN_DAYS {
                let detail =
                    format!("rejected {days} day(s) ago; cooldown {REJECT_COOLDOWN_DAYS} days");
                dropped.push(drop(*index, c, Reason::RejectedRecently, detail));
                continue;
            }
        }
        if let Some(detail) = crate::fit::platform_mismatch(c, agent) {
            dropped.push(drop(*index, c, Reason::PlatformUnsupported, detail));
            continue;
        }
        if let Some(cat) = c.categories.iter().find(|cat| blacklisted(cat)) {
            dropped.push(drop(
                *index,
                c,
                Reason::BlacklistCategory,
                format!("category {cat:?} is never recommended"),
            ));
            continue;
        }
        let chars = c.description.trim().chars().count();
        if chars < MIN_DESCRIPTION_CHARS {
            let detail = format!(
                "description has {chars} characters; at least {MIN_DESCRIPTION_CHARS} needed"
            );
            dropped.push(drop(*index, c, Reason::DescriptionTooShort, detail));
            continue;
        }
        // Only what is known counts: a search result without a date or counts is kept (and the card
        // says what was not given), never taken for an abandoned, unused skill.
        let age = c
            .updated_at
            .as_deref()
            .and_then(parse_stored)
            .map(|ts| days_between(ts, clock.now));
        let popularity = (!c.popularity.unknown).then(|| c.popularity.total());
        if let (Some(days), Some(total)) = (age, popularity)
            && days > STALE_AFTER_DAYS
            && total < MIN_POPULARITY_WHEN_STALE
        {
            let detail = format!(
                "updated {days} days ago and downloads + stars = {total} (< {MIN_POPULARITY_WHEN_STALE})"
            );
            dropped.push(drop(*index, c, Reason::StaleAndLowPopularity, detail));
            continue;
        }
        kept_idx.push(j);
    }

    // The winner counts every listing of its group. The kept candidates move out of `items` in
    // place (collecting from its own iterator reuses the list's memory): no second list of
    // ~800-byte candidates.
    let mut group_size = vec![0u64; items.len()];
    for j in kept_idx {
        group_size[at[j]] = members.of(j).len() as u64;
    }
    let kept = items
        .into_iter()
        .enumerate()
        .filter_map(|(i, item)| {
            let size = group_size[i];
            let mut c = item.ok().filter(|_| size > 0)?;
            if size > 1 {
                c.cross_source_count = c.cross_source_count.max(1) + size - 1;
            }
            Some(c)
        })
        .collect();
    dropped.sort_by_key(|d| d.index);
    Outcome {
        kept,
        dropped,
        normalized_from: None,
    }
}

#[cfg(test)]
mod tests;
