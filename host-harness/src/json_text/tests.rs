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

proptest! {
    /// The word-at-a-time scan finds the same first `"` or `\` as a byte-by-byte search, at every
    /// position (inside the first eight-byte words, in the tail shorter than a word, and past the
    /// short-string limit where `memchr2` takes over), and none when there is none.
    #[test]
    fn quote_or_backslash_is_the_first_one(
        bytes in prop::collection::vec(prop_oneof![
            8 => any::<u8>().prop_filter("no quote or backslash", |b| *b != b'"' && *b != b'\\'),
            1 => Just(b'"'),
            1 => Just(b'\\'),
        ], 0..200),
        cut in 0usize..200,
    ) {
        // Also a string with none at all before `cut`.
        let mut clean = bytes.clone();
        for b in clean.iter_mut().take(cut) {
            if *b == b'"' || *b == b'\\' {
                *b = b'a';
            }
        }
        for s in [&bytes, &clean] {
            let naive = s.iter().position(|&b| b == b'"' || b == b'\\');
            prop_assert_eq!(quote_or_backslash(s), naive);
            prop_assert_eq!(quote_or_backslash_words(s), naive);
        }
    }
}

#[test]
fn quote_or_backslash_at_word_and_limit_edges() {
    // Word (8) and vector (16) edges, the short-string limit (64) and past it.
    for len in [
        0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 79, 80, 81, 130,
    ] {
        for at in 0..len {
            for c in [b'"', b'\\'] {
                let mut s = vec![b'x'; len];
                s[at] = c;
                assert_eq!(quote_or_backslash(&s), Some(at), "len {len}, at {at}");
                assert_eq!(quote_or_backslash_words(&s), Some(at), "len {len}, at {at}");
                // Bytes that differ from a quote by one bit, and high bytes, are not matches.
                let mut near = vec![0xa2u8; len];
                near[at] = c;
                assert_eq!(quote_or_backslash(&near), Some(at), "len {len}, at {at}");
            }
        }
        assert_eq!(quote_or_backslash(&vec![0x23u8; len]), None);
        assert_eq!(quote_or_backslash(&vec![0x5du8; len]), None);
    }
}

/// `write_seeing` gives each top-level member of the component's object, with or without members of
/// the host's, the last of a repeated key last, and what it gives agrees with `top_member`; a value
/// that is not an object gives none.
#[test]
fn write_seeing_gives_the_top_level_members() {
    let text = r#"{"a":[1,{"summary":0}],"summary":{"kept":2},"z":"x\"y","summary":{"kept":3}}"#;
    let extra = json!({"n": 1});
    for added in [vec![], vec![("m", &extra)], vec![("summary", &extra)]] {
        let mut members = Vec::new();
        let mut out = Vec::new();
        write_seeing(&mut out, text, &added, true, &mut |k, v| {
            members.push((k.to_owned(), v))
        })
        .unwrap();
        let keys: Vec<&str> = members.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["a", "summary", "z", "summary"]);
        assert_eq!(members[2].1, r#""x\"y""#);
        let last = members
            .iter()
            .rev()
            .find(|(k, _)| k == "summary")
            .unwrap()
            .1;
        assert_eq!(Some(last), top_member(text, "summary"));
        // The same output as `write`.
        let mut plain = Vec::new();
        write(&mut plain, text, &added, true).unwrap();
        assert_eq!(out, plain);
    }
    let mut n = 0;
    write_seeing(&mut Vec::new(), "[1,2]", &[], true, &mut |_, _| n += 1).unwrap();
    assert_eq!(n, 0);
}
