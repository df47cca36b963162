//! One ranked entry as JSON text, written straight from the [`Ranked`] (no `Value` tree in between).
//!
//! The bytes are those `serde_json` prints for the tree the entry used to be built as: members in
//! sorted key order (a `Value` object is a sorted map), numbers as `f64` (non-finite ones as `null`,
//! as `json!` makes them), `neutral` only when it is not 0. `tests::entry_text_is_the_tree_text`
//! holds the two equal.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::scorer::Scored;
use super::{Candidate, Factor, Ranked, Risk, round};

/// A ranked entry, borrowing from the [`Ranked`]; its fields are in the JSON's (sorted) key order.
#[derive(Serialize)]
pub(super) struct Entry<'a> {
    breakdown: Breakdown<'a>,
    categories: &'a [String],
    exact_name_match: bool,
    name: &'a str,
    rank: usize,
    reasons: &'a [String],
    risk_level: &'a str,
    score: f64,
    skill_id: &'a str,
    source: &'a str,
    url: &'a str,
    work_family: bool,
}

impl<'a> Entry<'a> {
    pub(super) fn of(r: &'a Ranked, rank: usize) -> Entry<'a> {
        Entry::from_parts(
            &r.candidate,
            r.risk,
            &r.factors,
            &r.reasons,
            r.score,
            r.exact_name_match,
            r.work_family,
            rank,
        )
    }

    /// The entry of a candidate as [`Scorer::score`](super::scorer::Scorer::score) scored it.
    pub(super) fn new(c: &'a Candidate, risk: Risk, s: &'a Scored, rank: usize) -> Entry<'a> {
        Entry::from_parts(
            c,
            risk,
            &s.factors,
            &s.reasons,
            s.score,
            s.exact,
            s.work_family,
            rank,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn from_parts(
        c: &'a Candidate,
        risk: Risk,
        factors: &'a [Factor],
        reasons: &'a [String],
        score: f64,
        exact: bool,
        work_family: bool,
        rank: usize,
    ) -> Entry<'a> {
        Entry {
            breakdown: Breakdown(factors),
            categories: &c.categories,
            exact_name_match: exact,
            name: &c.name,
            rank,
            reasons,
            risk_level: risk.as_str(),
            score: round(score, 2),
            skill_id: &c.skill_id,
            source: &c.source,
            url: &c.url,
            work_family,
        }
    }
}

/// The factors as a map by key name, sorted; a key given twice keeps its last factor (as collecting
/// into a map did).
struct Breakdown<'a>(&'a [Factor]);

impl Serialize for Breakdown<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut keyed: Vec<(&str, &Factor)> = self.0.iter().map(|f| (f.key.as_str(), f)).collect();
        // Stable: equal keys keep their order, so the last of a run is the last given.
        keyed.sort_by(|a, b| a.0.cmp(b.0));
        let mut map = s.serialize_map(None)?;
        for (i, (key, f)) in keyed.iter().enumerate() {
            if keyed.get(i + 1).is_some_and(|next| next.0 == *key) {
                continue;
            }
            map.serialize_entry(key, &FactorEntry::of(f))?;
        }
        map.end()
    }
}

/// One factor of the breakdown, fields in key order.
#[derive(Serialize)]
struct FactorEntry<'a> {
    detail: &'a str,
    #[serde(skip_serializing_if = "is_zero")]
    neutral: f64,
    points: f64,
    value: f64,
    weight: f64,
}

impl<'a> FactorEntry<'a> {
    fn of(f: &'a Factor) -> FactorEntry<'a> {
        FactorEntry {
            detail: &f.detail,
            neutral: f.neutral,
            points: round(f.points(), 2),
            value: round(f.value, 3),
            weight: f.weight,
        }
    }
}

// `serde(skip_serializing_if)` passes a reference.
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// An `io::Write` that only counts: an entry's length without writing it.
#[derive(Default)]
pub(super) struct Count(pub usize);

impl std::io::Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
