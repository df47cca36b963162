//! The WIT `skills` calls: domain types to generated types, and the dispatch of one call.

use wasmtime::Store;

use super::bindings::exports::skill_recommender::core::skills as w;
use super::bindings::skill_recommender::core::types as wit_types;
use super::{GuestReturn, HostState, wit_bundle};
use crate::SkillsCall;
use guest::ondisk::{install, judge, layout, manage};
use guest::scan::Trust;

/// The bytes of text a call carries (what the input limit and the deadline are measured by).
pub(super) fn input_bytes(call: &SkillsCall) -> usize {
    let listings = |ls: &[judge::Listing]| -> usize {
        ls.iter()
            .flat_map(|l| &l.entries)
            .map(|e| e.name.len() + e.provenance.as_ref().map_or(0, String::len))
            .sum()
    };
    let md = |t: &Option<String>| t.as_ref().map_or(0, String::len);
    match call {
        SkillsCall::ParseCoordinate { coordinate } => coordinate.len(),
        SkillsCall::ResolveLayout { .. } => 0,
        SkillsCall::PlanInstall { bundle, facts, .. } => {
            bundle.text_bytes() + listings(&facts.listings) + md(&facts.agents_md)
        }
        SkillsCall::PlanUninstall { facts, .. } => listings(&facts.listings) + md(&facts.agents_md),
        SkillsCall::PlanSkillEdit { action, facts, .. } => {
            let action_bytes = match action {
                manage::Action::Create { content } | manage::Action::Edit { content } => {
                    content.len()
                }
                manage::Action::Patch { old, new, .. } => old.len() + new.len(),
                manage::Action::WriteFile { content, .. } => content.len(),
                manage::Action::Delete | manage::Action::RemoveFile { .. } => 0,
            };
            action_bytes
                + facts.skill.as_ref().map_or(0, |(_, b)| b.text_bytes())
                + listings(&facts.listings)
                + md(&facts.agents_md)
        }
        SkillsCall::AuditSkill {
            bundle, provenance, ..
        } => bundle.text_bytes() + md(provenance),
        SkillsCall::ApplyPatch { text, old, new, .. } => text.len() + old.len() + new.len(),
        SkillsCall::AgentsMdUpdate { text, upsert, .. } => {
            md(text)
                + upsert
                    .iter()
                    .map(|e| e.description.len() + e.location.len())
                    .sum::<usize>()
        }
    }
}

fn trust(t: Trust) -> w::Trust {
    match t {
        Trust::Builtin => w::Trust::Builtin,
        Trust::Trusted => w::Trust::Trusted,
        Trust::Community => w::Trust::Community,
        Trust::AgentCreated => w::Trust::AgentCreated,
    }
}

fn target(t: &layout::Target) -> w::Target {
    w::Target {
        agent: t.agent.clone(),
        scope: t.scope.clone(),
        dir: t.dir.clone(),
        agents_md: t.agents_md.clone(),
        no_agents_md: t.no_agents_md,
        category: t.category.clone(),
    }
}

fn roots(r: &layout::Roots) -> w::Roots {
    w::Roots {
        home: r.home.clone(),
        project: r.project.clone(),
        hermes_home: r.hermes_home.clone(),
        codex_home: r.codex_home.clone(),
    }
}

fn listings(ls: &[judge::Listing]) -> Vec<w::Listing> {
    ls.iter()
        .map(|l| w::Listing {
            path: l.path.clone(),
            entries: l
                .entries
                .iter()
                .map(|e| w::ListedEntry {
                    name: e.name.clone(),
                    category: e.category.clone(),
                    is_dir: e.is_dir,
                    has_skill_md: e.has_skill_md,
                    provenance: e.provenance.clone(),
                })
                .collect(),
        })
        .collect()
}

fn facts(f: &install::Facts) -> w::DiskFacts {
    w::DiskFacts {
        listings: listings(&f.listings),
        agents_md: f.agents_md.clone(),
    }
}

/// Call the `skills` export `call` names.
pub(super) fn dispatch(
    s: &mut Store<HostState>,
    instance: &super::bindings::Recommender,
    c: &wit_types::Context,
    call: &SkillsCall,
) -> GuestReturn {
    let g = instance.skill_recommender_core_skills();
    match call {
        SkillsCall::ParseCoordinate { coordinate } => g.call_parse_coordinate(s, coordinate),
        SkillsCall::ResolveLayout {
            target: t,
            roots: r,
            all,
        } => g.call_resolve_layout(s, &target(t), &roots(r), *all),
        SkillsCall::PlanInstall {
            request,
            bundle,
            digests,
            facts: f,
        } => {
            let req = w::InstallRequest {
                source: request.source.clone(),
                source_kind: request.source_kind.clone(),
                archive_sha256: request.archive_sha256.clone(),
                coordinate: request.coordinate.clone(),
                alias: request.alias.clone(),
                skill_id: request.skill_id.clone(),
                trust: trust(request.trust),
                force: request.force,
                yes: request.yes,
                replace: request.replace,
                target: target(&request.target),
                roots: roots(&request.roots),
            };
            g.call_plan_install(s, c, &req, &wit_bundle(bundle.clone()), digests, &facts(f))
        }
        SkillsCall::PlanUninstall {
            name,
            target: t,
            roots: r,
            facts: f,
        } => g.call_plan_uninstall(s, name, &target(t), &roots(r), &facts(f)),
        SkillsCall::PlanSkillEdit {
            name,
            action,
            target: t,
            roots: r,
            facts: f,
        } => {
            let action = match action {
                manage::Action::Create { content } => w::SkillAction::Create(content.clone()),
                manage::Action::Edit { content } => w::SkillAction::Edit(content.clone()),
                manage::Action::Patch {
                    old,
                    new,
                    file,
                    replace_all,
                } => w::SkillAction::Patch(w::PatchRequest {
                    old: old.clone(),
                    new: new.clone(),
                    file: file.clone(),
                    replace_all: *replace_all,
                }),
                manage::Action::Delete => w::SkillAction::Delete,
                manage::Action::WriteFile { path, content } => {
                    w::SkillAction::WriteFile(w::FileContent {
                        path: path.clone(),
                        content: content.clone(),
                    })
                }
                manage::Action::RemoveFile { path } => w::SkillAction::RemoveFile(path.clone()),
            };
            let wf = w::SkillFacts {
                listings: listings(&f.listings),
                skill: f
                    .skill
                    .as_ref()
                    .map(|(p, b)| (p.clone(), wit_bundle(b.clone()))),
                digests: f.digests.clone(),
                agents_md: f.agents_md.clone(),
            };
            g.call_plan_skill_edit(s, c, name, &action, &target(t), &roots(r), &wf)
        }
        SkillsCall::AuditSkill {
            bundle,
            digests,
            provenance,
            trust: t,
            path,
            agent,
        } => g.call_audit_skill(
            s,
            &wit_bundle(bundle.clone()),
            digests,
            provenance.as_deref(),
            t.map(trust),
            path,
            agent,
        ),
        SkillsCall::ApplyPatch {
            text,
            old,
            new,
            replace_all,
        } => g.call_apply_patch(s, text, old, new, *replace_all),
        SkillsCall::AgentsMdUpdate {
            text,
            upsert,
            remove,
        } => {
            let upsert: Vec<w::AgentsMdEntry> = upsert
                .iter()
                .map(|e| w::AgentsMdEntry {
                    name: e.name.clone(),
                    description: e.description.clone(),
                    location: e.location.clone(),
                })
                .collect();
            g.call_agents_md_update(s, text.as_deref(), &upsert, remove)
        }
    }
}
