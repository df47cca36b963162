//! Nothing to link: this package's build script builds the component for `wasm32-wasip2` and tells
//! host-harness's build script where it is (see `build.rs`). It is a package of its own, with no
//! dependencies, so that cargo starts the guest build at once, alongside the host's dependencies,
//! instead of after them (host-harness's own build script waits for wasmtime, which it needs to
//! compile the component).
