//! Large inputs handed over to the component: the host's copy is freed as soon as it is in the
//! component's memory, not at the end of the call.
//!
//! A `string` parameter is copied into the component's linear memory when the call starts (the
//! canonical ABI's lowering: the guest's `realloc`, then a copy). The generated bindings take
//! `&str`, so the caller's `String` lives until the call returns: for `filter` on 100,000
//! candidates that is 43 MB of host memory held beside the component's while the component
//! parses, filters and writes its result, all of it in the process's peak (BENCHMARKS.md, issue 17).
//!
//! [`Handover`] is a `string` parameter that owns its text and drops it right after lowering it.
//! The component receives exactly the same bytes, through the same `realloc`, with the same
//! canonical-ABI checks (it delegates to wasmtime's own lowering of `str`); only the host's copy
//! goes away earlier. The export is called through a [`TypedFunc`] whose signature wasmtime checks
//! against the component's own types ([`typed`]), as the generated bindings would.

use std::mem::MaybeUninit;
use std::sync::{Mutex, PoisonError};

use std::borrow::Cow;
use wasmtime::component::__internal::{
    CanonicalAbiInfo, InstanceType, InterfaceType, LowerContext,
};

use wasmtime::component::{ComponentNamedList, ComponentType, Instance, Lift, Lower, TypedFunc};
use wasmtime::{AsContextMut, Result, Store, ValRaw};

use super::input_file::{InputError, InputFile};
use super::wit_args::{
    wit_agent, wit_installed, wit_mode, wit_rank_request, wit_recommend_request,
};
use super::{
    CONTRACT_VERSION, GuestReturn, HostState, Prepared, wit_rank, wit_recommend, wit_types,
};
use crate::Command;

/// A `string` argument whose host copy is freed once it has been copied into the component, or a
/// file read straight into the component's memory ([`InputFile`]).
pub(super) struct Handover(Mutex<Source>);

/// What a [`Handover`] lowers.
pub(super) enum Source {
    Text(String),
    File(InputFile),
}

impl Handover {
    pub(super) fn new(text: String) -> Handover {
        Handover(Mutex::new(Source::Text(text)))
    }

    pub(super) fn file(file: InputFile) -> Handover {
        Handover(Mutex::new(Source::File(file)))
    }

    /// The input, leaving the handover empty (it is lowered once: a second lowering would pass "").
    fn take(&self) -> Source {
        let mut source = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        std::mem::replace(&mut *source, Source::Text(String::new()))
    }

    /// The input to lower into `cx`: a file read into the component's memory when it takes UTF-8,
    /// else the text to lower as a `str`.
    fn take_for<T>(&self, cx: &mut LowerContext<'_, T>) -> Result<Lowered> {
        Ok(match self.take() {
            Source::Text(text) => Lowered::Text(text),
            Source::File(file) if InputFile::fits(cx) => {
                let (ptr, len) = file.lower(cx)?;
                Lowered::At(ptr, len)
            }
            Source::File(file) => Lowered::Text(file.into_text().map_err(InputError)?),
        })
    }
}

/// A [`Handover`]'s input, ready to lower.
enum Lowered {
    Text(String),
    /// Already in the component's memory: (pointer, length).
    At(usize, usize),
}

// SAFETY: the representation, ABI and type check are `str`'s, and lowering is `str`'s lowering of
// the owned text: the component sees a `string` exactly as if `&str` had been passed.
unsafe impl ComponentType for Handover {
    type Lower = <str as ComponentType>::Lower;

    const ABI: CanonicalAbiInfo = <str as ComponentType>::ABI;

    fn typecheck(ty: &InterfaceType, types: &InstanceType<'_>) -> Result<()> {
        <str as ComponentType>::typecheck(ty, types)
    }
}

// SAFETY: see `ComponentType` above; both methods delegate to `str`, or write the (pointer, length)
// pair of a string already in the component's memory as `str`'s lowering writes it (two 64-bit flat
// values; two little-endian `u32`s in memory).
unsafe impl Lower for Handover {
    fn linear_lower_to_flat<T>(
        &self,
        cx: &mut LowerContext<'_, T>,
        ty: InterfaceType,
        dst: &mut MaybeUninit<Self::Lower>,
    ) -> Result<()> {
        match self.take_for(cx)? {
            Lowered::Text(text) => text.as_str().linear_lower_to_flat(cx, ty, dst),
            // `text` is dropped here, before the component runs.
            Lowered::At(ptr, len) => {
                dst.write([ValRaw::i64(ptr as i64), ValRaw::i64(len as i64)]);
                Ok(())
            }
        }
    }

    fn linear_lower_to_memory<T>(
        &self,
        cx: &mut LowerContext<'_, T>,
        ty: InterfaceType,
        offset: usize,
    ) -> Result<()> {
        match self.take_for(cx)? {
            Lowered::Text(text) => text.as_str().linear_lower_to_memory(cx, ty, offset),
            Lowered::At(ptr, len) => {
                *cx.get::<4>(offset) = u32::try_from(ptr)?.to_le_bytes();
                *cx.get::<4>(offset + 4) = u32::try_from(len)?.to_le_bytes();
                Ok(())
            }
        }
    }
}

/// The export `function` of the exported interface `interface` (e.g.
/// `skill-recommender:core/filter@0.1.0`, `filter`), typed as `Params -> Return` (wasmtime checks
/// the signature against the component's types).
pub(super) fn typed<Params, Return>(
    mut store: impl AsContextMut,
    instance: &Instance,
    interface: &str,
    function: &str,
) -> Result<TypedFunc<Params, Return>>
where
    Params: ComponentNamedList + Lower,
    Return: ComponentNamedList + Lift,
{
    let missing = || {
        wasmtime::Error::msg(format!(
            "the component does not export `{interface}#{function}`"
        ))
    };
    let iface = instance
        .get_export_index(&mut store, None, interface)
        .ok_or_else(missing)?;
    let func = instance
        .get_export_index(&mut store, Some(&iface), function)
        .ok_or_else(missing)?;
    instance.get_typed_func::<Params, Return>(&mut store, &func)
}

/// The candidates text of an owned `filter`, `scan`, `rank` or `recommend`, taken out of the command
/// (which keeps an empty string); a borrowed command, or any other, is left as it is.
pub(super) fn take_candidates(command: Cow<'_, Command>) -> (Cow<'_, Command>, Option<Handover>) {
    match command {
        Cow::Owned(mut owned) => {
            let input = match &mut owned {
                Command::Filter { candidates, .. }
                | Command::ScanCandidates { candidates, .. }
                | Command::Rank { candidates, .. }
                | Command::Recommend { candidates, .. } => {
                    Some(Handover::new(std::mem::take(candidates)))
                }
                _ => None,
            };
            (Cow::Owned(owned), input)
        }
        borrowed => (borrowed, None),
    }
}

/// What every candidates function returns, the `string` lifted as `R` (a host `String`, or
/// [`super::streamed::Delivered`]).
type Returned<R> = (std::result::Result<R, wit_types::Error>,);

impl Prepared<'_> {
    /// Call the command's export with `input` as its candidates (the commands [`take_candidates`]
    /// takes the input of); the same arguments the bindings' `dispatch` passes otherwise.
    pub(super) fn hand_over<R: Lift + 'static>(
        &self,
        s: &mut Store<HostState>,
        instance: &Instance,
        input: &Handover,
    ) -> GuestReturn<R> {
        let c = &self.context;
        let iface = |name: &str| format!("skill-recommender:core/{name}@{CONTRACT_VERSION}");
        let (returned,) = match &*self.command {
            Command::Filter {
                mode,
                installed,
                agent,
                ..
            } => {
                type P<'a> = (
                    &'a wit_types::Context,
                    wit_types::Mode,
                    &'a Handover,
                    &'a [wit_types::InstalledSkill],
                    &'a wit_types::AgentEnv,
                );
                let f = typed::<P<'_>, Returned<R>>(&mut *s, instance, &iface("filter"), "filter")?;
                let (installed, agent) = (wit_installed(installed), wit_agent(agent));
                f.call(&mut *s, (c, wit_mode(mode), input, &installed, &agent))?
            }
            Command::ScanCandidates { mode, .. } => {
                type P<'a> = (wit_types::Mode, &'a Handover);
                let f = typed::<P<'_>, Returned<R>>(
                    &mut *s,
                    instance,
                    &iface("scan"),
                    "scan-candidates",
                )?;
                f.call(&mut *s, (wit_mode(mode), input))?
            }
            Command::Rank {
                mode,
                installed,
                request,
                ..
            } => {
                type P<'a> = (
                    &'a wit_types::Context,
                    wit_types::Mode,
                    &'a Handover,
                    &'a [wit_types::InstalledSkill],
                    &'a wit_rank::RankRequest,
                );
                let request = wit_rank_request(request);
                let f = typed::<P<'_>, Returned<R>>(&mut *s, instance, &iface("rank"), "rank")?;
                let installed = wit_installed(installed);
                f.call(&mut *s, (c, wit_mode(mode), input, &installed, &request))?
            }
            Command::Recommend {
                mode,
                installed,
                options,
                ..
            } => {
                type P<'a> = (
                    &'a wit_types::Context,
                    wit_types::Mode,
                    &'a Handover,
                    &'a [wit_types::InstalledSkill],
                    &'a wit_recommend::RecommendRequest,
                );
                let request = wit_recommend_request(options);
                let f = typed::<P<'_>, Returned<R>>(
                    &mut *s,
                    instance,
                    &iface("recommend"),
                    "recommend",
                )?;
                let installed = wit_installed(installed);
                f.call(&mut *s, (c, wit_mode(mode), input, &installed, &request))?
            }
            _ => unreachable!("take_candidates takes the input of these four commands only"),
        };
        Ok(returned)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guest::filter::Mode;

    fn scan(text: &str) -> Command {
        Command::ScanCandidates {
            mode: Mode::Manual,
            candidates: text.into(),
        }
    }

    #[test]
    fn an_owned_commands_candidates_are_taken_and_a_borrowed_ones_kept() {
        let (left, input) = take_candidates(Cow::Owned(scan("[1]")));
        assert_eq!(input.map(|h| text(h.take())).as_deref(), Some("[1]"));
        assert!(
            matches!(&*left, Command::ScanCandidates { candidates, .. } if candidates.is_empty())
        );

        let command = scan("[2]");
        let (left, input) = take_candidates(Cow::Borrowed(&command));
        assert!(input.is_none());
        assert_eq!(*left, command);

        // Commands without a candidates text keep theirs.
        let (_, input) = take_candidates(Cow::Owned(Command::Status));
        assert!(input.is_none());
    }

    #[test]
    fn a_handover_gives_its_text_once() {
        let h = Handover::new("abc".into());
        assert_eq!(text(h.take()), "abc");
        assert_eq!(text(h.take()), "");
    }

    fn text(source: Source) -> String {
        match source {
            Source::Text(text) => text,
            Source::File(_) => panic!("a file"),
        }
    }
}
