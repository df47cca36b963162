//! The sandbox: the exact import list, limits, rollback, cache integrity, contract version.

use std::fs;

use host_harness::{
    CacheMode, CacheOutcome, Command, Ctx, Error, FeedbackAction, FileStateStore, Harness,
    LimitKind, Limits, MemoryStateStore, PromptSource, SkillRef, StateStore, StoreError,
};

use crate::common::{NOW, cached_in, harness, hostile};

/// What the component may import: Rust std's wasi:io and wasi:cli, and our own interfaces.
const EXPECTED_IMPORTS: &[&str] = &[
    "skill-recommender:core/host-env@0.1.0",
    "skill-recommender:core/state-store@0.1.0",
    "skill-recommender:core/types@0.1.0",
    "wasi:cli/environment@0.2.6",
    "wasi:cli/exit@0.2.6",
    "wasi:cli/stderr@0.2.6",
    "wasi:cli/stdin@0.2.6",
    "wasi:cli/stdout@0.2.6",
    "wasi:cli/terminal-input@0.2.6",
    "wasi:cli/terminal-output@0.2.6",
    "wasi:cli/terminal-stderr@0.2.6",
    "wasi:cli/terminal-stdin@0.2.6",
    "wasi:cli/terminal-stdout@0.2.6",
    "wasi:io/error@0.2.6",
    "wasi:io/poll@0.2.6",
    "wasi:io/streams@0.2.6",
];

#[test]
fn import_list_is_exactly_std_the_state_store_and_host_env() {
    let mut imports = harness().imports().to_vec();
    imports.sort();
    assert_eq!(
        imports, EXPECTED_IMPORTS,
        "the component's imports changed: review the sandbox"
    );
    for forbidden in [
        "wasi:filesystem",
        "wasi:sockets",
        "wasi:http",
        "wasi:clocks",
        "wasi:random",
    ] {
        assert!(
            !imports.iter().any(|i| i.starts_with(forbidden)),
            "{forbidden} imported"
        );
    }
    let mut exports = harness().exports().to_vec();
    exports.sort();
    assert_eq!(
        exports,
        [
            "initialize",
            "skill-recommender:core/filter@0.1.0",
            "skill-recommender:core/lifecycle@0.1.0",
            "skill-recommender:core/rank@0.1.0",
            "skill-recommender:core/recommend@0.1.0",
            "skill-recommender:core/render@0.1.0",
            "skill-recommender:core/scan@0.1.0"
        ]
    );
}

fn ctx() -> Ctx {
    Ctx::at(NOW)
}

/// A file store holding known content, to check it is left byte-for-byte as it was.
fn seeded_store() -> (tempfile::TempDir, FileStateStore) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("state.json"),
        "{\"daily_rec_status\": \"enabled\"}\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("history.json"),
        "{\"recommendations\": []}\n",
    )
    .unwrap();
    let store = FileStateStore::new(dir.path()).with_max_document_bytes(1 << 20);
    (dir, store)
}

fn assert_untouched(dir: &tempfile::TempDir) {
    assert_eq!(
        fs::read_to_string(dir.path().join("state.json")).unwrap(),
        "{\"daily_rec_status\": \"enabled\"}\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("history.json")).unwrap(),
        "{\"recommendations\": []}\n"
    );
}

#[test]
fn runaway_guest_is_stopped_by_fuel_and_writes_nothing() {
    let limits = Limits {
        fuel: Some(50_000_000),
        deadline: None,
        ..Limits::for_testing()
    };
    let h = hostile(limits);
    let (dir, store) = seeded_store();
    let err = h.run(&store, &ctx(), &Command::Status).unwrap_err();
    assert!(matches!(err, Error::Limit(LimitKind::Fuel)), "{err:?}");
    assert_eq!(err.exit_code(), 5);
    assert_untouched(&dir);
}

#[test]
fn runaway_guest_is_stopped_by_the_deadline() {
    let limits = Limits {
        fuel: None,
        deadline: Some(std::time::Duration::from_millis(200)),
        ..Limits::for_testing()
    };
    let h = hostile(limits);
    let (dir, store) = seeded_store();
    let err = h.run(&store, &ctx(), &Command::Status).unwrap_err();
    assert!(matches!(err, Error::Limit(LimitKind::Deadline)), "{err:?}");
    assert_untouched(&dir);
}

#[test]
fn memory_hog_hits_the_memory_cap_cleanly() {
    let limits = Limits {
        max_memory_bytes: 32 << 20,
        ..Limits::for_testing()
    };
    let h = hostile(limits);
    let (dir, store) = seeded_store();
    let err = h
        .run(
            &store,
            &ctx(),
            &Command::PromptDaily {
                source: PromptSource::Manual,
            },
        )
        .unwrap_err();
    assert!(matches!(err, Error::Limit(LimitKind::Memory)), "{err:?}");
    assert_untouched(&dir);
}

#[test]
fn rollback_when_the_guest_traps_after_saving() {
    let h = hostile(Limits::for_testing());
    let (dir, store) = seeded_store();
    let err = h
        .run(
            &store,
            &ctx(),
            &Command::EnableDaily {
                scheduler_available: false,
            },
        )
        .unwrap_err();
    match &err {
        Error::Trap { guest_stderr, .. } => {
            assert!(guest_stderr.contains("deliberate trap"), "{guest_stderr}")
        }
        other => panic!("expected a trap, got {other:?}"),
    }
    assert_untouched(&dir);
}

#[test]
fn rollback_when_the_guest_returns_an_error_after_saving() {
    let h = hostile(Limits::for_testing());
    let (dir, store) = seeded_store();
    let err = h.run(&store, &ctx(), &Command::DisableDaily).unwrap_err();
    assert!(matches!(err, Error::InvalidInput { .. }), "{err:?}");
    assert_untouched(&dir);
}

#[test]
fn commit_when_the_guest_returns_ok() {
    // The positive control for the rollback tests: the same saves do land when the call succeeds.
    let h = hostile(Limits::for_testing());
    let (dir, store) = seeded_store();
    let out = h
        .run(&store, &ctx(), &Command::ConfirmDailyEnabled)
        .unwrap();
    assert_eq!(out["committed"], true);
    assert_eq!(
        fs::read_to_string(dir.path().join("state.json")).unwrap(),
        "{\"hostile\": true}"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("history.json")).unwrap(),
        "{\"hostile\": true}"
    );
}

#[test]
fn an_oversized_staged_document_is_refused() {
    // Enough memory for the guest to build its 20 MiB document, so the host's cap is what refuses it.
    let h = hostile(Limits {
        max_memory_bytes: 256 << 20,
        ..Limits::for_testing()
    });
    let (dir, store) = seeded_store();
    let skill = SkillRef {
        skill_id: "x".into(),
        ..Default::default()
    };
    let err = h
        .run(
            &store,
            &ctx(),
            &Command::Feedback {
                action: FeedbackAction::Shown,
                skill,
            },
        )
        .unwrap_err();
    assert!(
        matches!(err, Error::Store(StoreError::StagedTooLarge { .. })),
        "{err:?}"
    );
    assert_untouched(&dir);
}

#[test]
fn the_guest_reads_exactly_what_the_store_holds() {
    let h = hostile(Limits::for_testing());
    let store = MemoryStateStore::with(Some("{\"a\": \"状态\"}"), None);
    let out = h.run(&store, &ctx(), &Command::UnsupportedDaily).unwrap();
    assert_eq!(out["state"], "{\"a\": \"状态\"}");
    assert_eq!(out["history"], "");
}

#[test]
fn an_oversized_state_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("state.json"),
        format!("{{\"pad\": \"{}\"}}", "x".repeat(2048)),
    )
    .unwrap();
    let store = FileStateStore::new(dir.path()).with_max_document_bytes(1024);
    let err = harness().run(&store, &ctx(), &Command::Status).unwrap_err();
    assert!(
        matches!(err, Error::Store(StoreError::TooLarge { .. })),
        "{err:?}"
    );
    assert!(err.to_string().contains("state.json"), "{err}");
    assert_eq!(err.exit_code(), 4);
}

#[test]
fn corrupt_or_stale_cache_files_are_rebuilt_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let build = || cached_in(dir.path());
    let first = build();
    let path = match first.cache_outcome() {
        CacheOutcome::Miss {
            path,
            written: true,
        } => path.clone(),
        other => panic!("expected a miss that writes, got {other:?}"),
    };
    assert!(build().cache_outcome().is_hit());
    // Flip one byte of the payload: the checksum catches it.
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    fs::write(&path, &bytes).unwrap();
    let h = build();
    assert!(
        matches!(h.cache_outcome(), CacheOutcome::Rebuilt { reason, .. } if reason.contains("checksum"))
    );
    let store = MemoryStateStore::new();
    h.run(&store, &ctx(), &Command::Status)
        .expect("a rebuilt component works");
    // Truncated file.
    fs::write(&path, &bytes[..100]).unwrap();
    assert!(matches!(
        build().cache_outcome(),
        CacheOutcome::Rebuilt { .. }
    ));
    // Garbage with a valid checksum (e.g. written by another tool): wasmtime rejects it, we rebuild.
    let payload = b"not a precompiled component";
    let mut forged = b"SRCWASM1".to_vec();
    use sha2::Digest;
    forged.extend_from_slice(&sha2::Sha256::digest(payload));
    forged.extend_from_slice(payload);
    fs::write(&path, forged).unwrap();
    assert!(
        matches!(build().cache_outcome(), CacheOutcome::Rebuilt { reason, .. } if reason.contains("wasmtime"))
    );
    assert!(
        build().cache_outcome().is_hit(),
        "the rebuilt file is used next time"
    );
}

#[test]
fn an_unwritable_cache_dir_still_works() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    fs::write(&file, "").unwrap();
    let h = Harness::builder()
        .cache(CacheMode::Dir(file))
        .limits(Limits::for_testing())
        .build()
        .unwrap();
    assert!(matches!(
        h.cache_outcome(),
        CacheOutcome::Miss { written: false, .. }
    ));
    h.run(&MemoryStateStore::new(), &ctx(), &Command::Status)
        .unwrap();
}

fn build_wat(text: &str) -> Result<Harness, Error> {
    Harness::builder()
        .component_bytes(wat::parse_str(text).unwrap())
        .cache(CacheMode::Disabled)
        .limits(Limits::for_testing())
        .build()
}

#[test]
fn wrong_contract_version_is_refused_naming_both() {
    let err = build_wat(r#"(component (instance $i) (export "skill-recommender:core/lifecycle@9.9.9" (instance $i)))"#)
        .err()
        .unwrap();
    let msg = err.to_string();
    assert!(msg.contains("@9.9.9") && msg.contains("@0.1.0"), "{msg}");
    let err = build_wat("(component)").err().unwrap();
    assert!(
        err.to_string()
            .contains("not a skill-recommender component"),
        "{err}"
    );
}

#[test]
fn a_component_importing_the_filesystem_cannot_be_instantiated() {
    let err = build_wat(
        r#"(component
             (import "wasi:filesystem/preopens@0.2.6" (instance (export "get-directories" (func))))
             (instance $i)
             (export "skill-recommender:core/lifecycle@0.1.0" (instance $i)))"#,
    )
    .err()
    .unwrap();
    assert!(
        err.to_string().contains("wasi:filesystem/preopens"),
        "{err}"
    );
}

#[test]
fn harness_is_reusable_across_threads() {
    let store = MemoryStateStore::new();
    std::thread::scope(|s| {
        for i in 0..4 {
            let store = &store;
            s.spawn(move || {
                for j in 0..10 {
                    let skill = SkillRef {
                        skill_id: format!("t{i}-{j}"),
                        ..Default::default()
                    };
                    harness()
                        .run(
                            store,
                            &ctx(),
                            &Command::Feedback {
                                action: FeedbackAction::Shown,
                                skill,
                            },
                        )
                        .unwrap();
                }
            });
        }
    });
    let out = harness().run(&store, &ctx(), &Command::Status).unwrap();
    assert_eq!(
        out["counts"]["history"], 40,
        "the in-memory store's sessions are exclusive too"
    );
    assert!(store.location(host_harness::Document::State).is_none());
}
