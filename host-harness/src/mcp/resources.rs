//! Resources: the user's state summary and the protocol text, so an MCP-only agent can read the rules.

use rmcp::ErrorData;
use rmcp::model::{ReadResourceResult, Resource, ResourceContents};

use super::McpServer;

/// The state summary (what `daily` with action `status` returns).
pub const STATE_URI: &str = "skill-recommender://state";
/// The agent-facing protocol (SKILL.md).
pub const PROTOCOL_URI: &str = "skill-recommender://protocol";

/// SKILL.md of this build: the rules an agent follows when it recommends skills.
const SKILL_MD: &str = include_str!("../../../SKILL.md");

pub fn list() -> Vec<Resource> {
    vec![
        Resource::new(STATE_URI, "state")
            .with_title("Your skill-recommender state")
            .with_description(
                "The user's state summary as JSON: daily recommendation status, notices, counts of shown, \
accepted and declined skills, today's date in the user's zone, and where the state files live (shared with \
the skill-recommender CLI).",
            )
            .with_mime_type("application/json"),
        Resource::new(PROTOCOL_URI, "protocol")
            .with_title("The skill-recommender protocol (SKILL.md)")
            .with_description(
                "How to discover, vet and recommend agent skills: when to search, what to pass to the tools, \
how to show the card, the daily opt-in flow, feedback and install safety.",
            )
            .with_mime_type("text/markdown")
            .with_size(SKILL_MD.len() as u64),
    ]
}

pub async fn read(server: &McpServer, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let (text, mime) = match uri {
        PROTOCOL_URI => (SKILL_MD.to_owned(), "text/markdown"),
        STATE_URI => {
            let server = server.clone();
            let status = tokio::task::spawn_blocking(move || {
                server
                    .host
                    .status(&server.ctx(None))
                    .and_then(|out| out.to_json_text(false))
            })
            .await
            .map_err(|e| {
                ErrorData::internal_error(format!("reading the state failed: {e}"), None)
            })?;
            match status {
                Ok(text) => (text, "application/json"),
                // The state could not be read (corrupt file, lock): the same error object as the CLI's.
                Err(e) => {
                    return Err(ErrorData::internal_error(e.to_string(), Some(e.to_json())));
                }
            }
        }
        other => {
            return Err(ErrorData::resource_not_found(
                format!("no resource {other:?}; the resources are {STATE_URI} and {PROTOCOL_URI}"),
                None,
            ));
        }
    };
    Ok(ReadResourceResult::new(vec![
        ResourceContents::TextResourceContents {
            uri: uri.to_owned(),
            mime_type: Some(mime.to_owned()),
            text,
            meta: None,
        },
    ]))
}
