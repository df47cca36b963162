//! The tools: each a command of [`crate::commands`] with a description written for a model, its input
//! schema (generated from the command's argument type), an output schema and honest annotations.

use std::sync::OnceLock;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock as Content, JsonObject, Tool,
    ToolAnnotations,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::McpServer;
use crate::commands::{
    AuditArgs, DailyArgs, FeedbackArgs, InstallArgs, LangArg, ManageArgs, NormalizeArgs, Output,
    RecommendArgs, ScanBundleArgs, UpdateAnswer, UpdateCheckArgs, ValidateArgs,
};
use crate::{Error, Lang};

/// `check_update`: ask whether to offer an update, or record the user's answer.
#[derive(Debug, Deserialize, JsonSchema)]
struct CheckUpdate {
    /// The newest published version of skill-recommender (semver), as you looked it up. Needed unless
    /// `answer` is given.
    #[serde(default)]
    remote_version: Option<String>,
    /// The installed version (default: this server's version).
    #[serde(default)]
    local_version: Option<String>,
    /// The user's answer to the update question you showed: accept or dismiss. Records it instead of
    /// checking.
    #[serde(default)]
    answer: Option<UpdateAnswer>,
    /// Language of the notice text: zh or en (default: the server's).
    #[serde(default)]
    lang: Option<LangArg>,
}

/// `recommend_skills` without candidates: what to pass instead.
const NO_CANDIDATES: &str = "no candidates given: pass `candidates` with what your search found — \
{\"candidates\": [{\"skill_id\", \"name\", \"url\", \"description\", \"source\"}, ...]} or a registry's own API \
response as you fetched it — or `sample: true` for the built-in demonstration";

/// A tool: its definition and what runs it (on a blocking thread).
struct Spec {
    tool: Tool,
    run: fn(&McpServer, Value) -> Result<CallToolResult, Error>,
}

fn annotations(
    title: &str,
    read_only: bool,
    destructive: bool,
    idempotent: bool,
) -> ToolAnnotations {
    ToolAnnotations::with_title(title)
        .read_only(read_only)
        .destructive(destructive)
        .idempotent(idempotent)
        // Nothing leaves the machine: the component has no network, the host reads local paths only.
        .open_world(false)
}

/// The input schema of `P`: an object schema with its subschemas inlined (some clients do not follow
/// `$ref`), without `$schema` (MCP assumes JSON Schema 2020-12).
pub(crate) fn input_schema<P: JsonSchema>() -> JsonObject {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    let schema = settings.into_generator().into_root_schema_for::<P>();
    let mut object = match serde_json::to_value(schema) {
        Ok(Value::Object(o)) => o,
        _ => JsonObject::new(),
    };
    object.remove("$schema");
    object.remove("title");
    object
}

fn object(v: Value) -> JsonObject {
    match v {
        Value::Object(o) => o,
        _ => JsonObject::new(),
    }
}

/// The `lang` argument of the tools whose results carry text for the user. It is read before the
/// command's own arguments (which stay one flat struct, so a bad value is named by its field).
fn with_lang(mut schema: JsonObject) -> JsonObject {
    if let Some(Value::Object(props)) = schema.get_mut("properties") {
        props.insert(
            "lang".into(),
            json!({"type": "string", "enum": ["zh", "en"],
                   "description": "Language of the text for the user (card, notices, messages): zh or en. Default: the server's (its --lang, zh unless set)."}),
        );
    }
    schema
}

/// Take `lang` out of the arguments.
fn take_lang(args: &mut Value) -> Result<Option<Lang>, Error> {
    match args.as_object_mut().and_then(|o| o.remove("lang")) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => serde_json::from_value::<LangArg>(v)
            .map(|l| Some(l.into()))
            .map_err(|e| Error::InvalidInput {
                field: "lang".into(),
                message: e.to_string(),
            }),
    }
}

fn tool<P: JsonSchema>(
    name: &'static str,
    description: &'static str,
    output: Value,
    a: ToolAnnotations,
) -> Tool {
    let mut schema = input_schema::<P>();
    if matches!(name, "recommend_skills" | "daily") {
        schema = with_lang(schema);
    }
    let mut tool = Tool::new(name, description, schema);
    tool.title = a.title.clone();
    tool.output_schema = Some(object(output).into());
    tool.annotations = Some(a);
    tool
}

fn specs() -> &'static [Spec] {
    static SPECS: OnceLock<Vec<Spec>> = OnceLock::new();
    SPECS.get_or_init(|| {
        vec![
            Spec {
                tool: tool::<RecommendArgs>(
                    "recommend_skills",
                    "Pick the one agent skill to recommend from candidates you searched for, and get the card to \
show the user. In one sandboxed step it drops duplicates, incomplete, installed, recently shown or declined, \
stale and (daily) over-quota candidates, scans each for security risk, ranks the rest against the user's task \
with a per-factor score breakdown, picks one and renders the card. Pass `candidates` as normalized records \
({\"candidates\": [...]} or an array; fields: skill_id, name, url, source, description, and whatever else you \
know) or as a registry's raw search response exactly as you fetched it (ClawHub, skills.sh, Smithery, Glama, \
SkillHub, GitHub, MCP Market: detected from its shape, or name it with `from`). Give `platform` and \
`capabilities` (your toolsets: terminal, browser, web_search, ...) so skills you cannot run are dropped or \
ranked lower. Show `card` to the user as it is; `pick`, `alternatives`, `dropped` and `blocked` (with reasons) \
explain the decision. A silent result (`silent: true`, `reason`) means show nothing. Records the pick as shown \
unless `dry_run`. `sample: true` instead of candidates is a demonstration (the card says so; nothing recorded).",
                    results::recommend(),
                    annotations("Recommend a skill", false, false, false),
                ),
                run: recommend_skills,
            },
            Spec {
                tool: tool::<ScanBundleArgs>(
                    "scan_skill",
                    "Security-scan a downloaded skill before installing it: a skill folder, a .zip/.skill archive or \
a SKILL.md on this machine. Returns the verdict (safe, caution, dangerous), the install `policy` (allow: go \
ahead; ask: show the findings and install only if the user agrees; block: do not install) and every finding \
with its rule, file, line and evidence. Reads the files, changes nothing.",
                    results::scan_bundle(),
                    annotations("Scan a skill bundle", true, false, true),
                ),
                run: scan_skill,
            },
            Spec {
                tool: tool::<ValidateArgs>(
                    "validate_skill",
                    "Check a skill's SKILL.md and layout against the agentskills.io specification (a folder, \
.zip/.skill archive or SKILL.md on this machine). Returns `valid`, the `errors` and `warnings` (each naming the \
field or file) and the parsed metadata. Use it on a skill you wrote or before publishing one. Changes nothing.",
                    results::validate(),
                    annotations("Validate a skill", true, false, true),
                ),
                run: validate_skill,
            },
            Spec {
                tool: tool::<NormalizeArgs>(
                    "normalize_candidates",
                    "Convert a skill registry's raw JSON response (search, list or detail) into normalized \
candidate records, to inspect or merge results from several registries before recommend_skills (which also \
accepts raw responses directly). Items without an identity are listed under `skipped`, unreadable optional \
fields under `warnings`. Reads no state.",
                    results::normalize(),
                    annotations("Normalize registry results", true, false, true),
                ),
                run: normalize_candidates,
            },
            Spec {
                tool: tool::<FeedbackArgs>(
                    "record_feedback",
                    "Record what happened to a recommended skill: `shown` (you showed it; recommend_skills already \
records its own pick), `accept` (the user installed it) or `reject` (the user declined; it is not recommended \
again for a while). Give the skill_id as recommend_skills returned it, with its name and url.",
                    results::feedback(),
                    annotations("Record feedback", false, false, false),
                ),
                run: record_feedback,
            },
            Spec {
                tool: tool::<DailyArgs>(
                    "daily",
                    "The opt-in daily recommendation lifecycle, one `action` per step: `status` (the state summary), \
`prompt` (you asked the user whether they want a daily recommendation; give `source`), `enable` (the user \
agreed: returns the automation to create — cron schedule, job name, prompt), `confirm` (you created the \
automation), `fail` (creating it failed; give `reason`), `disable` (the user turned it off), `unsupported` (you \
have no scheduler), `gate` (the first step of every daily run: may it run now? set search_capability false \
when you cannot search this run), `failure_notice` (dismiss or restore the failure notice; give `notice`). A \
transition not allowed from the current status is an error whose `hint` says what to do.",
                    results::daily(),
                    annotations("Daily recommendations", false, false, false),
                ),
                run: daily,
            },
            Spec {
                tool: tool::<CheckUpdate>(
                    "check_update",
                    "Decide whether to ask the user to update skill-recommender: give the newest published \
`remote_version` you looked up; `notify: true` comes with the question `text` to ask (then it is not asked \
again for that version). When the user answers, call again with `answer` (accept or dismiss) to record it.",
                    results::check_update(),
                    annotations("Check for an update", false, false, false),
                ),
                run: check_update,
            },
            Spec {
                tool: tool::<InstallArgs>(
                    "install_skill",
                    "Install a skill the user chose, after you downloaded it (a folder, .zip/.skill archive or \
SKILL.md on this machine), where the agent finds it (`agent`: agents, claude-code, codex, hermes, openclaw; \
`scope`: project or user; or `dir`). It validates the skill, scans it with the trust policy, refuses a name \
taken by another skill (`as` to rename, `replace` to replace), copies it atomically with provenance (source, \
version, SHA-256, scan verdict), updates AGENTS.md and records `accept` in history. `status` says what \
happened: installed, unchanged (the same files are there), dry_run, or refused with `refusal.code`: \
blocked (dangerous, or not allowed for its trust: tell the user the findings), needs_confirmation (show the \
findings; call again with `yes: true` only if the user agrees), name_conflict and the other conflicts \
(docs/skills-on-disk.md). Call scan_skill first to show the findings before asking.",
                    results::on_disk(),
                    annotations("Install a skill", false, true, false),
                ),
                run: install_skill,
            },
            Spec {
                tool: tool::<AuditArgs>(
                    "audit_skills",
                    "Re-scan every installed skill (every agent's skill folders, or `agents`/`skills_dirs`) with \
the current rules and compare each with what was installed: `skills` has one result per skill with its \
`level` (ok, attention: changed since install, rated caution or provenance unreadable; dangerous) and \
findings; `summary` counts them. Reads the files, changes nothing.",
                    results::audit(),
                    annotations("Audit installed skills", true, false, true),
                ),
                run: audit_skills,
            },
            Spec {
                tool: tool::<ManageArgs>(
                    "manage_skill",
                    "Write one of your own skills (as Hermes' skill_manage): `action` create or edit (a whole \
SKILL.md in `content`), patch (`old` -> `new` in SKILL.md or `file`), delete, write_file or remove_file \
(`path` under references/, templates/, scripts/ or assets/). Each write is validated and scanned as \
agent-created before it lands: a dangerous result is refused with nothing changed (tell the user what was \
found; do not work around it); a caution result is written and its findings come back as `warnings`.",
                    results::on_disk(),
                    annotations("Write your own skill", false, true, false),
                ),
                run: manage_skill,
            },
        ]
    })
}

/// The tools, as `tools/list` returns them.
pub fn tool_list() -> Vec<Tool> {
    specs().iter().map(|s| s.tool.clone()).collect()
}

/// Run one `tools/call`: unknown tools and every failure are tool errors carrying the CLI's error object.
pub(super) async fn call(server: &McpServer, request: CallToolRequestParams) -> CallToolResult {
    let name = request.name.to_string();
    let Some(spec) = specs().iter().find(|s| s.tool.name == name) else {
        let known: Vec<&str> = specs().iter().map(|s| s.tool.name.as_ref()).collect();
        return error_result(&json!({"error": {
            "code": "unknown_tool",
            "message": format!("there is no tool named {name:?}; the tools are: {}", known.join(", ")),
            "exit_code": 2,
        }}));
    };
    let args = Value::Object(request.arguments.unwrap_or_default());
    let run = spec.run;
    let server = server.clone();
    // Guest calls block (wasmtime, file locks): off the async workers, so a slow call holds up no other.
    match tokio::task::spawn_blocking(move || run(&server, args)).await {
        Ok(Ok(result)) => result,
        Ok(Err(e)) => {
            eprintln!("skill-recommender mcp: {name}: {e}");
            error_result(&e.to_json())
        }
        Err(e) => error_result(
            &Error::Trap {
                message: format!("the host failed while running {name}: {e}"),
                guest_stderr: String::new(),
            }
            .to_json(),
        ),
    }
}

/// A tool error: the `{"error": {...}}` object as text, as the CLI prints it.
fn error_result(error: &Value) -> CallToolResult {
    CallToolResult::error(vec![Content::text(error.to_string())])
}

/// A success: the card first (when there is one, for the user), then the whole result as JSON text, and
/// the same result as structured content.
fn reply(out: Output) -> Result<CallToolResult, Error> {
    let value = out.into_value()?;
    let mut content = Vec::new();
    if let Some(card) = value.get("card").and_then(Value::as_str) {
        content.push(Content::text(card));
    }
    content.push(Content::text(value.to_string()));
    let mut result = CallToolResult::success(content);
    result.structured_content = Some(value);
    Ok(result)
}

/// The arguments as `P`; a mismatch is invalid input naming the argument at fault.
fn parse<P: DeserializeOwned>(args: Value) -> Result<P, Error> {
    serde_path_to_error::deserialize(args).map_err(|e| {
        let path = e.path().to_string();
        Error::InvalidInput {
            field: if path == "." {
                "arguments".into()
            } else {
                path
            },
            message: e.into_inner().to_string(),
        }
    })
}

fn recommend_skills(s: &McpServer, mut args: Value) -> Result<CallToolResult, Error> {
    let lang = take_lang(&mut args)?;
    let p: RecommendArgs = parse(args)?;
    if p.candidates.is_none() && !p.sample {
        // The command layer's message names the CLI's flags; this one names the tool's arguments.
        return Err(Error::InvalidInput {
            field: "candidates".into(),
            message: NO_CANDIDATES.into(),
        });
    }
    reply(s.host.recommend(&s.ctx(lang), p)?)
}

fn scan_skill(s: &McpServer, args: Value) -> Result<CallToolResult, Error> {
    let p: ScanBundleArgs = parse(args)?;
    reply(s.host.scan_bundle(&s.ctx(None), &p)?)
}

fn validate_skill(s: &McpServer, args: Value) -> Result<CallToolResult, Error> {
    let p: ValidateArgs = parse(args)?;
    reply(s.host.validate(&s.ctx(None), &p)?)
}

fn normalize_candidates(s: &McpServer, args: Value) -> Result<CallToolResult, Error> {
    let p: NormalizeArgs = parse(args)?;
    reply(s.host.normalize(&s.ctx(None), p)?)
}

fn record_feedback(s: &McpServer, args: Value) -> Result<CallToolResult, Error> {
    let p: FeedbackArgs = parse(args)?;
    reply(s.host.feedback(&s.ctx(None), p)?)
}

fn daily(s: &McpServer, mut args: Value) -> Result<CallToolResult, Error> {
    let lang = take_lang(&mut args)?;
    let p: DailyArgs = parse(args)?;
    reply(s.host.daily(&s.ctx(lang), &p)?)
}

fn check_update(s: &McpServer, args: Value) -> Result<CallToolResult, Error> {
    let p: CheckUpdate = parse(args)?;
    let ctx = s.ctx(p.lang.map(Into::into));
    match (p.answer, p.remote_version) {
        (Some(answer), _) => reply(s.host.update_notice(&ctx, answer)?),
        (None, Some(remote_version)) => reply(s.host.update_check(
            &ctx,
            UpdateCheckArgs {
                remote_version,
                local_version: p.local_version,
            },
        )?),
        (None, None) => Err(Error::InvalidInput {
            field: "remote_version".into(),
            message: "give the newest published version to check, or `answer` to record the user's answer".into(),
        }),
    }
}

fn install_skill(s: &McpServer, args: Value) -> Result<CallToolResult, Error> {
    let p: InstallArgs = parse(args)?;
    reply(s.host.install(&s.ctx(None), &p)?)
}

fn manage_skill(s: &McpServer, args: Value) -> Result<CallToolResult, Error> {
    let p: ManageArgs = parse(args)?;
    reply(s.host.manage_skill(&s.ctx(None), &p)?)
}

/// `audit_skills`: the catalog engine's lines gathered into one result (`skills` in the order they
/// finished, then `summary` and the `exit_code` the CLI would give).
fn audit_skills(s: &McpServer, args: Value) -> Result<CallToolResult, Error> {
    let p: AuditArgs = parse(args)?;
    let mut skills: Vec<Value> = Vec::new();
    let summary = s.host.audit(&s.ctx(None), &p, |done, _| {
        skills.push(serde_json::from_str(&done.to_json_line()).unwrap_or(Value::Null));
    })?;
    let mut value = summary.to_json();
    value["skills"] = Value::Array(skills);
    value["exit_code"] = json!(summary.exit_code());
    let mut result = CallToolResult::success(vec![Content::text(value.to_string())]);
    result.structured_content = Some(value);
    Ok(result)
}

/// Output schemas: the fields a model relies on, typed; every result may carry more (additional
/// properties are allowed, so a newer component's extra fields never break a client's validation).
mod results {
    use serde_json::{Value, json};

    const STR: &str = "string";

    fn nullable(t: &str) -> Value {
        json!({ "type": [t, "null"] })
    }

    pub fn recommend() -> Value {
        json!({
            "type": "object",
            "properties": {
                "mode": {"type": STR, "enum": ["manual", "daily"]},
                "silent": {"type": "boolean", "description": "true: show nothing (see reason and message)"},
                "reason": {"type": STR},
                "message": nullable(STR),
                "card": {"type": ["string", "null"], "description": "the card to show the user, as it is"},
                "confidence": nullable(STR),
                "pick": {"type": ["object", "null"], "properties": {"skill_id": {"type": STR}, "name": {"type": STR}, "url": {"type": STR}}},
                "alternatives": {"type": "array", "items": {"type": "object"}},
                "dropped": {"type": "array", "items": {"type": "object", "properties": {"skill_id": nullable(STR), "reason": {"type": STR}, "detail": nullable(STR)}}},
                "blocked": {"type": "array", "items": {"type": "object"}},
                "ranked": {"type": "array", "items": {"type": "object"}},
                "recorded": {"type": "boolean"},
                "dry_run": {"type": "boolean"},
                "summary": {"type": "object"},
                "warnings": {"type": "array"},
                "discovery": {"type": "object"}
            },
            "required": ["mode", "silent", "reason"]
        })
    }

    pub fn scan_bundle() -> Value {
        json!({
            "type": "object",
            "properties": {
                "skill": {"type": STR},
                "trust": {"type": STR},
                "verdict": {"type": STR, "description": "safe, caution or dangerous"},
                "policy": {"type": STR, "description": "allow: install; ask: show the findings, install only if the user agrees; block: do not install"},
                "reason": {"type": STR},
                "forced": {"type": "boolean"},
                "findings": {"type": "array", "items": {"type": "object", "properties": {
                    "rule_id": {"type": STR}, "severity": {"type": STR}, "file": {"type": STR},
                    "line": {"type": ["integer", "null"]}, "evidence": {"type": STR}, "description": {"type": STR}}}},
                "stats": {"type": "object"}
            },
            "required": ["verdict", "policy", "findings"]
        })
    }

    pub fn validate() -> Value {
        json!({
            "type": "object",
            "properties": {
                "valid": {"type": "boolean"},
                "strict": {"type": "boolean"},
                "errors": {"type": "array", "items": {"type": "object"}},
                "warnings": {"type": "array", "items": {"type": "object"}},
                "metadata": {"type": "object"}
            },
            "required": ["valid", "errors", "warnings"]
        })
    }

    pub fn normalize() -> Value {
        json!({
            "type": "object",
            "properties": {
                "registry": {"type": STR},
                "candidates": {"type": "array", "items": {"type": "object", "properties": {"skill_id": {"type": STR}}}},
                "skipped": {"type": "array", "items": {"type": "object"}},
                "warnings": {"type": "array", "items": {"type": "object"}},
                "summary": {"type": "object"}
            },
            "required": ["registry", "candidates", "skipped"]
        })
    }

    pub fn feedback() -> Value {
        json!({
            "type": "object",
            "properties": {
                "action": {"type": STR},
                "skill_id": {"type": STR},
                "changed": {"type": "boolean"},
                "refreshed": {"type": "boolean"},
                "record": {"type": "object"},
                "history_count": {"type": "integer"}
            },
            "required": ["action", "skill_id"]
        })
    }

    pub fn daily() -> Value {
        json!({
            "type": "object",
            "description": "status: the state summary (daily_rec_status, counts, state_dir, ...); gate: run, reason, notice; a transition: command, previous, status, changed, message (enable adds the automation: cron_job_name, cron_schedule, cron_prompt, next_step)",
            "properties": {
                "daily_rec_status": {"type": STR},
                "status": {"type": STR},
                "previous": {"type": STR},
                "changed": {"type": "boolean"},
                "message": nullable(STR),
                "run": {"type": "boolean"},
                "reason": {"type": STR},
                "notice": nullable(STR),
                "cron_job_name": {"type": STR},
                "cron_schedule": {"type": STR},
                "cron_prompt": {"type": STR},
                "next_step": {"type": STR},
                "failure_notice_status": {"type": STR},
                "state_dir": {"type": STR}
            }
        })
    }

    /// install_skill and manage_skill: what was (or would be) done on disk.
    pub fn on_disk() -> Value {
        json!({
            "type": "object",
            "properties": {
                "status": {"type": STR, "description": "what happened: installed, unchanged, dry_run, refused (see refusal), written, removed, ..."},
                "refusal": {"type": ["object", "null"], "description": "why it was refused", "properties": {
                    "code": {"type": STR, "description": "blocked, needs_confirmation, name_conflict, ..."},
                    "message": {"type": STR},
                    "details": {"type": "object"}}},
                "name": {"type": STR},
                "path": {"type": STR},
                "scan": {"type": "object", "description": "verdict, policy and findings of the scan"},
                "warnings": {"type": "array"},
                "message": nullable(STR)
            },
            "required": ["status"]
        })
    }

    pub fn audit() -> Value {
        json!({
            "type": "object",
            "properties": {
                "skills": {"type": "array", "items": {"type": "object", "properties": {
                    "path": {"type": STR}, "level": {"type": STR}, "verdict": {"type": STR}}}},
                "summary": {"type": "object"},
                "exit_code": {"type": "integer", "description": "0 all ok, 9 attention, 8 dangerous (as the CLI)"}
            },
            "required": ["skills", "summary"]
        })
    }

    pub fn check_update() -> Value {
        json!({
            "type": "object",
            "properties": {
                "notify": {"type": "boolean"},
                "reason": {"type": STR},
                "text": nullable(STR),
                "local_version": {"type": STR},
                "remote_version": {"type": STR},
                "update_notice_status": {"type": STR},
                "changed": {"type": "boolean"}
            },
            "required": ["update_notice_status"]
        })
    }
}
