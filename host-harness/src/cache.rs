//! On-disk cache of the precompiled component.
//!
//! Compiling the component with Cranelift takes tens of milliseconds in release (and far more in debug);
//! loading a precompiled artifact takes well under one. The artifact is native code, so it is never
//! trusted blindly: the file name carries the component's hash, the wasmtime version and the engine's
//! compatibility hash, and the file carries a SHA-256 of its payload that is checked before wasmtime
//! sees it. A mismatch, truncation or read error means "rebuild", never "use".

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

use crate::preinit::{InitLimits, Preinit};

/// File header: magic and format version.
const MAGIC: &[u8; 8] = b"SRCWASM1";

/// Cache files not used for this long are removed when a new one is written: each component version,
/// wasmtime version and engine configuration has its own file (≈ 8 MB pre-initialized), and without
/// pruning every upgrade would leave one behind. A file that is still in use is touched on every
/// hit, so only abandoned ones age; one removed by mistake costs a single recompile.
pub const UNUSED_FOR: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 60 * 60);

/// Where (and whether) to cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheMode {
    /// Always compile in memory.
    Disabled,
    /// Cache in this directory (created on demand).
    Dir(PathBuf),
}

impl CacheMode {
    /// `$SKILL_RECOMMENDER_CACHE_DIR`, else the user's cache directory (`~/.cache/skill-recommender` on
    /// Linux), else disabled.
    pub fn from_env() -> CacheMode {
        std::env::var_os("SKILL_RECOMMENDER_CACHE_DIR")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| dirs::cache_dir().map(|d| d.join("skill-recommender")))
            .map_or(CacheMode::Disabled, CacheMode::Dir)
    }
}

/// What happened when the component was loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheOutcome {
    /// Loaded from a verified cache file: no compilation.
    Hit(PathBuf),
    /// Compiled; the artifact was written (or `written` is false when the directory is not writable).
    Miss { path: PathBuf, written: bool },
    /// A cache file existed but failed verification; recompiled and replaced.
    Rebuilt { path: PathBuf, reason: String },
    /// Caching is off.
    Disabled,
    /// The precompiled component embedded in the binary was used ([`crate::precompiled`]): no cache
    /// was needed and nothing was compiled.
    Embedded,
}

impl CacheOutcome {
    pub fn is_hit(&self) -> bool {
        matches!(self, CacheOutcome::Hit(_))
    }

    /// Whether loading compiled the component (a miss or a rebuild, or compiling without a cache).
    pub fn compiled(&self) -> bool {
        !matches!(self, CacheOutcome::Hit(_) | CacheOutcome::Embedded)
    }

    /// `{"outcome": "hit|miss|rebuilt|disabled|embedded", "path", "written"?, "reason"?}` for status
    /// output.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            CacheOutcome::Hit(path) => json!({"outcome": "hit", "path": path}),
            CacheOutcome::Miss { path, written } => {
                json!({"outcome": "miss", "path": path, "written": written})
            }
            CacheOutcome::Rebuilt { path, reason } => {
                json!({"outcome": "rebuilt", "path": path, "reason": reason})
            }
            CacheOutcome::Disabled => json!({"outcome": "disabled", "path": null}),
            CacheOutcome::Embedded => json!({"outcome": "embedded", "path": null}),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The cache file for this component on this engine; `preinit` files hold the pre-initialized
/// snapshot ([`crate::preinit`]) compiled, the others the component as it is.
pub fn cache_path(dir: &Path, engine: &Engine, component: &[u8], preinit: bool) -> PathBuf {
    let digest = Sha256::digest(component);
    // The compatibility hash covers wasmtime's version and every codegen-relevant setting; the
    // version is also spelled out so a person can tell cache files apart. DefaultHasher is stable
    // within one build of the host, which is all the key needs.
    let mut h = std::collections::hash_map::DefaultHasher::new();
    engine.precompile_compatibility_hash().hash(&mut h);
    dir.join(format!(
        "{}-wasmtime{}-{:016x}{}.cwasm",
        &hex(&digest)[..32],
        env!("SKILL_RECOMMENDER_WASMTIME_VERSION"),
        h.finish(),
        if preinit { "-init" } else { "" }
    ))
}

/// Verify a cache file and return its payload.
fn verify(bytes: &[u8]) -> Result<&[u8], String> {
    if bytes.len() < MAGIC.len() + 32 || &bytes[..MAGIC.len()] != MAGIC {
        return Err("bad header".into());
    }
    let (sum, payload) = bytes[MAGIC.len()..].split_at(32);
    if Sha256::digest(payload).as_slice() != sum {
        return Err("checksum mismatch".into());
    }
    Ok(payload)
}

fn wrap(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAGIC.len() + 32 + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&Sha256::digest(payload));
    out.extend_from_slice(payload);
    out
}

/// Load the component from the cache, or compile it (and cache it when possible). With `preinit`,
/// the component is pre-initialized before it is compiled ([`crate::preinit`]); a component that
/// cannot be is compiled as it is, and the returned [`Preinit`] says why.
pub fn load(
    engine: &Engine,
    component: &[u8],
    mode: &CacheMode,
    preinit: Option<InitLimits>,
    on_prepare: Option<&dyn Fn(&Path)>,
) -> anyhow::Result<(Component, CacheOutcome, Preinit)> {
    let CacheMode::Dir(dir) = mode else {
        let (compiled, how) = prepare(engine, component, preinit)?;
        return Ok((compiled, CacheOutcome::Disabled, how));
    };
    let path = cache_path(dir, engine, component, preinit.is_some());
    let hit_preinit = if preinit.is_some() {
        Preinit::Snapshot
    } else {
        Preinit::Off
    };
    let mut stale = None;
    match std::fs::read(&path) {
        Ok(bytes) => match verify(&bytes) {
            // SAFETY: the payload is an artifact this host serialized for this engine configuration
            // (the file name pins component, wasmtime version and engine compatibility hash) and its
            // checksum verified, so it is not truncated or altered by accident. A user who can write the
            // cache directory could already replace the host binary itself.
            Ok(payload) => match unsafe { Component::deserialize(engine, payload) } {
                Ok(c) => {
                    touch(&path);
                    return Ok((c, CacheOutcome::Hit(path), hit_preinit));
                }
                Err(e) => stale = Some(format!("rejected by wasmtime: {e}")),
            },
            Err(reason) => stale = Some(reason),
        },
        // No file (or no directory where the cache should be): a plain miss.
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) => {}
        Err(e) => stale = Some(format!("unreadable: {e}")),
    }
    if let Some(f) = on_prepare {
        f(&path);
    }
    let (compiled, how) = prepare(engine, component, preinit)?;
    // Only a snapshot goes to a `-init` file: a component that could not be pre-initialized is not
    // cached under that name (it is tried again next time rather than remembered as done).
    let cacheable = preinit.is_none() || how == Preinit::Snapshot;
    let written = cacheable
        && compiled
            .serialize()
            .ok()
            .and_then(|payload| {
                std::fs::create_dir_all(dir).ok()?;
                crate::store::atomic_write(&path, &wrap(&payload)).ok()
            })
            .is_some();
    if written {
        prune(dir, &path, UNUSED_FOR);
    }
    let outcome = match stale {
        Some(reason) => CacheOutcome::Rebuilt { path, reason },
        None => CacheOutcome::Miss { path, written },
    };
    Ok((compiled, outcome, how))
}

/// Mark a cache file as used now (its modification time), so pruning spares it. Best effort: a
/// read-only cache still works, its files just age.
pub(crate) fn touch(path: &Path) {
    if let Ok(f) = std::fs::File::options().write(true).open(path) {
        let _ = f.set_modified(std::time::SystemTime::now());
    }
}

/// Whether `name` is one of this host's cache files (`<32 hex>-wasmtime<version>-<16 hex>[-init].cwasm`,
/// or the embedded artifact's copy `embedded-<32 hex>.cwasm`) or a temporary file a crashed write left
/// beside one (`.<that>.<random>.tmp`).
fn is_cache_file(name: &str) -> bool {
    let name = name
        .strip_prefix('.')
        .and_then(|n| n.strip_suffix(".tmp"))
        .and_then(|n| n.rsplit_once('.').map(|(n, _random)| n))
        .unwrap_or(name);
    if crate::harness::mirror::is_mirror_name(name) {
        return true;
    }
    let Some(stem) = name.strip_suffix(".cwasm") else {
        return false;
    };
    let stem = stem.strip_suffix("-init").unwrap_or(stem);
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit());
    match stem.split_once("-wasmtime") {
        Some((component, rest)) => {
            hex(component, 32)
                && rest
                    .rsplit_once('-')
                    .is_some_and(|(version, engine)| !version.is_empty() && hex(engine, 16))
        }
        None => false,
    }
}

/// Remove this host's cache files in `dir`, other than `keep`, not modified for `unused_for`; other
/// files are never touched. Returns how many were removed. Errors are ignored (it is a cache).
pub fn prune(dir: &Path, keep: &Path, unused_for: std::time::Duration) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let now = std::time::SystemTime::now();
    let mut removed = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path == keep || !name.to_str().is_some_and(is_cache_file) {
            continue;
        }
        let old = entry
            .metadata()
            .ok()
            .filter(|m| m.is_file())
            .and_then(|m| m.modified().ok())
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age >= unused_for);
        if old && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Pre-initialize (when asked and possible), then compile.
fn prepare(
    engine: &Engine,
    component: &[u8],
    preinit: Option<InitLimits>,
) -> anyhow::Result<(Component, Preinit)> {
    let Some(limits) = preinit else {
        return Ok((compile(engine, component)?, Preinit::Off));
    };
    let plain = || compile(engine, component);
    match crate::preinit::snapshot(component, limits) {
        Ok(snapshot) => Ok((compile(engine, &snapshot)?, Preinit::Snapshot)),
        Err(crate::preinit::SnapshotError::Unsupported) => Ok((plain()?, Preinit::Unsupported)),
        Err(crate::preinit::SnapshotError::Failed(reason)) => {
            Ok((plain()?, Preinit::Failed(reason)))
        }
    }
}

fn compile(engine: &Engine, component: &[u8]) -> anyhow::Result<Component> {
    Component::new(engine, component).map_err(|e| anyhow::anyhow!("compiling the component: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_accepts_only_intact_files() {
        let file = wrap(b"payload");
        assert_eq!(verify(&file).unwrap(), b"payload");
        let mut flipped = file.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(verify(&flipped).unwrap_err(), "checksum mismatch");
        assert_eq!(verify(&file[..10]).unwrap_err(), "bad header");
        assert_eq!(verify(b"").unwrap_err(), "bad header");
    }

    const NAME: &str = "8328e830a0f993af33515bc5dbd9c9f5-wasmtime48.0.8-9251c85941f77eeb";

    #[test]
    fn only_this_hosts_cache_files_are_recognised() {
        for ok in [
            format!("{NAME}.cwasm"),
            format!("{NAME}-init.cwasm"),
            format!(".{NAME}-init.cwasm.Xa8s2k.tmp"),
        ] {
            assert!(is_cache_file(&ok), "{ok}");
        }
        for other in [
            "notes.txt",
            "state.json",
            ".cwasm",
            "8328e830-wasmtime48.0.8-9251c85941f77eeb.cwasm",
            "8328e830a0f993af33515bc5dbd9c9f5-wasmtime-9251c85941f77eeb.cwasm",
            "8328e830a0f993af33515bc5dbd9c9f5-wasmtime48.0.8-xyz.cwasm",
            &format!("{NAME}.cwasm.bak"),
        ] {
            assert!(!is_cache_file(other), "{other}");
        }
    }

    fn age(path: &Path, days: u64) {
        let t = std::time::SystemTime::now() - std::time::Duration::from_secs(days * 86_400);
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(t)
            .unwrap();
    }

    #[test]
    fn writing_a_new_file_prunes_abandoned_ones_and_a_hit_keeps_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let engine = Engine::default();
        let component = wat::parse_str("(component)").unwrap();
        let mode = CacheMode::Dir(d.to_path_buf());
        let file = |name: &str, days: u64| {
            let p = d.join(name);
            std::fs::write(&p, b"x").unwrap();
            age(&p, days);
            p
        };
        let abandoned = file(&format!("{NAME}.cwasm"), 40);
        let crashed_write = file(&format!(".{NAME}.cwasm.Ab12Cd.tmp"), 40);
        let recent = file(&format!("{NAME}-init.cwasm"), 2);
        let unrelated = file("notes.txt", 400);

        let (_, outcome, _) = load(&engine, &component, &mode, None, None).unwrap();
        let CacheOutcome::Miss {
            path: own,
            written: true,
        } = outcome
        else {
            panic!("{outcome:?}")
        };
        assert!(
            !abandoned.exists() && !crashed_write.exists(),
            "abandoned files removed"
        );
        assert!(recent.exists() && unrelated.exists() && own.exists());

        // A hit marks its file as used: it will not age out while it is loaded.
        age(&own, 40);
        let (_, outcome, _) = load(&engine, &component, &mode, None, None).unwrap();
        assert!(outcome.is_hit(), "{outcome:?}");
        let modified = std::fs::metadata(&own).unwrap().modified().unwrap();
        assert!(modified.elapsed().unwrap() < UNUSED_FOR);
        assert_eq!(
            prune(d, Path::new("/nonexistent"), UNUSED_FOR),
            0,
            "nothing else is old"
        );
    }
}
