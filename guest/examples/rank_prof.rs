//! Native profile helper: `rank` (manual, with a task) on a candidates file, as the export runs it.
//! Run it under `/usr/bin/time -v` for the peak (max RSS) and under `perf record` for where time goes:
//!
//!     cargo build -p guest --release --example rank_prof
//!     /usr/bin/time -v target/release/examples/rank_prof FILE [TASK]
#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::PEAK;
use std::sync::atomic::Ordering::Relaxed;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: rank_prof FILE [TASK]");
    let task = args
        .next()
        .unwrap_or_else(|| "extract-pdf-tables".to_owned());
    let text = std::fs::read_to_string(path).expect("the candidates file is readable");
    let ctx = guest::Ctx::at("2026-11-29T02:00:00Z");
    let t = std::time::Instant::now();
    let mut store = guest::store::MemoryStore::default();
    let request = guest::rank::Request {
        task: Some(task),
        ..Default::default()
    };
    let out = guest::rank::run_text(
        &ctx,
        &mut store,
        guest::filter::Mode::Manual,
        &text,
        &[],
        &request,
    )
    .expect("rank succeeds");
    eprintln!(
        "rank: {:.3} s, {} bytes out, peak live heap {} MB (input {} MB)",
        t.elapsed().as_secs_f64(),
        out.len(),
        PEAK.load(Relaxed) >> 20,
        text.len() >> 20
    );
}
