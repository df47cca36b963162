//! The candidates input of `filter`, `scan`, `rank` and `recommend`, read in one place so every host
//! and every command accepts the same things:
//!
//! - `{"candidates": [...]}` or a bare array of candidate objects (`schema/candidates.schema.json`);
//!   a single candidate object is a list of one;
//! - a registry's own API response (ClawHub, skills.sh, Smithery, Glama, SkillHub, GitHub, MCP Market
//!   items), recognised by its shape and normalized here, in the same call, as `normalize` would;
//! - `{"from": "<registry>", "response": <the registry's JSON>, "base_url"?: "<url>"}` to name the
//!   registry instead of detecting it (what the CLI's `--from REGISTRY` sends);
//!
//! and a top-level `"demo": true`, which marks the bundled sample data (never a real recommendation).
//!
//! Anything else is an error that says what was expected and what would work: a list of strings,
//! text that is not JSON, an object that is neither a list nor a known registry response, a list
//! mixing candidates with a registry's raw items (the item is named).
//!
//! A list is read as a stream: each item becomes a JSON value, then a [`Candidate`], before the next
//! is read, so 100,000 candidates never exist twice in memory (once as a JSON tree, once parsed).

use serde::Deserializer;
use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::error::{Error, Result};
use crate::model::{Candidate, parse_one};
use crate::normalize::{Options, Registry, detect, normalize_item, normalize_value};

/// A candidate that always passes the filter: the fields an agent can fill from any search result.
pub const MINIMAL_EXAMPLE: &str = r#"{"candidates": [{"skill_id": "github:acme/pdf-tables", "name": "pdf-tables", "url": "https://github.com/acme/pdf-tables", "description": "Extracts tables from PDF files into Excel spreadsheets.", "source": "github"}]}"#;

/// Where the format is written down (relative to the project root).
pub const SCHEMA_PATH: &str = "schema/candidates.schema.json";

/// The parsed input.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Input {
    /// Each item parsed, or why it could not be (naming the field); in input order.
    pub items: Vec<std::result::Result<Candidate, String>>,
    /// The registry whose own JSON was normalized here; `None` when the input was candidates.
    pub normalized_from: Option<Registry>,
    /// `"demo": true` at the top: the bundled sample data.
    pub demo: bool,
}

/// Read a candidates input (see the module documentation).
pub fn parse(text: &str) -> Result<Input> {
    let mut de = serde_json::Deserializer::from_str(text);
    let top = TopSeed {
        hint: text.len() / MIN_CANDIDATE_BYTES,
    }
    .deserialize(&mut de)
        .and_then(|top| de.end().map(|()| top))
        .map_err(|e| {
            if e.is_syntax() || e.is_eof() {
                invalid(format!(
                    "not JSON ({e}). Expected candidates as JSON: {MINIMAL_EXAMPLE}, a bare array of such objects, or a registry's own API response (ClawHub, skills.sh, Smithery, Glama, SkillHub, GitHub); format: {SCHEMA_PATH}. Write search results you read as text as candidate objects first."
                ))
            } else {
                invalid(e.to_string())
            }
        })?;
    match top {
        Top::List { entries, demo } => from_entries(entries, demo),
        Top::Other => {
            // An object without `candidates`: a registry response, the `from` wrapper, or a single
            // candidate. Read again as one value (registry responses are small).
            let value: Value = serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?;
            from_object(value)
        }
        Top::Scalar(kind) => Err(invalid(format!(
            "got {kind}: expected {{\"candidates\": [...]}} or a JSON array of candidate objects, e.g. {MINIMAL_EXAMPLE} (format: {SCHEMA_PATH})"
        ))),
    }
}

fn invalid(message: String) -> Error {
    Error::invalid("candidates", message)
}

/// One item of a list, as read.
// Nearly every entry of a real list is a candidate: boxing that variant would add an allocation per
// candidate to save space only in the rare raw or invalid ones.
#[allow(clippy::large_enum_variant)]
enum Entry {
    /// A candidate object (it has `skill_id`), parsed.
    Candidate(std::result::Result<Candidate, String>),
    /// An object in a registry's own shape.
    Raw(Value, Registry),
    /// An object without `skill_id` in no known registry shape: read as a candidate (the filter then
    /// says what it lacks), or as the list's registry's item when the list holds raw items.
    Unknown(Value),
    /// A string where an object belongs.
    Text(String),
    /// A number, boolean, array or null.
    Other,
}

/// A list as read: each candidate already in its final place in `items`, and the few entries that
/// are not candidates beside it with their positions (their slot in `items` holds a placeholder until
/// [`from_entries`] decides what they are). Nearly every entry of a real list is a candidate, and a
/// `Candidate` is ~800 bytes: keeping them out of an intermediate list saves copying 100,000 of them.
#[derive(Default)]
struct Entries {
    items: Vec<std::result::Result<Candidate, String>>,
    others: Vec<(usize, Entry)>,
}

impl Entries {
    fn push(&mut self, e: Entry) {
        match e {
            Entry::Candidate(c) => self.items.push(c),
            other => {
                self.others.push((self.items.len(), other));
                self.items.push(Err(String::new()));
            }
        }
    }
}

fn entry(item: Value) -> Entry {
    match item {
        Value::String(s) => Entry::Text(s),
        Value::Object(ref o) if o.contains_key("skill_id") => Entry::Candidate(parse_one(item)),
        Value::Object(_) => match raw_registry(&item) {
            Some(r) => Entry::Raw(item, r),
            None => Entry::Unknown(item),
        },
        _ => Entry::Other,
    }
}

/// The registry whose item shape `item` has, if any (never `candidates`).
fn raw_registry(item: &Value) -> Option<Registry> {
    detect(item).filter(|r| *r != Registry::Candidates)
}

const NOT_AN_OBJECT: &str = "not a JSON object";

/// Where registries put their result lists.
const LIST_KEYS: [&str; 6] = [
    "items",
    "results",
    "skills",
    "servers",
    "data",
    "repositories",
];

fn from_entries(entries: Entries, demo: bool) -> Result<Input> {
    let Entries { mut items, others } = entries;
    if !items.is_empty()
        && others.len() == items.len()
        && others.iter().all(|(_, e)| matches!(e, Entry::Text(_)))
    {
        let shown: Vec<String> = others
            .iter()
            .take(3)
            .filter_map(|(_, e)| match e {
                Entry::Text(s) => Some(format!("{:?}", crate::render::shorten(s, 40))),
                _ => None,
            })
            .collect();
        return Err(invalid(format!(
            "got a list of {} string(s) ({}{}): each candidate must be an object with at least skill_id, name, url and description, e.g. {MINIMAL_EXAMPLE} (format: {SCHEMA_PATH}). A bare name cannot be vetted: look the skill up and fill in its page and description.",
            items.len(),
            shown.join(", "),
            if items.len() > 3 { ", …" } else { "" }
        )));
    }
    let first_raw = others.iter().find_map(|(i, e)| match e {
        Entry::Raw(_, r) => Some((*i, *r)),
        _ => None,
    });
    let Some((raw_at, registry)) = first_raw else {
        for (i, e) in others {
            items[i] = match e {
                Entry::Unknown(v) => parse_one(v),
                Entry::Text(_) | Entry::Other => Err(NOT_AN_OBJECT.to_owned()),
                Entry::Candidate(_) | Entry::Raw(..) => unreachable!("not kept aside"),
            };
        }
        return Ok(Input {
            items,
            normalized_from: None,
            demo,
        });
    };
    // The first entry that is not kept aside is a candidate.
    if let Some(cand_at) = (0..items.len()).find(|i| others.get(*i).is_none_or(|(at, _)| at != i)) {
        return Err(invalid(format!(
            "item {raw_at} is a raw {} item but item {cand_at} is a candidate: a list holds either candidates or one registry's own items, not both. Normalize the registry's items first (skill-recommender normalize --from {} FILE) and put all candidates in one list.",
            registry.label(),
            registry.as_str()
        )));
    }
    // One registry's items (detected from the first): each read as that registry's item.
    let options = Options::default();
    let items = others
        .into_iter()
        .map(|(index, e)| match e {
            Entry::Raw(v, _) | Entry::Unknown(v) => normalize_item(index, &v, registry, &options)
                .0
                .map_err(issue_text),
            Entry::Text(_) | Entry::Other => Err(NOT_AN_OBJECT.to_owned()),
            Entry::Candidate(_) => unreachable!("not kept aside"),
        })
        .collect();
    Ok(Input {
        items,
        normalized_from: Some(registry),
        demo,
    })
}

fn issue_text(issue: crate::normalize::Issue) -> String {
    if issue.field.is_empty() {
        issue.message
    } else {
        format!("field `{}`: {}", issue.field, issue.message)
    }
}

/// A registry response normalized: its candidates, and its items without an identity at their own
/// positions (so indexes in `dropped` point into the response's list).
fn normalized(value: &Value, registry: Registry, options: &Options, demo: bool) -> Result<Input> {
    let n = normalize_value(value, Some(registry), options)?;
    let mut items: Vec<std::result::Result<Candidate, String>> =
        n.candidates.into_iter().map(Ok).collect();
    for issue in n.skipped {
        let at = issue.index.min(items.len());
        items.insert(at, Err(issue_text(issue)));
    }
    Ok(Input {
        items,
        normalized_from: (registry != Registry::Candidates).then_some(registry),
        demo,
    })
}

fn from_object(value: Value) -> Result<Input> {
    let demo = value.get("demo").and_then(Value::as_bool).unwrap_or(false);
    if let (Some(from), Some(response)) = (value.get("from"), value.get("response")) {
        let registry = from.as_str().and_then(Registry::parse).ok_or_else(|| {
            Error::invalid(
                "from",
                format!(
                    "{from} is not a registry this tool reads (known: {})",
                    Registry::REGISTRIES.map(Registry::as_str).join(", ")
                ),
            )
        })?;
        let options = Options {
            base_url: value
                .get("base_url")
                .and_then(Value::as_str)
                .map(str::to_owned),
        };
        return normalized(response, registry, &options, demo);
    }
    match detect(&value) {
        // One candidate object given on its own.
        Some(Registry::Candidates) => {
            let mut one = Entries::default();
            one.push(entry(value));
            from_entries(one, false)
        }
        Some(registry) => normalized(&value, registry, &Options::default(), demo),
        // A registry's empty result list: nothing to recommend, nothing wrong.
        None if LIST_KEYS.iter().any(|k| {
            value
                .get(k)
                .and_then(Value::as_array)
                .is_some_and(Vec::is_empty)
        }) =>
        {
            Ok(Input {
                demo,
                ..Input::default()
            })
        }
        None => {
            let keys: Vec<&str> = value
                .as_object()
                .map(|o| o.keys().map(String::as_str).take(8).collect())
                .unwrap_or_default();
            Err(invalid(format!(
                "an object with keys {} is neither {{\"candidates\": [...]}} nor a registry response this tool recognises. If it is a registry's response, name the registry (--from {}) or run `skill-recommender normalize --from REGISTRY FILE`; otherwise write candidates as {MINIMAL_EXAMPLE} (format: {SCHEMA_PATH}).",
                if keys.is_empty() {
                    "(none)".to_owned()
                } else {
                    keys.join(", ")
                },
                Registry::REGISTRIES.map(Registry::as_str).join("|")
            )))
        }
    }
}

/// The top level, read as a stream.
enum Top {
    List {
        entries: Entries,
        demo: bool,
    },
    /// An object without `candidates`.
    Other,
    /// A string, number, boolean or null.
    Scalar(&'static str),
}

/// The size of the smallest candidate worth the name in JSON (`skill_id`, `name`, `url` and a
/// `description`): an input of N bytes holds about N / this many at most. [`ItemsSeed`] reserves room
/// for that many up front: a list grown by doubling copied 100,000 candidates again and again into
/// fresh memory (a fifth of a 44 MB `filter`'s page faults). Room not written to costs no memory.
const MIN_CANDIDATE_BYTES: usize = 256;

/// The most candidates reserved for ahead of reading them (past it the list grows as usual).
const MAX_RESERVED_CANDIDATES: usize = 1 << 18;

struct TopSeed {
    /// How many candidates the input can hold at most (see [`MIN_CANDIDATE_BYTES`]).
    hint: usize,
}

impl<'de> DeserializeSeed<'de> for TopSeed {
    type Value = Top;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Top, D::Error> {
        d.deserialize_any(self)
    }
}

const EXPECTING: &str = "{\"candidates\": [...]} or a JSON array of candidates";

impl<'de> Visitor<'de> for TopSeed {
    type Value = Top;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(EXPECTING)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Top, A::Error> {
        Ok(Top::List {
            entries: ItemsSeed { hint: self.hint }.visit_seq(seq)?,
            demo: false,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Top, A::Error> {
        let mut entries = None;
        let mut demo = false;
        while let Some(key) = map.next_key_seed(crate::model::fast::Key)? {
            match key.as_ref() {
                "candidates" => entries = Some(map.next_value_seed(ItemsSeed { hint: self.hint })?),
                "demo" => demo = map.next_value::<Value>()?.as_bool().unwrap_or(false),
                _ => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(match entries {
            Some(entries) => Top::List { entries, demo },
            None => Top::Other,
        })
    }

    fn visit_str<E: serde::de::Error>(self, _: &str) -> std::result::Result<Top, E> {
        Ok(Top::Scalar("a JSON string"))
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> std::result::Result<Top, E> {
        Ok(Top::Scalar("a boolean"))
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> std::result::Result<Top, E> {
        Ok(Top::Scalar("a number"))
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> std::result::Result<Top, E> {
        Ok(Top::Scalar("a number"))
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> std::result::Result<Top, E> {
        Ok(Top::Scalar("a number"))
    }
    fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<Top, E> {
        Ok(Top::Scalar("null"))
    }
}

/// The array of items, each read as soon as it is parsed.
struct ItemsSeed {
    /// How many items the input can hold at most (see [`MIN_CANDIDATE_BYTES`]).
    hint: usize,
}

impl<'de> DeserializeSeed<'de> for ItemsSeed {
    type Value = Entries;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Entries, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ItemsSeed {
    type Value = Entries;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("`candidates` to be a JSON array of candidate objects")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Entries, A::Error> {
        let mut out = Entries::default();
        let hint = seq.size_hint().unwrap_or(self.hint);
        out.items.reserve(hint.min(MAX_RESERVED_CANDIDATES));
        // Plain candidates skip the JSON tree (the fast path); everything else is classified as a value.
        let mut members = crate::model::fast::Members::with_capacity(16);
        while let Some(item) = seq.next_element_seed(crate::model::fast::EntrySeed {
            members: &mut members,
        })? {
            match item {
                crate::model::fast::Entry::Candidate(c) => out.items.push(Ok(c)),
                crate::model::fast::Entry::Value(v) => out.push(entry(v)),
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
