//! State stores: where `state.json` and `history.json` live and how they are read and committed.
//!
//! A call is a transaction: [`StateStore::begin`] takes exclusive access (a lock file for the file
//! store), the guest reads through the session and stages writes, and the harness calls
//! [`StoreSession::commit`] only when the guest returned `Ok`. Dropping a session without committing
//! writes nothing.

use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

pub use guest::Document;

/// The original's default `state.json`, used to tell a real legacy file from an untouched template.
pub const STATE_TEMPLATE: &str = include_str!("../../data/state.json");
/// The original's default `history.json`.
pub const HISTORY_TEMPLATE: &str = include_str!("../../data/history.json");

/// A failure of the store. Each names the file it concerns.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot {op} {}: {source}", .path.display())]
    Io {
        op: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{} is {size} bytes, over the {limit}-byte limit; it was left as it is", .path.display())]
    TooLarge {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
    #[error("{} is not UTF-8 text; it was left as it is — repair it or move it aside", .path.display())]
    NotUtf8 { path: PathBuf },
    #[error("{} is held by another skill-recommender process; gave up after {waited:?}", .path.display())]
    Locked { path: PathBuf, waited: Duration },
    #[error("legacy file {} cannot be migrated: {message}; it was left as it is", .path.display())]
    Legacy { path: PathBuf, message: String },
    #[error("this call may not write state, but the component staged {file}")]
    ReadOnly { file: &'static str },
    #[error("the component staged a {size}-byte {file}, over the {limit}-byte limit")]
    StagedTooLarge {
        file: &'static str,
        size: u64,
        limit: u64,
    },
}

impl StoreError {
    /// The file concerned, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            StoreError::Io { path, .. }
            | StoreError::TooLarge { path, .. }
            | StoreError::NotUtf8 { path }
            | StoreError::Locked { path, .. }
            | StoreError::Legacy { path, .. } => Some(path),
            StoreError::StagedTooLarge { .. } | StoreError::ReadOnly { .. } => None,
        }
    }
}

/// A persistence backend for the two documents.
pub trait StateStore: Send + Sync {
    /// Start a transaction with exclusive access; it ends when the session is committed or dropped.
    fn begin(&self) -> Result<Box<dyn StoreSession>, StoreError>;

    /// Where a document lives, for messages (`None` for stores without paths).
    fn location(&self, doc: Document) -> Option<PathBuf>;
}

/// One transaction on a store.
pub trait StoreSession: Send {
    /// The document's committed text, or `None` if it does not exist.
    fn read(&mut self, doc: Document) -> Result<Option<String>, StoreError>;

    /// Write the staged documents, in order, each atomically.
    fn commit(self: Box<Self>, writes: Vec<(Document, String)>) -> Result<(), StoreError>;
}

// ---------------------------------------------------------------------------------------------------
// In-memory store

#[derive(Debug, Default)]
struct MemoryInner {
    state: Option<String>,
    history: Option<String>,
    busy: bool,
}

/// An in-memory store (tests, embedding without files). Sessions are exclusive, like the file store's.
#[derive(Debug, Clone, Default)]
pub struct MemoryStateStore {
    inner: Arc<(Mutex<MemoryInner>, Condvar)>,
}

impl MemoryStateStore {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with(state: Option<&str>, history: Option<&str>) -> Self {
        let store = Self::default();
        store.set(Document::State, state);
        store.set(Document::History, history);
        store
    }

    /// The committed text of a document.
    pub fn get(&self, doc: Document) -> Option<String> {
        let inner = self.inner.0.lock().expect("memory store poisoned");
        match doc {
            Document::State => inner.state.clone(),
            Document::History => inner.history.clone(),
        }
    }

    pub fn set(&self, doc: Document, text: Option<&str>) {
        let mut inner = self.inner.0.lock().expect("memory store poisoned");
        let slot = match doc {
            Document::State => &mut inner.state,
            Document::History => &mut inner.history,
        };
        *slot = text.map(str::to_owned);
    }
}

struct MemorySession {
    inner: Arc<(Mutex<MemoryInner>, Condvar)>,
}

impl Drop for MemorySession {
    fn drop(&mut self) {
        let (lock, cv) = &*self.inner;
        lock.lock().expect("memory store poisoned").busy = false;
        cv.notify_one();
    }
}

impl StateStore for MemoryStateStore {
    fn begin(&self) -> Result<Box<dyn StoreSession>, StoreError> {
        let (lock, cv) = &*self.inner;
        let mut inner = lock.lock().expect("memory store poisoned");
        while inner.busy {
            inner = cv.wait(inner).expect("memory store poisoned");
        }
        inner.busy = true;
        Ok(Box::new(MemorySession {
            inner: self.inner.clone(),
        }))
    }

    fn location(&self, _doc: Document) -> Option<PathBuf> {
        None
    }
}

impl StoreSession for MemorySession {
    fn read(&mut self, doc: Document) -> Result<Option<String>, StoreError> {
        let inner = self.inner.0.lock().expect("memory store poisoned");
        Ok(match doc {
            Document::State => inner.state.clone(),
            Document::History => inner.history.clone(),
        })
    }

    fn commit(self: Box<Self>, writes: Vec<(Document, String)>) -> Result<(), StoreError> {
        let mut inner = self.inner.0.lock().expect("memory store poisoned");
        for (doc, text) in writes {
            match doc {
                Document::State => inner.state = Some(text),
                Document::History => inner.history = Some(text),
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------------
// No store

/// For calls that need no state (`normalize`): no files, no lock; the guest sees empty documents and
/// any attempt to commit a write is an error.
#[derive(Debug, Clone, Copy, Default)]
pub struct NullStateStore;

struct NullSession;

impl StateStore for NullStateStore {
    fn begin(&self) -> Result<Box<dyn StoreSession>, StoreError> {
        Ok(Box::new(NullSession))
    }

    fn location(&self, _doc: Document) -> Option<PathBuf> {
        None
    }
}

impl StoreSession for NullSession {
    fn read(&mut self, _doc: Document) -> Result<Option<String>, StoreError> {
        Ok(None)
    }

    fn commit(self: Box<Self>, writes: Vec<(Document, String)>) -> Result<(), StoreError> {
        match writes.first() {
            Some((doc, _)) => Err(StoreError::ReadOnly {
                file: doc.file_name(),
            }),
            None => Ok(()),
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// State directory resolution

/// Where the state directory came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateDirSource {
    /// `--state-dir`.
    Flag,
    /// `$SKILL_RECOMMENDER_STATE_DIR`.
    EnvStateDir,
    /// `$HERMES_HOME/state/skill-recommender`.
    HermesHome,
    /// `~/.hermes/state/skill-recommender` (because `~/.hermes` exists).
    HermesDefault,
    /// `~/.skill-recommender`.
    Home,
}

impl StateDirSource {
    pub fn as_str(self) -> &'static str {
        match self {
            StateDirSource::Flag => "--state-dir",
            StateDirSource::EnvStateDir => "$SKILL_RECOMMENDER_STATE_DIR",
            StateDirSource::HermesHome => "$HERMES_HOME",
            StateDirSource::HermesDefault => "~/.hermes",
            StateDirSource::Home => "~/.skill-recommender",
        }
    }
}

/// Resolve the state directory, the original's order first: the flag, `$SKILL_RECOMMENDER_STATE_DIR`,
/// `$HERMES_HOME/state/skill-recommender`, `~/.hermes/state/skill-recommender` if `~/.hermes` exists,
/// else `~/.skill-recommender`. Empty variables count as unset. Pure: the environment and home are
/// passed in, so every branch is testable.
pub fn resolve_state_dir(
    flag: Option<&Path>,
    env: impl Fn(&str) -> Option<OsString>,
    home: Option<&Path>,
) -> Result<(PathBuf, StateDirSource), String> {
    if let Some(dir) = flag {
        return Ok((dir.to_path_buf(), StateDirSource::Flag));
    }
    let var = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = var("SKILL_RECOMMENDER_STATE_DIR") {
        return Ok((dir, StateDirSource::EnvStateDir));
    }
    if let Some(hermes) = var("HERMES_HOME") {
        return Ok((
            hermes.join("state").join("skill-recommender"),
            StateDirSource::HermesHome,
        ));
    }
    let home = home.ok_or_else(|| {
        "no home directory: pass --state-dir or set SKILL_RECOMMENDER_STATE_DIR".to_owned()
    })?;
    let hermes = home.join(".hermes");
    if hermes.is_dir() {
        return Ok((
            hermes.join("state").join("skill-recommender"),
            StateDirSource::HermesDefault,
        ));
    }
    Ok((home.join(".skill-recommender"), StateDirSource::Home))
}

// ---------------------------------------------------------------------------------------------------
// File store

/// A legacy file copied into the state directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Migration {
    pub from: PathBuf,
    pub to: PathBuf,
}

/// The real store: `state.json` and `history.json` in a directory outside the skill's install directory.
///
/// - Reads refuse files over the size cap and non-UTF-8 files (never truncated or replaced).
/// - Writes are atomic: a temp file in the same directory, fsync, rename, fsync of the directory.
/// - `state.lock` in the directory is locked exclusively for the whole call, so concurrent processes
///   serialize their read-modify-write cycles.
/// - Legacy migration: when a document does not exist yet and the legacy data directory (the skill's
///   in-repo `data/`) holds a non-template version, it is copied once.
#[derive(Debug, Clone)]
pub struct FileStateStore {
    dir: PathBuf,
    legacy_dir: Option<PathBuf>,
    max_document_bytes: u64,
    lock_timeout: Duration,
    migrations: Arc<Mutex<Vec<Migration>>>,
}

impl FileStateStore {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        FileStateStore {
            dir: dir.into(),
            legacy_dir: None,
            max_document_bytes: crate::Limits::default().max_document_bytes,
            lock_timeout: Duration::from_secs(30),
            migrations: Arc::default(),
        }
    }

    /// Migrate from this legacy `data/` directory when the external files do not exist yet.
    pub fn with_legacy_dir(mut self, dir: Option<PathBuf>) -> Self {
        self.legacy_dir = dir;
        self
    }

    pub fn with_max_document_bytes(mut self, bytes: u64) -> Self {
        self.max_document_bytes = bytes;
        self
    }

    pub fn with_lock_timeout(mut self, timeout: Duration) -> Self {
        self.lock_timeout = timeout;
        self
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn path(&self, doc: Document) -> PathBuf {
        self.dir.join(doc.file_name())
    }

    /// Legacy files migrated by this store so far.
    pub fn migrations(&self) -> Vec<Migration> {
        self.migrations
            .lock()
            .expect("migration log poisoned")
            .clone()
    }

    fn lock(&self) -> Result<File, StoreError> {
        let path = self.dir.join("state.lock");
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|source| StoreError::Io {
                op: "open",
                path: path.clone(),
                source,
            })?;
        let start = Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(file),
                Err(fs::TryLockError::WouldBlock) if start.elapsed() < self.lock_timeout => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(StoreError::Locked {
                        path,
                        waited: start.elapsed(),
                    });
                }
                Err(fs::TryLockError::Error(source)) => {
                    return Err(StoreError::Io {
                        op: "lock",
                        path,
                        source,
                    });
                }
            }
        }
    }

    fn migrate(&self, doc: Document) -> Result<(), StoreError> {
        let Some(legacy_dir) = &self.legacy_dir else {
            return Ok(());
        };
        let to = self.path(doc);
        let from = legacy_dir.join(doc.file_name());
        if to.exists() || !from.is_file() || same_file(&from, &to) {
            return Ok(());
        }
        let text = read_capped(&from, self.max_document_bytes)?.unwrap_or_default();
        let value: Value = serde_json::from_str(&text).map_err(|e| StoreError::Legacy {
            path: from.clone(),
            message: format!("not valid JSON ({e})"),
        })?;
        if !value.is_object() {
            return Err(StoreError::Legacy {
                path: from,
                message: "not a JSON object".into(),
            });
        }
        let template = match doc {
            Document::State => STATE_TEMPLATE,
            Document::History => HISTORY_TEMPLATE,
        };
        if serde_json::from_str::<Value>(template).ok().as_ref() == Some(&value) {
            return Ok(()); // an untouched template carries nothing to migrate
        }
        atomic_write(&to, text.as_bytes())?;
        self.migrations
            .lock()
            .expect("migration log poisoned")
            .push(Migration { from, to });
        Ok(())
    }
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Read a file as UTF-8 within a size cap; `None` if it does not exist.
fn read_capped(path: &Path, limit: u64) -> Result<Option<String>, StoreError> {
    let io_err = |op, source| StoreError::Io {
        op,
        path: path.to_path_buf(),
        source,
    };
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err("stat", e)),
    };
    if meta.len() > limit {
        return Err(StoreError::TooLarge {
            path: path.to_path_buf(),
            size: meta.len(),
            limit,
        });
    }
    let bytes = fs::read(path).map_err(|e| io_err("read", e))?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| StoreError::NotUtf8 {
            path: path.to_path_buf(),
        })
}

/// Replace `path` atomically: temp file in the same directory, fsync, rename, fsync the directory.
/// The existing file's permissions are kept.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let io_err = |op, source| StoreError::Io {
        op,
        path: path.to_path_buf(),
        source,
    };
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("doc");
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| io_err("create a temp file beside", e))?;
    tmp.write_all(bytes).map_err(|e| io_err("write", e))?;
    if let Ok(meta) = fs::metadata(path) {
        tmp.as_file()
            .set_permissions(meta.permissions())
            .map_err(|e| io_err("set permissions of", e))?;
    }
    tmp.as_file().sync_all().map_err(|e| io_err("fsync", e))?;
    tmp.persist(path).map_err(|e| io_err("replace", e.error))?;
    #[cfg(unix)]
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io_err("fsync the directory of", e))?;
    Ok(())
}

struct FileSession {
    store: FileStateStore,
    _lock: File,
}

impl StateStore for FileStateStore {
    fn begin(&self) -> Result<Box<dyn StoreSession>, StoreError> {
        fs::create_dir_all(&self.dir).map_err(|source| StoreError::Io {
            op: "create the state directory",
            path: self.dir.clone(),
            source,
        })?;
        let lock = self.lock()?;
        self.migrate(Document::State)?;
        self.migrate(Document::History)?;
        Ok(Box::new(FileSession {
            store: self.clone(),
            _lock: lock,
        }))
    }

    fn location(&self, doc: Document) -> Option<PathBuf> {
        Some(self.path(doc))
    }
}

impl StoreSession for FileSession {
    fn read(&mut self, doc: Document) -> Result<Option<String>, StoreError> {
        read_capped(&self.store.path(doc), self.store.max_document_bytes)
    }

    fn commit(self: Box<Self>, writes: Vec<(Document, String)>) -> Result<(), StoreError> {
        for (doc, text) in writes {
            atomic_write(&self.store.path(doc), text.as_bytes())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
