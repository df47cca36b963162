//! What install, audit and agent writes share: the scanner called through its public API, the
//! frontmatter read through the validator, the skills already on disk, refusals and provenance.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::digest::rules_version;
use super::names::PROVENANCE_PATH;
use crate::scan::{Bundle, Trust};

/// A refusal: nothing is written. `code` is stable; the host maps it to an exit code.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
    /// What the caller can do instead (flags or commands), when there is a choice.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
    /// Structured details (the findings, the conflicting skill, …).
    #[serde(skip_serializing_if = "Value::is_null")]
    pub details: Value,
}

impl Refusal {
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
            choices: vec![],
            details: Value::Null,
        }
    }

    pub fn choices(mut self, choices: Vec<String>) -> Refusal {
        self.choices = choices;
        self
    }

    pub fn details(mut self, details: Value) -> Refusal {
        self.details = details;
        self
    }
}

/// The scanner's answer, kept whole, with the two fields every caller needs.
pub struct Scan {
    pub json: Value,
    pub verdict: String,
    pub policy: String,
}

/// Scan through the scanner's public entry point (`scan_bundle`): its verdict ladder and trust policy
/// are the scanner's, never re-implemented here.
pub fn scan(bundle: &Bundle, trust: Trust, force: bool) -> Scan {
    let mut json = crate::scan::scan_bundle(bundle, trust, force);
    let verdict = json["verdict"].as_str().unwrap_or("dangerous").to_owned();
    let policy = json["policy"].as_str().unwrap_or("block").to_owned();
    json["rules"] = json!(rules_version());
    Scan {
        json,
        verdict,
        policy,
    }
}

/// Lenient validation through the validator; `(errors, warnings, frontmatter)`.
pub fn validate(bundle: &Bundle) -> (Vec<Value>, Vec<Value>, Map<String, Value>) {
    let v = crate::validate::validate(bundle, false);
    let list = |k: &str| v[k].as_array().cloned().unwrap_or_default();
    let fm = v["metadata"].as_object().cloned().unwrap_or_default();
    (list("errors"), list("warnings"), fm)
}

/// `trust` as written in WIT and provenance.
pub fn trust_name(t: Trust) -> &'static str {
    match t {
        Trust::Builtin => "builtin",
        Trust::Trusted => "trusted",
        Trust::Community => "community",
        Trust::AgentCreated => "agent-created",
    }
}

pub fn trust_of_name(s: &str) -> Option<Trust> {
    Some(match s {
        "builtin" => Trust::Builtin,
        "trusted" => Trust::Trusted,
        "community" => Trust::Community,
        "agent-created" => Trust::AgentCreated,
        _ => return None,
    })
}

/// The bundle without this tool's provenance file (which is not part of the skill).
pub fn without_provenance(bundle: &Bundle) -> Bundle {
    Bundle {
        name: bundle.name.clone(),
        files: bundle
            .files
            .iter()
            .filter(|f| f.path != PROVENANCE_PATH)
            .cloned()
            .collect(),
        notes: bundle.notes.clone(),
    }
}

/// A string field of the frontmatter, or of its `metadata` map.
pub fn fm_str(fm: &Map<String, Value>, key: &str) -> Option<String> {
    fm.get(key)
        .or_else(|| fm.get("metadata").and_then(|m| m.get(key)))
        .and_then(|v| match v {
            Value::String(s) => Some(s.trim().to_owned()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .filter(|s| !s.is_empty())
}

/// `text` (a SKILL.md) with its frontmatter `name:` line set to `name`; every other byte kept.
/// `None` when the frontmatter has no top-level `name:` line.
pub fn rename_skill_md(text: &str, name: &str) -> Option<String> {
    let mut offset = 0;
    let mut in_frontmatter = false;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let content = line.trim_end_matches(['\n', '\r']);
        let bare = if i == 0 {
            content.trim_start_matches('\u{feff}')
        } else {
            content
        };
        if i == 0 {
            if bare.trim_end() != "---" {
                return None;
            }
            in_frontmatter = true;
        } else if in_frontmatter && bare.trim_end() == "---" {
            return None;
        } else if in_frontmatter && bare.starts_with("name:") {
            let start = offset;
            let end = offset + content.len();
            return Some(format!("{}name: {name}{}", &text[..start], &text[end..]));
        }
        offset += line.len();
    }
    None
}

/// One entry of a skills folder, as the host listed it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Listed {
    /// The entry's name (a folder name).
    pub name: String,
    /// The category folder it sits in (Hermes), if any.
    pub category: Option<String>,
    pub is_dir: bool,
    pub has_skill_md: bool,
    /// The text of its provenance file, if it has one.
    pub provenance: Option<String>,
}

/// A skills folder as the host listed it (only folders that exist are listed).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Listing {
    pub path: String,
    pub entries: Vec<Listed>,
}

/// The path of a listed entry.
pub fn entry_path(listing: &Listing, e: &Listed) -> String {
    match &e.category {
        Some(c) => super::layout::join(&super::layout::join(&listing.path, c), &e.name),
        None => super::layout::join(&listing.path, &e.name),
    }
}

/// Provenance text parsed, or why it cannot be read.
pub fn parse_provenance(text: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err("the provenance file is not a JSON object".into()),
        Err(e) => Err(format!("the provenance file is not valid JSON ({e})")),
    }
}

/// The summary of a provenance document shown by `installed`, `uninstall` and conflicts.
pub fn provenance_summary(text: Option<&str>) -> Value {
    match text.map(parse_provenance) {
        None => Value::Null,
        Some(Err(e)) => json!({ "error": e }),
        Some(Ok(m)) => {
            let keep = [
                "source",
                "coordinate",
                "version",
                "sha256",
                "trust",
                "installed_at",
                "created_by",
            ];
            Value::Object(
                m.into_iter()
                    .filter(|(k, _)| keep.contains(&k.as_str()))
                    .collect(),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_touches_only_the_name_line() {
        let t = "---\nname: date-format\ndescription: d\n---\nname: not this one\n";
        assert_eq!(
            rename_skill_md(t, "dates").unwrap(),
            "---\nname: dates\ndescription: d\n---\nname: not this one\n"
        );
        let crlf = "\u{feff}---\r\ndescription: d\r\nname: a\r\n---\r\n";
        assert_eq!(
            rename_skill_md(crlf, "b").unwrap(),
            "\u{feff}---\r\ndescription: d\r\nname: b\r\n---\r\n"
        );
        assert_eq!(
            rename_skill_md("---\ndescription: d\n---\nname: x\n", "y"),
            None
        );
        assert_eq!(rename_skill_md("# no frontmatter\n", "y"), None);
    }

    #[test]
    fn frontmatter_strings_and_metadata() {
        let fm: Map<String, Value> =
            serde_json::from_str(r#"{"version": 2, "metadata": {"author": " A "}}"#).unwrap();
        assert_eq!(fm_str(&fm, "version").as_deref(), Some("2"));
        assert_eq!(fm_str(&fm, "author").as_deref(), Some("A"));
        assert_eq!(fm_str(&fm, "license"), None);
    }
}
