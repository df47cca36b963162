//! Commands on candidate lists: normalize, filter, scan, rank, recommend, render.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Host, JsonText, Output, Verdict};
use crate::{
    AgentEnv, Command, Ctx, Error, Mode, NullStateStore, RankRequest, RecommendOptions, Registry,
};

/// Manual (the user asked) or daily (the automation).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum ModeArg {
    Manual,
    Daily,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Manual => Mode::Manual,
            ModeArg::Daily => Mode::Daily,
        }
    }
}

/// Which registry a JSON response comes from; `auto` detects it from the shape.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum RegistryArg {
    #[default]
    Auto,
    Clawhub,
    Skillssh,
    Smithery,
    Glama,
    Skillhub,
    Github,
    Mcpmarket,
    Candidates,
}

impl RegistryArg {
    /// The registry, or `None` for `auto`.
    pub fn registry(self) -> Option<Registry> {
        match self {
            RegistryArg::Auto => None,
            RegistryArg::Clawhub => Some(Registry::Clawhub),
            RegistryArg::Skillssh => Some(Registry::Skillssh),
            RegistryArg::Smithery => Some(Registry::Smithery),
            RegistryArg::Glama => Some(Registry::Glama),
            RegistryArg::Skillhub => Some(Registry::Skillhub),
            RegistryArg::Github => Some(Registry::Github),
            RegistryArg::Mcpmarket => Some(Registry::Mcpmarket),
            RegistryArg::Candidates => Some(Registry::Candidates),
        }
    }
}

/// Where installed skills are looked for (they are never recommended again).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DiscoveryArgs {
    /// More directories of installed skills (`<dir>/<skill>/SKILL.md`), beside the usual ones
    /// (`./.agents/skills`, `~/.claude/skills`, `~/.hermes/skills`, `~/.codex/skills`, `~/.openclaw/skills`, ...).
    #[serde(default)]
    pub skills_dirs: Vec<PathBuf>,
    /// Do not look in the usual skill directories (`skills_dirs` still apply).
    #[serde(default)]
    pub no_discover: bool,
}

/// The agent that will run the skills (docs/fit-and-quality.md): what it runs on and what it can do.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct AgentArgs {
    /// The agent's OS: linux, macos or windows (aliases such as darwin and win32 are accepted). Default:
    /// this machine's. Skills that declare other platforms are dropped (`platform_unsupported`).
    #[serde(default)]
    pub platform: Option<String>,
    /// The agent's capabilities or toolsets (terminal, browser, web_search, file, code_execution,
    /// vision, ...). Default: unknown, so required toolsets change nothing; skills needing one not
    /// listed rank lower and the card says what the user would need.
    #[serde(default)]
    pub capabilities: Option<Vec<String>>,
}

impl AgentArgs {
    /// What the component is told: the platform defaults to this machine's.
    pub fn env(&self) -> AgentEnv {
        AgentEnv {
            platform: self
                .platform
                .clone()
                .or_else(|| Some(std::env::consts::OS.to_owned())),
            capabilities: self.capabilities.clone(),
        }
    }
}

/// `normalize`: a registry's own JSON → `{"registry", "candidates", "skipped", "warnings", "summary"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct NormalizeArgs {
    /// Which registry the response comes from: clawhub, skillssh, smithery, glama, skillhub, github,
    /// mcpmarket, candidates (already normalized), or auto (detected from the shape; the default).
    #[serde(default)]
    pub from: RegistryArg,
    /// Base URL of a self-hosted registry (SkillHub), used to build page URLs.
    #[serde(default)]
    pub base_url: Option<String>,
    /// The registry's JSON response exactly as its API returned it (search, list or detail).
    pub response: JsonText,
}

/// The registry a candidates input comes from, when it is a registry's own response that should not be
/// detected from its shape (the component detects it otherwise).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SourceArgs {
    /// The registry whose API response `candidates` is (clawhub, skillssh, smithery, glama, skillhub,
    /// github, mcpmarket); auto (the default) reads candidates or detects a registry response.
    #[serde(default)]
    pub from: RegistryArg,
    /// Base URL of a self-hosted registry (SkillHub), for page URLs.
    #[serde(default)]
    pub base_url: Option<String>,
}

impl SourceArgs {
    /// Whether [`SourceArgs::wrap`] wraps the text (a registry is named).
    pub fn wraps(&self) -> bool {
        (self.from.registry()).is_some_and(|r| r != Registry::Candidates)
    }

    /// The candidates text the component reads: as given, or wrapped as
    /// `{"from": "<registry>", "base_url"?: ..., "response": <text>}` when a registry is named.
    pub fn wrap(&self, candidates: JsonText) -> String {
        let text = candidates.into_string();
        match self.from.registry().filter(|r| *r != Registry::Candidates) {
            None => text,
            Some(r) => {
                let base = self
                    .base_url
                    .as_ref()
                    .map(|b| format!(",\"base_url\":{}", Value::String(b.clone())))
                    .unwrap_or_default();
                format!("{{\"from\":\"{}\"{base},\"response\":{text}}}", r.as_str())
            }
        }
    }
}

/// The built-in demonstration data (`recommend --sample`): marked `"demo": true`, so its card says it
/// is a demonstration and nothing from it is recorded.
pub const SAMPLE_CANDIDATES: &str = include_str!("../../../data/sample_candidates.json");

/// What `recommend` says when it is given no candidates.
pub const NO_CANDIDATES: &str = "no candidates given: pass --candidates FILE (or - for standard input) with what your search found — {\"candidates\": [{\"skill_id\", \"name\", \"url\", \"description\", \"source\"}, ...]} (schema/candidates.schema.json) or a registry's own API response — or --sample for the built-in demonstration";

/// `filter`: drop duplicates, incomplete, installed, cooled-down, stale and over-quota candidates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FilterArgs {
    pub mode: ModeArg,
    /// `{"candidates": [...]}` or an array of candidate records (schema/candidates.schema.json), or a
    /// registry's own API response.
    pub candidates: JsonText,
    #[serde(flatten)]
    pub source: SourceArgs,
    #[serde(flatten)]
    pub discovery: DiscoveryArgs,
    #[serde(flatten)]
    pub agent: AgentArgs,
}

/// `scan`: each candidate's risk from its source, registry verdicts, metadata and content rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ScanArgs {
    pub mode: ModeArg,
    /// `{"candidates": [...]}` or an array of candidate records, or a registry's own API response.
    pub candidates: JsonText,
    #[serde(flatten)]
    pub source: SourceArgs,
}

/// `rank`: score candidates with a per-factor breakdown (reads state, never writes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RankArgs {
    pub mode: ModeArg,
    /// `{"candidates": [...]}` or an array of candidate records, or a registry's own API response.
    pub candidates: JsonText,
    #[serde(flatten)]
    pub source: SourceArgs,
    /// The user's request in their own words, Chinese or English.
    #[serde(default)]
    pub task: Option<String>,
    /// Scenario hints beside the state's scenario memory (e.g. "weekly investor updates").
    #[serde(default)]
    pub signals: Vec<String>,
    #[serde(flatten)]
    pub discovery: DiscoveryArgs,
    #[serde(flatten)]
    pub agent: AgentArgs,
}

/// `recommend`: filter → scan → rank → pick → card in one call; records `shown` unless a dry run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RecommendArgs {
    pub mode: ModeArg,
    /// What the search found: `{"candidates": [...]}` or an array of candidate records
    /// (schema/candidates.schema.json; skill_id, name, url and description are enough), or a registry's
    /// own API response. Required unless `sample`.
    #[serde(default)]
    pub candidates: Option<JsonText>,
    /// Use the built-in demonstration data instead (the card says so; nothing is recorded).
    #[serde(default)]
    pub sample: bool,
    #[serde(flatten)]
    pub source: SourceArgs,
    /// The user's request in their own words, Chinese or English.
    #[serde(default)]
    pub task: Option<String>,
    /// Scenario hints beside the state's scenario memory.
    #[serde(default)]
    pub signals: Vec<String>,
    /// Decide and render, but record nothing.
    #[serde(default)]
    pub dry_run: bool,
    /// The newest published version of skill-recommender, if known: the card may end with the update
    /// question.
    #[serde(default)]
    pub remote_version: Option<String>,
    /// The installed version (default: this component's version).
    #[serde(default)]
    pub local_version: Option<String>,
    /// Another authorization question is asked this turn: defer the update question.
    #[serde(default)]
    pub other_question: bool,
    #[serde(flatten)]
    pub discovery: DiscoveryArgs,
    #[serde(flatten)]
    pub agent: AgentArgs,
}

/// `render`: the card for a `recommend` result (e.g. in the other language). Reads no state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RenderArgs {
    pub mode: ModeArg,
    /// A `recommend` result (or `{"pick": {...}}`).
    pub input: JsonText,
}

/// Nothing usable when `filter` kept nothing. Only the summary is read, found by skipping over the
/// kept list (100,000 candidates long, perhaps) without parsing it.
fn filter_verdict(text: &str) -> Verdict {
    summary_verdict(crate::json_text::top_member(text, "summary"))
}

/// [`filter_verdict`] from the raw text of the result's `summary`, if it has one.
fn summary_verdict(summary: Option<&str>) -> Verdict {
    #[derive(Deserialize)]
    struct Summary {
        kept: usize,
    }
    let kept = summary
        .and_then(|s| serde_json::from_str::<Summary>(s).ok())
        .map_or(1, |s| s.kept);
    if kept == 0 {
        Verdict::NothingUsable
    } else {
        Verdict::Done
    }
}

/// Items skipped → partial.
fn skipped_is_partial(v: &Value) -> Verdict {
    if v["skipped"].as_array().is_some_and(|s| !s.is_empty()) {
        Verdict::Partial
    } else {
        Verdict::Done
    }
}

impl Host {
    /// `normalize`: reads no state. Each unreadable optional field is noted (and listed in the result).
    pub fn normalize(&self, ctx: &Ctx, args: NormalizeArgs) -> Result<Output, Error> {
        let command = Command::Normalize {
            registry: args.from.registry(),
            json: args.response.into_string(),
            base_url: args.base_url,
        };
        let text = self.harness.run_text_owned(&NullStateStore, ctx, command)?;
        let out = Output::parsed(&text, skipped_is_partial)?;
        let value = out.to_value()?;
        for w in value["warnings"].as_array().into_iter().flatten() {
            self.env.note(&format!(
                "item {}: {}: {}",
                w["index"],
                w["field"].as_str().unwrap_or(""),
                w["message"].as_str().unwrap_or("")
            ));
        }
        Ok(out)
    }

    /// The `filter` command `args` ask for, and the discovery report of the installed skills it
    /// names (shared by [`Host::filter`] and [`Host::filter_to`]).
    fn filter_command(&self, args: FilterArgs) -> (Command, serde_json::Value) {
        let (installed, report) = self.discover_installed(&args.discovery);
        let command = Command::Filter {
            mode: args.mode.into(),
            candidates: args.source.wrap(args.candidates),
            installed,
            agent: args.agent.env(),
        };
        (command, report)
    }

    /// `filter`: reads state, never writes; nothing usable when it kept nothing.
    pub fn filter(&self, ctx: &Ctx, args: FilterArgs) -> Result<Output, Error> {
        let (store, _, _) = self.state_store()?;
        let (command, report) = self.filter_command(args);
        let text = self.harness.run_text_owned(&store, ctx, command)?;
        self.note_migrations(&store);
        let verdict = filter_verdict(&text);
        Ok(Output::from_text(text)
            .with_verdict(verdict)
            .with("discovery", report))
    }

    /// [`Host::filter`] written to `out` as it prints it (pretty, or on one line with `compact`,
    /// then a newline), straight from the component's memory: the result (~46 MB at 100,000
    /// candidates) is never copied into the host ([`crate::Harness::run_streamed`]; `filter`
    /// writes no state, so nothing is committed after the output). Returns the verdict, and what
    /// writing gave (an `InvalidData` error: the component's text was not JSON).
    pub fn filter_to(
        &self,
        ctx: &Ctx,
        args: FilterArgs,
        out: Box<dyn std::io::Write>,
        compact: bool,
    ) -> Result<(Verdict, std::io::Result<()>), Error> {
        self.filter_streamed(ctx, args, None, out, compact)
    }

    /// [`Host::filter_to`] with the candidates read from `input` straight into the component's
    /// memory (`args.candidates` is not read): no host copy of them ([`crate::InputFile`]). A
    /// registry's response named with `from` is read as text (it is wrapped first). A file that
    /// is not UTF-8 gives the same `InvalidInput` as reading it as text.
    pub fn filter_file_to(
        &self,
        ctx: &Ctx,
        mut args: FilterArgs,
        input: crate::InputFile,
        out: Box<dyn std::io::Write>,
        compact: bool,
    ) -> Result<(Verdict, std::io::Result<()>), Error> {
        if args.source.wraps() {
            args.candidates = JsonText(input.into_text()?);
            return self.filter_streamed(ctx, args, None, out, compact);
        }
        self.filter_streamed(ctx, args, Some(input), out, compact)
    }

    fn filter_streamed(
        &self,
        ctx: &Ctx,
        args: FilterArgs,
        input: Option<crate::InputFile>,
        out: Box<dyn std::io::Write>,
        compact: bool,
    ) -> Result<(Verdict, std::io::Result<()>), Error> {
        let (store, _, _) = self.state_store()?;
        let (command, report) = self.filter_command(args);
        // The component lays the result out as it is printed (`filter-text`), the `discovery`
        // member in it: the text goes out as it is, piece by piece from the component's memory
        // (after the first failed write, the rest is not written; that error is returned).
        let out = std::rc::Rc::new(std::cell::RefCell::new((out, Ok(()))));
        let to = out.clone();
        let sink = Box::new(move |piece: &[u8]| {
            let (out, written) = &mut *to.borrow_mut();
            if written.is_ok() {
                *written = out.write_all(piece);
            }
        });
        let extra = [("discovery", &report)];
        let kept =
            (self.harness).filter_text(&store, ctx, command, input, (!compact, &extra), sink)?;
        self.note_migrations(&store);
        let verdict = if kept == 0 {
            Verdict::NothingUsable
        } else {
            Verdict::Done
        };
        let (out, written) = &mut *out.borrow_mut();
        let written = std::mem::replace(written, Ok(()))
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush());
        Ok((verdict, written))
    }

    /// `scan`: reads no state.
    pub fn scan(&self, ctx: &Ctx, args: ScanArgs) -> Result<Output, Error> {
        let command = Command::ScanCandidates {
            mode: args.mode.into(),
            candidates: args.source.wrap(args.candidates),
        };
        let text = self.harness.run_text_owned(&NullStateStore, ctx, command)?;
        Ok(Output::from_text(text))
    }

    /// `rank`: reads state, never writes; partial when items could not be read.
    pub fn rank(&self, ctx: &Ctx, args: RankArgs) -> Result<Output, Error> {
        let (store, _, _) = self.state_store()?;
        let (installed, report) = self.discover_installed(&args.discovery);
        let command = Command::Rank {
            mode: args.mode.into(),
            candidates: args.source.wrap(args.candidates),
            installed,
            request: RankRequest {
                task: args.task,
                signals: args.signals,
                agent: args.agent.env(),
            },
        };
        let text = self.harness.run_text_owned(&store, ctx, command)?;
        self.note_migrations(&store);
        Ok(Output::text_skipped_is_partial(text)?.with("discovery", report))
    }

    /// `recommend`: the main job, one transaction (records `shown` unless a dry run); nothing usable
    /// when every candidate was dropped or blocked (its `message` says why, per reason).
    pub fn recommend(&self, ctx: &Ctx, args: RecommendArgs) -> Result<Output, Error> {
        let candidates = match (args.candidates, args.sample) {
            (Some(c), false) => args.source.wrap(c),
            (None, true) if args.source.from == RegistryArg::Auto => SAMPLE_CANDIDATES.to_owned(),
            (Some(_), true) | (None, true) => {
                return Err(Error::InvalidInput {
                    field: "sample".into(),
                    message: "the demonstration data goes alone: without candidates or a registry"
                        .into(),
                });
            }
            (None, false) => {
                return Err(Error::InvalidInput {
                    field: "candidates".into(),
                    message: NO_CANDIDATES.into(),
                });
            }
        };
        let (store, _, _) = self.state_store()?;
        let (installed, report) = self.discover_installed(&args.discovery);
        let command = Command::Recommend {
            mode: args.mode.into(),
            candidates,
            installed,
            options: RecommendOptions {
                task: args.task,
                signals: args.signals,
                dry_run: args.dry_run,
                remote_version: args.remote_version,
                local_version: args.local_version,
                other_question: args.other_question,
                agent: args.agent.env(),
            },
        };
        let text = self.harness.run_text_owned(&store, ctx, command)?;
        self.note_migrations(&store);
        // Only `reason` is read, found without parsing the rest (the ranking may be long).
        let reason = crate::json_text::top_member(&text, "reason")
            .and_then(|r| serde_json::from_str::<Option<String>>(r).ok())
            .flatten();
        let verdict = match reason {
            Some(r) if r == "no_usable_candidates" => Verdict::NothingUsable,
            _ => Verdict::Done,
        };
        Ok(Output::from_text(text)
            .with_verdict(verdict)
            .with("discovery", report))
    }

    /// `render`: reads no state.
    pub fn render(&self, ctx: &Ctx, args: RenderArgs) -> Result<Output, Error> {
        let command = Command::Render {
            mode: args.mode.into(),
            input: args.input.into_string(),
        };
        let text = self.harness.run_text_owned(&NullStateStore, ctx, command)?;
        Ok(Output::from_text(text))
    }
}

#[cfg(test)]
mod verdict_tests {
    use super::*;

    /// `filter`'s verdict is its summary's `kept` count, whether the summary was picked up while the
    /// result was written or looked for in the text.
    #[test]
    fn nothing_usable_exactly_when_the_summary_kept_none() {
        assert_eq!(
            summary_verdict(Some(r#"{"input":3,"kept":0}"#)),
            Verdict::NothingUsable
        );
        assert_eq!(summary_verdict(Some(r#"{"kept":2}"#)), Verdict::Done);
        // No summary, or one that is not as expected: not judged "nothing usable".
        assert_eq!(summary_verdict(None), Verdict::Done);
        assert_eq!(summary_verdict(Some(r#"{"kept":"0"}"#)), Verdict::Done);
        let text = r#"{"kept":[],"summary":{"kept":0}}"#;
        assert_eq!(filter_verdict(text), Verdict::NothingUsable);
        assert_eq!(
            filter_verdict(r#"{"kept":[{"summary":{"kept":0}}],"summary":{"kept":1}}"#),
            Verdict::Done
        );
    }
}
