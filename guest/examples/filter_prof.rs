//! Native profile helper: `filter` (or `recommend` with a task) on a candidates file, timed by phase.
fn main() {
    let path = std::env::args().nth(1).expect("usage: filter_prof FILE");
    let text = std::fs::read_to_string(path).unwrap();
    let ctx = guest::Ctx::at("2026-11-29T02:00:00Z");
    let t = std::time::Instant::now();
    let mut store = guest::store::MemoryStore::default();
    let out = guest::filter::run_text(
        &ctx,
        &mut store,
        guest::filter::Mode::Manual,
        &text,
        &[],
        &Default::default(),
    )
    .unwrap();
    eprintln!(
        "filter: {:.3} s, {} bytes out",
        t.elapsed().as_secs_f64(),
        out.len()
    );
}
