//! Builds the guest component (and the hostile test fixture) for wasm32-wasip2 with a separate cargo
//! invocation and target directory, and tells host-harness's build script where they are:
//! `cargo:wasm=…` and `cargo:hostile=…` become `DEP_SKILL_RECOMMENDER_GUEST_WASM` and
//! `DEP_SKILL_RECOMMENDER_GUEST_HOSTILE` there.
//!
//! The wasm target is added with rustup when missing (rust-toolchain.toml's `targets` is not installed
//! when `RUSTUP_AUTO_INSTALL=0`); if that is impossible the build stops with the exact command to run.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-wasip2";
const PROFILE: &str = "wasm-release";

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest
        .parent()
        .and_then(Path::parent)
        .expect("host-harness/guest-wasm is two levels below the workspace root")
        .to_path_buf();
    for p in [
        "guest/src",
        "guest/rules",
        "guest/Cargo.toml",
        "wit",
        "Cargo.lock",
        "Cargo.toml",
        "tests/fixtures/hostile-guest",
        "data/state.json",
        "data/history.json",
        "data/complement_pairs.json",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(p).display());
    }

    ensure_target();
    let target_dir = env::var_os("SKILL_RECOMMENDER_GUEST_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target").join("guest-wasm"));
    println!("cargo:rerun-if-env-changed=SKILL_RECOMMENDER_GUEST_TARGET_DIR");
    // The guest's library is an rlib in its Cargo.toml (natively it is linked into the host, its
    // tests and benchmarks); the component is the same library as a cdylib, asked for here. A
    // `cdylib` crate type in Cargo.toml would give every native build of the guest an output name
    // without cargo's hash, and two builds of it with different dependency features (the host's
    // build-dependency and a test build with dev-dependencies) would overwrite each other's rlib.
    cargo_in(
        &root,
        &target_dir,
        &["rustc", "-p", "guest", "--lib", "--crate-type", "cdylib"],
    );
    cargo_in(&root, &target_dir, &["build", "-p", "hostile-guest"]);
    let dir = target_dir.join(TARGET).join(PROFILE);
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").unwrap());
    for (file, key) in [("guest.wasm", "wasm"), ("hostile_guest.wasm", "hostile")] {
        let from = dir.join(file);
        let to = out_dir.join(file);
        std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("copying {}: {e}", from.display()));
        println!("cargo:{key}={}", to.display());
    }
    // Where the guest's own target directory is: host-harness leaves the pre-initialized component
    // there for the Python host's package.
    println!("cargo:target_dir={}", target_dir.display());
}

/// Run cargo for the guest target and profile in `target_dir` (the outer build's settings removed).
fn cargo_in(root: &Path, target_dir: &Path, args: &[&str]) {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .args(args)
        .args(["--target", TARGET, "--profile", PROFILE])
        .arg("--target-dir")
        .arg(target_dir);
    // The outer cargo's settings are for the host build, not the guest's.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTC_WRAPPER",
        "CARGO_MAKEFLAGS",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        cmd.env_remove(var);
    }
    let out = cmd
        .output()
        .expect("running cargo to build the guest component");
    if !out.status.success() {
        panic!(
            "building the guest component failed (cargo {}):\n{}\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn ensure_target() {
    if target_installed() {
        return;
    }
    let added = Command::new("rustup")
        .args(["target", "add", TARGET])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !added || !target_installed() {
        panic!(
            "the {TARGET} target is not installed and could not be added automatically.\n\
             Run:  rustup target add {TARGET}\n\
             then build again."
        );
    }
}

fn target_installed() -> bool {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .is_some_and(|sysroot| {
            Path::new(&sysroot)
                .join("lib/rustlib")
                .join(TARGET)
                .is_dir()
        })
}
