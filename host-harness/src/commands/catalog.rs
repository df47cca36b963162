//! Commands over many bundles at once, on the catalog engine ([`crate::catalog`]): `scan-bundle` with
//! several paths or `--from-dir`, and `audit` of the skills installed for an agent.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Host, ScopeArg, TrustLevel};
use crate::catalog::{self, InstalledDir, Job, Options, Scanned, Summary};
use crate::{Ctx, Error, Trust, trust_of_source};

/// `scan-bundle PATH… | --from-dir DIR`: scan many bundles in one process.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CatalogArgs {
    /// Skill folders, `.zip`/`.skill` archives or SKILL.md files, on this machine.
    #[serde(default)]
    pub paths: Vec<PathBuf>,
    /// Also every skill folder (a folder holding a SKILL.md) beneath this directory.
    #[serde(default)]
    pub from_dir: Option<PathBuf>,
    /// How far the sources are trusted (default: derived from `source`, else community).
    #[serde(default)]
    pub trust: Option<TrustLevel>,
    /// Where the skills come from (a repository URL), to derive `trust` when it is not given.
    #[serde(default)]
    pub source: Option<String>,
    /// Allow blocked skills after review (never lifts `dangerous` on community or trusted).
    #[serde(default)]
    pub force: bool,
    /// Bundles scanned at once (default: one per core).
    #[serde(default)]
    pub jobs: Option<usize>,
}

/// An agent whose installed skills `audit` re-scans.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Agent {
    /// `./.claude/skills`, `~/.claude/skills`.
    #[serde(alias = "claude")]
    ClaudeCode,
    /// `./.agents/skills` (project), `~/.codex/skills` (user).
    Codex,
    /// `~/.hermes/skills`, with category folders.
    Hermes,
    /// `./skills` (the workspace), `~/.openclaw/skills`.
    Openclaw,
    /// The shared (OpenSkills/skillhub universal) `.agents/skills` folders.
    Agents,
}

/// `audit [--agent …] [--scope …] [--skills-dir DIR]… [--no-discover]`: audit installed skills —
/// each re-scanned with the current rules and compared with its provenance (docs/skills-on-disk.md).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AuditArgs {
    /// Only these agents' skill folders (project and user, as the component's layouts place them).
    /// Default: every agent's, unless `skills_dirs` is given.
    #[serde(default)]
    pub agents: Vec<Agent>,
    /// Only this scope's folder of each of `agents` (needs `agents`).
    #[serde(default)]
    pub scope: Option<ScopeArg>,
    /// Other skill directories (`<dir>/<skill>/SKILL.md`, category folders one level down). Given
    /// without `agents`, only these.
    #[serde(default)]
    pub skills_dirs: Vec<PathBuf>,
    /// Only `skills_dirs`, never the agents' folders.
    #[serde(default)]
    pub no_discover: bool,
    /// Trust to scan with (default: the trust each skill's provenance records, else community).
    #[serde(default)]
    pub trust: Option<TrustLevel>,
    /// Bundles scanned at once (default: one per core).
    #[serde(default)]
    pub jobs: Option<usize>,
}

impl AuditArgs {
    /// Whether the agents' own folders are read: asked for by `agents`, or by default when no
    /// `skills_dirs` are given; never with `no_discover`.
    fn discover(&self) -> bool {
        !self.no_discover && (!self.agents.is_empty() || self.skills_dirs.is_empty())
    }
}

fn options(trust: Trust, force: bool, jobs: Option<usize>) -> Options {
    Options {
        trust,
        force,
        jobs: jobs.unwrap_or_else(catalog::default_jobs).max(1),
        ..Options::default()
    }
}

impl Host {
    /// Scan every bundle of `args` (the paths first, then the folders beneath `from_dir` as they are
    /// found); `each` gets every result as it finishes. Reads no state. The harness should have an
    /// instance pool with at least `jobs` slots.
    pub fn scan_catalog(
        &self,
        ctx: &Ctx,
        args: &CatalogArgs,
        each: impl FnMut(Scanned, &Summary),
    ) -> Result<Summary, Error> {
        if let Some(dir) = &args.from_dir
            && !dir.is_dir()
        {
            return Err(Error::InvalidInput {
                field: "from-dir".into(),
                message: format!("{} is not a directory", dir.display()),
            });
        }
        let trust = match (args.trust, &args.source) {
            (Some(t), _) => t.into(),
            (None, Some(url)) => trust_of_source(url),
            (None, None) => Trust::Community,
        };
        let given = args.paths.iter().cloned().map(Job::from);
        let beneath = args.from_dir.iter().flat_map(|d| catalog::skill_folders(d));
        let jobs = given.chain(beneath).enumerate();
        Ok(catalog::scan(
            &self.harness,
            ctx,
            jobs,
            &options(trust, args.force, args.jobs),
            each,
        ))
    }

    /// Audit the skills installed in the agents' folders (see [`AuditArgs`]): each result line is the
    /// skill's re-scan with its `level`, `changed` (against the provenance's tree digest) and the
    /// provenance, plus `agent` and `skills_dir`. The summary counts `by_level`; its exit code is 8 when
    /// one is dangerous, 9 when one needs attention. Reads no state.
    pub fn audit(
        &self,
        ctx: &Ctx,
        args: &AuditArgs,
        each: impl FnMut(Scanned, &Summary),
    ) -> Result<Summary, Error> {
        if args.no_discover && args.skills_dirs.is_empty() {
            return Err(Error::InvalidInput {
                field: "no-discover".into(),
                message: "no folder to audit: --no-discover needs --skills-dir".into(),
            });
        }
        if args.scope.is_some() && args.agents.is_empty() {
            return Err(Error::InvalidInput {
                field: "scope".into(),
                message: "--scope chooses among an agent's folders: give --agent too".into(),
            });
        }
        let mut dirs: Vec<InstalledDir> = Vec::new();
        if args.discover() {
            dirs = self.installed_dirs(ctx, &args.agents, args.scope)?;
        }
        for path in &args.skills_dirs {
            if !path.is_dir() {
                return Err(Error::InvalidInput {
                    field: "skills-dir".into(),
                    message: format!("{} is not a directory", path.display()),
                });
            }
            dirs.push(InstalledDir {
                path: std::path::absolute(path).unwrap_or_else(|_| path.clone()),
                agent: "custom".into(),
                categories: true,
            });
        }
        let (jobs, warnings) = catalog::installed(&dirs);
        for w in &warnings {
            self.env.note(w);
        }
        // A folder an interrupted command left half-done is audited as it is now; the next install,
        // uninstall or skill command there finishes the job (docs/skills-on-disk.md).
        for d in &dirs {
            if crate::ondisk::txn::pending(&d.path) {
                self.env.note(&format!(
                    "{}: an interrupted command left a journal here; the next install, uninstall or \
                     skill command in this folder finishes it",
                    d.path.display()
                ));
            }
        }
        // Each skill is audited: compared with its provenance (the tree digest recorded at install)
        // and re-scanned with the trust it records, unless `trust` is given.
        let opts = Options {
            audit: Some(catalog::Audit {
                trust: args.trust.map(Trust::from),
            }),
            ..options(Trust::Community, false, args.jobs)
        };
        Ok(catalog::scan(
            &self.harness,
            ctx,
            jobs.into_iter().enumerate(),
            &opts,
            each,
        ))
    }
}
