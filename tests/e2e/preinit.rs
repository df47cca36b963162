//! Pre-initialization: the snapshot taken after `initialize` answers exactly as the plain component,
//! keeps the contract (same imports and exports), is what the cache stores, and a component that
//! cannot be snapshotted is refused by the snapshotter with a reason, never half-used.

use std::fs;
use std::path::PathBuf;

use host_harness::bundle::{BundleLimits, read_bundle};
use host_harness::preinit::{self, INIT_FUEL, InitLimits, Preinit, SnapshotError};
use host_harness::{
    COMPONENT_WASM, CacheMode, CacheOutcome, Command, Ctx, Harness, Limits, MemoryStateStore, Mode,
    RankRequest, RecommendOptions, Trust,
};

use crate::common::{NOW, cached_in, root};

fn build(preinit: bool) -> Harness {
    Harness::builder()
        .cache(CacheMode::Disabled)
        .limits(Limits::for_testing())
        .preinitialize(preinit)
        .build()
        .expect("the component loads")
}

fn init_limits() -> InitLimits {
    InitLimits {
        max_memory_bytes: 256 << 20,
        fuel: INIT_FUEL,
    }
}

fn skill_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for kind in ["benign", "malicious"] {
        for e in fs::read_dir(root().join("tests/fixtures/skills").join(kind)).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            }
        }
    }
    dirs.sort();
    dirs
}

/// Every export that uses the built tables, on the sample data and every skill corpus bundle.
pub(crate) fn session() -> Vec<Command> {
    let sample = crate::common::real_sample_text();
    let mut commands = vec![
        Command::ScanCandidates {
            mode: Mode::Manual,
            candidates: sample.clone(),
        },
        Command::Rank {
            mode: Mode::Manual,
            candidates: sample.clone(),
            installed: Vec::new(),
            request: RankRequest {
                task: Some("把 PDF 表格转成 Excel".into()),
                signals: Vec::new(),
                ..Default::default()
            },
        },
        Command::Recommend {
            mode: Mode::Manual,
            candidates: sample,
            installed: Vec::new(),
            options: RecommendOptions {
                task: Some("summarize meeting notes".into()),
                dry_run: true,
                ..RecommendOptions::default()
            },
        },
    ];
    for dir in skill_dirs() {
        let bundle = read_bundle(&dir, &BundleLimits::default()).unwrap();
        commands.push(Command::Validate {
            bundle: bundle.clone(),
            strict: false,
            quality: true,
        });
        commands.push(Command::ScanBundle {
            bundle,
            trust: Trust::Community,
            force: false,
        });
    }
    commands
}

#[test]
fn the_snapshot_answers_exactly_as_the_plain_component() {
    let plain = build(false);
    let snap = build(true);
    assert_eq!(plain.preinit(), &Preinit::Off);
    assert_eq!(snap.preinit(), &Preinit::Snapshot);
    let ctx = host_harness::Ctx::at(NOW);
    let commands = session();
    assert!(commands.len() > 20, "the corpora are there");
    for command in &commands {
        assert_same_answer(&plain, &snap, &ctx, command, "");
    }
}

/// Both harnesses answer `command` with the same text, or fail with the same error.
pub(crate) fn assert_same_answer(
    a: &Harness,
    b: &Harness,
    ctx: &Ctx,
    command: &Command,
    why: &str,
) {
    let a = a.run_text(&MemoryStateStore::new(), ctx, command);
    let b = b.run_text(&MemoryStateStore::new(), ctx, command);
    assert_eq!(
        a.map_err(|e| e.to_string()),
        b.map_err(|e| e.to_string()),
        "{why}{command:?}"
    );
}

#[test]
fn the_snapshot_keeps_the_contract_and_carries_the_built_tables() {
    let plain = build(false);
    let snap = build(true);
    assert_eq!(plain.imports(), snap.imports(), "no import added");
    assert_eq!(plain.exports(), snap.exports(), "no export added or lost");
    assert!(snap.exports().iter().any(|e| e == preinit::INIT_EXPORT));
    // The tables live in the snapshot's data: megabytes of automata the plain file does not have.
    let bytes = preinit::snapshot(COMPONENT_WASM, init_limits()).unwrap();
    assert!(
        bytes.len() > COMPONENT_WASM.len() + (1 << 20),
        "snapshot {} bytes, plain {}",
        bytes.len(),
        COMPONENT_WASM.len()
    );
}

#[test]
fn the_cache_stores_the_snapshot_and_a_hit_takes_none() {
    let dir = tempfile::tempdir().unwrap();
    let build = || cached_in(dir.path());
    let first = build();
    assert_eq!(
        first.preinit(),
        &Preinit::Snapshot,
        "on by default with a cache"
    );
    let CacheOutcome::Miss {
        path,
        written: true,
    } = first.cache_outcome()
    else {
        panic!(
            "expected a miss that writes, got {:?}",
            first.cache_outcome()
        );
    };
    assert!(path.to_string_lossy().ends_with("-init.cwasm"), "{path:?}");
    let second = build();
    assert!(second.cache_outcome().is_hit());
    assert_eq!(second.preinit(), &Preinit::Snapshot);
    // Without a cache the default is off: one process would spend more on the snapshot than it saves.
    let uncached = Harness::builder()
        .cache(CacheMode::Disabled)
        .limits(Limits::for_testing())
        .build()
        .unwrap();
    assert_eq!(uncached.preinit(), &Preinit::Off);
}

/// A component exporting `initialize` (a core function) next to the contract's interfaces.
fn wat_component(init_body: &str, with_init: bool) -> Vec<u8> {
    let export = if with_init {
        r#"(export "initialize" (func $init))"#
    } else {
        ""
    };
    wat::parse_str(format!(
        r#"(component
             (core module $m
               (memory (export "memory") 1)
               (global $g (mut i32) (i32.const 0))
               (func (export "init") {init_body}))
             (core instance $i (instantiate $m))
             (func $init (canon lift (core func $i "init")))
             {export}
             (instance $l)
             (export "skill-recommender:core/lifecycle@0.1.0" (instance $l)))"#
    ))
    .unwrap()
}

#[test]
fn components_that_cannot_be_snapshotted_are_named_not_half_used() {
    // No `initialize`: an earlier revision of the contract; the harness runs it as it is.
    assert_eq!(
        preinit::snapshot(&wat_component("", false), init_limits()),
        Err(SnapshotError::Unsupported)
    );
    // A trapping `initialize`.
    let err = preinit::snapshot(&wat_component("unreachable", true), init_limits()).unwrap_err();
    assert!(
        matches!(&err, SnapshotError::Failed(m) if m.contains("trapped")),
        "{err:?}"
    );
    // An `initialize` that never returns stops at its fuel instead of hanging the host.
    let err = preinit::snapshot(
        &wat_component("(loop $l (br $l))", true),
        InitLimits {
            max_memory_bytes: 1 << 20,
            fuel: 1_000_000,
        },
    )
    .unwrap_err();
    assert!(
        matches!(&err, SnapshotError::Failed(m) if m.contains("fuel")),
        "{err:?}"
    );
    // An `initialize` that sets a global and returns snapshots fine (the global is baked in).
    assert!(
        preinit::snapshot(
            &wat_component("i32.const 7 global.set $g", true),
            init_limits()
        )
        .is_ok()
    );
    // Not a component at all.
    assert!(matches!(
        preinit::snapshot(b"\0asm garbage", init_limits()),
        Err(SnapshotError::Failed(_))
    ));
}
