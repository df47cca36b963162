//! Warm instance pool: every call still gets a fresh instance, but its linear memory comes from a
//! slot that an earlier call used, reset in place instead of unmapped and faulted in again.
//!
//! Without the pool, each call maps new memory; every page the call touches is a page fault plus a
//! zeroed page from the kernel (measured: ≈ 960 faults and 0.8 ms of system time per `recommend` at 1,000
//! candidates). With it, wasmtime's pooling allocator keeps up to
//! [`InstancePool::keep_resident_bytes`] of each slot's memory resident and, when the instance is
//! dropped, puts exactly the pages the call wrote back to their original contents (the
//! pre-initialized snapshot, or zeros above it) with `memcpy`/`memset`. Linux's `PAGEMAP_SCAN`
//! (kernel 6.7 and later) is what tells wasmtime which pages were written; without it the reset would
//! have to rewrite the whole resident region every call, which costs more than the faults it saves, so
//! the pool is used only where that ioctl is available ([`PoolStatus::Off`] names why not).
//!
//! Isolation is unchanged: a new instance never sees a previous call's memory (e2e
//! `pooled_slots_start_clean` writes, grows and reads through our exact configuration), and the
//! memory cap is still the per-call [`crate::Limits::max_memory_bytes`]. Calls beyond
//! [`InstancePool::slots`] at the same time wait for a free slot instead of failing.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

use wasmtime::{Config, Enabled, InstanceAllocationStrategy, PoolingAllocationConfig};

/// Size of the pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstancePool {
    /// Instances that can exist at once (one per concurrent call). Each reserves address space for a
    /// full linear memory (wasmtime's reservation plus guard pages, ≈ 4 GiB virtual, nothing
    /// resident until used).
    pub slots: u32,
    /// Memory kept resident per slot between calls and reset in place; what a call grows beyond it
    /// is returned to the kernel as without the pool.
    pub keep_resident_bytes: usize,
}

impl Default for InstancePool {
    /// Four slots, 64 MiB each: `recommend` on 10,000 candidates or a 10 MB bundle scan stays
    /// within it; larger calls work the same, only the part above 64 MiB is faulted in afresh.
    fn default() -> Self {
        InstancePool {
            slots: 4,
            keep_resident_bytes: 64 << 20,
        }
    }
}

/// What the harness's engine uses, for `status` and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoolStatus {
    /// Pooled, with these settings.
    On(InstancePool),
    /// A fresh memory mapping per call, and why.
    Off(String),
}

impl PoolStatus {
    /// One line: `"4 slots, 64 MiB resident each"` or `"off: <why>"`.
    pub fn describe(&self) -> String {
        match self {
            PoolStatus::On(p) => format!(
                "{} slots, {} MiB resident each",
                p.slots,
                p.keep_resident_bytes >> 20
            ),
            PoolStatus::Off(why) => format!("off: {why}"),
        }
    }
}

// The component has one linear memory and a handful of core instances and tables (the module and
// the canonical-ABI shims); generous per-component maxima keep a future build from failing to
// instantiate, while the totals follow from the slot count.
const CORE_INSTANCES_PER_COMPONENT: u32 = 32;
const MEMORIES_PER_COMPONENT: u32 = 2;
const TABLES_PER_COMPONENT: u32 = 8;

/// Switch `config` to the pooling allocator for `pool`, if this machine supports the reset the pool
/// relies on. `max_memory_bytes` is the per-call memory cap (the pool's slots are at least that big).
pub fn configure(
    config: &mut Config,
    pool: Option<InstancePool>,
    max_memory_bytes: usize,
) -> PoolStatus {
    let Some(pool) = pool else {
        return PoolStatus::Off("disabled".into());
    };
    if pool.slots == 0 {
        return PoolStatus::Off("disabled (0 slots)".into());
    }
    if !PoolingAllocationConfig::is_pagemap_scan_available() {
        return PoolStatus::Off("PAGEMAP_SCAN unavailable (needs Linux 6.7 or later)".into());
    }
    let mut p = PoolingAllocationConfig::new();
    p.total_component_instances(pool.slots)
        .total_core_instances(pool.slots * CORE_INSTANCES_PER_COMPONENT)
        .total_memories(pool.slots * MEMORIES_PER_COMPONENT)
        .total_tables(pool.slots * TABLES_PER_COMPONENT)
        .max_core_instances_per_component(CORE_INSTANCES_PER_COMPONENT)
        .max_memories_per_component(MEMORIES_PER_COMPONENT)
        .max_tables_per_component(TABLES_PER_COMPONENT)
        .max_memory_size(max_memory_bytes.next_multiple_of(64 << 10))
        .linear_memory_keep_resident(pool.keep_resident_bytes)
        .table_keep_resident(64 << 10)
        .pagemap_scan(Enabled::Yes);
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(p));
    PoolStatus::On(pool)
}

/// Lets at most `slots` calls hold an instance at once; the rest wait (the pool would refuse them).
#[derive(Debug)]
pub(crate) struct Gate {
    free: Mutex<u32>,
    freed: Condvar,
}

impl Gate {
    pub(crate) fn new(slots: u32) -> Gate {
        Gate {
            free: Mutex::new(slots),
            freed: Condvar::new(),
        }
    }

    /// Wait for a slot; it is given back when the guard drops.
    pub(crate) fn enter(&self) -> Pass<'_> {
        let mut free = lock(&self.free);
        while *free == 0 {
            free = self
                .freed
                .wait(free)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *free -= 1;
        Pass(self)
    }
}

/// A held slot.
pub(crate) struct Pass<'a>(&'a Gate);

impl Drop for Pass<'_> {
    fn drop(&mut self) {
        *lock(&self.0.free) += 1;
        self.0.freed.notify_one();
    }
}

/// The counter stays consistent even if a holder panicked (it only counts).
fn lock(m: &Mutex<u32>) -> MutexGuard<'_, u32> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn the_gate_never_lets_more_than_its_slots_in() {
        let gate = Arc::new(Gate::new(2));
        let inside = Arc::new(AtomicU32::new(0));
        let most = Arc::new(AtomicU32::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (gate, inside, most) = (gate.clone(), inside.clone(), most.clone());
                std::thread::spawn(move || {
                    for _ in 0..50 {
                        let _pass = gate.enter();
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(inside.load(Ordering::SeqCst), 0);
        let most = most.load(Ordering::SeqCst);
        assert!((1..=2).contains(&most), "{most} calls were inside at once");
    }

    #[test]
    fn zero_slots_or_none_means_off() {
        let mut c = Config::new();
        assert_eq!(
            configure(&mut c, None, 1 << 20),
            PoolStatus::Off("disabled".into())
        );
        let zero = InstancePool {
            slots: 0,
            ..InstancePool::default()
        };
        assert!(matches!(
            configure(&mut c, Some(zero), 1 << 20),
            PoolStatus::Off(_)
        ));
        assert_eq!(
            PoolStatus::On(InstancePool::default()).describe(),
            "4 slots, 64 MiB resident each"
        );
    }
}
