//! The ranking benchmark report (issue 20): ours (the real `recommend` pick) against a plain BM25 +
//! CJK-bigram baseline, by split (dev = the first two thirds of the task ids, held-out = the rest),
//! language and class.
//!
//!     cargo run -p guest --release --example rank_eval             # table + the dev tasks missed
//!     RANK_EVAL_HELDOUT=1 cargo run -p guest --release --example rank_eval   # held-out misses too
//!     RANK_BENCH_DIR=path/to/other/set cargo run -p guest --release --example rank_eval
//!     RANK_EVAL_WITHOUT=heldout-3 cargo run -p guest --release --example rank_eval   # without a batch

#[path = "../tests/bench/eval.rs"]
mod eval;

/// `RANK_EVAL_TASK=t005` (or any request text): the top of the ranking with the relevance details.
fn explain(bench: &eval::Bench, what: &str) {
    use guest::rank::{Env, Request, rank};
    let text = bench
        .tasks
        .iter()
        .find(|t| t.id == what)
        .map_or(what.to_owned(), |t| t.text.clone());
    let task = bench.tasks.iter().find(|t| t.id == what);
    let cands: Vec<_> = guest::model::parse_candidates(&bench.listings)
        .unwrap()
        .into_iter()
        .filter_map(Result::ok)
        .collect();
    let clock = guest::clock::Clock::new(eval::NOW, None, Some("Asia/Shanghai")).unwrap();
    let state = guest::state::State::default();
    let history = guest::state::History::default();
    let r = rank(
        cands,
        guest::filter::Mode::Manual,
        &Request {
            task: Some(text.clone()),
            signals: Vec::new(),
            agent: Default::default(),
        },
        &Env {
            state: &state,
            history: &history,
            installed: &[],
            clock: &clock,
            lang: guest::Lang::En,
        },
    );
    println!("{text}");
    {
        use guest::rank::relevance::{Query, UnitKind};
        let mut vocab = guest::rank::text::Vocab::default();
        let a = vocab.analyze_text(&text);
        let q = Query::new(&mut vocab, &a);
        let lex = guest::rank::lexicon::lexicon();
        let units: Vec<String> = q
            .units
            .iter()
            .map(|u| {
                let what = match &u.kind {
                    UnitKind::Concept { concept, .. } => {
                        format!("@{}", lex.concepts[*concept].name)
                    }
                    UnitKind::Words(ids) => ids
                        .iter()
                        .map(|&i| vocab.text(i).to_owned())
                        .collect::<Vec<_>>()
                        .join("+"),
                };
                format!(
                    "{what}{}:{:.2}",
                    if u.side { "(side)" } else { "" },
                    u.weight
                )
            })
            .collect();
        println!("  units: {}", units.join(" "));
    }
    for (i, x) in r.ranked.iter().enumerate() {
        let g = task
            .and_then(|t| t.grades.get(&x.candidate.skill_id))
            .copied()
            .unwrap_or(0);
        if i >= 6 && g < 2 {
            continue;
        }
        let trap = task.is_some_and(|t| t.traps.contains(&x.candidate.skill_id));
        println!(
            "  {:<45} g{g}{} band {} rel {:.3} match {:.3} score {:.1} | {}",
            x.candidate.skill_id,
            if trap { " TRAP" } else { "" },
            x.band,
            x.relevance,
            x.coverage,
            x.score,
            x.factor(guest::rank::FactorKey::Task)
                .map_or("", |f| f.detail.as_str())
        );
    }
}

/// `RANK_EVAL_BREADTH=1`: what each listing claims.
fn breadth(bench: &eval::Bench) {
    use guest::rank::lexicon::{Kind, lexicon};
    let lex = lexicon();
    let cands: Vec<_> = guest::model::parse_candidates(&bench.listings)
        .unwrap()
        .into_iter()
        .filter_map(Result::ok)
        .collect();
    let mut rows = Vec::new();
    for c in cands {
        let text = format!("{}. {}. {}", c.name, c.categories.join(", "), c.description);
        let found = lex.concepts_in(&text);
        let names = |k: Kind| -> Vec<String> {
            found
                .iter()
                .filter(|&&i| lex.concepts[i].kind == k)
                .map(|&i| {
                    let c = &lex.concepts[i];
                    if c.generic {
                        format!("({})", c.name)
                    } else {
                        c.name.clone()
                    }
                })
                .collect()
        };
        let (o, a) = (names(Kind::Object), names(Kind::Action));
        rows.push((
            o.len() + a.len(),
            c.skill_id.clone(),
            o.join(" "),
            a.join(" "),
        ));
    }
    rows.sort();
    for (n, id, o, a) in rows {
        println!("{n:>2} {id:<45} O[{o}] A[{a}]");
    }
}

/// `RANK_EVAL_CUTOFF=1`: per script, the match strength of each task's best grade-3 listing (dev
/// tasks only) and the best strength of each no-match request: where the cut-off can go.
fn cutoff(bench: &eval::Bench) {
    use guest::rank::relevance::script_of;
    use guest::rank::{Env, Request, rank};
    let cands: Vec<_> = guest::model::parse_candidates(&bench.listings)
        .unwrap()
        .into_iter()
        .filter_map(Result::ok)
        .collect();
    let clock = guest::clock::Clock::new(eval::NOW, None, Some("Asia/Shanghai")).unwrap();
    let state = guest::state::State::default();
    let history = guest::state::History::default();
    let run = |text: &str| {
        rank(
            cands.clone(),
            guest::filter::Mode::Manual,
            &Request {
                task: Some(text.to_owned()),
                signals: Vec::new(),
                agent: Default::default(),
            },
            &Env {
                state: &state,
                history: &history,
                installed: &[],
                clock: &clock,
                lang: guest::Lang::En,
            },
        )
    };
    let mut right: Vec<(String, f64, String)> = Vec::new();
    for (i, t) in bench.tasks.iter().enumerate() {
        if !bench.is_dev(i) {
            continue;
        }
        let r = run(&t.text);
        let best = r
            .ranked
            .iter()
            .filter(|x| t.grades.get(&x.candidate.skill_id) == Some(&3))
            .max_by(|a, b| a.coverage.total_cmp(&b.coverage));
        let (best, single) = best.map_or((0.0, ""), |x| {
            (x.coverage, if x.single_match { "~" } else { "" })
        });
        right.push((
            format!("{:?}", script_of(&t.text)),
            best,
            format!("{}{single}", t.id),
        ));
    }
    let mut none: Vec<(String, f64, String)> = bench
        .no_match
        .iter()
        .map(|(_, text)| {
            let r = run(text);
            let best = r
                .ranked
                .iter()
                .max_by(|a, b| a.coverage.total_cmp(&b.coverage));
            let (best, single) = best.map_or((0.0, ""), |x| {
                (x.coverage, if x.single_match { "~ " } else { "" })
            });
            (
                format!("{:?}", script_of(text)),
                best,
                format!("{single}{text}"),
            )
        })
        .collect();
    right.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    none.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
    println!("lowest right-skill strengths (dev):");
    for s in ["Latin", "Han", "Mixed"] {
        let v: Vec<String> = right
            .iter()
            .filter(|x| x.0 == s)
            .take(8)
            .map(|x| format!("{:.3} {}", x.1, x.2))
            .collect();
        println!("  {s}: {}", v.join(", "));
    }
    println!("highest no-match strengths:");
    for s in ["Latin", "Han", "Mixed"] {
        let v: Vec<String> = none
            .iter()
            .filter(|x| x.0 == s)
            .map(|x| format!("{:.3} {}", x.1, x.2))
            .collect();
        println!("  {s}: {}", v.join(" | "));
    }
}

/// `RANK_EVAL_DUMP=heldout-14,heldout-15` (`all` for every task, `-` for those without a batch):
/// one JSON line per task of those batches with what a
/// miss's cause is read from: the pick, the request's units, and for the top five, the graded
/// listings and the traps among the first ten, their place, relevance, match strength, flags, the
/// `task` factor's detail and the concepts each listing names (for the table of causes of misses).
fn dump(bench: &eval::Bench, batches: &str) {
    use guest::rank::lexicon::{Kind, lexicon};
    use guest::rank::relevance::{Query, UnitKind};
    use guest::rank::{Env, Request, rank};
    use serde_json::json;
    let want: Vec<&str> = batches.split(',').map(str::trim).collect();
    let lex = lexicon();
    let cands: Vec<_> = guest::model::parse_candidates(&bench.listings)
        .unwrap()
        .into_iter()
        .filter_map(Result::ok)
        .collect();
    let clock = guest::clock::Clock::new(eval::NOW, None, Some("Asia/Shanghai")).unwrap();
    let state = guest::state::State::default();
    let history = guest::state::History::default();
    let kind = |k: Kind| match k {
        Kind::Object => "object",
        Kind::Action => "action",
        Kind::Topic => "topic",
    };
    for t in &bench.tasks {
        // `all`: every task; `-` names the tasks without a batch (the first 214).
        let batch = t.batch.as_deref().unwrap_or("-");
        if !want.contains(&"all") && !want.contains(&batch) {
            continue;
        }
        let (outcome, _) = eval::ours(&bench.listings, &t.lang, &t.text);
        let mut vocab = guest::rank::text::Vocab::default();
        let a = vocab.analyze_text(&t.text);
        let q = Query::new(&mut vocab, &a);
        let units: Vec<_> = q
            .units
            .iter()
            .map(|u| match &u.kind {
                UnitKind::Concept { concept, kind: k } => json!({
                    "concept": lex.concepts[*concept].name, "kind": kind(*k),
                    "generic": lex.concepts[*concept].generic, "side": u.side,
                    "weight": u.weight, "surface": u.surface}),
                UnitKind::Words(ids) => json!({
                    "words": ids.iter().map(|&i| vocab.text(i).to_owned()).collect::<Vec<_>>(),
                    "side": u.side, "weight": u.weight}),
            })
            .collect();
        let r = rank(
            cands.clone(),
            guest::filter::Mode::Manual,
            &Request {
                task: Some(t.text.clone()),
                signals: Vec::new(),
                agent: Default::default(),
            },
            &Env {
                state: &state,
                history: &history,
                installed: &[],
                clock: &clock,
                lang: guest::Lang::En,
            },
        );
        let mut entries = Vec::new();
        for (i, x) in r.ranked.iter().enumerate() {
            let id = &x.candidate.skill_id;
            let g = t.grades.get(id).copied().unwrap_or(0);
            let trap = t.traps.contains(id);
            if i >= 5 && g == 0 && !(trap && i < 10) {
                continue;
            }
            let c = &x.candidate;
            let text = format!("{}. {}. {}", c.name, c.categories.join(", "), c.description);
            let concepts: Vec<String> = lex
                .concepts_in(&text)
                .into_iter()
                .map(|k| lex.concepts[k].name.clone())
                .collect();
            entries.push(json!({
                "id": id, "grade": g, "trap": trap, "pos": i, "band": x.band,
                "rel": x.relevance, "strength": x.coverage, "core": x.core_match,
                "single": x.single_match, "downloads": c.popularity.downloads,
                "detail": x.factor(guest::rank::FactorKey::Task).map_or("", |f| f.detail.as_str()),
                "concepts": concepts}));
        }
        let line = json!({
            "id": t.id, "batch": t.batch, "lang": t.lang, "class": t.class, "text": t.text,
            "pick": outcome.pick, "silent": outcome.silent,
            "pick_grade": outcome.pick.as_ref().and_then(|p| t.grades.get(p)).copied().unwrap_or(0),
            "pick_trap": outcome.pick.as_ref().is_some_and(|p| t.traps.contains(p)),
            "units": units, "entries": entries});
        println!("{line}");
    }
}

/// `RANK_EVAL_WINS=1` (`rank25`): the tasks the baseline picks right and ours does not, each with
/// the class of why: `silence` (ours is silent), `near-tie` (the right listing is in our pick's
/// relevance band, so the score decided), `no-concept` (the right listing's match strength is under
/// a fifth of our pick's: the concept map does not reach its words), `concept-outweighs` (it matches,
/// but a concept match elsewhere is ordered a band or more above it).
fn wins(bench: &eval::Bench, run: &eval::Run) {
    use guest::rank::{Env, Request, rank};
    let cands: Vec<_> = guest::model::parse_candidates(&bench.listings)
        .unwrap()
        .into_iter()
        .filter_map(Result::ok)
        .collect();
    let clock = guest::clock::Clock::new(eval::NOW, None, Some("Asia/Shanghai")).unwrap();
    let state = guest::state::State::default();
    let history = guest::state::History::default();
    let mut counts: std::collections::BTreeMap<(String, &str), usize> = Default::default();
    for (i, right) in &run.baseline_wins {
        let t = &bench.tasks[*i];
        let (o, _) = eval::ours(&bench.listings, &t.lang, &t.text);
        let r = rank(
            cands.clone(),
            guest::filter::Mode::Manual,
            &Request {
                task: Some(t.text.clone()),
                signals: Vec::new(),
                agent: Default::default(),
            },
            &Env {
                state: &state,
                history: &history,
                installed: &[],
                clock: &clock,
                lang: guest::Lang::En,
            },
        );
        let pos = r.ranked.iter().position(|x| &x.candidate.skill_id == right);
        let top = r.ranked.first();
        let rx = pos.map(|p| &r.ranked[p]);
        let class = match (&o.pick, rx, top) {
            (None, _, _) => "silence",
            (_, Some(rx), Some(top)) if rx.band == top.band => "near-tie",
            (_, Some(rx), Some(top)) if rx.coverage < 0.2 * top.coverage => "no-concept",
            (_, Some(_), _) => "concept-outweighs",
            _ => "no-concept",
        };
        let split = if bench.is_dev(*i) { "dev" } else { "held-out" };
        *counts.entry((split.to_owned(), class)).or_default() += 1;
        println!(
            "{} {split} {} [{} {}] {class}: ours {:?}, right {right} at {:?} (strength {:.3} vs top {:.3})",
            t.id,
            t.batch.as_deref().unwrap_or("-"),
            t.lang,
            t.class,
            o.pick,
            pos,
            rx.map_or(0.0, |x| x.coverage),
            top.map_or(0.0, |x| x.coverage),
        );
    }
    for ((split, class), n) in counts {
        println!("  {split} {class}: {n}");
    }
}

/// `RANK_EVAL_THRESHOLDS=1` (`rank25`): the pick's cut-off (`recommend::MIN_TASK_MATCH`) moved by a
/// few steps for one script at a time, with the core share and the single-match floor as
/// `recommend` applies them: per script, the tasks picked right, silent although a right skill
/// exists, and the no-match requests that stay silent. The row at +0.00 is the shipped cut-off.
fn thresholds(bench: &eval::Bench) {
    use guest::rank::relevance::{Script, script_of};
    use guest::rank::{Env, Preview, Request, rank};
    use guest::recommend::{manual_pick, min_task_match, preview};
    let cands: Vec<_> = guest::model::parse_candidates(&bench.listings)
        .unwrap()
        .into_iter()
        .filter_map(Result::ok)
        .collect();
    let usable = eval::usable(&bench.listings, &bench.ids);
    let clock = guest::clock::Clock::new(eval::NOW, None, Some("Asia/Shanghai")).unwrap();
    let state = guest::state::State::default();
    let history = guest::state::History::default();
    // Per request: its script, its cut-off and the ranked (id, preview), as `recommend` reads them.
    let run = |text: &str| {
        let r = rank(
            cands.clone(),
            guest::filter::Mode::Manual,
            &Request {
                task: Some(text.to_owned()),
                signals: Vec::new(),
                agent: Default::default(),
            },
            &Env {
                state: &state,
                history: &history,
                installed: &[],
                clock: &clock,
                lang: guest::Lang::En,
            },
        );
        r.ranked
            .iter()
            .filter(|x| usable.contains(&x.candidate.skill_id))
            .map(|x| (x.candidate.skill_id.clone(), preview(x)))
            .collect::<Vec<_>>()
    };
    let pick = |ranked: &[(String, Preview)], floor: f64| {
        let previews: Vec<Preview> = ranked.iter().map(|x| x.1).collect();
        manual_pick(&previews, true, floor).map(|p| ranked[p.pick].0.clone())
    };
    let tasks: Vec<_> = bench
        .tasks
        .iter()
        .map(|t| (script_of(&t.text), min_task_match(&t.text), run(&t.text), t))
        .collect();
    let none: Vec<_> = bench
        .no_match
        .iter()
        .map(|(_, text)| (script_of(text), min_task_match(text), run(text), text))
        .collect();
    println!(
        "| script | cut-off | tasks | P@1 | wrong picks | silent with a right skill | no-match silent |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for script in [Script::Latin, Script::Han, Script::Mixed] {
        for delta in [-0.06, -0.05, -0.04, -0.03, -0.02, -0.01, 0.0, 0.01, 0.02] {
            let (mut n, mut p1, mut wrong, mut silent) = (0, 0, 0, 0);
            let mut floor_at = 0.0;
            for (s, floor, ranked, t) in &tasks {
                if *s != script {
                    continue;
                }
                floor_at = floor + delta;
                n += 1;
                match pick(ranked, floor + delta) {
                    Some(p) if t.grades.get(&p) == Some(&3) => p1 += 1,
                    Some(_) => wrong += 1,
                    None => {
                        if t.grades
                            .iter()
                            .any(|(id, &g)| g == 3 && usable.contains(id))
                        {
                            silent += 1;
                        }
                    }
                }
            }
            let (mut m, mut quiet) = (0, 0);
            for (s, floor, ranked, _) in &none {
                if *s != script {
                    continue;
                }
                m += 1;
                if pick(ranked, floor + delta).is_none() {
                    quiet += 1;
                }
            }
            println!(
                "| {script:?} | {floor_at:.2}{} | {n} | {p1} | {wrong} | {silent} | {quiet}/{m} |",
                if delta == 0.0 { " (now)" } else { "" }
            );
        }
    }
    // Silent requests whose first-ranked listing leads the second by relevance: the margin, the
    // first's strength and cut-off, and whether it is right (tasks) or a no-match request.
    println!("\nsilent, by the first's lead (relevance first / second):");
    let lead = |ranked: &[(String, Preview)]| {
        let a = ranked.first().map_or(0.0, |x| x.1.relevance);
        let b = ranked.get(1).map_or(0.0, |x| x.1.relevance);
        (a, b)
    };
    for (_, floor, ranked, t) in &tasks {
        if pick(ranked, *floor).is_none() && !ranked.is_empty() {
            let (a, b) = lead(ranked);
            let g = t.grades.get(&ranked[0].0).copied().unwrap_or(0);
            println!(
                "  task {} g{g} lead {:.2} ({a:.3}/{b:.3}) strength {:.3} cut {floor:.2} core {} single {}",
                t.id,
                a / b.max(1e-9),
                ranked[0].1.strength,
                ranked[0].1.core,
                ranked[0].1.single
            );
        }
    }
    for (_, floor, ranked, text) in &none {
        if pick(ranked, *floor).is_none() && !ranked.is_empty() {
            let (a, b) = lead(ranked);
            println!(
                "  no-match lead {:.2} ({a:.3}/{b:.3}) strength {:.3} cut {floor:.2} core {} single {} {text}",
                a / b.max(1e-9),
                ranked[0].1.strength,
                ranked[0].1.core,
                ranked[0].1.single
            );
        }
    }
}

fn main() {
    let mut bench = eval::Bench::load();
    // `RANK_EVAL_WITHOUT=heldout-3`: the benchmark as it was before that batch.
    // Several batches: `RANK_EVAL_WITHOUT=heldout-3,heldout-4`.
    if let Ok(batches) = std::env::var("RANK_EVAL_WITHOUT") {
        for batch in batches.split(',') {
            bench = bench.without_batch(batch.trim());
        }
    }
    if std::env::var_os("RANK_EVAL_THRESHOLDS").is_some() {
        return thresholds(&bench);
    }
    if std::env::var_os("RANK_EVAL_CUTOFF").is_some() {
        return cutoff(&bench);
    }
    if std::env::var_os("RANK_EVAL_BREADTH").is_some() {
        return breadth(&bench);
    }
    if let Ok(batches) = std::env::var("RANK_EVAL_DUMP") {
        return dump(&bench, &batches);
    }
    if let Ok(what) = std::env::var("RANK_EVAL_TASK") {
        for w in what.split(',') {
            explain(&bench, w.trim());
        }
        return;
    }
    let run = eval::evaluate(&bench);
    println!("baseline: {}", eval::baseline_kind());
    println!("{}", eval::table(&run));
    if std::env::var_os("RANK_EVAL_WINS").is_some() {
        return wins(&bench, &run);
    }
    let show_held_out = std::env::var_os("RANK_EVAL_HELDOUT").is_some();
    let hidden = run.misses.iter().filter(|(_, dev, _)| !dev).count();
    println!(
        "misses ({} dev, {hidden} held-out):",
        run.misses.len() - hidden
    );
    for (id, dev, what) in &run.misses {
        if *dev || show_held_out {
            println!("  {id} {what}");
        }
    }
    println!(
        "no-match requests: {} of {} silent",
        bench.no_match.len() - run.false_picks.len(),
        bench.no_match.len()
    );
    for (task, pick) in &run.false_picks {
        println!("  picked {pick} for {task:?}");
    }
}
