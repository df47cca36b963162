//! `filter` as the CLI prints it, written by the component (`filter-text` in the WIT contract).
//!
//! Through `filter` the component returns compact JSON, which the host re-indents (pretty) and
//! splices its `discovery` member into ([`crate::json_text`]), after checking the text as UTF-8:
//! at 100,000 candidates 46 MB read and 62 MB written, ~10% of the whole process (BENCHMARKS.md,
//! perf22). `filter-text` takes the layout (pretty or compact, and the host's members) and returns
//! the final text with the kept count, so the host copies the bytes out as they are, straight
//! from the component's memory, and needs no pass over them to find `summary.kept`.
//!
//! The text is given to the sink as bytes, not checked as UTF-8 here: it only passes through to
//! the output (the component writes it with `serde_json`'s escaping, UTF-8 by construction).

use std::cell::RefCell;

use serde_json::Value;
use wasmtime::component::__internal::wasmtime_environ::component::StringEncoding;
use wasmtime::component::__internal::{CanonicalAbiInfo, InstanceType, InterfaceType, LiftContext};
use wasmtime::component::{ComponentType, Lift};
use wasmtime::{Result, ValRaw};

use super::super::handover::typed;
use super::super::wit_args::{wit_agent, wit_installed, wit_mode};
use super::super::{CONTRACT_VERSION, Harness, InputFile, wit_filter, wit_types};
use crate::{Command, StateStore};
use guest::Ctx;

/// What a [`Harness::filter_text`] sink is given: the laid-out result, in the component's memory.
pub type ByteSink = Box<dyn FnMut(&[u8])>;

thread_local! {
    static SINK: RefCell<Option<ByteSink>> = const { RefCell::new(None) };
}

impl Harness {
    /// Run `command` (a `filter`; its candidates read from `file` straight into the component's
    /// memory when given) through `filter-text`: the result laid out pretty or compact with
    /// `extra` members added at its top level, given to `sink` while it is still in the
    /// component's memory (`sink` is called once, on this thread, when the call succeeds).
    /// Returns how many candidates were kept. Errors are [`Harness::run_streamed`]'s.
    pub fn filter_text(
        &self,
        store: &dyn StateStore,
        ctx: &Ctx,
        command: Command,
        file: Option<InputFile>,
        layout: (bool, &[(&str, &Value)]),
        sink: ByteSink,
    ) -> crate::Result<u64> {
        assert!(
            matches!(command, Command::Filter { .. }),
            "filter_text runs a filter"
        );
        let (pretty, extra) = layout;
        let layout = wit_filter::TextLayout {
            pretty,
            extra: (extra.iter())
                .map(|(k, v)| ((*k).to_owned(), v.to_string()))
                .collect(),
        };
        self.streamed_call(store, ctx, command, file, |call, s, instance, input| {
            let Command::Filter {
                mode,
                installed,
                agent,
                ..
            } = &*call.command
            else {
                unreachable!("checked above")
            };
            type P<'a> = (
                &'a wit_types::Context,
                wit_types::Mode,
                &'a super::Handover,
                &'a [wit_types::InstalledSkill],
                &'a wit_types::AgentEnv,
                &'a wit_filter::TextLayout,
            );
            type R = (std::result::Result<FilteredText, wit_types::Error>,);
            let iface = format!("skill-recommender:core/filter@{CONTRACT_VERSION}");
            let f = typed::<P<'_>, R>(&mut *s, instance, &iface, "filter-text")?;
            let (installed, agent) = (wit_installed(installed), wit_agent(agent));
            let args = (
                &call.context,
                wit_mode(mode),
                input,
                &installed[..],
                &agent,
                &layout,
            );
            let (returned,) = with_sink(sink, || f.call(&mut *s, args))?;
            Ok(returned.map(|t| t.kept))
        })
    }
}

/// `filtered-text`: the kept count, and the text given to the sink as it is lifted.
#[derive(ComponentType, Lift)]
#[component(record)]
struct FilteredText {
    kept: u64,
    #[allow(dead_code)]
    text: Delivered,
}

/// A `string` result that was given to the call's [`ByteSink`] instead of copied out.
struct Delivered;

fn with_sink<R>(sink: ByteSink, call: impl FnOnce() -> R) -> R {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            SINK.with_borrow_mut(|s| *s = None);
        }
    }
    SINK.with_borrow_mut(|s| *s = Some(sink));
    let _reset = Reset;
    call()
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
    SINK.with_borrow_mut(|s| match s.as_mut() {
        Some(sink) => {
            sink(bytes);
            Ok(Delivered)
        }
        None => Err(wasmtime::Error::msg("a delivered result without a sink")),
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
// the same way; the bytes are not checked as UTF-8 (see the module's comment).
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
        let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        deliver(cx, word(0), word(4))
    }
}
