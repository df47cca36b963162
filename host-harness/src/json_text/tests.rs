use super::*;
use proptest::prelude::*;
use serde_json::json;

fn pretty(text: &str, extra: &[(&str, &Value)]) -> io::Result<String> {
    let mut out = Vec::new();
    write(&mut out, text, extra, true)?;
    Ok(String::from_utf8(out).unwrap())
}

fn compact(text: &str, extra: &[(&str, &Value)]) -> io::Result<String> {
    let mut out = Vec::new();
    write(&mut out, text, extra, false)?;
    Ok(String::from_utf8(out).unwrap())
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        (-1e12f64..1e12).prop_map(|f| json!(f)),
        "[a-z\"\\\\/\t\né中😀 ]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_\"\\\\é]{0,6}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    /// Without extra members the output is exactly what serde_json prints for the same value.
    #[test]
    fn reformatting_equals_serde_json(v in value()) {
        let text = v.to_string();
        prop_assert_eq!(pretty(&text, &[]).unwrap(), serde_json::to_string_pretty(&v).unwrap());
        prop_assert_eq!(compact(&text, &[]).unwrap(), text.clone());
        // White space in the input does not matter.
        let spaced = serde_json::to_string_pretty(&v).unwrap();
        prop_assert_eq!(compact(&spaced, &[]).unwrap(), text);
    }

    /// Extra members land where a tree would put them (the component's top-level keys are sorted)
    /// and replace a member of the same name.
    #[test]
    fn extra_members_are_merged_like_a_tree(
        base in prop::collection::btree_map("[a-z]{1,3}", value(), 0..6),
        extra in prop::collection::btree_map("[a-z]{1,3}", value(), 0..4),
    ) {
        let base = Value::Object(base.into_iter().collect());
        let text = base.to_string();
        let mut merged = base.clone();
        for (k, v) in &extra {
            merged[k.as_str()] = v.clone();
        }
        let extra: Vec<(&str, &Value)> = extra.iter().map(|(k, v)| (k.as_str(), v)).collect();
        prop_assert_eq!(pretty(&text, &extra).unwrap(), serde_json::to_string_pretty(&merged).unwrap());
        prop_assert_eq!(compact(&text, &extra).unwrap(), merged.to_string());
    }
}

#[test]
fn member_order_is_kept_below_the_top_level() {
    let text = r#"{"b":[],"a":{"z":1,"y":{}},"c":[1,{"q":null}]}"#;
    let discovery = json!({"scanned": []});
    assert_eq!(
        pretty(text, &[("discovery", &discovery)]).unwrap(),
        "{\n  \"b\": [],\n  \"a\": {\n    \"z\": 1,\n    \"y\": {}\n  },\n  \"c\": [\n    1,\n    {\n      \"q\": null\n    }\n  ],\n  \"discovery\": {\n    \"scanned\": []\n  }\n}"
    );
    assert_eq!(compact("{}", &[("a", &json!(1))]).unwrap(), r#"{"a":1}"#);
    assert_eq!(pretty("{}", &[]).unwrap(), "{}");
}

#[test]
fn malformed_or_hostile_text_is_an_error() {
    for bad in [
        "",
        "{",
        r#"{"a":}"#,
        r#"{"a" 1}"#,
        r#"{"a":1,}"#,
        r#"{"a":"x}"#,
        r#"[1 2]"#,
        r#"{"a":1} x"#,
        r#"{"a":1}}"#,
    ] {
        let err = pretty(bad, &[("k", &json!(1))]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{bad:?}");
    }
    assert!(
        pretty("[1]", &[("k", &json!(1))]).is_err(),
        "extras need an object"
    );
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(
        pretty(&deep, &[]).is_err(),
        "no stack overflow on deep nesting"
    );
    let fine = format!("{}{}", "[".repeat(100), "]".repeat(100));
    assert_eq!(
        compact(&fine, &[]).unwrap(),
        fine,
        "ordinary nesting is fine"
    );
}

#[test]
fn large_output_is_written_in_chunks_and_whole() {
    let items: Vec<Value> = (0..20_000)
        .map(|i| json!({"skill_id": format!("x:{i}"), "n": i}))
        .collect();
    let v = json!({"kept": items, "mode": "manual"});
    let text = v.to_string();
    assert_eq!(
        pretty(&text, &[]).unwrap(),
        serde_json::to_string_pretty(&v).unwrap()
    );
}

#[test]
fn top_member_finds_a_top_level_field_past_large_values() {
    let text = r#" {"kept": [{"summary": {"kept": 9}}, "\"summary\": 1"], "summary" : {"kept": 2}, "z": null} "#;
    assert_eq!(top_member(text, "summary"), Some(r#"{"kept": 2}"#));
    assert_eq!(top_member(text, "z"), Some("null"));
    assert_eq!(top_member(text, "missing"), None);
    assert_eq!(top_member("[1]", "kept"), None);
    assert_eq!(top_member("{}", "kept"), None);
    assert_eq!(top_member(r#"{"kept": [1, "#, "kept"), None, "malformed");
    assert_eq!(top_member(r#"{"k\u0065pt": 3}"#, "kept"), Some("3"));
}

proptest! {
    #[test]
    fn top_member_agrees_with_a_parse(v in value()) {
        let text = v.to_string();
        if let Value::Object(map) = &v {
            for (k, expected) in map {
                // The compact text of a member is the member's value written on its own.
                let alone = expected.to_string();
                prop_assert_eq!(top_member(&text, k), Some(alone.as_str()));
            }
        }
    }
}
