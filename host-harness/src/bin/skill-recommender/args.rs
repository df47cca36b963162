//! The command line: flags and subcommands (clap). Each subcommand maps to one command of
//! [`host_harness::commands`]; the help texts here are written for people, the MCP schemas there for models.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use host_harness::commands::{
    AgentArgs, DiscoveryArgs, FeedbackArgs, FeedbackKind, LangArg, ModeArg, PromptSourceArg,
    RegistryArg, SourceArgs, TrustLevel,
};

const AFTER_HELP: &str = "\
State lives outside the skill's install directory, first match wins:
  --state-dir DIR, $SKILL_RECOMMENDER_STATE_DIR, $HERMES_HOME/state/skill-recommender,
  ~/.hermes/state/skill-recommender (if ~/.hermes exists), ~/.skill-recommender
Files: state.json and history.json (the original skill-recommender's format).

Output: one JSON object on stdout (`recommend` and `render`: the card). On failure, usage errors
included: {\"error\": {\"code\", \"message\", \"exit_code\", ...}} on stdout and a message on stderr.

Language: --lang, else the state's `lang` (saved by `recommend --lang`), else the locale
(LC_ALL, LC_MESSAGES, LANG: zh* is Chinese, any other English; none at all: Chinese).

Candidates (`recommend`, `filter`, `scan`, `rank`): {\"candidates\": [...]} or an array of objects with at
least skill_id, name, url and description (schema/candidates.schema.json), or a registry's own API
response as your fetch tool returned it (detected; --from REGISTRY names it).

Exit codes:
  0  success
  1  internal error (the component trapped or could not be loaded)
  2  usage error (unknown command or flag)
  3  invalid input (a flag's value; the error names it)
  4  state error (corrupt, unreadable, oversized or locked state file; the file is left as it was)
  5  sandbox limit (time, instructions or memory)
  6  refused transition (not allowed from the current daily status; the error says what to do)
  7  partial: `normalize` skipped some items (the JSON lists them; the rest were normalized)
  8  blocked / invalid: `scan-bundle` policy is block, or `validate` found errors
  9  ask: `scan-bundle` policy is ask (confirm with the user before installing)
  10 nothing usable: every candidate was dropped or blocked, or none was given (`recommend` prints
     one line per reason on stdout; `filter` kept nothing)

Examples:
  skill-recommender recommend --sample --mode manual --task 'pdf tables'   # the built-in demonstration
  skill-recommender status
  skill-recommender prompt-daily --source post_install
  skill-recommender enable-daily        # then create the automation, then:
  skill-recommender confirm-daily-enabled
  skill-recommender daily-gate          # first step of every daily run
  skill-recommender shown --skill-id clawhub:pdf-tables --skill-name 'PDF Tables' --categories pdf,documents
  skill-recommender normalize --from clawhub clawhub-search.json > candidates.json
  skill-recommender filter --candidates candidates.json --mode daily
  skill-recommender recommend --mode manual --task '把 PDF 表格转成 Excel' --candidates candidates.json
  skill-recommender recommend --mode manual --task 'pdf tables' --candidates clawhub-search.json
  skill-recommender recommend --mode manual --task 'meeting notes' --candidates candidates.json \
      --platform macos --capabilities terminal,browser,web_search
  skill-recommender accept --skill-id clawhub:pdf-tables    # the ID on the card (or the name it showed)
  skill-recommender recommend --mode daily --candidates candidates.json --json
  skill-recommender validate ./my-skill --quality";

/// Discover, vet and recommend agent skills: the deterministic half of the skill-recommender protocol,
/// run in a WebAssembly sandbox with no file, network, environment or process access.
#[derive(Debug, Parser)]
#[command(name = "skill-recommender", version, after_help = AFTER_HELP, args_override_self = true)]
pub struct Cli {
    /// State directory (default: see below).
    #[arg(long, global = true, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,

    /// The current time, RFC 3339 with an offset (default: the system clock). For tests and replays.
    #[arg(long, global = true, value_name = "RFC3339")]
    pub now: Option<String>,

    /// The host's IANA time zone, used for "today" when state.json has no `timezone`
    /// (default: the system's zone).
    #[arg(long, global = true, value_name = "ZONE")]
    pub timezone: Option<String>,

    /// Language of user-facing text (cards, notices). Default: the state's `lang` (saved by a
    /// `recommend --lang`), else the locale (LC_ALL, LC_MESSAGES, LANG: zh* → zh, else en).
    #[arg(long, global = true, value_enum)]
    pub lang: Option<LangArg>,

    /// Migrate a legacy in-repo `data/` directory (state.json, history.json) once, when the state
    /// directory has no such files yet (default: `data/` beside this binary's SKILL.md, if any).
    #[arg(long, global = true, value_name = "DIR")]
    pub legacy_data_dir: Option<PathBuf>,

    /// Where the precompiled component is cached (default: $SKILL_RECOMMENDER_CACHE_DIR, else the
    /// user cache directory).
    #[arg(long, global = true, value_name = "DIR", conflicts_with = "no_cache")]
    pub cache_dir: Option<PathBuf>,

    /// Run another build of the component (a .wasm component file) instead of the embedded one. It must
    /// implement the same contract version and import nothing beyond wasi:io, wasi:cli, the state store
    /// and host-env.
    #[arg(long, global = true, value_name = "FILE")]
    pub component: Option<PathBuf>,

    /// Compile the component in memory; write no cache.
    #[arg(long, global = true)]
    pub no_cache: bool,

    /// Print JSON on one line instead of pretty-printed.
    #[arg(long, global = true)]
    pub compact: bool,

    #[command(subcommand)]
    pub command: Cmd,
}

#[derive(Debug, Subcommand)]
pub enum Cmd {
    /// Show the state summary: daily status, notices, counts, language, state dir and files. Never
    /// writes.
    Status {
        /// Also the host's internals: the compiled-component cache, pre-initialization, the instance
        /// pool, where the state directory came from and the component's imports.
        #[arg(long)]
        verbose: bool,
    },
    /// Record that the daily question was asked (unset -> prompted; otherwise unchanged).
    PromptDaily {
        /// Where it was asked.
        #[arg(long, value_enum)]
        source: PromptSourceArg,
    },
    /// The user agreed to daily recommendations: -> pending_schedule; prints the automation to create.
    EnableDaily {
        /// The agent has a scheduler now (needed to leave `unsupported`).
        #[arg(long)]
        scheduler_available: bool,
    },
    /// The automation was created: pending_schedule -> enabled. Refused from any other status.
    ConfirmDailyEnabled,
    /// Creating the automation failed: pending_schedule -> prompted, keeping the reason.
    FailDailySchedule {
        /// Why it failed, e.g. schedule_create_failed.
        #[arg(long)]
        reason: String,
    },
    /// The user turned daily recommendations off: any -> disabled.
    DisableDaily,
    /// The agent has no scheduler: any but enabled -> unsupported.
    UnsupportedDaily,
    /// First step of the daily automation: may it run now? Prints {"run", "reason", "notice"}.
    DailyGate {
        /// The agent has no search or browse capability this run (the failure notice is sent once).
        #[arg(long)]
        no_search_capability: bool,
    },
    /// Dismiss or restore the daily failure notice.
    FailureNotice {
        #[command(flatten)]
        action: NoticeFlags,
    },
    /// Should the user be asked to update? Prints {"notify", "text"}; marks the notice shown.
    UpdateCheck {
        /// The installed version (default: this component's version).
        #[arg(long, value_name = "SEMVER")]
        local_version: Option<String>,
        /// The newest published version.
        #[arg(long, value_name = "SEMVER")]
        remote_version: String,
    },
    /// Record the user's answer to the update question.
    UpdateNotice {
        #[command(flatten)]
        response: UpdateFlags,
    },
    /// Record that a skill was shown to the user (by hand; `recommend` records its own cards).
    Shown {
        #[command(flatten)]
        skill: SkillArgs,
        /// The flow that showed it: daily uses up the day's daily push (without --mode the record
        /// counts as daily, as the original's records do).
        #[arg(long, value_enum)]
        mode: Option<ModeArg>,
    },
    /// Record that the user accepted (installed) a skill: --skill-id is the ID on the card (or the
    /// name the card showed); an id never shown needs --skill-name and --skill-url.
    Accept(SkillArgs),
    /// Record that the user declined a skill (--skill-id as for accept).
    Reject(SkillArgs),
    /// Turn a registry's own JSON (search, list or detail response) into {"candidates": [...]}.
    /// Reads no state. Exit 7 when some items were skipped (listed under "skipped").
    Normalize {
        /// Which registry the JSON comes from.
        #[arg(long = "from", value_enum, default_value_t = RegistryArg::Auto)]
        from: RegistryArg,
        /// Base URL of a self-hosted registry (SkillHub), to build page URLs.
        #[arg(long, value_name = "URL")]
        base_url: Option<String>,
        /// The JSON file, or - for standard input.
        #[arg(value_name = "FILE|-")]
        input: PathBuf,
    },
    /// Filter candidates against the state, the history and the installed skills; prints
    /// {"kept": [...], "dropped": [{"skill_id", "reason", ...}], "summary": {...}}. Never writes.
    Filter {
        /// The candidates JSON ({"candidates": [...]} or an array), or - for standard input.
        #[arg(long, value_name = "FILE|-")]
        candidates: PathBuf,
        #[command(flatten)]
        source: SourceFlags,
        /// manual (the user asked) or daily (the automation: one per local day).
        #[arg(long, value_enum)]
        mode: ModeArg,
        #[command(flatten)]
        discovery: DiscoveryFlags,
        #[command(flatten)]
        agent: AgentFlags,
    },
    /// Assess candidates' risk: source trust, registry verdicts, metadata, content rules. Prints
    /// {"passed": [...], "blocked": [...], "summary": {...}}; each has risk_level, decision and findings.
    Scan {
        /// The candidates JSON ({"candidates": [...]} or an array), or - for standard input.
        #[arg(long, value_name = "FILE|-")]
        candidates: PathBuf,
        #[command(flatten)]
        source: SourceFlags,
        /// manual (medium risk may pass, explained) or daily (low risk only).
        #[arg(long, value_enum)]
        mode: ModeArg,
    },
    /// Scan a whole skill bundle (a folder, a .zip/.skill archive or a SKILL.md) and decide the install
    /// policy. Exit 0 allow, 9 ask the user, 8 block.
    ScanBundle {
        /// The skill folder, archive or SKILL.md.
        path: PathBuf,
        /// How far the source is trusted (default: trusted if --source is an official repository, else
        /// community).
        #[arg(long, value_enum)]
        trust: Option<TrustLevel>,
        /// Where the skill comes from (a repository URL), to derive --trust.
        #[arg(long, value_name = "URL")]
        source: Option<String>,
        /// Allow a blocked skill after review (never lifts "dangerous" on community or trusted).
        #[arg(long)]
        force: bool,
        /// A readable report instead of JSON.
        #[arg(long)]
        text: bool,
    },
    /// Rank candidates with a per-factor score breakdown and readable reasons. Reads state, never
    /// writes. Filter them first (or use `recommend`, which does everything). Exit 7 when some items
    /// could not be read (listed under "skipped").
    Rank {
        /// The candidates JSON ({"candidates": [...]} or an array), or - for standard input.
        #[arg(long, value_name = "FILE|-")]
        candidates: PathBuf,
        #[command(flatten)]
        source: SourceFlags,
        /// manual (the user's request) or daily (the daily pick's weights and theme).
        #[arg(long, value_enum)]
        mode: ModeArg,
        #[command(flatten)]
        request: RequestFlags,
        #[command(flatten)]
        discovery: DiscoveryFlags,
        #[command(flatten)]
        agent: AgentFlags,
    },
    /// The main job: filter -> scan -> rank -> pick -> card, in one sandboxed call; records `shown`
    /// for the pick (unless --dry-run) and prints the card. With --json: the pick, alternatives,
    /// dropped and blocked candidates with reasons, and the card text. A silent result (daily not
    /// enabled, already recommended today, nothing matching the task) prints nothing and says why on
    /// stderr; when every candidate was dropped or blocked, stdout says why per reason (exit 10).
    Recommend {
        /// manual (the user asked) or daily (the automation: one low-risk pick per local day, or none).
        #[arg(long, value_enum)]
        mode: ModeArg,
        /// What your search found ({"candidates": [...]} or an array of objects with skill_id, name,
        /// url, description; or a registry's own API response), or - for standard input.
        /// Without it (and without --sample): an error saying how to pass candidates.
        #[arg(long, value_name = "FILE|-")]
        candidates: Option<PathBuf>,
        /// The built-in demonstration data instead of --candidates: the card says it is a
        /// demonstration, and nothing is recorded.
        #[arg(long, conflicts_with_all = ["candidates", "from"])]
        sample: bool,
        #[command(flatten)]
        source: SourceFlags,
        #[command(flatten)]
        request: RequestFlags,
        /// Print the whole result as JSON instead of the card.
        #[arg(long)]
        json: bool,
        /// Decide and render, but record nothing.
        #[arg(long)]
        dry_run: bool,
        /// The newest published version of this skill, if you looked it up: when an update notice is
        /// due, the card ends with the update question.
        #[arg(long, value_name = "SEMVER")]
        remote_version: Option<String>,
        /// The installed version (default: this component's version).
        #[arg(long, value_name = "SEMVER", requires = "remote_version")]
        local_version: Option<String>,
        /// You ask the user another authorization question this turn: defer the update question (one
        /// question per turn).
        #[arg(long)]
        other_question: bool,
        #[command(flatten)]
        discovery: DiscoveryFlags,
        #[command(flatten)]
        agent: AgentFlags,
    },
    /// Render the card for a `recommend --json` result (e.g. in the other language). Reads no state.
    Render {
        /// manual or daily card.
        #[arg(long, value_enum)]
        mode: ModeArg,
        /// The `recommend --json` output (or {"pick": {...}}), or - for standard input.
        #[arg(long, value_name = "FILE|-")]
        input: PathBuf,
        /// Print {"mode", "lang", "card"} instead of the card text.
        #[arg(long)]
        json: bool,
    },
    /// Validate SKILL.md against the agentskills.io specification and the bundle rules.
    /// Exit 0 valid, 8 invalid.
    Validate {
        /// The skill folder, archive or SKILL.md.
        path: PathBuf,
        /// Every rule is an error (default: the spec's lenient client guidance).
        #[arg(long)]
        strict: bool,
        /// Also assess how much of the skill is more than a prompt: {"quality": {"level":
        /// prompt-only|basic|strong, "score", "signals": [...]}} (when to use, procedure, pitfalls,
        /// verification, references, scripts, templates, examples, description, length). Never
        /// changes the exit code.
        #[arg(long)]
        quality: bool,
    },
    /// Serve these commands to AI agents over the Model Context Protocol on stdin/stdout (for Claude
    /// Code, Codex, Cursor, Claude Desktop, Hermes, ...): tools recommend_skills, scan_skill,
    /// validate_skill, normalize_candidates, record_feedback, daily, check_update; resources for the
    /// state and the protocol; a `recommend` prompt. Same state directory rules as every command (the
    /// global flags apply). stdout carries only protocol messages; logs go to stderr.
    Mcp(McpFlags),
}

/// What the agent that will run the skills is (see docs/fit-and-quality.md).
#[derive(Debug, Args)]
pub struct AgentFlags {
    /// The agent's OS: linux, macos or windows (aliases darwin, win32, ... accepted). Default: this
    /// machine's. Skills that declare other platforms are dropped (platform_unsupported); for another
    /// OS than this machine's, declared commands are not looked up on this PATH.
    #[arg(long, value_name = "OS")]
    pub platform: Option<String>,
    /// The agent's capabilities or toolsets, comma-separated (terminal, browser, web_search, file,
    /// code_execution, vision, ...). Default: unknown, so required toolsets change nothing; skills
    /// needing one not listed rank lower and the card says so.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub capabilities: Option<Vec<String>>,
}

impl AgentFlags {
    pub fn into_args(self) -> AgentArgs {
        AgentArgs {
            platform: self.platform,
            capabilities: self.capabilities,
        }
    }
}

#[derive(Debug, Args)]
pub struct DiscoveryFlags {
    /// Another directory of installed skills (<dir>/<skill>/SKILL.md); repeatable.
    #[arg(long, value_name = "DIR")]
    pub skills_dir: Vec<PathBuf>,
    /// Do not look in the usual skill directories (./.agents/skills, ~/.claude/skills, ~/.hermes/skills,
    /// ~/.codex/skills, ~/.openclaw/skills, ...); --skills-dir still applies.
    #[arg(long)]
    pub no_discover: bool,
}

/// `--from` / `--base-url` for commands that take candidates.
#[derive(Debug, Args)]
pub struct SourceFlags {
    /// The registry whose own API response --candidates is, when it is not recognised by its shape:
    /// clawhub, skillssh, smithery, glama, skillhub, github, mcpmarket.
    #[arg(long = "from", value_enum, value_name = "REGISTRY")]
    pub from: Option<RegistryArg>,
    /// Base URL of a self-hosted registry (SkillHub), to build page URLs.
    #[arg(long, value_name = "URL", requires = "from")]
    pub base_url: Option<String>,
}

impl SourceFlags {
    pub fn into_args(self) -> SourceArgs {
        SourceArgs {
            from: self.from.unwrap_or_default(),
            base_url: self.base_url,
        }
    }
}

#[derive(Debug, Args)]
pub struct RequestFlags {
    /// The user's request in their own words, Chinese or English (e.g. "把 PDF 表格转成 Excel").
    #[arg(long, value_name = "TEXT")]
    pub task: Option<String>,
    /// A scenario hint beside the state's scenario_memory (e.g. "weekly investor updates");
    /// repeatable.
    #[arg(long = "signal", value_name = "TEXT")]
    pub signals: Vec<String>,
}

#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct NoticeFlags {
    /// Stop reminding.
    #[arg(long)]
    pub dismiss: bool,
    /// Remind again next time.
    #[arg(long)]
    pub restore: bool,
}

#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct UpdateFlags {
    /// The user wants the update.
    #[arg(long)]
    pub accept: bool,
    /// Not now; not asked again for this version.
    #[arg(long)]
    pub dismiss: bool,
}

#[derive(Debug, Args)]
pub struct SkillArgs {
    /// Stable id, source:name-lower (e.g. clawhub:pdf-tables).
    #[arg(long, value_name = "ID")]
    pub skill_id: String,
    /// Display name.
    #[arg(long, value_name = "NAME")]
    pub skill_name: Option<String>,
    /// The skill's page (http or https).
    #[arg(long, value_name = "URL")]
    pub skill_url: Option<String>,
    /// Comma-separated categories.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub categories: Vec<String>,
}

impl SkillArgs {
    pub fn into_args(self, action: FeedbackKind) -> FeedbackArgs {
        FeedbackArgs {
            action,
            skill_id: self.skill_id,
            skill_name: self.skill_name,
            skill_url: self.skill_url,
            categories: self.categories,
            mode: None,
        }
    }
}

impl DiscoveryFlags {
    pub fn into_args(self) -> DiscoveryArgs {
        DiscoveryArgs {
            skills_dirs: self.skills_dir,
            no_discover: self.no_discover,
        }
    }
}

#[derive(Debug, Clone, Args)]
pub struct McpFlags {
    /// Wall-clock limit of one tool call in milliseconds (plus 1 s per started MiB of input); a call
    /// past it fails alone with a sandbox_limit error.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub deadline_ms: u64,
    /// Largest input one call accepts (a candidates list, a registry response), in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 64 << 20)]
    pub max_input_bytes: usize,
    /// Tool calls run at once, each on a warm instance; further calls wait for a free one.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub slots: u32,
}
