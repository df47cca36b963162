//! Skills on disk: `install`, `uninstall`, `installed`, the agent-written `skill …` actions, and the
//! pure text transforms behind them (`coordinate`, `agents-md`, `patch-text`). Each command is the
//! component's plan carried out by [`crate::ondisk`] (see docs/skills-on-disk.md). `audit` runs on the
//! catalog engine ([`super::catalog`], [`crate::catalog::Audit`]).

use std::path::PathBuf;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Agent, Host, Output, TrustLevel, Verdict};
use crate::ondisk::txn::Faults;
use crate::ondisk::{self, Env, Outcome};
use crate::{
    AgentsMdEntry, Command, Ctx, Error, NullStateStore, Roots, SkillAction, SkillsCall, Target,
    Trust,
};

/// The agent names of [`TargetArgs`] are the catalog's [`Agent`] (one enum for every command).
impl Agent {
    /// The name the component's layouts use.
    fn layout_name(self) -> &'static str {
        match self {
            Agent::Agents => "agents",
            Agent::ClaudeCode => "claude-code",
            Agent::Codex => "codex",
            Agent::Hermes => "hermes",
            Agent::Openclaw => "openclaw",
        }
    }
}

/// Project (the working directory) or user (the home folder).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum ScopeArg {
    Project,
    User,
}

/// Which skills folder a command works in.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, clap::Args)]
pub struct TargetArgs {
    /// The agent whose folders to use: agents (the default: `.agents/skills`), claude-code, codex,
    /// hermes, openclaw.
    #[arg(long, value_enum)]
    #[serde(default)]
    pub agent: Option<Agent>,
    /// project (the default; Hermes: user) or user.
    #[arg(long, value_enum)]
    #[serde(default)]
    pub scope: Option<ScopeArg>,
    /// This skills folder instead of the agent's (absolute, or relative to the working directory).
    #[arg(long, value_name = "DIR")]
    #[serde(default)]
    pub dir: Option<PathBuf>,
    /// A category folder inside the skills folder (Hermes only).
    #[arg(long, value_name = "NAME")]
    #[serde(default)]
    pub category: Option<String>,
    /// Keep this AGENTS.md's `<skill>` block in step (default: `./AGENTS.md` for the agents layout at
    /// project scope, none otherwise).
    #[arg(long, value_name = "FILE", conflicts_with = "no_agents_md")]
    #[serde(default)]
    pub agents_md: Option<PathBuf>,
    /// Do not touch any AGENTS.md.
    #[arg(long)]
    #[serde(default)]
    pub no_agents_md: bool,
}

impl TargetArgs {
    fn target(&self) -> Target {
        Target {
            agent: self.agent.map(|a| a.layout_name().to_owned()),
            scope: self.scope.map(|s| {
                match s {
                    ScopeArg::Project => "project",
                    ScopeArg::User => "user",
                }
                .to_owned()
            }),
            dir: self.dir.as_ref().map(|d| d.display().to_string()),
            agents_md: self.agents_md.as_ref().map(|d| d.display().to_string()),
            no_agents_md: self.no_agents_md,
            category: self.category.clone(),
        }
    }
}

/// `install`: vet a skill the platform downloaded and put it where the agent finds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct InstallArgs {
    /// The skill as downloaded, on this machine: a folder, a `.zip`/`.skill` archive or a SKILL.md.
    pub source: PathBuf,
    #[serde(flatten)]
    pub target: TargetArgs,
    /// How far the source is trusted: community (every registry upload; the default), trusted (an
    /// official repository), builtin, agent-created.
    #[serde(default)]
    pub trust: Option<TrustLevel>,
    /// Where the platform got it: `@ns/slug`, `@ns/slug@1.2.0`, `@ns/slug@latest`, `@ns/slug@tag`,
    /// `slug` or ClawHub's `ns--slug`. Its slug must equal the SKILL.md name.
    #[serde(default)]
    pub coordinate: Option<String>,
    /// Install under this folder name (when the name is taken by another skill).
    #[serde(default, rename = "as")]
    pub alias: Option<String>,
    /// The recommendation's skill id, recorded as accepted in history (default `local:<name>`).
    #[serde(default)]
    pub skill_id: Option<String>,
    /// Replace the skill installed under the same name.
    #[serde(default)]
    pub replace: bool,
    /// The user agreed to install a skill the scan asks about.
    #[serde(default)]
    pub yes: bool,
    /// Install a skill blocked as caution after the user reviewed it (never a dangerous one).
    #[serde(default)]
    pub force: bool,
    /// Return the plan; write nothing.
    #[serde(default)]
    pub dry_run: bool,
}

/// `uninstall`: remove an installed skill folder and its AGENTS.md entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UninstallArgs {
    /// The skill's name (its folder name).
    pub name: String,
    #[serde(flatten)]
    pub target: TargetArgs,
    /// Return the plan; remove nothing.
    #[serde(default)]
    pub dry_run: bool,
}

/// `installed`: the skills in an agent's folders (every agent's, without `agent` and `dir`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct InstalledArgs {
    #[serde(flatten)]
    pub target: TargetArgs,
}

/// What an agent does to one of its skills (Hermes' `skill_manage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ManageAction {
    /// A new skill from a whole SKILL.md (`content`).
    Create,
    /// Replace the whole SKILL.md (`content`).
    Edit,
    /// Find `old` and replace it with `new` in SKILL.md (or in `file`).
    Patch,
    /// Remove the skill.
    Delete,
    /// Add or replace the supporting file `path` (`content`).
    #[serde(alias = "write-file")]
    WriteFile,
    /// Remove the supporting file `path`.
    #[serde(alias = "remove-file")]
    RemoveFile,
}

/// `skill …`: an agent writes its own skill; the result is scanned as agent-created before it lands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ManageArgs {
    pub action: ManageAction,
    /// The skill's name: lowercase letters, digits and hyphens; its folder name.
    pub name: String,
    /// create / edit: the whole SKILL.md (frontmatter with name and description, then a body; at most
    /// 100,000 characters). write_file: the file's text (at most 1 MiB).
    #[serde(default)]
    pub content: Option<String>,
    /// patch: the exact text to replace (then matched ignoring indentation and whitespace).
    #[serde(default)]
    pub old: Option<String>,
    /// patch: the replacement.
    #[serde(default)]
    pub new: Option<String>,
    /// patch: a supporting file to patch instead of SKILL.md.
    #[serde(default)]
    pub file: Option<String>,
    /// patch: replace every match (otherwise several matches are refused).
    #[serde(default)]
    pub replace_all: bool,
    /// write_file / remove_file: the path inside the skill, under references/, templates/, scripts/
    /// or assets/.
    #[serde(default)]
    pub path: Option<String>,
    #[serde(flatten)]
    pub target: TargetArgs,
    /// Return the plan; write nothing.
    #[serde(default)]
    pub dry_run: bool,
}

impl ManageArgs {
    fn action(&self) -> Result<SkillAction, Error> {
        let need = |v: &Option<String>, field: &str| {
            v.clone().ok_or_else(|| Error::InvalidInput {
                field: field.into(),
                message: format!("{:?} needs `{field}`", self.action),
            })
        };
        Ok(match self.action {
            ManageAction::Create => SkillAction::Create {
                content: need(&self.content, "content")?,
            },
            ManageAction::Edit => SkillAction::Edit {
                content: need(&self.content, "content")?,
            },
            ManageAction::Patch => SkillAction::Patch {
                old: need(&self.old, "old")?,
                new: need(&self.new, "new")?,
                file: self.file.clone(),
                replace_all: self.replace_all,
            },
            ManageAction::Delete => SkillAction::Delete,
            ManageAction::WriteFile => SkillAction::WriteFile {
                path: need(&self.path, "path")?,
                content: need(&self.content, "content")?,
            },
            ManageAction::RemoveFile => SkillAction::RemoveFile {
                path: need(&self.path, "path")?,
            },
        })
    }
}

/// `agents-md`: an AGENTS.md text with one `<skill>` element added or replaced and others removed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AgentsMdArgs {
    /// The current text; none when the file does not exist.
    #[serde(default)]
    pub text: Option<String>,
    /// The skill to add or replace.
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub location: Option<String>,
    /// Skills to remove.
    #[serde(default)]
    pub remove: Vec<String>,
}

/// `patch-text`: a text with a patch applied (the `skill patch` semantics).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PatchTextArgs {
    pub text: String,
    pub old: String,
    pub new: String,
    #[serde(default)]
    pub replace_all: bool,
}

fn verdict_of(exit: u8) -> Verdict {
    match exit {
        0 => Verdict::Done,
        3 => Verdict::Invalid,
        8 => Verdict::Blocked,
        9 => Verdict::Ask,
        _ => Verdict::Conflict,
    }
}

fn output(o: Outcome) -> Output {
    let verdict = verdict_of(o.exit);
    Output::value(o.json, verdict)
}

impl Host {
    /// The environment of a skills-on-disk command: the roots (home, working directory, `$HERMES_HOME`,
    /// `$CODEX_HOME`), the state directory for history, and `$SKILL_RECOMMENDER_CRASH_AT` (tests).
    fn ondisk_env(&self, ctx: &Ctx, history: bool) -> Result<Env<'_>, Error> {
        let var = |k: &str| {
            self.env
                .vars
                .iter()
                .find(|(name, _)| *name == k)
                .map(|(_, v)| v.to_string_lossy().into_owned())
                .filter(|v| !v.is_empty())
        };
        let state_dir = if history {
            Some(self.env.state_dir()?.0)
        } else {
            None
        };
        Ok(Env {
            harness: &self.harness,
            ctx: ctx.clone(),
            roots: Roots {
                home: self.env.home.as_ref().map(|h| h.display().to_string()),
                project: std::path::absolute(&self.env.cwd)
                    .unwrap_or_else(|_| self.env.cwd.clone())
                    .display()
                    .to_string(),
                hermes_home: var("HERMES_HOME"),
                codex_home: var("CODEX_HOME"),
            },
            state_dir,
            faults: Faults::from_env(),
            lock_timeout: Duration::from_secs(30),
        })
    }

    /// `install`. Verdict: refused → blocked (8), ask (9) or conflict (10).
    pub fn install(&self, ctx: &Ctx, args: &InstallArgs) -> Result<Output, Error> {
        let env = self.ondisk_env(ctx, !args.dry_run)?;
        let trust = args.trust.map_or(Trust::Community, Trust::from);
        let o = ondisk::install(
            &env,
            &ondisk::InstallArgs {
                source: args.source.clone(),
                coordinate: args.coordinate.clone(),
                alias: args.alias.clone(),
                skill_id: args.skill_id.clone(),
                trust,
                force: args.force,
                yes: args.yes,
                replace: args.replace,
                dry_run: args.dry_run,
                target: args.target.target(),
            },
        )?;
        Ok(output(o))
    }

    /// `uninstall`. Verdict: refused → conflict (10).
    pub fn uninstall(&self, ctx: &Ctx, args: &UninstallArgs) -> Result<Output, Error> {
        let env = self.ondisk_env(ctx, false)?;
        Ok(output(ondisk::uninstall(
            &env,
            &args.name,
            &args.target.target(),
            args.dry_run,
        )?))
    }

    /// `installed`: every agent's folders unless an agent or a folder is given.
    pub fn installed(&self, ctx: &Ctx, args: &InstalledArgs) -> Result<Output, Error> {
        let env = self.ondisk_env(ctx, false)?;
        let all = args.target.agent.is_none() && args.target.dir.is_none();
        Ok(output(ondisk::installed(&env, &args.target.target(), all)?))
    }

    /// The folders of installed skills `audit` reads, from the component's layouts: every agent's
    /// when `agents` is empty, else theirs (only `scope`'s folder of each when given).
    pub(super) fn installed_dirs(
        &self,
        ctx: &Ctx,
        agents: &[Agent],
        scope: Option<ScopeArg>,
    ) -> Result<Vec<crate::catalog::InstalledDir>, Error> {
        let env = self.ondisk_env(ctx, false)?;
        if agents.is_empty() {
            return ondisk::skills_dirs(&env, None);
        }
        let mut dirs = Vec::new();
        for a in agents {
            let target = TargetArgs {
                agent: Some(*a),
                scope,
                ..TargetArgs::default()
            }
            .target();
            dirs.extend(ondisk::skills_dirs(&env, Some(&target))?);
        }
        Ok(dirs)
    }

    /// `skill …`. Verdict: refused → blocked (8), invalid (3, a patch that does not apply) or conflict
    /// (10).
    pub fn manage_skill(&self, ctx: &Ctx, args: &ManageArgs) -> Result<Output, Error> {
        let env = self.ondisk_env(ctx, false)?;
        let o = ondisk::skill(
            &env,
            &ondisk::SkillArgs {
                name: args.name.clone(),
                action: args.action()?,
                target: args.target.target(),
                dry_run: args.dry_run,
            },
        )?;
        Ok(output(o))
    }

    fn skills_call(&self, ctx: &Ctx, call: SkillsCall) -> Result<Output, Error> {
        let text =
            self.harness
                .run_text_owned(&NullStateStore, ctx, Command::Skills(Box::new(call)))?;
        Ok(Output::from_text(text))
    }

    /// `coordinate`: how an install coordinate parses. Reads no state.
    pub fn coordinate(&self, ctx: &Ctx, coordinate: &str) -> Result<Output, Error> {
        self.skills_call(
            ctx,
            SkillsCall::ParseCoordinate {
                coordinate: coordinate.to_owned(),
            },
        )
    }

    /// `agents-md`: the AGENTS.md text after the update (nothing is written). Reads no state.
    pub fn agents_md(&self, ctx: &Ctx, args: &AgentsMdArgs) -> Result<Output, Error> {
        let upsert = args
            .name
            .iter()
            .map(|name| AgentsMdEntry {
                name: name.clone(),
                description: args.description.clone().unwrap_or_default(),
                location: args.location.clone().unwrap_or_default(),
            })
            .collect();
        self.skills_call(
            ctx,
            SkillsCall::AgentsMdUpdate {
                text: args.text.clone(),
                upsert,
                remove: args.remove.clone(),
            },
        )
    }

    /// `patch-text`: the text after the patch (nothing is written). Reads no state.
    pub fn patch_text(&self, ctx: &Ctx, args: &PatchTextArgs) -> Result<Output, Error> {
        self.skills_call(
            ctx,
            SkillsCall::ApplyPatch {
                text: args.text.clone(),
                old: args.old.clone(),
                new: args.new.clone(),
                replace_all: args.replace_all,
            },
        )
    }
}
