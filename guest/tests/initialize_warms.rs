//! `initialize` builds every table a call would otherwise build on first use.
//!
//! Why it matters: a host snapshots the instance right after `initialize` (pre-initialization) and
//! starts each call from that snapshot, so a table left lazy is rebuilt by every call (the Node host,
//! which instantiates the plain component per call, pays for all of them either way). The test counts
//! the heap ranking calls leave behind: after `initialize` they keep nothing (a lazily built table is
//! kept, in a static, by the first call that needs it). What scanning keeps by design (the regexes'
//! search caches) is built first by a call without a request, so this guards the ranking side: the
//! scanner's judges are warmed by `scan::initialize`'s scan of a near-empty bundle.
//!
//! One test in its own binary (`harness = false`), so nothing else allocates while it counts.
#[path = "../examples/support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::LIVE;
use std::sync::atomic::Ordering::Relaxed;

/// Rankings in both languages (a traditional-Chinese request, an English one with a typo, and one in
/// each language naming an object only the EN↔ZH table knows).
fn calls(candidates: &str, tasks: &[(guest::Lang, &str)]) -> usize {
    let before = LIVE.load(Relaxed);
    for &(lang, task) in tasks {
        let ctx = guest::Ctx {
            now: "2026-11-29T02:00:00Z".into(),
            host_timezone: Some("Asia/Shanghai".into()),
            lang,
            lang_explicit: true,
        };
        let request = guest::rank::Request {
            task: (!task.is_empty()).then(|| task.to_owned()),
            signals: Vec::new(),
            agent: Default::default(),
        };
        let mut store = guest::MemoryStore::new();
        let out = guest::rank::run(
            &ctx,
            &mut store,
            guest::filter::Mode::Manual,
            candidates,
            &[],
            &request,
        );
        assert!(out.is_ok(), "{task}: {out:?}");
    }
    LIVE.load(Relaxed) - before
}

fn main() {
    let candidates = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/sample_candidates.json"
    ))
    .expect("the sample candidates are readable");
    guest::initialize();
    // A call without a request first: it scans the candidates, which builds the regexes' search
    // caches (by design per call: they grow with the text searched, see `scan::initialize`).
    calls(&candidates, &[(guest::Lang::En, "")]);
    let tasks = [
        (guest::Lang::Zh, "幫我合併幾個PDF檔案"),
        (guest::Lang::En, "summarise my pdf documnets"),
        (guest::Lang::Zh, "我想给乌龟换个鱼缸"),
        (guest::Lang::En, "care for a pet tortoise"),
    ];
    let first = calls(&candidates, &tasks);
    let second = calls(&candidates, &tasks);
    assert!(
        first == 0 && second == 0,
        "the first calls after `initialize` kept {first} bytes, the same calls again {second}: \
         a table is still built on first use (add it to `guest::initialize`)"
    );
    println!("initialize_warms: ok (first calls kept {first} bytes, the second {second})");
}
