//! The candidate record: what an agent hands in (the protocol's normalized record plus what real
//! registry data needs). Parsing is lenient where registries are sloppy — numbers as strings, `null`
//! for empty, a comma-separated string for a list — and unknown fields are kept and passed through, so
//! an agent's own annotations survive `filter`.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::error::Result;

pub(crate) mod fast;
pub(crate) mod write;

/// Registry or origin of a candidate, with its trust rank (higher wins a dedup).
///
/// `clawhub 5 > mcpmarket 4 = skillhub 4 > smithery 3 = skillssh 3 > glama 2 = github 2 > x 1 > unknown 0`.
/// The original ranked the first six; the two new registries are placed by the review they apply:
/// SkillHub moderates submissions like ClawHub but is self-hosted and smaller (with MCP Market), and
/// skills.sh lists GitHub skills with third-party audits (with Smithery's scanned listings).
pub fn trust_rank(source: &str) -> u8 {
    match &*crate::ascii_lowered(source.trim()) {
        "clawhub" => 5,
        "mcpmarket" | "skillhub" => 4,
        "smithery" | "skillssh" => 3,
        "glama" | "github" => 2,
        "x" => 1,
        _ => 0,
    }
}

/// The known sources, for messages and docs.
pub const KNOWN_SOURCES: &[&str] = &[
    "clawhub",
    "mcpmarket",
    "skillhub",
    "smithery",
    "skillssh",
    "glama",
    "github",
    "x",
];

/// Download and star counts (never negative; numbers given as strings parse, `1,234` included).
///
/// A source that states no count at all (no `popularity`, `null`, or neither `downloads` nor `stars`)
/// leaves the counts *unknown*: they read as 0 for scoring, but unknown is never "unpopular" (the
/// filter does not call such a skill stale) and the card says the counts were not given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[cfg_attr(test, schemars(with = "PopularityWire"))]
#[serde(from = "PopularityWire")]
pub struct Popularity {
    pub downloads: u64,
    pub stars: u64,
    /// No count was given (not written: an unknown `popularity` is left out of the JSON).
    #[serde(skip)]
    pub unknown: bool,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Popularity {
    pub fn total(&self) -> u64 {
        self.downloads.saturating_add(self.stars)
    }

    /// Counts the source did not state.
    pub fn not_given() -> Popularity {
        Popularity {
            unknown: true,
            ..Popularity::default()
        }
    }

    pub fn is_unknown(&self) -> bool {
        self.unknown
    }
}

/// `popularity` as written: each count may be missing.
#[derive(Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[cfg_attr(test, schemars(rename = "Popularity"))]
struct PopularityWire {
    /// Downloads or installs, as the registry counts them (a number, or text such as `"1,532"` or `"12.4k"`).
    #[serde(default, deserialize_with = "lenient_opt_u64")]
    downloads: Option<u64>,
    /// Stars or likes.
    #[serde(default, deserialize_with = "lenient_opt_u64")]
    stars: Option<u64>,
    #[serde(flatten)]
    extra: Map<String, Value>,
}

impl From<PopularityWire> for Popularity {
    fn from(w: PopularityWire) -> Popularity {
        Popularity {
            unknown: w.downloads.is_none() && w.stars.is_none(),
            downloads: w.downloads.unwrap_or(0),
            stars: w.stars.unwrap_or(0),
            extra: w.extra,
        }
    }
}

/// What a registry itself says about a skill's safety (evidence for `scan`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct RegistryEvidence {
    /// ClawHub moderation verdict: `clean`, `suspicious`, `malicious` (or a scan status: `pending`, `error`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string"
    )]
    pub verdict: Option<String>,
    /// ClawHub `moderation.isSuspicious`.
    #[serde(default, deserialize_with = "lenient_bool")]
    pub is_suspicious: bool,
    /// ClawHub `moderation.isMalwareBlocked`.
    #[serde(default, deserialize_with = "lenient_bool")]
    pub is_malware_blocked: bool,
    /// Registry reason codes / flags (e.g. ClawHub `reasonCodes`).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "string_list"
    )]
    pub flags: Vec<String>,
    /// skills.sh audits by auditor: `Pass`, `Warn`, `Fail`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub audits: BTreeMap<String, String>,
    /// Smithery `security.scanPassed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scan_passed: Option<bool>,
    /// SkillHub review state (e.g. `approved`, `pending`).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string"
    )]
    pub review_status: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The fields a candidate cannot do without (`filter` drops it as `missing_required_fields`).
pub const REQUIRED_FIELDS: [&str; 4] = ["skill_id", "name", "url", "description"];

/// One candidate skill: what an agent hands in (schema/candidates.schema.json is generated from this
/// type). Only `skill_id`, `name`, `url` and `description` are needed; everything else is optional and
/// helps the filter, the scanner, the ranking and the card.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Candidate {
    /// `source:name-lower`, e.g. `clawhub:pdf-tables`. Required.
    #[serde(default, deserialize_with = "lenient_string")]
    pub skill_id: String,
    /// Display name. Required.
    #[serde(default, deserialize_with = "lenient_string")]
    pub name: String,
    /// The skill's page (http/https). Required.
    #[serde(default, deserialize_with = "lenient_string")]
    pub url: String,
    /// Where its source lives (usually GitHub).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string"
    )]
    pub source_code_url: Option<String>,
    /// The skill's folder inside a repository that holds several skills (e.g. skills.sh `skillId`):
    /// two skills of one monorepo share `source_code_url` but are not duplicates.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string"
    )]
    pub source_subpath: Option<String>,
    /// One sentence. Required; at least 20 characters to be kept.
    #[serde(default, deserialize_with = "lenient_string")]
    pub description: String,
    /// Lower-case topics (`pdf`, `documents`, …): read by the blacklist, the ranking and the card.
    #[serde(default, deserialize_with = "string_list")]
    pub categories: Vec<String>,
    /// Where it was found: `clawhub`, `mcpmarket`, `skillhub`, `smithery`, `skillssh`, `glama`, `github`
    /// or `x`; anything else is trusted least.
    #[serde(default, deserialize_with = "lenient_string")]
    pub source: String,
    /// The publisher (ClawHub owner handle, GitHub owner, …): same-named skills of different owners differ.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string"
    )]
    pub owner: Option<String>,
    /// ISO 8601 time of the last update.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string"
    )]
    pub updated_at: Option<String>,
    /// Download and star counts; left out when the source states none (then they are unknown).
    #[serde(
        default = "Popularity::not_given",
        deserialize_with = "popularity_or_unknown",
        skip_serializing_if = "Popularity::is_unknown"
    )]
    pub popularity: Popularity,
    /// Tools the skill needs (`browser`, `terminal`, …).
    #[serde(default, deserialize_with = "string_list")]
    pub required_toolsets: Vec<String>,
    /// Operating systems the skill runs on, canonical (`linux`, `macos`, `windows`, …; aliases such as
    /// `darwin` and `win32` are read as those, `unix` as its members, `any` as no restriction); empty
    /// = any. Filled from the SKILL.md frontmatter in `raw_content` when not given
    /// (docs/fit-and-quality.md).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "platform_list"
    )]
    pub platforms: Vec<String>,
    /// What must exist before the skill runs (Hermes `prerequisites`); filled from the frontmatter in
    /// `raw_content` when not given.
    #[serde(
        default,
        skip_serializing_if = "Prerequisites::is_empty",
        deserialize_with = "null_default"
    )]
    pub prerequisites: Prerequisites,
    /// `lightweight`, `framework` or `platform`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string"
    )]
    pub complexity: Option<String>,
    /// `{source_count, recent_mentions, updated_recently, trend_reason}` (kept as given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trend: Option<Value>,
    /// The skill documents how to install it.
    #[serde(default, deserialize_with = "lenient_bool")]
    pub has_install_docs: bool,
    /// The skill documents what it accesses (a security note).
    #[serde(default, deserialize_with = "lenient_bool")]
    pub has_security_disclosure: bool,
    /// `low`, `medium` or `high` as the agent judged it; `scan` only ever raises it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string"
    )]
    pub risk_level: Option<String>,
    /// How many sources list this skill (raised by dedup).
    #[serde(default = "one", deserialize_with = "lenient_u64_or_one")]
    pub cross_source_count: u64,
    /// The registry's own safety evidence.
    // Boxed: most candidates have none, and every candidate of a 100,000 list is moved and kept with
    // room for it (~120 bytes each unboxed). Serialized and described (schema) as the record itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry: Option<Box<RegistryEvidence>>,
    /// Agent-written copy for the card: the one-line position beside the name (else the description's
    /// first sentence).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string"
    )]
    pub tagline: Option<String>,
    /// Agent-written copy for the card: the pain point in one sentence.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string"
    )]
    pub pain_point: Option<String>,
    /// Agent-written copy for the card: up to three highlights.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "string_list"
    )]
    pub highlights: Vec<String>,
    /// SKILL.md (or other) text for content scanning.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string"
    )]
    pub raw_content: Option<String>,
    /// The skill's files, as paths relative to its root (`scripts/split.py`), when the agent has them (a
    /// local checkout or a registry's file list): with `raw_content`, quality checks that what SKILL.md
    /// references exists.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "string_list"
    )]
    pub bundle_files: Vec<String>,
    /// Anything else the agent attached: passed through unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What must exist on the machine before a skill runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
pub struct Prerequisites {
    /// Environment variables the skill reads (`OPENAI_API_KEY`): set up by the user, never checked.
    #[serde(default, deserialize_with = "string_list")]
    pub env_vars: Vec<String>,
    /// Programs that must be on the PATH (`jq`, `curl`): the host looks them up.
    #[serde(default, deserialize_with = "string_list")]
    pub commands: Vec<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Prerequisites {
    pub fn is_empty(&self) -> bool {
        self.env_vars.is_empty() && self.commands.is_empty() && self.extra.is_empty()
    }
}

fn one() -> u64 {
    1
}

/// The list of candidates an agent hands in (see [`crate::input`] for every accepted shape: candidates,
/// a registry's own response, the `from` wrapper). Returns each item parsed, or the reason it could not
/// be (index → message naming the field).
pub fn parse_candidates(text: &str) -> Result<Vec<std::result::Result<Candidate, String>>> {
    crate::input::parse(text).map(|input| input.items)
}

/// Parse one candidate, naming the field at fault. Platforms and prerequisites missing from the record
/// are taken from the SKILL.md frontmatter in `raw_content`, when there is one ([`crate::fit`]).
pub fn parse_one(item: Value) -> std::result::Result<Candidate, String> {
    if !item.is_object() {
        return Err("not a JSON object".into());
    }
    let mut c: Candidate = serde_path_to_error::deserialize(item).map_err(|e| {
        let path = e.path().to_string();
        format!("field `{path}`: {}", e.into_inner())
    })?;
    crate::fit::complete_from_content(&mut c);
    Ok(c)
}

// ---------------------------------------------------------------------------------------------------
// Lenient deserializers

/// A count: a non-negative number, or a string of digits (`,`, `_` and spaces ignored); `null` is 0.
/// Fractions are truncated; negatives are 0.
pub fn count_of(v: &Value) -> std::result::Result<u64, String> {
    match v {
        Value::Null => Ok(0),
        Value::Number(n) => Ok(n
            .as_u64()
            .or_else(|| {
                n.as_f64()
                    .filter(|f| f.is_finite())
                    .map(|f| f.max(0.0) as u64)
            })
            .unwrap_or(0)),
        Value::String(s) => {
            let digits: String = s
                .chars()
                .filter(|c| !matches!(c, ',' | '_' | ' '))
                .collect();
            if digits.is_empty() {
                return Ok(0);
            }
            // Registry pages abbreviate: "12.4k", "1.2M".
            let (num, scale) = match digits.char_indices().last() {
                Some((i, 'k' | 'K')) => (&digits[..i], 1e3),
                Some((i, 'm' | 'M')) => (&digits[..i], 1e6),
                _ => (digits.as_str(), 1.0),
            };
            num.parse::<u64>()
                .ok()
                .filter(|_| scale == 1.0)
                .or_else(|| {
                    num.parse::<f64>()
                        .ok()
                        .filter(|f| f.is_finite())
                        .map(|f| (f * scale).max(0.0) as u64)
                })
                .ok_or_else(|| format!("{s:?} is not a number"))
        }
        other => Err(format!("expected a number, found {other}")),
    }
}

fn lenient_u64<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<u64, D::Error> {
    count_of(&Value::deserialize(d)?).map_err(serde::de::Error::custom)
}

/// A count, `None` when `null` or an empty string (not stated).
fn lenient_opt_u64<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<u64>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::String(s) if s.trim().is_empty() => Ok(None),
        v => count_of(&v).map(Some).map_err(serde::de::Error::custom),
    }
}

/// `popularity`: `null` is the same as leaving it out (counts unknown).
fn popularity_or_unknown<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Popularity, D::Error> {
    Ok(Option::<Popularity>::deserialize(d)?.unwrap_or_else(Popularity::not_given))
}

fn lenient_u64_or_one<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<u64, D::Error> {
    lenient_u64(d).map(|n| n.max(1))
}

fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<bool, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(false),
        Value::Bool(b) => Ok(b),
        Value::Number(n) => Ok(n.as_f64().is_some_and(|f| f != 0.0)),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" => Ok(true),
            "false" | "no" | "0" | "" => Ok(false),
            _ => Err(serde::de::Error::custom(format!("{s:?} is not a boolean"))),
        },
        other => Err(serde::de::Error::custom(format!(
            "expected a boolean, found {other}"
        ))),
    }
}

fn scalar_string(v: Value) -> std::result::Result<Option<String>, String> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        Value::Number(n) => Ok(Some(n.to_string())),
        Value::Bool(b) => Ok(Some(b.to_string())),
        other => Err(format!("expected a string, found {}", kind(&other))),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `null` is the default.
fn null_default<'de, D: Deserializer<'de>, T: Default + Deserialize<'de>>(
    d: D,
) -> std::result::Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

fn lenient_string<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    scalar_string(Value::deserialize(d)?)
        .map(Option::unwrap_or_default)
        .map_err(serde::de::Error::custom)
}

fn opt_string<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    scalar_string(Value::deserialize(d)?)
        .map(|s| s.filter(|s| !s.trim().is_empty()))
        .map_err(serde::de::Error::custom)
}

/// A list of platform names, canonical ([`crate::fit::platforms_of`]).
fn platform_list<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<String>, D::Error> {
    string_list(d).map(|names| crate::fit::platforms_of(&names))
}

/// A list of strings; also a single comma-separated string; `null` is empty.
fn string_list<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<String>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(s
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()),
        Value::Array(items) => items
            .into_iter()
            .filter_map(|v| scalar_string(v).transpose())
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(serde::de::Error::custom),
        other => Err(serde::de::Error::custom(format!(
            "expected a list of strings, found {}",
            kind(&other)
        ))),
    }
}

#[cfg(test)]
mod schema;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lenient_fields_parse() {
        let c = parse_one(json!({
            "skill_id": "clawhub:a", "name": 42, "popularity": {"downloads": "1,532", "stars": 3.7},
            "categories": "pdf, documents", "has_install_docs": "yes", "cross_source_count": null,
            "my_note": {"x": 1}, "updated_at": null
        }))
        .unwrap();
        assert_eq!(c.name, "42");
        assert_eq!(c.popularity.downloads, 1532);
        assert_eq!(c.popularity.stars, 3);
        assert_eq!(count_of(&json!("12.4k")), Ok(12_400));
        assert_eq!(count_of(&json!("1.2M")), Ok(1_200_000));
        assert_eq!(count_of(&json!(-5)), Ok(0));
        assert!(count_of(&json!("k")).is_err());
        assert_eq!(c.categories, vec!["pdf", "documents"]);
        assert!(c.has_install_docs);
        assert_eq!(c.cross_source_count, 1);
        assert_eq!(
            c.extra["my_note"],
            json!({"x": 1}),
            "unknown fields pass through"
        );
        let back = serde_json::to_value(&c).unwrap();
        assert_eq!(back["my_note"], json!({"x": 1}));
    }

    #[test]
    fn bad_fields_name_the_field() {
        let err =
            parse_one(json!({"skill_id": "a", "popularity": {"downloads": "many"}})).unwrap_err();
        assert!(
            err.contains("popularity.downloads") && err.contains("many"),
            "{err}"
        );
        let err = parse_one(json!({"skill_id": "a", "categories": {"x": 1}})).unwrap_err();
        assert!(err.contains("categories"), "{err}");
        assert_eq!(parse_one(json!("x")).unwrap_err(), "not a JSON object");
    }

    #[test]
    fn list_shapes() {
        assert_eq!(parse_candidates(r#"[{"skill_id":"a"}]"#).unwrap().len(), 1);
        assert_eq!(
            parse_candidates(r#"{"candidates":[{"skill_id":"a"}, 3]}"#)
                .unwrap()
                .len(),
            2
        );
        assert!(parse_candidates(r#"{"items":[]}"#).unwrap().is_empty());
        assert!(parse_candidates(r#"{"things":[1]}"#).is_err());
        assert!(parse_candidates("nope").is_err());
    }

    /// A JSON value for a candidate field: the plain type most of the time, otherwise anything the
    /// lenient path has to deal with (numbers as strings, nulls, wrong types, blanks, fractions).
    fn field_value() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        prop_oneof![
            4 => "[a-z ,:/.-]{0,12}".prop_map(Value::String),
            2 => (0u64..100_000).prop_map(|n| json!(n)),
            1 => any::<bool>().prop_map(Value::Bool),
            1 => Just(Value::Null),
            1 => Just(json!(-3)),
            1 => Just(json!(2.5)),
            1 => Just(json!("1,234")),
            1 => Just(json!("  ")),
            1 => Just(json!("12.4k")),
            1 => prop::collection::vec("[a-z ]{0,5}", 0..3).prop_map(|v| json!(v)),
            1 => Just(json!(["a", null, 3, true])),
            1 => Just(json!([["nested"]])),
            1 => (0u64..1000, 0u64..1000).prop_map(|(d, s)| json!({"downloads": d, "stars": s})),
            1 => Just(json!({"downloads": "5", "stars": null, "forks": 2})),
            1 => Just(json!({"verdict": "clean", "flags": "a,b", "audits": {"x": "Pass"}})),
            1 => Just(json!({"audits": {"x": 1}})),
            1 => Just(json!({"k": [1, {"z": null}]})),
        ]
    }

    proptest::proptest! {
        /// The fast path reads every item it takes exactly as the lenient path would, and leaves the
        /// rest (and every error message) to it.
        #[test]
        fn fast_and_lenient_paths_agree(
            fields in proptest::collection::vec(
                (
                    proptest::sample::select(fast::FIELDS.iter().copied().chain(["extra_note", "x"]).collect::<Vec<_>>()),
                    field_value(),
                    "[a-z ,]{0,8}",
                    0u64..100,
                    proptest::bool::weighted(0.8),
                ),
                0..10,
            ),
            repeat in proptest::bool::ANY,
        ) {
            // Most members get the plain value of their field's type (so whole items often take the
            // fast path), the rest anything.
            let fields: Vec<(&str, Value)> = fields
                .into_iter()
                .map(|(k, any, s, n, plain)| {
                    let v = if !plain {
                        any
                    } else {
                        match k {
                            "categories" | "required_toolsets" | "highlights" => json!([s, "x"]),
                            "has_install_docs" | "has_security_disclosure" => json!(n % 2 == 0),
                            "cross_source_count" => json!(n),
                            "popularity" => json!({"downloads": n, "stars": n / 3, "forks": s}),
                            "trend" => json!({"source_count": n}),
                            "registry" => json!({"verdict": s, "flags": [s]}),
                            _ => json!(s),
                        }
                    };
                    (k, v)
                })
                .collect();
            // Written by hand (a map would drop repeated keys; the text keeps them).
            let mut text = String::from("{");
            for (i, (k, v)) in fields.iter().enumerate() {
                if i > 0 { text.push(','); }
                text.push_str(&format!("{}:{}", json!(k), v));
            }
            if repeat && !fields.is_empty() {
                text.push_str(&format!(",{}:{}", json!(fields[0].0), json!("again")));
            }
            text.push('}');
            let lenient = parse_one(serde_json::from_str(&text).unwrap());
            let fast::Item(fast, _) = serde_json::from_str(&text).unwrap();
            proptest::prop_assert_eq!(fast, lenient.clone(), "{}", text);
            let list = format!("[{text}, {text}]");
            let parsed = parse_candidates(&list).unwrap();
            proptest::prop_assert_eq!(parsed, vec![lenient.clone(), lenient]);
        }
    }

    #[test]
    fn plain_items_take_the_fast_path() {
        let item = r#"{"skill_id": "clawhub:a", "name": "A", "url": "https://x", "description": "d",
            "categories": ["pdf"], "source": "clawhub", "updated_at": "2026-10-01T00:00:00Z",
            "popularity": {"downloads": 5, "stars": 1, "forks": 2}, "has_install_docs": true,
            "risk_level": "low", "registry": {"verdict": "clean"}, "note": {"k": 1}}"#;
        let fast::Item(c, took) = serde_json::from_str(item).unwrap();
        assert!(took, "a plain item takes the fast path");
        let c = c.unwrap();
        assert_eq!(c.popularity.total(), 6);
        assert_eq!(c.popularity.extra["forks"], json!(2));
        assert_eq!(c.cross_source_count, 1);
        assert_eq!(c.extra["note"], json!({"k": 1}));
        assert_eq!(
            c.registry.as_ref().unwrap().verdict.as_deref(),
            Some("clean")
        );
        assert_eq!(Ok(c), parse_one(serde_json::from_str(item).unwrap()));
        for lenient in [
            r#"{"skill_id": "a", "popularity": {"downloads": "1,234"}}"#,
            r#"{"skill_id": "a", "popularity": {"stars": -1}}"#,
            r#"{"skill_id": "a", "categories": ["x", 1]}"#,
            r#"{"skill_id": "a", "name": null}"#,
        ] {
            let fast::Item(c, took) = serde_json::from_str(lenient).unwrap();
            assert!(!took, "{lenient}");
            assert_eq!(
                c,
                parse_one(serde_json::from_str(lenient).unwrap()),
                "{lenient}"
            );
        }
    }

    #[test]
    fn malformed_lists_are_errors_naming_the_input() {
        for bad in [
            "[{\"skill_id\": tru}]",
            "[{\"a\": 1e999}]",
            "[{\"a\": 1} 2]",
            &format!("[{}{}]", "[".repeat(200), "]".repeat(200)),
        ] {
            // The fast path reads the list; a malformed one is still one error naming `candidates`.
            let err = parse_candidates(bad).unwrap_err();
            assert!(format!("{err:?}").contains("candidates"), "{bad}: {err:?}");
        }
    }

    #[test]
    fn trust_order() {
        let order = ["clawhub", "mcpmarket", "smithery", "glama", "x", "myspace"];
        for w in order.windows(2) {
            assert!(trust_rank(w[0]) > trust_rank(w[1]), "{w:?}");
        }
        assert_eq!(trust_rank("glama"), trust_rank("github"));
        assert_eq!(trust_rank("ClawHub"), 5);
    }
}
