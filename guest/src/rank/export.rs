//! A ranking's result and its JSON (weights, adjustments, skipped items, entries written one by
//! one), and the `rank` export that parses the input, loads state and history and ranks. Separate
//! from [`super`] because this is the I/O-facing edge; the scoring itself needs none of it.

use serde_json::{Value, json};

use super::*;
use crate::filter::{InstalledSkill, Mode};
use crate::scan::candidate::assess;

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
        weights(self.mode)
    }

    pub fn to_json(&self, skipped: Vec<Value>) -> Value {
        serde_json::from_str(&self.to_json_text(skipped)).expect("the ranking writes JSON")
    }

    /// [`Ranking::to_json`] as JSON text, written entry by entry (see [`crate::json`]).
    pub fn to_json_text(&self, skipped: Vec<Value>) -> String {
        self.clone().into_json_text(skipped)
    }

    /// [`Ranking::to_json_text`], consuming the ranking.
    ///
    /// Memory, not time, is what limits this at scale (the component's linear memory is capped and
    /// never shrinks): 100,000 entries are ~120 MB of text. So each entry is first measured (written
    /// to a counter), the whole result's buffer is reserved once at its final size, and then the
    /// entries are written into it straight from the [`Ranked`] values: no `Value` tree per entry, and
    /// no buffer that doubles (a doubling copy needs 1.5× the text while both halves exist).
    pub fn into_json_text(self, skipped: Vec<Value>) -> String {
        let count = self.ranked.len();
        let head = head(self.mode, self.task.as_deref(), self.theme, skipped, count);
        let mut measure = entry::Count::default();
        for (i, r) in self.ranked.iter().enumerate() {
            serde_json::to_writer(&mut measure, &entry::Entry::of(r, i + 1))
                .expect("entries always serialize");
        }
        // `[`, `]`, the commas; the head's own text bounds what `object` writes around the list
        // (its members, their keys and the braces), plus the list's key.
        let head_len = serde_json::to_string(&head).map_or(0, |t| t.len());
        let capacity = measure.0 + count + 2 + head_len + "\"ranked\":,".len();
        let mut ranked = crate::json::ListWriter::with_capacity(capacity);
        for (i, r) in self.ranked.iter().enumerate() {
            ranked.push(&entry::Entry::of(r, i + 1));
        }
        drop(self.ranked);
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
    let agent = crate::fit::Agent::resolve(&request.agent)?;
    let items = crate::model::parse_candidates(candidates)?;
    rank_items(ctx, store, probe, mode, items, installed, request, agent)
}

/// [`run_text_with`] taking the candidates text by value: it is freed once parsed, before the ranking
/// needs the room (the component receives its argument as an owned string; at 100,000 candidates the
/// text is 44 MB of a capped memory).
pub fn run_owned_with(
    ctx: &crate::Ctx,
    store: &mut dyn crate::DocumentStore,
    probe: &mut dyn crate::fit::CommandProbe,
    mode: Mode,
    candidates: String,
    installed: &[InstalledSkill],
    request: &Request,
) -> crate::Result<String> {
    let agent = crate::fit::Agent::resolve(&request.agent)?;
    let items = crate::model::parse_candidates(&candidates)?;
    drop(candidates);
    rank_items(ctx, store, probe, mode, items, installed, request, agent)
}

#[allow(clippy::too_many_arguments)]
fn rank_items(
    ctx: &crate::Ctx,
    store: &mut dyn crate::DocumentStore,
    probe: &mut dyn crate::fit::CommandProbe,
    mode: Mode,
    items: Vec<std::result::Result<Candidate, String>>,
    installed: &[InstalledSkill],
    request: &Request,
    mut agent: crate::fit::Agent,
) -> crate::Result<String> {
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
    let env = Env {
        state: &docs.state,
        history: &docs.history,
        installed,
        clock: &clock,
        lang: ctx.lang,
    };
    Ok(write_ranking(&cands, mode, request, &env, &agent, skipped))
}

/// Where one candidate lands, and how long its entry is (written with rank 0).
struct Key {
    index: usize,
    risk: Risk,
    exact: bool,
    relevance: f64,
    band: u32,
    score: f64,
    tie: (f64, f64, u8),
    len: usize,
}

/// The `rank` export's JSON for `cands`: the text [`rank_for`] + [`Ranking::into_json_text`] make,
/// with a fraction of the memory.
///
/// Memory is what limits `rank` at scale: the component's linear memory is capped and only grows,
/// and 100,000 candidates' factors, reasons and explanations took more than the candidates
/// themselves, before the ~120 MB of text was even written. So each candidate is scored twice:
/// first for its sort key and its entry's length (the factors are dropped at once), then, in rank
/// order, again to write its entry into the result's buffer, reserved once at its final size.
/// Scoring is a pure function of the candidate and what [`Scorer::new`] worked out, so both passes
/// agree; `tests::the_export_writes_what_the_ranking_prints` holds the text equal.
pub(super) fn write_ranking(
    cands: &[Candidate],
    mode: Mode,
    request: &Request,
    env: &Env<'_>,
    agent: &crate::fit::Agent,
    skipped: Vec<Value>,
) -> String {
    // The risk level only: the findings are not part of a ranking's JSON.
    let risks: Vec<Risk> = cands.iter().map(|c| assess(c).0).collect();
    let scorer = Scorer::new(cands.iter(), mode, request, env, agent, false);
    let mut measure = entry::Count::default();
    let mut keys: Vec<Key> = cands
        .iter()
        .zip(&risks)
        .enumerate()
        .map(|(index, (c, &risk))| {
            let s = scorer.score(index, c, risk);
            let before = measure.0;
            serde_json::to_writer(&mut measure, &entry::Entry::new(c, risk, &s, 0))
                .expect("entries always serialize");
            Key {
                index,
                risk,
                exact: s.exact,
                relevance: s.relevance,
                band: 0,
                score: s.score,
                tie: s.tie,
                len: measure.0 - before,
            }
        })
        .collect();
    drop(risks);
    if let Some(best) = scorer.best_relevance(keys.iter().map(|k| k.relevance)) {
        for k in &mut keys {
            k.band = relevance::band(k.relevance, best);
        }
    }
    let order = |k: &Key| scorer::Order {
        exact: k.exact,
        band: k.band,
        score: k.score,
        tie: k.tie,
        candidate: &cands[k.index],
    };
    keys.sort_by(|a, b| order(a).cmp(&order(b)));
    let count = keys.len();
    let head = head(mode, scorer.task.as_deref(), scorer.theme, skipped, count);
    // Each entry's rank replaces the `0` it was measured with; then `[`, `]`, the commas, and the
    // head's own text, which bounds what `object` writes around the list, plus the list's key.
    let entries: usize = keys
        .iter()
        .enumerate()
        .map(|(i, k)| k.len - 1 + digits(i + 1))
        .sum();
    let head_len = serde_json::to_string(&head).map_or(0, |t| t.len());
    let capacity = entries + count + 2 + head_len + "\"ranked\":,".len();
    let mut ranked = crate::json::ListWriter::with_capacity(capacity);
    for (i, k) in keys.iter().enumerate() {
        let c = &cands[k.index];
        let s = scorer.score(k.index, c, k.risk);
        ranked.push(&entry::Entry::new(c, k.risk, &s, i + 1));
    }
    crate::json::object(head, vec![("ranked", ranked)])
}

fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// The members of a ranking's JSON besides `ranked`.
fn head(
    mode: Mode,
    task: Option<&str>,
    theme: Option<Theme>,
    skipped: Vec<Value>,
    count: usize,
) -> Value {
    json!({
        "mode": mode.as_str(),
        "task": task,
        "theme": theme.map(Theme::as_str),
        "weights": weights(mode),
        "adjustments": adjust::table(),
        "summary": {"input": count + skipped.len(), "ranked": count, "skipped": skipped.len()},
        "skipped": skipped,
    })
}

/// The weights table of `mode`.
fn weights(mode: Mode) -> Value {
    let table: &[(FactorKey, f64)] = match mode {
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
