//! The command line: flags and subcommands (clap). Each subcommand maps to one command of
//! [`host_harness::commands`]; the help texts here are written for people, the MCP schemas there for models.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use host_harness::commands::{
    Agent, AgentArgs, DiscoveryArgs, FeedbackArgs, FeedbackKind, LangArg, ModeArg, PromptSourceArg,
    RegistryArg, ScopeArg, SourceArgs, TargetArgs, TrustLevel,
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
  8  blocked / invalid: `scan-bundle` policy is block, or `validate` found errors; `install`/`skill`
     refused (invalid, hostile or blocked by the scan); `audit`: something is dangerous
  9  ask: `scan-bundle`/`install` policy is ask (confirm with the user, then `install --yes`);
     `audit`: something changed since install or needs a look
 10  nothing usable (`recommend`, `filter`): every candidate was dropped or blocked, or none was
     given (`recommend` prints one line per reason on stdout); or a conflict with what is on disk
     (`install`, `uninstall`, `skill`): a skill of that name is there, not found, a malformed
     AGENTS.md block, or another process holds the skills folder
 11  a skills folder could not be read or written (rolled back, or finished by the next command)

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
  skill-recommender validate ./my-skill --quality
  skill-recommender install ./date-format --skill-id clawhub:date-format     # after 「安装」
  skill-recommender audit
  skill-recommender skill patch weekly-report --old '1. Read' --new '1. Open' --agent hermes";

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
    /// `recommend --lang`), else for `recommend` Chinese when the task is written in Chinese, else
    /// the locale (LC_ALL, LC_MESSAGES, LANG: zh* → zh, else en).
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
    ///
    /// Several paths, or --from-dir DIR (every skill folder beneath DIR), scan a whole catalog in one
    /// process across cores and print JSON Lines: one result per bundle as it finishes (with its
    /// "path"), then {"summary": {...}}. The exit code is the worst outcome: 8 if any bundle is
    /// blocked, else an unreadable bundle's code (3), else 9 if any asks, else 0. A progress line goes
    /// to stderr when it is a terminal.
    ScanBundle {
        /// The skill folders, archives or SKILL.md files.
        #[arg(required_unless_present = "from_dir")]
        paths: Vec<PathBuf>,
        /// Also scan every skill folder (a folder holding a SKILL.md) beneath DIR.
        #[arg(long, value_name = "DIR")]
        from_dir: Option<PathBuf>,
        /// Bundles scanned at once (default: one per core).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
        jobs: Option<u32>,
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
    /// Audit installed skills in one process (the catalog engine, as scan-bundle --from-dir): every
    /// skill of the agents' folders (where install puts them; one level of category folders), or of
    /// --skills-dir folders, re-scanned with the current rules (with the trust its provenance records,
    /// else community) and compared with its provenance (the sha256 of the tree: changed since
    /// install?). Prints JSON Lines: one per skill as it finishes (the scan's fields with "path",
    /// "level" ok|attention|dangerous, "reasons", "managed", "changed", "agent", "skills_dir"), then
    /// {"summary": {..., "by_level": {...}}}. Exit 8 when one is dangerous, 9 when one changed or needs
    /// a look, 3 when one could not be read, else 0. See docs/skills-on-disk.md.
    Audit {
        /// Only this agent's skill folders (project and user); repeatable. Default: every agent's,
        /// unless --skills-dir is given.
        #[arg(long, value_enum)]
        agent: Vec<Agent>,
        /// Only this scope's folder of each --agent.
        #[arg(long, value_enum, requires = "agent")]
        scope: Option<ScopeArg>,
        /// Another skills folder (<dir>/<skill>/SKILL.md); repeatable. Given without --agent, only
        /// these are audited.
        #[arg(long, value_name = "DIR")]
        skills_dir: Vec<PathBuf>,
        /// Only the --skills-dir folders, never the agents' (what --skills-dir without --agent
        /// already does; says so explicitly).
        #[arg(long, requires = "skills_dir", conflicts_with_all = ["agent", "scope"])]
        no_discover: bool,
        /// Scan with this trust (default: the trust each skill's provenance records, else community).
        #[arg(long, value_enum)]
        trust: Option<TrustLevel>,
        /// Skills audited at once (default: one per core).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
        jobs: Option<u32>,
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
    /// validate_skill, normalize_candidates, record_feedback, daily, check_update, install_skill,
    /// audit_skills, manage_skill; resources for the
    /// state and the protocol; a `recommend` prompt. Same state directory rules as every command (the
    /// global flags apply). stdout carries only protocol messages; logs go to stderr.
    Mcp(McpFlags),
    /// Install a skill the platform downloaded (a folder, .zip/.skill or SKILL.md) where the agent
    /// finds it: validated, scanned, name = slug, conflicts refused, copied atomically, with provenance,
    /// the AGENTS.md entry and `accept` in history. Exit 0 installed, 8 refused, 9 needs --yes, 10 a
    /// conflict on disk. See docs/skills-on-disk.md.
    Install {
        /// The skill as downloaded: a folder, a .zip/.skill archive or a SKILL.md.
        source: PathBuf,
        #[command(flatten)]
        target: TargetArgs,
        /// How far the source is trusted (default: community).
        #[arg(long, value_enum)]
        trust: Option<TrustLevel>,
        /// Where it came from: @ns/slug, @ns/slug@1.2.0, @ns/slug@latest, @ns/slug@tag, slug, ns--slug.
        #[arg(long, value_name = "COORDINATE")]
        coordinate: Option<String>,
        /// Install under this folder name (the SKILL.md name is set to it).
        #[arg(long = "as", value_name = "NAME")]
        alias: Option<String>,
        /// The recommendation's skill id, recorded as accepted (default: local:<name>).
        #[arg(long, value_name = "ID")]
        skill_id: Option<String>,
        /// Replace the skill installed under the same name.
        #[arg(long)]
        replace: bool,
        /// The user agreed to a skill the scan asks about.
        #[arg(long)]
        yes: bool,
        /// Install a caution skill blocked for its trust after review (never a dangerous one).
        #[arg(long)]
        force: bool,
        /// Print the plan; write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Remove an installed skill folder and its AGENTS.md entry. Exit 10 when it is not there.
    Uninstall {
        /// The skill's name (its folder name).
        name: String,
        #[command(flatten)]
        target: TargetArgs,
        /// Print the plan; remove nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// List installed skills with their provenance (every agent's folders without --agent/--dir).
    Installed {
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Skills an agent writes itself (Hermes' skill_manage): each write is checked and scanned as
    /// agent-created before it lands; dangerous is refused (exit 8) with nothing written.
    #[command(subcommand)]
    Skill(SkillCmd),
    /// Parse an install coordinate: namespace, slug, version or tag, canonical forms, folder name.
    Coordinate {
        /// @ns/slug, @ns/slug@1.2.0, @ns/slug@latest, @ns/slug@tag, slug, ns--slug.
        coordinate: String,
    },
    /// Print an AGENTS.md with a <skill> element added, replaced or removed (nothing is written).
    AgentsMd {
        /// The AGENTS.md (a missing file is one that does not exist yet), or - for standard input.
        #[arg(long, value_name = "FILE|-")]
        file: PathBuf,
        /// The skill to add or replace.
        #[arg(long, value_name = "NAME")]
        name: Option<String>,
        /// Its description.
        #[arg(long, value_name = "TEXT")]
        description: Option<String>,
        /// Where it is installed.
        #[arg(long, value_name = "PATH")]
        location: Option<String>,
        /// A skill to remove; repeatable.
        #[arg(long, value_name = "NAME")]
        remove: Vec<String>,
    },
    /// Print a text with a patch applied, as `skill patch` would (nothing is written). Exit 3 when
    /// the old text is not found or is ambiguous.
    PatchText {
        /// The text file, or - for standard input.
        #[arg(long, value_name = "FILE|-")]
        file: PathBuf,
        /// The text to replace: exactly, else ignoring indentation, else ignoring whitespace.
        #[arg(long, value_name = "TEXT")]
        old: String,
        /// Its replacement.
        #[arg(long, value_name = "TEXT")]
        new: String,
        /// Replace every match.
        #[arg(long)]
        replace_all: bool,
    },
}

/// `skill …`: the agent-written skill actions.
#[derive(Debug, Subcommand)]
pub enum SkillCmd {
    /// A new skill from a whole SKILL.md.
    Create {
        name: String,
        /// The SKILL.md, or - for standard input.
        #[arg(long, value_name = "FILE|-")]
        content: PathBuf,
        #[command(flatten)]
        common: SkillCommon,
    },
    /// Replace a skill's whole SKILL.md.
    Edit {
        name: String,
        /// The new SKILL.md, or - for standard input.
        #[arg(long, value_name = "FILE|-")]
        content: PathBuf,
        #[command(flatten)]
        common: SkillCommon,
    },
    /// Find and replace in SKILL.md (or --file): exact first, then ignoring indentation and
    /// whitespace; several matches are refused unless --replace-all.
    Patch {
        name: String,
        /// The text to replace.
        #[arg(long, value_name = "TEXT")]
        old: String,
        /// Its replacement.
        #[arg(long, value_name = "TEXT")]
        new: String,
        /// A supporting file instead of SKILL.md (references/…, scripts/…).
        #[arg(long, value_name = "REL_PATH")]
        file: Option<String>,
        /// Replace every match.
        #[arg(long)]
        replace_all: bool,
        #[command(flatten)]
        common: SkillCommon,
    },
    /// Remove a skill.
    Delete {
        name: String,
        #[command(flatten)]
        common: SkillCommon,
    },
    /// Add or replace a supporting file (under references/, templates/, scripts/ or assets/).
    WriteFile {
        name: String,
        /// The path inside the skill.
        rel_path: String,
        /// The file's text, or - for standard input.
        #[arg(long, value_name = "FILE|-")]
        content: PathBuf,
        #[command(flatten)]
        common: SkillCommon,
    },
    /// Remove a supporting file.
    RemoveFile {
        name: String,
        /// The path inside the skill.
        rel_path: String,
        #[command(flatten)]
        common: SkillCommon,
    },
}

/// What every `skill …` action takes.
#[derive(Debug, Args)]
pub struct SkillCommon {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Print the plan; write nothing.
    #[arg(long)]
    pub dry_run: bool,
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
