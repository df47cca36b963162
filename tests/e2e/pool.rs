//! The warm instance pool: a call never sees an earlier call's memory, pooled and unpooled harnesses
//! answer alike, and more concurrent calls than slots wait instead of failing.

use host_harness::pool::{self, InstancePool, PoolStatus};
use host_harness::{
    CacheMode, Command, Error, Harness, LimitKind, Limits, MemoryStateStore, Mode, NullStateStore,
    Recycle, Trust,
};
use wasmtime::{Config, Engine, Instance, Module, PoolingAllocationConfig, Store};

use crate::common::{NOW, cache_dir};
use crate::preinit::assert_same_answer;

/// A module whose memory starts as one page holding 42 at address 0 (a memory image, like the
/// pre-initialized snapshot). `probe` reports every trace of an earlier run it finds — bit 1: the
/// image byte changed, 2: a zero byte in the first page is not zero, 4: the memory is larger than
/// its initial page, 8: memory grown above the image is not zero — and then leaves such traces.
const PROBE: &str = r#"
(module
  (memory 1)
  (data (i32.const 0) "\2a")
  (func (export "probe") (result i32)
    (local $r i32)
    (if (i32.ne (i32.load8_u (i32.const 0)) (i32.const 42))
      (then (local.set $r (i32.or (local.get $r) (i32.const 1)))))
    (if (i32.ne (i32.load (i32.const 100)) (i32.const 0))
      (then (local.set $r (i32.or (local.get $r) (i32.const 2)))))
    (if (i32.ne (memory.size) (i32.const 1))
      (then (local.set $r (i32.or (local.get $r) (i32.const 4)))))
    (if (i32.eq (memory.size) (i32.const 1))
      (then (drop (memory.grow (i32.const 16)))))
    (if (i32.ne (i32.load (i32.const 655360)) (i32.const 0))
      (then (local.set $r (i32.or (local.get $r) (i32.const 8)))))
    (i32.store8 (i32.const 0) (i32.const 7))
    (i32.store (i32.const 100) (i32.const -1))
    (i32.store (i32.const 655360) (i32.const -1))
    (local.get $r)))
"#;

fn probe(store: &mut Store<()>, instance: &Instance) -> i32 {
    instance
        .get_typed_func::<(), i32>(&mut *store, "probe")
        .unwrap()
        .call(&mut *store, ())
        .unwrap()
}

#[test]
fn pooled_slots_start_clean() {
    // The harness's own pool configuration, one slot: every instance reuses the same memory.
    let mut config = Config::new();
    let pool = InstancePool {
        slots: 1,
        ..InstancePool::default()
    };
    let status = pool::configure(&mut config, Some(pool), 64 << 20);
    assert_eq!(
        status == PoolStatus::On(pool),
        PoolingAllocationConfig::is_pagemap_scan_available(),
        "{status:?}"
    );
    let engine = Engine::new(&config).unwrap();
    let module = Module::new(&engine, wat::parse_str(PROBE).unwrap()).unwrap();

    // The probe sees its own traces: reusing an instance is caught.
    let mut store = Store::new(&engine, ());
    let instance = Instance::new(&mut store, &module, &[]).unwrap();
    assert_eq!(probe(&mut store, &instance), 0);
    assert_eq!(probe(&mut store, &instance), 1 | 2 | 4 | 8);
    drop(store);

    // A new instance in the same slot starts from the image every time.
    for call in 0..20 {
        let mut store = Store::new(&engine, ());
        let instance = Instance::new(&mut store, &module, &[]).unwrap();
        assert_eq!(probe(&mut store, &instance), 0, "call {call}");
    }
}

fn build(pool: Option<InstancePool>) -> Harness {
    Harness::builder()
        .cache(CacheMode::Dir(cache_dir()))
        .limits(Limits::for_testing())
        .instance_pool(pool)
        .build()
        .expect("the component loads")
}

#[test]
fn pooled_and_unpooled_calls_agree() {
    let one_slot = Some(InstancePool {
        slots: 1,
        ..InstancePool::default()
    });
    let pooled = build(one_slot);
    let plain = build(None);
    assert_eq!(plain.instance_pool(), &PoolStatus::Off("disabled".into()));
    if PoolingAllocationConfig::is_pagemap_scan_available() {
        assert!(matches!(pooled.instance_pool(), PoolStatus::On(_)));
    }
    let ctx = host_harness::Ctx::at(NOW);
    let commands = crate::preinit::session();
    // Twice over, so every command also runs in a slot the others have dirtied.
    for round in 0..2 {
        for command in &commands {
            assert_same_answer(&plain, &pooled, &ctx, command, &format!("round {round}: "));
        }
    }
}

#[test]
fn more_concurrent_calls_than_slots_all_complete() {
    let h = build(Some(InstancePool {
        slots: 2,
        ..InstancePool::default()
    }));
    let sample = crate::common::real_sample_text();
    let command = Command::Filter {
        mode: Mode::Manual,
        candidates: sample,
        installed: Vec::new(),
        agent: Default::default(),
    };
    let ctx = host_harness::Ctx::at(NOW);
    let expected = h
        .run_text(&MemoryStateStore::new(), &ctx, &command)
        .unwrap();
    std::thread::scope(|s| {
        let threads: Vec<_> = (0..6)
            .map(|_| {
                s.spawn(|| {
                    (0..3)
                        .map(|_| h.run_text(&MemoryStateStore::new(), &ctx, &command))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for t in threads {
            for out in t.join().unwrap() {
                assert_eq!(out.unwrap(), expected);
            }
        }
    });
}

#[test]
fn the_memory_cap_holds_in_a_pooled_slot() {
    // The pool's slots are as large as the cap, no larger: growing past it is the usual limit error.
    let mut config = Config::new();
    let status = pool::configure(&mut config, Some(InstancePool::default()), 2 << 20);
    if !matches!(status, PoolStatus::On(_)) {
        return; // nothing pooled to check on this machine
    }
    let engine = Engine::new(&config).unwrap();
    let grower = r#"(module (memory 1) (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0))))"#;
    let module = Module::new(&engine, wat::parse_str(grower).unwrap()).unwrap();
    let mut store = Store::new(&engine, ());
    let instance = Instance::new(&mut store, &module, &[]).unwrap();
    let grow = instance
        .get_typed_func::<i32, i32>(&mut store, "grow")
        .unwrap();
    assert_eq!(grow.call(&mut store, 31).unwrap(), 1, "up to 2 MiB grows");
    assert_eq!(grow.call(&mut store, 1).unwrap(), -1, "past it does not");
}

/// Every bundle of the fixtures (the labeled corpus included), as `scan-bundle` commands.
fn fixture_scans() -> Vec<Command> {
    host_harness::catalog::skill_folders(&crate::common::root().join("tests/fixtures/skills"))
        .map(|job| Command::ScanBundle {
            bundle: host_harness::bundle::read_bundle(&job.path, &Default::default()).unwrap(),
            trust: Trust::Community,
            force: false,
        })
        .collect()
}

#[test]
fn worker_results_equal_fresh_instances() {
    // One worker over every fixture bundle, its instance replaced every 64 calls on the way: each
    // answer must be the one a fresh instance gives.
    let h = build(Some(InstancePool {
        slots: 2,
        ..InstancePool::default()
    }));
    let ctx = host_harness::Ctx::at(NOW);
    let scans = fixture_scans();
    let every = Recycle {
        max_calls: 64,
        ..Recycle::default()
    };
    assert!(
        scans.len() > 2 * every.max_calls as usize,
        "{}",
        scans.len()
    );
    let mut worker = h.worker_with(every);
    for command in &scans {
        let fresh = h.run_text(&NullStateStore, &ctx, command).unwrap();
        let reused = worker.run_text_owned(&ctx, command.clone()).unwrap();
        let Command::ScanBundle { bundle, .. } = command else {
            unreachable!()
        };
        assert_eq!(reused, fresh, "{}", bundle.name);
    }
    assert_eq!(
        worker.instances_started() as usize,
        scans.len().div_ceil(64),
        "replaced every 64 calls"
    );
}

#[test]
fn a_worker_keeps_its_memory_under_its_bound() {
    let h = build(Some(InstancePool {
        slots: 2,
        ..InstancePool::default()
    }));
    let ctx = host_harness::Ctx::at(NOW);
    let scans = fixture_scans();
    // A bound every instance is past at once: a fresh instance for every call, the same answers.
    let mut tight = h.worker_with(Recycle {
        max_memory_bytes: 1,
        max_calls: u32::MAX,
    });
    for (i, command) in scans.iter().take(4).enumerate() {
        let fresh = h.run_text(&NullStateStore, &ctx, command).unwrap();
        assert_eq!(tight.run_text_owned(&ctx, command.clone()).unwrap(), fresh);
        assert_eq!(tight.instances_started() as usize, i + 1);
    }
    // The default over the whole corpus: an instance grown past the bound is not used again, and
    // what the caches and the heap hold levels off, so one instance serves many bundles (the old
    // policy used one per 64).
    let bound = Recycle::default().max_memory_bytes;
    let mut worker = h.worker();
    let mut past = false;
    for command in &scans {
        let started = worker.instances_started();
        worker.run_text_owned(&ctx, command.clone()).unwrap();
        if past {
            assert_eq!(worker.instances_started(), started + 1, "replaced");
        }
        past = worker.memory_bytes().expect("kept after a success") > bound;
    }
    assert!(
        (worker.instances_started() as usize) < scans.len() / 64,
        "{} instances for {} bundles",
        worker.instances_started(),
        scans.len()
    );
}

#[test]
fn worker_errors_equal_fresh_instances_and_it_recovers() {
    // Too little fuel for a scan: the worker reports the limit a fresh instance reports, and the
    // next call (on an instance it had to replace) still answers.
    let starved = Harness::builder()
        .cache(CacheMode::Dir(cache_dir()))
        .limits(Limits {
            fuel: Some(1_000_000),
            ..Limits::for_testing()
        })
        .build()
        .unwrap();
    let ctx = host_harness::Ctx::at(NOW);
    let scans = fixture_scans();
    let big = scans
        .iter()
        .max_by_key(|c| match c {
            Command::ScanBundle { bundle, .. } => bundle.text_bytes(),
            _ => 0,
        })
        .unwrap();
    let fresh = starved.run_text(&NullStateStore, &ctx, big).unwrap_err();
    let mut worker = starved.worker();
    let reused = worker.run_text_owned(&ctx, big.clone()).unwrap_err();
    assert_eq!(reused.to_string(), fresh.to_string());
    assert!(
        matches!(reused, Error::Limit(LimitKind::Fuel)),
        "{reused:?}"
    );

    let h = build(None);
    let mut worker = h.worker();
    for command in scans.iter().take(3) {
        let fresh = h.run_text(&NullStateStore, &ctx, command).unwrap();
        assert_eq!(worker.run_text_owned(&ctx, command.clone()).unwrap(), fresh);
    }
}
