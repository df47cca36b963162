//! Reading a skill bundle safely, so the component can judge it: a folder, a `.zip`/`.skill` archive,
//! or a single SKILL.md.
//!
//! - Symlinks are never followed out of the bundle: each is reported with its target and whether it
//!   resolves outside (prefix confusion such as `skill` vs `skill-evil` is handled by comparing path
//!   components, not strings).
//! - Archive entries whose path leaves the root (zip-slip), absolute or drive-letter paths and
//!   duplicates after `\` → `/` are not extracted (nothing is ever written to disk) and are reported.
//! - Caps on entry count, entry size, total size and compression ratio; an entry whose real size
//!   exceeds what it declared is cut off at the cap and reported.
//! - Binary detection by extension, magic bytes, NUL bytes and UTF-8 validity; executable bits kept.
//! - A `.git` folder is not part of a skill and is skipped; ignore files (`.clawhubignore`,
//!   `.skillignore`) are read like any file and never hide anything.

use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

pub use guest::scan::{Bundle, BundleFile, BundleNote, EntryKind};

/// Caps for reading a bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleLimits {
    /// Entries read at most (the rest are reported, not read).
    pub max_files: usize,
    /// Bytes per entry.
    pub max_file_bytes: u64,
    /// Bytes in all.
    pub max_total_bytes: u64,
    /// Uncompressed / compressed size above which an archive entry is a decompression bomb.
    pub max_ratio: u64,
    /// Folder depth.
    pub max_depth: usize,
}

impl Default for BundleLimits {
    fn default() -> Self {
        BundleLimits {
            max_files: 500,
            max_file_bytes: 10 << 20,
            max_total_bytes: 50 << 20,
            max_ratio: 100,
            max_depth: 16,
        }
    }
}

/// Why a bundle could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("{}: {source}", .path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: not a readable zip archive ({message})", .path.display())]
    Archive { path: PathBuf, message: String },
}

/// The format shown by a file's first bytes (the guest's, so every reader names formats alike).
pub use guest::scan::magic;

/// The bytes of a bundle's binary entries, by path (text entries carry their text in the bundle).
pub type Blobs = std::collections::BTreeMap<String, Vec<u8>>;

/// Turn raw bytes into an entry: text when it is UTF-8 without NUL bytes and no binary magic. A binary
/// entry's bytes go to `blobs` when the caller keeps them (an install copies them).
fn entry(
    path: String,
    bytes: Vec<u8>,
    executable: bool,
    blobs: &mut Option<&mut Blobs>,
) -> BundleFile {
    let size = bytes.len() as u64;
    let m = magic(&bytes).map(str::to_owned);
    let looks_binary = m.as_deref().is_some_and(|m| m != "pdf" || bytes.len() > 4)
        || bytes.iter().take(8192).any(|b| *b == 0);
    let (kind, content) = match (looks_binary, String::from_utf8(bytes)) {
        (false, Ok(text)) => (EntryKind::Text, Some(text)),
        (true, Ok(text)) => {
            if let Some(b) = blobs {
                b.insert(path.clone(), text.into_bytes());
            }
            (EntryKind::Binary, None)
        }
        (_, Err(e)) => {
            if let Some(b) = blobs {
                b.insert(path.clone(), e.into_bytes());
            }
            (EntryKind::Binary, None)
        }
    };
    BundleFile {
        path,
        size,
        kind,
        content,
        executable,
        magic: m,
        link_target: None,
        link_escapes: false,
    }
}

fn note(path: &str, code: &str, message: String) -> BundleNote {
    BundleNote {
        path: path.into(),
        code: code.into(),
        message,
    }
}

/// The note for the first entry past the entry cap.
fn too_many(path: &str, limits: &BundleLimits) -> BundleNote {
    note(
        path,
        "too_many_files",
        format!(
            "more than {} entries; the rest were not read",
            limits.max_files
        ),
    )
}

/// Read a bundle from a folder, an archive (`.zip`, `.skill`) or a single SKILL.md.
pub fn read_bundle(path: &Path, limits: &BundleLimits) -> Result<Bundle, BundleError> {
    read_any(path, limits, None)
}

/// [`read_bundle`], keeping the bytes of binary entries (what an install copies besides the text).
pub fn read_package(path: &Path, limits: &BundleLimits) -> Result<(Bundle, Blobs), BundleError> {
    let mut blobs = Blobs::new();
    let bundle = read_any(path, limits, Some(&mut blobs))?;
    Ok((bundle, blobs))
}

fn read_any(
    path: &Path,
    limits: &BundleLimits,
    mut blobs: Option<&mut Blobs>,
) -> Result<Bundle, BundleError> {
    let io = |source| BundleError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return read_dir_bundle(path, limits, blobs);
    }
    let mut head = [0u8; 4];
    let n = fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .map_err(io)?;
    let lower = path.to_string_lossy().to_lowercase();
    if &head[..n] == b"PK\x03\x04" || lower.ends_with(".zip") || lower.ends_with(".skill") {
        return read_zip_bundle(path, limits, blobs);
    }
    // A single file: treat it as the bundle's SKILL.md, named after its folder.
    let name = path
        .canonicalize()
        .ok()
        .and_then(|p| {
            p.parent()
                .and_then(Path::file_name)
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    let mut bundle = Bundle {
        name,
        ..Default::default()
    };
    if meta.len() > limits.max_file_bytes {
        bundle.notes.push(note(
            "SKILL.md",
            "file_too_large",
            format!(
                "{} bytes, over the {}-byte cap",
                meta.len(),
                limits.max_file_bytes
            ),
        ));
    } else {
        let bytes = fs::read(path).map_err(io)?;
        bundle
            .files
            .push(entry("SKILL.md".into(), bytes, false, &mut blobs));
    }
    Ok(bundle)
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_meta: &fs::Metadata) -> bool {
    false
}

fn read_dir_bundle(
    dir: &Path,
    limits: &BundleLimits,
    mut blobs: Option<&mut Blobs>,
) -> Result<Bundle, BundleError> {
    let root = dir.canonicalize().map_err(|source| BundleError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut bundle = Bundle {
        name,
        ..Default::default()
    };
    let mut total = 0u64;
    let mut stack: Vec<(PathBuf, usize)> = vec![(root.clone(), 0)];
    while let Some((d, depth)) = stack.pop() {
        let mut entries: Vec<PathBuf> = match fs::read_dir(&d) {
            Ok(rd) => rd.filter_map(Result::ok).map(|e| e.path()).collect(),
            Err(e) => {
                bundle
                    .notes
                    .push(note(&rel(&root, &d), "unreadable", e.to_string()));
                continue;
            }
        };
        entries.sort();
        for p in entries.into_iter().rev() {
            let r = rel(&root, &p);
            let Ok(meta) = fs::symlink_metadata(&p) else {
                bundle
                    .notes
                    .push(note(&r, "unreadable", "cannot stat".into()));
                continue;
            };
            if meta.file_type().is_symlink() {
                let target = fs::read_link(&p)
                    .map(|t| t.to_string_lossy().into_owned())
                    .unwrap_or_default();
                // Resolve fully (following chains); a loop or dangling link cannot be resolved.
                let (escapes, looped) = match p.canonicalize() {
                    Ok(real) => (!real.starts_with(&root), false),
                    Err(e) => (true, e.raw_os_error() == Some(40)),
                };
                if looped {
                    bundle
                        .notes
                        .push(note(&r, "symlink_loop", format!("{r} -> {target} loops")));
                }
                bundle
                    .files
                    .push(BundleFile::symlink(r, target, escapes && !looped));
                continue;
            }
            if meta.is_dir() {
                if p.file_name().is_some_and(|n| n == ".git") {
                    continue;
                }
                if depth + 1 > limits.max_depth {
                    bundle.notes.push(note(
                        &r,
                        "too_many_files",
                        format!("deeper than {} folders; not read", limits.max_depth),
                    ));
                } else {
                    stack.push((p, depth + 1));
                }
                continue;
            }
            if bundle.files.len() >= limits.max_files {
                bundle.notes.push(too_many(&r, limits));
                return Ok(bundle);
            }
            if meta.len() > limits.max_file_bytes {
                bundle.notes.push(note(
                    &r,
                    "file_too_large",
                    format!(
                        "{} bytes, over the {}-byte cap",
                        meta.len(),
                        limits.max_file_bytes
                    ),
                ));
                continue;
            }
            if total + meta.len() > limits.max_total_bytes {
                bundle.notes.push(note(
                    &r,
                    "bundle_too_large",
                    format!(
                        "the bundle passes {} bytes; the rest were not read",
                        limits.max_total_bytes
                    ),
                ));
                return Ok(bundle);
            }
            match fs::File::open(&p).and_then(|f| {
                let mut buf = Vec::new();
                f.take(limits.max_file_bytes + 1)
                    .read_to_end(&mut buf)
                    .map(|_| buf)
            }) {
                Ok(bytes) => {
                    total += bytes.len() as u64;
                    bundle
                        .files
                        .push(entry(r, bytes, is_executable(&meta), &mut blobs));
                }
                Err(e) => bundle.notes.push(note(&r, "unreadable", e.to_string())),
            }
        }
    }
    bundle.files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(bundle)
}

/// Where a symlink inside an archive points, resolved lexically against its own folder.
fn archive_link_escapes(entry_path: &str, target: &str) -> bool {
    let t = target.replace('\\', "/");
    if t.starts_with('/') || t.as_bytes().get(1) == Some(&b':') {
        return true;
    }
    let mut depth: i64 = entry_path.matches('/').count() as i64;
    for part in t.split('/') {
        match part {
            "" | "." => {}
            ".." => depth -= 1,
            _ => depth += 1,
        }
        if depth < 0 {
            return true;
        }
    }
    false
}

fn read_zip_bundle(
    path: &Path,
    limits: &BundleLimits,
    blobs: Option<&mut Blobs>,
) -> Result<Bundle, BundleError> {
    let file = fs::File::open(path).map_err(|source| BundleError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read_zip_keeping(file, path, limits, blobs)
}

/// Read a `.zip`/`.skill` archive from any seekable reader (`path` names it in errors and gives the
/// bundle its name). Nothing is extracted to disk.
pub fn read_zip<R: Read + std::io::Seek>(
    reader: R,
    path: &Path,
    limits: &BundleLimits,
) -> Result<Bundle, BundleError> {
    read_zip_keeping(reader, path, limits, None)
}

fn read_zip_keeping<R: Read + std::io::Seek>(
    reader: R,
    path: &Path,
    limits: &BundleLimits,
    mut blobs: Option<&mut Blobs>,
) -> Result<Bundle, BundleError> {
    let archive_err = |message: String| BundleError::Archive {
        path: path.to_path_buf(),
        message,
    };
    let mut zip = zip::ZipArchive::new(reader).map_err(|e| archive_err(e.to_string()))?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut bundle = Bundle {
        name: stem,
        ..Default::default()
    };
    let mut seen = BTreeSet::new();
    let mut total = 0u64;
    for i in 0..zip.len() {
        let mut e = match zip.by_index(i) {
            Ok(e) => e,
            Err(err) => {
                bundle
                    .notes
                    .push(note(&format!("#{i}"), "unreadable", err.to_string()));
                continue;
            }
        };
        let raw = String::from_utf8_lossy(e.name_raw()).replace('\\', "/");
        if e.is_dir() {
            continue;
        }
        if raw.starts_with('/') || raw.as_bytes().get(1) == Some(&b':') {
            bundle.notes.push(note(
                &raw,
                "absolute_path",
                format!("entry {raw:?} has an absolute path; not extracted"),
            ));
            continue;
        }
        let Some(safe) = e.enclosed_name() else {
            bundle.notes.push(note(
                &raw,
                "path_escape",
                format!("entry {raw:?} leaves the archive root (zip-slip); not extracted"),
            ));
            continue;
        };
        if safe
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
        {
            bundle.notes.push(note(
                &raw,
                "path_escape",
                format!("entry {raw:?} is not a plain relative path; not extracted"),
            ));
            continue;
        }
        let rel = safe
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        if !seen.insert(rel.to_lowercase()) {
            bundle.notes.push(note(
                &rel,
                "duplicate_path",
                format!("{rel} appears more than once; only the first was read"),
            ));
            continue;
        }
        if bundle.files.len() >= limits.max_files {
            bundle.notes.push(too_many(&rel, limits));
            break;
        }
        let declared = e.size();
        let compressed = e.compressed_size().max(1);
        if declared / compressed > limits.max_ratio && declared > 1 << 20 {
            bundle.notes.push(note(
                &rel,
                "zip_bomb",
                format!(
                    "{declared} bytes from {compressed} compressed (ratio {}); not extracted",
                    declared / compressed
                ),
            ));
            continue;
        }
        if declared > limits.max_file_bytes {
            bundle.notes.push(note(
                &rel,
                "file_too_large",
                format!(
                    "{declared} bytes, over the {}-byte cap",
                    limits.max_file_bytes
                ),
            ));
            continue;
        }
        let executable = e.unix_mode().is_some_and(|m| m & 0o111 != 0);
        let is_link = e.is_symlink();
        let mut bytes = Vec::new();
        if let Err(err) = (&mut e)
            .take(limits.max_file_bytes + 1)
            .read_to_end(&mut bytes)
        {
            bundle.notes.push(note(&rel, "unreadable", err.to_string()));
            continue;
        }
        if bytes.len() as u64 > limits.max_file_bytes {
            bundle.notes.push(note(
                &rel,
                "zip_bomb",
                format!(
                    "expands past the {}-byte cap although it declared {declared} bytes",
                    limits.max_file_bytes
                ),
            ));
            continue;
        }
        total += bytes.len() as u64;
        if total > limits.max_total_bytes {
            bundle.notes.push(note(
                &rel,
                "bundle_too_large",
                format!(
                    "the bundle passes {} bytes; the rest were not read",
                    limits.max_total_bytes
                ),
            ));
            break;
        }
        if is_link {
            let target = String::from_utf8_lossy(&bytes).into_owned();
            let escapes = archive_link_escapes(&rel, &target);
            bundle.files.push(BundleFile::symlink(rel, target, escapes));
        } else {
            bundle.files.push(entry(rel, bytes, executable, &mut blobs));
        }
    }
    if let Some(prefix) = strip_wrapper(&mut bundle)
        && let Some(b) = blobs
    {
        let kept = std::mem::take(b);
        b.extend(
            kept.into_iter()
                .map(|(p, bytes)| (p.strip_prefix(&prefix).unwrap_or(&p).to_owned(), bytes)),
        );
    }
    Ok(bundle)
}

/// A zip whose entries all sit under one folder has that wrapper stripped (and named after it);
/// returns the prefix removed.
fn strip_wrapper(bundle: &mut Bundle) -> Option<String> {
    let first: Option<&str> = bundle
        .files
        .first()
        .and_then(|f| f.path.split_once('/').map(|(d, _)| d));
    let dir = first.map(str::to_owned)?;
    let prefix = format!("{dir}/");
    if bundle.files.iter().all(|f| f.path.starts_with(&prefix))
        && bundle
            .notes
            .iter()
            .all(|n| n.path.starts_with(&prefix) || n.path.starts_with('#'))
    {
        for f in &mut bundle.files {
            f.path = f.path[prefix.len()..].to_owned();
        }
        for n in &mut bundle.notes {
            if let Some(p) = n.path.strip_prefix(&prefix) {
                n.path = p.to_owned();
            }
        }
        bundle.name = dir;
        return Some(prefix);
    }
    None
}

#[cfg(test)]
mod tests;
