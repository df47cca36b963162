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
}

impl CacheOutcome {
    pub fn is_hit(&self) -> bool {
        matches!(self, CacheOutcome::Hit(_))
    }

    /// `{"outcome": "hit|miss|rebuilt|disabled", "path", "written"?, "reason"?}` for status output.
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
                Ok(c) => return Ok((c, CacheOutcome::Hit(path), hit_preinit)),
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
    let outcome = match stale {
        Some(reason) => CacheOutcome::Rebuilt { path, reason },
        None => CacheOutcome::Miss { path, written },
    };
    Ok((compiled, outcome, how))
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
}
