//! The WIT binding: converts WIT types to domain types and back, and forwards. No domain logic here.

use serde_json::Value;

use crate::lifecycle::{
    self as domain, FeedbackAction, NoticeAction, PromptSource, SkillRef, UpdateResponse,
};
use crate::store::{Document, DocumentStore};
use crate::{Ctx, Error, Lang};

wit_bindgen::generate!({
    path: "../wit",
    world: "recommender",
});

use exports::skill_recommender::core::filter as wit_filter;
use exports::skill_recommender::core::lifecycle as wit;
use exports::skill_recommender::core::rank as wit_rank;
use exports::skill_recommender::core::recommend as wit_recommend;
use exports::skill_recommender::core::render as wit_render;
use exports::skill_recommender::core::scan as wit_scan;
use exports::skill_recommender::core::skills as wit_skills;
use skill_recommender::core::host_env;
use skill_recommender::core::state_store;
use skill_recommender::core::types;

struct Component;

/// The host's store, seen through the domain trait.
struct HostStore;

fn wit_doc(doc: Document) -> types::Document {
    match doc {
        Document::State => types::Document::State,
        Document::History => types::Document::History,
    }
}

impl DocumentStore for HostStore {
    fn load(&mut self, doc: Document) -> crate::Result<Option<String>> {
        state_store::load(wit_doc(doc)).map_err(Error::Store)
    }

    fn save(&mut self, doc: Document, json: String) -> crate::Result<()> {
        state_store::save(wit_doc(doc), &json).map_err(Error::Store)
    }
}

/// The host's PATH lookup, seen through the domain trait.
struct HostEnv;

impl crate::fit::CommandProbe for HostEnv {
    fn find_commands(&mut self, names: &[String]) -> Option<Vec<bool>> {
        host_env::find_commands(names)
    }
}

fn agent_of(a: types::AgentEnv) -> crate::fit::AgentEnv {
    crate::fit::AgentEnv {
        platform: a.platform,
        capabilities: a.capabilities,
    }
}

fn ctx(c: types::Context) -> Ctx {
    Ctx {
        now: c.now,
        host_timezone: c.host_timezone,
        lang: match c.lang {
            types::Lang::Zh => Lang::Zh,
            types::Lang::En => Lang::En,
        },
        lang_explicit: c.lang_explicit,
    }
}

fn wit_error(e: Error) -> types::Error {
    match e {
        Error::InvalidInput { field, message } => {
            types::Error::InvalidInput(types::FieldError { field, message })
        }
        Error::CorruptDocument { document, message } => {
            types::Error::CorruptDocument(types::DocumentError {
                document: wit_doc(document),
                message,
            })
        }
        Error::Refused {
            command,
            current,
            allowed_from,
            hint,
        } => types::Error::Refused(types::RefusedTransition {
            command,
            current,
            allowed_from,
            hint,
        }),
        Error::Store(message) => types::Error::Store(message),
    }
}

fn reply(result: crate::Result<Value>) -> Result<String, types::Error> {
    result.map(|v| v.to_string()).map_err(wit_error)
}

/// For results written as text (large lists; see `crate::json`).
fn reply_text(result: crate::Result<String>) -> Result<String, types::Error> {
    result.map_err(wit_error)
}

impl wit::Guest for Component {
    fn status(c: types::Context) -> Result<String, types::Error> {
        reply(domain::status(&ctx(c), &mut HostStore))
    }

    fn prompt_daily(c: types::Context, source: wit::PromptSource) -> Result<String, types::Error> {
        let source = match source {
            wit::PromptSource::PostInstall => PromptSource::PostInstall,
            wit::PromptSource::Manual => PromptSource::Manual,
        };
        reply(domain::prompt_daily(&ctx(c), &mut HostStore, source))
    }

    fn enable_daily(c: types::Context, scheduler_available: bool) -> Result<String, types::Error> {
        reply(domain::enable_daily(
            &ctx(c),
            &mut HostStore,
            scheduler_available,
        ))
    }

    fn confirm_daily_enabled(c: types::Context) -> Result<String, types::Error> {
        reply(domain::confirm_daily_enabled(&ctx(c), &mut HostStore))
    }

    fn fail_daily_schedule(c: types::Context, reason: String) -> Result<String, types::Error> {
        reply(domain::fail_daily_schedule(
            &ctx(c),
            &mut HostStore,
            &reason,
        ))
    }

    fn disable_daily(c: types::Context) -> Result<String, types::Error> {
        reply(domain::disable_daily(&ctx(c), &mut HostStore))
    }

    fn unsupported_daily(c: types::Context) -> Result<String, types::Error> {
        reply(domain::unsupported_daily(&ctx(c), &mut HostStore))
    }

    fn daily_gate(c: types::Context, search_capability: bool) -> Result<String, types::Error> {
        reply(domain::daily_gate(
            &ctx(c),
            &mut HostStore,
            search_capability,
        ))
    }

    fn failure_notice(
        c: types::Context,
        action: wit::NoticeAction,
    ) -> Result<String, types::Error> {
        let action = match action {
            wit::NoticeAction::Dismiss => NoticeAction::Dismiss,
            wit::NoticeAction::Restore => NoticeAction::Restore,
        };
        reply(domain::failure_notice(&ctx(c), &mut HostStore, action))
    }

    fn update_check(
        c: types::Context,
        local_version: Option<String>,
        remote_version: String,
    ) -> Result<String, types::Error> {
        reply(domain::update_check(
            &ctx(c),
            &mut HostStore,
            local_version.as_deref(),
            &remote_version,
        ))
    }

    fn update_notice(
        c: types::Context,
        response: wit::UpdateResponse,
    ) -> Result<String, types::Error> {
        let response = match response {
            wit::UpdateResponse::Accept => UpdateResponse::Accept,
            wit::UpdateResponse::Dismiss => UpdateResponse::Dismiss,
        };
        reply(domain::update_notice(&ctx(c), &mut HostStore, response))
    }

    fn feedback(
        c: types::Context,
        action: wit::FeedbackAction,
        skill: wit::SkillRef,
    ) -> Result<String, types::Error> {
        let action = match action {
            wit::FeedbackAction::Shown => FeedbackAction::Shown,
            wit::FeedbackAction::Accept => FeedbackAction::Accept,
            wit::FeedbackAction::Reject => FeedbackAction::Reject,
        };
        let skill = SkillRef {
            skill_id: skill.skill_id,
            name: skill.name,
            url: skill.url,
            categories: skill.categories,
            mode: skill.mode.map(mode_of),
        };
        reply(domain::feedback(&ctx(c), &mut HostStore, action, &skill))
    }
}

impl wit_filter::Guest for Component {
    fn normalize(
        registry: wit_filter::Registry,
        json: String,
        base_url: Option<String>,
    ) -> Result<String, types::Error> {
        use crate::normalize::{Options, Registry as R};
        let registry = match registry {
            wit_filter::Registry::Auto => None,
            wit_filter::Registry::Clawhub => Some(R::Clawhub),
            wit_filter::Registry::Skillssh => Some(R::Skillssh),
            wit_filter::Registry::Smithery => Some(R::Smithery),
            wit_filter::Registry::Glama => Some(R::Glama),
            wit_filter::Registry::Skillhub => Some(R::Skillhub),
            wit_filter::Registry::Github => Some(R::Github),
            wit_filter::Registry::Mcpmarket => Some(R::Mcpmarket),
            wit_filter::Registry::Candidates => Some(R::Candidates),
        };
        reply(
            crate::normalize::normalize(&json, registry, &Options { base_url })
                .map(|n| n.to_json()),
        )
    }

    fn filter(
        c: types::Context,
        mode: types::Mode,
        candidates: String,
        installed: Vec<types::InstalledSkill>,
        agent: types::AgentEnv,
    ) -> Result<String, types::Error> {
        reply_text(crate::filter::run_owned(
            &ctx(c),
            &mut HostStore,
            mode_of(mode),
            candidates,
            &installed_of(installed),
            &agent_of(agent),
        ))
    }

    fn filter_text(
        c: types::Context,
        mode: types::Mode,
        candidates: String,
        installed: Vec<types::InstalledSkill>,
        agent: types::AgentEnv,
        layout: wit_filter::TextLayout,
    ) -> Result<wit_filter::FilteredText, types::Error> {
        let layout = layout_of(layout).map_err(wit_error)?;
        let (kept, pieces) = crate::filter::run_owned_laid_out(
            &ctx(c),
            &mut HostStore,
            mode_of(mode),
            candidates,
            &installed_of(installed),
            &agent_of(agent),
            &layout,
        )
        .map_err(wit_error)?;
        Ok(wit_filter::FilteredText {
            kept: kept as u64,
            pieces,
        })
    }
}

/// The WIT layout, its members' values parsed (`invalid-input` on `layout` for one that is not JSON).
fn layout_of(layout: wit_filter::TextLayout) -> crate::Result<crate::json::Layout> {
    let extra = (layout.extra.into_iter())
        .map(|(key, json)| match serde_json::from_str::<Value>(&json) {
            Ok(value) => Ok((key, value)),
            Err(e) => Err(Error::invalid(
                "layout",
                format!("the value of member {key:?} is not JSON: {e}"),
            )),
        })
        .collect::<crate::Result<Vec<_>>>()?;
    Ok(crate::json::Layout {
        pretty: layout.pretty,
        extra,
        piece: Some(crate::json::TEXT_PIECE_BYTES),
    })
}

fn mode_of(mode: types::Mode) -> crate::filter::Mode {
    match mode {
        types::Mode::Manual => crate::filter::Mode::Manual,
        types::Mode::Daily => crate::filter::Mode::Daily,
    }
}

fn installed_of(installed: Vec<types::InstalledSkill>) -> Vec<crate::filter::InstalledSkill> {
    installed
        .into_iter()
        .map(|s| crate::filter::InstalledSkill {
            name: s.name,
            dir: s.dir,
            source: s.source,
            source_url: s.source_url,
        })
        .collect()
}

impl wit_rank::Guest for Component {
    fn rank(
        c: types::Context,
        mode: types::Mode,
        candidates: String,
        installed: Vec<types::InstalledSkill>,
        request: wit_rank::RankRequest,
    ) -> Result<String, types::Error> {
        let request = crate::rank::Request {
            task: request.task,
            signals: request.signals,
            agent: agent_of(request.agent),
        };
        reply_text(crate::rank::run_owned_with(
            &ctx(c),
            &mut HostStore,
            &mut HostEnv,
            mode_of(mode),
            candidates,
            &installed_of(installed),
            &request,
        ))
    }
}

impl wit_recommend::Guest for Component {
    fn recommend(
        c: types::Context,
        mode: types::Mode,
        candidates: String,
        installed: Vec<types::InstalledSkill>,
        r: wit_recommend::RecommendRequest,
    ) -> Result<String, types::Error> {
        let options = crate::recommend::Options {
            task: r.task,
            signals: r.signals,
            dry_run: r.dry_run,
            remote_version: r.remote_version,
            local_version: r.local_version,
            other_question: r.other_question,
            agent: agent_of(r.agent),
        };
        reply(crate::recommend::run_owned_with(
            &ctx(c),
            &mut HostStore,
            &mut HostEnv,
            mode_of(mode),
            candidates,
            &installed_of(installed),
            &options,
        ))
    }
}

impl wit_render::Guest for Component {
    fn render(c: types::Context, mode: types::Mode, input: String) -> Result<String, types::Error> {
        reply(crate::render::run(&ctx(c), mode_of(mode), &input))
    }
}

fn bundle(b: wit_scan::Bundle) -> crate::scan::Bundle {
    use crate::scan::{BundleFile, BundleNote, EntryKind};
    crate::scan::Bundle {
        name: b.name,
        files: b
            .files
            .into_iter()
            .map(|f| BundleFile {
                path: f.path,
                size: f.size,
                kind: match f.kind {
                    wit_scan::EntryKind::Text => EntryKind::Text,
                    wit_scan::EntryKind::Binary => EntryKind::Binary,
                    wit_scan::EntryKind::Symlink => EntryKind::Symlink,
                    wit_scan::EntryKind::Unreadable => EntryKind::Unreadable,
                },
                content: f.content,
                executable: f.executable,
                magic: f.magic,
                link_target: f.link_target,
                link_escapes: f.link_escapes,
            })
            .collect(),
        notes: b
            .notes
            .into_iter()
            .map(|n| BundleNote {
                path: n.path,
                code: n.code,
                message: n.message,
            })
            .collect(),
    }
}

impl wit_scan::Guest for Component {
    fn scan_candidates(mode: types::Mode, candidates: String) -> Result<String, types::Error> {
        let mode = mode_of(mode);
        reply_text(
            crate::model::parse_candidates(&candidates)
                .map(|items| crate::scan::candidate::scan_candidates_text(items, mode)),
        )
    }

    fn scan_bundle(
        b: wit_scan::Bundle,
        trust: wit_scan::Trust,
        force: bool,
    ) -> Result<String, types::Error> {
        reply(Ok(crate::quality::scan_bundle_report(
            &bundle(b),
            self::trust(trust),
            force,
        )))
    }

    fn validate(b: wit_scan::Bundle, strict: bool, quality: bool) -> Result<String, types::Error> {
        reply(Ok(crate::quality::validate_report(
            &bundle(b),
            strict,
            quality,
        )))
    }
}

fn trust(t: wit_scan::Trust) -> crate::scan::Trust {
    use crate::scan::Trust;
    match t {
        wit_scan::Trust::Builtin => Trust::Builtin,
        wit_scan::Trust::Trusted => Trust::Trusted,
        wit_scan::Trust::Community => Trust::Community,
        wit_scan::Trust::AgentCreated => Trust::AgentCreated,
    }
}

fn target(t: wit_skills::Target) -> crate::ondisk::layout::Target {
    crate::ondisk::layout::Target {
        agent: t.agent,
        scope: t.scope,
        dir: t.dir,
        agents_md: t.agents_md,
        no_agents_md: t.no_agents_md,
        category: t.category,
    }
}

fn roots(r: wit_skills::Roots) -> crate::ondisk::layout::Roots {
    crate::ondisk::layout::Roots {
        home: r.home,
        project: r.project,
        hermes_home: r.hermes_home,
        codex_home: r.codex_home,
    }
}

fn listings(ls: Vec<wit_skills::Listing>) -> Vec<crate::ondisk::judge::Listing> {
    ls.into_iter()
        .map(|l| crate::ondisk::judge::Listing {
            path: l.path,
            entries: l
                .entries
                .into_iter()
                .map(|e| crate::ondisk::judge::Listed {
                    name: e.name,
                    category: e.category,
                    is_dir: e.is_dir,
                    has_skill_md: e.has_skill_md,
                    provenance: e.provenance,
                })
                .collect(),
        })
        .collect()
}

fn facts(f: wit_skills::DiskFacts) -> crate::ondisk::install::Facts {
    crate::ondisk::install::Facts {
        listings: listings(f.listings),
        agents_md: f.agents_md,
    }
}

impl wit_skills::Guest for Component {
    fn parse_coordinate(coordinate: String) -> Result<String, types::Error> {
        reply(crate::ondisk::coordinate::parse(&coordinate).map(|c| serde_json::json!(c)))
    }

    fn resolve_layout(
        t: wit_skills::Target,
        r: wit_skills::Roots,
        all: bool,
    ) -> Result<String, types::Error> {
        reply(crate::ondisk::resolve_layout(&target(t), &roots(r), all))
    }

    fn plan_install(
        c: types::Context,
        request: wit_skills::InstallRequest,
        b: wit_scan::Bundle,
        digests: Vec<(String, String)>,
        f: wit_skills::DiskFacts,
    ) -> Result<String, types::Error> {
        let req = crate::ondisk::install::InstallRequest {
            source: request.source,
            source_kind: request.source_kind,
            archive_sha256: request.archive_sha256,
            coordinate: request.coordinate,
            alias: request.alias,
            skill_id: request.skill_id,
            trust: trust(request.trust),
            force: request.force,
            yes: request.yes,
            replace: request.replace,
            target: target(request.target),
            roots: roots(request.roots),
        };
        reply(crate::ondisk::install::plan_install(
            &ctx(c),
            &req,
            &bundle(b),
            &digests,
            &facts(f),
        ))
    }

    fn plan_uninstall(
        name: String,
        t: wit_skills::Target,
        r: wit_skills::Roots,
        f: wit_skills::DiskFacts,
    ) -> Result<String, types::Error> {
        let req = crate::ondisk::install::UninstallRequest {
            name,
            target: target(t),
            roots: roots(r),
        };
        reply(crate::ondisk::install::plan_uninstall(&req, &facts(f)))
    }

    fn plan_skill_edit(
        c: types::Context,
        name: String,
        action: wit_skills::SkillAction,
        t: wit_skills::Target,
        r: wit_skills::Roots,
        f: wit_skills::SkillFacts,
    ) -> Result<String, types::Error> {
        use crate::ondisk::manage::{Action, EditFacts, EditRequest};
        let action = match action {
            wit_skills::SkillAction::Create(content) => Action::Create { content },
            wit_skills::SkillAction::Edit(content) => Action::Edit { content },
            wit_skills::SkillAction::Patch(p) => Action::Patch {
                old: p.old,
                new: p.new,
                file: p.file,
                replace_all: p.replace_all,
            },
            wit_skills::SkillAction::Delete => Action::Delete,
            wit_skills::SkillAction::WriteFile(w) => Action::WriteFile {
                path: w.path,
                content: w.content,
            },
            wit_skills::SkillAction::RemoveFile(path) => Action::RemoveFile { path },
        };
        let req = EditRequest {
            name,
            action,
            target: target(t),
            roots: roots(r),
        };
        let facts = EditFacts {
            listings: listings(f.listings),
            skill: f.skill.map(|(p, b)| (p, bundle(b))),
            digests: f.digests,
            agents_md: f.agents_md,
        };
        reply(crate::ondisk::manage::plan_edit(&ctx(c), &req, &facts))
    }

    fn audit_skill(
        b: wit_scan::Bundle,
        digests: Vec<(String, String)>,
        provenance: Option<String>,
        t: Option<wit_scan::Trust>,
        path: String,
        agent: String,
    ) -> Result<String, types::Error> {
        reply(crate::ondisk::audit::audit_skill(
            &bundle(b),
            &digests,
            provenance.as_deref(),
            t.map(trust),
            &path,
            &agent,
        ))
    }

    fn apply_patch(
        text: String,
        old: String,
        new: String,
        replace_all: bool,
    ) -> Result<String, types::Error> {
        reply(crate::ondisk::apply_patch(&text, &old, &new, replace_all))
    }

    fn agents_md_update(
        text: Option<String>,
        upsert: Vec<wit_skills::AgentsMdEntry>,
        remove: Vec<String>,
    ) -> Result<String, types::Error> {
        let upsert: Vec<crate::ondisk::agents_md::Entry> = upsert
            .into_iter()
            .map(|e| crate::ondisk::agents_md::Entry {
                name: e.name,
                description: e.description,
                location: e.location,
            })
            .collect();
        reply(crate::ondisk::agents_md_update(
            text.as_deref(),
            &upsert,
            &remove,
        ))
    }
}

impl Guest for Component {
    fn initialize() {
        crate::initialize();
    }
}

export!(Component);
