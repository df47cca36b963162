//! The precompiled component embedded at build time: used for the default limits (nothing compiled,
//! whatever the cache situation), answering exactly as a component compiled at run time; refused by
//! wasmtime when it does not fit, and then compiled around with a one-line note, never used wrongly.

use std::fs;

use host_harness::harness::mirror::Mirror;
use host_harness::precompiled::{self, Embedded};
use host_harness::preinit::Preinit;
use host_harness::{COMPONENT_WASM, CacheMode, CacheOutcome, Harness, Limits, PRECOMPILED};

use crate::common::{NOW, cli_env, json};
use crate::preinit::{assert_same_answer, session};

fn default_limits(cache: CacheMode) -> Harness {
    Harness::builder()
        .cache(cache)
        .instance_pool(None)
        .build()
        .expect("the component loads")
}

/// A harness that compiles the plain component at run time, with the default limits' engine.
fn compiled_at_run_time() -> Harness {
    Harness::builder()
        .component_bytes(COMPONENT_WASM.to_vec())
        .cache(CacheMode::Disabled)
        .preinitialize(true)
        .instance_pool(None)
        .build()
        .expect("the component compiles")
}

#[test]
fn the_default_limits_load_the_embedded_artifact_and_compile_nothing() {
    assert!(!PRECOMPILED.is_empty(), "this build embeds an artifact");
    for cache in [
        CacheMode::Disabled,
        CacheMode::Dir(tempfile::tempdir().unwrap().keep()),
    ] {
        let h = default_limits(cache.clone());
        assert_eq!(h.embedded(), &Embedded::Used, "{cache:?}");
        assert_eq!(h.cache_outcome(), &CacheOutcome::Embedded);
        assert!(!h.cache_outcome().compiled());
        assert_eq!(h.preinit(), &Preinit::Snapshot);
        if let CacheMode::Dir(d) = cache {
            // The only file written is the artifact's copy, which the next start maps.
            assert_eq!(only_file(&d), mirror_name());
            let Mirror::Mapped(path) = h.mirror() else {
                panic!("mapped from the cache directory: {:?}", h.mirror());
            };
            assert_eq!(fs::read(path).unwrap(), PRECOMPILED, "an exact copy");
            let again = default_limits(CacheMode::Dir(d.clone()));
            assert_eq!(again.mirror(), h.mirror());
            assert_eq!(only_file(&d), mirror_name());
        } else {
            assert!(
                matches!(h.mirror(), Mirror::Anonymous(why) if why.contains("no cache directory")),
                "{:?}",
                h.mirror()
            );
        }
    }
    // With the warm instance pool too (a long-lived server's harness).
    let pooled = Harness::builder()
        .cache(CacheMode::Disabled)
        .build()
        .unwrap();
    assert_eq!(pooled.embedded(), &Embedded::Used);
}

#[test]
fn the_embedded_artifact_answers_as_a_run_time_compile_does() {
    let cache = tempfile::tempdir().unwrap();
    // Mapped from an anonymous file, and from the cache directory's copy (written, then mapped).
    let anonymous = default_limits(CacheMode::Disabled);
    let _writes = default_limits(CacheMode::Dir(cache.path().into()));
    let mapped = default_limits(CacheMode::Dir(cache.path().into()));
    assert!(matches!(mapped.mirror(), Mirror::Mapped(_)));
    let compiled = compiled_at_run_time();
    assert!(compiled.cache_outcome().compiled());
    let ctx = host_harness::Ctx::at(NOW);
    for embedded in [&anonymous, &mapped] {
        for command in &session() {
            assert_same_answer(embedded, &compiled, &ctx, command, "embedded vs compiled: ");
        }
        assert_eq!(embedded.imports(), compiled.imports());
        assert_eq!(embedded.exports(), compiled.exports());
    }
}

/// The artifact's copy in the cache directory is mapped only when it is this user's private,
/// complete file that wasmtime accepts; anything else is replaced by a fresh copy, never used.
#[cfg(target_os = "linux")]
#[test]
fn an_unfit_copy_of_the_artifact_is_replaced_not_used() {
    use std::os::unix::fs::PermissionsExt;
    let ctx = host_harness::Ctx::at(NOW);
    let reference = default_limits(CacheMode::Disabled);
    let half = PRECOMPILED.len() / 2;
    let mut garbage = PRECOMPILED.to_vec();
    // Same length, but the header is not an artifact's: wasmtime refuses it.
    garbage[..64].fill(0x5a);
    for (what, bytes, mode) in [
        ("truncated", PRECOMPILED[..half].to_vec(), 0o600),
        ("not an artifact", garbage, 0o600),
        ("writable by others", PRECOMPILED.to_vec(), 0o666),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(mirror_name());
        fs::write(&path, &bytes).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        let h = default_limits(CacheMode::Dir(dir.path().into()));
        assert_eq!(h.mirror(), &Mirror::Mapped(path.clone()), "{what}");
        assert_eq!(fs::read(&path).unwrap(), PRECOMPILED, "{what}: rewritten");
        let mode = fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{what}: private again ({mode:o})");
        assert_eq!(only_file(dir.path()), mirror_name(), "{what}");
        for command in session().iter().take(4) {
            assert_same_answer(&reference, &h, &ctx, command, &format!("{what}: "));
        }
    }
}

/// The file name of the embedded artifact's copy in a cache directory.
fn mirror_name() -> String {
    format!(
        "embedded-{}.cwasm",
        host_harness::harness::mirror::EMBEDDED_ID
    )
}

/// The one file in `dir` (fails when there are others).
fn only_file(dir: &std::path::Path) -> String {
    let names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    names.into_iter().next().unwrap()
}

#[test]
fn other_limits_or_components_do_not_use_it() {
    let fuel = Harness::builder()
        .cache(CacheMode::Disabled)
        .limits(Limits::for_testing())
        .build()
        .unwrap();
    assert!(matches!(fuel.embedded(), Embedded::Unused(why) if why.contains("fuel")));
    assert!(fuel.embedded().note().is_none(), "nothing to tell the user");
    assert!(!precompiled::fits(&Limits::for_testing()));
    assert!(precompiled::fits(&Limits::default()));
    let other = compiled_at_run_time();
    assert!(matches!(other.embedded(), Embedded::Unused(_)));
    let none = Harness::builder()
        .cache(CacheMode::Disabled)
        .precompiled(Vec::new())
        .build()
        .unwrap();
    assert!(matches!(none.embedded(), Embedded::Unused(why) if why.contains("embeds none")));
}

#[test]
fn a_mismatched_artifact_is_refused_and_compiled_around() {
    // Compiled for another engine configuration (fuel metering): wasmtime's own check refuses it.
    let fuel_engine =
        wasmtime::Engine::new(&precompiled::engine_config(&Limits::for_testing())).unwrap();
    let mismatched = fuel_engine.precompile_component(COMPONENT_WASM).unwrap();
    // Not an artifact at all (truncated, or from another tool).
    let truncated = PRECOMPILED[..PRECOMPILED.len() / 2].to_vec();
    let ctx = host_harness::Ctx::at(NOW);
    let reference = default_limits(CacheMode::Disabled);
    for (what, artifact) in [
        ("fuel", mismatched),
        ("truncated", truncated),
        ("garbage", b"\x7fELF nonsense".to_vec()),
    ] {
        let cache = tempfile::tempdir().unwrap();
        let h = Harness::builder()
            .cache(CacheMode::Dir(cache.path().into()))
            .instance_pool(None)
            .precompiled(artifact)
            .build()
            .unwrap_or_else(|e| panic!("{what}: falls back instead of failing: {e}"));
        let Embedded::Rejected(why) = h.embedded() else {
            panic!("{what}: expected a rejection, got {:?}", h.embedded());
        };
        assert!(!why.is_empty());
        let note = h.embedded().note().unwrap();
        assert!(
            !note.contains('\n') && note.contains("compiling it instead"),
            "{note}"
        );
        assert!(
            h.cache_outcome().compiled(),
            "{what}: {:?}",
            h.cache_outcome()
        );
        assert_eq!(
            h.preinit(),
            &Preinit::Snapshot,
            "the fallback caches a snapshot"
        );
        for command in session().iter().take(6) {
            assert_same_answer(&reference, &h, &ctx, command, &format!("{what}: "));
        }
        // The fallback's cache file serves the next start.
        let again = Harness::builder()
            .cache(CacheMode::Dir(cache.path().into()))
            .instance_pool(None)
            .precompiled(b"still wrong".to_vec())
            .build()
            .unwrap();
        assert!(
            again.cache_outcome().is_hit(),
            "{what}: {:?}",
            again.cache_outcome()
        );
    }
}

/// `status` through the CLI with HOME as given and no cache override.
fn status_in(home: &std::path::Path, extra: &[&str]) -> serde_json::Value {
    let state = tempfile::tempdir().unwrap();
    let mut args = vec!["--state-dir", state.path().to_str().unwrap()];
    args.extend_from_slice(extra);
    // --verbose: the short status leaves out the host's paths.
    args.extend(["status", "--verbose"]);
    let out = cli_env(home, &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("compiling"),
        "no note: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)
}

#[test]
fn first_runs_compile_nothing_with_an_empty_read_only_or_no_cache() {
    // --no-cache: nothing is written anywhere; on Linux the artifact is mapped from an anonymous file.
    let home = tempfile::tempdir().unwrap();
    let v = status_in(home.path(), &["--no-cache"]);
    assert_eq!(v["paths"]["cache"]["outcome"], "embedded", "{v:#}");
    assert_eq!(v["paths"]["cache"]["embedded"], "used");
    #[cfg(target_os = "linux")]
    assert_eq!(
        v["paths"]["cache"]["mapped"]["state"],
        "anonymous: no cache directory"
    );
    assert_eq!(fs::read_dir(home.path()).unwrap().count(), 0);
    // A read-only home (unless this runs as root, who may write anyway): the same.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(home.path(), fs::Permissions::from_mode(0o555)).unwrap();
        let v = status_in(home.path(), &[]);
        fs::set_permissions(home.path(), fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(v["paths"]["cache"]["outcome"], "embedded");
        assert_eq!(v["paths"]["cache"]["preinit"], "snapshot");
        let _ = fs::remove_dir_all(home.path().join(".cache"));
    }
    // An empty home (a new machine, CI, a container): the only file written is the artifact's copy in
    // the cache directory, which this and later runs map.
    let v = status_in(home.path(), &[]);
    assert_eq!(v["paths"]["cache"]["outcome"], "embedded", "{v:#}");
    assert_eq!(v["paths"]["cache"]["preinit"], "snapshot");
    let cache = home.path().join(".cache").join("skill-recommender");
    #[cfg(target_os = "linux")]
    {
        assert_eq!(v["paths"]["cache"]["mapped"]["state"], "mapped");
        assert_eq!(
            v["paths"]["cache"]["mapped"]["file"],
            cache.join(mirror_name()).to_str().unwrap()
        );
        assert_eq!(only_file(&cache), mirror_name());
        let again = status_in(home.path(), &[]);
        assert_eq!(
            again["paths"]["cache"]["mapped"],
            v["paths"]["cache"]["mapped"]
        );
    }
    assert_eq!(only_file(home.path()), ".cache");
}
