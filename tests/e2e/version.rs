//! One version everywhere: VERSION.json, the crates, the WIT package, SKILL.md.

use crate::common::root;

#[test]
fn versions_agree() {
    let cargo = env!("CARGO_PKG_VERSION");
    let version: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("VERSION.json")).unwrap())
            .unwrap();
    assert_eq!(version["version"], cargo, "VERSION.json");
    assert_eq!(version["name"], "skill-recommender");
    let wit = std::fs::read_to_string(root().join("wit/recommender.wit")).unwrap();
    assert!(
        wit.contains(&format!("package skill-recommender:core@{cargo};")),
        "wit package version"
    );
    assert_eq!(host_harness::CONTRACT_VERSION, cargo);
    assert_eq!(guest::lifecycle::COMPONENT_VERSION, cargo);
    let skill = std::fs::read_to_string(root().join("SKILL.md")).unwrap();
    assert!(
        skill.contains(&format!("version: \"{cargo}\"")),
        "SKILL.md metadata.version"
    );
}
