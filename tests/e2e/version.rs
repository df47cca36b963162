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

/// The WIT is the contract: every interface, type, field, case and function carries a `///` line.
#[test]
fn every_wit_item_is_documented() {
    let wit = std::fs::read_to_string(root().join("wit/recommender.wit")).unwrap();
    let mut undocumented = Vec::new();
    let mut previous = "";
    for (n, line) in wit.lines().enumerate() {
        let t = line.trim();
        let is_item = !(t.is_empty()
            || t.starts_with("//")
            || t.starts_with('}')
            || t.starts_with("use ")
            || t.starts_with("package ")
            || t.starts_with("import ")
            || t.starts_with("export "));
        if is_item && !previous.starts_with("///") {
            undocumented.push(format!("{}: {t}", n + 1));
        }
        if !t.is_empty() {
            previous = t;
        }
    }
    assert!(
        undocumented.is_empty(),
        "undocumented WIT items:\n{}",
        undocumented.join("\n")
    );
}

/// The daily card shown in the README is the golden file, byte for byte.
#[test]
fn readme_card_example_is_the_golden_card() {
    let readme = std::fs::read_to_string(crate::common::root().join("docs/scoring.md")).unwrap();
    let golden =
        std::fs::read_to_string(crate::common::root().join("guest/tests/golden/daily.zh.txt"))
            .unwrap();
    assert!(
        readme.contains(&format!("```text\n{golden}```\n")),
        "docs/scoring.md's daily card differs from guest/tests/golden/daily.zh.txt"
    );
}
