//! The ranking benchmark report (issue 20): ours (the real `recommend` pick) against a plain BM25 +
//! CJK-bigram baseline, by split (dev = the first two thirds of the task ids, held-out = the rest),
//! language and class.
//!
//!     cargo run -p guest --release --example rank_eval             # table + the dev tasks missed
//!     RANK_EVAL_HELDOUT=1 cargo run -p guest --release --example rank_eval   # held-out misses too
//!     RANK_BENCH_DIR=path/to/other/set cargo run -p guest --release --example rank_eval

#[path = "../tests/bench/eval.rs"]
mod eval;

fn main() {
    let bench = eval::Bench::load();
    let run = eval::evaluate(&bench);
    println!("{}", eval::table(&run));
    let show_held_out = std::env::var_os("RANK_EVAL_HELDOUT").is_some();
    let hidden = run.misses.iter().filter(|(_, dev, _)| !dev).count();
    println!("misses ({} dev, {hidden} held-out):", run.misses.len() - hidden);
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
