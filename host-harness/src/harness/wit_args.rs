//! The host's values as the WIT bindings' argument types: one conversion for each, shared by the
//! bindings' `dispatch` and the handed-over calls ([`super::handover`]).

use super::{wit_rank, wit_recommend, wit_types};

pub(super) fn wit_mode(m: &guest::filter::Mode) -> wit_types::Mode {
    match m {
        guest::filter::Mode::Manual => wit_types::Mode::Manual,
        guest::filter::Mode::Daily => wit_types::Mode::Daily,
    }
}

pub(super) fn wit_installed(
    installed: &[guest::filter::InstalledSkill],
) -> Vec<wit_types::InstalledSkill> {
    installed
        .iter()
        .map(|i| wit_types::InstalledSkill {
            name: i.name.clone(),
            dir: i.dir.clone(),
            source: i.source.clone(),
            source_url: i.source_url.clone(),
        })
        .collect()
}

pub(super) fn wit_agent(agent: &guest::fit::AgentEnv) -> wit_types::AgentEnv {
    wit_types::AgentEnv {
        platform: agent.platform.clone(),
        capabilities: agent.capabilities.clone(),
    }
}

pub(super) fn wit_rank_request(request: &crate::RankRequest) -> wit_rank::RankRequest {
    wit_rank::RankRequest {
        task: request.task.clone(),
        signals: request.signals.clone(),
        agent: wit_agent(&request.agent),
    }
}

pub(super) fn wit_recommend_request(
    options: &crate::RecommendOptions,
) -> wit_recommend::RecommendRequest {
    wit_recommend::RecommendRequest {
        task: options.task.clone(),
        signals: options.signals.clone(),
        dry_run: options.dry_run,
        remote_version: options.remote_version.clone(),
        local_version: options.local_version.clone(),
        other_question: options.other_question,
        agent: wit_agent(&options.agent),
    }
}
