//! Every accepted shape, and the errors that teach.

use super::*;
use serde_json::json;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/fixtures/registries")
            .join(name),
    )
    .unwrap()
}

fn err(text: &str) -> String {
    match parse(text).unwrap_err() {
        Error::InvalidInput { field, message } => {
            assert_eq!(field, "candidates", "{message}");
            message
        }
        other => panic!("expected invalid input, got {other:?}"),
    }
}

#[test]
fn candidate_lists_in_both_wrappers_and_alone() {
    let one = json!({"skill_id": "github:a/b", "name": "b", "url": "https://github.com/a/b",
        "description": "Does a thing well enough to be useful."});
    for text in [
        json!([one]).to_string(),
        json!({"candidates": [one]}).to_string(),
        one.to_string(),
    ] {
        let input = parse(&text).unwrap();
        assert_eq!(input.items.len(), 1, "{text}");
        assert_eq!(input.items[0].as_ref().unwrap().skill_id, "github:a/b");
        assert_eq!(input.normalized_from, None);
        assert!(!input.demo);
    }
    let demo = parse(&json!({"demo": true, "candidates": [one]}).to_string()).unwrap();
    assert!(demo.demo);
}

#[test]
fn every_registry_fixture_is_read_as_its_registry() {
    let cases = [
        ("clawhub-search.json", Registry::Clawhub),
        ("clawhub-list.json", Registry::Clawhub),
        ("clawhub-detail.json", Registry::Clawhub),
        ("skillssh-search.json", Registry::Skillssh),
        ("smithery-servers.json", Registry::Smithery),
        ("glama-servers.json", Registry::Glama),
        ("skillhub-search.json", Registry::Skillhub),
        ("github-search.json", Registry::Github),
        ("github-repo.json", Registry::Github),
        ("mcpmarket-page.json", Registry::Mcpmarket),
    ];
    for (file, registry) in cases {
        let text = fixture(file);
        let input = parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(input.normalized_from, Some(registry), "{file}");
        // The same candidates `normalize` gives.
        let n = crate::normalize::normalize(&text, None, &Options::default()).unwrap();
        let ok: Vec<&Candidate> = input.items.iter().filter_map(|i| i.as_ref().ok()).collect();
        assert_eq!(ok, n.candidates.iter().collect::<Vec<_>>(), "{file}");
        assert_eq!(input.items.len() - ok.len(), n.skipped.len(), "{file}");
    }
}

#[test]
fn a_bare_array_of_registry_items_is_normalized() {
    let text = json!([{"slug": "meeting-notes", "displayName": "Meeting Notes", "summary": "Turns meeting recordings into notes.",
        "stats": {"downloads": 12}, "owner": {"handle": "acme"}}]).to_string();
    let input = parse(&text).unwrap();
    assert_eq!(input.normalized_from, Some(Registry::Clawhub));
    let c = input.items[0].as_ref().unwrap();
    assert_eq!(c.skill_id, "clawhub:meeting-notes");
    assert_eq!(c.url, "https://clawhub.ai/acme/meeting-notes");
}

#[test]
fn the_from_wrapper_names_the_registry() {
    // A skills.sh item that detection alone would not place.
    let text = json!({"from": "skillssh", "response": {"skills": [{"id": "acme/skills/notes", "name": "notes"}]}}).to_string();
    let input = parse(&text).unwrap();
    assert_eq!(input.normalized_from, Some(Registry::Skillssh));
    assert_eq!(
        input.items[0].as_ref().unwrap().skill_id,
        "skillssh:acme/skills/notes"
    );
    let base = json!({"from": "skillhub", "base_url": "https://hub.example.com", "response": {"results": [{"slug": "notes", "name": "notes"}]}});
    let input = parse(&base.to_string()).unwrap();
    assert_eq!(
        input.items[0].as_ref().unwrap().url,
        "https://hub.example.com/skills/notes"
    );
    let bad = parse(&json!({"from": "myspace", "response": {}}).to_string()).unwrap_err();
    assert!(
        matches!(&bad, Error::InvalidInput { field, message } if field == "from" && message.contains("clawhub")),
        "{bad:?}"
    );
}

#[test]
fn a_mixed_list_is_refused_naming_the_item() {
    let text = json!([
        {"skill_id": "github:a/b", "name": "b", "url": "https://github.com/a/b", "description": "Does a thing well enough."},
        {"full_name": "c/d", "html_url": "https://github.com/c/d", "description": "A repository."}
    ])
    .to_string();
    let m = err(&text);
    assert!(
        m.contains("item 1") && m.contains("item 0") && m.contains("normalize --from github"),
        "{m}"
    );
    // Raw items first: the first candidate is named, after entries that are not candidates.
    let text = json!([
        {"full_name": "c/d", "html_url": "https://github.com/c/d", "description": "A repository."},
        "a stray string",
        {"skill_id": "github:a/b", "name": "b", "url": "https://github.com/a/b", "description": "Does a thing well enough."}
    ])
    .to_string();
    let m = err(&text);
    assert!(
        m.contains("item 0 is a raw") && m.contains("item 2 is a candidate"),
        "{m}"
    );
}

#[test]
fn errors_teach_what_was_expected() {
    let m = err(r#"["pdf-tool", "k8s-tool"]"#);
    assert!(
        m.contains("list of 2 string") && m.contains("skill_id") && m.contains(SCHEMA_PATH),
        "{m}"
    );
    let m = err("pdf-tool: extracts tables\nk8s-tool: deploys things");
    assert!(
        m.starts_with("not JSON") && m.contains("\"candidates\"") && m.contains(SCHEMA_PATH),
        "{m}"
    );
    let m = err(r#"{"hits": [{"title": "x"}]}"#);
    assert!(
        m.contains("keys hits") && m.contains("--from") && m.contains("normalize"),
        "{m}"
    );
    let m = err("42");
    assert!(m.contains("got a number"), "{m}");
    let m = err(r#"{"candidates": 3}"#);
    assert!(m.contains("candidates"), "{m}");
}

#[test]
fn strings_among_objects_are_single_bad_items_and_empty_lists_are_fine() {
    let input = parse(r#"[{"skill_id": "a"}, "b"]"#).unwrap();
    assert_eq!(input.items[1], Err(NOT_AN_OBJECT.to_owned()));
    assert!(parse("[]").unwrap().items.is_empty());
    assert!(parse(r#"{"results": []}"#).unwrap().items.is_empty());
}

#[test]
fn unknown_counts_stay_unknown_through_a_round_trip() {
    let input = parse(r#"[{"skill_id": "a", "name": "a"}, {"skill_id": "b", "popularity": {"stars": 3}}, {"skill_id": "c", "popularity": null}]"#).unwrap();
    let c: Vec<&Candidate> = input.items.iter().map(|i| i.as_ref().unwrap()).collect();
    assert!(c[0].popularity.unknown && !c[1].popularity.unknown && c[2].popularity.unknown);
    let back = serde_json::to_value(c[0]).unwrap();
    assert!(back.get("popularity").is_none(), "{back}");
    let again = parse(&json!([back]).to_string()).unwrap();
    assert!(again.items[0].as_ref().unwrap().popularity.unknown);
}
