//! Lifecycle commands: the state summary, the daily opt-in state machine, feedback, the update notice.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::schema::yes;
use super::{Host, Output};
use crate::{
    Command, Ctx, Document, Error, FeedbackAction, NoticeAction, PromptSource, SkillRef,
    StateStore, UpdateResponse,
};

/// One step of the daily opt-in lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DailyAction {
    /// The state summary (never writes).
    Status,
    /// The daily question was asked (`source` says where).
    Prompt,
    /// The user agreed: → pending_schedule; returns the automation to create.
    Enable,
    /// The automation was created: pending_schedule → enabled.
    Confirm,
    /// Creating the automation failed (`reason`): pending_schedule → prompted.
    Fail,
    /// The user turned daily recommendations off.
    Disable,
    /// The agent has no scheduler.
    Unsupported,
    /// First step of every daily run: may it run now?
    Gate,
    /// Dismiss or restore the daily failure notice (`notice`).
    #[serde(alias = "failure-notice")]
    FailureNotice,
}

/// Where the daily question was asked.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
pub enum PromptSourceArg {
    #[serde(rename = "post_install", alias = "post-install")]
    #[value(name = "post_install", alias = "post-install")]
    PostInstall,
    #[serde(rename = "manual")]
    Manual,
}

/// The user's answer to the daily failure notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum NoticeAnswer {
    /// Stop reminding.
    Dismiss,
    /// Remind again next time.
    Restore,
}

/// The user's answer to the update question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum UpdateAnswer {
    /// The user wants the update.
    Accept,
    /// Not now; not asked again for this version.
    Dismiss,
}

/// A feedback event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FeedbackKind {
    /// The skill was shown to the user.
    Shown,
    /// The user accepted (installed) it.
    Accept,
    /// The user declined it.
    Reject,
}

/// The daily lifecycle in one command: an `action` and the one argument it takes, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DailyArgs {
    pub action: DailyAction,
    /// For `prompt`: where the question was asked (post_install or manual).
    #[serde(default)]
    pub source: Option<PromptSourceArg>,
    /// For `enable`: the agent has a scheduler now (needed to leave `unsupported`).
    #[serde(default)]
    pub scheduler_available: bool,
    /// For `fail`: why creating the automation failed, e.g. schedule_create_failed.
    #[serde(default)]
    pub reason: Option<String>,
    /// For `gate`: whether the agent can search or browse this run (false sends the failure notice once).
    #[serde(default = "yes")]
    pub search_capability: bool,
    /// For `failure_notice`: dismiss or restore.
    #[serde(default)]
    pub notice: Option<NoticeAnswer>,
}

impl DailyArgs {
    /// Just the action (its argument at its default).
    pub fn new(action: DailyAction) -> DailyArgs {
        DailyArgs {
            action,
            source: None,
            scheduler_available: false,
            reason: None,
            search_capability: true,
            notice: None,
        }
    }

    /// The guest command (`None` for `status`, which the host completes itself).
    pub fn command(&self) -> Result<Option<Command>, Error> {
        let missing = |field: &str, what: &str| Error::InvalidInput {
            field: field.into(),
            message: format!("the {} action needs {field}: {what}", json!(self.action)),
        };
        Ok(Some(match self.action {
            DailyAction::Status => return Ok(None),
            DailyAction::Prompt => Command::PromptDaily {
                source: match self
                    .source
                    .ok_or_else(|| missing("source", "post_install or manual"))?
                {
                    PromptSourceArg::PostInstall => PromptSource::PostInstall,
                    PromptSourceArg::Manual => PromptSource::Manual,
                },
            },
            DailyAction::Enable => Command::EnableDaily {
                scheduler_available: self.scheduler_available,
            },
            DailyAction::Confirm => Command::ConfirmDailyEnabled,
            DailyAction::Fail => Command::FailDailySchedule {
                reason: self
                    .reason
                    .clone()
                    .ok_or_else(|| missing("reason", "why the automation could not be created"))?,
            },
            DailyAction::Disable => Command::DisableDaily,
            DailyAction::Unsupported => Command::UnsupportedDaily,
            DailyAction::Gate => Command::DailyGate {
                search_capability: self.search_capability,
            },
            DailyAction::FailureNotice => Command::FailureNotice {
                action: match self
                    .notice
                    .ok_or_else(|| missing("notice", "dismiss or restore"))?
                {
                    NoticeAnswer::Dismiss => NoticeAction::Dismiss,
                    NoticeAnswer::Restore => NoticeAction::Restore,
                },
            },
        }))
    }
}

/// `shown`, `accept`, `reject`: one feedback event about a skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FeedbackArgs {
    pub action: FeedbackKind,
    /// The skill's stable id as shown (source:name-lower, e.g. clawhub:pdf-tables).
    pub skill_id: String,
    /// Its display name.
    #[serde(default)]
    pub skill_name: Option<String>,
    /// Its page (http or https).
    #[serde(default)]
    pub skill_url: Option<String>,
    /// Its categories.
    #[serde(default)]
    pub categories: Vec<String>,
    /// For `shown`: the flow that showed it (`daily` uses up the day's push; without it the record
    /// counts as daily, as the original's records do).
    #[serde(default)]
    pub mode: Option<super::ModeArg>,
}

impl FeedbackArgs {
    /// An event about `skill_id` with no other detail.
    pub fn new(action: FeedbackKind, skill_id: impl Into<String>) -> FeedbackArgs {
        FeedbackArgs {
            action,
            skill_id: skill_id.into(),
            skill_name: None,
            skill_url: None,
            categories: Vec::new(),
            mode: None,
        }
    }
}

/// `update-check`: should the user be asked to update?
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UpdateCheckArgs {
    /// The newest published version (semver).
    pub remote_version: String,
    /// The installed version (default: this component's version).
    #[serde(default)]
    pub local_version: Option<String>,
}

impl Host {
    /// One stateful lifecycle call: one transaction on the state directory.
    fn lifecycle(&self, ctx: &Ctx, command: Command) -> Result<Output, Error> {
        let (store, _, _) = self.state_store()?;
        let text = self.harness.run_text_owned(&store, ctx, command)?;
        self.note_migrations(&store);
        Ok(Output::from_text(text))
    }

    /// `status`: the state summary and where the state lives. Never writes.
    pub fn status(&self, ctx: &Ctx) -> Result<Output, Error> {
        self.status_with(ctx, false)
    }

    /// `status --verbose`: also the host's internals — the compiled-component cache, pre-initialization,
    /// the instance pool, where the state directory came from and the component's imports.
    pub fn status_verbose(&self, ctx: &Ctx) -> Result<Output, Error> {
        self.status_with(ctx, true)
    }

    fn status_with(&self, ctx: &Ctx, verbose: bool) -> Result<Output, Error> {
        let (store, dir, source) = self.state_store()?;
        let text = self.harness.run_text_owned(&store, ctx, Command::Status)?;
        self.note_migrations(&store);
        let h = &self.harness;
        let mut paths = json!({
            "state": store.location(Document::State),
            "history": store.location(Document::History),
        });
        let out = Output::from_text(text).with("state_dir", json!(dir));
        if !verbose {
            return Ok(out.with("paths", paths));
        }
        let mut cache = h.cache_outcome().to_json();
        cache["preinit"] = json!(h.preinit().describe());
        cache["instance_pool"] = json!(h.instance_pool().describe());
        paths["cache"] = cache;
        // Where things live (differs per machine and run) apart from what the host is (the same in
        // every host of this component): hosts compare `status` minus `state_dir` and `paths`.
        Ok(out.with("paths", paths).with(
            "host",
            json!({
                "state_dir_source": source.as_str(),
                "component_imports": h.imports(),
            }),
        ))
    }

    /// The daily lifecycle: `status` or one transition.
    pub fn daily(&self, ctx: &Ctx, args: &DailyArgs) -> Result<Output, Error> {
        match args.command()? {
            None => self.status(ctx),
            Some(command) => self.lifecycle(ctx, command),
        }
    }

    /// Record a feedback event.
    pub fn feedback(&self, ctx: &Ctx, args: FeedbackArgs) -> Result<Output, Error> {
        let action = match args.action {
            FeedbackKind::Shown => FeedbackAction::Shown,
            FeedbackKind::Accept => FeedbackAction::Accept,
            FeedbackKind::Reject => FeedbackAction::Reject,
        };
        let skill = SkillRef {
            skill_id: args.skill_id,
            name: args.skill_name,
            url: args.skill_url,
            categories: args.categories,
            mode: args.mode.map(Into::into),
        };
        self.lifecycle(ctx, Command::Feedback { action, skill })
    }

    /// `update-check`: the notice decision (marks it shown when it notifies).
    pub fn update_check(&self, ctx: &Ctx, args: UpdateCheckArgs) -> Result<Output, Error> {
        self.lifecycle(
            ctx,
            Command::UpdateCheck {
                local_version: args.local_version,
                remote_version: args.remote_version,
            },
        )
    }

    /// `update-notice`: record the user's answer to the update question.
    pub fn update_notice(&self, ctx: &Ctx, answer: UpdateAnswer) -> Result<Output, Error> {
        let response = match answer {
            UpdateAnswer::Accept => UpdateResponse::Accept,
            UpdateAnswer::Dismiss => UpdateResponse::Dismiss,
        };
        self.lifecycle(ctx, Command::UpdateNotice { response })
    }
}
