//! Ranking: deterministic, explainable scores with the protocol's factors and weights.
//!
//! Every factor is a value in [0, 1] times its weight (weights sum to 100). Each value comes from a
//! documented formula over the candidate's own data, the state and history, the task and the signals;
//! nothing is guessed. Ties are broken by complement fit, credibility, source trust and finally the
//! `skill_id`, so the order never depends on the order of the input.

pub mod adjust;
pub mod lexicon;
pub mod relevance;
pub mod text;

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use jiff::Timestamp;
use serde_json::{Value, json};

use crate::Lang;
use crate::clock::{Clock, parse_stored};
use crate::filter::{InstalledSkill, Mode, name_key};
use crate::model::{Candidate, trust_rank};
use crate::scan::candidate::{Risk, RiskFinding, assess};
use crate::state::{History, State};
use lexicon::lexicon;
use relevance::{Match, Query, display_terms, match_doc};
use text::{Doc, Field, Index, Vocab, analyze, distinct};

/// A factor of the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FactorKey {
    Task,
    Gap,
    Scenario,
    Productivity,
    Credibility,
    Trend,
    Complement,
    WouldTry,
    DailyLife,
    Freshness,
    /// Adjustment: can this agent run it ([`adjust`]).
    Fit,
    /// Adjustment: a skill or a bare prompt ([`adjust`]).
    Quality,
}

impl FactorKey {
    pub fn as_str(self) -> &'static str {
        match self {
            FactorKey::Task => "task",
            FactorKey::Gap => "capability_gap",
            FactorKey::Scenario => "scenario",
            FactorKey::Productivity => "productivity",
            FactorKey::Credibility => "credibility",
            FactorKey::Trend => "trend",
            FactorKey::Complement => "complement",
            FactorKey::WouldTry => "would_try",
            FactorKey::DailyLife => "daily_life",
            FactorKey::Freshness => "freshness_diversity",
            FactorKey::Fit => "fit",
            FactorKey::Quality => "quality",
        }
    }
}

/// The protocol's manual weights (sum 100).
pub const MANUAL_WEIGHTS: [(FactorKey, f64); 7] = [
    (FactorKey::Task, 30.0),
    (FactorKey::Gap, 20.0),
    (FactorKey::Scenario, 15.0),
    (FactorKey::Productivity, 15.0),
    (FactorKey::Credibility, 10.0),
    (FactorKey::Trend, 5.0),
    (FactorKey::Complement, 5.0),
];

/// The protocol's daily weights (sum 100).
pub const DAILY_WEIGHTS: [(FactorKey, f64); 7] = [
    (FactorKey::WouldTry, 25.0),
    (FactorKey::Trend, 20.0),
    (FactorKey::DailyLife, 15.0),
    (FactorKey::Gap, 15.0),
    (FactorKey::Productivity, 10.0),
    (FactorKey::Credibility, 10.0),
    (FactorKey::Freshness, 5.0),
];

/// Popularity at which the popularity part of `trend` saturates (downloads + 5 × stars). Downloads can
/// be inflated, so beyond this nothing more is gained.
pub const POPULARITY_CAP: f64 = 50_000.0;
/// How far back history counts as "shown recently" for diversity damping.
pub const RECENT_CATEGORY_DAYS: i64 = 14;
/// A category shown this often and never accepted counts as fatigued.
pub const FATIGUE_SHOWN: u64 = 3;

/// The daily theme, rotating practical → hot → fun.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Practical,
    Hot,
    Fun,
}

impl Theme {
    pub const ORDER: [Theme; 3] = [Theme::Practical, Theme::Hot, Theme::Fun];

    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Practical => "practical_boost",
            Theme::Hot => "hot_discovery",
            Theme::Fun => "fun_try_out",
        }
    }

    pub fn parse(text: &str) -> Option<Theme> {
        Theme::ORDER.into_iter().find(|t| t.as_str() == text.trim())
    }

    pub fn label(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Theme::Practical, Lang::Zh) => "实用增强",
            (Theme::Hot, Lang::Zh) => "热门发现",
            (Theme::Fun, Lang::Zh) => "有趣尝鲜",
            (Theme::Practical, Lang::En) => "practical boost",
            (Theme::Hot, Lang::En) => "hot discovery",
            (Theme::Fun, Lang::En) => "fun try-out",
        }
    }

    fn next(self) -> Theme {
        match self {
            Theme::Practical => Theme::Hot,
            Theme::Hot => Theme::Fun,
            Theme::Fun => Theme::Practical,
        }
    }
}

/// Today's theme: the one after `daily_rotation.last_theme` (the same one when it already ran today);
/// without a usable rotation record, by the day number so that it still rotates.
pub fn theme_for_today(state: &State, clock: &Clock) -> Theme {
    let rotation = &state.daily_rotation;
    let last = rotation
        .get("last_theme")
        .and_then(Value::as_str)
        .and_then(Theme::parse);
    let last_day = rotation
        .get("last_run_at")
        .and_then(Value::as_str)
        .and_then(parse_stored)
        .map(|ts| clock.local_date_of(ts));
    let today = clock.today();
    match (last, last_day) {
        (Some(t), Some(d)) if d == today => t,
        (Some(t), _) => t.next(),
        _ => {
            let days = today
                .since(jiff::civil::date(1970, 1, 1))
                .map(|s| s.get_days() as i64)
                .unwrap_or(0);
            Theme::ORDER[days.rem_euclid(3) as usize]
        }
    }
}

/// What a ranking is asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    pub task: Option<String>,
    pub signals: Vec<String>,
    /// The agent's situation as the host stated it (unknown by default: no adjustment applies).
    pub agent: crate::fit::AgentEnv,
}

/// One factor's contribution.
#[derive(Debug, Clone, PartialEq)]
pub struct Factor {
    pub key: FactorKey,
    pub weight: f64,
    /// In [0, 1].
    pub value: f64,
    /// The value that earns no points: 0 for the protocol's factors; an adjustment's unknown value
    /// ([`adjust`]), so that it only moves candidates it knows something about.
    pub neutral: f64,
    /// Why, in the user's language (empty when there is nothing to say).
    pub detail: String,
}

impl Factor {
    pub fn points(&self) -> f64 {
        self.weight * (self.value - self.neutral)
    }
}

/// A ranked candidate.
#[derive(Debug, Clone)]
pub struct Ranked {
    pub candidate: Candidate,
    pub risk: Risk,
    pub findings: Vec<RiskFinding>,
    pub score: f64,
    pub factors: Vec<Factor>,
    pub reasons: Vec<String>,
    pub exact_name_match: bool,
    /// Task relevance in [0, 1] (0 without a task), the `task` factor's value (see [`relevance`]).
    pub relevance: f64,
    /// The absolute match strength with the task, in [0, 1] (see [`relevance::Match::strength`]):
    /// what the pick's cut-off reads.
    pub coverage: f64,
    /// With a task: the match has the request's goal action on its object
    /// ([`relevance::Match::core`]), so the pick's cut-off is lower.
    pub core_match: bool,
    /// With a task: how far below the best candidate's relevance this one's is, in steps of
    /// [`relevance::BAND`] (0 = the top band); the order puts bands before the score.
    pub band: u32,
    /// Whether the candidate belongs to the dev/ops/docs/efficiency family.
    pub work_family: bool,
    /// Tie-breakers after the score: complement value, credibility value, source trust.
    pub tie: (f64, f64, u8),
    /// Fit and quality, as the adjustments saw them.
    pub assessed: adjust::Assessed,
}

impl Ranked {
    pub fn factor(&self, key: FactorKey) -> Option<&Factor> {
        self.factors.iter().find(|f| f.key == key)
    }

    pub fn to_json(&self, rank: usize) -> Value {
        let breakdown: serde_json::Map<String, Value> = self
            .factors
            .iter()
            .map(|f| {
                let mut entry = json!({"weight": f.weight, "value": round(f.value, 3), "points": round(f.points(), 2), "detail": f.detail});
                if f.neutral != 0.0 {
                    entry["neutral"] = json!(f.neutral);
                }
                (f.key.as_str().to_owned(), entry)
            })
            .collect();
        json!({
            "rank": rank,
            "skill_id": self.candidate.skill_id,
            "name": self.candidate.name,
            "source": self.candidate.source,
            "url": self.candidate.url,
            "categories": self.candidate.categories,
            "score": round(self.score, 2),
            "exact_name_match": self.exact_name_match,
            "risk_level": self.risk.as_str(),
            "work_family": self.work_family,
            "breakdown": breakdown,
            "reasons": self.reasons,
        })
    }
}

fn round(x: f64, places: i32) -> f64 {
    let f = libm::pow(10.0, places as f64);
    libm::round(x * f) / f
}

/// What the user already has and has seen, computed once per ranking.
struct Profile {
    /// Concepts and lower-cased categories covered by installed or accepted skills.
    covered: BTreeSet<String>,
    /// Category → times shown in the last [`RECENT_CATEGORY_DAYS`] days.
    recent: BTreeMap<String, u32>,
    /// Categories shown [`FATIGUE_SHOWN`]+ times and never accepted.
    fatigued: BTreeSet<String>,
    /// Analyzed scenario signals (state's `scenario_memory.signals` and the request's).
    signals: Vec<(String, Vec<String>)>,
    /// Complement pairs reachable from what is covered.
    complements: BTreeSet<String>,
}

static COMPLEMENT_PAIRS: &str = include_str!("../../../data/complement_pairs.json");

fn complement_pairs() -> BTreeMap<String, Vec<String>> {
    let v: Value = serde_json::from_str(COMPLEMENT_PAIRS).expect("complement_pairs.json is JSON");
    v.as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| !k.starts_with('_'))
        .map(|(k, list)| {
            let items = list
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_lowercase)
                .collect();
            (k.to_lowercase(), items)
        })
        .collect()
}

/// Text of one scenario signal: a string, or the string fields of an object.
fn signal_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Value::Object(m) => {
            let parts: Vec<String> = [
                "signal", "text", "topic", "summary", "scenario", "name", "category",
            ]
            .iter()
            .filter_map(|k| m.get(*k))
            .filter_map(signal_text)
            .collect();
            (!parts.is_empty()).then(|| parts.join(" "))
        }
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().filter_map(signal_text).collect();
            (!parts.is_empty()).then(|| parts.join(" "))
        }
        _ => None,
    }
}

/// The names of the lexicon concepts a text mentions.
fn concepts_of(text: &str) -> BTreeSet<String> {
    let lex = lexicon();
    lex.concepts_in(text)
        .into_iter()
        .map(|c| lex.concepts[c].name.clone())
        .collect()
}

/// The lexicon families of a candidate's categories.
fn category_families(categories: &[String]) -> BTreeSet<String> {
    let lex = lexicon();
    categories
        .iter()
        .filter_map(|c| lex.families_of_category(c))
        .flatten()
        .cloned()
        .collect()
}

/// The lexicon families of the concepts a text mentions.
fn text_families(text: &str) -> BTreeSet<String> {
    let lex = lexicon();
    lex.concepts_in(text)
        .into_iter()
        .flat_map(|c| lex.families_of_concept(c).iter().cloned())
        .collect()
}

/// Work (dev/ops/docs/efficiency) family: by the categories' families when any category is known,
/// else by the text's: in `work` and not in the daily-life family.
fn is_work(category_families: &BTreeSet<String>, text_families: &BTreeSet<String>) -> bool {
    let fams = if category_families.is_empty() {
        text_families
    } else {
        category_families
    };
    fams.contains("work") && !fams.contains("life")
}

/// What the lexicon says about one candidate, worked out once per ranking.
struct Traits {
    /// Lower-cased categories plus the concepts they name.
    topics: BTreeSet<String>,
    category_families: BTreeSet<String>,
    /// Families of the concepts in the name and description.
    text_families: BTreeSet<String>,
}

impl Traits {
    #[cfg(test)]
    fn of(c: &Candidate) -> Traits {
        let mut topics: BTreeSet<String> = c
            .categories
            .iter()
            .map(|x| x.trim().to_lowercase())
            .filter(|x| !x.is_empty())
            .collect();
        for cat in &c.categories {
            topics.extend(concepts_of(&cat.replace('-', " ")));
        }
        Traits {
            topics,
            category_families: category_families(&c.categories),
            text_families: text_families(&format!("{} {}", c.name, c.description)),
        }
    }

    /// [`Traits::of`] from the candidate's analyzed document (its concepts are already found).
    fn of_doc(c: &Candidate, doc: &Doc) -> Traits {
        let lex = lexicon();
        let mut topics: BTreeSet<String> = c
            .categories
            .iter()
            .map(|x| x.trim().to_lowercase())
            .filter(|x| !x.is_empty())
            .collect();
        let mut text_families = BTreeSet::new();
        for o in &doc.occurrences {
            let concept = &lex.concepts[o.concept as usize];
            if o.field == Field::Categories as u8 {
                topics.insert(concept.name.clone());
            } else if o.field != Field::AgentNotes as u8 {
                text_families.extend(concept.families.iter().cloned());
            }
        }
        Traits {
            topics,
            category_families: category_families(&c.categories),
            text_families,
        }
    }

    /// Whether the candidate belongs to a family (`fun`, `life`, `practical`, `work`), by its
    /// categories or the concepts of its name and description.
    fn in_family(&self, family: &str) -> bool {
        self.category_families.contains(family) || self.text_families.contains(family)
    }

    fn work_family(&self) -> bool {
        is_work(&self.category_families, &self.text_families)
    }
}

impl Profile {
    fn new(
        state: &State,
        history: &History,
        installed: &[InstalledSkill],
        request: &Request,
        clock: &Clock,
    ) -> Profile {
        let mut covered = BTreeSet::new();
        for s in installed {
            covered.extend(concepts_of(&s.name.replace(['-', '_'], " ")));
        }
        for (cat, counts) in &state.accepted_categories {
            if counts.accepted > 0 {
                covered.insert(cat.to_lowercase());
                covered.extend(concepts_of(&cat.replace('-', " ")));
            }
        }
        let owned: BTreeSet<String> = state
            .installed_skill_ids
            .iter()
            .chain(&state.accepted_skill_ids)
            .map(|s| s.to_lowercase())
            .collect();
        let mut recent: BTreeMap<String, u32> = BTreeMap::new();
        let horizon = clock.now.as_second() - RECENT_CATEGORY_DAYS * 86_400;
        for r in &history.recommendations {
            if owned.contains(&r.skill_id.to_lowercase()) || r.user_action == "accepted" {
                for c in &r.categories {
                    covered.insert(c.to_lowercase());
                    covered.extend(concepts_of(&c.replace('-', " ")));
                }
            }
            if parse_stored(&r.date).is_some_and(|ts| ts.as_second() >= horizon) {
                for c in &r.categories {
                    *recent.entry(c.to_lowercase()).or_default() += 1;
                }
            }
        }
        let fatigued = state
            .accepted_categories
            .iter()
            .filter(|(_, n)| n.shown >= FATIGUE_SHOWN && n.accepted == 0)
            .map(|(c, _)| c.to_lowercase())
            .collect();
        let mut signals = Vec::new();
        if let Some(list) = state.scenario_memory.get("signals") {
            for s in list.as_array().into_iter().flatten() {
                if let Some(t) = signal_text(s) {
                    let toks = analyze(&t);
                    signals.push((t, toks));
                }
            }
        }
        for s in &request.signals {
            if !s.trim().is_empty() {
                signals.push((s.trim().to_owned(), analyze(s)));
            }
        }
        let pairs = complement_pairs();
        let complements = covered
            .iter()
            .filter_map(|c| pairs.get(c))
            .flatten()
            .cloned()
            .collect();
        Profile {
            covered,
            recent,
            fatigued,
            signals,
            complements,
        }
    }
}

/// Work (dev/ops/docs/efficiency) family: any category in it and none in the daily-life family;
/// without categories, by the concepts of the name and description.
pub fn is_work_family(categories: &[String], fallback_text: &str) -> bool {
    is_work(
        &category_families(categories),
        &text_families(fallback_text),
    )
}

fn days_since_update(c: &Candidate, clock: &Clock) -> Option<i64> {
    let ts: Timestamp = parse_stored(c.updated_at.as_deref()?)?;
    Some(
        (clock.now.as_second() - ts.as_second())
            .div_euclid(86_400)
            .max(0),
    )
}

fn trend_obj_u64(c: &Candidate, key: &str) -> u64 {
    c.trend
        .as_ref()
        .and_then(|t| t.get(key))
        .and_then(|v| crate::model::count_of(v).ok())
        .unwrap_or(0)
}

/// Join a list for a sentence.
fn join(items: &[String], lang: Lang) -> String {
    items.join(if lang == Lang::Zh { "、" } else { ", " })
}

struct Ctx<'a> {
    lang: Lang,
    clock: &'a Clock,
    profile: &'a Profile,
    theme: Option<Theme>,
    vocab: &'a Vocab,
    /// The profile's signals as token ids (distinct).
    signals: &'a [(String, Vec<u32>)],
    /// The analyzed task.
    query: Option<&'a Query>,
}

fn trend_value(c: &Candidate, cx: &Ctx<'_>) -> (f64, String) {
    let lang = cx.lang;
    let pop = (c.popularity.downloads as f64) + 5.0 * (c.popularity.stars as f64);
    let p = (libm::log(1.0 + pop) / libm::log(1.0 + POPULARITY_CAP)).min(1.0);
    let sources = c
        .cross_source_count
        .max(trend_obj_u64(c, "source_count"))
        .max(1);
    let cross = ((sources - 1) as f64 / 2.0).min(1.0);
    let mentions = (trend_obj_u64(c, "recent_mentions") as f64 / 10.0).min(1.0);
    let updated_flag = c
        .trend
        .as_ref()
        .and_then(|t| t.get("updated_recently"))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let days = days_since_update(c, cx.clock);
    let recency = match days {
        Some(d) if d <= 30 => 1.0,
        Some(d) if d <= 90 => 0.6,
        Some(d) if d <= 180 => 0.3,
        _ if updated_flag => 0.6,
        _ => 0.0,
    };
    let value = 0.4 * p + 0.2 * cross + 0.15 * mentions + 0.25 * recency;
    let mut parts = Vec::new();
    let (d, s) = (c.popularity.downloads, c.popularity.stars);
    if d > 0 {
        parts.push(match lang {
            Lang::Zh => format!("{d} 次下载"),
            Lang::En => format!("{d} downloads"),
        });
    }
    if s > 0 {
        parts.push(match lang {
            Lang::Zh => format!("{s} 星"),
            Lang::En => format!("{s} stars"),
        });
    }
    if sources > 1 {
        parts.push(match lang {
            Lang::Zh => format!("在 {sources} 个来源出现"),
            Lang::En => format!("listed on {sources} sources"),
        });
    }
    if let Some(d) = days.filter(|&d| d <= 90) {
        parts.push(match lang {
            Lang::Zh => format!("{d} 天前更新"),
            Lang::En => format!("updated {d} days ago"),
        });
    }
    (value, join(&parts, lang))
}

fn credibility_value(c: &Candidate, risk: Risk, lang: Lang) -> (f64, String) {
    let risk_v = match risk {
        Risk::Low => 1.0,
        Risk::Medium => 0.3,
        Risk::High => 0.0,
    };
    let present: Vec<String> = [
        (
            c.source_code_url
                .as_deref()
                .is_some_and(|u| !u.trim().is_empty()),
            "源码公开",
            "public source",
        ),
        (c.has_install_docs, "有安装说明", "install docs"),
        (
            c.has_security_disclosure,
            "有安全说明",
            "a security disclosure",
        ),
    ]
    .iter()
    .filter(|x| x.0)
    .map(|x| if lang == Lang::Zh { x.1 } else { x.2 }.to_owned())
    .collect();
    let trust = trust_rank(&c.source.trim().to_ascii_lowercase()) as f64 / 5.0;
    let value = 0.4 * risk_v + 0.3 * (present.len() as f64 / 3.0) + 0.3 * trust;
    let label = crate::render::source_label(&c.source);
    let detail = match (lang, present.is_empty()) {
        (Lang::Zh, false) => format!("来自 {label}，{}", join(&present, lang)),
        (Lang::Zh, true) => format!("来自 {label}"),
        (Lang::En, false) => format!("from {label}, with {}", join(&present, lang)),
        (Lang::En, true) => format!("from {label}"),
    };
    (value, detail)
}

fn productivity_value(c: &Candidate, lang: Lang) -> (f64, String) {
    let complexity = c
        .complexity
        .as_deref()
        .map(|s| s.trim().to_ascii_lowercase());
    let cx = match complexity.as_deref() {
        Some("lightweight") => 1.0,
        Some("framework") => 0.6,
        Some("platform") => 0.3,
        _ => 0.6,
    };
    let tools = match c.required_toolsets.len() {
        0 | 1 => 1.0,
        2 => 0.7,
        _ => 0.4,
    };
    let docs = if c.has_install_docs { 1.0 } else { 0.0 };
    let value = 0.4 * cx + 0.3 * tools + 0.3 * docs;
    let mut parts = Vec::new();
    if let Some(k) = complexity.as_deref().filter(|k| !k.is_empty()) {
        parts.push(match (k, lang) {
            ("lightweight", Lang::Zh) => "轻量，装上就能用".to_owned(),
            ("lightweight", Lang::En) => "lightweight, works right after install".to_owned(),
            (_, Lang::Zh) => format!("复杂度 {k}"),
            (_, Lang::En) => format!("{k} complexity"),
        });
    }
    if c.has_install_docs {
        parts.push(match lang {
            Lang::Zh => "有安装说明".to_owned(),
            Lang::En => "documented install steps".to_owned(),
        });
    }
    (
        value,
        parts.join(if lang == Lang::Zh { "，" } else { ", " }),
    )
}

/// What a ranking reads besides the candidates.
#[derive(Debug, Clone, Copy)]
pub struct Env<'a> {
    pub state: &'a State,
    pub history: &'a History,
    pub installed: &'a [InstalledSkill],
    pub clock: &'a Clock,
    pub lang: Lang,
}

/// Rank `cands` (already filtered; order does not matter).
pub fn rank(cands: Vec<Candidate>, mode: Mode, request: &Request, env: &Env<'_>) -> Ranking {
    let assessed = cands
        .into_iter()
        .map(|c| {
            let (risk, findings) = assess(&c);
            (c, risk, findings)
        })
        .collect();
    rank_assessed(assessed, mode, request, env)
}

/// [`rank`] for candidates whose risk is already assessed (`recommend` scans before it ranks).
pub fn rank_assessed(
    cands: Vec<(Candidate, Risk, Vec<RiskFinding>)>,
    mode: Mode,
    request: &Request,
    env: &Env<'_>,
) -> Ranking {
    // The exports refuse an unknown platform before they rank; here it counts as unknown.
    let agent = crate::fit::Agent::resolve(&request.agent).unwrap_or_default();
    rank_for(cands, mode, request, env, &agent)
}

/// [`rank_assessed`] for an agent already resolved, with the commands the host looked up.
pub fn rank_for(
    cands: Vec<(Candidate, Risk, Vec<RiskFinding>)>,
    mode: Mode,
    request: &Request,
    env: &Env<'_>,
    agent: &crate::fit::Agent,
) -> Ranking {
    let Env {
        state,
        history,
        installed,
        clock,
        lang,
    } = *env;
    let profile = Profile::new(state, history, installed, request, clock);
    let theme = (mode == Mode::Daily).then(|| theme_for_today(state, clock));
    let mut vocab = Vocab::default();
    let docs: Vec<Doc> = cands
        .iter()
        .map(|(c, _, _)| {
            let notes = format!(
                "{} {}",
                c.pain_point.as_deref().unwrap_or(""),
                c.highlights.join(" ")
            );
            let (lead, body) = crate::render::first_sentence(&c.description);
            Doc::new(
                &mut vocab,
                &[
                    (Field::Name, &c.name.replace(['-', '_', '/'], " ")),
                    (
                        Field::Name,
                        &id_slug(&c.skill_id).replace(['-', '_', '/'], " "),
                    ),
                    (
                        Field::Categories,
                        &c.categories.join(", ").replace('-', " "),
                    ),
                    (Field::Lead, lead),
                    (Field::Body, body),
                    (Field::AgentNotes, &notes),
                ],
            )
        })
        .collect();
    let task = request
        .task
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty());
    let query = task.map(|t| {
        let corrected = relevance::correct_typos(&vocab, t);
        let a = vocab.analyze_text(&corrected);
        Query::new(&mut vocab, &a)
    });
    let signals: Vec<(String, Vec<u32>)> = profile
        .signals
        .iter()
        .map(|(text, toks)| {
            let ids: Vec<u32> = toks.iter().map(|t| vocab.intern(t)).collect();
            (text.clone(), distinct(&ids))
        })
        .collect();
    let index = Index::new(&docs, &vocab);
    let (matches, bm25): (Vec<Match>, Vec<(f64, Vec<u32>)>) = match &query {
        Some(q) => (0..cands.len())
            .map(|i| (match_doc(q, &docs[i]), index.score(i, &q.tokens)))
            .unzip(),
        None => (Vec::new(), Vec::new()),
    };
    let best = bm25.iter().map(|(s, _)| *s).fold(0.0, f64::max);
    let cx = Ctx {
        lang,
        clock,
        profile: &profile,
        theme,
        vocab: &vocab,
        signals: &signals,
        query: query.as_ref(),
    };
    let task_key = task.map(name_key).filter(|k| !k.is_empty());
    let no_match = Match::default();

    let mut ranked: Vec<Ranked> = cands
        .into_iter()
        .enumerate()
        .map(|(i, (c, risk, findings))| {
            let exact = task_key
                .as_ref()
                .is_some_and(|k| *k == name_key(&c.name) || *k == name_key(id_slug(&c.skill_id)));
            let m = matches.get(i).unwrap_or(&no_match);
            let strength = if exact { 1.0 } else { m.strength };
            let relevance = if exact {
                1.0
            } else {
                relevance::relevance(
                    m.strength * m.order_weight,
                    relevance::lexical_score(m, bm25.get(i).map_or(0.0, |b| b.0), best),
                    best,
                )
            };
            let traits = Traits::of_doc(&c, &docs[i]);
            let work_family = traits.work_family();
            let mut factors = factors(
                &c, &traits, risk, mode, task, relevance, exact, m, &docs[i], &cx,
            );
            let assessed = adjust::Assessed::of(&c, agent);
            factors.extend(adjust::factors(&assessed, lang));
            let score = factors.iter().map(Factor::points).sum();
            let reasons = reasons(&factors, risk, lang);
            let value = |k| factors.iter().find(|f| f.key == k).map_or(0.0, |f| f.value);
            let tie = (
                value(FactorKey::Complement),
                value(FactorKey::Credibility),
                trust_rank(&c.source),
            );
            Ranked {
                candidate: c,
                risk,
                findings,
                score,
                factors,
                reasons,
                exact_name_match: exact,
                relevance,
                coverage: strength,
                core_match: exact || m.core,
                band: 0,
                work_family,
                tie,
                assessed,
            }
        })
        .collect();
    if mode == Mode::Manual && query.is_some() {
        let best_relevance = ranked.iter().map(|r| r.relevance).fold(0.0, f64::max);
        for r in &mut ranked {
            r.band = relevance::band(r.relevance, best_relevance);
        }
    }
    ranked.sort_by(compare);
    Ranking {
        mode,
        theme,
        task: task.map(str::to_owned),
        ranked,
    }
}

/// Best first: exact name match, relevance band (with a task), score, then complement,
/// credibility, trust, id.
fn compare(a: &Ranked, b: &Ranked) -> Ordering {
    b.exact_name_match
        .cmp(&a.exact_name_match)
        .then(a.band.cmp(&b.band))
        .then(b.score.total_cmp(&a.score))
        .then(b.tie.0.total_cmp(&a.tie.0))
        .then(b.tie.1.total_cmp(&a.tie.1))
        .then(b.tie.2.cmp(&a.tie.2))
        // The string keys only break ties (`then_with`: not compared at all when the score decides).
        .then_with(|| a.candidate.skill_id.cmp(&b.candidate.skill_id))
        .then_with(|| a.candidate.name.cmp(&b.candidate.name))
        .then_with(|| a.candidate.url.cmp(&b.candidate.url))
}

/// The slug of an id (`clawhub:pdf-tools` → `pdf-tools`, `github:o/r` → `r`).
pub fn id_slug(id: &str) -> &str {
    let after = id.split_once(':').map(|(_, r)| r).unwrap_or(id);
    after.rsplit('/').next().unwrap_or(after)
}

#[allow(clippy::too_many_arguments)]
fn factors(
    c: &Candidate,
    traits: &Traits,
    risk: Risk,
    mode: Mode,
    task: Option<&str>,
    relevance: f64,
    exact: bool,
    m: &Match,
    doc: &Doc,
    cx: &Ctx<'_>,
) -> Vec<Factor> {
    let lang = cx.lang;
    let p = cx.profile;
    let topics = &traits.topics;
    // Capability gap: the share of the candidate's topics nobody installed covers.
    let (gap, gap_detail) = if topics.is_empty() {
        (0.5, String::new())
    } else {
        let new: Vec<String> = c
            .categories
            .iter()
            .map(|x| x.trim().to_lowercase())
            .filter(|x| !x.is_empty() && !p.covered.contains(x))
            .collect();
        let uncovered = topics.iter().filter(|t| !p.covered.contains(*t)).count();
        let v = uncovered as f64 / topics.len() as f64;
        let d = if new.is_empty() {
            String::new()
        } else {
            match lang {
                Lang::Zh => format!("补上你还没有的能力：{}", join(&new, lang)),
                Lang::En => format!("adds what you don't have yet: {}", join(&new, lang)),
            }
        };
        (v, d)
    };
    let (trend, trend_detail) = trend_value(c, cx);
    let (cred, cred_detail) = credibility_value(c, risk, lang);
    let (prod, prod_detail) = productivity_value(c, lang);
    // Complement: fits beside what the user already has (complement_pairs.json).
    let comp_hits: Vec<String> = topics
        .iter()
        .filter(|t| p.complements.contains(*t) && !p.covered.contains(*t))
        .cloned()
        .collect();
    let comp = if comp_hits.is_empty() { 0.0 } else { 1.0 };
    let comp_detail = if comp_hits.is_empty() {
        String::new()
    } else {
        match lang {
            Lang::Zh => format!("和你已有的技能互补：{}", join(&comp_hits, lang)),
            Lang::En => format!("complements your skills: {}", join(&comp_hits, lang)),
        }
    };
    // Scenario: the best coverage of any signal by the candidate's text.
    let mut scen = 0.0;
    let mut scen_detail = String::new();
    for (text, ids) in cx.signals {
        // The share of the signal's concepts the candidate has (its words when it names no concept).
        let concepts: Vec<u32> = ids
            .iter()
            .copied()
            .filter(|&t| cx.vocab.is_concept(t))
            .collect();
        let wanted = if concepts.is_empty() { ids } else { &concepts };
        if wanted.is_empty() {
            continue;
        }
        let have = wanted.iter().filter(|&&t| doc.has(t)).count();
        let v = have as f64 / wanted.len() as f64;
        if v > scen {
            scen = v;
            scen_detail = match lang {
                Lang::Zh => format!("符合你的场景：{text}"),
                Lang::En => format!("fits your scenario: {text}"),
            };
        }
    }
    let f = |key, weight, value: f64, detail: String| Factor {
        key,
        weight,
        value: value.clamp(0.0, 1.0),
        neutral: 0.0,
        detail,
    };
    match mode {
        Mode::Manual => {
            let task_detail = match (task, cx.query) {
                (Some(_), Some(q)) => task_detail(q, m, exact, relevance, lang),
                _ => String::new(),
            };
            MANUAL_WEIGHTS
                .iter()
                .map(|&(key, w)| match key {
                    FactorKey::Task => f(key, w, relevance, task_detail.clone()),
                    FactorKey::Gap => f(key, w, gap, gap_detail.clone()),
                    FactorKey::Scenario => f(key, w, scen, scen_detail.clone()),
                    FactorKey::Productivity => f(key, w, prod, prod_detail.clone()),
                    FactorKey::Credibility => f(key, w, cred, cred_detail.clone()),
                    FactorKey::Trend => f(key, w, trend, trend_detail.clone()),
                    _ => f(key, w, comp, comp_detail.clone()),
                })
                .collect()
        }
        Mode::Daily => {
            let theme = cx.theme.unwrap_or(Theme::Practical);
            // Would want to try: fits today's theme, and is easy to pick up.
            let fit = match theme {
                Theme::Practical => {
                    if traits.in_family("practical") {
                        1.0
                    } else {
                        0.3
                    }
                }
                Theme::Hot => trend,
                Theme::Fun => {
                    if traits.in_family("fun") {
                        1.0
                    } else {
                        0.2
                    }
                }
            };
            let approachable = if c.complexity.as_deref().map(str::trim) == Some("lightweight")
                || c.pain_point.is_some()
                || c.required_toolsets.len() <= 1
            {
                1.0
            } else {
                0.5
            };
            let would_try = 0.7 * fit + 0.3 * approachable;
            let try_detail = if fit >= 0.6 {
                match lang {
                    Lang::Zh => format!("契合今天的主题：{}", theme.label(lang)),
                    Lang::En => format!("fits today's theme: {}", theme.label(lang)),
                }
            } else {
                String::new()
            };
            let life = traits.in_family("life");
            let life_detail = if life {
                match lang {
                    Lang::Zh => "生活化、内容向的场景".to_owned(),
                    Lang::En => "a daily-life or content scenario".to_owned(),
                }
            } else {
                String::new()
            };
            // Freshness / diversity: categories not shown lately, not fatigued; recently updated.
            let cats: Vec<String> = c
                .categories
                .iter()
                .map(|x| x.trim().to_lowercase())
                .collect();
            let repeats: Vec<String> = cats
                .iter()
                .filter(|x| p.recent.contains_key(*x) || p.fatigued.contains(*x))
                .cloned()
                .collect();
            let diversity = if cats.is_empty() {
                0.5
            } else {
                1.0 - repeats.len() as f64 / cats.len() as f64
            };
            let recency = match days_since_update(c, cx.clock) {
                Some(d) if d <= 30 => 1.0,
                Some(d) if d <= 90 => 0.5,
                _ => 0.0,
            };
            let fresh = 0.6 * diversity + 0.4 * recency;
            let fresh_detail = if repeats.is_empty() {
                String::new()
            } else {
                match lang {
                    Lang::Zh => format!("最近推荐过同类：{}", join(&repeats, lang)),
                    Lang::En => {
                        format!("similar categories shown lately: {}", join(&repeats, lang))
                    }
                }
            };
            DAILY_WEIGHTS
                .iter()
                .map(|&(key, w)| match key {
                    FactorKey::WouldTry => f(key, w, would_try, try_detail.clone()),
                    FactorKey::Trend => f(key, w, trend, trend_detail.clone()),
                    FactorKey::DailyLife => {
                        f(key, w, if life { 1.0 } else { 0.0 }, life_detail.clone())
                    }
                    FactorKey::Gap => f(key, w, gap, gap_detail.clone()),
                    FactorKey::Productivity => f(key, w, prod, prod_detail.clone()),
                    FactorKey::Credibility => f(key, w, cred, cred_detail.clone()),
                    _ => f(key, w, fresh, fresh_detail.clone()),
                })
                .collect()
        }
    }
}

/// The `task` factor's detail: what matched (as the user wrote it), and why a match counts less
/// (wrong object, a catch-all listing).
fn task_detail(q: &Query, m: &Match, exact: bool, relevance: f64, lang: Lang) -> String {
    if exact {
        return match lang {
            Lang::Zh => "名称与请求完全一致".to_owned(),
            Lang::En => "its name is exactly what you asked for".to_owned(),
        };
    }
    if relevance <= 0.0 || m.matched.is_empty() {
        return match lang {
            Lang::Zh => "和当前任务不相关".to_owned(),
            Lang::En => "unrelated to the task".to_owned(),
        };
    }
    let shown = join(&display_terms(q, &m.matched), lang);
    let mut out = match lang {
        Lang::Zh => format!("和你的任务相关（匹配：{shown}）"),
        Lang::En => format!("matches your task ({shown})"),
    };
    if m.object_miss {
        let objects: Vec<String> = q
            .units
            .iter()
            .filter(|u| {
                matches!(u.kind, relevance::UnitKind::Concept { concept, .. } if q.objects.contains(&concept))
            })
            .map(|u| u.surface.clone())
            .collect();
        let objects = join(&objects, lang);
        out.push_str(&match lang {
            Lang::Zh => format!("，但处理的不是你要的对象（{objects}）"),
            Lang::En => format!(", but not for what you named ({objects})"),
        });
    }
    if m.reversed {
        out.push_str(match lang {
            Lang::Zh => "，但转换方向相反",
            Lang::En => ", but it converts the other way round",
        });
    }
    if m.name_action_miss {
        out.push_str(match lang {
            Lang::Zh => "；它名字里说的是另一件事",
            Lang::En => "; its name says it does something else",
        });
    }
    if m.other_language {
        let english = m.doc_script == Some(relevance::Script::Latin);
        out.push_str(match (lang, english) {
            (Lang::Zh, true) => "；只有英文描述",
            (Lang::Zh, false) => "；只有中文描述",
            (Lang::En, true) => "; described only in English",
            (Lang::En, false) => "; described only in Chinese",
        });
    }
    if m.target_only {
        out.push_str(match lang {
            Lang::Zh => "；它只是把别的东西转换成这种文件",
            Lang::En => "; it only makes this kind of file out of something else",
        });
    }
    if m.catch_all {
        out.push_str(match lang {
            Lang::Zh => "；自称什么都能做，说法打折",
            Lang::En => "; it says it does everything, so its claims count less",
        });
    }
    if m.breadth_weight < 1.0 && !m.catch_all {
        let pct = round(100.0 * m.breadth_weight, 0);
        out.push_str(&match lang {
            Lang::Zh => format!("；它声称能做 {} 类事，每项说法只算 {pct}%", m.breadth),
            Lang::En => format!(
                "; it claims {} different jobs, so each claim counts {pct}%",
                m.breadth
            ),
        });
    }
    out
}

/// The readable reasons: the details of the factors that earned the most points, best first, plus the
/// risk when it is not low.
fn reasons(factors: &[Factor], risk: Risk, lang: Lang) -> Vec<String> {
    // The task and the user's scenario lead whenever they matched at all; the rest by points.
    // An adjustment that raised the score ([`adjust`]: a strong skill) leads with them.
    let personal = |f: &&Factor| {
        matches!(f.key, FactorKey::Task | FactorKey::Scenario)
            || (f.neutral != 0.0 && f.points() > 0.0)
    };
    let task = factors
        .iter()
        .filter(|f| personal(f) && f.value > 0.0 && !f.detail.is_empty());
    let mut by_points: Vec<&Factor> = factors
        .iter()
        .filter(|f| !personal(f) && !f.detail.is_empty() && f.value >= 0.5)
        .filter(|f| f.neutral == 0.0)
        .collect();
    by_points.sort_by(|a, b| {
        b.points()
            .total_cmp(&a.points())
            .then_with(|| a.key.cmp(&b.key))
    });
    let mut out: Vec<String> = task
        .into_iter()
        .chain(by_points)
        .take(4)
        .map(|f| f.detail.clone())
        .collect();
    // A task mismatch is worth saying even though it earned nothing.
    if let Some(t) = factors
        .iter()
        .find(|f| f.key == FactorKey::Task && f.value == 0.0 && !f.detail.is_empty())
    {
        out.push(t.detail.clone());
    }
    // What lowered it: what this agent lacks, a bare prompt.
    out.extend(
        factors
            .iter()
            .filter(|f| f.points() < 0.0 && !f.detail.is_empty())
            .map(|f| f.detail.clone()),
    );
    if risk != Risk::Low {
        out.push(match lang {
            Lang::Zh => "中等风险：安装前请看安全说明".to_owned(),
            Lang::En => "medium risk: read the safety notes before installing".to_owned(),
        });
    }
    out
}

/// A ranking's result.
#[derive(Debug, Clone)]
pub struct Ranking {
    pub mode: Mode,
    pub theme: Option<Theme>,
    pub task: Option<String>,
    pub ranked: Vec<Ranked>,
}

impl Ranking {
    pub fn weights(&self) -> Value {
        let table: &[(FactorKey, f64)] = match self.mode {
            Mode::Manual => &MANUAL_WEIGHTS,
            Mode::Daily => &DAILY_WEIGHTS,
        };
        Value::Object(
            table
                .iter()
                .map(|(k, w)| (k.as_str().to_owned(), json!(w)))
                .collect(),
        )
    }

    pub fn to_json(&self, skipped: Vec<Value>) -> Value {
        serde_json::from_str(&self.to_json_text(skipped)).expect("the ranking writes JSON")
    }

    /// [`Ranking::to_json`] as JSON text, written entry by entry (see [`crate::json`]).
    pub fn to_json_text(&self, skipped: Vec<Value>) -> String {
        self.clone().into_json_text(skipped)
    }

    /// [`Ranking::to_json_text`], freeing each entry once it is written: the ranking and its JSON
    /// never both exist in full.
    pub fn into_json_text(self, skipped: Vec<Value>) -> String {
        let count = self.ranked.len();
        let weights = self.weights();
        let mut ranked = crate::json::ListWriter::for_items(count);
        for (i, r) in self.ranked.into_iter().enumerate() {
            ranked.push(&r.to_json(i + 1));
        }
        let head = json!({
            "mode": self.mode.as_str(),
            "task": self.task,
            "theme": self.theme.map(Theme::as_str),
            "weights": weights,
            "adjustments": adjust::table(),
            "skipped": skipped,
            "summary": {"input": count + skipped.len(), "ranked": count, "skipped": skipped.len()},
        });
        crate::json::object(head, vec![("ranked", ranked)])
    }
}

/// The `rank` export: parse, load state and history (read only), rank. Unparseable items are listed
/// under `skipped` with why.
pub fn run(
    ctx: &crate::Ctx,
    store: &mut dyn crate::DocumentStore,
    mode: Mode,
    candidates: &str,
    installed: &[InstalledSkill],
    request: &Request,
) -> crate::Result<Value> {
    run_text(ctx, store, mode, candidates, installed, request)
        .map(|t| serde_json::from_str(&t).expect("the ranking writes JSON"))
}

/// [`run`] as JSON text (what the component returns).
pub fn run_text(
    ctx: &crate::Ctx,
    store: &mut dyn crate::DocumentStore,
    mode: Mode,
    candidates: &str,
    installed: &[InstalledSkill],
    request: &Request,
) -> crate::Result<String> {
    let mut probe = crate::fit::NoProbe;
    run_text_with(ctx, store, &mut probe, mode, candidates, installed, request)
}

/// [`run_text`] with a host that looks up the commands candidates declare (`fit`).
pub fn run_text_with(
    ctx: &crate::Ctx,
    store: &mut dyn crate::DocumentStore,
    probe: &mut dyn crate::fit::CommandProbe,
    mode: Mode,
    candidates: &str,
    installed: &[InstalledSkill],
    request: &Request,
) -> crate::Result<String> {
    let mut agent = crate::fit::Agent::resolve(&request.agent)?;
    let items = crate::model::parse_candidates(candidates)?;
    let (docs, clock) = crate::lifecycle::open(ctx, store)?;
    let mut cands = Vec::new();
    let mut skipped = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        match item {
            Ok(c) => cands.push(c),
            Err(message) => skipped
                .push(json!({"index": index, "reason": "invalid_candidate", "detail": message})),
        }
    }
    agent.look_up_commands(probe, &cands);
    let assessed = cands
        .into_iter()
        .map(|c| {
            let (risk, findings) = assess(&c);
            (c, risk, findings)
        })
        .collect();
    let ranking = rank_for(
        assessed,
        mode,
        request,
        &Env {
            state: &docs.state,
            history: &docs.history,
            installed,
            clock: &clock,
            lang: ctx.lang,
        },
        &agent,
    );
    Ok(ranking.into_json_text(skipped))
}

#[cfg(test)]
mod tests;
