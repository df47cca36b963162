//! Scale: `rank` of many candidates within the component's memory cap.
//!
//! `rank` at 100,000 candidates used to end with `sandbox_limit` (the 512 MiB cap): it held every
//! candidate's factors, reasons and explanations at once, then grew its ~120 MB result by doubling.
//! Memory grows with the number of candidates, so the same failure shows at a fifth of the size under
//! a proportionally smaller cap, which is cheap enough for every test run. The cap below sits between
//! what the old guest needed at this size and what the current one needs (measured with
//! `memory_needed_by_rank`; see BENCHMARKS.md).

use host_harness::{CacheMode, Command, Ctx, Harness, Limits, MemoryStateStore, Mode, RankRequest};

use crate::common::{NOW, cache_dir};

/// Candidates shaped as the acceptance check's 100,000 (`host-harness/benches/whole_process.py`):
/// ~440 bytes each, one of eight categories, random popularity (a fixed generator, so every run is
/// the same).
pub fn candidates(n: usize) -> String {
    const CATS: [&str; 8] = [
        "pdf",
        "devops",
        "finance",
        "travel",
        "content-creation",
        "audio",
        "coding",
        "education",
    ];
    let mut x: u64 = 7;
    let mut next = |m: u64| {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) % m
    };
    let items: Vec<String> = (0..n)
        .map(|i| {
            let (a, b) = (CATS[next(8) as usize], CATS[next(8) as usize]);
            format!(
                r#"{{"skill_id": "clawhub:s{i}", "name": "skill-{i}", "source": "clawhub", "url": "https://clawhub.ai/o/s{i}", "description": "Skill number {i} that helps with {a} tasks and daily work.", "categories": ["{b}"], "updated_at": "2026-10-01T00:00:00Z", "popularity": {{"downloads": {}, "stars": {}}}, "source_code_url": "https://github.com/o/s{i}", "has_install_docs": true, "has_security_disclosure": true, "risk_level": "low"}}"#,
                next(100_000),
                next(1_000)
            )
        })
        .collect();
    format!(r#"{{"candidates": [{}]}}"#, items.join(", "))
}

/// The real component (or `component`, a guest.wasm) capped at `cap` bytes of memory, with no fuel
/// or wall-clock limit (only memory is under test).
fn capped(cap: usize, component: Option<Vec<u8>>) -> Harness {
    let mut b = Harness::builder()
        .cache(CacheMode::Dir(cache_dir()))
        .limits(Limits {
            max_memory_bytes: cap,
            max_input_bytes: 64 << 20,
            fuel: None,
            deadline: None,
            ..Limits::for_testing()
        });
    if let Some(bytes) = component {
        b = b.component_bytes(bytes);
    }
    b.build().expect("the component loads")
}

fn rank(h: &Harness, candidates: String) -> host_harness::Result<String> {
    let command = Command::Rank {
        mode: Mode::Manual,
        candidates,
        installed: Vec::new(),
        request: RankRequest {
            task: Some("extract-pdf-tables".into()),
            ..Default::default()
        },
    };
    h.run_text_owned(&MemoryStateStore::new(), &Ctx::at(NOW), command)
}

const N: usize = 20_000;
/// Between what the guest before the fix needed for [`N`] candidates and what it needs now.
const CAP: usize = 128 << 20;

#[test]
fn rank_of_many_candidates_fits_the_memory_cap() {
    let text = rank(&capped(CAP, None), candidates(N)).expect("rank fits the cap");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["ranked"].as_array().map(Vec::len), Some(N));
    assert_eq!(v["summary"]["ranked"], N);
}

/// The smallest cap (in 8 MiB steps) under which `rank` of `SR_RANK_N` (default [`N`]) candidates
/// completes, for the component in `SR_RANK_WASM` (default: the built one), trying caps from
/// `SR_RANK_FROM_MIB` (default 32) up in steps of `SR_RANK_STEP_MIB` (default 8). Run by hand:
/// `SR_RANK_WASM=old.wasm cargo test -p host-harness --release --test e2e memory_needed -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, run by hand"]
fn memory_needed_by_rank() {
    let n = std::env::var("SR_RANK_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(N);
    let wasm = std::env::var("SR_RANK_WASM")
        .ok()
        .map(|p| std::fs::read(p).expect("the wasm"));
    let from = std::env::var("SR_RANK_FROM_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(32);
    let step = std::env::var("SR_RANK_STEP_MIB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let text = candidates(n);
    for mib in (from..=512).step_by(step) {
        match rank(&capped(mib << 20, wasm.clone()), text.clone()) {
            Ok(_) => {
                println!(
                    "rank of {n} candidates ({} bytes) fits in {mib} MiB",
                    text.len()
                );
                return;
            }
            Err(e) => println!("{mib} MiB: {e}"),
        }
    }
    panic!("does not fit in 512 MiB");
}
