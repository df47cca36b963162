//! The fast path of candidate parsing: each item is read as its list of members (keys borrowed from
//! the text; each value a [`Member`]: a string, a list of strings or `popularity`'s counts read
//! straight into their final form, anything else as a `serde_json::Value`), and when every member has
//! its plain type — strings as strings, counts as non-negative integers, flags as booleans, lists as
//! arrays of strings — the values are moved straight into a [`Candidate`]: no map of the whole item,
//! no map for `popularity`, no list of values converted into a list of strings, no flattening, no
//! path tracking.
//!
//! Anything else — a count given as `"1,234"`, a `null`, a number where a string belongs, a repeated
//! key — sends the item the lenient way ([`super::parse_one`], on the same members as a map), which
//! also words the error naming the field. So the fast path changes no result, only how long the common
//! case takes; `tests::fast_and_lenient_paths_agree` checks that on generated items of every shape.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
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
/// The flag says whether the fast path took it.
#[cfg(test)]
pub struct Item(pub Result<Candidate, String>, pub bool);

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

/// The members of one item as read, kept between items so that reading 100,000 of them allocates
/// the list once.
pub type Members<'de> = Vec<(Cow<'de, str>, Member)>;

/// Reads one [`Entry`], using `members` as its scratch list (left empty afterwards).
pub struct EntrySeed<'s, 'de> {
    pub members: &'s mut Members<'de>,
}

impl<'de> DeserializeSeed<'de> for EntrySeed<'_, 'de> {
    type Value = Entry;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Entry, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for EntrySeed<'_, 'de> {
    type Value = Entry;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list entry")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Entry, A::Error> {
        let members = self.members;
        members.clear();
        read_members_into(map, members)?;
        if members.iter().any(|(k, _)| k == "skill_id") && plain(members) {
            return Ok(Entry::Candidate(build(members.drain(..))));
        }
        Ok(Entry::Value(object(members.drain(..))))
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

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Item, A::Error> {
        let members = read_members(map)?;
        Ok(match plain(&members) {
            true => Item(Ok(build(members)), true),
            false => Item(parse_one(object(members)), false),
        })
    }

    // Not an object: read it as a tree would be (the same checks on numbers and nesting), then say so.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Item, A::Error> {
        while seq.next_element::<Value>()?.is_some() {}
        Ok(Item(Err(NOT_AN_OBJECT.into()), false))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into()), false))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into()), false))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into()), false))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into()), false))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into()), false))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Item, E> {
        Ok(Item(Err(NOT_AN_OBJECT.into()), false))
    }
}

/// One member's value as the fast path reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Member {
    /// A string.
    Str(String),
    /// An array of strings only.
    Strings(Vec<String>),
    /// The object of a `popularity` member whose `downloads` and `stars` are each absent or a
    /// non-negative integer (the last of repeated ones, as a map keeps): the counts and the other
    /// members.
    Counts {
        downloads: Option<u64>,
        stars: Option<u64>,
        rest: Map<String, Value>,
    },
    /// Anything else, as JSON.
    Json(Value),
}

impl Member {
    /// The JSON value this was read from (what reading the member as a `Value` gives).
    pub fn into_value(self) -> Value {
        match self {
            Member::Str(s) => Value::String(s),
            Member::Strings(items) => Value::Array(items.into_iter().map(Value::String).collect()),
            Member::Counts {
                downloads,
                stars,
                mut rest,
            } => {
                for (k, n) in [("downloads", downloads), ("stars", stars)] {
                    if let Some(n) = n {
                        rest.insert(k.to_owned(), Value::from(n));
                    }
                }
                Value::Object(rest)
            }
            Member::Json(v) => v,
        }
    }
}

/// Read an object's members, each value as a [`Member`].
#[cfg(test)]
fn read_members<'de, A: MapAccess<'de>>(map: A) -> Result<Members<'de>, A::Error> {
    let mut members = Vec::with_capacity(16);
    read_members_into(map, &mut members)?;
    Ok(members)
}

/// Read an object's members onto `members`.
fn read_members_into<'de, A: MapAccess<'de>>(
    mut map: A,
    members: &mut Members<'de>,
) -> Result<(), A::Error> {
    while let Some(key) = map.next_key_seed(Key)? {
        let popularity = key == "popularity";
        members.push((key, map.next_value_seed(MemberSeed { popularity })?));
    }
    Ok(())
}

/// A member's key, borrowed from the input when it has no escapes. (`Cow<str>`'s own `Deserialize`
/// always copies: with it, every key of 100,000 candidates was an allocation.)
pub struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}

/// The object of members as one `Value` (what reading the whole item as a `Value` gives: the last of
/// repeated keys wins).
fn object<'de>(members: impl IntoIterator<Item = (Cow<'de, str>, Member)>) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.into_owned(), v.into_value()))
            .collect::<Map<String, Value>>(),
    )
}

struct MemberSeed {
    /// The member is `popularity`: an object is read for its counts.
    popularity: bool,
}

impl<'de> DeserializeSeed<'de> for MemberSeed {
    type Value = Member;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Member, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for MemberSeed {
    type Value = Member;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Member, E> {
        Ok(Member::Str(super::write::owned(v)))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Member, E> {
        Ok(Member::Str(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Member, A::Error> {
        let mut strings = Vec::new();
        while let Some(v) = seq.next_element::<Value>()? {
            match v {
                Value::String(s) => strings.push(s),
                other => {
                    let mut items: Vec<Value> = strings.into_iter().map(Value::String).collect();
                    items.push(other);
                    while let Some(v) = seq.next_element::<Value>()? {
                        items.push(v);
                    }
                    return Ok(Member::Json(Value::Array(items)));
                }
            }
        }
        Ok(Member::Strings(strings))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Member, A::Error> {
        if !self.popularity {
            return Value::deserialize(MapAccessDeserializer::new(map)).map(Member::Json);
        }
        let (mut downloads, mut stars, mut rest) = (None, None, Map::new());
        while let Some(key) = map.next_key_seed(Key)? {
            let value: Value = map.next_value()?;
            match &*key {
                "downloads" => downloads = Some(value),
                "stars" => stars = Some(value),
                _ => {
                    rest.insert(key.into_owned(), value);
                }
            }
        }
        let count = |v: &Option<Value>| v.as_ref().map(Value::as_u64);
        match (count(&downloads), count(&stars)) {
            (None | Some(Some(_)), None | Some(Some(_))) => Ok(Member::Counts {
                downloads: downloads.as_ref().and_then(Value::as_u64),
                stars: stars.as_ref().and_then(Value::as_u64),
                rest,
            }),
            _ => {
                for (k, v) in [("downloads", downloads), ("stars", stars)] {
                    if let Some(v) = v {
                        rest.insert(k.to_owned(), v);
                    }
                }
                Ok(Member::Json(Value::Object(rest)))
            }
        }
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Member, E> {
        Ok(Member::Json(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Member, E> {
        Ok(Member::Json(Value::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Member, E> {
        Ok(Member::Json(Value::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Member, E> {
        Ok(Member::Json(
            serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Member, E> {
        Ok(Member::Json(Value::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<Member, E> {
        Ok(Member::Json(Value::Null))
    }
}

/// The position of `key` in [`FIELDS`] (one `match`, not a search comparing it with each name).
fn field_index(key: &str) -> Option<usize> {
    Some(match key {
        "skill_id" => 0,
        "name" => 1,
        "url" => 2,
        "source_code_url" => 3,
        "source_subpath" => 4,
        "description" => 5,
        "categories" => 6,
        "source" => 7,
        "owner" => 8,
        "updated_at" => 9,
        "popularity" => 10,
        "required_toolsets" => 11,
        "complexity" => 12,
        "trend" => 13,
        "has_install_docs" => 14,
        "has_security_disclosure" => 15,
        "risk_level" => 16,
        "cross_source_count" => 17,
        "registry" => 18,
        "pain_point" => 19,
        "highlights" => 20,
        "raw_content" => 21,
        "tagline" => 22,
        "platforms" => 23,
        "prerequisites" => 24,
        "bundle_files" => 25,
        _ => return None,
    })
}

/// Whether every member has its plain type and no key repeats: then [`build`] reads the item exactly
/// as the lenient path would.
pub(super) fn plain(members: &[(Cow<'_, str>, Member)]) -> bool {
    let mut seen = 0u32;
    let mut others: Vec<&str> = Vec::new();
    for (key, v) in members {
        let Some(i) = field_index(key) else {
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
        let ok = match (FIELDS[i], v) {
            ("categories" | "required_toolsets" | "highlights" | "bundle_files", m) => {
                matches!(m, Member::Str(_) | Member::Strings(_))
            }
            ("has_install_docs" | "has_security_disclosure", m) => {
                matches!(m, Member::Json(Value::Bool(_)))
            }
            ("cross_source_count", Member::Json(v)) => v.as_u64().is_some(),
            ("trend", _) => true,
            ("popularity", m) => matches!(m, Member::Counts { .. }),
            ("registry", Member::Json(v)) => {
                v.is_null() || (v.is_object() && RegistryEvidence::deserialize(v).is_ok())
            }
            // Aliases and nested records: the lenient path reads them.
            ("platforms" | "prerequisites", _) => false,
            ("cross_source_count" | "registry", _) => false,
            (_, m) => matches!(m, Member::Str(_)),
        };
        if !ok {
            return false;
        }
    }
    true
}

fn into_string(v: Member) -> String {
    match v {
        Member::Str(s) => s,
        _ => unreachable!("checked by plain()"),
    }
}

fn opt_string(v: Member) -> Option<String> {
    Some(into_string(v)).filter(|s| !s.trim().is_empty())
}

fn string_list(v: Member) -> Vec<String> {
    match v {
        Member::Str(s) => s
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        Member::Strings(items) => items,
        _ => unreachable!("checked by plain()"),
    }
}

/// The candidate of an item [`plain`] accepted.
pub(super) fn build<'de>(members: impl IntoIterator<Item = (Cow<'de, str>, Member)>) -> Candidate {
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
                let Member::Counts {
                    downloads,
                    stars,
                    rest,
                } = v
                else {
                    unreachable!("checked by plain()")
                };
                c.popularity = Popularity {
                    downloads: downloads.unwrap_or(0),
                    stars: stars.unwrap_or(0),
                    // As the lenient path: no count stated is unknown, not zero.
                    unknown: downloads.is_none() && stars.is_none(),
                    extra: rest,
                };
            }
            "required_toolsets" => c.required_toolsets = string_list(v),
            "complexity" => c.complexity = opt_string(v),
            "trend" => c.trend = Some(v.into_value()).filter(|v| !v.is_null()),
            "has_install_docs" => c.has_install_docs = v.into_value().as_bool().unwrap_or_default(),
            "has_security_disclosure" => {
                c.has_security_disclosure = v.into_value().as_bool().unwrap_or_default()
            }
            "risk_level" => c.risk_level = opt_string(v),
            "cross_source_count" => {
                c.cross_source_count = v.into_value().as_u64().unwrap_or(1).max(1)
            }
            "registry" => {
                c.registry = Option::<RegistryEvidence>::deserialize(v.into_value())
                    .ok()
                    .flatten()
                    .map(Box::new)
            }
            "pain_point" => c.pain_point = opt_string(v),
            "highlights" => c.highlights = string_list(v),
            "raw_content" => c.raw_content = opt_string(v),
            "tagline" => c.tagline = opt_string(v),
            "bundle_files" => c.bundle_files = string_list(v),
            _ => {
                c.extra.insert(key.into_owned(), v.into_value());
            }
        }
    }
    crate::fit::complete_from_content(&mut c);
    c
}

#[cfg(test)]
mod tests {
    use super::{FIELDS, field_index};

    /// Keys with escapes are read too (copied, where plain keys are borrowed from the input).
    #[test]
    fn escaped_keys_read_as_plain_ones() {
        let escaped =
            r#"{"sk\u0069ll_id": "a", "n\u0061me": "N", "url": "https://x", "de\"sc": 1}"#;
        let plain = r#"{"skill_id": "a", "name": "N", "url": "https://x", "de\"sc": 1}"#;
        let super::Item(a, took) = serde_json::from_str(escaped).unwrap();
        let super::Item(b, _) = serde_json::from_str(plain).unwrap();
        assert!(took);
        let a = a.unwrap();
        assert_eq!((a.skill_id.as_str(), a.name.as_str()), ("a", "N"));
        assert_eq!(a.extra["de\"sc"], serde_json::json!(1));
        assert_eq!(Ok(a), b);
    }

    #[test]
    fn field_index_is_the_position_in_fields() {
        for (i, f) in FIELDS.iter().enumerate() {
            assert_eq!(field_index(f), Some(i), "{f}");
        }
        for other in [
            "",
            "Skill_id",
            "skill_id ",
            "extra",
            "popularity.downloads",
            "names",
        ] {
            assert_eq!(field_index(other), None, "{other}");
        }
    }
}
