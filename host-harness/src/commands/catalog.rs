//! Commands over many bundles at once, on the catalog engine ([`crate::catalog`]): `scan-bundle` with
//! several paths or `--from-dir`, and `audit` of the skills installed for an agent.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Host, TrustLevel};
use crate::catalog::{self, Job, Options, Scanned, Summary};
use crate::discover::{self, SkillsDir};
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
    ClaudeCode,
    Codex,
    Hermes,
    Openclaw,
    /// The shared `.agents/skills` folders.
    Agents,
}

impl Agent {
    /// The label of its folders in [`discover::default_dirs`].
    fn label(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude",
            Agent::Codex => "codex",
            Agent::Hermes => "hermes",
            Agent::Openclaw => "openclaw",
            Agent::Agents => "agents",
        }
    }
}

/// `audit [--agent …] [--skills-dir DIR]…`: re-scan installed skills with the current rules.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AuditArgs {
    /// Only these agents' skill folders (project and user). Default: every agent's, unless
    /// `skills_dirs` is given.
    #[serde(default)]
    pub agents: Vec<Agent>,
    /// Other skill directories (`<dir>/<skill>/SKILL.md`). Given without `agents`, only these.
    #[serde(default)]
    pub skills_dirs: Vec<PathBuf>,
    /// Trust to scan with (default: community).
    #[serde(default)]
    pub trust: Option<TrustLevel>,
    /// Bundles scanned at once (default: one per core).
    #[serde(default)]
    pub jobs: Option<usize>,
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

    /// Re-scan the skills installed in the agents' folders (see [`AuditArgs`]); each result line
    /// carries `agent` and `skills_dir`. Reads no state.
    pub fn audit(
        &self,
        ctx: &Ctx,
        args: &AuditArgs,
        each: impl FnMut(Scanned, &Summary),
    ) -> Result<Summary, Error> {
        let mut dirs: Vec<SkillsDir> = Vec::new();
        if !args.agents.is_empty() || args.skills_dirs.is_empty() {
            let labels: Vec<&str> = args.agents.iter().map(|a| a.label()).collect();
            dirs = discover::default_dirs(&self.env.cwd, self.env.home.as_deref())
                .into_iter()
                .filter(|d| labels.is_empty() || labels.contains(&d.label))
                .collect();
        }
        for path in &args.skills_dirs {
            if !path.is_dir() {
                return Err(Error::InvalidInput {
                    field: "skills-dir".into(),
                    message: format!("{} is not a directory", path.display()),
                });
            }
            dirs.push(SkillsDir {
                path: path.clone(),
                label: "custom",
            });
        }
        let (jobs, warnings) = catalog::installed(&dirs);
        for w in &warnings {
            self.env.note(w);
        }
        let trust = args.trust.map_or(Trust::Community, Trust::from);
        Ok(catalog::scan(
            &self.harness,
            ctx,
            jobs.into_iter().enumerate(),
            &options(trust, false, args.jobs),
            each,
        ))
    }
}
