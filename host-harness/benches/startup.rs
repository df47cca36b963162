//! CLI cold start: a fresh `skill-recommender` process for `status` and for `recommend` on the sample
//! data, with the precompiled-component cache warm, cold (compiled and stored), and off (compiled in
//! memory), against a bare `python3 -c pass` start measured in the same run.
//!
//!     cargo bench -p host-harness --bench startup

use std::process::{Command, Stdio};

use criterion::{Criterion, criterion_group, criterion_main};

const BIN: &str = env!("CARGO_BIN_EXE_skill-recommender");

fn run(args: &[&str], cache: &std::path::Path) {
    let state = tempfile::tempdir().unwrap();
    let status = Command::new(BIN)
        .env("SKILL_RECOMMENDER_CACHE_DIR", cache)
        .env("HOME", state.path())
        .arg("--state-dir")
        .arg(state.path())
        .arg("--now")
        .arg("2026-11-29T02:00:00Z")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{args:?}");
}

fn startup(c: &mut Criterion) {
    let mut g = c.benchmark_group("startup");
    g.sample_size(20);
    if Command::new("python3")
        .args(["-c", "pass"])
        .status()
        .is_ok_and(|s| s.success())
    {
        g.bench_function("python3 -c pass", |b| {
            b.iter(|| {
                assert!(
                    Command::new("python3")
                        .args(["-c", "pass"])
                        .status()
                        .unwrap()
                        .success()
                )
            })
        });
    }
    let warm = tempfile::tempdir().unwrap();
    run(&["status"], warm.path());
    let recommend = [
        "recommend",
        "--mode",
        "manual",
        "--task",
        "把 PDF 表格转成 Excel",
        "--dry-run",
        "--no-discover",
    ];
    g.bench_function("status/warm-cache", |b| {
        b.iter(|| run(&["status"], warm.path()))
    });
    g.bench_function("recommend/warm-cache", |b| {
        b.iter(|| run(&recommend, warm.path()))
    });
    g.bench_function("status/cold-cache", |b| {
        b.iter(|| {
            let cold = tempfile::tempdir().unwrap();
            run(&["status"], cold.path())
        })
    });
    g.bench_function("recommend/cold-cache", |b| {
        b.iter(|| {
            let cold = tempfile::tempdir().unwrap();
            run(&recommend, cold.path())
        })
    });
    g.bench_function("status/no-cache", |b| {
        b.iter(|| run(&["--no-cache", "status"], warm.path()))
    });
    g.finish();
}

criterion_group!(benches, startup);
criterion_main!(benches);
