//! The fast path of candidate parsing: each item is read as its list of members (a
//! `serde_json::Value` per member, keys borrowed from the text), and when every member has its plain
//! type — strings as strings, counts as non-negative integers, flags as booleans, lists as arrays of
//! strings — the values are moved straight into a [`Candidate`]: no map of the whole item, no
//! flattening, no path tracking.
//!
//! Anything else — a count given as `"1,234"`, a `null`, a number where a string belongs, a repeated
//! key — sends the item the lenient way ([`super::parse_one`], on the same members as a map), which
//! also words the error naming the field. So the fast path changes no result, only how long the common
//! case takes; `tests::fast_and_lenient_paths_agree` checks that on generated items of every shape.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

#[cfg(test)]
use super::parse_one;
use super::{Candidate, Popularity, RegistryEvidence};

/// The JSON names of [`Candidate`]'s own fields: everything else goes to `extra`. A test keeps this
/// list equal to the fields the model serializes.
pub const FIELDS: &[&str] = &[
    "skill_id",
    "name",
    "url",
    "source_code_url",
    "source_subpath",
    "description",
    "categories",
    "source",
    "owner",
    "updated_at",
    "popularity",
    "required_toolsets",
    "complexity",
    "trend",
    "has_install_docs",
    "has_security_disclosure",
    "risk_level",
    "cross_source_count",
    "registry",
    "pain_point",
    "highlights",
    "raw_content",
    "tagline",
    "platforms",
    "prerequisites",
    "bundle_files",
];

/// One item of a candidates list, parsed: the candidate, or why it is not one (as [`parse_one`]
/// says it). The tests compare it with the lenient path; the reader uses [`Entry`].
#[cfg(test)]
pub struct Item(pub Result<Candidate, String>);

#[cfg(test)]
impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ItemVisitor)
    }
}

#[cfg(test)]
struct ItemVisitor;

/// One entry of a list as the input reader sees it: a candidate the fast path took (an object with
/// `skill_id` whose members all have their plain types), or the JSON value of anything else, for the
/// reader to classify (a registry's raw item, a string, an invalid candidate) exactly as before.
// Nearly every entry is a candidate: boxing it would add an allocation per candidate (as in input.rs).
#[allow(clippy::large_enum_variant)]
pub enum Entry {
    Candidate(Candidate),
    Value(Value),
}

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(EntryVisitor)
    }
}

struct EntryVisitor;

impl<'de> Visitor<'de> for EntryVisitor {
    type Value = Entry;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list entry")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entry, A::Error> {
        let mut members: Vec<(Cow<'de, str>, Value)> = Vec::with_capacity(16);
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            members.push((key, map.next_value()?));
        }
        if members.iter().any(|(k, _)| k == "skill_id") && plain(&members) {
            return Ok(Entry::Candidate(build(members)));
        }
        Ok(Entry::Value(Value::Object(
            members
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v))
                .collect::<Map<String, Value>>(),
        )))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Entry, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element::<Value>()? {
            items.push(v);
        }
        Ok(Entry::Value(Value::Array(items)))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Entry, E> {
        Ok(Entry::Value(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Entry, E> {
        Ok(Entry::Value(Value::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Entry, E> {
        Ok(Entry::Value(Value::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Entry, E> {
        Ok(Entry::Value(Value::from(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Entry, E> {
        Ok(Entry::Value(Value::String(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Entry, E> {
        Ok(Entry::Value(Value::String(v)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Entry, E> {
        Ok(Entry::Value(Value::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<Entry, E> {
        Ok(Entry::Value(Value::Null))
    }
}

#[cfg(test)]
const NOT_AN_OBJECT: &str = "not a JSON object";

#[cfg(test)]
impl<'de> Visitor<'de> for ItemVisitor {
    type Value = Item;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a candidate")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item, A::Error> {
        let mut members: Vec<(Cow<'de, str>, Value)> = Vec::with_capacity(16);
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            members.push((key, map.next_value()?));
        }
        Ok(Item(match plain(&members) {
            true => Ok(build(members)),
            false => parse_one(Value::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (k.into_owned(), v))
                    .collect::<Map<String, Value>>(),
            )),
        }))
    }

    // Not an object: read it as a tree would be (the same checks on numbers and nesting), then say so.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Item, A::Error> {
        while seq.next_element::<Value>()?.is_some() {}
        Ok(Item(Err(NOT_AN_OBJECT.into())))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into())))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into())))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into())))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into())))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into())))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into())))
    }
}

fn is_string_list(v: &Value) -> bool {
    match v {
        Value::String(_) => true,
        Value::Array(items) => items.iter().all(Value::is_string),
        _ => false,
    }
}

fn is_count(v: &Value) -> bool {
    v.as_u64().is_some()
}

/// Whether every member has its plain type and no key repeats: then [`build`] reads the item exactly
/// as the lenient path would.
pub(super) fn plain(members: &[(Cow<'_, str>, Value)]) -> bool {
    let mut seen = 0u32;
    let mut others: Vec<&str> = Vec::new();
    for (key, v) in members {
        let Some(i) = FIELDS.iter().position(|f| *f == key) else {
            if others.contains(&&**key) {
                return false;
            }
            others.push(key);
            continue;
        };
        if seen & (1 << i) != 0 {
            return false;
        }
        seen |= 1 << i;
        let ok = match FIELDS[i] {
            "categories" | "required_toolsets" | "highlights" | "bundle_files" => is_string_list(v),
            "has_install_docs" | "has_security_disclosure" => v.is_boolean(),
            "cross_source_count" => is_count(v),
            "trend" => true,
            "popularity" => v.as_object().is_some_and(|p| {
                ["downloads", "stars"]
                    .iter()
                    .all(|k| p.get(*k).is_none_or(is_count))
            }),
            "registry" => {
                v.is_null() || (v.is_object() && RegistryEvidence::deserialize(v).is_ok())
            }
            // Aliases and nested records: the lenient path reads them.
            "platforms" | "prerequisites" => false,
            _ => v.is_string(),
        };
        if !ok {
            return false;
        }
    }
    true
}

fn into_string(v: Value) -> String {
    match v {
        Value::String(s) => s,
        _ => unreachable!("checked by plain()"),
    }
}

fn opt_string(v: Value) -> Option<String> {
    Some(into_string(v)).filter(|s| !s.trim().is_empty())
}

fn string_list(v: Value) -> Vec<String> {
    match v {
        Value::String(s) => s
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        Value::Array(items) => items.into_iter().map(into_string).collect(),
        _ => unreachable!("checked by plain()"),
    }
}

/// The candidate of an item [`plain`] accepted.
pub(super) fn build(members: Vec<(Cow<'_, str>, Value)>) -> Candidate {
    let mut c = Candidate {
        cross_source_count: 1,
        popularity: Popularity::not_given(),
        ..Candidate::default()
    };
    for (key, v) in members {
        match &*key {
            "skill_id" => c.skill_id = into_string(v),
            "name" => c.name = into_string(v),
            "url" => c.url = into_string(v),
            "source_code_url" => c.source_code_url = opt_string(v),
            "source_subpath" => c.source_subpath = opt_string(v),
            "description" => c.description = into_string(v),
            "categories" => c.categories = string_list(v),
            "source" => c.source = into_string(v),
            "owner" => c.owner = opt_string(v),
            "updated_at" => c.updated_at = opt_string(v),
            "popularity" => {
                let Value::Object(mut p) = v else {
                    unreachable!("checked by plain()")
                };
                let count = |v: &Option<Value>| v.as_ref().and_then(Value::as_u64).unwrap_or(0);
                let (downloads, stars) = (p.remove("downloads"), p.remove("stars"));
                c.popularity = Popularity {
                    downloads: count(&downloads),
                    stars: count(&stars),
                    // As the lenient path: no count stated is unknown, not zero.
                    unknown: downloads.is_none() && stars.is_none(),
                    extra: p,
                };
            }
            "required_toolsets" => c.required_toolsets = string_list(v),
            "complexity" => c.complexity = opt_string(v),
            "trend" => c.trend = Some(v).filter(|v| !v.is_null()),
            "has_install_docs" => c.has_install_docs = v.as_bool().unwrap_or_default(),
            "has_security_disclosure" => {
                c.has_security_disclosure = v.as_bool().unwrap_or_default()
            }
            "risk_level" => c.risk_level = opt_string(v),
            "cross_source_count" => c.cross_source_count = v.as_u64().unwrap_or(1).max(1),
            "registry" => c.registry = Option::<RegistryEvidence>::deserialize(v).ok().flatten(),
            "pain_point" => c.pain_point = opt_string(v),
            "highlights" => c.highlights = string_list(v),
            "raw_content" => c.raw_content = opt_string(v),
            "tagline" => c.tagline = opt_string(v),
            "bundle_files" => c.bundle_files = string_list(v),
            _ => {
                c.extra.insert(key.into_owned(), v);
            }
        }
    }
    crate::fit::complete_from_content(&mut c);
    c
}
