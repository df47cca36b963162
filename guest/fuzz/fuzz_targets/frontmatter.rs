//! SKILL.md frontmatter and the budgeted YAML parser: any text validates (strict and lenient) or is
//! refused with a message; never a panic, a hang or unbounded memory.
#![no_main]

use guest::scan::{Bundle, BundleFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = guest::yaml::parse(&text);
    let _ = guest::validate::frontmatter_name(&text);
    let bundle = Bundle {
        name: "fuzz".into(),
        files: vec![BundleFile::text("SKILL.md", &text)],
        notes: Vec::new(),
    };
    for strict in [false, true] {
        let out = guest::validate::validate(&bundle, strict);
        assert!(out["valid"].is_boolean());
    }
});
