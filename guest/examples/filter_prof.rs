//! Native profile helper: `filter` (or, with `SR_PROF_RECOMMEND=1`, a dry-run `recommend` for the
//! task `extract-pdf-tables`) on a candidates file, timed. With a second argument the result (or the
//! error) is written to that file, to compare builds byte for byte. Also printed: the peak live heap,
//! the input's copy included (what the component's linear memory must hold at least), and the number
//! of allocations (a counting global allocator; natively, so 64-bit sizes: the component's 32-bit
//! pointers make its figures somewhat smaller).
#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{COUNT, LIVE, PEAK};
use std::sync::atomic::Ordering::Relaxed;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: filter_prof FILE [OUT]");
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let text = std::fs::read_to_string(path).unwrap();
    let ctx = guest::Ctx::at("2026-11-29T02:00:00Z");
    COUNT.store(0, Relaxed);
    let t = std::time::Instant::now();
    let mut store = guest::store::MemoryStore::default();
    let mode = guest::filter::Mode::Manual;
    let out = if std::env::var_os("SR_PROF_RECOMMEND").is_some() {
        let opts = guest::recommend::Options {
            task: Some("extract-pdf-tables".into()),
            dry_run: true,
            ..Default::default()
        };
        guest::recommend::run_owned_with(
            &ctx,
            &mut store,
            &mut guest::fit::NoProbe,
            mode,
            text,
            &[],
            &opts,
        )
        .map(|v| v.to_string())
    } else {
        guest::filter::run_owned(&ctx, &mut store, mode, text, &[], &Default::default())
    };
    let out = out.unwrap_or_else(|e| format!("error: {e:?}"));
    eprintln!(
        "{:.3} s, {} bytes out, peak live heap {} MB (the input's copy included), {} allocations",
        t.elapsed().as_secs_f64(),
        out.len(),
        (PEAK.load(Relaxed) - base) >> 20,
        COUNT.load(Relaxed),
    );
    if let Some(to) = args.next() {
        std::fs::write(to, out).unwrap();
    }
}
