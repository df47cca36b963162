//! `skill-recommender mcp`: the command layer served over the Model Context Protocol (stdio, the official
//! Rust SDK `rmcp`).
//!
//! One long-lived process with a warm harness (compiled once, instance pool on), so every tool call
//! costs one guest call. Each tool call is one command of [`crate::commands`]: the same arguments,
//! guest call, result and errors as the CLI, run on a blocking thread so a slow call never holds up
//! another; state writes are serialized by the state directory's lock exactly as for CLI processes.
//! stdout carries only protocol messages; notes and logs go to stderr.

mod prompt;
mod resources;
mod tools;

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse,
    Implementation, InitializeResult, ListPromptsResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse,
    ServerCapabilities,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use crate::commands::Host;
use crate::{CONTRACT_VERSION, Ctx, Lang};

pub use tools::tool_list;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct McpOptions {
    /// Language of user-facing text when a call does not choose one (`--lang`); `None`: the state's
    /// language, else the locale's, exactly as for a CLI command.
    pub lang: Option<Lang>,
    /// A fixed `now` for every call (tests and replays); `None` reads the system clock per call.
    pub now: Option<String>,
    /// The host's time zone for every call; `None` asks the system.
    pub timezone: Option<String>,
    /// Longest JSON-RPC line read from the client; longer lines are dropped (and logged), since no
    /// request id can be answered without reading them. Inputs within it but over the harness's
    /// input cap get a tool error naming the argument.
    pub max_line_bytes: usize,
}

/// What the model is told at initialization.
const INSTRUCTIONS: &str = "\
skill-recommender makes the deterministic decisions of the skill-recommender protocol inside a sandbox: \
which searched skills survive (dedup, completeness, installed, cooldowns, daily quota), how risky each is, \
which one to recommend and the card to show. You search registries (ClawHub, skills.sh, Smithery, Glama, \
SkillHub, GitHub, MCP Market) and talk to the user; pass what you found to recommend_skills (the registry's \
raw JSON response is accepted as is), show its `card` to the user, then call record_feedback with accept or \
reject when the user answers. To install the skill the user chose, download it and call install_skill: it \
scans, refuses what is dangerous, asks (needs_confirmation) before what is risky, and records the accept; \
audit_skills re-checks everything installed. Write your own skills through manage_skill, never directly. The \
daily opt-in lifecycle is the `daily` tool. Read the \
resource skill-recommender://protocol for the full protocol. State is shared with the skill-recommender CLI.";

/// The MCP server: a [`Host`] and the per-call context rules.
#[derive(Clone)]
pub struct McpServer {
    host: Host,
    options: Arc<McpOptions>,
}

impl McpServer {
    pub fn new(host: Host, options: McpOptions) -> McpServer {
        McpServer {
            host,
            options: Arc::new(options),
        }
    }

    /// The context for one call: now (fixed or the clock), the zone, the call's language, else the
    /// server's `--lang`, else the state's or the locale's (as for a CLI command).
    fn ctx(&self, lang: Option<Lang>) -> Ctx {
        let lang = lang.or(self.options.lang);
        let mut ctx = crate::user_context(lang, |k| std::env::var_os(k));
        if let Some(now) = &self.options.now {
            ctx.now = now.clone();
        }
        if let Some(zone) = &self.options.timezone {
            ctx.host_timezone = Some(zone.clone());
        }
        ctx
    }

    /// Serve on this process's stdin and stdout until the client closes them.
    pub fn serve_stdio(self) -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_name("skill-recommender-mcp")
            .build()?;
        runtime.block_on(async move {
            let (read, write) = rmcp::transport::io::stdio_pipes();
            let transport = rmcp::transport::async_rw::AsyncRwTransport::new_server(read, write)
                .with_max_line_length(self.options.max_line_bytes);
            let service = self.serve(transport).await.map_err(|e| {
                std::io::Error::other(format!("the MCP session failed to start: {e}"))
            })?;
            service.waiting().await.map(|_| ()).map_err(|e| {
                std::io::Error::other(format!("the MCP session ended abnormally: {e}"))
            })
        })
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> InitializeResult {
        let mut info = InitializeResult::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
        .with_instructions(INSTRUCTIONS);
        info.server_info = Implementation::new("skill-recommender", CONTRACT_VERSION);
        info.protocol_version = ProtocolVersion::LATEST_WITH_INITIALIZE;
        info
    }

    /// Every revision up to the newest one with an `initialize` handshake: stdio sessions here are
    /// negotiated by `initialize`, as the specification describes; an older client gets its own version.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(
            &ProtocolVersion::LATEST_WITH_INITIALIZE,
        ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tool_list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(tools::call(self, request).await.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::list()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        resources::read(self, &request.uri).await.map(Into::into)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(prompt::list()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        prompt::get(&request).map(Into::into)
    }
}
