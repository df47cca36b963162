//! Pre-initialization (Wizer): run the component's `initialize` export once and snapshot the
//! instance into a new component whose linear memory already holds the built tables.
//!
//! Every call still gets a fresh instance — the snapshot is immutable data (copy-on-write mapped by
//! wasmtime), so nothing one call does is visible to the next; only the work that is the same for
//! every call (parsing the content rules, building their keyword automaton, compiling their regexes,
//! the lexicon and the stemmer) is done once, when the precompiled cache is written, instead of in
//! every call. `initialize` changes no result, only when the work happens; the end-to-end tests check
//! that plain and pre-initialized components return identical output.
//!
//! The snapshot is taken with `wasmtime-wizer` (the pre-initializer maintained in the wasmtime
//! repository). `initialize` runs under the caller's limits (fuel, memory cap) with no state store and
//! an empty WASI context; it may not call imports at all (Wizer traps if it does).

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use wasmtime::component::{Component, Instance, Linker, ResourceTable, WasmList};
use wasmtime::{Config, Engine, OptLevel, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};
use wasmtime_wizer::{ComponentInstanceState, Wizer};

/// The export a component offers for pre-initialization (WIT world `recommender`, `initialize`).
pub const INIT_EXPORT: &str = "initialize";

/// What the pre-initialization step did, for `status` and diagnostics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Preinit {
    /// The component was snapshotted after `initialize` (now, or when its cache file was written).
    Snapshot,
    /// Not attempted: pre-initialization is off (no cache, or switched off by the host).
    Off,
    /// The component has no `initialize` export (built for an earlier revision of the contract).
    Unsupported,
    /// `initialize` or the snapshot failed; the plain component is used, which builds its tables on
    /// first use in every call.
    Failed(String),
}

impl Preinit {
    /// `"snapshot" | "off" | "unsupported" | "failed: …"` for status output.
    pub fn describe(&self) -> String {
        match self {
            Preinit::Snapshot => "snapshot".into(),
            Preinit::Off => "off".into(),
            Preinit::Unsupported => "unsupported".into(),
            Preinit::Failed(reason) => format!("failed: {reason}"),
        }
    }
}

/// Memory and fuel for the one `initialize` call. Fuel is always metered here (there is no epoch
/// ticker during the build): a component whose `initialize` never returns fails the snapshot instead
/// of hanging the host.
#[derive(Debug, Clone, Copy)]
pub struct InitLimits {
    pub max_memory_bytes: usize,
    pub fuel: u64,
}

/// Fuel for `initialize`, a guard against a runaway guest rather than a budget: compiling the
/// scanner's 232 rule regexes and the ranking's tables takes the bundled component more than 5 G
/// (natively ~3 G instructions, 88% of it building the rules' NFAs), so this leaves ~4× headroom.
pub const INIT_FUEL: u64 = 20_000_000_000;

struct InitState {
    wasi: WasiCtx,
    table: ResourceTable,
    limiter: crate::sandbox::Limiter,
}

impl WasiView for InitState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// Does the component export [`INIT_EXPORT`]?
pub fn supported(engine: &Engine, component: &Component) -> bool {
    component
        .component_type()
        .exports(engine)
        .any(|(name, _)| name == INIT_EXPORT)
}

/// Why no snapshot was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnapshotError {
    /// The component has no [`INIT_EXPORT`] export.
    Unsupported,
    /// Instrumenting, instantiating, `initialize` or the snapshot failed (the message says which).
    Failed(String),
}

fn failed(what: &str) -> impl FnOnce(wasmtime::Error) -> SnapshotError + '_ {
    move |e| SnapshotError::Failed(format!("{what}: {e:#}"))
}

/// Snapshot `wasm` after its `initialize` export ran; returns the new component's bytes.
///
/// The instrumented component (the original plus Wizer's accessors for memory and globals) runs once,
/// so it is compiled without optimization: compiling fast matters more than running fast here.
pub fn snapshot(wasm: &[u8], limits: InitLimits) -> Result<Vec<u8>, SnapshotError> {
    let mut wizer = Wizer::new();
    wizer.init_func(INIT_EXPORT).keep_init_func(true);
    let (cx, instrumented) = wizer
        .instrument_component(wasm)
        .map_err(failed("instrumenting the component"))?;

    let mut config = Config::new();
    config
        .wasm_component_model(true)
        .cranelift_opt_level(OptLevel::None)
        .consume_fuel(true);
    let engine = Engine::new(&config).map_err(failed("configuring wasmtime"))?;
    let component = Component::new(&engine, &instrumented)
        .map_err(failed("compiling the instrumented component"))?;
    if !supported(&engine, &component) {
        return Err(SnapshotError::Unsupported);
    }

    // The WASI interfaces Rust's std imports get the same empty context as a call; anything else
    // (the state store) traps if used: `initialize` must not touch state.
    let mut linker: Linker<InitState> = Linker::new(&engine);
    crate::sandbox::link_wasi_std(&mut linker).map_err(failed("linking WASI"))?;
    linker
        .define_unknown_imports_as_traps(&component)
        .map_err(failed("linking"))?;
    let mut store = Store::new(
        &engine,
        InitState {
            wasi: WasiCtx::builder().build(),
            table: ResourceTable::new(),
            limiter: crate::sandbox::Limiter::new(limits.max_memory_bytes),
        },
    );
    store.limiter(|s| &mut s.limiter);
    store
        .set_fuel(limits.fuel)
        .map_err(failed("setting fuel"))?;
    let instance = linker
        .instantiate(&mut store, &component)
        .map_err(failed("instantiating the instrumented component"))?;
    let init = instance
        .get_typed_func::<(), ()>(&mut store, INIT_EXPORT)
        .map_err(failed(INIT_EXPORT))?;
    init.call(&mut store, ())
        .map_err(failed("`initialize` trapped"))?;

    // Wizer reads the whole linear memory back in one accessor call; the per-call cap on data a
    // guest hands the host (128 MiB by default) must not be what decides.
    store.set_hostcall_fuel(limits.max_memory_bytes.saturating_add(1 << 20));
    let mut state = Snapshotter {
        store: &mut store,
        instance,
        error: None,
    };
    let snapshot = block_on(wizer.snapshot_component(&cx, &mut state))
        .map_err(failed("snapshotting the instance"))?;
    match state.error {
        Some(e) => Err(SnapshotError::Failed(e)),
        None => Ok(snapshot),
    }
}

/// Wizer reads the instance's memories and globals through exports its instrumentation added.
struct Snapshotter<'a> {
    store: &'a mut Store<InitState>,
    instance: Instance,
    /// The first accessor that failed: the snapshot is then incomplete and must not be used.
    error: Option<String>,
}

impl Snapshotter<'_> {
    /// Call one of Wizer's accessors. A failure is remembered (and the snapshot discarded by
    /// [`snapshot`]); the accessor's value is then `None`.
    fn call<R, T>(
        &mut self,
        instance: &str,
        func: &str,
        then: impl FnOnce(&Store<InitState>, R) -> T,
    ) -> Option<T>
    where
        R: wasmtime::component::Lift + 'static,
    {
        if self.error.is_some() {
            return None;
        }
        let result = (|| {
            let missing = || wasmtime::format_err!("Wizer's accessor {instance}#{func} is missing");
            let (_, iface) = self
                .instance
                .get_export(&mut *self.store, None, instance)
                .ok_or_else(missing)?;
            let (_, export) = self
                .instance
                .get_export(&mut *self.store, Some(&iface), func)
                .ok_or_else(missing)?;
            let f = self
                .instance
                .get_typed_func::<(), (R,)>(&mut *self.store, export)?;
            let (r,) = f.call(&mut *self.store, ())?;
            Ok::<_, wasmtime::Error>(then(self.store, r))
        })();
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                self.error = Some(format!("reading the instance ({func}): {e:#}"));
                None
            }
        }
    }
}

impl ComponentInstanceState for Snapshotter<'_> {
    async fn call_func_ret_list_u8(
        &mut self,
        instance: &str,
        func: &str,
        contents: impl FnOnce(&[u8]) + Send,
    ) {
        self.call(instance, func, |store, list: WasmList<u8>| {
            contents(list.as_le_slice(store))
        });
    }

    async fn call_func_ret_s32(&mut self, instance: &str, func: &str) -> i32 {
        self.call(instance, func, |_, r| r).unwrap_or_default()
    }

    async fn call_func_ret_s64(&mut self, instance: &str, func: &str) -> i64 {
        self.call(instance, func, |_, r| r).unwrap_or_default()
    }

    async fn call_func_ret_f32(&mut self, instance: &str, func: &str) -> u32 {
        self.call(instance, func, |_, r: f32| r.to_bits())
            .unwrap_or_default()
    }

    async fn call_func_ret_f64(&mut self, instance: &str, func: &str) -> u64 {
        self.call(instance, func, |_, r: f64| r.to_bits())
            .unwrap_or_default()
    }
}

/// Drive a future that never waits on anything outside this thread (Wizer's snapshot over the
/// synchronous accessors above) to completion.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}
