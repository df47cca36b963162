//! The bundle scanner: arbitrary files (paths, text, symlinks, executables) → findings, verdict and
//! policy; never a panic or a hang. Input layout: files separated by 0xFF; in each, the first line is
//! the path (a leading `@` makes it a symlink to the rest, `*` marks it executable).
#![no_main]

use guest::scan::{Bundle, BundleFile, Trust};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut files = Vec::new();
    for chunk in data.split(|&b| b == 0xFF).take(64) {
        let text = String::from_utf8_lossy(chunk);
        let (head, body) = text.split_once('\n').unwrap_or((&text, ""));
        if let Some(path) = head.strip_prefix('@') {
            files.push(BundleFile::symlink(path.into(), body.into(), body.starts_with('/')));
        } else {
            let (path, exec) = match head.strip_prefix('*') {
                Some(p) => (p, true),
                None => (head, false),
            };
            let mut f = BundleFile::text(path, body);
            f.executable = exec;
            files.push(f);
        }
    }
    let bundle = Bundle {
        name: "fuzz".into(),
        files,
        notes: Vec::new(),
    };
    for trust in [Trust::Community, Trust::Trusted, Trust::AgentCreated] {
        let out = guest::scan::scan_bundle(&bundle, trust, false);
        assert!(out["policy"].is_string());
    }
    let _ = guest::validate::validate(&bundle, false);
});
