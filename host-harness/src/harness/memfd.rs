//! Recognizing wasmtime's transient memfd failure (see `Harness::instantiate`).

/// Whether an instantiation failed because the kernel refused to seal a memory image's memfd
/// (wasmtime reports the `memfd` crate's "cannot add seals to the memfd" somewhere in the chain).
pub(super) fn is_seal_error(e: &wasmtime::Error) -> bool {
    e.chain().any(|cause| cause.to_string().contains("memfd"))
}

#[cfg(test)]
mod tests {
    use super::is_seal_error;

    #[test]
    fn the_seal_failure_is_recognized_anywhere_in_the_chain() {
        let e = wasmtime::Error::msg("cannot add seals to the memfd").context("instantiating");
        assert!(is_seal_error(&e));
    }

    #[test]
    fn other_instantiation_failures_are_not_retried() {
        let e = wasmtime::Error::msg("memory limit exceeded").context("instantiating");
        assert!(!is_seal_error(&e));
    }
}
