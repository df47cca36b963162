//! The command layer without the component: argument parsing, schemas, results.

use serde_json::{Value, json};

use super::*;

fn schema_of<T: schemars::JsonSchema>() -> Value {
    serde_json::to_value(schemars::schema_for!(T)).unwrap()
}

#[test]
fn every_argument_schema_is_an_object_with_its_required_fields() {
    let cases = [
        // `candidates` or `sample` (the demonstration): the command says which is missing.
        (schema_of::<RecommendArgs>(), &["mode"][..]),
        (schema_of::<FilterArgs>(), &["mode", "candidates"]),
        (schema_of::<ScanArgs>(), &["mode", "candidates"]),
        (schema_of::<RankArgs>(), &["mode", "candidates"]),
        (schema_of::<RenderArgs>(), &["mode", "input"]),
        (schema_of::<NormalizeArgs>(), &["response"]),
        (schema_of::<ScanBundleArgs>(), &["path"]),
        (schema_of::<ValidateArgs>(), &["path"]),
        (schema_of::<DailyArgs>(), &["action"]),
        (schema_of::<FeedbackArgs>(), &["action", "skill_id"]),
        (schema_of::<UpdateCheckArgs>(), &["remote_version"]),
    ];
    for (schema, required) in cases {
        assert_eq!(schema["type"], "object", "{schema}");
        let mut got: Vec<&str> = schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        got.sort_unstable();
        let mut want = required.to_vec();
        want.sort_unstable();
        assert_eq!(got, want, "{schema}");
    }
    // Flattened discovery arguments are top-level properties.
    let rec = schema_of::<RecommendArgs>();
    assert!(rec["properties"]["no_discover"].is_object(), "{rec}");
    assert!(rec["properties"]["skills_dirs"].is_object(), "{rec}");
}

#[test]
fn json_arguments_become_text_whether_given_as_json_or_as_a_string() {
    let args: ScanArgs = serde_json::from_value(json!({
        "mode": "manual", "candidates": [{"skill_id": "a:b"}]
    }))
    .unwrap();
    assert_eq!(args.candidates.as_str(), r#"[{"skill_id":"a:b"}]"#);
    let args: ScanArgs = serde_json::from_value(json!({
        "mode": "daily", "candidates": "{\"candidates\": []}"
    }))
    .unwrap();
    assert_eq!(args.candidates.as_str(), "{\"candidates\": []}");
    assert_eq!(args.mode, ModeArg::Daily);
    let bad = serde_json::from_value::<ScanArgs>(json!({"mode": 42, "candidates": []}));
    assert!(bad.is_err());
}

#[test]
fn daily_actions_name_the_argument_they_miss() {
    for (action, field) in [
        (DailyAction::Prompt, "source"),
        (DailyAction::Fail, "reason"),
        (DailyAction::FailureNotice, "notice"),
    ] {
        match DailyArgs::new(action).command() {
            Err(crate::Error::InvalidInput { field: f, message }) => {
                assert_eq!(f, field);
                assert!(message.contains(field), "{message}");
            }
            other => panic!("{action:?}: {other:?}"),
        }
    }
    let args: DailyArgs =
        serde_json::from_value(json!({"action": "failure-notice", "notice": "dismiss"})).unwrap();
    assert_eq!(args.action, DailyAction::FailureNotice);
    assert!(
        args.search_capability,
        "search is assumed unless said otherwise"
    );
    assert!(matches!(
        DailyArgs::new(DailyAction::Status).command(),
        Ok(None)
    ));
    let gate: DailyArgs =
        serde_json::from_value(json!({"action": "gate", "search_capability": false})).unwrap();
    assert_eq!(
        gate.command().unwrap(),
        Some(crate::Command::DailyGate {
            search_capability: false
        })
    );
}

#[test]
fn an_output_keeps_the_guest_text_and_splices_host_fields() {
    let out = Output::from_text(r#"{"a":[2],"e":{"z":1,"y":2}}"#.into())
        .with("discovery", json!({"scanned": []}))
        .with("discovery", json!({"scanned": ["x"]}));
    assert_eq!(out.guest_text(), Some(r#"{"a":[2],"e":{"z":1,"y":2}}"#));
    assert_eq!(out.extra().len(), 1, "a field added twice keeps the last");
    assert_eq!(out.verdict(), Verdict::Done);
    assert_eq!(
        out.to_json_text(true).unwrap(),
        r#"{"a":[2],"discovery":{"scanned":["x"]},"e":{"z":1,"y":2}}"#,
        "host fields in key order at the top level; the component's members as it wrote them"
    );
    assert!(out.to_json_text(false).unwrap().contains("\n  \"a\": [\n"));
    assert_eq!(
        serde_json::from_str::<Value>(&out.to_json_text(false).unwrap()).unwrap(),
        out.to_value().unwrap()
    );
    let bad = Output::from_text("{not json".into());
    assert_eq!(bad.to_value().unwrap_err().code(), "component_load");
}

#[test]
fn verdicts_are_read_from_the_result() {
    let partial = Output::parsed(r#"{"skipped":[{"index":1}]}"#, |v| {
        if v["skipped"].as_array().is_some_and(|s| !s.is_empty()) {
            Verdict::Partial
        } else {
            Verdict::Done
        }
    })
    .unwrap();
    assert_eq!(partial.verdict(), Verdict::Partial);
    assert_eq!(partial.guest_text(), None);
    // `rank`'s result stays text: only its `skipped` list is read.
    for (text, verdict) in [
        (
            r#"{"ranked":[{"a":1}],"skipped":[{"index":1}]}"#,
            Verdict::Partial,
        ),
        (
            r#"{"ranked":[{"skipped":[1]}],"skipped":[]}"#,
            Verdict::Done,
        ),
        (r#"{"ranked":[],"skipped":null}"#, Verdict::Done),
        (r#"{"ranked":[]}"#, Verdict::Done),
    ] {
        let out = Output::text_skipped_is_partial(text.into()).unwrap();
        assert_eq!(out.verdict(), verdict, "{text}");
        assert_eq!(out.guest_text(), Some(text));
    }
    assert!(Output::text_skipped_is_partial("{not json".into()).is_err());
    assert_eq!(
        [
            Verdict::Done,
            Verdict::Partial,
            Verdict::Blocked,
            Verdict::Ask
        ]
        .map(Verdict::exit_code),
        [0, 7, 8, 9]
    );
}

#[test]
fn the_state_directory_follows_the_documented_rules() {
    let mut env = HostEnv::from_process();
    env.vars = vec![("HERMES_HOME", "/h".into())];
    env.home = Some("/home/u".into());
    env.state_dir = None;
    let (dir, source) = env.state_dir().unwrap();
    assert_eq!(dir, std::path::PathBuf::from("/h/state/skill-recommender"));
    assert_eq!(source, crate::StateDirSource::HermesHome);
    env.vars
        .insert(0, ("SKILL_RECOMMENDER_STATE_DIR", "/s".into()));
    assert_eq!(
        env.state_dir().unwrap().1,
        crate::StateDirSource::EnvStateDir
    );
    env.state_dir = Some("/flag".into());
    assert_eq!(
        env.state_dir().unwrap().0,
        std::path::PathBuf::from("/flag")
    );
}
