//! The wasmtime embedding: compile (or load from cache) once, then one fresh `Store` per call.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::Value;
use wasmtime::component::{Component, HasSelf, Linker, ResourceTable};
use wasmtime::{Engine, Store, Trap};
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

use crate::cache::{self, CacheMode, CacheOutcome};
use crate::command_lookup::CommandLookup;
use crate::error::{Error, LimitKind, Result};
use crate::pool::{Gate, InstancePool, PoolStatus};
use crate::precompiled::Embedded;
use crate::preinit::{InitLimits, Preinit};
use crate::sandbox::link_wasi_std;
use crate::store::{StateStore, StoreError, StoreSession};
use crate::{Command, Limits};
use guest::{Ctx, Document, Lang};
use mirror::Mirror;

/// Generated bindings; nothing outside this module names generated types except the adapter below.
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "recommender",
    });
}

#[cfg(target_os = "linux")]
mod exe_copy;
mod handover;
mod input_file;
mod memfd;
pub mod mirror;
mod reuse;
mod skills;
mod streamed;
mod wit_args;

pub use input_file::InputFile;
pub use reuse::{Recycle, Worker};
pub use streamed::Sink;

use handover::{Handover, take_candidates};
use wit_args::{wit_agent, wit_installed, wit_mode, wit_rank_request, wit_recommend_request};

use bindings::exports::skill_recommender::core::filter as wit_filter;
use bindings::exports::skill_recommender::core::lifecycle as wit;
use bindings::exports::skill_recommender::core::rank as wit_rank;
use bindings::exports::skill_recommender::core::recommend as wit_recommend;
use bindings::exports::skill_recommender::core::scan as wit_scan;
use bindings::skill_recommender::core::types as wit_types;

/// The component built from `guest/` by `build.rs`, embedded in the binary.
pub const COMPONENT_WASM: &[u8] = include_bytes!(env!("SKILL_RECOMMENDER_GUEST_WASM"));

/// That component pre-initialized and compiled for this machine by `build.rs` ([`crate::precompiled`]);
/// empty in a cross-compiled build.
pub const PRECOMPILED: &[u8] = include_bytes!(env!("SKILL_RECOMMENDER_PRECOMPILED"));

/// The WIT package version this host was built for (`wit/recommender.wit`, `VERSION.json`).
pub const CONTRACT_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Per-call host state: the WASI context (empty), the store session and the staged writes.
struct HostState {
    wasi: WasiCtx,
    table: ResourceTable,
    session: Box<dyn StoreSession>,
    staged: Vec<(Document, String)>,
    /// The host's own error behind a `store` error the guest reports, so it keeps its path.
    store_error: Option<StoreError>,
    limiter: reuse::Metered,
    max_document_bytes: u64,
    stderr: MemoryOutputPipe,
    /// How `host-env.find-commands` is answered in this call (`None`: not at all).
    commands: Option<CommandLookup>,
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

fn doc_of(doc: wit_types::Document) -> Document {
    match doc {
        wit_types::Document::State => Document::State,
        wit_types::Document::History => Document::History,
    }
}

impl wit_types::Host for HostState {}

impl bindings::skill_recommender::core::host_env::Host for HostState {
    fn find_commands(&mut self, names: Vec<String>) -> Option<Vec<bool>> {
        self.commands.as_ref()?.answer(&names)
    }
}

impl bindings::skill_recommender::core::state_store::Host for HostState {
    fn load(&mut self, doc: wit_types::Document) -> std::result::Result<Option<String>, String> {
        let doc = doc_of(doc);
        if let Some((_, text)) = self.staged.iter().find(|(d, _)| *d == doc) {
            return Ok(Some(text.clone()));
        }
        self.session.read(doc).map_err(|e| {
            let message = e.to_string();
            self.store_error = Some(e);
            message
        })
    }

    fn save(&mut self, doc: wit_types::Document, json: String) -> std::result::Result<(), String> {
        let doc = doc_of(doc);
        let size = json.len() as u64;
        if size > self.max_document_bytes {
            let e = StoreError::StagedTooLarge {
                file: doc.file_name(),
                size,
                limit: self.max_document_bytes,
            };
            let message = e.to_string();
            self.store_error = Some(e);
            return Err(message);
        }
        self.staged.retain(|(d, _)| *d != doc);
        self.staged.push((doc, json));
        Ok(())
    }
}

/// Called once before the component is compiled for the cache (a miss), with the cache file's path: so
/// a front-end can say that this first run takes longer ([`HarnessBuilder::on_prepare`]).
#[derive(Clone)]
pub struct PrepareHook(pub Arc<dyn Fn(&std::path::Path) + Send + Sync>);

impl std::fmt::Debug for PrepareHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PrepareHook")
    }
}

/// Configure a [`Harness`].
#[derive(Debug, Clone)]
pub struct HarnessBuilder {
    component: Option<Vec<u8>>,
    cache: CacheMode,
    limits: Limits,
    preinit: Option<bool>,
    pool: Option<InstancePool>,
    precompiled: Option<Vec<u8>>,
    commands: CommandLookup,
    on_prepare: Option<PrepareHook>,
}

impl HarnessBuilder {
    /// How the guest's questions about declared commands are answered ([`CommandLookup`]; default:
    /// this process's PATH, for agents on this host's platform).
    pub fn command_lookup(mut self, lookup: CommandLookup) -> Self {
        self.commands = lookup;
        self
    }

    /// Call `f` (with the cache file's path) right before the component is compiled and cached, which
    /// happens once per machine and component build: the CLI says so on stderr, so a first run that
    /// takes longer is never silent. Not called on a cache hit or without a cache.
    pub fn on_prepare(mut self, f: impl Fn(&std::path::Path) + Send + Sync + 'static) -> Self {
        self.on_prepare = Some(PrepareHook(Arc::new(f)));
        self
    }

    /// Use another component (tests, or a component built elsewhere) instead of the embedded one.
    pub fn component_bytes(mut self, bytes: Vec<u8>) -> Self {
        self.component = Some(bytes);
        self
    }

    pub fn cache(mut self, cache: CacheMode) -> Self {
        self.cache = cache;
        self
    }

    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Pre-initialize the component before compiling it ([`crate::preinit`]). Each call still gets a
    /// fresh instance, started from the snapshot taken after `initialize`; without, every call builds
    /// the rule automata and lexicon itself. Results are identical either way.
    ///
    /// Default: on when the compiled component is cached (the snapshot is taken once, when the cache
    /// file is written), off without a cache (a process that compiles for itself would spend more on
    /// the snapshot than one call saves).
    pub fn preinitialize(mut self, on: bool) -> Self {
        self.preinit = Some(on);
        self
    }

    /// Reuse instance memory across calls ([`crate::pool`]); `None` maps fresh memory for every call.
    /// Each call still gets a fresh instance whose memory starts as the component's (or snapshot's)
    /// initial memory; results are identical either way. Default: [`InstancePool::default`], used
    /// where Linux's `PAGEMAP_SCAN` is available ([`Harness::instance_pool`] says whether it is).
    pub fn instance_pool(mut self, pool: Option<InstancePool>) -> Self {
        self.pool = pool;
        self
    }

    /// Use `artifact` instead of the precompiled component embedded in this binary (tests: a
    /// deliberately mismatched one must be refused and compiled around; empty: none embedded). It must
    /// come from wasmtime's `precompile_component`.
    pub fn precompiled(mut self, artifact: Vec<u8>) -> Self {
        self.precompiled = Some(artifact);
        self
    }

    /// Create the engine, load or compile the component, check its contract version and link it.
    pub fn build(self) -> Result<Harness> {
        let comp_err = |e: wasmtime::Error| Error::Component(format!("{e:#}"));
        let mut config = crate::precompiled::engine_config(&self.limits);
        let plain = config.clone();
        let mut pool = crate::pool::configure(&mut config, self.pool, self.limits.max_memory_bytes);
        let engine = match Engine::new(&config) {
            Ok(engine) => engine,
            // Reserving the pool's address space can fail where it is restricted (`ulimit -v`):
            // run without the pool rather than not at all, and say so in `status`.
            Err(e) if matches!(pool, PoolStatus::On(_)) => {
                pool = PoolStatus::Off(format!("the pooled engine failed: {e:#}"));
                Engine::new(&plain).map_err(comp_err)?
            }
            Err(e) => return Err(comp_err(e)),
        };
        let (loaded, embedded, mirror) = self.load_embedded(&engine);
        let (component, cache, preinit) = match loaded {
            Some(component) => (component, CacheOutcome::Embedded, Preinit::Snapshot),
            None => {
                let bytes = self.component.as_deref().unwrap_or(COMPONENT_WASM);
                let preinit = self
                    .preinit
                    .unwrap_or(matches!(self.cache, CacheMode::Dir(_)));
                let init_limits = preinit.then_some(InitLimits {
                    max_memory_bytes: self.limits.max_memory_bytes,
                    fuel: crate::preinit::INIT_FUEL,
                });
                let hook = self
                    .on_prepare
                    .as_ref()
                    .map(|h| &*h.0 as &dyn Fn(&std::path::Path));
                cache::load(&engine, bytes, &self.cache, init_limits, hook)
                    .map_err(|e| Error::Component(format!("{e:#}")))?
            }
        };
        let ty = component.component_type();
        let imports: Vec<String> = ty.imports(&engine).map(|(n, _)| n.to_owned()).collect();
        let exports: Vec<String> = ty.exports(&engine).map(|(n, _)| n.to_owned()).collect();
        check_contract(&exports)?;
        let mut linker = Linker::new(&engine);
        link_wasi_std(&mut linker).map_err(comp_err)?;
        bindings::Recommender::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)
            .map_err(comp_err)?;
        let pre = linker.instantiate_pre(&component).map_err(comp_err)?;
        let pre = bindings::RecommenderPre::new(pre).map_err(comp_err)?;
        if self.limits.deadline.is_some() {
            spawn_epoch_ticker(&engine);
        }
        let gate = match &pool {
            PoolStatus::On(p) => Some(Gate::new(p.slots)),
            PoolStatus::Off(_) => None,
        };
        Ok(Harness {
            engine,
            pre,
            commands: self.commands,
            limits: self.limits,
            cache,
            preinit,
            embedded,
            mirror,
            pool,
            gate,
            imports,
            exports,
        })
    }

    /// The embedded precompiled component ([`crate::precompiled`]), when it applies and wasmtime
    /// accepts it on this machine; otherwise `None` and why. The built-in artifact is mapped from a file when it can be ([`mirror`]): its copy in the cache
    /// directory, else an anonymous in-memory file; a substituted one (tests) loads from memory.
    fn load_embedded(&self, engine: &Engine) -> EmbeddedLoad {
        let unused = |why: &str| {
            (
                None,
                Embedded::Unused(why.to_owned()),
                Mirror::Off("the embedded artifact is not used".into()),
            )
        };
        if self.component.is_some() {
            return unused("another component was given");
        }
        if self.preinit == Some(false) {
            return unused("pre-initialization is switched off");
        }
        if !crate::precompiled::fits(&self.limits) {
            return unused("these limits need other code (fuel metering, or no deadline)");
        }
        let artifact = self.precompiled.as_deref().unwrap_or(PRECOMPILED);
        if artifact.is_empty() {
            return unused("this build embeds none (cross-compiled)");
        }
        let mirror = if self.precompiled.is_some() {
            Mirror::Off("a substituted artifact".into())
        } else {
            let dir = match &self.cache {
                CacheMode::Dir(dir) => Some(dir.as_path()),
                CacheMode::Disabled => None,
            };
            match mirror::load(engine, dir, artifact) {
                (Some(component), how) => return (Some(component), Embedded::Used, how),
                (None, why) => why,
            }
        };
        // SAFETY: the artifact was made by this crate's build script from the embedded component,
        // with the same wasmtime and engine settings; `deserialize` checks the wasmtime version, the
        // target, every engine setting and the CPU features it needs against this engine and machine,
        // and refuses a mismatch (tested with a deliberately mismatched artifact). A test that
        // substitutes an artifact passes one from wasmtime too.
        match unsafe { Component::deserialize(engine, artifact) } {
            Ok(component) => (Some(component), Embedded::Used, mirror),
            Err(e) => (None, Embedded::Rejected(format!("{e:#}")), mirror),
        }
    }
}

/// What loading the embedded artifact gave: the component (if used), how, and whether it was mapped
/// from a file ([`mirror`]).
type EmbeddedLoad = (Option<Component>, Embedded, Mirror);

/// Refuse a component built for another contract version, naming both.
fn check_contract(exports: &[String]) -> Result<()> {
    const PREFIX: &str = "skill-recommender:core/lifecycle@";
    let expected = format!("{PREFIX}{CONTRACT_VERSION}");
    if exports.contains(&expected) {
        return Ok(());
    }
    match exports.iter().find_map(|e| e.strip_prefix(PREFIX)) {
        Some(found) => Err(Error::Component(format!(
            "the component implements contract skill-recommender:core@{found}, but this host expects @{CONTRACT_VERSION}; use a matching host and component"
        ))),
        None => Err(Error::Component(format!(
            "not a skill-recommender component: it exports no {PREFIX}* (exports: {})",
            exports.join(", ")
        ))),
    }
}

/// Advance the engine's epoch every [`crate::limits::EPOCH_TICK`] while the engine lives.
fn spawn_epoch_ticker(engine: &Engine) {
    let weak = engine.weak();
    std::thread::Builder::new()
        .name("skill-recommender-epoch".into())
        .spawn(move || {
            while let Some(engine) = weak.upgrade() {
                engine.increment_epoch();
                drop(engine);
                std::thread::sleep(crate::limits::EPOCH_TICK);
            }
        })
        .expect("spawning the epoch ticker thread");
}

/// A compiled, linked component, ready for calls. Cheap to call repeatedly; `Send + Sync`.
pub struct Harness {
    engine: Engine,
    pre: bindings::RecommenderPre<HostState>,
    limits: Limits,
    cache: CacheOutcome,
    preinit: Preinit,
    embedded: Embedded,
    /// Whether the embedded artifact was mapped from its file copy ([`mirror`]).
    mirror: Mirror,
    pool: PoolStatus,
    gate: Option<Gate>,
    imports: Vec<String>,
    exports: Vec<String>,
    commands: CommandLookup,
}

type GuestReturn<R = String> = wasmtime::Result<std::result::Result<R, wit_types::Error>>;

impl Harness {
    /// Defaults: the embedded component, the cache from [`CacheMode::from_env`], [`Limits::default`].
    pub fn builder() -> HarnessBuilder {
        HarnessBuilder {
            component: None,
            cache: CacheMode::from_env(),
            limits: Limits::default(),
            preinit: None,
            pool: Some(InstancePool::default()),
            precompiled: None,
            commands: CommandLookup::default(),
            on_prepare: None,
        }
    }

    /// The component's imports, as the component model names them.
    pub fn imports(&self) -> &[String] {
        &self.imports
    }

    pub fn exports(&self) -> &[String] {
        &self.exports
    }

    /// How the component was loaded.
    pub fn cache_outcome(&self) -> &CacheOutcome {
        &self.cache
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Whether calls start from a pre-initialized snapshot, and if not, why.
    pub fn preinit(&self) -> &Preinit {
        &self.preinit
    }

    /// Whether the precompiled component embedded in this binary was used, and if not, why.
    pub fn embedded(&self) -> &Embedded {
        &self.embedded
    }

    /// How the component was loaded, for `status` (`paths.cache`): the cache outcome
    /// (`{"outcome", "path", …}`), `preinit`, `instance_pool` and `embedded`.
    pub fn cache_status(&self) -> Value {
        let mut cache = self.cache.to_json();
        cache["preinit"] = Value::from(self.preinit.describe());
        cache["instance_pool"] = Value::from(self.pool.describe());
        cache["embedded"] = Value::from(self.embedded.describe());
        cache["mapped"] = self.mirror.to_json();
        cache
    }

    /// Whether the embedded artifact was mapped from its file copy in the cache directory.
    pub fn mirror(&self) -> &Mirror {
        &self.mirror
    }

    /// Whether calls reuse pooled instance memory, and with which settings ([`crate::pool`]).
    pub fn instance_pool(&self) -> &PoolStatus {
        &self.pool
    }

    /// Run one command as one transaction against `store`; returns the guest's JSON object.
    pub fn run(&self, store: &dyn StateStore, ctx: &Ctx, command: &Command) -> Result<Value> {
        let text = self.run_text(store, ctx, command)?;
        serde_json::from_str(&text)
            .map_err(|e| Error::Component(format!("the component returned invalid JSON: {e}")))
    }

    /// [`Harness::run`] without parsing the result: the component's JSON text as it returned it
    /// (for hosts that pass it on, and to keep large results from being parsed twice).
    pub fn run_text(&self, store: &dyn StateStore, ctx: &Ctx, command: &Command) -> Result<String> {
        self.run_cow(store, ctx, Cow::Borrowed(command))
    }

    /// [`Harness::run`] taking the command by value: a bundle's file contents move into the call
    /// instead of being copied first (the CLI's `scan-bundle` and `validate`), and the candidates
    /// text of `filter`, `scan`, `rank` and `recommend` is freed as soon as it is in the component's
    /// memory (`handover`), not when the call returns.
    pub fn run_owned(&self, store: &dyn StateStore, ctx: &Ctx, command: Command) -> Result<Value> {
        let text = self.run_text_owned(store, ctx, command)?;
        serde_json::from_str(&text)
            .map_err(|e| Error::Component(format!("the component returned invalid JSON: {e}")))
    }

    /// [`Harness::run_text`] taking the command by value (see [`Harness::run_owned`]).
    pub fn run_text_owned(
        &self,
        store: &dyn StateStore,
        ctx: &Ctx,
        command: Command,
    ) -> Result<String> {
        self.run_cow(store, ctx, Cow::Owned(command))
    }

    fn run_cow(
        &self,
        store: &dyn StateStore,
        ctx: &Ctx,
        command: Cow<'_, Command>,
    ) -> Result<String> {
        let call = self.prepare(ctx, command)?;
        let session = store.begin()?;
        // Taken once the state session is open (a call waiting for the state lock holds no slot)
        // and held until the instance and its memory are gone: the pool has a slot for every pass.
        let _pass = self.gate.as_ref().map(Gate::enter);
        let mut s = self.new_store(session, call.commands.clone());
        self.arm(&mut s, call.input_bytes)?;
        let result = match &call.input {
            // A large input the host can let go of: called through the component's instance
            // directly, so the host's copy is freed once it is in the component (`handover`).
            Some(input) => self
                .retry_instantiate(&mut s, |pre, s| pre.instance_pre().instantiate(s))
                .and_then(|instance| call.hand_over(&mut s, &instance, input)),
            None => match self.instantiate(&mut s) {
                Ok(instance) => call.dispatch(&mut s, &instance),
                Err(e) => Err(e),
            },
        };
        finish(s.into_data(), store, result)
    }

    /// A new instance of the component in `s`. wasmtime builds a module's copy-on-write memory
    /// image (a sealed memfd) on its first instantiation, and Linux may refuse the seal (`EBUSY`)
    /// while the new memfd's pages are transiently pinned: seen once in CI, under memory pressure,
    /// as "cannot add seals to the memfd". wasmtime does not keep that failure, so the image is
    /// built again: up to three tries a few milliseconds apart, for that error only.
    fn instantiate(&self, s: &mut Store<HostState>) -> wasmtime::Result<bindings::Recommender> {
        self.retry_instantiate(s, |pre, s| pre.instantiate(s))
    }

    /// [`Harness::instantiate`]'s retries around `instantiate` (the bindings' instance, or the
    /// component's own).
    fn retry_instantiate<I>(
        &self,
        s: &mut Store<HostState>,
        instantiate: impl Fn(
            &bindings::RecommenderPre<HostState>,
            &mut Store<HostState>,
        ) -> wasmtime::Result<I>,
    ) -> wasmtime::Result<I> {
        let mut tries = 1;
        loop {
            match instantiate(&self.pre, &mut *s) {
                Err(e) if tries < 3 && memfd::is_seal_error(&e) => {
                    std::thread::sleep(std::time::Duration::from_millis(5 * tries));
                    tries += 1;
                }
                outcome => return outcome,
            }
        }
    }

    /// Check a command against the input limit and convert it for the component.
    fn prepare<'c>(&self, ctx: &Ctx, command: Cow<'c, Command>) -> Result<Prepared<'c>> {
        let c = wit_types::Context {
            now: ctx.now.clone(),
            host_timezone: ctx.host_timezone.clone(),
            lang: match ctx.lang {
                Lang::Zh => wit_types::Lang::Zh,
                Lang::En => wit_types::Lang::En,
            },
            lang_explicit: ctx.lang_explicit,
        };
        let input = match &*command {
            Command::Normalize { json, .. } => Some(("input", json.len())),
            Command::Filter { candidates, .. }
            | Command::ScanCandidates { candidates, .. }
            | Command::Rank { candidates, .. }
            | Command::Recommend { candidates, .. } => Some(("candidates", candidates.len())),
            Command::Render { input, .. } => Some(("input", input.len())),
            Command::ScanBundle { bundle, .. } | Command::Validate { bundle, .. } => {
                Some(("bundle", bundle.text_bytes()))
            }
            Command::Skills(call) => Some(("bundle", skills::input_bytes(call))),
            _ => None,
        };
        if let Some((field, size)) = input.filter(|(_, size)| *size > self.limits.max_input_bytes) {
            return Err(Error::InvalidInput {
                field: field.into(),
                message: format!(
                    "{size} bytes, over the {}-byte input limit",
                    self.limits.max_input_bytes
                ),
            });
        }
        let input_bytes = input.map_or(0, |(_, size)| size);
        let agent = match &*command {
            Command::Rank { request, .. } => Some(&request.agent),
            Command::Recommend { options, .. } => Some(&options.agent),
            _ => None,
        };
        let commands = agent.and_then(|a| self.commands.for_agent(a.platform.as_deref()));
        let (command, bundle) = take_bundle(command);
        let (command, input) = take_candidates(command);
        Ok(Prepared {
            context: c,
            input_bytes,
            commands,
            command,
            bundle,
            input,
        })
    }

    /// A store for one instance: an empty WASI context, the state session, the memory cap.
    fn new_store(
        &self,
        session: Box<dyn StoreSession>,
        commands: Option<CommandLookup>,
    ) -> Store<HostState> {
        let stderr = MemoryOutputPipe::new(self.limits.max_guest_stderr_bytes);
        let wasi = WasiCtx::builder().stderr(stderr.clone()).build();
        let state = HostState {
            wasi,
            table: ResourceTable::new(),
            session,
            staged: Vec::new(),
            store_error: None,
            limiter: reuse::Metered::new(self.limits.max_memory_bytes),
            max_document_bytes: self.limits.max_document_bytes,
            stderr,
            commands,
        };
        let mut s = Store::new(&self.engine, state);
        s.limiter(|st| &mut st.limiter);
        s
    }

    /// Give the next call on `s` its fuel and its deadline (both per call, also on a reused
    /// instance).
    fn arm(&self, s: &mut Store<HostState>, input_bytes: usize) -> Result<()> {
        if let Some(fuel) = self.limits.fuel {
            s.set_fuel(fuel)
                .map_err(|e| Error::Component(format!("{e:#}")))?;
        }
        if let Some(ticks) = self.limits.deadline_ticks(input_bytes) {
            s.set_epoch_deadline(ticks);
            s.epoch_deadline_trap();
        }
        Ok(())
    }
}

/// A command ready for the component.
struct Prepared<'c> {
    context: wit_types::Context,
    input_bytes: usize,
    commands: Option<CommandLookup>,
    command: Cow<'c, Command>,
    bundle: Option<wit_scan::Bundle>,
    /// The candidates text of an owned `filter`, `scan`, `rank` or `recommend` (the command keeps
    /// an empty string), freed once it is in the component.
    input: Option<Handover>,
}

impl Prepared<'_> {
    fn dispatch(&self, s: &mut Store<HostState>, instance: &bindings::Recommender) -> GuestReturn {
        dispatch(
            s,
            instance,
            &self.context,
            &self.command,
            self.bundle.as_ref(),
        )
    }
}

/// Turn a call's outcome into the result: commit its staged writes, or name the error.
fn finish<R>(mut data: HostState, store: &dyn StateStore, result: GuestReturn<R>) -> Result<R> {
    match result {
        Ok(Ok(json)) => {
            data.session.commit(std::mem::take(&mut data.staged))?;
            Ok(json)
        }
        Ok(Err(e)) => Err(guest_error(e, store, &mut data)),
        Err(trap) => Err(classify(&trap, &data)),
    }
    // Dropping `data` here releases the session (and its lock) without writing anything.
}

fn dispatch(
    s: &mut Store<HostState>,
    instance: &bindings::Recommender,
    c: &wit_types::Context,
    command: &Command,
    bundle: Option<&wit_scan::Bundle>,
) -> GuestReturn {
    use guest::lifecycle::{
        FeedbackAction as F, NoticeAction as N, PromptSource as P, UpdateResponse as U,
    };
    let g = instance.skill_recommender_core_lifecycle();
    let f = instance.skill_recommender_core_filter();
    let sc = instance.skill_recommender_core_scan();
    match command {
        Command::ScanCandidates { mode, candidates } => {
            sc.call_scan_candidates(s, wit_mode(mode), candidates)
        }
        Command::ScanBundle { trust, force, .. } => {
            let trust = match trust {
                guest::scan::Trust::Builtin => wit_scan::Trust::Builtin,
                guest::scan::Trust::Trusted => wit_scan::Trust::Trusted,
                guest::scan::Trust::Community => wit_scan::Trust::Community,
                guest::scan::Trust::AgentCreated => wit_scan::Trust::AgentCreated,
            };
            sc.call_scan_bundle(s, bundle.expect(PREPARED), trust, *force)
        }
        Command::Validate {
            strict, quality, ..
        } => sc.call_validate(s, bundle.expect(PREPARED), *strict, *quality),
        Command::Normalize {
            registry,
            json,
            base_url,
        } => {
            use guest::normalize::Registry as R;
            let registry = match registry {
                None => wit_filter::Registry::Auto,
                Some(R::Clawhub) => wit_filter::Registry::Clawhub,
                Some(R::Skillssh) => wit_filter::Registry::Skillssh,
                Some(R::Smithery) => wit_filter::Registry::Smithery,
                Some(R::Glama) => wit_filter::Registry::Glama,
                Some(R::Skillhub) => wit_filter::Registry::Skillhub,
                Some(R::Github) => wit_filter::Registry::Github,
                Some(R::Mcpmarket) => wit_filter::Registry::Mcpmarket,
                Some(R::Candidates) => wit_filter::Registry::Candidates,
            };
            f.call_normalize(s, registry, json, base_url.as_deref())
        }
        Command::Filter {
            mode,
            candidates,
            installed,
            agent,
        } => f.call_filter(
            s,
            c,
            wit_mode(mode),
            candidates,
            &wit_installed(installed),
            &wit_agent(agent),
        ),
        Command::Rank {
            mode,
            candidates,
            installed,
            request,
        } => {
            let request = wit_rank_request(request);
            instance.skill_recommender_core_rank().call_rank(
                s,
                c,
                wit_mode(mode),
                candidates,
                &wit_installed(installed),
                &request,
            )
        }
        Command::Recommend {
            mode,
            candidates,
            installed,
            options,
        } => {
            let request = wit_recommend_request(options);
            instance.skill_recommender_core_recommend().call_recommend(
                s,
                c,
                wit_mode(mode),
                candidates,
                &wit_installed(installed),
                &request,
            )
        }
        Command::Render { mode, input } => {
            instance
                .skill_recommender_core_render()
                .call_render(s, c, wit_mode(mode), input)
        }
        Command::Skills(call) => skills::dispatch(s, instance, c, call),
        Command::Status => g.call_status(s, c),
        Command::PromptDaily { source } => g.call_prompt_daily(
            s,
            c,
            match source {
                P::PostInstall => wit::PromptSource::PostInstall,
                P::Manual => wit::PromptSource::Manual,
            },
        ),
        Command::EnableDaily {
            scheduler_available,
        } => g.call_enable_daily(s, c, *scheduler_available),
        Command::ConfirmDailyEnabled => g.call_confirm_daily_enabled(s, c),
        Command::FailDailySchedule { reason } => g.call_fail_daily_schedule(s, c, reason),
        Command::DisableDaily => g.call_disable_daily(s, c),
        Command::UnsupportedDaily => g.call_unsupported_daily(s, c),
        Command::DailyGate { search_capability } => g.call_daily_gate(s, c, *search_capability),
        Command::FailureNotice { action } => g.call_failure_notice(
            s,
            c,
            match action {
                N::Dismiss => wit::NoticeAction::Dismiss,
                N::Restore => wit::NoticeAction::Restore,
            },
        ),
        Command::UpdateCheck {
            local_version,
            remote_version,
        } => g.call_update_check(s, c, local_version.as_deref(), remote_version),
        Command::UpdateNotice { response } => g.call_update_notice(
            s,
            c,
            match response {
                U::Accept => wit::UpdateResponse::Accept,
                U::Dismiss => wit::UpdateResponse::Dismiss,
            },
        ),
        Command::Feedback { action, skill } => {
            let action = match action {
                F::Shown => wit::FeedbackAction::Shown,
                F::Accept => wit::FeedbackAction::Accept,
                F::Reject => wit::FeedbackAction::Reject,
            };
            let skill = wit::SkillRef {
                skill_id: skill.skill_id.clone(),
                name: skill.name.clone(),
                url: skill.url.clone(),
                categories: skill.categories.clone(),
                mode: skill.mode.map(|m| wit_mode(&m)),
            };
            g.call_feedback(s, c, action, &skill)
        }
    }
}

const PREPARED: &str = "run_cow prepares the bundle of bundle commands";

/// The WIT bundle of a `scan-bundle` or `validate` command, moved out of an owned command (the
/// command keeps an empty bundle) or copied from a borrowed one.
fn take_bundle(command: Cow<'_, Command>) -> (Cow<'_, Command>, Option<wit_scan::Bundle>) {
    match command {
        Cow::Owned(Command::ScanBundle {
            bundle,
            trust,
            force,
        }) => (
            Cow::Owned(Command::ScanBundle {
                bundle: Default::default(),
                trust,
                force,
            }),
            Some(wit_bundle(bundle)),
        ),
        Cow::Owned(Command::Validate {
            bundle,
            strict,
            quality,
        }) => (
            Cow::Owned(Command::Validate {
                bundle: Default::default(),
                strict,
                quality,
            }),
            Some(wit_bundle(bundle)),
        ),
        Cow::Borrowed(
            c @ (Command::ScanBundle { bundle, .. } | Command::Validate { bundle, .. }),
        ) => (Cow::Borrowed(c), Some(wit_bundle(bundle.clone()))),
        other => (other, None),
    }
}

fn wit_bundle(b: guest::scan::Bundle) -> wit_scan::Bundle {
    use guest::scan::EntryKind as K;
    wit_scan::Bundle {
        name: b.name,
        files: b
            .files
            .into_iter()
            .map(|f| wit_scan::BundleFile {
                path: f.path,
                size: f.size,
                kind: match f.kind {
                    K::Text => wit_scan::EntryKind::Text,
                    K::Binary => wit_scan::EntryKind::Binary,
                    K::Symlink => wit_scan::EntryKind::Symlink,
                    K::Unreadable => wit_scan::EntryKind::Unreadable,
                },
                content: f.content,
                executable: f.executable,
                magic: f.magic,
                link_target: f.link_target,
                link_escapes: f.link_escapes,
            })
            .collect(),
        notes: b
            .notes
            .into_iter()
            .map(|n| wit_scan::BundleNote {
                path: n.path,
                code: n.code,
                message: n.message,
            })
            .collect(),
    }
}

fn guest_error(e: wit_types::Error, store: &dyn StateStore, data: &mut HostState) -> Error {
    match e {
        wit_types::Error::InvalidInput(f) => Error::InvalidInput {
            field: f.field,
            message: f.message,
        },
        wit_types::Error::CorruptDocument(d) => {
            let doc = doc_of(d.document);
            Error::CorruptDocument {
                file: doc.file_name(),
                path: store.location(doc),
                message: d.message,
            }
        }
        wit_types::Error::Refused(r) => Error::Refused {
            command: r.command,
            current: r.current,
            allowed_from: r.allowed_from,
            hint: r.hint,
        },
        wit_types::Error::Store(message) => match data.store_error.take() {
            Some(e) => Error::Store(e),
            None => Error::Component(format!(
                "the component reported a store error the host did not raise: {message}"
            )),
        },
    }
}

fn classify(err: &wasmtime::Error, data: &HostState) -> Error {
    match err.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) => return Error::Limit(LimitKind::Fuel),
        Some(Trap::Interrupt) => return Error::Limit(LimitKind::Deadline),
        _ => {}
    }
    if data.limiter.denied() {
        return Error::Limit(LimitKind::Memory);
    }
    Error::Trap {
        message: format!("{err:#}"),
        guest_stderr: String::from_utf8_lossy(&data.stderr.contents()).into_owned(),
    }
}

// A harness is shared across threads by embedders (e.g. a server handling several agents).
const _: fn() = || {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Harness>();
    assert_send_sync::<Arc<Harness>>();
};
