//! Native profile helper for `recommend` (manual, dry run) on a candidates file: time, peak live heap
//! (a counting global allocator: the figure that matters in the component, whose linear memory only
//! grows) and, with a third argument, the JSON result written to a file to compare builds byte for
//! byte.
//!
//!     cargo build -p guest --release --example recommend_prof
//!     target/release/examples/recommend_prof FILE "merge pdf files" [OUT]
//!
//! `SR_PROF_REPEAT=N` runs it N times (for `perf record`); `SR_PROF_LANG=zh` renders in Chinese.
#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{COUNT, LIVE, PEAK};
use std::sync::atomic::Ordering::Relaxed;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: recommend_prof FILE [TASK] [OUT]");
    let task = args.next().unwrap_or_else(|| "merge pdf files".to_owned());
    let out_path = args.next();
    let repeat: usize = std::env::var("SR_PROF_REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let text = std::fs::read_to_string(path).expect("the candidates file is readable");
    let mut ctx = guest::Ctx::at("2026-11-29T02:00:00Z");
    if std::env::var("SR_PROF_LANG").as_deref() == Ok("zh") {
        ctx.lang = guest::Lang::Zh;
    }
    let mut out = String::new();
    for _ in 0..repeat {
        let base = LIVE.load(Relaxed);
        PEAK.store(base, Relaxed);
        COUNT.store(0, Relaxed);
        let t = std::time::Instant::now();
        let mut store = guest::store::MemoryStore::default();
        let opts = guest::recommend::Options {
            task: (!task.is_empty()).then(|| task.clone()),
            dry_run: true,
            ..Default::default()
        };
        out = guest::recommend::run_owned_with(
            &ctx,
            &mut store,
            &mut guest::fit::NoProbe,
            guest::filter::Mode::Manual,
            text.clone(),
            &[],
            &opts,
        )
        .map(|v| serde_json::to_string_pretty(&v).expect("JSON"))
        .unwrap_or_else(|e| format!("error: {e:?}"));
        eprintln!(
            "recommend: {:.3} s, {} bytes out, peak live heap {} MB above the input's copy, {} allocations",
            t.elapsed().as_secs_f64(),
            out.len(),
            (PEAK.load(Relaxed) - base) >> 20,
            COUNT.load(Relaxed),
        );
    }
    if let Some(to) = out_path {
        std::fs::write(to, out).expect("the output is writable");
    }
}
