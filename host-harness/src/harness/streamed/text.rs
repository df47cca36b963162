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

use serde_json::Value;
use wasmtime::component::{ComponentType, Lift};

use super::super::handover::typed;
use super::super::wit_args::{wit_agent, wit_installed, wit_mode};
use super::super::{CONTRACT_VERSION, Harness, InputFile, wit_filter, wit_types};
use super::{Delivered, with_delivery};
use crate::{Command, StateStore};
use guest::Ctx;

/// What a [`Harness::filter_text`] sink is given: the laid-out result, in the component's memory.
pub type ByteSink = Box<dyn FnMut(&[u8])>;

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

/// `filtered-text`: the kept count, and the text given to the sink as it is lifted.
#[derive(ComponentType, Lift)]
#[component(record)]
struct FilteredText {
    kept: u64,
    #[allow(dead_code)]
    text: Delivered,
}
