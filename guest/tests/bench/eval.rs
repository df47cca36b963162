//! The ranking benchmark (issue 20): every task of `tests/fixtures/ranking/tasks.json` goes through the
//! real `recommend` (filter → scan → rank → pick, manual mode, dry run) over the listings of
//! `listings.json`, and is scored on the pick (P@1, traps, silence) and on the ranked list (NDCG@3).
//! A plain BM25 over words and CJK character bigrams runs on the same usable listings as a baseline.
//!
//! Shared by the regression test (`tests/ranking_benchmark.rs`) and the report
//! (`cargo run -p guest --release --example rank_eval`). `RANK_BENCH_DIR` points both at another
//! directory holding a `listings.json` and a `tasks.json` of the same format.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use guest::filter::Mode;
use guest::recommend::{Options, run};
use guest::{Ctx, Lang, MemoryStore};
use serde_json::Value;

/// The benchmark's "now": its listings were written against 2026-12-01.
pub const NOW: &str = "2026-12-01T02:00:00Z";

/// One graded request.
#[derive(Debug, Clone)]
pub struct Task {
    pub id: String,
    pub lang: String,
    pub text: String,
    pub grades: BTreeMap<String, u8>,
    pub traps: BTreeSet<String>,
    pub class: String,
    /// An explicit split (`"dev"` or `"held-out"`); without one, the id rule of [`Bench::is_dev`].
    pub split: Option<String>,
    /// A later batch the task belongs to (`"heldout-2"`), reported as its own slice.
    pub batch: Option<String>,
}

/// The benchmark's files.
#[derive(Clone)]
pub struct Bench {
    pub listings: String,
    pub ids: Vec<String>,
    pub tasks: Vec<Task>,
    /// Requests nothing in the listings does: the pick must stay silent.
    pub no_match: Vec<(String, String)>,
    /// Per task (in `tasks` order): whether it is a dev (tuning) task.
    dev: Vec<bool>,
}

pub fn bench_dir() -> PathBuf {
    match std::env::var_os("RANK_BENCH_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/ranking"),
    }
}

fn read(path: PathBuf) -> String {
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

impl Bench {
    pub fn load() -> Bench {
        let dir = bench_dir();
        let listings = read(dir.join("listings.json"));
        let parsed: Value = serde_json::from_str(&listings).expect("listings.json is JSON");
        let ids = parsed["candidates"]
            .as_array()
            .expect("listings.json: candidates")
            .iter()
            .filter_map(|c| c["skill_id"].as_str().map(str::to_owned))
            .collect();
        let tasks: Value =
            serde_json::from_str(&read(dir.join("tasks.json"))).expect("tasks.json is JSON");
        let mut tasks: Vec<Task> = tasks["tasks"]
            .as_array()
            .expect("tasks.json: tasks")
            .iter()
            .map(|t| Task {
                id: t["id"].as_str().expect("task id").to_owned(),
                lang: t["lang"].as_str().unwrap_or("en").to_owned(),
                text: t["task"].as_str().expect("task text").to_owned(),
                grades: t["relevance"]
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0) as u8))
                    .collect(),
                traps: t["traps"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
                class: t["class"].as_str().unwrap_or("").to_owned(),
                split: t["split"].as_str().map(str::to_owned),
                batch: t["batch"].as_str().map(str::to_owned),
            })
            .collect();
        tasks.sort_by(|a, b| a.id.cmp(&b.id));
        let no_match_file =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/bench/no_match.json");
        let nm: Value = serde_json::from_str(&read(no_match_file)).expect("no_match.json is JSON");
        let no_match = nm["tasks"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| {
                (
                    t["lang"].as_str().unwrap_or("en").to_owned(),
                    t["task"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect();
        let dev = split(&tasks);
        Bench {
            listings,
            ids,
            tasks,
            no_match,
            dev,
        }
    }

    /// The split: a task's explicit `split` field decides; of the tasks without one, those whose id
    /// sorts in the first two thirds tune and the rest check. Later batches carry
    /// `"split": "held-out"` so that adding them never moves an older task into dev.
    pub fn is_dev(&self, index: usize) -> bool {
        self.dev[index]
    }

    /// The benchmark without one later batch (each task keeps its split), so that floors recorded
    /// before that batch existed keep applying to the tasks they were recorded on.
    pub fn without_batch(&self, batch: &str) -> Bench {
        let keep: Vec<bool> = self
            .tasks
            .iter()
            .map(|t| t.batch.as_deref() != Some(batch))
            .collect();
        let pick = |v: &[bool]| -> Vec<bool> {
            v.iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(x, _)| *x)
                .collect()
        };
        Bench {
            listings: self.listings.clone(),
            ids: self.ids.clone(),
            tasks: self
                .tasks
                .iter()
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(t, _)| t.clone())
                .collect(),
            no_match: self.no_match.clone(),
            dev: pick(&self.dev),
        }
    }
}

/// Dev flags for tasks sorted by id (see [`Bench::is_dev`]).
pub fn split(tasks: &[Task]) -> Vec<bool> {
    let unsplit = tasks.iter().filter(|t| t.split.is_none()).count();
    let cut = unsplit.div_ceil(3) * 2;
    let mut seen = 0;
    tasks
        .iter()
        .map(|t| match t.split.as_deref() {
            Some(s) => s == "dev",
            None => {
                seen += 1;
                seen <= cut
            }
        })
        .collect()
}

/// What one system did on one task.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub pick: Option<String>,
    /// The reason when silent.
    pub silent: Option<String>,
    /// The ranked list, best first (at least the top three).
    pub ranked: Vec<String>,
}

fn ctx(lang: &str) -> Ctx {
    Ctx {
        now: NOW.into(),
        host_timezone: Some("Asia/Shanghai".into()),
        lang: if lang == "en" { Lang::En } else { Lang::Zh },
        lang_explicit: true,
    }
}

/// The real pipeline: `recommend` in manual mode, dry run, no state.
pub fn ours(listings: &str, lang: &str, task: &str) -> (Outcome, Value) {
    let mut store = MemoryStore::new();
    let opts = Options {
        task: Some(task.to_owned()),
        dry_run: true,
        ..Options::default()
    };
    let out = run(&ctx(lang), &mut store, Mode::Manual, listings, &[], &opts)
        .expect("recommend succeeds");
    let ranked = out["ranked"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r["skill_id"].as_str().map(str::to_owned))
        .collect();
    let outcome = Outcome {
        pick: out["pick"]["skill_id"].as_str().map(str::to_owned),
        silent: (out["silent"] == true).then(|| out["reason"].as_str().unwrap_or("").to_owned()),
        ranked,
    };
    (outcome, out)
}

/// The listings that reach the ranking (not dropped by the filter, not blocked by the scan).
pub fn usable(listings: &str, ids: &[String]) -> BTreeSet<String> {
    let (_, out) = ours(listings, "en", "anything");
    let gone: BTreeSet<&str> = ["dropped", "blocked"]
        .iter()
        .flat_map(|k| out[*k].as_array().into_iter().flatten())
        .filter_map(|d| d["skill_id"].as_str())
        .collect();
    ids.iter()
        .filter(|id| !gone.contains(id.as_str()))
        .cloned()
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The baseline: plain BM25 (k1 1.2, b 0.75) over name, categories and description as one field;
// lower-cased ASCII words without stemming, CJK runs as overlapping character bigrams.

fn cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

pub fn baseline_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut han: Vec<char> = Vec::new();
    let flush = |word: &mut String, han: &mut Vec<char>, out: &mut Vec<String>| {
        if !word.is_empty() {
            out.push(std::mem::take(word));
        }
        match han.len() {
            0 => {}
            1 => out.push(han[0].to_string()),
            _ => out.extend(han.windows(2).map(|w| w.iter().collect::<String>())),
        }
        han.clear();
    };
    for c in text.to_lowercase().chars() {
        if cjk(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            han.push(c);
        } else if c.is_alphanumeric() {
            if !han.is_empty() {
                flush(&mut String::new(), &mut han, &mut out);
            }
            word.push(c);
        } else {
            flush(&mut word, &mut han, &mut out);
        }
    }
    flush(&mut word, &mut han, &mut out);
    out
}

/// Which baseline runs beside ours: `RANK_EVAL_BASELINE=bm25f` (`rank25`) is BM25F over three fields
/// (name ×3, the description's first sentence ×2, the rest of the description with the categories
/// ×1) with English words stemmed (Snowball) and a few English stop words dropped, CJK runs as
/// character bigrams; without it, the plain one-field BM25 of unstemmed words and bigrams.
pub fn baseline_kind() -> &'static str {
    match std::env::var("RANK_EVAL_BASELINE").as_deref() {
        Ok("bm25f") => "bm25f",
        _ => "bm25",
    }
}

const STOP: &[&str] = &[
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "my", "me", "i", "it",
    "is", "this", "that", "from", "into", "by", "be", "can", "you", "your", "our", "we", "at",
    "as", "so", "all", "are", "do", "help", "please", "some", "any", "what", "how", "which",
    "want", "need",
];

/// The stemmed tokens of the `bm25f` baseline.
pub fn stemmed_tokens(text: &str) -> Vec<String> {
    let stem = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
    baseline_tokens(text)
        .into_iter()
        .filter(|t| !STOP.contains(&t.as_str()))
        .map(|t| {
            if t.chars().next().is_some_and(cjk) {
                t
            } else {
                stem.stem(&t).into_owned()
            }
        })
        .collect()
}

/// The first sentence of a description and the rest.
fn first_sentence(d: &str) -> (&str, &str) {
    let end = d
        .char_indices()
        .find(|&(i, c)| {
            matches!(c, '。' | '！' | '？' | '\n')
                || (matches!(c, '.' | '!' | '?')
                    && d[i + c.len_utf8()..]
                        .chars()
                        .next()
                        .is_none_or(char::is_whitespace))
        })
        .map_or(d.len(), |(i, c)| i + c.len_utf8());
    (&d[..end], &d[end..])
}

/// Field weights of the `bm25f` baseline: name, first sentence, rest.
const BM25F_WEIGHTS: [f64; 3] = [3.0, 2.0, 1.0];

pub struct Baseline {
    ids: Vec<String>,
    docs: Vec<BTreeMap<String, f64>>,
    lens: Vec<f64>,
    df: BTreeMap<String, f64>,
    avg: f64,
    /// `bm25f`: per document, the term frequencies of each field, and the fields' lengths.
    fields: Vec<[BTreeMap<String, f64>; 3]>,
    field_lens: Vec<[f64; 3]>,
    field_avg: [f64; 3],
}

impl Baseline {
    pub fn new(listings: &str, usable: &BTreeSet<String>) -> Baseline {
        let v: Value = serde_json::from_str(listings).expect("listings are JSON");
        let (mut ids, mut docs, mut lens, mut df) = (vec![], vec![], vec![], BTreeMap::new());
        let (mut fields, mut field_lens) = (vec![], vec![]);
        for c in v["candidates"].as_array().into_iter().flatten() {
            let id = c["skill_id"].as_str().unwrap_or("").to_owned();
            if !usable.contains(&id) {
                continue;
            }
            let cats: Vec<&str> = c["categories"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let text = format!(
                "{} {} {}",
                c["name"].as_str().unwrap_or(""),
                cats.join(" "),
                c["description"].as_str().unwrap_or("")
            );
            let desc = c["description"].as_str().unwrap_or("");
            let (first, rest) = first_sentence(desc);
            let parts = [
                c["name"].as_str().unwrap_or("").to_owned(),
                first.to_owned(),
                format!("{} {rest}", cats.join(" ")),
            ];
            let mut ftf: [BTreeMap<String, f64>; 3] = Default::default();
            let mut flen = [0.0; 3];
            for (f, part) in parts.iter().enumerate() {
                let toks = stemmed_tokens(part);
                flen[f] = toks.len() as f64;
                for t in toks {
                    *ftf[f].entry(t).or_insert(0.0) += 1.0;
                }
            }
            let toks = if baseline_kind() == "bm25f" {
                parts.iter().flat_map(|p| stemmed_tokens(p)).collect()
            } else {
                baseline_tokens(&text)
            };
            fields.push(ftf);
            field_lens.push(flen);
            let mut tf = BTreeMap::new();
            for t in &toks {
                *tf.entry(t.clone()).or_insert(0.0) += 1.0;
            }
            for t in tf.keys() {
                *df.entry(t.clone()).or_insert(0.0) += 1.0;
            }
            ids.push(id);
            lens.push(toks.len() as f64);
            docs.push(tf);
        }
        let avg = lens.iter().sum::<f64>() / lens.len().max(1) as f64;
        let n = field_lens.len().max(1) as f64;
        let field_avg = [0, 1, 2]
            .map(|f| (field_lens.iter().map(|l: &[f64; 3]| l[f]).sum::<f64>() / n).max(1.0));
        Baseline {
            ids,
            docs,
            lens,
            df,
            avg,
            fields,
            field_lens,
            field_avg,
        }
    }

    /// The `bm25f` score of document `i` for the distinct query tokens.
    fn bm25f(&self, i: usize, q: &BTreeSet<String>) -> f64 {
        let n = self.ids.len() as f64;
        q.iter()
            .filter_map(|t| self.df.get(t).map(|df| (t, df)))
            .map(|(t, df)| {
                let tf: f64 = (0..3)
                    .filter_map(|f| self.fields[i][f].get(t).map(|c| (f, c)))
                    .map(|(f, c)| {
                        let norm = 0.25 + 0.75 * self.field_lens[i][f] / self.field_avg[f];
                        BM25F_WEIGHTS[f] * c / norm
                    })
                    .sum();
                let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                idf * tf * 2.2 / (tf + 1.2)
            })
            .sum()
    }

    pub fn run(&self, task: &str) -> Outcome {
        let n = self.ids.len() as f64;
        if baseline_kind() == "bm25f" {
            let q: BTreeSet<String> = stemmed_tokens(task).into_iter().collect();
            let mut scored: Vec<(f64, &String)> = (0..self.ids.len())
                .map(|i| (self.bm25f(i, &q), &self.ids[i]))
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
            return Baseline::outcome(&scored);
        }
        let q: BTreeSet<String> = baseline_tokens(task).into_iter().collect();
        let mut scored: Vec<(f64, &String)> = self
            .docs
            .iter()
            .zip(&self.lens)
            .zip(&self.ids)
            .map(|((tf, len), id)| {
                let s: f64 = q
                    .iter()
                    .filter_map(|t| tf.get(t).map(|f| (t, f)))
                    .map(|(t, f)| {
                        let df = self.df[t];
                        let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                        idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * len / self.avg))
                    })
                    .sum();
                (s, id)
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        Baseline::outcome(&scored)
    }

    fn outcome(scored: &[(f64, &String)]) -> Outcome {
        let pick = scored
            .first()
            .filter(|(s, _)| *s > 0.0)
            .map(|(_, id)| (*id).clone());
        Outcome {
            silent: pick.is_none().then(|| "no_match_for_task".to_owned()),
            pick,
            ranked: scored
                .iter()
                .take(10)
                .map(|(_, id)| (*id).clone())
                .collect(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Measures.

/// NDCG@3 with gains 2^grade − 1; the ideal list is made of the task's usable graded listings.
pub fn ndcg3(task: &Task, ranked: &[String], usable: &BTreeSet<String>) -> f64 {
    let gain = |g: u8| f64::from((1u32 << g) - 1);
    let dcg: f64 = ranked
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, id)| gain(task.grades.get(id).copied().unwrap_or(0)) / ((i + 2) as f64).log2())
        .sum();
    let mut ideal: Vec<u8> = task
        .grades
        .iter()
        .filter(|(id, _)| usable.contains(*id))
        .map(|(_, g)| *g)
        .collect();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    let idcg: f64 = ideal
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, &g)| gain(g) / ((i + 2) as f64).log2())
        .sum();
    if idcg > 0.0 { dcg / idcg } else { 0.0 }
}

/// Totals over a set of tasks.
#[derive(Debug, Clone, Default)]
pub struct Score {
    pub tasks: usize,
    pub p1: usize,
    pub ndcg: f64,
    pub traps: usize,
    /// Silent (`no_match_for_task`) although a usable grade-3 listing exists.
    pub silent_relevant: usize,
}

impl Score {
    pub fn add(&mut self, task: &Task, o: &Outcome, usable: &BTreeSet<String>) {
        self.tasks += 1;
        let grade = |id: &Option<String>| {
            id.as_ref()
                .and_then(|id| task.grades.get(id))
                .copied()
                .unwrap_or(0)
        };
        if grade(&o.pick) == 3 {
            self.p1 += 1;
        }
        if o.pick.as_ref().is_some_and(|p| task.traps.contains(p)) {
            self.traps += 1;
        }
        let right_exists = task
            .grades
            .iter()
            .any(|(id, &g)| g == 3 && usable.contains(id));
        if o.silent.is_some() && right_exists {
            self.silent_relevant += 1;
        }
        self.ndcg += ndcg3(task, &o.ranked, usable);
    }

    pub fn p_at_1(&self) -> f64 {
        self.p1 as f64 / self.tasks.max(1) as f64
    }

    pub fn mean_ndcg(&self) -> f64 {
        self.ndcg / self.tasks.max(1) as f64
    }
}

/// Scores by slice: `all`, `dev`, `held-out`, `lang:<l>`, `dev lang:<l>`, `held-out lang:<l>`,
/// `class:<c>`.
pub type Report = BTreeMap<String, Score>;

pub struct Run {
    pub ours: Report,
    pub baseline: Report,
    /// (task id, what went wrong) for every task ours missed.
    pub misses: Vec<(String, bool, String)>,
    /// No-match requests that got a pick: (request, pick).
    pub false_picks: Vec<(String, String)>,
    /// Tasks the baseline picks right and ours does not: (task index, the baseline's pick).
    pub baseline_wins: Vec<(usize, String)>,
}

fn slices(bench: &Bench, i: usize) -> Vec<String> {
    let t = &bench.tasks[i];
    let split = if bench.is_dev(i) { "dev" } else { "held-out" };
    let mut s = vec![
        "all".into(),
        split.into(),
        format!("lang:{}", t.lang),
        format!("{split} lang:{}", t.lang),
        format!("class:{}", t.class),
    ];
    if let Some(b) = &t.batch {
        s.push(format!("batch:{b}"));
        s.push(format!("batch:{b} lang:{}", t.lang));
        s.push(format!("batch:{b} class:{}", t.class));
    }
    s
}

/// What ours and the baseline did on every task and no-match request of a benchmark: the costly
/// part of an evaluation (the real pipeline once per request), computed once and shared by every
/// view of the benchmark that leaves batches out ([`Bench::without_batch`]). A request's outcome
/// depends on the listings and the request only, never on which other tasks are counted.
pub struct Outcomes {
    usable: BTreeSet<String>,
    /// Per task id: (ours, the baseline).
    tasks: BTreeMap<String, (Outcome, Outcome)>,
    /// Per no-match request (lang, text): ours.
    no_match: BTreeMap<(String, String), Outcome>,
}

/// Runs ours and the baseline on every request of `bench`, spread over the machine's cores.
pub fn outcomes(bench: &Bench) -> Outcomes {
    let usable = usable(&bench.listings, &bench.ids);
    let base = Baseline::new(&bench.listings, &usable);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = bench.tasks.len().div_ceil(workers).max(1);
    let tasks = std::thread::scope(|s| {
        let runs: Vec<_> = bench
            .tasks
            .chunks(chunk)
            .map(|part| {
                let base = &base;
                s.spawn(move || {
                    part.iter()
                        .map(|t| {
                            let (o, _) = ours(&bench.listings, &t.lang, &t.text);
                            (t.id.clone(), (o, base.run(&t.text)))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        runs.into_iter()
            .flat_map(|r| r.join().expect("a benchmark worker panicked"))
            .collect()
    });
    let no_match = bench
        .no_match
        .iter()
        .map(|(lang, text)| {
            let (o, _) = ours(&bench.listings, lang, text);
            ((lang.clone(), text.clone()), o)
        })
        .collect();
    Outcomes {
        usable,
        tasks,
        no_match,
    }
}

pub fn evaluate(bench: &Bench) -> Run {
    evaluate_with(bench, &outcomes(bench))
}

/// Scores `bench` from outcomes computed on it or on a benchmark it was cut from.
pub fn evaluate_with(bench: &Bench, outcomes: &Outcomes) -> Run {
    let usable = &outcomes.usable;
    let mut run = Run {
        ours: Report::new(),
        baseline: Report::new(),
        misses: Vec::new(),
        false_picks: Vec::new(),
        baseline_wins: Vec::new(),
    };
    for (i, t) in bench.tasks.iter().enumerate() {
        let (o, b) = outcomes
            .tasks
            .get(&t.id)
            .unwrap_or_else(|| panic!("task {} was not evaluated", t.id));
        for s in slices(bench, i) {
            run.ours.entry(s.clone()).or_default().add(t, o, usable);
            run.baseline.entry(s).or_default().add(t, b, usable);
        }
        let g = o
            .pick
            .as_ref()
            .and_then(|p| t.grades.get(p))
            .copied()
            .unwrap_or(0);
        let bg = b.pick.as_ref().and_then(|p| t.grades.get(p)).copied();
        if g < 3 && bg == Some(3) {
            run.baseline_wins
                .push((i, b.pick.clone().unwrap_or_default()));
        }
        if g < 3 {
            let trap = o.pick.as_ref().is_some_and(|p| t.traps.contains(p));
            let what = match (&o.pick, &o.silent) {
                (Some(p), _) => format!(
                    "picked {p} (grade {g}{}); top3 {:?}",
                    if trap { ", TRAP" } else { "" },
                    &o.ranked[..o.ranked.len().min(3)]
                ),
                (None, s) => format!("silent ({})", s.clone().unwrap_or_default()),
            };
            run.misses.push((
                t.id.clone(),
                bench.is_dev(i),
                format!("[{} {}] {:?}: {what}", t.lang, t.class, t.text),
            ));
        }
    }
    for (lang, text) in &bench.no_match {
        let o = &outcomes.no_match[&(lang.clone(), text.clone())];
        if let Some(p) = &o.pick {
            run.false_picks.push((text.clone(), p.clone()));
        }
    }
    run
}

/// The report as a Markdown table.
pub fn table(run: &Run) -> String {
    let mut s = String::from(
        "| slice | tasks | P@1 ours | P@1 BM25 | NDCG@3 ours | NDCG@3 BM25 | traps ours | traps BM25 | silent-relevant ours |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for (k, o) in &run.ours {
        let b = &run.baseline[k];
        s.push_str(&format!(
            "| {k} | {} | {}/{} ({:.1}%) | {}/{} ({:.1}%) | {:.3} | {:.3} | {} | {} | {} |\n",
            o.tasks,
            o.p1,
            o.tasks,
            100.0 * o.p_at_1(),
            b.p1,
            b.tasks,
            100.0 * b.p_at_1(),
            o.mean_ndcg(),
            b.mean_ndcg(),
            o.traps,
            b.traps,
            o.silent_relevant
        ));
    }
    s
}
