//! Hostile-input properties: whatever JSON or text arrives, the domain code returns a value or a clean
//! error — it never panics (in the component a panic is a trap).

use guest::lifecycle::{self, FeedbackAction, PromptSource, SkillRef};
use guest::{Ctx, MemoryStore};
use proptest::prelude::*;
use serde_json::{Value, json};

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "[ -~一-龥]{0,12}".prop_map(Value::String),
        prop::sample::select(vec![
            "enabled",
            "unset",
            "shown",
            "2026-11-29T09:00:00Z",
            "1760000000000",
            "12.4k",
            "clawhub"
        ])
        .prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "daily_rec_status",
                    "recommendations",
                    "skill_id",
                    "date",
                    "user_action",
                    "categories",
                    "installed_skill_ids",
                    "last_actions",
                    "accepted_categories",
                    "timezone",
                    "push_time_local",
                    "slug",
                    "displayName",
                    "stats",
                    "downloads",
                    "updatedAt",
                    "owner",
                    "items",
                    "skills",
                    "candidates",
                    "popularity",
                    "name",
                    "url",
                    "description",
                    "source",
                    "x",
                ]),
                inner,
                0..6,
            )
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn lifecycle_commands_never_panic_on_any_stored_documents(state in arb_json(), history in arb_json()) {
        let (s, h) = (state.to_string(), history.to_string());
        let ctx = Ctx::at("2026-11-29T09:00:00Z");
        let skill = SkillRef { skill_id: "clawhub:a".into(), categories: vec!["pdf".into()], ..Default::default() };
        let mut store = MemoryStore::with(Some(&s), Some(&h));
        let _ = lifecycle::status(&ctx, &mut store);
        let _ = lifecycle::prompt_daily(&ctx, &mut store, PromptSource::Manual);
        let _ = lifecycle::enable_daily(&ctx, &mut store, true);
        let _ = lifecycle::daily_gate(&ctx, &mut store, false);
        let _ = lifecycle::feedback(&ctx, &mut store, FeedbackAction::Accept, &skill);
        let _ = guest::filter::run(&ctx, &mut store, guest::filter::Mode::Daily, &json!({"candidates": [state, history]}).to_string(), &[]);
    }

    #[test]
    fn normalize_never_panics_on_any_json(v in arb_json()) {
        let text = v.to_string();
        let _ = guest::normalize::normalize(&text, None, &Default::default());
        for r in [guest::normalize::Registry::Clawhub, guest::normalize::Registry::Skillssh, guest::normalize::Registry::Smithery,
                  guest::normalize::Registry::Glama, guest::normalize::Registry::Skillhub, guest::normalize::Registry::Github,
                  guest::normalize::Registry::Mcpmarket, guest::normalize::Registry::Candidates] {
            let _ = guest::normalize::normalize(&text, Some(r), &Default::default());
        }
    }

    #[test]
    fn scanning_and_validating_never_panic_on_any_text(text in "\\PC{0,400}", path in prop::sample::select(vec!["SKILL.md", "a.sh", "b.py", "c.txt", ".hidden/x", "noext"])) {
        let rules = guest::scan::RuleSet::builtin();
        let _ = guest::scan::scan_text(rules, path, &text);
        let bundle = guest::scan::Bundle {
            name: "p".into(),
            files: vec![guest::scan::BundleFile::text("SKILL.md", &format!("---\n{text}\n---\n{text}"))],
            notes: vec![],
        };
        let _ = guest::validate::validate(&bundle, true);
        let _ = guest::validate::validate(&bundle, false);
        let _ = guest::yaml::parse(&text);
    }
}
