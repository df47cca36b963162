//! Transactions on a skills folder: a lock, a staging area, a journal, steps that can be re-run, and
//! recovery.
//!
//! Everything a command writes is first staged inside the folder's work directory
//! (`<skills folder>/.skill-recommender/txn-<id>/`, on the same file system as the target, so renames are
//! atomic): the new skill folder with its provenance, the new AGENTS.md text, new file contents, and a
//! backup of every file about to be replaced. Then the journal (`journal.json`, written atomically)
//! records the steps; writing it is the commit point. The steps run in order and each is idempotent:
//!
//! | step | does | done when |
//! |---|---|---|
//! | `retire` | rename the old folder into the work directory | the old path is gone |
//! | `rename` | rename the staged folder into place | the staged folder is gone |
//! | `agents-md`, `provenance`, `file` | replace a file atomically with its staged text (or remove it) | always re-runnable |
//! | `history` | record `accept` through the component's `feedback` | a record of this accept exists |
//! | `purge` | delete the retired folder | it is gone |
//!
//! A crash before the commit point leaves only staging behind (removed by the next command on the
//! folder); a crash after it is finished by the next command on the folder (recovery rolls forward).
//! The skill folder itself is always old or new (one rename), and each file is always its old or its
//! new bytes (temp file + rename). An I/O failure while the steps run rolls the done steps back to the
//! exact previous bytes (from the backups) and reports the error.
//!
//! Locks: the skills folder (and the AGENTS.md's folder, when another) is locked exclusively for the
//! whole command, so two processes never interleave; the second waits, then plans against what the
//! first left.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::Error;
use crate::{Command, Ctx, FeedbackAction, FileStateStore, Harness, Lang, SkillRef};

/// The work directory inside a skills folder (hidden: agents and discovery skip it).
pub const WORK_DIR: &str = ".skill-recommender";

/// What an injected fault does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FaultMode {
    /// Abort the process, as a kill would (the CLI).
    #[default]
    Abort,
    /// Stop dead right after the point: return [`Error::Disk`] with op `crash` and leave everything
    /// as it is — no rollback, no cleanup — as a killed process would (library tests).
    Stop,
    /// The step at that point fails like an I/O error (op `inject`) before doing anything: the steps
    /// done are rolled back.
    Fail,
}

/// Where a simulated crash or failure happens (tests).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Faults {
    pub point: Option<String>,
    pub mode: FaultMode,
}

impl Faults {
    /// From `$SKILL_RECOMMENDER_CRASH_AT` (a step name: `copy`, `staged`, `journal`, `retire`, `rename`,
    /// `agents-md`, `provenance`, `file`, `history`, `purge`, `done`): the process aborts there.
    pub fn from_env() -> Faults {
        Faults {
            point: std::env::var("SKILL_RECOMMENDER_CRASH_AT")
                .ok()
                .filter(|p| !p.is_empty()),
            mode: FaultMode::Abort,
        }
    }

    /// A fault at `point` in `mode`.
    pub fn at_point(point: &str, mode: FaultMode) -> Faults {
        Faults {
            point: Some(point.into()),
            mode,
        }
    }

    /// A crash right after `point` (modes `Abort` and `Stop`).
    pub(crate) fn at(&self, point: &str) -> Result<(), Error> {
        if self.point.as_deref() != Some(point) {
            return Ok(());
        }
        match self.mode {
            FaultMode::Abort => {
                eprintln!(
                    "skill-recommender: simulated crash at {point} (SKILL_RECOMMENDER_CRASH_AT)"
                );
                std::process::abort();
            }
            FaultMode::Stop => Err(Error::Disk {
                op: "crash",
                path: PathBuf::from(point),
                message: "simulated crash".into(),
            }),
            FaultMode::Fail => Ok(()),
        }
    }

    /// The step `point` fails like an I/O error, before it does anything (mode `Fail`).
    pub(crate) fn fails(&self, point: &str) -> Result<(), Error> {
        if self.point.as_deref() == Some(point) && self.mode == FaultMode::Fail {
            return Err(Error::Disk {
                op: "inject",
                path: PathBuf::from(point),
                message: "simulated I/O failure".into(),
            });
        }
        Ok(())
    }
}

pub(crate) fn io(op: &'static str, path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Disk {
        op,
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// An exclusive lock on a folder, held until dropped.
#[derive(Debug)]
pub struct DirLock {
    _file: File,
    pub path: PathBuf,
}

/// Lock `dir` (which must exist): the directory itself on Unix (no lock file is left behind), a lock
/// file in its work directory elsewhere. Waits up to `timeout`, then [`Error::Busy`].
pub fn lock_dir(dir: &Path, timeout: Duration) -> Result<DirLock, Error> {
    #[cfg(unix)]
    let file = File::open(dir).map_err(|e| io("lock", dir, e))?;
    #[cfg(not(unix))]
    let file = {
        let work = dir.join(WORK_DIR);
        fs::create_dir_all(&work).map_err(|e| io("create", &work, e))?;
        OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(work.join("lock"))
            .map_err(|e| io("lock", dir, e))?
    };
    let start = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => {
                return Ok(DirLock {
                    _file: file,
                    path: dir.to_path_buf(),
                });
            }
            Err(fs::TryLockError::WouldBlock) if start.elapsed() < timeout => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(fs::TryLockError::WouldBlock) => {
                return Err(Error::Busy {
                    path: dir.to_path_buf(),
                    waited_ms: start.elapsed().as_millis() as u64,
                });
            }
            Err(fs::TryLockError::Error(e)) => return Err(io("lock", dir, e)),
        }
    }
}

/// The skill recorded as accepted in history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistorySkill {
    pub skill_id: String,
    pub name: Option<String>,
    pub url: Option<String>,
    pub categories: Vec<String>,
}

/// One step of a transaction (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum Step {
    Retire {
        path: PathBuf,
        trash: PathBuf,
    },
    Rename {
        from: PathBuf,
        to: PathBuf,
    },
    /// Swap the staged folder `from` with the installed folder `to` in one atomic rename (Linux), so the
    /// skill is old or new at every instant; done when `to`'s provenance reads `marker`.
    Exchange {
        from: PathBuf,
        to: PathBuf,
        marker: String,
    },
    /// `label`: `agents-md`, `provenance` or `file`; `staged` `None` removes the file; `backup` holds
    /// the previous bytes (`None`: there was no file).
    Write {
        label: String,
        path: PathBuf,
        staged: Option<PathBuf>,
        backup: Option<PathBuf>,
        executable: bool,
    },
    History {
        state_dir: PathBuf,
        now: String,
        timezone: Option<String>,
        skill: HistorySkill,
    },
    Purge {
        path: PathBuf,
    },
}

impl Step {
    /// The fault point after this step.
    pub fn label(&self) -> &str {
        match self {
            Step::Retire { .. } => "retire",
            Step::Rename { .. } | Step::Exchange { .. } => "rename",
            Step::Write { label, .. } => label,
            Step::History { .. } => "history",
            Step::Purge { .. } => "purge",
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Journal {
    op: String,
    steps: Vec<Step>,
    /// Steps finished so far.
    done: usize,
}

/// Replace `path` atomically with `bytes` (temp file beside it, fsync, rename, fsync the folder). The
/// existing file's permissions are kept; a new file gets 0644 (0755 when `executable`).
pub fn write_atomic(path: &Path, bytes: &[u8], executable: bool) -> Result<(), Error> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| io("create", dir, e))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| io("create a temp file beside", path, e))?;
    tmp.write_all(bytes).map_err(|e| io("write", path, e))?;
    let perms = match fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => fresh_permissions(tmp.as_file(), executable),
    };
    tmp.as_file()
        .set_permissions(perms)
        .map_err(|e| io("set permissions of", path, e))?;
    tmp.as_file().sync_all().map_err(|e| io("fsync", path, e))?;
    tmp.persist(path)
        .map_err(|e| io("replace", path, e.error))?;
    sync_dir(dir);
    Ok(())
}

#[cfg(unix)]
fn fresh_permissions(_f: &File, executable: bool) -> fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    fs::Permissions::from_mode(if executable { 0o755 } else { 0o644 })
}

#[cfg(not(unix))]
fn fresh_permissions(f: &File, _executable: bool) -> fs::Permissions {
    f.metadata().map(|m| m.permissions()).unwrap_or_else(|_| {
        let mut p = fs::metadata(".").expect("cwd").permissions();
        p.set_readonly(false);
        p
    })
}

/// Write a new file (staging): plain create, 0644 or 0755.
pub fn write_new(path: &Path, bytes: &[u8], executable: bool) -> Result<(), Error> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| io("create", dir, e))?;
    }
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| io("create", path, e))?;
    f.write_all(bytes).map_err(|e| io("write", path, e))?;
    f.set_permissions(fresh_permissions(&f, executable))
        .map_err(|e| io("set permissions of", path, e))?;
    f.sync_all().map_err(|e| io("fsync", path, e))
}

fn sync_dir(dir: &Path) {
    // Best effort: some file systems refuse to fsync a directory.
    #[cfg(unix)]
    let _ = File::open(dir).and_then(|d| d.sync_all());
    #[cfg(not(unix))]
    let _ = dir;
}

fn exists(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok()
}

/// `rel` (a `/`-separated path the component produced) under `root`, refusing anything but plain
/// components (defense in depth: the component already checked it).
pub fn join_rel(root: &Path, rel: &str) -> Result<PathBuf, Error> {
    let p = Path::new(rel);
    if rel.is_empty()
        || rel.contains('\\')
        || p.components().any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(io(
            "use",
            &root.join(rel),
            "not a plain relative path inside the skill",
        ));
    }
    Ok(root.join(p))
}

/// One transaction in a skills folder's work directory.
pub struct Txn {
    pub dir: PathBuf,
    work: PathBuf,
    op: String,
    steps: Vec<Step>,
    faults: Faults,
    next: usize,
}

impl Txn {
    /// Start a transaction in `skills_dir` (which is locked by the caller).
    pub fn begin(skills_dir: &Path, op: &str, faults: &Faults) -> Result<Txn, Error> {
        let work = skills_dir.join(WORK_DIR);
        let id = format!(
            "txn-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        );
        let dir = work.join(id);
        fs::create_dir_all(&dir).map_err(|e| io("create", &dir, e))?;
        Ok(Txn {
            dir,
            work,
            op: op.to_owned(),
            steps: Vec::new(),
            faults: faults.clone(),
            next: 0,
        })
    }

    /// A fresh path inside the transaction's directory.
    pub fn scratch(&mut self, name: &str) -> PathBuf {
        self.next += 1;
        self.dir.join(format!("{}-{name}", self.next))
    }

    /// A simulated crash right after `point`.
    pub fn fault(&self, point: &str) -> Result<(), Error> {
        self.faults.at(point)
    }

    /// A simulated failure of the work at `point`.
    pub fn fails(&self, point: &str) -> Result<(), Error> {
        self.faults.fails(point)
    }

    /// Stage a file write: its new bytes (or removal) and a backup of its current bytes.
    pub fn stage_write(
        &mut self,
        label: &str,
        path: &Path,
        new: Option<&[u8]>,
        executable: bool,
    ) -> Result<(), Error> {
        let staged = match new {
            Some(bytes) => {
                let p = self.scratch("new");
                write_new(&p, bytes, executable)?;
                Some(p)
            }
            None => None,
        };
        let backup = match fs::symlink_metadata(path) {
            Ok(m) if m.is_file() => {
                let p = self.scratch("old");
                let bytes = fs::read(path).map_err(|e| io("read", path, e))?;
                write_new(&p, &bytes, false)?;
                Some(p)
            }
            Ok(_) => return Err(io("replace", path, "it is not a regular file")),
            Err(_) => None,
        };
        self.steps.push(Step::Write {
            label: label.into(),
            path: path.to_path_buf(),
            staged,
            backup,
            executable,
        });
        Ok(())
    }

    pub fn push(&mut self, step: Step) {
        self.steps.push(step);
    }

    /// Commit: write the journal, run every step, remove the work. On an I/O failure the steps done are
    /// undone and the error returned. Returns warnings (history that could not be recorded).
    pub fn commit(self, harness: &Harness) -> Result<Vec<String>, Error> {
        let journal_path = self.dir.join("journal.json");
        let mut journal = Journal {
            op: self.op.clone(),
            steps: self.steps.clone(),
            done: 0,
        };
        self.fault("staged")?;
        if let Err(e) = self
            .faults
            .fails("journal")
            .and_then(|()| save_journal(&journal_path, &journal))
        {
            finish(&self.dir, &self.work);
            return Err(e);
        }
        self.fault("journal")?;
        let mut warnings = Vec::new();
        for i in 0..journal.steps.len() {
            let step = journal.steps[i].clone();
            let ran = self
                .faults
                .fails(step.label())
                .and_then(|()| run_step(&step, harness, false));
            match (ran, &step) {
                (Ok(w), _) => warnings.extend(w),
                // History is bookkeeping: its failure is reported, never undoes the install.
                (Err(e), Step::History { .. }) => warnings.push(format!(
                    "installed, but history could not record the accept: {e}"
                )),
                (Err(e), _) => {
                    let undo = rollback(&journal.steps[..i]);
                    finish(&self.dir, &self.work);
                    return Err(match undo {
                        Ok(()) => e,
                        Err(u) => Error::Disk {
                            op: "roll back",
                            path: self.dir.clone(),
                            message: format!("{e}; rolling back also failed: {u}"),
                        },
                    });
                }
            }
            self.fault(step.label())?;
            journal.done = i + 1;
            save_journal(&journal_path, &journal)?;
        }
        self.fault("done")?;
        finish(&self.dir, &self.work);
        Ok(warnings)
    }

    /// Drop the staging without committing.
    pub fn abandon(self) {
        finish(&self.dir, &self.work);
    }
}

fn finish(dir: &Path, work: &Path) {
    let _ = fs::remove_dir_all(dir);
    // Leave no empty work directory behind.
    let _ = fs::remove_dir(work);
}

fn save_journal(path: &Path, j: &Journal) -> Result<(), Error> {
    let text = serde_json::to_string_pretty(j).expect("the journal serializes");
    write_atomic(path, text.as_bytes(), false)
}

/// Undo `done` steps, last first, back to the exact previous bytes.
fn rollback(done: &[Step]) -> Result<(), Error> {
    for step in done.iter().rev() {
        match step {
            Step::Retire { path, trash } => {
                if exists(trash) && !exists(path) {
                    fs::rename(trash, path).map_err(|e| io("restore", path, e))?;
                }
            }
            Step::Rename { from, to } => {
                if exists(to) && !exists(from) {
                    fs::rename(to, from).map_err(|e| io("take back", to, e))?;
                }
            }
            Step::Exchange { from, to, marker } => {
                if exchanged(to, marker) {
                    exchange(from, to)?;
                }
            }
            Step::Write {
                path,
                backup,
                executable,
                ..
            } => match backup {
                Some(b) => {
                    let bytes = fs::read(b).map_err(|e| io("read", b, e))?;
                    write_atomic(path, &bytes, *executable)?;
                }
                None => {
                    if exists(path) {
                        fs::remove_file(path).map_err(|e| io("remove", path, e))?;
                    }
                }
            },
            // Not undone: history is recorded last and its failure is only a warning; purge deletes
            // what is already retired.
            Step::History { .. } | Step::Purge { .. } => {}
        }
    }
    Ok(())
}

/// Run one step; `recovering` accepts the states a crash can leave (the step already done).
fn run_step(step: &Step, harness: &Harness, recovering: bool) -> Result<Vec<String>, Error> {
    match step {
        Step::Retire { path, trash } => match (exists(path), exists(trash)) {
            (true, false) => {
                fs::rename(path, trash).map_err(|e| io("move aside", path, e))?;
                if let Some(p) = path.parent() {
                    sync_dir(p);
                }
            }
            (false, true) => {}
            (true, true) if recovering => {}
            (false, false) if recovering => {}
            (true, true) => return Err(io("move aside", path, "the work path is taken")),
            (false, false) => return Err(io("move aside", path, "it is not there")),
        },
        Step::Rename { from, to } => match (exists(from), exists(to)) {
            (true, false) => {
                if let Some(p) = to.parent() {
                    fs::create_dir_all(p).map_err(|e| io("create", p, e))?;
                }
                fs::rename(from, to).map_err(|e| io("rename into place", to, e))?;
                if let Some(p) = to.parent() {
                    sync_dir(p);
                }
            }
            (false, true) => {}
            (true, true) => {
                return Err(io(
                    "rename into place",
                    to,
                    "something appeared there meanwhile",
                ));
            }
            (false, false) => return Err(io("rename into place", from, "the staged copy is gone")),
        },
        Step::Exchange { from, to, marker } => {
            if !exchanged(to, marker) {
                exchange(from, to)?;
            }
        }
        Step::Write {
            path,
            staged,
            executable,
            ..
        } => match staged {
            Some(s) => {
                let bytes = fs::read(s).map_err(|e| io("read", s, e))?;
                write_atomic(path, &bytes, *executable)?;
            }
            None => {
                if exists(path) {
                    fs::remove_file(path).map_err(|e| io("remove", path, e))?;
                    if let Some(p) = path.parent() {
                        sync_dir(p);
                    }
                }
            }
        },
        Step::History {
            state_dir,
            now,
            timezone,
            skill,
        } => {
            return Ok(
                record_accept(harness, state_dir, now, timezone.clone(), skill)
                    .err()
                    .map(|e| format!("installed, but history could not record the accept: {e}"))
                    .into_iter()
                    .collect(),
            );
        }
        Step::Purge { path } => {
            if exists(path)
                && let Err(e) = fs::remove_dir_all(path)
            {
                return Ok(vec![format!("could not delete {}: {e}", path.display())]);
            }
        }
    }
    Ok(vec![])
}

/// Has `to` received the folder whose provenance is `marker`?
fn exchanged(to: &Path, marker: &str) -> bool {
    fs::read_to_string(to.join(guest::ondisk::names::PROVENANCE_PATH)).is_ok_and(|t| t == marker)
}

/// Swap two folders atomically.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> Result<(), Error> {
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE)
        .map_err(|e| io("swap into place", b, e))?;
    if let Some(p) = b.parent() {
        sync_dir(p);
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn exchange(_a: &Path, b: &Path) -> Result<(), Error> {
    Err(io("swap into place", b, "atomic exchange needs Linux"))
}

/// Whether [`Step::Exchange`] is available here.
pub fn can_exchange() -> bool {
    cfg!(target_os = "linux")
}

/// Record `accept` unless this very accept (same skill, same instant) is already in history.
fn record_accept(
    harness: &Harness,
    state_dir: &Path,
    now: &str,
    timezone: Option<String>,
    skill: &HistorySkill,
) -> Result<(), Error> {
    let store = FileStateStore::new(state_dir);
    let stamp = guest::clock::parse_now(now)
        .map(guest::clock::stamp)
        .unwrap_or_default();
    let history = fs::read_to_string(state_dir.join("history.json")).unwrap_or_default();
    let already = serde_json::from_str::<Value>(&history)
        .ok()
        .and_then(|h| h["recommendations"].as_array().cloned())
        .into_iter()
        .flatten()
        .any(|r| {
            r["skill_id"] == skill.skill_id.as_str()
                && r["user_action"] == "accepted"
                && r["responded_at"] == stamp.as_str()
        });
    if already {
        return Ok(());
    }
    let ctx = Ctx {
        now: now.to_owned(),
        host_timezone: timezone,
        lang: Lang::En,
        lang_explicit: false,
    };
    harness
        .run(
            &store,
            &ctx,
            &Command::Feedback {
                action: FeedbackAction::Accept,
                skill: SkillRef {
                    skill_id: skill.skill_id.clone(),
                    name: skill.name.clone(),
                    url: skill.url.clone(),
                    categories: skill.categories.clone(),
                    mode: None,
                },
            },
        )
        .map(|_| ())
}

/// Finish or clean up what an interrupted command left in `skills_dir`'s work directory: a transaction
/// with a journal is rolled forward; staging without one is removed. Returns what was done, for people.
pub fn recover(skills_dir: &Path, harness: &Harness) -> Result<Vec<String>, Error> {
    let work = skills_dir.join(WORK_DIR);
    let Ok(rd) = fs::read_dir(&work) else {
        return Ok(vec![]);
    };
    let mut dirs: Vec<PathBuf> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("txn-"))
        })
        .collect();
    dirs.sort();
    let mut notes = Vec::new();
    for dir in dirs {
        let jp = dir.join("journal.json");
        match fs::read_to_string(&jp) {
            Ok(text) => {
                let mut j: Journal =
                    serde_json::from_str(&text).map_err(|e| io("read the journal", &jp, e))?;
                for i in j.done..j.steps.len() {
                    let step = j.steps[i].clone();
                    run_step(&step, harness, true)?;
                    j.done = i + 1;
                    save_journal(&jp, &j)?;
                }
                notes.push(format!(
                    "finished an interrupted {} in {} (its journal was committed)",
                    j.op,
                    skills_dir.display()
                ));
            }
            Err(_) => notes.push(format!(
                "removed the staging of an interrupted command in {}",
                skills_dir.display()
            )),
        }
        fs::remove_dir_all(&dir).map_err(|e| io("remove", &dir, e))?;
    }
    let _ = fs::remove_dir(&work);
    Ok(notes)
}

/// Is a transaction of this folder waiting for recovery (a journal without a finished run)?
pub fn pending(skills_dir: &Path) -> bool {
    fs::read_dir(skills_dir.join(WORK_DIR)).is_ok_and(|rd| {
        rd.filter_map(Result::ok)
            .any(|e| e.path().join("journal.json").is_file())
    })
}
