//! Many stateless calls on one instance: what a catalog scan's worker uses.
//!
//! A fresh instance per call starts from the pre-initialized snapshot, whose regex engines have no
//! search caches yet: every bundle would allocate and zero them again (≈ 8 MB over the rule set)
//! and determinize the same lazy-DFA states again, which costs more than scanning a typical bundle.
//! A [`Worker`] keeps one instance for as long as its linear memory stays under
//! [`Recycle::max_memory_bytes`] (and for at most [`Recycle::max_calls`] calls), so those caches are
//! built once, as in a native process. Replacing the instance every 64 calls, as before, made the
//! catalog scan spend 3.3x the native CPU time instead of 1.5x: every batch determinized the same
//! lazy-DFA states again (BENCHMARKS.md, "Catalog scan: where the component's time goes"). The lazy
//! DFAs' caches have a fixed capacity (cleared, not grown, when full) and the allocator reuses what
//! a call frees, so an instance's memory levels off; the memory bound replaces one that grows anyway
//! (a large bundle, fragmentation) before the next call.
//!
//! What stays the same as with [`Harness::run_text`]:
//! - Only calls that neither read nor write state run here (the store is [`NullStateStore`]), and
//!   every result depends on its own input only: the guest keeps nothing between calls but its
//!   caches and its compiled tables (e2e `worker_results_equal_fresh_instances`).
//! - Each call gets its own fuel and deadline ([`Harness::arm`]); the memory cap holds for the
//!   instance.
//! - A call that fails on a reused instance is run again on a fresh one before its error is
//!   reported, so an instance grown by earlier calls (or left unusable by a trap) never changes an
//!   outcome; after any failure the instance is dropped.

use std::borrow::Cow;

use wasmtime::{ResourceLimiter, Store};

use super::{Harness, HostState, bindings, finish};
use crate::error::Result;
use crate::pool::Pass;
use crate::sandbox::Limiter;
use crate::store::NullStateStore;
use crate::{Command, StateStore};
use guest::Ctx;

/// One instance serving a run of stateless calls ([`Harness::worker`]).
pub struct Worker<'h> {
    harness: &'h Harness,
    live: Option<(Store<HostState>, bindings::Recommender)>,
    /// Calls made on the live instance.
    calls: u32,
    /// Instances started so far.
    started: u32,
    recycle: Recycle,
    /// The pool slot this worker's instances use, held for its lifetime.
    _pass: Option<Pass<'h>>,
}

impl Harness {
    /// A [`Worker`]: one instance kept across calls that touch no state (bundle scans, audits).
    /// Takes one slot of the instance pool for as long as it lives.
    pub fn worker(&self) -> Worker<'_> {
        self.worker_with(Recycle::default())
    }

    /// [`Harness::worker`] replacing its instance as `recycle` says.
    pub fn worker_with(&self, recycle: Recycle) -> Worker<'_> {
        Worker {
            harness: self,
            live: None,
            calls: 0,
            started: 0,
            recycle,
            _pass: self.gate.as_ref().map(|g| g.enter()),
        }
    }
}

/// When a [`Worker`] replaces its instance with a fresh one (before the next call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recycle {
    /// Once its linear memory has grown past this many bytes: bounds what the worker holds.
    pub max_memory_bytes: usize,
    /// Once it has served this many calls.
    pub max_calls: u32,
}

impl Default for Recycle {
    /// 160 MiB, 100,000 calls. An instance has grown to 54 MiB after its first bundle and levels
    /// off at 75 MiB over a 1,000-bundle catalog (BENCHMARKS.md, perf27); a bundle that needs more
    /// (up to the memory cap) is scanned as before and its instance replaced after it. The call
    /// count is a backstop only.
    fn default() -> Self {
        Recycle {
            max_memory_bytes: 160 << 20,
            max_calls: 100_000,
        }
    }
}

impl Worker<'_> {
    /// Instances this worker has started so far (for tests and diagnostics).
    pub fn instances_started(&self) -> u32 {
        self.started
    }

    /// How far the live instance's linear memory has grown (`None`: no live instance).
    pub fn memory_bytes(&self) -> Option<usize> {
        self.live.as_ref().map(|(s, _)| s.data().limiter.grown_to())
    }

    /// [`Harness::run_text_owned`] for a call that touches no state, on this worker's instance.
    pub fn run_text_owned(&mut self, ctx: &Ctx, command: Command) -> Result<String> {
        let call = self.harness.prepare(ctx, Cow::Owned(command))?;
        let spent = |(s, _): &(Store<HostState>, _)| {
            s.data().limiter.grown_to() > self.recycle.max_memory_bytes
        };
        if self.calls >= self.recycle.max_calls || self.live.as_ref().is_some_and(spent) {
            self.live = None;
        }
        let reused = self.live.is_some();
        match self.once(&call) {
            // Whatever went wrong, it must not be the reuse's doing: once more, fresh (`once`
            // dropped the instance that failed).
            Err(_) if reused => self.once(&call),
            outcome => outcome,
        }
    }

    /// One call on the live instance, or on a new one; the instance is kept only if the call
    /// succeeds.
    fn once(&mut self, call: &super::Prepared<'_>) -> Result<String> {
        let h = self.harness;
        let (mut s, instance) = match self.live.take() {
            Some(live) => live,
            None => {
                let mut s = h.new_store(NullStateStore.begin()?, call.commands.clone());
                // The deadline also covers instantiation, as for a single call.
                h.arm(&mut s, call.input_bytes)?;
                match h.instantiate(&mut s) {
                    Ok(instance) => {
                        self.calls = 0;
                        self.started += 1;
                        (s, instance)
                    }
                    Err(trap) => return finish(s.into_data(), &NullStateStore, Err(trap)),
                }
            }
        };
        h.arm(&mut s, call.input_bytes)?;
        s.data_mut().commands = call.commands.clone();
        self.calls += 1;
        match call.dispatch(&mut s, &instance) {
            Ok(Ok(json)) => {
                self.live = Some((s, instance));
                Ok(json)
            }
            other => finish(s.into_data(), &NullStateStore, other),
        }
    }
}

/// The instance's memory cap ([`Limiter`]), remembering how far its linear memory has grown (at
/// instantiation too: the initial size is a growth from zero), which a [`Worker`] reads to decide
/// whether to keep it.
pub(super) struct Metered {
    cap: Limiter,
    grown_to: usize,
}

impl Metered {
    pub(super) fn new(max_memory_bytes: usize) -> Metered {
        Metered {
            cap: Limiter::new(max_memory_bytes),
            grown_to: 0,
        }
    }

    /// Whether a growth was refused ([`Limiter::denied`]).
    pub(super) fn denied(&self) -> bool {
        self.cap.denied()
    }

    /// The largest size a linear memory of the instance was allowed to grow to.
    pub(super) fn grown_to(&self) -> usize {
        self.grown_to
    }
}

impl ResourceLimiter for Metered {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let ok = self.cap.memory_growing(current, desired, max)?;
        if ok {
            self.grown_to = self.grown_to.max(desired);
        }
        Ok(ok)
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.cap.table_growing(current, desired, max)
    }
}
