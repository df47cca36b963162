//! Argument types shared by several commands, with the JSON Schemas MCP clients read.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// A JSON document handed to the guest as text (a candidates list, a registry response, a `recommend`
/// result). The CLI reads it from a file; over MCP it is the argument's JSON value (or a string holding
/// JSON text, as some models send it), turned back into text once.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct JsonText(pub String);

impl JsonText {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl From<String> for JsonText {
    fn from(text: String) -> JsonText {
        JsonText(text)
    }
}

impl<'de> Deserialize<'de> for JsonText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<JsonText, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::String(text) => JsonText(text),
            other => JsonText(other.to_string()),
        })
    }
}

impl Serialize for JsonText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match serde_json::from_str::<Value>(&self.0) {
            Ok(v) => v.serialize(s),
            Err(_) => s.serialize_str(&self.0),
        }
    }
}

impl JsonSchema for JsonText {
    fn schema_name() -> Cow<'static, str> {
        "JsonText".into()
    }

    fn inline_schema() -> bool {
        true
    }

    /// Any JSON value: the field's own description says which shapes the guest accepts (a schema
    /// listing them would only repeat what the guest checks, and some clients reject type unions).
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({})
    }
}

/// Language of user-facing text (cards, notices, messages); JSON keys never change.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum LangArg {
    Zh,
    En,
}

impl From<LangArg> for crate::Lang {
    fn from(l: LangArg) -> crate::Lang {
        match l {
            LangArg::Zh => crate::Lang::Zh,
            LangArg::En => crate::Lang::En,
        }
    }
}

/// Default for boolean fields that are on unless turned off.
pub(crate) fn yes() -> bool {
    true
}
