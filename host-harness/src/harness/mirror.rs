//! A file copy of the precompiled component embedded in the binary, which wasmtime maps instead of
//! copying.
//!
//! Loaded from memory (`Component::deserialize`), the embedded artifact (~50 MB: code and the
//! pre-initialized snapshot's memory) is copied into fresh memory, and its memory image copied again
//! into a `memfd`: ~13,000 page faults and ~100 ms of CPU, for a `status` that then does almost nothing.
//! Loaded from a file (`Component::deserialize_file`), wasmtime maps the file: the code and the initial
//! linear memory come from the page cache, copy-on-write, and a run touches only the pages it uses
//! (~550 page faults, a few ms). BENCHMARKS.md has the figures.
//!
//! So the first run with a writable cache directory also writes the artifact there
//! (`embedded-<id>.cwasm`, where the id is the artifact's SHA-256 taken when the binary was built);
//! later runs map it. A read-only or absent cache directory, `--no-cache`, or a file that fails the
//! checks below mean an anonymous in-memory file (`memfd`) holding the artifact, mapped the same way.
//! Either copy is made in the kernel from the executable's own file where it can be
//! ([`super::exe_copy`]), so a first run costs about what a warm one does. Should even the memfd fail,
//! the artifact is loaded from memory: slower to start, never wrong.
//!
//! What is checked before wasmtime sees the file: its name (this build's id), that it is a regular
//! file (not a link) of exactly the artifact's length, owned by this user and writable by no one else;
//! wasmtime then checks its header, its wasmtime version, engine settings and CPU features. Its
//! contents are not hashed on each run: hashing 50 MB costs more than the load it saves. It is written
//! to a temporary file and renamed into place, so a crash never leaves a partial file under the final
//! name; a file someone else altered in place is the same risk as the cache files beside it, whose
//! directory only its user can write ([`crate::cache`]).
//!
//! Linux only (the ownership check needs the effective user id); elsewhere the artifact loads from
//! memory as before.

use std::path::{Path, PathBuf};

use wasmtime::Engine;
use wasmtime::component::Component;

/// The embedded artifact's id: the first 32 hex digits of its SHA-256, taken by `build.rs`.
pub const EMBEDDED_ID: &str = env!("SKILL_RECOMMENDER_PRECOMPILED_ID");

/// The mirror's file name in the cache directory.
pub(crate) fn file_name(id: &str) -> String {
    format!("embedded-{id}.cwasm")
}

/// Whether `name` is a mirror file (`embedded-<32 hex>.cwasm`), for pruning.
pub(crate) fn is_mirror_name(name: &str) -> bool {
    name.strip_prefix("embedded-")
        .and_then(|n| n.strip_suffix(".cwasm"))
        .is_some_and(|id| id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// How the embedded artifact was loaded, for `status` (`paths.cache.mapped`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mirror {
    /// Mapped from its file copy in the cache directory.
    Mapped(PathBuf),
    /// Mapped from an anonymous in-memory file (no cache directory, or it is read-only), and why the
    /// cache directory was not used.
    Anonymous(String),
    /// Loaded from memory (copied), and why.
    Off(String),
}

impl Mirror {
    /// `{"file": path or null, "state": "mapped" | "anonymous: why" | "off: why"}`.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        match self {
            Mirror::Mapped(path) => json!({"file": path, "state": "mapped"}),
            Mirror::Anonymous(why) => json!({"file": null, "state": format!("anonymous: {why}")}),
            Mirror::Off(why) => json!({"file": null, "state": format!("off: {why}")}),
        }
    }
}

/// Why `path` cannot be mapped as the artifact of `len` bytes, or `None` when it can.
#[cfg(target_os = "linux")]
fn refuse(path: &Path, len: usize) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Some("not written yet".into());
        }
        Err(e) => return Some(format!("unreadable: {e}")),
    };
    if !meta.file_type().is_file() {
        return Some("not a regular file".into());
    }
    if meta.len() != len as u64 {
        return Some(format!("{} bytes, expected {len}", meta.len()));
    }
    if meta.uid() != rustix::process::geteuid().as_raw() {
        return Some("owned by another user".into());
    }
    if meta.mode() & 0o022 != 0 {
        return Some("writable by other users".into());
    }
    None
}

/// Map the embedded `artifact` from a file instead of copying it: its copy in the cache directory
/// `dir` (written now when missing or unfit), else an anonymous in-memory file. `None` (with why) when
/// neither works; the caller then loads it from memory.
#[cfg(target_os = "linux")]
pub(crate) fn load(
    engine: &Engine,
    dir: Option<&Path>,
    artifact: &[u8],
) -> (Option<Component>, Mirror) {
    let why = match dir {
        Some(dir) => match in_cache_dir(engine, dir, artifact) {
            Ok((component, path)) => return (Some(component), Mirror::Mapped(path)),
            Err(why) => why,
        },
        None => "no cache directory".into(),
    };
    match anonymous(engine, artifact) {
        Ok(component) => (Some(component), Mirror::Anonymous(why)),
        Err(e) => (None, Mirror::Off(format!("{why}; {e}"))),
    }
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn load(
    _engine: &Engine,
    _dir: Option<&Path>,
    _artifact: &[u8],
) -> (Option<Component>, Mirror) {
    (None, Mirror::Off("only on Linux".into()))
}

/// The copy in `dir`: mapped when it passes [`refuse`], else (re)written and mapped.
#[cfg(target_os = "linux")]
fn in_cache_dir(
    engine: &Engine,
    dir: &Path,
    artifact: &[u8],
) -> Result<(Component, PathBuf), String> {
    let path = dir.join(file_name(EMBEDDED_ID));
    if refuse(&path, artifact.len()).is_none() {
        // SAFETY: see `map_file`.
        match unsafe { map_file(engine, &path) } {
            Ok(component) => {
                // Mark it used, so pruning spares it.
                crate::cache::touch(&path);
                return Ok((component, path));
            }
            // Not this build's artifact after all: written again below.
            Err(_) => {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    write(dir, &path, artifact).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    if let Some(why) = refuse(&path, artifact.len()) {
        return Err(format!("{}: {why}", path.display()));
    }
    // SAFETY: see `map_file`.
    let component = unsafe { map_file(engine, &path) }?;
    crate::cache::prune(dir, &path, crate::cache::UNUSED_FOR);
    Ok((component, path))
}

/// Write `artifact` to `path` through a temporary file renamed into place (created `0600`). No fsync:
/// it is a cache, and a file cut short by a crash fails the length check. The bytes are copied from
/// the executable's file in the kernel where they can be ([`super::exe_copy`]): no page of the
/// embedded artifact is touched in user space.
#[cfg(target_os = "linux")]
fn write(dir: &Path, path: &Path, artifact: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{}.", file_name(EMBEDDED_ID)))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    super::exe_copy::fill(tmp.as_file_mut(), artifact)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The artifact in an anonymous in-memory file (`memfd_create`), mapped through `/proc/self/fd`: one
/// copy (in the kernel, from the executable's file, where it can be), and nothing written anywhere.
#[cfg(target_os = "linux")]
fn anonymous(engine: &Engine, artifact: &[u8]) -> Result<Component, String> {
    use std::os::fd::AsRawFd;
    let fd = rustix::fs::memfd_create(
        "skill-recommender-embedded",
        rustix::fs::MemfdFlags::CLOEXEC,
    )
    .map_err(|e| format!("memfd_create: {e}"))?;
    let mut file = std::fs::File::from(fd);
    super::exe_copy::fill(&mut file, artifact).map_err(|e| format!("memfd write: {e}"))?;
    let path = PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()));
    // SAFETY: the file was created by this process, is reachable by no other name, and holds the
    // artifact just written; wasmtime checks it as for `map_file`. The mapping outlives `file`.
    unsafe { map_file(engine, &path) }
}

/// `Component::deserialize_file`.
///
/// # Safety
/// `path` must hold the embedded artifact, written by this module (the caller checked it with
/// [`refuse`], or created it itself); wasmtime checks its header, version, engine settings and CPU
/// features, not its code.
#[cfg(target_os = "linux")]
unsafe fn map_file(engine: &Engine, path: &Path) -> Result<Component, String> {
    unsafe { Component::deserialize_file(engine, path) }
        .map_err(|e| format!("refused by wasmtime: {e:#}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_names_are_recognised_and_nothing_else() {
        assert!(is_mirror_name(&file_name(&"ab12".repeat(8))));
        assert!(!is_mirror_name("embedded-xyz.cwasm"));
        assert!(!is_mirror_name(&file_name(&"a".repeat(31))));
        assert!(!is_mirror_name("notes.txt"));
        assert_eq!(EMBEDDED_ID.len(), 32, "build.rs gives a 32-digit id");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn only_this_users_intact_private_file_is_mapped() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.cwasm");
        assert_eq!(refuse(&path, 4).as_deref(), Some("not written yet"));
        std::fs::write(&path, b"abcd").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(refuse(&path, 4), None);
        assert_eq!(refuse(&path, 5).as_deref(), Some("4 bytes, expected 5"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).unwrap();
        assert_eq!(refuse(&path, 4).as_deref(), Some("writable by other users"));
        let link = dir.path().join("b.cwasm");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert_eq!(refuse(&link, 4).as_deref(), Some("not a regular file"));
    }
}
