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

    /// [`Ranking::to_json_text`], consuming the ranking.
    ///
    /// Memory, not time, is what limits this at scale (the component's linear memory is capped and
    /// never shrinks): 100,000 entries are ~120 MB of text. So each entry is first measured (written
    /// to a counter), the whole result's buffer is reserved once at its final size, and then the
    /// entries are written into it straight from the [`Ranked`] values: no `Value` tree per entry, and
    /// no buffer that doubles (a doubling copy needs 1.5× the text while both halves exist).
    pub fn into_json_text(self, skipped: Vec<Value>) -> String {
        let count = self.ranked.len();
        let weights = self.weights();
        let head = json!({
            "mode": self.mode.as_str(),
            "task": self.task,
            "theme": self.theme.map(Theme::as_str),
            "weights": weights,
            "adjustments": adjust::table(),
            "skipped": skipped,
            "summary": {"input": count + skipped.len(), "ranked": count, "skipped": skipped.len()},
        });
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
