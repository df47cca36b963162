//! Native: the live heap `initialize` leaves (what a pre-initialized component's snapshot holds),
//! split by part. `cargo run -p guest --release --example init_heap`
#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{LIVE, PEAK};
use std::sync::atomic::Ordering::Relaxed;

fn main() {
    let at = |what: &str, before: usize| {
        let now = LIVE.load(Relaxed);
        println!(
            "{what}: +{:.1} MB (live {:.1} MB, peak {:.1} MB)",
            (now - before) as f64 / 1e6,
            now as f64 / 1e6,
            PEAK.load(Relaxed) as f64 / 1e6
        );
        now
    };
    let b = LIVE.load(Relaxed);
    guest::initialize();
    at("initialize", b);
}
