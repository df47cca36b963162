//! Scanning many bundles in one process: a registry's catalog, a folder of skills, everything an
//! agent has installed — and auditing installed skills against their provenance ([`Audit`]).
//!
//! One [`Harness`] (built with its warm instance pool, one slot per worker) serves every bundle:
//! `jobs` worker threads each take the next bundle, read it ([`crate::bundle::read_bundle`]), scan it
//! ([`Command::ScanBundle`], on the worker's own instance, kept for a batch of bundles: [`Worker`])
//! and hand the result to the caller as soon as it is
//! done, so a front-end can write it out at once (the CLI writes one JSON line per bundle). Bundles are
//! taken from an iterator only when a worker is free and a result is dropped once the caller has it,
//! so memory stays flat in the number of bundles: at most `jobs` bundles are read at a time, and a few
//! results wait in a bounded queue.
//!
//! ```no_run
//! use host_harness::catalog::{self, Options};
//! use host_harness::{Harness, InstancePool, Lang};
//!
//! let harness = Harness::builder().instance_pool(Some(InstancePool { slots: 2, ..Default::default() })).build()?;
//! let jobs = catalog::skill_folders("/srv/registry/skills".as_ref()).enumerate();
//! let ctx = host_harness::system_context(Lang::En);
//! let summary = catalog::scan(&harness, &ctx, jobs, &Options { jobs: 2, ..Options::default() }, |done, _| {
//!     println!("{}", done.to_json_line());
//! });
//! println!("{}", summary.to_json());
//! # Ok::<(), host_harness::Error>(())
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::mpsc::sync_channel;
use std::time::Instant;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::bundle::{BundleLimits, read_bundle, read_package};
use crate::discover::SkillsDir;
use crate::{Command, Ctx, Error, Harness, SkillsCall, Trust, Worker};

/// How to scan.
#[derive(Debug, Clone)]
pub struct Options {
    /// Trust level every bundle is scanned with (the CLI's `--trust`, default community).
    pub trust: Trust,
    /// `--force`: allow a blocked bundle after review (never lifts `dangerous` on community or trusted).
    pub force: bool,
    /// Worker threads (at least 1). Give the harness at least as many pool slots.
    pub jobs: usize,
    /// Caps for reading each bundle.
    pub limits: BundleLimits,
    /// Audit installed skills instead of scanning bundles: each is compared with its provenance (the
    /// tree digest) and re-scanned with the trust it records (see [`Audit`]).
    pub audit: Option<Audit>,
}

/// How `audit` judges installed skills (the component's `audit-skill`): the tree digest against the
/// provenance's, a re-scan with the current rules, and a `level` (`ok`, `attention`, `dangerous`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Audit {
    /// Scan with this trust instead of the one each skill's provenance records (else community).
    pub trust: Option<Trust>,
}

impl Default for Options {
    /// Community trust, no force, one worker per core, the default reading caps.
    fn default() -> Self {
        Options {
            trust: Trust::Community,
            force: false,
            jobs: default_jobs(),
            limits: BundleLimits::default(),
            audit: None,
        }
    }
}

/// One worker per core the process may use.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// One bundle to scan: where it is, and fields the caller wants on its result line (e.g. `audit`'s
/// `agent`).
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub path: PathBuf,
    pub extra: Vec<(&'static str, Value)>,
    /// Set when the job could not even be listed (an unreadable folder under `--from-dir`): reported
    /// as this bundle's error instead of scanning.
    pub unreadable: Option<String>,
}

impl From<PathBuf> for Job {
    fn from(path: PathBuf) -> Job {
        Job {
            path,
            extra: Vec::new(),
            unreadable: None,
        }
    }
}

/// A bundle's install policy, in the order a gate cares about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Policy {
    Allow,
    Ask,
    Block,
}

impl Policy {
    pub fn as_str(self) -> &'static str {
        match self {
            Policy::Allow => "allow",
            Policy::Ask => "ask",
            Policy::Block => "block",
        }
    }

    fn parse(text: &str) -> Option<Policy> {
        match text {
            "allow" => Some(Policy::Allow),
            "ask" => Some(Policy::Ask),
            "block" => Some(Policy::Block),
            _ => None,
        }
    }
}

/// What the component said about one bundle (the fields a summary needs; the rest stays in the text).
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The component's JSON object, as it returned it.
    pub json: String,
    pub policy: Policy,
    pub verdict: String,
    pub files: u64,
    pub bytes: u64,
    /// `audit`: the skill's level (`ok`, `attention`, `dangerous`).
    pub level: Option<String>,
}

/// One finished bundle.
#[derive(Debug)]
pub struct Scanned {
    /// Its position among the jobs (results arrive in the order they finish).
    pub index: usize,
    pub job: Job,
    pub outcome: Result<Report, Error>,
}

impl Scanned {
    /// The bundle's JSON line: the component's result with `path` (and the job's extra fields) added,
    /// or `{"path", "error": {...}}`. No trailing newline.
    pub fn to_json_line(&self) -> String {
        let mut extra: Vec<(&str, &Value)> = Vec::with_capacity(1 + self.job.extra.len());
        let path = json!(self.job.path);
        extra.push(("path", &path));
        extra.extend(self.job.extra.iter().map(|(k, v)| (*k, v)));
        match &self.outcome {
            Ok(report) => {
                let mut out = Vec::with_capacity(report.json.len() + 128);
                match crate::json_text::write(&mut out, &report.json, &extra, false) {
                    Ok(()) => String::from_utf8(out).expect("JSON text is UTF-8"),
                    Err(e) => error_line(&extra, &Error::Component(e.to_string())),
                }
            }
            Err(e) => error_line(&extra, e),
        }
    }
}

fn error_line(extra: &[(&str, &Value)], e: &Error) -> String {
    let mut v = e.to_json();
    for (k, x) in extra {
        v[*k] = (*x).clone();
    }
    v.to_string()
}

/// The counts over every bundle scanned, and the exit code they add up to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub bundles: usize,
    pub by_policy: BTreeMap<&'static str, usize>,
    pub by_verdict: BTreeMap<String, usize>,
    /// Bundles that could not be read or scanned, and the first such error's exit code.
    pub errors: usize,
    pub first_error_exit: Option<i32>,
    pub worst: Option<Policy>,
    pub files: u64,
    pub bytes: u64,
    pub elapsed_ms: u64,
    /// `audit`: skills by level; the exit code then follows the levels.
    pub by_level: Option<BTreeMap<String, usize>>,
}

impl Summary {
    fn add(&mut self, outcome: &Result<Report, Error>) {
        self.bundles += 1;
        match outcome {
            Ok(r) => {
                *self.by_policy.entry(r.policy.as_str()).or_default() += 1;
                *self.by_verdict.entry(r.verdict.clone()).or_default() += 1;
                self.worst = self.worst.max(Some(r.policy));
                self.files += r.files;
                self.bytes += r.bytes;
                if let Some(level) = &r.level {
                    *self
                        .by_level
                        .get_or_insert_with(BTreeMap::new)
                        .entry(level.clone())
                        .or_default() += 1;
                }
            }
            Err(e) => {
                self.errors += 1;
                self.first_error_exit.get_or_insert(e.exit_code());
            }
        }
    }

    /// The exit code of the whole scan, the worst outcome first: any `block` → 8; else any bundle
    /// that could not be scanned → its error's code (3 for an unreadable path); else any `ask` → 9;
    /// else 0. An unvetted bundle fails a gate as a blocked one does.
    ///
    /// An audit counts levels instead: any `dangerous` → 8; else an error's code; else any `attention`
    /// (changed since install, rated caution, provenance unreadable) → 9; else 0.
    pub fn exit_code(&self) -> u8 {
        if let Some(levels) = &self.by_level {
            let has = |l: &str| levels.get(l).is_some_and(|n| *n > 0);
            if has("dangerous") {
                return 8;
            }
            if let Some(code) = self.first_error_exit {
                return u8::try_from(code).unwrap_or(1);
            }
            return if has("attention") { 9 } else { 0 };
        }
        if self.worst == Some(Policy::Block) {
            return 8;
        }
        if let Some(code) = self.first_error_exit {
            return u8::try_from(code).unwrap_or(1);
        }
        match self.worst {
            Some(Policy::Ask) => 9,
            _ => 0,
        }
    }

    /// `{"summary": {...}}`, the last line of a catalog scan.
    pub fn to_json(&self) -> Value {
        let mut v = self.scan_json();
        if let Some(levels) = &self.by_level {
            v["summary"]["by_level"] = json!({
                "ok": levels.get("ok").copied().unwrap_or(0),
                "attention": levels.get("attention").copied().unwrap_or(0),
                "dangerous": levels.get("dangerous").copied().unwrap_or(0),
            });
        }
        v
    }

    fn scan_json(&self) -> Value {
        json!({"summary": {
            "bundles": self.bundles,
            "by_policy": {
                "allow": self.by_policy.get("allow").copied().unwrap_or(0),
                "ask": self.by_policy.get("ask").copied().unwrap_or(0),
                "block": self.by_policy.get("block").copied().unwrap_or(0),
            },
            "by_verdict": self.by_verdict,
            "errors": self.errors,
            "policy": self.worst.map(Policy::as_str),
            "exit_code": self.exit_code(),
            "files": self.files,
            "bytes": self.bytes,
            "elapsed_ms": self.elapsed_ms,
        }})
    }
}

/// The fields of a scan (or audit) result the summary reads.
#[derive(Deserialize)]
struct Head {
    policy: String,
    verdict: String,
    #[serde(default)]
    stats: Stats,
    #[serde(default)]
    level: Option<String>,
}

#[derive(Deserialize, Default)]
struct Stats {
    #[serde(default)]
    files: u64,
    #[serde(default)]
    bytes: u64,
}

/// Read and scan one bundle.
fn scan_one(
    worker: &mut Worker<'_>,
    ctx: &Ctx,
    job: &Job,
    opts: &Options,
) -> Result<Report, Error> {
    if let Some(why) = &job.unreadable {
        return Err(Error::InvalidInput {
            field: "path".into(),
            message: format!("{}: {why}", job.path.display()),
        });
    }
    let command = match &opts.audit {
        None => Command::ScanBundle {
            bundle: read_bundle(&job.path, &opts.limits).map_err(|e| Error::InvalidInput {
                field: "path".into(),
                message: e.to_string(),
            })?,
            trust: opts.trust,
            force: opts.force,
        },
        Some(audit) => audit_command(job, opts, audit)?,
    };
    let json = worker.run_text_owned(ctx, command)?;
    let head: Head = serde_json::from_str(&json).map_err(|e| {
        Error::Component(format!(
            "the component's scan result is not understood: {e}"
        ))
    })?;
    let policy = Policy::parse(&head.policy).ok_or_else(|| {
        Error::Component(format!(
            "the component returned an unknown policy {:?}",
            head.policy
        ))
    })?;
    Ok(Report {
        json,
        policy,
        verdict: head.verdict,
        files: head.stats.files,
        bytes: head.stats.bytes,
        level: head.level,
    })
}

/// The component call that audits one installed skill: its files with the binary ones' digests, and
/// the provenance it carries.
fn audit_command(job: &Job, opts: &Options, audit: &Audit) -> Result<Command, Error> {
    let (bundle, blobs) =
        read_package(&job.path, &opts.limits).map_err(|e| Error::InvalidInput {
            field: "path".into(),
            message: e.to_string(),
        })?;
    let provenance = bundle
        .files
        .iter()
        .find(|f| f.path == guest::ondisk::names::PROVENANCE_PATH)
        .and_then(|f| f.content.clone());
    let agent = job
        .extra
        .iter()
        .find(|(k, _)| *k == "agent")
        .and_then(|(_, v)| v.as_str())
        .unwrap_or("custom")
        .to_owned();
    Ok(Command::Skills(Box::new(SkillsCall::AuditSkill {
        digests: crate::ondisk::disk::digests(&blobs),
        bundle,
        provenance,
        trust: audit.trust,
        path: job.path.display().to_string(),
        agent,
    })))
}

/// Scan every job on `opts.jobs` threads; `each` is called on the calling thread with every bundle as
/// it finishes, and the summary so far (this bundle included). Returns the summary.
pub fn scan<I, J>(
    harness: &Harness,
    ctx: &Ctx,
    jobs: I,
    opts: &Options,
    mut each: impl FnMut(Scanned, &Summary),
) -> Summary
where
    I: Iterator<Item = (usize, J)> + Send,
    J: Into<Job>,
{
    let start = Instant::now();
    let workers = opts.jobs.max(1);
    let jobs = Mutex::new(jobs);
    let mut summary = Summary::default();
    std::thread::scope(|s| {
        // A short queue: a slow consumer (a pipe nobody reads) holds the workers back instead of
        // piling results up in memory.
        let (tx, rx) = sync_channel::<Scanned>(workers * 2);
        for _ in 0..workers {
            let tx = tx.clone();
            let jobs = &jobs;
            s.spawn(move || {
                // One instance per worker, kept across bundles ([`Worker`]).
                let mut worker = harness.worker();
                loop {
                    let next = jobs
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .next();
                    let Some((index, job)) = next else { break };
                    let job: Job = job.into();
                    let outcome = scan_one(&mut worker, ctx, &job, opts);
                    if tx
                        .send(Scanned {
                            index,
                            job,
                            outcome,
                        })
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for done in rx {
            summary.add(&done.outcome);
            summary.elapsed_ms = elapsed_ms(start);
            each(done, &summary);
        }
    });
    summary.elapsed_ms = elapsed_ms(start);
    summary
}

fn elapsed_ms(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Folders deeper than this below `--from-dir` are not searched.
pub const MAX_WALK_DEPTH: usize = 32;

/// Every skill folder beneath `root` (a folder holding a `SKILL.md`; its own subfolders are part of
/// it and not searched), in sorted order, found as they are needed (nothing is collected up front).
/// `root` itself counts when it holds a `SKILL.md`. Hidden folders (`.git`, …) are skipped; symlinked
/// folders outside the tree are followed, each target once (links into the tree, loops included, are
/// skipped: the walk reaches those folders anyway). A folder that cannot be listed is
/// yielded as a job whose `unreadable` says why.
pub fn skill_folders(root: &Path) -> SkillFolders {
    SkillFolders {
        stack: vec![(root.to_path_buf(), 0)],
        followed: BTreeSet::new(),
        root: root.canonicalize().ok(),
    }
}

/// The iterator of [`skill_folders`].
#[derive(Debug)]
pub struct SkillFolders {
    stack: Vec<(PathBuf, usize)>,
    /// Canonical targets of the symlinks followed so far.
    followed: BTreeSet<PathBuf>,
    /// The root, canonical: a link to a folder inside it is reached by the walk anyway.
    root: Option<PathBuf>,
}

impl Iterator for SkillFolders {
    type Item = Job;

    fn next(&mut self) -> Option<Job> {
        while let Some((dir, depth)) = self.stack.pop() {
            if dir.join("SKILL.md").is_file() {
                return Some(dir.into());
            }
            if depth >= MAX_WALK_DEPTH {
                continue;
            }
            let entries = match std::fs::read_dir(&dir) {
                Ok(rd) => rd,
                Err(e) => {
                    return Some(Job {
                        unreadable: Some(format!("cannot list it ({e})")),
                        ..dir.into()
                    });
                }
            };
            let mut listed: Vec<_> = entries.flatten().collect();
            listed.sort_by_key(|e| e.path());
            let mut subdirs: Vec<PathBuf> = Vec::new();
            for entry in listed {
                if entry.file_name().to_string_lossy().starts_with('.') {
                    continue;
                }
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                let path = entry.path();
                if kind.is_dir() {
                    subdirs.push(path);
                } else if kind.is_symlink() && path.is_dir() {
                    // Each target once: a second link to it, or a link back up the tree, is skipped.
                    if let Ok(target) = path.canonicalize()
                        && !self.root.as_ref().is_some_and(|r| target.starts_with(r))
                        && self.followed.insert(target)
                    {
                        subdirs.push(path);
                    }
                }
            }
            subdirs.sort();
            self.stack
                .extend(subdirs.into_iter().rev().map(|p| (p, depth + 1)));
        }
        None
    }
}

/// One folder of installed skills `audit` reads, and whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstalledDir {
    pub path: PathBuf,
    /// The agent it belongs to, as the component's layouts name it (`claude-code`, `hermes`, …), or
    /// `custom` for a folder given by hand.
    pub agent: String,
    /// Whether skills may sit one level down in category folders (`<dir>/<category>/<skill>`, as
    /// Hermes lays them out).
    pub categories: bool,
}

impl From<SkillsDir> for InstalledDir {
    /// A discovery directory: its label names the agent, category folders allowed.
    fn from(d: SkillsDir) -> InstalledDir {
        InstalledDir {
            path: d.path,
            agent: d.label.to_owned(),
            categories: true,
        }
    }
}

/// The skills installed in `dirs` (`<dir>/<skill>/SKILL.md`, and one level of category folders where
/// the folder has them), as jobs whose result lines carry `agent` and `skills_dir`, and warnings for
/// folders that could not be listed. Directories that do not exist are skipped; one seen twice (the
/// same folder under two names) is read once.
pub fn installed(dirs: &[InstalledDir]) -> (Vec<Job>, Vec<String>) {
    let mut seen = BTreeSet::new();
    let mut jobs = Vec::new();
    let mut warnings = Vec::new();
    for d in dirs {
        let Ok(canon) = d.path.canonicalize() else {
            continue;
        };
        if !canon.is_dir() || !seen.insert(canon.clone()) {
            continue;
        }
        for skill in crate::discover::skill_folders(&canon, &mut warnings) {
            // Without category folders only the direct children are skills.
            if !d.categories && skill.parent() != Some(canon.as_path()) {
                continue;
            }
            jobs.push(Job {
                path: skill,
                extra: vec![("agent", json!(d.agent)), ("skills_dir", json!(d.path))],
                unreadable: None,
            });
        }
    }
    (jobs, warnings)
}

#[cfg(test)]
mod tests;
