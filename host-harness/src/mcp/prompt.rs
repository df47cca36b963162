//! The `recommend` prompt: a client offers it as a slash command that starts the protocol's manual flow.

use rmcp::ErrorData;
use rmcp::model::{
    GetPromptRequestParams, GetPromptResult, Prompt, PromptArgument, PromptMessage, Role,
};

pub const NAME: &str = "recommend";

pub fn list() -> Vec<Prompt> {
    vec![Prompt::new(
        NAME,
        Some("Find, vet and recommend one agent skill for a task."),
        Some(vec![
            PromptArgument::new("task")
                .with_description("What you want to get done, in your own words.")
                .with_required(true),
        ]),
    )]
}

pub fn get(request: &GetPromptRequestParams) -> Result<GetPromptResult, ErrorData> {
    if request.name != NAME {
        return Err(ErrorData::invalid_params(
            format!("no prompt named {:?}; the prompt is {NAME:?}", request.name),
            None,
        ));
    }
    let task = request
        .arguments
        .as_ref()
        .and_then(|a| a.get("task"))
        .and_then(|v| v.as_str())
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| ErrorData::invalid_params("the recommend prompt needs `task`", None))?;
    let text = format!(
        "Recommend one agent skill for this task: {task}\n\n\
Follow the skill-recommender protocol (resource skill-recommender://protocol):\n\
1. Search the skill registries you can reach (ClawHub, skills.sh, Smithery, Glama, SkillHub, GitHub, MCP \
Market) for skills that fit the task.\n\
2. Call the recommend_skills tool with mode \"manual\", the task in the user's words, and the candidates: \
the registries' raw JSON responses or normalized records.\n\
3. Show the returned `card` to the user exactly as it is. If the result is silent, say briefly that nothing \
suitable was found and why (`reason`).\n\
4. If the user wants it: download it, run scan_skill on the folder and follow its `policy` (allow, ask the user, \
block), install it, then call record_feedback with action \"accept\"; if they decline, action \"reject\"."
    );
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(format!("Recommend a skill for: {task}")),
    )
}
