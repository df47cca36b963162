//! What every instance of the component gets, whoever runs it: `wasi:io` and `wasi:cli` linked against
//! an empty context, and a cap on linear memory and tables.
//!
//! Self-contained (it names nothing else in this crate) so the build script can use it too: it runs
//! the component's `initialize` once to snapshot it ([`crate::preinit`]) under the same sandbox.

use wasmtime::ResourceLimiter;
use wasmtime::component::{HasData, Linker, ResourceTable};
use wasmtime_wasi::WasiView;

/// Caps linear memory and tables; remembers a denial so a resulting trap is reported as a limit.
pub struct Limiter {
    max_memory_bytes: usize,
    denied: bool,
}

impl Limiter {
    pub fn new(max_memory_bytes: usize) -> Limiter {
        Limiter {
            max_memory_bytes,
            denied: false,
        }
    }

    /// Whether a growth was refused (a trap that follows is the memory limit, not a bug).
    pub fn denied(&self) -> bool {
        self.denied
    }
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let ok = desired <= self.max_memory_bytes;
        self.denied |= !ok;
        Ok(ok)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= 100_000)
    }
}

/// Links only `wasi:io` and `wasi:cli` — what Rust's std imports — backed by an empty context:
/// no environment, no arguments, no stdin, stdout discarded, stderr captured (panic messages).
/// Filesystem, sockets, clocks, random and http are not in the linker at all, so a component that
/// imports them fails to instantiate.
pub fn link_wasi_std<T: WasiView + 'static>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    use wasmtime_wasi::cli::{WasiCli, WasiCliView};
    use wasmtime_wasi::p2::bindings::{cli, sync::io};

    struct Table;
    impl HasData for Table {
        type Data<'a> = &'a mut ResourceTable;
    }
    let l = linker;
    io::error::add_to_linker::<T, Table>(l, |s| s.ctx().table)?;
    io::poll::add_to_linker::<T, Table>(l, |s| s.ctx().table)?;
    io::streams::add_to_linker::<T, Table>(l, |s| s.ctx().table)?;
    cli::exit::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::environment::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::stdin::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::stdout::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::stderr::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::terminal_input::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::terminal_output::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::terminal_stdin::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::terminal_stdout::add_to_linker::<T, WasiCli>(l, T::cli)?;
    cli::terminal_stderr::add_to_linker::<T, WasiCli>(l, T::cli)?;
    Ok(())
}
