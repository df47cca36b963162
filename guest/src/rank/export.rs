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
