//! Per-call cost of filter, scan, rank and recommend: the component through the harness (wasm)
//! versus the same guest code compiled natively, at 25, 1,000 and 100,000 candidates; and bundle
//! scanning throughput at 1, 10 and 50 MB. Both sides end with the JSON text the export returns
//! (`Harness::run_text`; natively, the value serialized). Ratios come from one run (BENCHMARKS.md).
//!
//!     cargo bench -p host-harness --bench pipeline
//!     BENCH_SIZES=25,1000 cargo bench -p host-harness --bench pipeline   # skip the slow 100k

mod common;

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use guest::filter::Mode;
use guest::{Ctx, Lang, MemoryStore};
use host_harness::{
    CacheMode, Command, Harness, Limits, MemoryStateStore, RankRequest, RecommendOptions,
};

fn sizes() -> Vec<usize> {
    std::env::var("BENCH_SIZES")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![25, 1_000, 100_000])
}

fn ctx() -> Ctx {
    Ctx {
        now: "2026-11-29T02:00:00Z".into(),
        host_timezone: Some("Asia/Shanghai".into()),
        lang: Lang::En,
        lang_explicit: true,
    }
}

fn harness() -> Harness {
    // No deadline: a benchmark measures, it does not police.
    let limits = Limits {
        deadline: None,
        ..Limits::default()
    };
    Harness::builder()
        .cache(CacheMode::from_env())
        .limits(limits)
        .build()
        .expect("the component loads")
}

const TASK: &str = "extract tables from PDF invoices";

fn options() -> RecommendOptions {
    RecommendOptions {
        task: Some(TASK.into()),
        dry_run: true,
        ..RecommendOptions::default()
    }
}

fn commands(candidates: &str) -> Vec<(&'static str, Command)> {
    vec![
        (
            "filter",
            Command::Filter {
                mode: Mode::Manual,
                candidates: candidates.to_owned(),
                installed: Vec::new(),
                agent: Default::default(),
            },
        ),
        (
            "scan",
            Command::ScanCandidates {
                mode: Mode::Manual,
                candidates: candidates.to_owned(),
            },
        ),
        (
            "rank",
            Command::Rank {
                mode: Mode::Manual,
                candidates: candidates.to_owned(),
                installed: Vec::new(),
                request: RankRequest {
                    task: Some(TASK.into()),
                    signals: Vec::new(),
                    ..Default::default()
                },
            },
        ),
        (
            "recommend",
            Command::Recommend {
                mode: Mode::Manual,
                candidates: candidates.to_owned(),
                installed: Vec::new(),
                options: options(),
            },
        ),
    ]
}

/// The same work, natively, ending as the component's exports end: with the JSON text.
fn native(command: &Command) -> String {
    native_value(command).to_string()
}

/// The native call's JSON value.
fn native_value(command: &Command) -> serde_json::Value {
    let mut store = MemoryStore::new();
    let c = ctx();
    match command {
        Command::Filter {
            mode,
            candidates,
            installed,
            agent,
        } => guest::filter::run_for(&c, &mut store, *mode, candidates, installed, agent),
        Command::ScanCandidates { mode, candidates } => guest::model::parse_candidates(candidates)
            .map(|i| guest::scan::scan_candidates(i, *mode)),
        Command::Rank {
            mode,
            candidates,
            installed,
            request,
        } => guest::rank::run(&c, &mut store, *mode, candidates, installed, request),
        Command::Recommend {
            mode,
            candidates,
            installed,
            options,
        } => guest::recommend::run(&c, &mut store, *mode, candidates, installed, options),
        Command::ScanBundle {
            bundle,
            trust,
            force,
        } => Ok(guest::quality::scan_bundle_report(bundle, *trust, *force)),
        _ => unreachable!("not benchmarked"),
    }
    .expect("the native call succeeds")
}

/// The two builds must agree before their speed is compared.
fn assert_agree(h: &Harness, command: &Command, what: &str) {
    let wasm = h
        .run(&MemoryStateStore::new(), &ctx(), command)
        .expect("wasm call");
    assert_eq!(
        wasm,
        native_value(command),
        "{what}: wasm and native differ"
    );
}

fn pipeline(c: &mut Criterion) {
    let h = harness();
    for n in sizes() {
        let candidates = common::candidates(n);
        let mut group = c.benchmark_group(format!("pipeline/{n}"));
        group.throughput(Throughput::Elements(n as u64));
        if n >= 100_000 {
            group.sample_size(10);
            group.measurement_time(Duration::from_secs(20));
        } else if n >= 1_000 {
            group.sample_size(20);
        }
        for (name, command) in commands(&candidates) {
            assert_agree(&h, &command, &format!("{name} at {n}"));
            group.bench_function(BenchmarkId::new(name, "wasm"), |b| {
                b.iter(|| {
                    h.run_text(&MemoryStateStore::new(), &ctx(), &command)
                        .unwrap()
                })
            });
            group.bench_function(BenchmarkId::new(name, "native"), |b| {
                b.iter(|| native(&command))
            });
        }
        group.finish();
    }
}

fn bundle_scan(c: &mut Criterion) {
    let h = harness();
    let mut group = c.benchmark_group("bundle_scan");
    group.sample_size(10);
    for mb in [1usize, 10, 50] {
        let bundle = common::bundle(mb << 20);
        group.throughput(Throughput::Bytes(bundle.text_bytes() as u64));
        let command = Command::ScanBundle {
            bundle,
            trust: guest::scan::Trust::Community,
            force: false,
        };
        assert_agree(&h, &command, &format!("bundle scan at {mb} MB"));
        // The CLI moves the bundle it read into the call (`run_text_owned`); the copy that gives each
        // iteration its own command is set-up, not timed.
        group.bench_function(BenchmarkId::new(format!("{mb}MB"), "wasm"), |b| {
            b.iter_batched(
                || command.clone(),
                |command| {
                    h.run_text_owned(&MemoryStateStore::new(), &ctx(), command)
                        .unwrap()
                },
                criterion::BatchSize::PerIteration,
            )
        });
        group.bench_function(BenchmarkId::new(format!("{mb}MB"), "native"), |b| {
            b.iter(|| native(&command))
        });
    }
    group.finish();
}

criterion_group!(benches, pipeline, bundle_scan);
criterion_main!(benches);
