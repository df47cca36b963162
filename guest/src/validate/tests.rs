use super::*;
use crate::scan::bundle::BundleFile;

fn bundle(name: &str, skill_md: &str) -> Bundle {
    Bundle {
        name: name.into(),
        files: vec![text("SKILL.md", skill_md)],
        notes: vec![],
    }
}

fn text(path: &str, content: &str) -> BundleFile {
    BundleFile::text(path, content)
}

fn codes(v: &Value, key: &str) -> Vec<String> {
    v[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap().to_owned())
        .collect()
}

const GOOD: &str = "---\nname: pdf-tables\ndescription: Extract tables from PDF files.\nlicense: MIT\ncompatibility: Needs python3.\nmetadata:\n  version: \"1.0\"\nallowed-tools: Bash Read\n---\n# PDF tables\nUse it.\n";

#[test]
fn a_valid_skill_passes_strict() {
    let v = validate(&bundle("pdf-tables", GOOD), true);
    assert_eq!(v["valid"], true, "{v}");
    assert!(codes(&v, "warnings").is_empty());
    assert_eq!(v["metadata"]["name"], "pdf-tables");
    // A BOM is tolerated.
    let v = validate(&bundle("pdf-tables", &format!("\u{feff}{GOOD}")), true);
    assert_eq!(v["valid"], true);
}

#[test]
fn every_spec_rule_has_a_code() {
    let cases: &[(&str, &str, &str)] = &[
        ("no frontmatter", "# Title\n", "missing_frontmatter"),
        (
            "unclosed",
            "---\nname: a\ndescription: b\n",
            "unclosed_frontmatter",
        ),
        ("bad yaml", "---\nname: [a\n---\nbody\n", "yaml_parse_error"),
        (
            "not a map",
            "---\n- a\n- b\n---\nbody\n",
            "frontmatter_not_mapping",
        ),
        (
            "no name",
            "---\ndescription: d\n---\nbody\n",
            "missing_name",
        ),
        (
            "no desc",
            "---\nname: p\n---\nbody\n",
            "missing_description",
        ),
        (
            "empty desc",
            "---\nname: p\ndescription: \"  \"\n---\nbody\n",
            "missing_description",
        ),
        (
            "compat",
            &format!(
                "---\nname: p\ndescription: d\ncompatibility: {}\n---\nbody\n",
                "x".repeat(501)
            ),
            "compatibility_too_long",
        ),
        (
            "license",
            "---\nname: p\ndescription: d\nlicense: [MIT]\n---\nbody\n",
            "invalid_license",
        ),
        (
            "tools",
            "---\nname: p\ndescription: d\nallowed-tools: [Bash]\n---\nbody\n",
            "invalid_allowed_tools",
        ),
        (
            "metadata",
            "---\nname: p\ndescription: d\nmetadata: text\n---\nbody\n",
            "invalid_metadata",
        ),
    ];
    for (what, md, code) in cases {
        let v = validate(&bundle("p", md), false);
        assert!(
            codes(&v, "errors").contains(&code.to_string()),
            "{what}: {v}"
        );
        assert_eq!(v["valid"], false, "{what}");
    }
    let long = format!(
        "---\nname: p\ndescription: {}\n---\nbody\n",
        "d".repeat(1025)
    );
    assert!(
        codes(&validate(&bundle("p", &long), false), "errors")
            .contains(&"description_too_long".to_owned())
    );
    let ok = format!(
        "---\nname: p\ndescription: {}\n---\nbody\n",
        "d".repeat(1024)
    );
    assert_eq!(
        validate(&bundle("p", &ok), true)["valid"],
        true,
        "1024 characters is allowed"
    );
}

#[test]
fn lenient_mode_warns_and_loads_where_the_spec_says_so() {
    let mismatch = "---\nname: other-name\ndescription: d\n---\nbody\n";
    let v = validate(&bundle("p", mismatch), false);
    assert_eq!(v["valid"], true);
    assert_eq!(codes(&v, "warnings"), ["name_mismatch"]);
    assert_eq!(
        validate(&bundle("p", mismatch), true)["valid"],
        false,
        "strict: every rule is an error"
    );
    let long_name = format!("---\nname: {}\ndescription: d\n---\nbody\n", "a".repeat(65));
    let v = validate(&bundle(&"a".repeat(65), &long_name), false);
    assert_eq!(
        (v["valid"].clone(), codes(&v, "warnings")),
        (json!(true), vec!["name_too_long".to_owned()])
    );
    let extra = "---\nname: p\ndescription: d\nplatforms: [macos]\nalways: true\n---\nbody\n";
    let v = validate(&bundle("p", extra), false);
    assert_eq!(v["valid"], true);
    assert_eq!(codes(&v, "warnings"), ["unknown_field", "unknown_field"]);
    assert_eq!(validate(&bundle("p", extra), true)["valid"], false);
    let empty_body = "---\nname: p\ndescription: d\n---\n\n";
    assert_eq!(
        codes(&validate(&bundle("p", empty_body), false), "warnings"),
        ["empty_body"]
    );
    let strict = validate(&bundle("p", empty_body), true);
    assert_eq!(
        (strict["valid"].clone(), codes(&strict, "warnings")),
        (json!(true), vec!["empty_body".to_owned()]),
        "the spec does not require a body: a warning in strict mode too"
    );
}

#[test]
fn names_off_the_format_load_with_a_warning_and_fail_strict() {
    for (name, dir) in [
        ("PDF", "PDF"),
        ("-pdf", "-pdf"),
        ("p--df", "p--df"),
        ("My Skill", "My Skill"),
    ] {
        let md = format!("---\nname: {name}\ndescription: d\n---\nbody\n");
        let v = validate(&bundle(dir, &md), false);
        assert_eq!(v["valid"], true, "{name}: {v}");
        assert_eq!(codes(&v, "warnings"), ["invalid_name"], "{name}");
        let v = validate(&bundle(dir, &md), true);
        assert_eq!(
            (v["valid"].clone(), codes(&v, "errors")),
            (json!(false), vec!["invalid_name".to_owned()]),
            "{name}"
        );
    }
    // A name that is off the format and differs from the folder: two warnings, still loads.
    let v = validate(
        &bundle(
            "csv-helper",
            "---\nname: CSV_Helper\ndescription: d\n---\nbody\n",
        ),
        false,
    );
    assert_eq!(v["valid"], true);
    assert_eq!(codes(&v, "warnings"), ["invalid_name", "name_mismatch"]);
}

#[test]
fn unquoted_colons_are_retried_as_plain_strings() {
    let md = "---\nname: p\ndescription: Convert files: PDF to Excel\n---\nbody\n";
    let v = validate(&bundle("p", md), false);
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["metadata"]["description"], "Convert files: PDF to Excel");
    assert_eq!(codes(&v, "warnings"), ["unquoted_colon"]);
    assert_eq!(
        validate(&bundle("p", md), true)["valid"],
        false,
        "strict does not retry"
    );
}

#[test]
fn yaml_alias_bombs_and_deep_nesting_are_refused() {
    let mut bomb =
        String::from("---\nname: p\ndescription: d\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let refs = (0..10)
            .map(|_| format!("*a{}", i - 1))
            .collect::<Vec<_>>()
            .join(", ");
        bomb.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    bomb.push_str("---\nbody\n");
    let v = validate(&bundle("p", &bomb), false);
    assert_eq!(v["valid"], false);
    assert!(
        codes(&v, "errors").contains(&"yaml_parse_error".to_owned()),
        "{v}"
    );
    let deep = format!(
        "---\nname: p\ndescription: d\nx: {}{}\n---\nbody\n",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    assert_eq!(validate(&bundle("p", &deep), false)["valid"], false);
}

#[test]
fn bundle_rules() {
    let mut b = bundle("p", GOOD.replace("pdf-tables", "p").as_str());
    b.files.push(text("../escape.sh", "echo"));
    b.files.push(text("/etc/passwd", "x"));
    b.files.push(text("C:\\evil.bat", "x"));
    b.files.push(text("scripts\\run.sh", "x"));
    b.files.push(text("scripts/run.sh", "x"));
    let v = validate(&b, false);
    let errors = codes(&v, "errors");
    for code in ["path_escapes_root", "absolute_path", "duplicate_path"] {
        assert!(errors.contains(&code.to_owned()), "{code}: {errors:?}");
    }
    assert_eq!(
        errors.iter().filter(|c| *c == "absolute_path").count(),
        2,
        "unix and drive-letter paths"
    );
    let mut many = bundle("p", GOOD.replace("pdf-tables", "p").as_str());
    for i in 0..MAX_FILES {
        many.files.push(text(&format!("f{i}.md"), "x"));
    }
    assert!(codes(&validate(&many, false), "errors").contains(&"too_many_files".to_owned()));
    let none = Bundle {
        name: "p".into(),
        files: vec![text("README.md", "x")],
        notes: vec![],
    };
    assert!(codes(&validate(&none, false), "errors").contains(&"missing_skill_md".to_owned()));
}
