//! The persisted documents, in the original's format (`data/state.json`, `data/history.json`).
//!
//! Loading shallow-merges the defaults under what the file holds, as the original does; keys this
//! component does not know are kept (in `extra`) and written back. Unlike the original, a document that
//! is not valid JSON, not an object, or has a field of the wrong type is an error naming the document and
//! the field — it is never replaced by defaults, which would silently turn a user's `enabled` into `unset`.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::store::{Document, DocumentStore};

/// `daily_rec_status`: the daily opt-in state machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DailyStatus {
    /// Never asked (also: missing, `null` or empty in the file).
    #[default]
    Unset,
    /// Asked once; do not ask again unless the user brings it up.
    Prompted,
    /// The user agreed; the automation is not yet confirmed created.
    PendingSchedule,
    /// The automation exists; the daily flow runs.
    Enabled,
    /// The user turned it off.
    Disabled,
    /// The agent has no scheduler.
    Unsupported,
}

impl DailyStatus {
    pub const ALL: [DailyStatus; 6] = [
        DailyStatus::Unset,
        DailyStatus::Prompted,
        DailyStatus::PendingSchedule,
        DailyStatus::Enabled,
        DailyStatus::Disabled,
        DailyStatus::Unsupported,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DailyStatus::Unset => "unset",
            DailyStatus::Prompted => "prompted",
            DailyStatus::PendingSchedule => "pending_schedule",
            DailyStatus::Enabled => "enabled",
            DailyStatus::Disabled => "disabled",
            DailyStatus::Unsupported => "unsupported",
        }
    }
}

/// Declares a string-valued status enum: its wire names, the name for `null`/empty, and serde impls that
/// reject unknown values with the list of known ones.
macro_rules! wire_enum {
    ($ty:ident, $what:literal, $($variant:ident => $name:literal),+ $(,)?) => {
        impl $ty {
            /// Every value, in wire order.
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            pub fn parse(text: &str) -> Option<Self> {
                match text {
                    $($name => Some($ty::$variant),)+
                    _ => None,
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(match self { $($ty::$variant => $name,)+ })
            }
        }

        impl Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                let text: Option<String> = Option::deserialize(d)?;
                match text.as_deref().map(str::trim) {
                    None | Some("") => Ok($ty::default()),
                    Some(t) => $ty::parse(t).ok_or_else(|| {
                        serde::de::Error::custom(format!(
                            "unknown {} {t:?} (known: {})",
                            $what,
                            $ty::NAMES.join(", ")
                        ))
                    }),
                }
            }
        }
    };
}

wire_enum!(DailyStatus, "daily_rec_status",
    Unset => "unset", Prompted => "prompted", PendingSchedule => "pending_schedule",
    Enabled => "enabled", Disabled => "disabled", Unsupported => "unsupported");

/// `daily_failure_notice_status`: whether the "daily could not search" notice was shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NoticeStatus {
    #[default]
    Unset,
    Shown,
    Dismissed,
    Resolved,
}
wire_enum!(NoticeStatus, "daily_failure_notice_status",
    Unset => "unset", Shown => "shown", Dismissed => "dismissed", Resolved => "resolved");

/// `auto_update_status`: may the agent check for updates without asking?
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AutoUpdate {
    #[default]
    Ask,
    Disabled,
    Unsupported,
}
wire_enum!(AutoUpdate, "auto_update_status",
    Ask => "ask", Disabled => "disabled", Unsupported => "unsupported");

/// `update_notice_status`: what became of the last update question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UpdateNotice {
    #[default]
    Unset,
    Shown,
    Dismissed,
    Accepted,
}
wire_enum!(UpdateNotice, "update_notice_status",
    Unset => "unset", Shown => "shown", Dismissed => "dismissed", Accepted => "accepted");

/// `null` reads as the default (the original writes `null` for several empty fields).
fn null_default<'de, D, T>(d: D) -> std::result::Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

fn default_user_id() -> String {
    "local-user".into()
}
fn default_push_time() -> Option<String> {
    Some("10:00".into())
}
fn default_profile_version() -> Value {
    Value::from(3)
}
fn default_scenario_memory() -> Value {
    serde_json::json!({"signals": [], "last_updated_at": null})
}
fn default_daily_rotation() -> Value {
    serde_json::json!({"last_theme": null, "last_run_at": null})
}
fn default_diversity_state() -> Value {
    serde_json::json!({
        "explore_counter": 0,
        "category_fatigue": {},
        "recent_boosted_category": null,
        "boost_expires": null
    })
}
fn default_empty_list() -> Value {
    Value::Array(Vec::new())
}

/// One entry of `last_actions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LastAction {
    pub skill_id: String,
    /// `accept` or `reject`.
    pub action: String,
    pub date: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Per-category counters in `accepted_categories`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CategoryCounts {
    #[serde(default)]
    pub accepted: u64,
    #[serde(default)]
    pub shown: u64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// `state.json`. Field order is the original's, so diffs of a migrated file stay small.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    #[serde(default = "default_user_id")]
    pub user_id: String,
    #[serde(default)]
    pub daily_rec_status: DailyStatus,
    #[serde(default)]
    pub daily_rec_prompted_at: Option<String>,
    #[serde(default)]
    pub daily_rec_prompt_source: Option<String>,
    #[serde(default)]
    pub daily_rec_unsupported_at: Option<String>,
    #[serde(default)]
    pub daily_schedule_pending_at: Option<String>,
    #[serde(default)]
    pub daily_schedule_confirmed_at: Option<String>,
    #[serde(default)]
    pub daily_schedule_failed_at: Option<String>,
    #[serde(default)]
    pub daily_schedule_failure_reason: Option<String>,
    #[serde(default)]
    pub daily_failure_notice_status: NoticeStatus,
    #[serde(default)]
    pub daily_failure_notice_reason: Option<String>,
    #[serde(default)]
    pub daily_failure_notice_last_shown_at: Option<String>,
    #[serde(default)]
    pub auto_update_status: AutoUpdate,
    #[serde(default)]
    pub last_update_check_at: Option<String>,
    #[serde(default)]
    pub last_seen_remote_version: Option<String>,
    #[serde(default)]
    pub last_update_notice_at: Option<String>,
    #[serde(default)]
    pub update_notice_status: UpdateNotice,
    #[serde(default = "default_push_time")]
    pub push_time_local: Option<String>,
    #[serde(default)]
    pub timezone: Option<String>,
    /// The user's language (`zh` or `en`) for cards and notices when a call does not choose one:
    /// saved by `recommend` when the agent passes a language, read before the host's locale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    #[serde(default = "default_profile_version")]
    pub profile_version: Value,
    #[serde(default, deserialize_with = "null_default")]
    pub accepted_skill_ids: Vec<String>,
    #[serde(default, deserialize_with = "null_default")]
    pub installed_skill_ids: Vec<String>,
    #[serde(default, deserialize_with = "null_default")]
    pub rejected_skill_ids: Vec<String>,
    #[serde(default, deserialize_with = "null_default")]
    pub last_actions: Vec<LastAction>,
    #[serde(default, deserialize_with = "null_default")]
    pub accepted_categories: BTreeMap<String, CategoryCounts>,
    /// Agent-maintained; kept as is.
    #[serde(default = "default_scenario_memory")]
    pub scenario_memory: Value,
    /// Agent-maintained; kept as is.
    #[serde(default = "default_daily_rotation")]
    pub daily_rotation: Value,
    /// Agent-maintained; kept as is.
    #[serde(default = "default_diversity_state")]
    pub diversity_state: Value,
    #[serde(default = "default_empty_list", rename = "_installed_skills_meta")]
    pub installed_skills_meta: Value,
    /// Keys this component does not know: preserved on write.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Default for State {
    fn default() -> Self {
        parse_object(Document::State, "{}").expect("an empty object always parses")
    }
}

/// One entry of `history.json`'s `recommendations`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryRecord {
    /// When it was shown (or, for an answer with no shown record, answered).
    #[serde(default)]
    pub date: String,
    pub skill_id: String,
    #[serde(default, deserialize_with = "null_default")]
    pub name: String,
    #[serde(default, deserialize_with = "null_default")]
    pub url: String,
    #[serde(default, deserialize_with = "null_default")]
    pub categories: Vec<String>,
    /// `shown`, `accepted` or `rejected`.
    #[serde(default)]
    pub user_action: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub responded_at: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl HistoryRecord {
    /// The flow that produced the record (`mode`: `daily` or `manual`), if it says.
    pub fn mode(&self) -> Option<&str> {
        self.extra.get("mode").and_then(Value::as_str)
    }

    /// Whether the record uses up its day's daily push: a `daily` record, or one that does not say
    /// (records written by the original or by a `shown` without a mode), so old state stays quiet.
    pub fn is_daily_push(&self) -> bool {
        self.mode().is_none_or(|m| m == "daily")
    }
}

/// `history.json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct History {
    #[serde(default, deserialize_with = "null_default")]
    pub recommendations: Vec<HistoryRecord>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Parse a document, naming the field at fault on error.
fn parse_object<T: DeserializeOwned>(doc: Document, text: &str) -> Result<T> {
    let corrupt = |message: String| Error::CorruptDocument {
        document: doc,
        message,
    };
    // First as a plain value, so "not JSON" and "not an object" get their own clear messages.
    let value: Value =
        serde_json::from_str(text).map_err(|e| corrupt(format!("not valid JSON ({e})")))?;
    if !value.is_object() {
        let kind = match value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => unreachable!(),
        };
        return Err(corrupt(format!(
            "the top level is {kind}, not a JSON object"
        )));
    }
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        corrupt(format!("field `{path}`: {}", e.into_inner()))
    })
}

fn to_text<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("documents always serialize");
    text.push('\n');
    text
}

/// Both documents of a call, loaded once, saved only if they changed.
#[derive(Debug, Clone)]
pub struct Documents {
    pub state: State,
    pub history: History,
    state_before: Option<String>,
    history_before: Option<String>,
}

impl Documents {
    /// Load both documents (absent → defaults; blank file → defaults, as the original treats empty files).
    pub fn load(store: &mut dyn DocumentStore) -> Result<Documents> {
        let state_text = store.load(Document::State)?;
        let history_text = store.load(Document::History)?;
        let state = match state_text.as_deref() {
            Some(t) if !t.trim().is_empty() => parse_object(Document::State, t)?,
            _ => State::default(),
        };
        let history = match history_text.as_deref() {
            Some(t) if !t.trim().is_empty() => parse_object(Document::History, t)?,
            _ => History::default(),
        };
        Ok(Documents {
            state_before: Some(to_text(&state)),
            history_before: Some(to_text(&history)),
            state,
            history,
        })
    }

    /// Stage whichever documents changed: history first, so a crash between the two host writes loses
    /// a counter, never a record.
    pub fn save(self, store: &mut dyn DocumentStore) -> Result<bool> {
        let mut saved = false;
        let history = to_text(&self.history);
        if self.history_before.as_deref() != Some(history.as_str()) {
            store.save(Document::History, history)?;
            saved = true;
        }
        let state = to_text(&self.state);
        if self.state_before.as_deref() != Some(state.as_str()) {
            store.save(Document::State, state)?;
            saved = true;
        }
        Ok(saved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    const ORIGINAL_STATE: &str = include_str!("../../data/state.json");

    #[test]
    fn defaults_equal_the_original_template() {
        let template: Value = serde_json::from_str(ORIGINAL_STATE).unwrap();
        let ours = serde_json::to_value(State::default()).unwrap();
        assert_eq!(ours, template);
    }

    #[test]
    fn unknown_keys_survive_a_round_trip() {
        let text = r#"{"daily_rec_status":"enabled","x_custom":{"kept":1},
            "last_actions":[{"skill_id":"a","action":"accept","date":"2026-01-01","why":"liked"}]}"#;
        let mut store = MemoryStore::with(Some(text), None);
        let mut docs = Documents::load(&mut store).unwrap();
        docs.state.user_id = "me".into();
        docs.save(&mut store).unwrap();
        let saved: Value = serde_json::from_str(store.state.as_deref().unwrap()).unwrap();
        assert_eq!(saved["x_custom"], serde_json::json!({"kept": 1}));
        assert_eq!(saved["last_actions"][0]["why"], "liked");
        assert_eq!(saved["daily_rec_status"], "enabled");
        // Defaults were merged under the file's keys.
        assert_eq!(saved["push_time_local"], "10:00");
    }

    #[test]
    fn null_and_empty_status_read_as_unset() {
        for text in [
            r#"{"daily_rec_status":null}"#,
            r#"{"daily_rec_status":""}"#,
            "{}",
        ] {
            let mut store = MemoryStore::with(Some(text), None);
            let docs = Documents::load(&mut store).unwrap();
            assert_eq!(docs.state.daily_rec_status, DailyStatus::Unset, "{text}");
        }
    }

    #[test]
    fn corrupt_documents_are_errors_naming_the_problem() {
        let cases = [
            (r#"{"daily_rec_status": "enabled", "#, "not valid JSON"),
            ("[1, 2]", "an array, not a JSON object"),
            (
                r#"{"installed_skill_ids": "abc"}"#,
                "field `installed_skill_ids`",
            ),
            (
                r#"{"daily_rec_status": "paused"}"#,
                "unknown daily_rec_status \"paused\"",
            ),
        ];
        for (text, expect) in cases {
            let mut store = MemoryStore::with(Some(text), None);
            let err = Documents::load(&mut store).unwrap_err();
            match &err {
                Error::CorruptDocument { document, message } => {
                    assert_eq!(*document, Document::State);
                    assert!(message.contains(expect), "{message:?} lacks {expect:?}");
                }
                other => panic!("expected CorruptDocument, got {other:?}"),
            }
        }
        let mut store = MemoryStore::with(None, Some(r#"{"recommendations": {}}"#));
        let err = Documents::load(&mut store).unwrap_err();
        assert!(
            matches!(&err, Error::CorruptDocument { document: Document::History, message } if message.contains("recommendations")),
            "{err:?}"
        );
    }

    #[test]
    fn unchanged_documents_are_not_saved() {
        let mut store = MemoryStore::with(Some(ORIGINAL_STATE), Some("{\"recommendations\": []}"));
        let docs = Documents::load(&mut store).unwrap();
        assert!(!docs.save(&mut store).unwrap());
        assert_eq!(store.saves, 0);
    }
}
