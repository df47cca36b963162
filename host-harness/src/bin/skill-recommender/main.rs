//! `skill-recommender`: the CLI agents call. It parses arguments, reads input files, runs one command of
//! the command layer ([`host_harness::commands`]) and prints the result. All judging happens in the
//! component; what each command does is defined once, in the library, for the CLI and the MCP server.

mod args;
mod print;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use host_harness::commands::{
    AgentsMdArgs, DailyAction, DailyArgs, FeedbackKind, FilterArgs, Host, HostEnv, InstallArgs,
    InstalledArgs, JsonText, ManageAction, ManageArgs, NormalizeArgs, NoticeAnswer, Output,
    PatchTextArgs, RankArgs, RecommendArgs, RenderArgs, ScanArgs, ScanBundleArgs, UninstallArgs,
    UpdateAnswer, UpdateCheckArgs, ValidateArgs, Verdict,
};
use host_harness::commands::{AuditArgs, CatalogArgs};
use host_harness::mcp::{McpOptions, McpServer};
use host_harness::{
    CacheMode, Ctx, Error, Harness, HarnessBuilder, InputFile, InstancePool, Lang, Limits,
};
use serde_json::json;

use args::{Cli, Cmd, McpFlags, SkillCmd};
use print::Style;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage(e),
    };
    if let Cmd::Mcp(flags) = &cli.command {
        let flags = flags.clone();
        return mcp(cli, flags);
    }
    let compact = cli.compact;
    if cli.command.is_catalog() {
        return catalog(cli).unwrap_or_else(|e| print::fail(&e, true));
    }
    let style = match cli.command {
        Cmd::ScanBundle { text: true, .. } => Style::ScanReport,
        Cmd::Recommend { json: false, .. } | Cmd::Render { json: false, .. } => Style::Card,
        _ => Style::Json,
    };
    if matches!(cli.command, Cmd::Filter { .. }) {
        // Written straight from the component's memory (a 100,000-candidate result is ~46 MB).
        let done = filter(cli).and_then(|(verdict, written)| {
            print::written_out(written).map(|()| ExitCode::from(verdict.exit_code()))
        });
        return done.unwrap_or_else(|e| print::fail(&e, compact));
    }
    match run(cli) {
        Ok(out) => print::result(&out, style, compact),
        Err(e) => print::fail(&e, compact),
    }
}

/// The harness (from the global flags: cache, component) and the environment commands run in.
fn host(cli: &mut Cli, builder: HarnessBuilder) -> Result<Host, Error> {
    let mut builder = builder.cache(cache_mode(cli.no_cache, cli.cache_dir.take()));
    if let Some(path) = &cli.component {
        let bytes = std::fs::read(path).map_err(|e| Error::InvalidInput {
            field: "component".into(),
            message: format!("cannot read {}: {e}", path.display()),
        })?;
        builder = builder.component_bytes(bytes);
    }
    let harness = builder.build()?;
    if let Some(note) = harness.embedded().note() {
        eprintln!("skill-recommender: {note}");
    }
    let mut env = HostEnv::from_process();
    env.state_dir = cli.state_dir.take();
    env.legacy_data_dir = cli.legacy_data_dir.take().or_else(detect_legacy_dir);
    Ok(Host::new(Arc::new(harness), env))
}

/// `skill-recommender mcp`: serve until the client closes stdin. Nothing but protocol on stdout, so a
/// failure to start is reported on stderr only.
fn mcp(mut cli: Cli, flags: McpFlags) -> ExitCode {
    let limits = Limits {
        deadline: Some(Duration::from_millis(flags.deadline_ms)),
        max_input_bytes: flags.max_input_bytes,
        ..Limits::default()
    };
    let pool = InstancePool {
        slots: flags.slots,
        ..InstancePool::default()
    };
    let builder = Harness::builder()
        .limits(limits)
        .instance_pool(Some(pool))
        .on_prepare(|path| {
            eprintln!(
                "skill-recommender mcp: preparing the component for this machine (once; later starts load it from {})",
                path.display()
            );
        });
    let host = match host(&mut cli, builder) {
        Ok(host) => host,
        Err(e) => {
            eprintln!("skill-recommender mcp: cannot start: {e}");
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1));
        }
    };
    match host.env().state_dir() {
        Ok((dir, source)) => eprintln!(
            "skill-recommender mcp: serving on stdio; state in {} (from {}); instance pool: {}",
            dir.display(),
            source.as_str(),
            host.harness().instance_pool().describe()
        ),
        // Stateless tools still work; stateful ones report this error per call.
        Err(e) => eprintln!("skill-recommender mcp: serving on stdio; no state directory: {e}"),
    }
    let options = McpOptions {
        lang: cli.lang.map(Lang::from),
        now: cli.now,
        timezone: cli.timezone,
        // Room for the largest accepted input with JSON escaping; longer lines cannot be answered.
        max_line_bytes: flags
            .max_input_bytes
            .saturating_mul(2)
            .saturating_add(1 << 20),
    };
    match McpServer::new(host, options).serve_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("skill-recommender mcp: {e}");
            ExitCode::from(1)
        }
    }
}

/// A usage error: the same `{"error": ...}` object as every other failure on stdout (exit 2), clap's
/// full text on stderr. `--help` and `--version` print as usual (exit 0).
fn usage(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit();
    }
    let rendered = e.render().to_string();
    let message = rendered
        .lines()
        .next()
        .unwrap_or("")
        .trim_start_matches("error: ")
        .to_owned();
    let value = json!({"error": {"code": "usage", "message": message, "exit_code": 2}});
    let compact = std::env::args().any(|a| a == "--compact");
    let text = if compact {
        serde_json::to_string(&value)
    } else {
        serde_json::to_string_pretty(&value)
    };
    println!("{}", text.expect("JSON values always serialize"));
    eprint!("{rendered}");
    ExitCode::from(2)
}

fn cache_mode(no_cache: bool, dir: Option<PathBuf>) -> CacheMode {
    match (no_cache, dir) {
        (true, _) => CacheMode::Disabled,
        (false, Some(d)) => CacheMode::Dir(d),
        (false, None) => CacheMode::from_env(),
    }
}

/// The context, the host and the input size cap for this process's command(s). `pool`: the warm
/// instance pool, for commands that make many calls at once (a catalog scan).
fn setup(cli: &mut Cli, pool: Option<InstancePool>) -> Result<(Ctx, Host, usize), Error> {
    // Without --lang the component takes the state's language, else this guess from the locale.
    let mut ctx = host_harness::user_context(cli.lang.map(Lang::from), |k| std::env::var_os(k));
    if let Some(now) = cli.now.take() {
        ctx.now = now;
    }
    if let Some(zone) = cli.timezone.take() {
        ctx.host_timezone = Some(zone);
    }
    let builder = Harness::builder().instance_pool(pool).on_prepare(|path| {
        // The one slow start: never silent.
        eprintln!(
            "skill-recommender: preparing the component for this machine (once; later runs load it from {})",
            path.display()
        );
    });
    let host = host(cli, builder)?;
    let limit = host.harness().limits().max_input_bytes;
    Ok((ctx, host, limit))
}

/// `scan-bundle` with several paths or `--from-dir`, and `audit`: JSON Lines, one per bundle as it
/// finishes, then the summary; the exit code is the worst outcome.
fn catalog(mut cli: Cli) -> Result<ExitCode, Error> {
    use std::io::Write;
    let jobs = match &cli.command {
        Cmd::ScanBundle { jobs, .. } | Cmd::Audit { jobs, .. } => *jobs,
        _ => None,
    }
    .map_or_else(host_harness::catalog::default_jobs, |j| j as usize);
    let pool = InstancePool {
        slots: u32::try_from(jobs).unwrap_or(u32::MAX),
        ..InstancePool::default()
    };
    let (ctx, host, _) = setup(&mut cli, Some(pool))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut progress = print::Progress::for_stderr();
    let mut open = true;
    let each = |done: host_harness::catalog::Scanned, so_far: &host_harness::catalog::Summary| {
        // Flushed line by line: a reader sees each bundle as soon as it is done. A closed pipe stops
        // the writing, not the scan (its exit code still counts).
        if open {
            open = writeln!(out, "{}", done.to_json_line())
                .and_then(|()| out.flush())
                .is_ok();
        }
        progress.update(so_far);
    };
    let summary = match cli.command {
        Cmd::ScanBundle {
            paths,
            from_dir,
            trust,
            source,
            force,
            ..
        } => host.scan_catalog(
            &ctx,
            &CatalogArgs {
                paths,
                from_dir,
                trust,
                source,
                force,
                jobs: Some(jobs),
            },
            each,
        )?,
        Cmd::Audit {
            agent,
            scope,
            skills_dir,
            no_discover,
            trust,
            ..
        } => host.audit(
            &ctx,
            &AuditArgs {
                agents: agent,
                scope,
                skills_dirs: skills_dir,
                no_discover,
                trust,
                jobs: Some(jobs),
            },
            each,
        )?,
        _ => unreachable!("is_catalog() chose this"),
    };
    progress.finish();
    if open {
        let _ = writeln!(out, "{}", summary.to_json()).and_then(|()| out.flush());
    }
    Ok(ExitCode::from(summary.exit_code()))
}

/// `filter`, printed as [`print::result`] prints any JSON result, from the component's memory.
fn filter(mut cli: Cli) -> Result<(Verdict, std::io::Result<()>), Error> {
    let (ctx, host, limit) = setup(&mut cli, None)?;
    // A bad state directory is reported before any input file is read.
    host.env().state_dir()?;
    let Cmd::Filter {
        candidates,
        source,
        mode,
        discovery,
        agent,
    } = cli.command
    else {
        unreachable!("main() chose this for filter")
    };
    // A regular file is read straight into the component's memory (no host copy); anything else
    // (standard input, a pipe, an empty or too large file) as text here, which reports its errors.
    let file = InputFile::open("candidates", &candidates, limit);
    let args = FilterArgs {
        mode,
        candidates: match file {
            Some(_) => JsonText(String::new()),
            None => read_input("candidates", &candidates, limit).map(JsonText)?,
        },
        source: source.into_args(),
        discovery: discovery.into_args(),
        agent: agent.into_args(),
    };
    let out = Box::new(std::io::stdout().lock());
    match file {
        Some(file) => host.filter_file_to(&ctx, args, file, out, cli.compact),
        None => host.filter_to(&ctx, args, out, cli.compact),
    }
}

fn run(mut cli: Cli) -> Result<Output, Error> {
    // One call per process: a warm instance pool would only add its set-up (≈ 3 ms) to start-up.
    let (ctx, host, limit) = setup(&mut cli, None)?;
    let input = |field: &str, path: &Path| read_input(field, path, limit).map(JsonText);
    let command = cli.command;
    if command.uses_state() {
        // A bad state directory is reported before any input file is read.
        host.env().state_dir()?;
    }
    match command {
        Cmd::Audit { .. } => unreachable!("audit runs in catalog()"),
        // Stateless: no state directory, no lock.
        Cmd::Normalize {
            from,
            base_url,
            input: path,
        } => host.normalize(
            &ctx,
            NormalizeArgs {
                from,
                base_url,
                response: input("input", &path)?,
            },
        ),
        Cmd::Scan {
            candidates,
            source,
            mode,
        } => host.scan(
            &ctx,
            ScanArgs {
                mode,
                candidates: input("candidates", &candidates)?,
                source: source.into_args(),
            },
        ),
        Cmd::ScanBundle {
            mut paths,
            trust,
            source,
            force,
            ..
        } => host.scan_bundle(
            &ctx,
            &ScanBundleArgs {
                path: paths.pop().expect("one path (is_catalog() took the rest)"),
                trust,
                source,
                force,
            },
        ),
        Cmd::Validate {
            path,
            strict,
            quality,
        } => host.validate(
            &ctx,
            &ValidateArgs {
                path,
                strict,
                quality,
            },
        ),
        Cmd::Render {
            mode, input: path, ..
        } => host.render(
            &ctx,
            RenderArgs {
                mode,
                input: input("input", &path)?,
            },
        ),
        // Stateful: one transaction on the state directory.
        Cmd::Filter {
            candidates,
            source,
            mode,
            discovery,
            agent,
        } => host.filter(
            &ctx,
            FilterArgs {
                mode,
                candidates: input("candidates", &candidates)?,
                source: source.into_args(),
                discovery: discovery.into_args(),
                agent: agent.into_args(),
            },
        ),
        Cmd::Rank {
            candidates,
            source,
            mode,
            request,
            discovery,
            agent,
        } => host.rank(
            &ctx,
            RankArgs {
                mode,
                candidates: input("candidates", &candidates)?,
                source: source.into_args(),
                task: request.task,
                signals: request.signals,
                discovery: discovery.into_args(),
                agent: agent.into_args(),
            },
        ),
        Cmd::Recommend {
            mode,
            candidates,
            sample,
            source,
            request,
            dry_run,
            remote_version,
            local_version,
            other_question,
            discovery,
            agent,
            ..
        } => {
            let candidates = match candidates {
                Some(path) => Some(input("candidates", &path)?),
                None => None,
            };
            host.recommend(
                &ctx,
                RecommendArgs {
                    mode,
                    candidates,
                    sample,
                    source: source.into_args(),
                    task: request.task,
                    signals: request.signals,
                    dry_run,
                    remote_version,
                    local_version,
                    other_question,
                    discovery: discovery.into_args(),
                    agent: agent.into_args(),
                },
            )
        }
        Cmd::Status { verbose: false } => host.status(&ctx),
        Cmd::Status { verbose: true } => host.status_verbose(&ctx),
        Cmd::PromptDaily { source } => host.daily(
            &ctx,
            &DailyArgs {
                source: Some(source),
                ..DailyArgs::new(DailyAction::Prompt)
            },
        ),
        Cmd::EnableDaily {
            scheduler_available,
        } => host.daily(
            &ctx,
            &DailyArgs {
                scheduler_available,
                ..DailyArgs::new(DailyAction::Enable)
            },
        ),
        Cmd::ConfirmDailyEnabled => host.daily(&ctx, &DailyArgs::new(DailyAction::Confirm)),
        Cmd::FailDailySchedule { reason } => host.daily(
            &ctx,
            &DailyArgs {
                reason: Some(reason),
                ..DailyArgs::new(DailyAction::Fail)
            },
        ),
        Cmd::DisableDaily => host.daily(&ctx, &DailyArgs::new(DailyAction::Disable)),
        Cmd::UnsupportedDaily => host.daily(&ctx, &DailyArgs::new(DailyAction::Unsupported)),
        Cmd::DailyGate {
            no_search_capability,
        } => host.daily(
            &ctx,
            &DailyArgs {
                search_capability: !no_search_capability,
                ..DailyArgs::new(DailyAction::Gate)
            },
        ),
        Cmd::FailureNotice { action } => host.daily(
            &ctx,
            &DailyArgs {
                notice: Some(if action.dismiss {
                    NoticeAnswer::Dismiss
                } else {
                    NoticeAnswer::Restore
                }),
                ..DailyArgs::new(DailyAction::FailureNotice)
            },
        ),
        Cmd::UpdateCheck {
            local_version,
            remote_version,
        } => host.update_check(
            &ctx,
            UpdateCheckArgs {
                remote_version,
                local_version,
            },
        ),
        Cmd::UpdateNotice { response } => host.update_notice(
            &ctx,
            if response.accept {
                UpdateAnswer::Accept
            } else {
                UpdateAnswer::Dismiss
            },
        ),
        Cmd::Shown { skill, mode } => host.feedback(
            &ctx,
            host_harness::commands::FeedbackArgs {
                mode,
                ..skill.into_args(FeedbackKind::Shown)
            },
        ),
        Cmd::Accept(s) => host.feedback(&ctx, s.into_args(FeedbackKind::Accept)),
        Cmd::Reject(s) => host.feedback(&ctx, s.into_args(FeedbackKind::Reject)),
        // Skills on disk (install records `accept` in the state directory).
        Cmd::Install {
            source,
            target,
            trust,
            coordinate,
            alias,
            skill_id,
            replace,
            yes,
            force,
            dry_run,
        } => host.install(
            &ctx,
            &InstallArgs {
                source,
                target,
                trust,
                coordinate,
                alias,
                skill_id,
                replace,
                yes,
                force,
                dry_run,
            },
        ),
        Cmd::Uninstall {
            name,
            target,
            dry_run,
        } => host.uninstall(
            &ctx,
            &UninstallArgs {
                name,
                target,
                dry_run,
            },
        ),
        Cmd::Installed { target } => host.installed(&ctx, &InstalledArgs { target }),
        Cmd::Skill(cmd) => host.manage_skill(&ctx, &manage_args(cmd, limit)?),
        Cmd::Coordinate { coordinate } => host.coordinate(&ctx, &coordinate),
        Cmd::AgentsMd {
            file,
            name,
            description,
            location,
            remove,
        } => {
            // A missing file is an AGENTS.md that does not exist yet: the text to create is printed.
            let missing = file.as_os_str() != "-"
                && std::fs::metadata(&file)
                    .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound);
            let text = if missing {
                None
            } else {
                Some(read_input("file", &file, limit)?)
            };
            host.agents_md(
                &ctx,
                &AgentsMdArgs {
                    text,
                    name,
                    description,
                    location,
                    remove,
                },
            )
        }
        Cmd::PatchText {
            file,
            old,
            new,
            replace_all,
        } => host.patch_text(
            &ctx,
            &PatchTextArgs {
                text: read_input("file", &file, limit)?,
                old,
                new,
                replace_all,
            },
        ),
        Cmd::Mcp(_) => unreachable!("main serves mcp before run"),
    }
}

/// `skill …` as the command layer's arguments (content files read here).
fn manage_args(cmd: SkillCmd, limit: usize) -> Result<ManageArgs, Error> {
    let base = |action, name, common: args::SkillCommon| ManageArgs {
        action,
        name,
        content: None,
        old: None,
        new: None,
        file: None,
        replace_all: false,
        path: None,
        target: common.target,
        dry_run: common.dry_run,
    };
    Ok(match cmd {
        SkillCmd::Create {
            name,
            content,
            common,
        } => ManageArgs {
            content: Some(read_input("content", &content, limit)?),
            ..base(ManageAction::Create, name, common)
        },
        SkillCmd::Edit {
            name,
            content,
            common,
        } => ManageArgs {
            content: Some(read_input("content", &content, limit)?),
            ..base(ManageAction::Edit, name, common)
        },
        SkillCmd::Patch {
            name,
            old,
            new,
            file,
            replace_all,
            common,
        } => ManageArgs {
            old: Some(old),
            new: Some(new),
            file,
            replace_all,
            ..base(ManageAction::Patch, name, common)
        },
        SkillCmd::Delete { name, common } => base(ManageAction::Delete, name, common),
        SkillCmd::WriteFile {
            name,
            rel_path,
            content,
            common,
        } => ManageArgs {
            path: Some(rel_path),
            content: Some(read_input("content", &content, limit)?),
            ..base(ManageAction::WriteFile, name, common)
        },
        SkillCmd::RemoveFile {
            name,
            rel_path,
            common,
        } => ManageArgs {
            path: Some(rel_path),
            ..base(ManageAction::RemoveFile, name, common)
        },
    })
}

impl Cmd {
    /// A command over many bundles (JSON Lines): `scan-bundle` with several paths or `--from-dir`,
    /// and `audit`.
    fn is_catalog(&self) -> bool {
        match self {
            Cmd::ScanBundle {
                paths, from_dir, ..
            } => paths.len() != 1 || from_dir.is_some(),
            Cmd::Audit { .. } => true,
            _ => false,
        }
    }

    /// Whether the command reads or writes the state directory.
    fn uses_state(&self) -> bool {
        !matches!(
            self,
            Cmd::Normalize { .. }
                | Cmd::Scan { .. }
                | Cmd::ScanBundle { .. }
                | Cmd::Audit { .. }
                | Cmd::Validate { .. }
                | Cmd::Render { .. }
                | Cmd::Uninstall { .. }
                | Cmd::Installed { .. }
                | Cmd::Skill(_)
                | Cmd::Coordinate { .. }
                | Cmd::AgentsMd { .. }
                | Cmd::PatchText { .. }
                | Cmd::Install { dry_run: true, .. }
                | Cmd::Mcp(_)
        )
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

/// Read an input file (or stdin for `-`) within the input size cap; errors name the flag and the file.
fn read_input(field: &str, path: &Path, limit: usize) -> Result<String, Error> {
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
        std::fs::File::open(path).and_then(|f| {
            // Sized once from the file's length (within the cap): `take` hides the size hint, and a
            // buffer grown by doubling copied a 44 MB input several times over.
            let len = f.metadata().map_or(0, |m| m.len()).min(cap);
            bytes.reserve_exact(len as usize);
            f.take(cap).read_to_end(&mut bytes)
        })
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
