//! Many stateless calls on one instance: what a catalog scan's worker uses.
//!
//! A fresh instance per call starts from the pre-initialized snapshot, whose regex engines have no
//! search caches yet: every bundle would allocate and zero them again (≈ 8 MB over the rule set)
//! and determinize the same lazy-DFA states again, which costs more than scanning a typical bundle.
//! A [`Worker`] keeps one instance for up to [`Worker::MAX_CALLS`] calls, so those caches are
//! built once per batch, as in a native process.
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

use wasmtime::Store;

use super::{Harness, HostState, bindings, finish};
use crate::error::Result;
use crate::pool::Pass;
use crate::store::NullStateStore;
use crate::{Command, StateStore};
use guest::Ctx;

/// One instance serving a run of stateless calls ([`Harness::worker`]).
pub struct Worker<'h> {
    harness: &'h Harness,
    live: Option<(Store<HostState>, bindings::Recommender)>,
    /// Calls made on the live instance.
    calls: u32,
    /// The pool slot this worker's instances use, held for its lifetime.
    _pass: Option<Pass<'h>>,
}

impl Harness {
    /// A [`Worker`]: one instance kept across calls that touch no state (bundle scans, audits).
    /// Takes one slot of the instance pool for as long as it lives.
    pub fn worker(&self) -> Worker<'_> {
        Worker {
            harness: self,
            live: None,
            calls: 0,
            _pass: self.gate.as_ref().map(|g| g.enter()),
        }
    }
}

impl Worker<'_> {
    /// Calls one instance serves before it is replaced: bounds what its caches can grow to.
    pub const MAX_CALLS: u32 = 64;

    /// [`Harness::run_text_owned`] for a call that touches no state, on this worker's instance.
    pub fn run_text_owned(&mut self, ctx: &Ctx, command: Command) -> Result<String> {
        let call = self.harness.prepare(ctx, Cow::Owned(command))?;
        if self.calls >= Self::MAX_CALLS {
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
