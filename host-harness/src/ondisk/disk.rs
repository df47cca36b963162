//! Reading what the plans need: the host's roots, skills folder listings, AGENTS.md, a skill folder's
//! files and digests. Nothing here judges; names and paths come back exactly as the component gave them.

use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::txn::{WORK_DIR, io};
use crate::bundle::{Blobs, BundleLimits, read_package};
use crate::error::Error;
use crate::{Bundle, Listed, Listing, Roots};

/// Largest provenance file or AGENTS.md read.
pub const MAX_SMALL_FILE: u64 = 1 << 20;
/// At most this many entries are listed per folder.
pub const MAX_ENTRIES: usize = 5_000;

/// The host's roots: home, the working directory, `$HERMES_HOME`, `$CODEX_HOME`.
pub fn roots_from_env() -> Roots {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    Roots {
        home: dirs::home_dir().map(|h| h.display().to_string()),
        project: std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|_| ".".into()),
        hermes_home: var("HERMES_HOME"),
        codex_home: var("CODEX_HOME"),
    }
}

/// Read a small UTF-8 file; `Ok(None)` when it does not exist.
pub fn read_small(path: &Path) -> Result<Option<String>, Error> {
    match fs::symlink_metadata(path) {
        Err(_) => Ok(None),
        Ok(m) if !m.is_file() => Err(io("read", path, "not a regular file")),
        Ok(m) if m.len() > MAX_SMALL_FILE => Err(io(
            "read",
            path,
            format!("{} bytes, over the {MAX_SMALL_FILE}-byte cap", m.len()),
        )),
        Ok(_) => {
            let bytes = fs::read(path).map_err(|e| io("read", path, e))?;
            String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| io("read", path, "not UTF-8 text"))
        }
    }
}

fn provenance_of(dir: &Path) -> Option<String> {
    let p = dir
        .join(guest::ondisk::names::OWN_DIR)
        .join("provenance.json");
    // An unreadable provenance file is passed as text the component cannot parse, so it says so.
    match read_small(&p) {
        Ok(t) => t,
        Err(e) => Some(format!("unreadable: {e}")),
    }
}

fn entry(path: &Path, name: String, category: Option<String>) -> Listed {
    let is_dir = fs::metadata(path).is_ok_and(|m| m.is_dir());
    Listed {
        name,
        category,
        is_dir,
        has_skill_md: is_dir && path.join("SKILL.md").is_file(),
        provenance: if is_dir { provenance_of(path) } else { None },
    }
}

fn visible_entries(dir: &Path) -> Vec<(PathBuf, String)> {
    let Ok(rd) = fs::read_dir(dir) else {
        return vec![];
    };
    let mut out: Vec<(PathBuf, String)> = rd
        .filter_map(Result::ok)
        .take(MAX_ENTRIES)
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_owned();
            (!name.starts_with('.') && name != WORK_DIR).then(|| (e.path(), name))
        })
        .collect();
    out.sort();
    out
}

/// List a skills folder (`None` when it does not exist). With `categories`, a folder without SKILL.md
/// is a category folder and its entries are listed with that category.
pub fn listing(path: &str, categories: bool) -> Option<Listing> {
    let dir = Path::new(path);
    if !dir.is_dir() {
        return None;
    }
    let mut entries = Vec::new();
    for (p, name) in visible_entries(dir) {
        let e = entry(&p, name.clone(), None);
        if categories && e.is_dir && !e.has_skill_md && e.provenance.is_none() {
            for (sp, sname) in visible_entries(&p) {
                entries.push(entry(&sp, sname, Some(name.clone())));
            }
        } else {
            entries.push(e);
        }
    }
    Some(Listing {
        path: path.to_owned(),
        entries,
    })
}

/// SHA-256 (hex) of each binary file.
pub fn digests(blobs: &Blobs) -> Vec<(String, String)> {
    blobs
        .iter()
        .map(|(p, b)| (p.clone(), sha256_hex(b)))
        .collect()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A skill folder (or archive) as read: the bundle, its binary files' bytes, and their digests.
pub struct Read {
    pub bundle: Bundle,
    pub blobs: Blobs,
    pub digests: Vec<(String, String)>,
}

/// Read a skill folder (or archive) with its binary files' bytes and digests.
pub fn read_skill(path: &Path) -> Result<Read, Error> {
    let (bundle, blobs) =
        read_package(path, &BundleLimits::default()).map_err(|e| Error::InvalidInput {
            field: "source".into(),
            message: e.to_string(),
        })?;
    let digests = digests(&blobs);
    Ok(Read {
        bundle,
        blobs,
        digests,
    })
}
