//! Ranking: deterministic, explainable scores with the protocol's factors and weights.
//!
//! Every factor is a value in [0, 1] times its weight (weights sum to 100). Each value comes from a
//! documented formula over the candidate's own data, the state and history, the task and the signals;
//! nothing is guessed. Ties are broken by complement fit, credibility, source trust and finally the
//! `skill_id`, so the order never depends on the order of the input.

pub mod adjust;
pub mod lexicon;
pub mod phrasing;
pub mod relevance;
pub mod senses;
pub mod text;

mod entry;
mod export;
mod factors;
mod scorer;
mod staged;

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::Lang;
use crate::clock::{Clock, parse_stored};
use crate::filter::{InstalledSkill, Mode, name_key};
use crate::model::{Candidate, trust_rank};
use crate::scan::candidate::{Risk, RiskFinding, assess};
use crate::state::{History, State};
use lexicon::lexicon;
use relevance::{Match, Query, match_doc};
use text::{Doc, Field, Index, Vocab, analyze, distinct};

pub use export::{Ranking, run, run_owned_with, run_text, run_text_with};
use factors::{factors, reasons};
pub use scorer::Preview;
use scorer::Scorer;
pub use staged::Staged;

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
    /// With a task: the match rests on one word of the request ([`relevance::Match::single`]), so
    /// the pick needs more strength.
    pub single_match: bool,
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
    /// The task's lexical share of relevance ([`relevance::lexical_share`]).
    lexical_share: f64,
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
    let scorer = Scorer::new(
        cands.iter().map(|(c, _, _)| c),
        mode,
        request,
        env,
        agent,
        false,
    );
    let mut ranked: Vec<Ranked> = cands
        .into_iter()
        .enumerate()
        .map(|(i, (c, risk, findings))| ranked_of(&scorer, i, c, risk, findings))
        .collect();
    if let Some(best) = scorer.best_relevance(ranked.iter().map(|r| r.relevance)) {
        for r in &mut ranked {
            r.band = relevance::band(r.relevance, best);
        }
    }
    ranked.sort_by(compare);
    Ranking {
        mode,
        theme: scorer.theme,
        task: scorer.task.clone(),
        ranked,
    }
}

/// Candidate `i` of `scorer` scored, in band 0 (the caller sets the band once the best relevance
/// is known).
fn ranked_of(
    scorer: &Scorer<'_>,
    i: usize,
    c: Candidate,
    risk: Risk,
    findings: Vec<RiskFinding>,
) -> Ranked {
    let s = scorer.score(i, &c, risk);
    Ranked {
        candidate: c,
        risk,
        findings,
        score: s.score,
        factors: s.factors,
        reasons: s.reasons,
        exact_name_match: s.exact,
        relevance: s.relevance,
        coverage: s.strength,
        core_match: s.core,
        single_match: s.single,
        band: 0,
        work_family: s.work_family,
        tie: s.tie,
        assessed: s.assessed,
    }
}

/// Best first: exact name match, relevance band (with a task), score, then complement,
/// credibility, trust, id.
fn compare(a: &Ranked, b: &Ranked) -> Ordering {
    scorer::Order::of(a).cmp(&scorer::Order::of(b))
}

/// The slug of an id (`clawhub:pdf-tools` → `pdf-tools`, `github:o/r` → `r`).
pub fn id_slug(id: &str) -> &str {
    let after = id.split_once(':').map(|(_, r)| r).unwrap_or(id);
    after.rsplit('/').next().unwrap_or(after)
}

#[cfg(test)]
mod tests;
