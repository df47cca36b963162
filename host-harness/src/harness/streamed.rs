//! A large result written out while it is still in the component's memory.
//!
//! The generated bindings lift a `string` result into a host `String`: for `filter` on 100,000
//! candidates that is a 46 MB copy made while the component's memory is at its largest, the
//! process's peak (BENCHMARKS.md, issue 17). wasmtime's `WasmStr` avoids the copy but cannot be read
//! after the call: wasmtime 48 runs the component's post-return (which frees the string) inside
//! `TypedFunc::call`, so the text is only safe to read while it is being lifted.
//!
//! [`Delivered`] is a `string` result whose lifting hands the bytes, borrowed from the component's
//! memory, to a delivery set for the call on this thread ([`with_delivery`]): the delivery writes
//! them out, and nothing is copied into the host. The same bounds checks as wasmtime's own lifting
//! of a `string` apply; the delivery decides what else to check ([`Harness::run_streamed`]'s
//! checks the text as UTF-8, `filter-text`'s passes the component's bytes through, see `text`).

use std::borrow::Cow;
use std::cell::RefCell;

use wasmtime::component::__internal::wasmtime_environ::component::StringEncoding;
use wasmtime::component::__internal::{CanonicalAbiInfo, InstanceType, InterfaceType, LiftContext};
use wasmtime::component::{ComponentType, Lift};
use wasmtime::{Result, ValRaw};

use wasmtime::Store;
use wasmtime::component::Instance;

use super::input_file::{InputFile, input_error};
use super::{GuestReturn, Handover, Harness, HostState, Prepared, finish};
use crate::pool::Gate;
use crate::{Command, StateStore};
use guest::Ctx;

mod text;

/// What a sink is given: the result text, in the component's memory.
pub type Sink = Box<dyn FnMut(&str)>;

/// What a [`Delivered`] lifting calls with the string's bytes; an error fails the lift.
type Delivery = Box<dyn FnMut(&[u8]) -> Result<()>>;

thread_local! {
    static DELIVERY: RefCell<Option<Delivery>> = const { RefCell::new(None) };
}

impl Harness {
    /// [`Harness::run_text_owned`] for a command whose result can be large (`filter`, `scan`,
    /// `rank`, `recommend`), giving the result text to `sink` while it is still in the component's
    /// memory instead of returning a copy. `sink` is called once, on this thread, when the call
    /// succeeds, and before the call's state writes are committed: use it for commands that write
    /// no state (`filter`, `scan`, `rank`, a dry-run `recommend`), or be ready for the commit to fail
    /// after the result was seen. Errors are [`Harness::run_text_owned`]'s, and `sink` is not called.
    /// Any other command is run as usual and its text given to `sink`.
    pub fn run_streamed(
        &self,
        store: &dyn StateStore,
        ctx: &Ctx,
        command: Command,
        sink: Sink,
    ) -> crate::Result<()> {
        self.streamed(store, ctx, command, None, sink)
    }

    /// [`Harness::run_streamed`] with the candidates of `command` (`filter`, `scan`, `rank` or
    /// `recommend`, its own candidates text left empty) read from `input` straight into the
    /// component's memory (see [`InputFile`]). A file that is not UTF-8 gives `InvalidInput` and
    /// the component's function does not run.
    pub fn run_streamed_from(
        &self,
        store: &dyn StateStore,
        ctx: &Ctx,
        command: Command,
        input: InputFile,
        sink: Sink,
    ) -> crate::Result<()> {
        self.streamed(store, ctx, command, Some(input), sink)
    }

    fn streamed(
        &self,
        store: &dyn StateStore,
        ctx: &Ctx,
        command: Command,
        file: Option<InputFile>,
        mut sink: Sink,
    ) -> crate::Result<()> {
        if !matches!(
            command,
            Command::Filter { .. }
                | Command::ScanCandidates { .. }
                | Command::Rank { .. }
                | Command::Recommend { .. }
        ) {
            debug_assert!(
                file.is_none(),
                "only a candidates command reads a candidates file"
            );
            let text = self.run_text_owned(store, ctx, command)?;
            sink(&text);
            return Ok(());
        }
        let delivery: Delivery = Box::new(move |bytes| {
            sink(std::str::from_utf8(bytes)?);
            Ok(())
        });
        self.streamed_call(store, ctx, command, file, |call, s, instance, input| {
            with_delivery(delivery, || call.hand_over::<Delivered>(s, instance, input))
        })
        .map(|Delivered| ())
    }

    /// One call of a candidates command on a new instance, its candidates handed over (or read
    /// from `file`): `run` calls the export and lifts what it returns.
    fn streamed_call<R>(
        &self,
        store: &dyn StateStore,
        ctx: &Ctx,
        command: Command,
        file: Option<InputFile>,
        run: impl FnOnce(&Prepared<'_>, &mut Store<HostState>, &Instance, &Handover) -> GuestReturn<R>,
    ) -> crate::Result<R> {
        let mut call = self.prepare(ctx, Cow::Owned(command))?;
        if let Some(file) = file {
            let max = self.limits.max_input_bytes;
            if file.len() > max {
                return Err(crate::Error::InvalidInput {
                    field: "candidates".into(),
                    message: format!("{} bytes, over the {max}-byte input limit", file.len()),
                });
            }
            call.input_bytes = file.len();
            call.input = Some(Handover::file(file));
        }
        let input =
            (call.input.as_ref()).expect("an owned candidates command hands its input over");
        let session = store.begin()?;
        let _pass = self.gate.as_ref().map(Gate::enter);
        let mut s = self.new_store(session, call.commands.clone());
        self.arm(&mut s, call.input_bytes)?;
        let result = self
            .retry_instantiate(&mut s, |pre, s| pre.instance_pre().instantiate(s))
            .and_then(|instance| run(&call, &mut s, &instance, input));
        // A candidates file that could not be read in: its error, as if it had been read as text.
        let result = match result.map_err(input_error) {
            Err(Ok(e)) => return Err(e),
            Err(Err(trap)) => Err(trap),
            Ok(returned) => Ok(returned),
        };
        finish(s.into_data(), store, result)
    }
}

/// A `string` result that was given to the call's delivery instead of copied out.
pub(super) struct Delivered;

/// Run `call` with `delivery` receiving the bytes of the `string` a [`Delivered`] result lifts;
/// the delivery is removed afterwards (also when `call` fails).
pub(super) fn with_delivery<R>(delivery: Delivery, call: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            DELIVERY.with_borrow_mut(|d| *d = None);
        }
    }
    DELIVERY.with_borrow_mut(|d| *d = Some(delivery));
    let _reset = Reset;
    call()
}

/// The pointer and length of a `string` or `list<…>` stored in the component's memory (two
/// little-endian words), as a `linear_lift_from_memory` is given them.
fn pointer_pair(bytes: &[u8]) -> (u32, u32) {
    let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    (word(0), word(4))
}

fn deliver(cx: &mut LiftContext<'_>, ptr: u32, len: u32) -> Result<Delivered> {
    if cx.options().string_encoding != StringEncoding::Utf8 {
        wasmtime::bail!("a delivered result must be a UTF-8 string");
    }
    let (ptr, len) = (ptr as usize, len as usize);
    let bytes = cx
        .memory()
        .get(ptr..)
        .and_then(|b| b.get(..len))
        .ok_or_else(|| wasmtime::Error::msg("string pointer/length out of bounds of memory"))?;
    DELIVERY.with_borrow_mut(|d| match d.as_mut() {
        Some(delivery) => delivery(bytes).map(|()| Delivered),
        None => Err(wasmtime::Error::msg(
            "a delivered result without a delivery",
        )),
    })
}

// SAFETY: the representation, ABI and type check are `str`'s (a pointer and a length).
unsafe impl ComponentType for Delivered {
    type Lower = [ValRaw; 2];

    const ABI: CanonicalAbiInfo = <str as ComponentType>::ABI;

    fn typecheck(ty: &InterfaceType, types: &InstanceType<'_>) -> Result<()> {
        <str as ComponentType>::typecheck(ty, types)
    }
}

// SAFETY: reads the pointer and length as wasmtime's `string` lifting does and checks the bounds
// the same way (the delivery checks the bytes as it needs).
unsafe impl Lift for Delivered {
    fn linear_lift_from_flat(
        cx: &mut LiftContext<'_>,
        _ty: InterfaceType,
        src: &Self::Lower,
    ) -> Result<Self> {
        deliver(cx, src[0].get_u32(), src[1].get_u32())
    }

    fn linear_lift_from_memory(
        cx: &mut LiftContext<'_>,
        _ty: InterfaceType,
        bytes: &[u8],
    ) -> Result<Self> {
        let (ptr, len) = pointer_pair(bytes);
        deliver(cx, ptr, len)
    }
}
