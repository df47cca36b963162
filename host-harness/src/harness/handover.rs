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
use wasmtime::{AsContextMut, Result, Store};

use super::wit_args::{
    wit_agent, wit_installed, wit_mode, wit_rank_request, wit_recommend_request,
};
use super::{
    CONTRACT_VERSION, GuestReturn, HostState, Prepared, wit_rank, wit_recommend, wit_types,
};
use crate::Command;

/// A `string` argument whose host copy is freed once it has been copied into the component.
pub(super) struct Handover(Mutex<String>);

impl Handover {
    pub(super) fn new(text: String) -> Handover {
        Handover(Mutex::new(text))
    }

    /// The text, leaving the handover empty (it is lowered once: a second lowering would pass "").
    fn take(&self) -> String {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
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

// SAFETY: see `ComponentType` above; both methods delegate to `str`.
unsafe impl Lower for Handover {
    fn linear_lower_to_flat<T>(
        &self,
        cx: &mut LowerContext<'_, T>,
        ty: InterfaceType,
        dst: &mut MaybeUninit<Self::Lower>,
    ) -> Result<()> {
        let text = self.take();
        text.as_str().linear_lower_to_flat(cx, ty, dst)
        // `text` is dropped here, before the component runs.
    }

    fn linear_lower_to_memory<T>(
        &self,
        cx: &mut LowerContext<'_, T>,
        ty: InterfaceType,
        offset: usize,
    ) -> Result<()> {
        let text = self.take();
        text.as_str().linear_lower_to_memory(cx, ty, offset)
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
/// [`super::streamed::Streamed`]).
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
        assert_eq!(input.map(|h| h.take()).as_deref(), Some("[1]"));
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
        assert_eq!(h.take(), "abc");
        assert_eq!(h.take(), "");
    }
}
