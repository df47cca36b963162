//! Pre-initializes the component and compiles it for this machine (`src/precompiled.rs`), so the
//! binary embeds both the component and its compiled form and no run has to compile it. The component
//! itself is built by the `guest-wasm` package's build script (a package of its own so that it starts
//! at once, in parallel with the host's dependencies), which passes its path here as
//! `DEP_SKILL_RECOMMENDER_GUEST_WASM`.
//!
//! The compile step uses this crate's own `preinit`, `sandbox`, `limits` and `precompiled` modules
//! (included below), so the artifact is made with exactly the settings it is checked against. wasmtime
//! is therefore a build-dependency too. So that cargo compiles it once for both uses, the
//! `[build-dependencies]` repeat `[dependencies]` (same crates, same features: feature sets would
//! otherwise differ between the two and every crate above them be compiled twice; a test keeps the two
//! lists equal) and the workspace's `build-override` profile settings match the normal ones.

use std::env;
use std::path::{Path, PathBuf};

// The crate's own modules, so the artifact is compiled exactly as the harness loads it.
#[allow(dead_code)]
#[path = "src/limits.rs"]
mod limits;
#[allow(dead_code)]
#[path = "src/precompiled.rs"]
mod precompiled;
#[allow(dead_code)]
#[path = "src/preinit.rs"]
mod preinit;
#[allow(dead_code)]
#[path = "src/sandbox.rs"]
mod sandbox;

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.parent().unwrap().to_path_buf();
    for p in [
        "Cargo.lock",
        "host-harness/src/limits.rs",
        "host-harness/src/precompiled.rs",
        "host-harness/src/preinit.rs",
        "host-harness/src/sandbox.rs",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(p).display());
    }
    println!(
        "cargo:rustc-env=SKILL_RECOMMENDER_WASMTIME_VERSION={}",
        locked_version(&root, "wasmtime")
    );
    let dep = |key: &str| {
        let var = format!("DEP_SKILL_RECOMMENDER_GUEST_{key}");
        println!("cargo:rerun-if-env-changed={var}");
        PathBuf::from(
            env::var_os(&var)
                .unwrap_or_else(|| panic!("{var} is set by guest-wasm's build script")),
        )
    };
    let wasm = dep("WASM");
    println!("cargo:rerun-if-changed={}", wasm.display());
    println!(
        "cargo:rustc-env=SKILL_RECOMMENDER_GUEST_WASM={}",
        wasm.display()
    );
    println!(
        "cargo:rustc-env=SKILL_RECOMMENDER_HOSTILE_WASM={}",
        dep("HOSTILE").display()
    );
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").unwrap());
    precompile(&wasm, &dep("TARGET_DIR"), &out_dir);
}

/// The version of `package` in Cargo.lock ("unknown" without a lockfile): the cache key names it.
fn locked_version(root: &Path, package: &str) -> String {
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
    let needle = format!("name = \"{package}\"\nversion = \"");
    lock.find(&needle)
        .and_then(|i| lock[i + needle.len()..].split('"').next())
        .unwrap_or("unknown")
        .to_owned()
}

/// Pre-initialize and compile the component for this machine; embed the result
/// (`SKILL_RECOMMENDER_PRECOMPILED`). The snapshot is also left at `<guest target dir>/guest-preinit.wasm`
/// for the Python host's package, which compiles it with its own wasmtime at install time.
///
/// When cross-compiling, the artifact would be for the wrong machine: an empty file is embedded and the
/// harness compiles at run time (with its on-disk cache), as a build without this step did.
fn precompile(wasm: &Path, guest_target_dir: &Path, out_dir: &Path) {
    let to = out_dir.join("guest.cwasm");
    let cross = env::var("TARGET").ok() != env::var("HOST").ok();
    let artifact = if cross {
        println!(
            "cargo:warning=cross-compiling: no precompiled component is embedded; the first run compiles it"
        );
        Vec::new()
    } else {
        let bytes =
            std::fs::read(wasm).unwrap_or_else(|e| panic!("reading {}: {e}", wasm.display()));
        let built = precompiled::build(&bytes)
            .unwrap_or_else(|e| panic!("pre-initializing and compiling the component: {e}"));
        let snapshot = guest_target_dir.join("guest-preinit.wasm");
        write_if_changed(&snapshot, &built.snapshot);
        built.artifact
    };
    write_if_changed(&to, &artifact);
    println!(
        "cargo:rustc-env=SKILL_RECOMMENDER_PRECOMPILED={}",
        to.display()
    );
    // The artifact's id (the start of its SHA-256): names its file copy in the cache directory
    // (`src/harness/mirror.rs`) without hashing 50 MB on every run.
    use sha2::Digest;
    let id: String = sha2::Sha256::digest(&artifact)[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    println!("cargo:rustc-env=SKILL_RECOMMENDER_PRECOMPILED_ID={id}");
}

/// Write `bytes` unless the file already holds them (an unchanged file keeps its time, so nothing that
/// depends on it is rebuilt).
fn write_if_changed(path: &Path, bytes: &[u8]) {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return;
    }
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}
