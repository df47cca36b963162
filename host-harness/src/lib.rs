//! # host-harness: run the skill-recommender component safely
//!
//! A library first ([`Harness`], [`StateStore`] with [`FileStateStore`] and [`MemoryStateStore`],
//! [`Limits`], [`Command`]), with a command layer ([`commands`]: each command's arguments, guest call and
//! result, defined once) that the `skill-recommender` CLI and its MCP server are thin faces of.
//!
//! ```no_run
//! use host_harness::{Command, FileStateStore, Harness};
//! use guest::{Ctx, Lang};
//!
//! let harness = Harness::builder().build()?;                  // compile once (or load the cache)
//! let store = FileStateStore::new("/home/me/.skill-recommender");
//! let ctx = Ctx { now: "2026-11-29T09:00:00Z".into(), host_timezone: Some("Asia/Shanghai".into()), lang: Lang::Zh, lang_explicit: false };
//! let out = harness.run(&store, &ctx, &Command::DailyGate { search_capability: true })?;
//! println!("{}", out["run"]);
//! # Ok::<(), host_harness::Error>(())
//! ```
//!
//! ## Threats and mitigations
//!
//! | threat | mitigation | proven by |
//! |---|---|---|
//! | the component reads files, env, network, clocks or randomness | only `wasi:io` and `wasi:cli` are linked, with an empty context (no env, args, stdin, preopens); anything else fails to instantiate | e2e `import_list_is_exactly_std_the_state_store_and_host_env`; the one question the component may ask about the machine (`host-env.find-commands`) is answered only for plain program names, at most 256 per call, and not at all for an agent on another platform |
//! | the component runs forever | epoch deadline (wall time) or fuel (deterministic), per call | e2e `runaway_guest_*` |
//! | the component allocates without bound | `ResourceLimiter` memory cap; the trap is reported as a limit | e2e `memory_hog_*` |
//! | a failing call half-writes state | saves are staged in the host and committed only when the export returns `ok` | e2e `rollback_*` |
//! | two processes lose each other's updates | exclusive `state.lock` across read-modify-write | store tests, e2e `concurrent_cli_processes_lose_no_event` |
//! | a crash mid-write corrupts a file | temp file, fsync, rename, fsync dir | store tests |
//! | a corrupt file is silently reset (the original's bug) | the guest refuses it with the field or parse error; the host names the file and writes nothing | guest state tests, e2e `corrupt_state_*` |
//! | an oversized file or staged document exhausts memory | size caps on read and on save | store tests, e2e |
//! | a tampered or stale precompiled cache runs | cache file name pins component hash, wasmtime version and engine config; payload SHA-256 verified before use; otherwise recompiled | cache tests, e2e `corrupt_cache_*` |
//! | one call sees what an earlier call left in memory | every call is a fresh instance; with the instance pool, the pages a call wrote are reset to the snapshot (or zero) before the slot is used again, found with Linux's `PAGEMAP_SCAN` | e2e `pooled_slots_start_clean`, `pooled_and_unpooled_calls_agree` |
//! | a catalog scan's reused instance carries one bundle into the next | only [`Worker`]s (a catalog scan's threads) reuse an instance, for stateless calls only, each with its own fuel and deadline, until its memory grows past a bound ([`Recycle`]); a call that fails there is run again on a fresh instance | e2e `worker_results_equal_fresh_instances`, `worker_errors_equal_fresh_instances_and_it_recovers`, `a_worker_keeps_its_memory_under_its_bound` |
//! | a component for another contract version is loaded | export names checked at load; the error names both versions | e2e `wrong_contract_version_*` |

pub mod bundle;
pub mod cache;
pub mod catalog;
pub mod command_lookup;
pub mod commands;
pub mod discover;
pub mod error;
pub mod harness;
pub mod json_text;
pub mod limits;
pub mod mcp;
pub mod ondisk;
pub mod pool;
pub mod precompiled;
pub mod preinit;
pub mod sandbox;
pub mod store;

pub use cache::{CacheMode, CacheOutcome};
pub use command_lookup::CommandLookup;
pub use error::{Error, LimitKind, Result};
pub use harness::{
    COMPONENT_WASM, CONTRACT_VERSION, Harness, HarnessBuilder, InputFile, PRECOMPILED, Recycle,
    Worker,
};
pub use limits::Limits;
pub use pool::{InstancePool, PoolStatus};
pub use precompiled::Embedded;
pub use store::{
    FileStateStore, MemoryStateStore, Migration, NullStateStore, StateDirSource, StateStore,
    StoreError, StoreSession, resolve_state_dir,
};

pub use guest::filter::{InstalledSkill, Mode};
pub use guest::fit::AgentEnv;
pub use guest::lifecycle::{FeedbackAction, NoticeAction, PromptSource, SkillRef, UpdateResponse};
pub use guest::normalize::Registry;
pub use guest::ondisk::agents_md::Entry as AgentsMdEntry;
pub use guest::ondisk::install::{Facts as DiskFacts, InstallRequest};
pub use guest::ondisk::judge::{Listed, Listing};
pub use guest::ondisk::layout::{Roots, Target};
pub use guest::ondisk::manage::{Action as SkillAction, EditFacts as SkillFacts};
pub use guest::rank::Request as RankRequest;
pub use guest::recommend::Options as RecommendOptions;
pub use guest::scan::{Bundle, Trust, trust_of_source};
pub use guest::{Ctx, Document, Lang};

/// One lifecycle command: one guest call, one transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Status,
    PromptDaily {
        source: PromptSource,
    },
    EnableDaily {
        scheduler_available: bool,
    },
    ConfirmDailyEnabled,
    FailDailySchedule {
        reason: String,
    },
    DisableDaily,
    UnsupportedDaily,
    DailyGate {
        search_capability: bool,
    },
    FailureNotice {
        action: NoticeAction,
    },
    UpdateCheck {
        local_version: Option<String>,
        remote_version: String,
    },
    UpdateNotice {
        response: UpdateResponse,
    },
    Feedback {
        action: FeedbackAction,
        skill: SkillRef,
    },
    /// Registry JSON → candidates (reads no state: run it against [`NullStateStore`]).
    Normalize {
        registry: Option<Registry>,
        json: String,
        base_url: Option<String>,
    },
    /// Filter a candidates list (`{"candidates": [...]}` or an array) against state, history and the
    /// installed skills.
    Filter {
        mode: Mode,
        candidates: String,
        installed: Vec<InstalledSkill>,
        /// The agent's situation (its platform drops `platform_unsupported`).
        agent: AgentEnv,
    },
    /// Assess candidates' risk (reads no state).
    ScanCandidates {
        mode: Mode,
        candidates: String,
    },
    /// Scan a bundle the host read with [`bundle::read_bundle`] (reads no state).
    ScanBundle {
        bundle: Bundle,
        trust: Trust,
        force: bool,
    },
    /// Validate a bundle's SKILL.md and layout (reads no state); with `quality`, also assess how much of
    /// it is more than a prompt.
    Validate {
        bundle: Bundle,
        strict: bool,
        quality: bool,
    },
    /// Rank candidates with a per-factor breakdown (reads state, never writes).
    Rank {
        mode: Mode,
        candidates: String,
        installed: Vec<InstalledSkill>,
        request: RankRequest,
    },
    /// The main job: filter → scan → rank → pick → render, and record `shown` unless a dry run.
    Recommend {
        mode: Mode,
        candidates: String,
        installed: Vec<InstalledSkill>,
        options: RecommendOptions,
    },
    /// Render a card from `recommend`'s JSON output (reads no state).
    Render {
        mode: Mode,
        input: String,
    },
    /// Skills on disk (WIT `skills`; reads no state): one of the plans [`crate::ondisk`] executes.
    Skills(Box<SkillsCall>),
}

/// A call of the WIT `skills` interface: the component's plans for skills on disk. Each reads no
/// state; run it against [`NullStateStore`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkillsCall {
    ParseCoordinate {
        coordinate: String,
    },
    ResolveLayout {
        target: Target,
        roots: Roots,
        all: bool,
    },
    PlanInstall {
        request: InstallRequest,
        bundle: Bundle,
        digests: Vec<(String, String)>,
        facts: DiskFacts,
    },
    PlanUninstall {
        name: String,
        target: Target,
        roots: Roots,
        facts: DiskFacts,
    },
    PlanSkillEdit {
        name: String,
        action: SkillAction,
        target: Target,
        roots: Roots,
        facts: SkillFacts,
    },
    AuditSkill {
        bundle: Bundle,
        digests: Vec<(String, String)>,
        provenance: Option<String>,
        /// Overrides the trust the provenance records.
        trust: Option<Trust>,
        path: String,
        agent: String,
    },
    ApplyPatch {
        text: String,
        old: String,
        new: String,
        replace_all: bool,
    },
    AgentsMdUpdate {
        text: Option<String>,
        upsert: Vec<AgentsMdEntry>,
        remove: Vec<String>,
    },
}

/// The context for a call made now, in `lang`: the system clock (UTC) and the system's IANA zone.
pub fn system_context(lang: Lang) -> Ctx {
    Ctx {
        now: jiff::Timestamp::now().to_string(),
        host_timezone: iana_time_zone::get_timezone().ok(),
        lang,
        lang_explicit: true,
    }
}

/// The context for a call made now: `lang` when the caller chose one (`--lang`), else the user's
/// language as the state says (the component decides) or, failing that, as `env` says
/// ([`locale_lang`]).
pub fn user_context(lang: Option<Lang>, env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Ctx {
    Ctx {
        lang: lang.unwrap_or_else(|| locale_lang(env)),
        lang_explicit: lang.is_some(),
        ..system_context(Lang::Zh)
    }
}

/// The language the user's locale asks for: the first non-empty of `LC_ALL`, `LC_MESSAGES` and `LANG`
/// (POSIX precedence); `zh*` is Chinese, any other locale English, none at all Chinese
/// ([`Lang::from_locale`]).
pub fn locale_lang(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Lang {
    let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
        .into_iter()
        .filter_map(env)
        .map(|v| v.to_string_lossy().into_owned())
        .find(|v| !v.trim().is_empty());
    Lang::from_locale(locale.as_deref())
}
