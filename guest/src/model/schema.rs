//! `schema/candidates.schema.json` is generated from [`Candidate`] (its fields, types and doc comments)
//! by schemars; these tests keep the committed file, the model, the WIT `candidate` record and the
//! examples in agreement. `UPDATE_SCHEMA=1 cargo test -p guest --lib schema` rewrites the file.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The schema of the candidates input: a list (bare, or under `candidates`) of [`Candidate`]s.
pub fn candidates_schema() -> Value {
    let generated = serde_json::to_value(schemars::schema_for!(Candidate)).unwrap();
    let mut candidate = generated.as_object().unwrap().clone();
    let defs = candidate.remove("$defs").unwrap_or_else(|| json!({}));
    candidate.remove("$schema");
    candidate.insert("required".into(), json!(REQUIRED_FIELDS));
    let mut all = defs.as_object().unwrap().clone();
    all.insert("Candidate".into(), Value::Object(candidate));
    let list = json!({"type": "array", "items": {"$ref": "#/$defs/Candidate"}});
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "skill-recommender candidates",
        "description": "What `recommend`, `filter`, `scan` and `rank` take as --candidates: {\"candidates\": [...]} or a bare array of candidate objects (a single candidate object is a list of one). Only skill_id, name, url and description are required; a source that states no update date or counts leaves them out (unknown, never read as stale or unpopular). The same commands also accept a registry's own API response (detected, or named with {\"from\": \"clawhub\", \"response\": ...}), which this schema does not describe. Generated from the Rust model (guest/src/model.rs); examples in schema/examples/.",
        "anyOf": [
            list,
            {
                "type": "object",
                "properties": {
                    "candidates": list,
                    "demo": {"type": "boolean", "description": "The bundled sample data: cards say they are a demonstration, nothing is recorded."}
                },
                "required": ["candidates"]
            },
            {"$ref": "#/$defs/Candidate"}
        ],
        "$defs": all,
    })
}

fn pretty(v: &Value) -> String {
    let mut text = serde_json::to_string_pretty(v).unwrap();
    text.push('\n');
    text
}

#[test]
fn the_schema_file_is_generated_from_the_model() {
    let fresh = pretty(&candidates_schema());
    let path = root().join("schema/candidates.schema.json");
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "schema/candidates.schema.json is out of date with guest/src/model.rs; run UPDATE_SCHEMA=1 cargo test -p guest --lib schema and review the diff"
    );
}

fn schema_properties() -> Vec<String> {
    let s = candidates_schema();
    let mut keys: Vec<String> = s["$defs"]["Candidate"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    keys.sort();
    keys
}

/// The WIT record's fields, snake_case.
fn wit_fields() -> Vec<String> {
    let wit = include_str!("../../../wit/recommender.wit");
    let start = wit
        .find("record candidate {")
        .expect("the WIT declares record candidate");
    let body = &wit[start..start + wit[start..].find("\n    }").unwrap()];
    let mut fields: Vec<String> = body
        .lines()
        .skip(1)
        .map(str::trim)
        .filter(|l| !l.starts_with("///") && l.contains(':'))
        .map(|l| {
            l.split(':')
                .next()
                .unwrap()
                .trim_start_matches('%')
                .replace('-', "_")
        })
        .collect();
    fields.sort();
    fields
}

/// The model's fields as a fully filled candidate serializes them.
fn model_fields() -> Vec<String> {
    let full = Candidate {
        source_code_url: Some("u".into()),
        source_subpath: Some("s".into()),
        owner: Some("o".into()),
        updated_at: Some("t".into()),
        complexity: Some("c".into()),
        trend: Some(json!({})),
        risk_level: Some("low".into()),
        registry: Some(Box::default()),
        tagline: Some("t".into()),
        pain_point: Some("p".into()),
        highlights: vec!["h".into()],
        raw_content: Some("r".into()),
        platforms: vec!["linux".into()],
        prerequisites: Prerequisites {
            commands: vec!["jq".into()],
            ..Default::default()
        },
        bundle_files: vec!["scripts/x.py".into()],
        ..Default::default()
    };
    let mut keys: Vec<String> = serde_json::to_value(&full)
        .unwrap()
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    keys.sort();
    keys
}

#[test]
fn schema_model_and_wit_record_name_the_same_fields() {
    assert_eq!(schema_properties(), model_fields(), "schema vs model");
    assert_eq!(wit_fields(), model_fields(), "WIT record vs model");
    // The fast parser knows the same fields (anything else would land in `extra`).
    let mut fast_fields: Vec<String> = super::fast::FIELDS.iter().map(|f| f.to_string()).collect();
    fast_fields.sort();
    assert_eq!(fast_fields, model_fields(), "fast parser vs model");
    let s = candidates_schema();
    assert_eq!(s["$defs"]["Candidate"]["required"], json!(REQUIRED_FIELDS));
    // The nested records too.
    let pop: Vec<&String> = s["$defs"]["Popularity"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(pop, ["downloads", "stars"]);
}

fn example(name: &str) -> Value {
    serde_json::from_str(&read(&format!("schema/examples/{name}"))).unwrap()
}

/// The JSON type names a value has, for a shallow check against the schema's `type`.
fn type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_u64() || n.is_i64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Each property's value has a type the schema allows (after following `$ref`s).
fn check_types(c: &Value, schema: &Value) {
    let defs = &schema["$defs"];
    let props = &defs["Candidate"]["properties"];
    for (k, v) in c.as_object().unwrap() {
        let mut p = &props[k];
        assert!(!p.is_null(), "{k} is not in the schema");
        if let Some(r) = p["$ref"].as_str().or_else(|| {
            p["anyOf"]
                .as_array()
                .and_then(|a| a.iter().find_map(|x| x["$ref"].as_str()))
        }) {
            p = &defs[r.trim_start_matches("#/$defs/")];
        }
        let allowed: Vec<&str> = match &p["type"] {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => continue, // any value (e.g. `trend`)
        };
        let t = type_of(v);
        assert!(
            allowed.contains(&t) || (t == "integer" && allowed.contains(&"number")),
            "{k}: {t} is not one of {allowed:?}"
        );
    }
}

#[test]
fn the_examples_are_valid_and_complete() {
    let schema = candidates_schema();
    let minimal = example("minimal.json");
    let full = example("full.json");
    for (name, ex) in [("minimal", &minimal), ("full", &full)] {
        let list = ex["candidates"].as_array().unwrap();
        assert!(!list.is_empty());
        for c in list {
            check_types(c, &schema);
            let parsed = parse_one(c.clone()).unwrap_or_else(|e| panic!("{name}: {e}"));
            for f in REQUIRED_FIELDS {
                assert!(c.get(f).is_some(), "{name} lacks {f}");
            }
            assert!(
                !parsed.description.trim().is_empty() && parsed.url.starts_with("https://"),
                "{name}"
            );
        }
    }
    // Minimal: the required fields plus the source, what any search result gives.
    let mut keys: Vec<&String> = minimal["candidates"][0]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    keys.sort();
    assert_eq!(keys, ["description", "name", "skill_id", "source", "url"]);
    // Full: every field of the schema.
    let mut keys: Vec<String> = full["candidates"][0]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    keys.sort();
    assert_eq!(keys, schema_properties());
    // The messages that teach the format quote the minimal example.
    let quoted: Value = serde_json::from_str(crate::input::MINIMAL_EXAMPLE).unwrap();
    assert_eq!(quoted, minimal);
}
