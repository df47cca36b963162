//! Native profile helper: `rank` (manual, with a task) on a candidates file, as the export runs it.
//! Run it under `/usr/bin/time -v` for the peak (max RSS) and under `perf record` for where time goes:
//!
//!     cargo build -p guest --release --example rank_prof
//!     /usr/bin/time -v target/release/examples/rank_prof FILE [TASK]
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Counts live heap bytes and their peak (the figure that matters in the component, whose linear
/// memory only grows).
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(l.size(), Relaxed) + l.size();
        PEAK.fetch_max(now, Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static A: Counting = Counting;

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
