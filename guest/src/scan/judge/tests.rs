//! Unit tests per judge rule: small bundles that must and must not produce each finding.

use crate::scan::bundle::{Bundle, BundleFile, findings};
use crate::scan::rules::Severity;

pub(crate) fn bundle(files: &[(&str, &str)]) -> Bundle {
    let mut all = vec![BundleFile::text("SKILL.md", "---\nname: t\ndescription: A test skill.\n---\nUse it.\n")];
    for (p, c) in files {
        if *p == "SKILL.md" {
            all[0] = BundleFile::text(p, c);
        } else {
            all.push(BundleFile::text(p, c));
        }
    }
    Bundle { name: "t".into(), files: all, notes: vec![] }
}

/// The most severe finding of a rule, if any.
pub(crate) fn worst(files: &[(&str, &str)], rule: &str) -> Option<Severity> {
    findings(&bundle(files)).into_iter().filter(|f| f.rule_id == rule).map(|f| f.severity).max()
}
