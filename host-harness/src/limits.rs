//! Resource limits for one guest call.

use std::time::Duration;

/// Limits applied to every guest call. A call that hits one ends with [`crate::Error::Limit`] and
/// leaves the state untouched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock budget per call, enforced by epoch interruption (cheap: a counter check at loop
    /// back-edges and function entries). `None` disables it.
    pub deadline: Option<Duration>,
    /// Extra wall-clock budget per started MiB of input (a candidates list, a bundle): the time allowed
    /// grows with the work asked for, while a runaway on small input still stops after `deadline`.
    pub deadline_per_mib: Duration,
    /// Deterministic instruction budget (wasmtime fuel). Costs some speed, so off by default; tests use
    /// it because it ends a runaway call at the same point every time.
    pub fuel: Option<u64>,
    /// Largest linear memory the guest may grow to, in bytes.
    pub max_memory_bytes: usize,
    /// Largest document (state or history) the host reads or accepts from the guest, in bytes.
    pub max_document_bytes: u64,
    /// Largest stderr the guest may write (panic messages); beyond it writes fail.
    pub max_guest_stderr_bytes: usize,
    /// Largest input document (a candidates list, a registry response) handed to the guest, in bytes.
    pub max_input_bytes: usize,
}

/// How often the epoch ticker advances when a deadline is set.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

impl Default for Limits {
    /// Production defaults: 10 s per call plus 1 s per MiB of input, 512 MiB of guest memory, 64 MiB
    /// per document and per input.
    fn default() -> Self {
        Limits {
            deadline: Some(Duration::from_secs(10)),
            deadline_per_mib: Duration::from_secs(1),
            fuel: None,
            max_memory_bytes: 512 << 20,
            max_document_bytes: 64 << 20,
            max_guest_stderr_bytes: 64 << 10,
            max_input_bytes: 64 << 20,
        }
    }
}

impl Limits {
    /// Small, deterministic limits for tests: fuel instead of wall time, 256 MiB of memory (half the
    /// production cap: the bundle scanner's ~200 rule regexes, compiled on first use by the plain
    /// component, take several tens of MiB; 64 MiB no longer held them).
    pub fn for_testing() -> Self {
        Limits {
            deadline: None,
            deadline_per_mib: Duration::ZERO,
            // The plain component (no snapshot) compiles the scanner's rules on its first scan.
            fuel: Some(6_000_000_000),
            max_memory_bytes: 256 << 20,
            max_document_bytes: 4 << 20,
            max_guest_stderr_bytes: 16 << 10,
            max_input_bytes: 4 << 20,
        }
    }

    /// The deadline for a call with `input_bytes` of input, if any.
    pub fn deadline_for(&self, input_bytes: usize) -> Option<Duration> {
        let mib = u32::try_from(input_bytes.div_ceil(1 << 20)).unwrap_or(u32::MAX);
        self.deadline
            .map(|d| d.saturating_add(self.deadline_per_mib.saturating_mul(mib)))
    }

    /// The deadline in epoch ticks (at least one) for a call with `input_bytes` of input.
    pub(crate) fn deadline_ticks(&self, input_bytes: usize) -> Option<u64> {
        self.deadline_for(input_bytes).map(|d| {
            let ticks = d.as_millis() / EPOCH_TICK.as_millis();
            u64::try_from(ticks).unwrap_or(u64::MAX).max(1)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadline_ticks_round_down_but_never_to_zero() {
        let mut l = Limits::default();
        assert_eq!(l.deadline_ticks(0), Some(1000));
        l.deadline = Some(Duration::from_millis(1));
        l.deadline_per_mib = Duration::ZERO;
        assert_eq!(l.deadline_ticks(0), Some(1));
        l.deadline = None;
        assert_eq!(l.deadline_ticks(0), None);
    }

    #[test]
    fn the_deadline_grows_with_the_input_per_started_mib() {
        let l = Limits::default();
        assert_eq!(l.deadline_for(0), Some(Duration::from_secs(10)));
        assert_eq!(l.deadline_for(1), Some(Duration::from_secs(11)));
        assert_eq!(l.deadline_for(44 << 20), Some(Duration::from_secs(54)));
        assert_eq!(
            l.deadline_for(l.max_input_bytes),
            Some(Duration::from_secs(74))
        );
    }
}
