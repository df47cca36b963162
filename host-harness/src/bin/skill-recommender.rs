//! `skill-recommender`: the CLI agents call. It parses arguments, resolves the state directory, runs one
//! guest call through the harness and prints JSON. All judging happens in the component.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use host_harness::{
    CacheMode, Command, Error, FeedbackAction, FileStateStore, Harness, Lang, NoticeAction,
    PromptSource, SkillRef, StateStore, UpdateResponse, resolve_state_dir,
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

Examples:
  skill-recommender status
  skill-recommender prompt-daily --source post_install
  skill-recommender enable-daily        # then create the automation, then:
  skill-recommender confirm-daily-enabled
  skill-recommender daily-gate          # first step of every daily run
  skill-recommender shown --skill-id clawhub:pdf-tables --skill-name 'PDF Tables' --categories pdf,documents";

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
}

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
        }
    }
}

fn command(cmd: Cmd) -> Command {
    match cmd {
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

fn print(value: &Value, compact: bool) {
    let text = if compact {
        serde_json::to_string(value)
    } else {
        serde_json::to_string_pretty(value)
    };
    println!("{}", text.expect("JSON values always serialize"));
}

fn fail(e: &Error, compact: bool) -> ExitCode {
    print(&e.to_json(), compact);
    eprintln!("skill-recommender: error: {e}");
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let compact = cli.compact;
    match run(cli) {
        Ok(value) => {
            print(&value, compact);
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e, compact),
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
    let cache = match (cli.no_cache, cli.cache_dir) {
        (true, _) => CacheMode::Disabled,
        (false, Some(d)) => CacheMode::Dir(d),
        (false, None) => CacheMode::from_env(),
    };
    let harness = Harness::builder().cache(cache).build()?;
    let store = FileStateStore::new(&dir)
        .with_legacy_dir(legacy)
        .with_max_document_bytes(harness.limits().max_document_bytes);
    let is_status = matches!(cli.command, Cmd::Status);
    let mut out = harness.run(&store, &ctx, &command(cli.command))?;
    for m in store.migrations() {
        eprintln!(
            "skill-recommender: migrated legacy {} to {}",
            m.from.display(),
            m.to.display()
        );
    }
    if is_status {
        out["host"] = json!({
            "state_dir": dir,
            "state_dir_source": source.as_str(),
            "files": {
                "state": store.location(host_harness::Document::State),
                "history": store.location(host_harness::Document::History),
            },
            "component_imports": harness.imports(),
            "cache": format!("{:?}", harness.cache_outcome()),
        });
    }
    Ok(out)
}
