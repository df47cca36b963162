//! The command layer: each command is defined once — its arguments (a typed struct with serde and a JSON
//! Schema), the one guest call it makes, and its result — and every front-end calls it: the CLI
//! (`skill-recommender <command>`) and the MCP server (`skill-recommender mcp`). A front-end only moves
//! arguments in (flags and files, or a tool call's JSON) and the [`Output`] out (stdout, or a tool
//! result), so the two cannot drift.
//!
//! ```no_run
//! use std::sync::Arc;
//! use host_harness::commands::{FeedbackArgs, FeedbackKind, Host, HostEnv};
//! use host_harness::{Harness, Lang};
//!
//! let host = Host::new(Arc::new(Harness::builder().build()?), HostEnv::from_process());
//! let ctx = host_harness::system_context(Lang::En);
//! let out = host.feedback(&ctx, FeedbackArgs::new(FeedbackKind::Shown, "clawhub:pdf-tables"))?;
//! println!("{}", out.to_json_text(false)?);
//! # Ok::<(), host_harness::Error>(())
//! ```
//!
//! Every command is one guest call and one transaction (stateless ones run against
//! [`crate::NullStateStore`]: no state directory, no lock).

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

use crate::discover::{self, SkillsDir};
use crate::{Error, FileStateStore, Harness, InstalledSkill, StateDirSource, resolve_state_dir};

pub mod bundle;
pub mod candidates;
pub mod catalog;
pub mod lifecycle;
pub mod ondisk;
mod output;
pub mod schema;

pub use bundle::{ScanBundleArgs, TrustLevel, ValidateArgs};
pub use candidates::{
    AgentArgs, DiscoveryArgs, FilterArgs, ModeArg, NO_CANDIDATES, NormalizeArgs, RankArgs,
    RecommendArgs, RegistryArg, RenderArgs, SAMPLE_CANDIDATES, ScanArgs, SourceArgs,
};
pub use catalog::{Agent, AuditArgs, CatalogArgs};
pub use lifecycle::{
    DailyAction, DailyArgs, FeedbackArgs, FeedbackKind, NoticeAnswer, PromptSourceArg,
    UpdateAnswer, UpdateCheckArgs,
};
pub use ondisk::{
    AgentsMdArgs, InstallArgs, InstalledArgs, ManageAction, ManageArgs, PatchTextArgs, ScopeArg,
    TargetArgs, UninstallArgs,
};
pub use output::{Output, Verdict};
pub use schema::{JsonText, LangArg};

/// Receives the notes a command has for people (a legacy migration, an unreadable installed skill, a
/// registry item's unreadable field): the CLI prints them on stderr, the MCP server logs them there.
pub type NoteSink = Arc<dyn Fn(&str) + Send + Sync>;

/// The host-side environment commands run in: where state lives, where installed skills are looked for,
/// and where notes go. Captured once (the CLI per process, the MCP server at start-up).
#[derive(Clone)]
pub struct HostEnv {
    /// An explicit state directory (`--state-dir`); otherwise [`resolve_state_dir`]'s rules apply.
    pub state_dir: Option<PathBuf>,
    /// The environment variables the state directory rules and the agents' skill folders read
    /// (`SKILL_RECOMMENDER_STATE_DIR`, `HERMES_HOME`, `CODEX_HOME`), as they were when captured.
    pub vars: Vec<(&'static str, OsString)>,
    /// The user's home directory.
    pub home: Option<PathBuf>,
    /// The working directory (project-local skill directories are found under it).
    pub cwd: PathBuf,
    /// A legacy in-repo `data/` directory to migrate state from once ([`FileStateStore::with_legacy_dir`]).
    pub legacy_data_dir: Option<PathBuf>,
    pub notes: NoteSink,
}

/// The environment variables the state directory rules and the agents' skill folders read.
const STATE_VARS: [&str; 3] = ["SKILL_RECOMMENDER_STATE_DIR", "HERMES_HOME", "CODEX_HOME"];

impl HostEnv {
    /// This process's environment: its variables, home and working directory; notes go to stderr.
    pub fn from_process() -> HostEnv {
        HostEnv {
            state_dir: None,
            vars: STATE_VARS
                .iter()
                .filter_map(|k| std::env::var_os(k).map(|v| (*k, v)))
                .collect(),
            home: dirs::home_dir(),
            cwd: std::env::current_dir().unwrap_or_default(),
            legacy_data_dir: None,
            notes: Arc::new(|note| eprintln!("skill-recommender: {note}")),
        }
    }

    /// The state directory and where that came from, by the documented rules.
    pub fn state_dir(&self) -> Result<(PathBuf, StateDirSource), Error> {
        resolve_state_dir(
            self.state_dir.as_deref(),
            |k| {
                self.vars
                    .iter()
                    .find(|(name, _)| *name == k)
                    .map(|(_, v)| v.clone())
            },
            self.home.as_deref(),
        )
        .map_err(|message| Error::InvalidInput {
            field: "state-dir".into(),
            message,
        })
    }

    fn note(&self, text: &str) {
        (self.notes)(text)
    }
}

impl std::fmt::Debug for HostEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostEnv")
            .field("state_dir", &self.state_dir)
            .field("vars", &self.vars)
            .field("home", &self.home)
            .field("cwd", &self.cwd)
            .field("legacy_data_dir", &self.legacy_data_dir)
            .finish_non_exhaustive()
    }
}

/// A harness and the environment it serves: what both front-ends call. Cheap to clone and `Send + Sync`,
/// so a server can run commands from several threads at once (the harness's instance pool and the state
/// store's lock make that safe).
#[derive(Clone)]
pub struct Host {
    harness: Arc<Harness>,
    env: HostEnv,
}

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host")
            .field("env", &self.env)
            .finish_non_exhaustive()
    }
}

impl Host {
    pub fn new(harness: Arc<Harness>, env: HostEnv) -> Host {
        Host { harness, env }
    }

    pub fn harness(&self) -> &Harness {
        &self.harness
    }

    pub fn env(&self) -> &HostEnv {
        &self.env
    }

    /// The state store for one stateful command: the resolved directory, the legacy directory to
    /// migrate from, the document size cap. Resolved per call (it is cheap) so a server follows the
    /// same rules as the CLI.
    fn state_store(&self) -> Result<(FileStateStore, PathBuf, StateDirSource), Error> {
        let (dir, source) = self.env.state_dir()?;
        let store = FileStateStore::new(&dir)
            .with_legacy_dir(self.env.legacy_data_dir.clone())
            .with_max_document_bytes(self.harness.limits().max_document_bytes);
        Ok((store, dir, source))
    }

    /// Report the migrations a call made (once per legacy directory, when it happened).
    fn note_migrations(&self, store: &FileStateStore) {
        for m in store.migrations() {
            self.env.note(&format!(
                "migrated legacy {} to {}",
                m.from.display(),
                m.to.display()
            ));
        }
    }

    /// The installed skills of the usual skill directories (unless `no_discover`) and `skills_dirs`,
    /// with a report for the output; warnings go to the note sink.
    fn discover_installed(&self, d: &DiscoveryArgs) -> (Vec<InstalledSkill>, serde_json::Value) {
        let mut dirs: Vec<SkillsDir> = Vec::new();
        if !d.no_discover {
            dirs = discover::default_dirs(&self.env.cwd, self.env.home.as_deref());
        }
        dirs.extend(d.skills_dirs.iter().map(|path| SkillsDir {
            path: path.clone(),
            label: "custom",
        }));
        let found = discover::discover(&dirs);
        for w in &found.warnings {
            self.env.note(w);
        }
        let report = serde_json::json!({
            "scanned": found.scanned,
            "installed_skills": found.skills.len(),
            "warnings": found.warnings,
        });
        (found.skills, report)
    }
}

// A host is shared across a server's worker threads.
const _: fn() = || {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Host>();
};

#[cfg(test)]
mod tests;
