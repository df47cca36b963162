//! `skill-recommender`: the CLI agents call. It parses arguments, resolves the state directory, runs one
//! guest call through the harness and prints JSON. All judging happens in the component.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use host_harness::discover::{self, SkillsDir};
use host_harness::{
    CacheMode, Command, Error, FeedbackAction, FileStateStore, Harness, Lang, Mode, NoticeAction,
    NullStateStore, PromptSource, RankRequest, RecommendOptions, Registry, SkillRef, StateStore,
    Trust, UpdateResponse, resolve_state_dir, trust_of_source,
};
use serde_json::{Value, json};

const AFTER_HELP: &str = "\
State lives outside the skill's install directory, first match wins:
  --state-dir DIR, $SKILL_RECOMMENDER_STATE_DIR, $HERMES_HOME/state/skill-recommender,
  ~/.hermes/state/skill-recommender (if ~/.hermes exists), ~/.skill-recommender
Files: state.json and history.json (the original skill-recommender's format).

Output: one JSON object on stdout. On failure: {\"error\": {\"code\", \"message\", \"exit_code\", ...}}
on stdout and a one-line message on stderr.

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

Examples:
  skill-recommender status
  skill-recommender prompt-daily --source post_install
  skill-recommender enable-daily        # then create the automation, then:
  skill-recommender confirm-daily-enabled
  skill-recommender daily-gate          # first step of every daily run
  skill-recommender shown --skill-id clawhub:pdf-tables --skill-name 'PDF Tables' --categories pdf,documents
  skill-recommender normalize --from clawhub clawhub-search.json > candidates.json
  skill-recommender filter --candidates candidates.json --mode daily
  skill-recommender recommend --mode manual --task '把 PDF 表格转成 Excel' --candidates candidates.json
  skill-recommender recommend --mode daily --candidates candidates.json --json";

/// Discover, vet and recommend agent skills: the deterministic half of the skill-recommender protocol,
/// run in a WebAssembly sandbox with no file, network, environment or process access.
#[derive(Debug, Parser)]
#[command(name = "skill-recommender", version, after_help = AFTER_HELP, args_override_self = true)]
struct Cli {
    /// State directory (default: see below).
    #[arg(long, global = true, value_name = "DIR")]
    state_dir: Option<PathBuf>,

    /// The current time, RFC 3339 with an offset (default: the system clock). For tests and replays.
    #[arg(long, global = true, value_name = "RFC3339")]
    now: Option<String>,

    /// The host's IANA time zone, used for "today" when state.json has no `timezone`
    /// (default: the system's zone).
    #[arg(long, global = true, value_name = "ZONE")]
    timezone: Option<String>,

    /// Language of user-facing text in the output.
    #[arg(long, global = true, value_enum, default_value_t = LangArg::Zh)]
    lang: LangArg,

    /// Migrate a legacy in-repo `data/` directory (state.json, history.json) once, when the state
    /// directory has no such files yet (default: `data/` beside this binary's SKILL.md, if any).
    #[arg(long, global = true, value_name = "DIR")]
    legacy_data_dir: Option<PathBuf>,

    /// Where the precompiled component is cached (default: $SKILL_RECOMMENDER_CACHE_DIR, else the
    /// user cache directory).
    #[arg(long, global = true, value_name = "DIR", conflicts_with = "no_cache")]
    cache_dir: Option<PathBuf>,

    /// Run another build of the component (a .wasm component file) instead of the embedded one. It must
    /// implement the same contract version and import nothing beyond wasi:io, wasi:cli and the state store.
    #[arg(long, global = true, value_name = "FILE")]
    component: Option<PathBuf>,

    /// Compile the component in memory; write no cache.
    #[arg(long, global = true)]
    no_cache: bool,

    /// Print JSON on one line instead of pretty-printed.
    #[arg(long, global = true)]
    compact: bool,

    #[command(subcommand)]
    command: Cmd,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum LangArg {
    Zh,
    En,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum SourceArg {
    #[value(name = "post_install", alias = "post-install")]
    PostInstall,
    Manual,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ModeArg {
    Manual,
    Daily,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum RegistryArg {
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

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Show the state summary: daily status, notices, counts, state dir and files. Never writes.
    Status,
    /// Record that the daily question was asked (unset -> prompted; otherwise unchanged).
    PromptDaily {
        /// Where it was asked.
        #[arg(long, value_enum)]
        source: SourceArg,
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
    /// Record that a skill was shown to the user.
    Shown(SkillArgs),
    /// Record that the user accepted (installed) a skill.
    Accept(SkillArgs),
    /// Record that the user declined a skill.
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
        /// manual (the user asked) or daily (the automation: one per local day).
        #[arg(long, value_enum)]
        mode: ModeArg,
        #[command(flatten)]
        discovery: DiscoveryArgs,
    },
    /// Assess candidates' risk: source trust, registry verdicts, metadata, content rules. Prints
    /// {"passed": [...], "blocked": [...], "summary": {...}}; each has risk_level, decision and findings.
    Scan {
        /// The candidates JSON ({"candidates": [...]} or an array), or - for standard input.
        #[arg(long, value_name = "FILE|-")]
        candidates: PathBuf,
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
        trust: Option<TrustArg>,
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
        /// manual (the user's request) or daily (the daily pick's weights and theme).
        #[arg(long, value_enum)]
        mode: ModeArg,
        #[command(flatten)]
        request: RankArgs,
        #[command(flatten)]
        discovery: DiscoveryArgs,
    },
    /// The main job: filter -> scan -> rank -> pick -> card, in one sandboxed call; records `shown`
    /// for the pick (unless --dry-run) and prints the card. With --json: the pick, alternatives,
    /// dropped and blocked candidates with reasons, and the card text. A silent result (daily not
    /// enabled, already recommended today, nothing good enough) prints nothing and says why on stderr.
    Recommend {
        /// manual (the user asked) or daily (the automation: one low-risk pick per local day, or none).
        #[arg(long, value_enum)]
        mode: ModeArg,
        /// The candidates JSON ({"candidates": [...]} or an array), or - for standard input.
        /// Without it, the bundled sample data is used (development only; said on stderr).
        #[arg(long, value_name = "FILE|-")]
        candidates: Option<PathBuf>,
        #[command(flatten)]
        request: RankArgs,
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
        discovery: DiscoveryArgs,
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
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum TrustArg {
    Builtin,
    Trusted,
    Community,
    #[value(name = "agent-created")]
    AgentCreated,
}

#[derive(Debug, Args)]
struct DiscoveryArgs {
    /// Another directory of installed skills (<dir>/<skill>/SKILL.md); repeatable.
    #[arg(long, value_name = "DIR")]
    skills_dir: Vec<PathBuf>,
    /// Do not look in the usual skill directories (./.agents/skills, ~/.claude/skills, ~/.hermes/skills,
    /// ~/.codex/skills, ~/.openclaw/skills, ...); --skills-dir still applies.
    #[arg(long)]
    no_discover: bool,
}

#[derive(Debug, Args)]
struct RankArgs {
    /// The user's request in their own words, Chinese or English (e.g. "把 PDF 表格转成 Excel").
    #[arg(long, value_name = "TEXT")]
    task: Option<String>,
    /// A scenario hint beside the state's scenario_memory (e.g. "weekly investor updates");
    /// repeatable.
    #[arg(long = "signal", value_name = "TEXT")]
    signals: Vec<String>,
}

impl RankArgs {
    fn into_request(self) -> RankRequest {
        RankRequest {
            task: self.task,
            signals: self.signals,
        }
    }
}

fn mode_of(mode: ModeArg) -> Mode {
    match mode {
        ModeArg::Manual => Mode::Manual,
        ModeArg::Daily => Mode::Daily,
    }
}

/// The installed skills of the usual skill directories (unless --no-discover) and --skills-dir, with
/// a report for the output; warnings go to stderr.
fn discover_installed(discovery: DiscoveryArgs) -> (Vec<host_harness::InstalledSkill>, Value) {
    let mut dirs: Vec<SkillsDir> = Vec::new();
    if !discovery.no_discover {
        let cwd = std::env::current_dir().unwrap_or_default();
        dirs = discover::default_dirs(&cwd, dirs::home_dir().as_deref());
    }
    dirs.extend(discovery.skills_dir.into_iter().map(|path| SkillsDir {
        path,
        label: "custom",
    }));
    let found = discover::discover(&dirs);
    for w in &found.warnings {
        eprintln!("skill-recommender: {w}");
    }
    let report = json!({
        "scanned": found.scanned,
        "installed_skills": found.skills.len(),
        "warnings": found.warnings,
    });
    (found.skills, report)
}

/// The bundled sample candidates: `recommend`'s development fallback when no --candidates is given.
const SAMPLE_CANDIDATES: &str = include_str!("../../../data/sample_candidates.json");

#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
struct NoticeFlags {
    /// Stop reminding.
    #[arg(long)]
    dismiss: bool,
    /// Remind again next time.
    #[arg(long)]
    restore: bool,
}

#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
struct UpdateFlags {
    /// The user wants the update.
    #[arg(long)]
    accept: bool,
    /// Not now; not asked again for this version.
    #[arg(long)]
    dismiss: bool,
}

#[derive(Debug, Args)]
struct SkillArgs {
    /// Stable id, source:name-lower (e.g. clawhub:pdf-tables).
    #[arg(long, value_name = "ID")]
    skill_id: String,
    /// Display name.
    #[arg(long, value_name = "NAME")]
    skill_name: Option<String>,
    /// The skill's page (http or https).
    #[arg(long, value_name = "URL")]
    skill_url: Option<String>,
    /// Comma-separated categories.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    categories: Vec<String>,
}

impl SkillArgs {
    fn into_ref(self) -> SkillRef {
        SkillRef {
            skill_id: self.skill_id,
            name: self.skill_name,
            url: self.skill_url,
            categories: self.categories,
            mode: None,
        }
    }
}

fn command(cmd: Cmd) -> Command {
    match cmd {
        Cmd::Normalize { .. }
        | Cmd::Filter { .. }
        | Cmd::Scan { .. }
        | Cmd::ScanBundle { .. }
        | Cmd::Rank { .. }
        | Cmd::Recommend { .. }
        | Cmd::Render { .. }
        | Cmd::Validate { .. } => unreachable!("built with their inputs in run()"),
        Cmd::Status => Command::Status,
        Cmd::PromptDaily { source } => Command::PromptDaily {
            source: match source {
                SourceArg::PostInstall => PromptSource::PostInstall,
                SourceArg::Manual => PromptSource::Manual,
            },
        },
        Cmd::EnableDaily {
            scheduler_available,
        } => Command::EnableDaily {
            scheduler_available,
        },
        Cmd::ConfirmDailyEnabled => Command::ConfirmDailyEnabled,
        Cmd::FailDailySchedule { reason } => Command::FailDailySchedule { reason },
        Cmd::DisableDaily => Command::DisableDaily,
        Cmd::UnsupportedDaily => Command::UnsupportedDaily,
        Cmd::DailyGate {
            no_search_capability,
        } => Command::DailyGate {
            search_capability: !no_search_capability,
        },
        Cmd::FailureNotice { action } => Command::FailureNotice {
            action: if action.dismiss {
                NoticeAction::Dismiss
            } else {
                NoticeAction::Restore
            },
        },
        Cmd::UpdateCheck {
            local_version,
            remote_version,
        } => Command::UpdateCheck {
            local_version,
            remote_version,
        },
        Cmd::UpdateNotice { response } => Command::UpdateNotice {
            response: if response.accept {
                UpdateResponse::Accept
            } else {
                UpdateResponse::Dismiss
            },
        },
        Cmd::Shown(s) => Command::Feedback {
            action: FeedbackAction::Shown,
            skill: s.into_ref(),
        },
        Cmd::Accept(s) => Command::Feedback {
            action: FeedbackAction::Accept,
            skill: s.into_ref(),
        },
        Cmd::Reject(s) => Command::Feedback {
            action: FeedbackAction::Reject,
            skill: s.into_ref(),
        },
    }
}

/// The skill's own `data/` directory, if this binary sits inside an installed skill (a SKILL.md naming
/// skill-recommender in one of its ancestors): where the original kept its state.
fn detect_legacy_dir() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?.canonicalize().ok()?;
    exe.ancestors().skip(1).take(4).find_map(|dir| {
        let skill = std::fs::read_to_string(dir.join("SKILL.md")).ok()?;
        let named = skill
            .lines()
            .take(20)
            .any(|l| l.trim() == "name: skill-recommender");
        (named && dir.join("data").is_dir()).then(|| dir.join("data"))
    })
}

/// Read a bundle for `scan-bundle`/`validate`; a missing path is invalid input naming it.
fn read_bundle_arg(path: &std::path::Path) -> Result<host_harness::Bundle, Error> {
    host_harness::bundle::read_bundle(path, &host_harness::bundle::BundleLimits::default()).map_err(
        |e| Error::InvalidInput {
            field: "path".into(),
            message: e.to_string(),
        },
    )
}

/// Read an input file (or stdin for `-`) within the input size cap; errors name the flag and the file.
fn read_input(field: &str, path: &std::path::Path, limit: usize) -> Result<String, Error> {
    use std::io::Read;
    let invalid = |message: String| Error::InvalidInput {
        field: field.into(),
        message,
    };
    let mut bytes = Vec::new();
    let cap = limit as u64 + 1;
    let read = if path.as_os_str() == "-" {
        std::io::stdin().lock().take(cap).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(cap).read_to_end(&mut bytes))
    };
    let name = if path.as_os_str() == "-" {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    };
    read.map_err(|e| invalid(format!("cannot read {name}: {e}")))?;
    if bytes.len() > limit {
        return Err(invalid(format!(
            "{name} is over the {limit}-byte input limit"
        )));
    }
    String::from_utf8(bytes).map_err(|_| invalid(format!("{name} is not UTF-8 text")))
}

fn print(value: &Value, compact: bool) {
    use std::io::Write;
    let text = if compact {
        serde_json::to_string(value)
    } else {
        serde_json::to_string_pretty(value)
    };
    let text = text.expect("JSON values always serialize");
    // A reader that closed the pipe early (`| head`) is not an error worth a panic.
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("skill-recommender: cannot write the output: {e}");
    }
}

fn fail(e: &Error, compact: bool) -> ExitCode {
    print(&e.to_json(), compact);
    eprintln!("skill-recommender: error: {e}");
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let compact = cli.compact;
    let output = match cli.command {
        Cmd::ScanBundle { text: true, .. } => Output::ScanReport,
        Cmd::Recommend { json: false, .. } | Cmd::Render { json: false, .. } => Output::Card,
        _ => Output::Json,
    };
    match run(cli) {
        Ok(value) => {
            match output {
                Output::Json => print(&value, compact),
                Output::ScanReport => print_text(&report_text(&value)),
                Output::Card => match value["card"].as_str() {
                    Some(card) => print_text(card),
                    None => eprintln!(
                        "skill-recommender: nothing to show ({}): {}",
                        value["reason"].as_str().unwrap_or("silent"),
                        value["message"].as_str().unwrap_or("")
                    ),
                },
            }
            ExitCode::from(exit_code_of(&value))
        }
        Err(e) => fail(&e, compact),
    }
}

/// How a successful result is printed.
enum Output {
    Json,
    /// `scan-bundle --text`.
    ScanReport,
    /// `recommend` and `render` without --json: the card text (nothing when silent).
    Card,
}

/// Exit codes of successful calls that still say "no": 7 partial, 8 block/invalid, 9 ask.
fn exit_code_of(value: &Value) -> u8 {
    if value["skipped"].as_array().is_some_and(|s| !s.is_empty()) {
        eprintln!("skill-recommender: some items were skipped; see \"skipped\" in the output");
        return 7;
    }
    match (value["policy"].as_str(), value["valid"].as_bool()) {
        (Some("block"), _) | (_, Some(false)) => 8,
        (Some("ask"), _) => 9,
        _ => 0,
    }
}

fn print_text(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// The readable `scan-bundle --text` report.
fn report_text(v: &Value) -> String {
    let s = |k: &str| v[k].as_str().unwrap_or("").to_owned();
    let mut out = format!(
        "skill:   {}\ntrust:   {}\nverdict: {}\npolicy:  {}  ({})\nfiles:   {} ({} bytes), {} rules\n",
        s("skill"),
        s("trust"),
        s("verdict").to_uppercase(),
        s("policy").to_uppercase(),
        s("reason"),
        v["stats"]["files"],
        v["stats"]["bytes"],
        v["stats"]["rules"]
    );
    let findings = v["findings"].as_array().cloned().unwrap_or_default();
    if findings.is_empty() {
        out.push_str("\nNo findings.\n");
    }
    for f in findings {
        let fs = |k: &str| f[k].as_str().unwrap_or("").to_owned();
        let place = match f["line"].as_u64() {
            Some(0) | None => fs("file"),
            Some(l) => format!("{}:{l}", fs("file")),
        };
        out.push_str(&format!(
            "\n[{}] {}  {}\n    {}\n    {}\n",
            fs("severity").to_uppercase(),
            fs("rule_id"),
            place,
            fs("evidence"),
            fs("description")
        ));
    }
    out
}

fn cache_mode(no_cache: bool, dir: Option<PathBuf>) -> CacheMode {
    match (no_cache, dir) {
        (true, _) => CacheMode::Disabled,
        (false, Some(d)) => CacheMode::Dir(d),
        (false, None) => CacheMode::from_env(),
    }
}

fn run(cli: Cli) -> Result<Value, Error> {
    let lang = match cli.lang {
        LangArg::Zh => Lang::Zh,
        LangArg::En => Lang::En,
    };
    let mut ctx = host_harness::system_context(lang);
    if let Some(now) = cli.now {
        ctx.now = now;
    }
    if let Some(zone) = cli.timezone {
        ctx.host_timezone = Some(zone);
    }
    // One call per process: a warm instance pool would only add its set-up (≈ 3 ms) to start-up.
    let mut builder = Harness::builder()
        .cache(cache_mode(cli.no_cache, cli.cache_dir))
        .instance_pool(None);
    if let Some(path) = &cli.component {
        let bytes = std::fs::read(path).map_err(|e| Error::InvalidInput {
            field: "component".into(),
            message: format!("cannot read {}: {e}", path.display()),
        })?;
        builder = builder.component_bytes(bytes);
    }
    let harness = builder.build()?;
    let limit = harness.limits().max_input_bytes;
    // The scanner reads no state: no state dir, no lock.
    match &cli.command {
        Cmd::Scan { candidates, mode } => {
            let mode = mode_of(*mode);
            let candidates = read_input("candidates", candidates, limit)?;
            return harness.run(
                &NullStateStore,
                &ctx,
                &Command::ScanCandidates { mode, candidates },
            );
        }
        Cmd::ScanBundle {
            path,
            trust,
            source,
            force,
            ..
        } => {
            let bundle = read_bundle_arg(path)?;
            let trust = match (trust, source) {
                (Some(TrustArg::Builtin), _) => Trust::Builtin,
                (Some(TrustArg::Trusted), _) => Trust::Trusted,
                (Some(TrustArg::Community), _) => Trust::Community,
                (Some(TrustArg::AgentCreated), _) => Trust::AgentCreated,
                (None, Some(url)) => trust_of_source(url),
                (None, None) => Trust::Community,
            };
            return harness.run_owned(
                &NullStateStore,
                &ctx,
                Command::ScanBundle {
                    bundle,
                    trust,
                    force: *force,
                },
            );
        }
        Cmd::Render { mode, input, .. } => {
            let input = read_input("input", input, limit)?;
            return harness.run(
                &NullStateStore,
                &ctx,
                &Command::Render {
                    mode: mode_of(*mode),
                    input,
                },
            );
        }
        Cmd::Validate { path, strict } => {
            let bundle = read_bundle_arg(path)?;
            return harness.run_owned(
                &NullStateStore,
                &ctx,
                Command::Validate {
                    bundle,
                    strict: *strict,
                },
            );
        }
        _ => {}
    }
    // `normalize` needs no state: no state dir, no lock.
    if let Cmd::Normalize {
        from,
        base_url,
        input,
    } = &cli.command
    {
        let registry = match from {
            RegistryArg::Auto => None,
            RegistryArg::Clawhub => Some(Registry::Clawhub),
            RegistryArg::Skillssh => Some(Registry::Skillssh),
            RegistryArg::Smithery => Some(Registry::Smithery),
            RegistryArg::Glama => Some(Registry::Glama),
            RegistryArg::Skillhub => Some(Registry::Skillhub),
            RegistryArg::Github => Some(Registry::Github),
            RegistryArg::Mcpmarket => Some(Registry::Mcpmarket),
            RegistryArg::Candidates => Some(Registry::Candidates),
        };
        let json = read_input("input", input, limit)?;
        let command = Command::Normalize {
            registry,
            json,
            base_url: base_url.clone(),
        };
        let out = harness.run(&NullStateStore, &ctx, &command)?;
        for w in out["warnings"].as_array().into_iter().flatten() {
            eprintln!(
                "skill-recommender: item {}: {}: {}",
                w["index"],
                w["field"].as_str().unwrap_or(""),
                w["message"].as_str().unwrap_or("")
            );
        }
        return Ok(out);
    }
    let (dir, source) = resolve_state_dir(
        cli.state_dir.as_deref(),
        |k| std::env::var_os(k),
        dirs::home_dir().as_deref(),
    )
    .map_err(|message| Error::InvalidInput {
        field: "state-dir".into(),
        message,
    })?;
    let legacy = cli.legacy_data_dir.or_else(detect_legacy_dir);
    let store = FileStateStore::new(&dir)
        .with_legacy_dir(legacy)
        .with_max_document_bytes(harness.limits().max_document_bytes);
    let is_status = matches!(cli.command, Cmd::Status);
    let mut discovery_report = None;
    let command = match cli.command {
        Cmd::Filter {
            candidates,
            mode,
            discovery,
        } => {
            let json = read_input("candidates", &candidates, limit)?;
            let (installed, report) = discover_installed(discovery);
            discovery_report = Some(report);
            Command::Filter {
                mode: mode_of(mode),
                candidates: json,
                installed,
            }
        }
        Cmd::Rank {
            candidates,
            mode,
            request,
            discovery,
        } => {
            let json = read_input("candidates", &candidates, limit)?;
            let (installed, report) = discover_installed(discovery);
            discovery_report = Some(report);
            Command::Rank {
                mode: mode_of(mode),
                candidates: json,
                installed,
                request: request.into_request(),
            }
        }
        Cmd::Recommend {
            mode,
            candidates,
            request,
            dry_run,
            remote_version,
            local_version,
            other_question,
            discovery,
            ..
        } => {
            let json = match candidates {
                Some(path) => read_input("candidates", &path, limit)?,
                None => {
                    eprintln!(
                        "skill-recommender: no --candidates given: using the bundled sample data (data/sample_candidates.json), for development only"
                    );
                    SAMPLE_CANDIDATES.to_owned()
                }
            };
            let (installed, report) = discover_installed(discovery);
            discovery_report = Some(report);
            let request = request.into_request();
            Command::Recommend {
                mode: mode_of(mode),
                candidates: json,
                installed,
                options: RecommendOptions {
                    task: request.task,
                    signals: request.signals,
                    dry_run,
                    remote_version,
                    local_version,
                    other_question,
                },
            }
        }
        other => command(other),
    };
    let mut out = harness.run(&store, &ctx, &command)?;
    if let Some(report) = discovery_report {
        out["discovery"] = report;
    }
    for m in store.migrations() {
        eprintln!(
            "skill-recommender: migrated legacy {} to {}",
            m.from.display(),
            m.to.display()
        );
    }
    if is_status {
        // Where things live (differs per machine and run) apart from what the host is (the same in
        // every host of this component): hosts compare `status` minus `state_dir` and `paths`.
        out["state_dir"] = json!(dir);
        let mut cache = harness.cache_outcome().to_json();
        cache["preinit"] = json!(harness.preinit().describe());
        cache["instance_pool"] = json!(harness.instance_pool().describe());
        out["paths"] = json!({
            "state": store.location(host_harness::Document::State),
            "history": store.location(host_harness::Document::History),
            "cache": cache,
        });
        out["host"] = json!({
            "state_dir_source": source.as_str(),
            "component_imports": harness.imports(),
        });
    }
    Ok(out)
}
