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
//!
//! It comes in pieces (about 256 KiB each, cut between list items), which the sink writes one
//! after another: one buffer of the whole text (62 MB pretty at 100,000 candidates) could not use
//! the memory the component freed after parsing the candidates (their 44 MB of input text; in the
//! component, memory once grown is never given back), so the input's, the candidates' and the
//! text's memory were all resident at the process's peak (195 MB, BENCHMARKS.md perf25); the
//! pieces fill the freed memory first. Every piece's bounds are checked before the first is given
//! to the sink, so a bad one fails the call with nothing written.

use serde_json::Value;
use wasmtime::component::__internal::{CanonicalAbiInfo, InstanceType, InterfaceType, LiftContext};
use wasmtime::component::{ComponentType, Lift};
use wasmtime::{Result, ValRaw};

use super::super::handover::typed;
use super::super::wit_args::{wit_agent, wit_installed, wit_mode};
use super::super::{CONTRACT_VERSION, Harness, InputFile, wit_filter, wit_types};
use super::{Delivered, deliver, pointer_pair, with_delivery};
use crate::{Command, StateStore};
use guest::Ctx;

/// What a [`Harness::filter_text`] sink is given: a piece of the laid-out result, in the
/// component's memory (the pieces come in order; together they are the text).
pub type ByteSink = Box<dyn FnMut(&[u8])>;

impl Harness {
    /// Run `command` (a `filter`; its candidates read from `file` straight into the component's
    /// memory when given) through `filter-text`: the result laid out pretty or compact with
    /// `extra` members added at its top level, given to `sink` in pieces while it is still in the
    /// component's memory (`sink` is called for each piece in order, on this thread, when the call
    /// succeeds; never when it fails).
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
            let mut sink = sink;
            let delivery = Box::new(move |bytes: &[u8]| {
                sink(bytes);
                Ok(())
            });
            let (returned,) = with_delivery(delivery, || f.call(&mut *s, args))?;
            Ok(returned.map(|t| t.kept))
        })
    }
}

/// `filtered-text`: the kept count, and the text's pieces given to the sink as they are lifted.
#[derive(ComponentType, Lift)]
#[component(record)]
struct FilteredText {
    kept: u64,
    #[allow(dead_code)]
    pieces: Pieces,
}

/// A `list<string>` result whose strings were given, in order, to the call's delivery.
struct Pieces;

/// Check that the list at `ptr` (`len` strings) and every string in it lie in the component's
/// memory, then deliver the strings in order ([`deliver`] checks each again as it reads it).
fn deliver_pieces(cx: &mut LiftContext<'_>, ptr: u32, len: u32) -> Result<Pieces> {
    let (ptr, len) = (ptr as usize, len as usize);
    if !ptr.is_multiple_of(4) {
        wasmtime::bail!("list pointer is not aligned");
    }
    let memory = cx.memory();
    let table = (len.checked_mul(8))
        .and_then(|n| memory.get(ptr..)?.get(..n))
        .ok_or_else(|| wasmtime::Error::msg("list pointer/length out of bounds of memory"))?;
    let word = |w: &[u8]| u32::from_le_bytes(w.try_into().expect("4 bytes"));
    let pieces: Vec<(u32, u32)> = (table.chunks_exact(8))
        .map(|w| (word(&w[..4]), word(&w[4..])))
        .collect();
    let fits = |&(p, l): &(u32, u32)| {
        (p as usize)
            .checked_add(l as usize)
            .is_some_and(|end| end <= memory.len())
    };
    if !pieces.iter().all(fits) {
        wasmtime::bail!("string pointer/length out of bounds of memory");
    }
    for (p, l) in pieces {
        deliver(cx, p, l)?;
    }
    Ok(Pieces)
}

// SAFETY: the representation, ABI and type check are `list<string>`'s (a pointer and a length).
unsafe impl ComponentType for Pieces {
    type Lower = [ValRaw; 2];

    const ABI: CanonicalAbiInfo = CanonicalAbiInfo::POINTER_PAIR;

    fn typecheck(ty: &InterfaceType, types: &InstanceType<'_>) -> Result<()> {
        <[Delivered] as ComponentType>::typecheck(ty, types)
    }
}

// SAFETY: reads the list's pointer and length, and each string's, as wasmtime's lifting of a
// `list<string>` does, checking the bounds the same way.
unsafe impl Lift for Pieces {
    fn linear_lift_from_flat(
        cx: &mut LiftContext<'_>,
        _ty: InterfaceType,
        src: &Self::Lower,
    ) -> Result<Self> {
        deliver_pieces(cx, src[0].get_u32(), src[1].get_u32())
    }

    fn linear_lift_from_memory(
        cx: &mut LiftContext<'_>,
        _ty: InterfaceType,
        bytes: &[u8],
    ) -> Result<Self> {
        let (ptr, len) = pointer_pair(bytes);
        deliver_pieces(cx, ptr, len)
    }
}
