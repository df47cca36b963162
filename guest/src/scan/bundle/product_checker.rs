//! A vendor's own helper script, fetched to `/tmp` and run from the product's domain that the
//! skill is about, is an installer-like step (`high`), not a dropper (round 34b).
//!
//! `supply_chain.download-execute` raises a download-and-run from an unknown host to `critical`
//! when the file is saved to a hidden or temporary place first. A vendor skill documenting its own
//! update checker does exactly that (`curl -fsSL https://<deployment>.<product>.site/check.mjs -o
//! /tmp/c.mjs && node /tmp/c.mjs`). The finding drops back to `high` (`caution`, like a vendor
//! installer piped to a shell) when all of these hold:
//!
//! - the line is in documentation (Markdown or text), not a shipped script;
//! - the only reason given for `critical` is the temporary place, and the file goes to `/tmp/`
//!   (not a hidden dot-path);
//! - every host on the line has a registered name (the label before the top-level domain) that is
//!   a word of the skill's own `description` — the product the skill says it works with;
//! - no `sudo` on the line and no concealment fact in the bundle;
//! - no host on the line serves anyone's files (`github.com/<anyone>`, `*.vercel.app`: the
//!   `user_content` list), since a GitHub skill's description naming "github" says nothing about
//!   whose release it fetches.
//!
//! The same line from any other host, hidden, elevated or concealed keeps `critical`.

use crate::scan::bundle::{Bundle, documentation};
use crate::scan::content::Finding;
use crate::scan::hosts::second_level;
use crate::scan::rules::Severity;

const RULE: &str = "supply_chain.download-execute";
const TEMP_ONLY: &str = ", from a hidden or temporary place. ";

/// The words (four letters or more, lower-cased) of the SKILL.md frontmatter `description`, read
/// as the teaching cap reads it (`teaching::front_field`).
fn description_words(bundle: &Bundle) -> Vec<String> {
    let Some(description) = bundle
        .skill_md()
        .and_then(|text| crate::scan::teaching::front_field(text, "description"))
    else {
        return Vec::new();
    };
    crate::ascii_lowered(&description)
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() >= 4)
        .map(str::to_owned)
        .collect()
}

pub(super) fn demote_product_checkers(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals
        || !out
            .iter()
            .any(|f| f.rule_id == RULE && f.severity == Severity::Critical)
    {
        return;
    }
    let words = description_words(bundle);
    if words.is_empty() {
        return;
    }
    for f in out.iter_mut().filter(|f| {
        f.rule_id == RULE
            && f.severity == Severity::Critical
            && documentation(&f.file)
            && f.description.contains(TEMP_ONLY)
    }) {
        let ev = crate::ascii_lowered(&f.evidence);
        if ev.contains("sudo ") || !ev.contains("/tmp/") || ev.contains("/tmp/.") {
            continue;
        }
        let hosts = crate::scan::judge::hosts_in(&f.evidence);
        if hosts.is_empty()
            || !hosts.iter().all(|h| {
                second_level(&h.host).is_some_and(|name| words.contains(&name))
                    && !crate::scan::hosts::serves_anyones_files(&h.host, &h.path)
            })
        {
            continue;
        }
        f.severity = Severity::High;
        f.description.push_str(
            " The host is on the domain of the product the skill's own description names, the line is documentation and the file only goes to /tmp: read as the vendor's own helper, like an installer. Check the address belongs to the vendor before running it.",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::second_level;

    #[test]
    fn registered_names() {
        let name = |h| second_level(h).unwrap_or_default();
        assert_eq!(name("basic-fox-12.acmebase.site"), "acmebase");
        assert_eq!(name("updates.example.net"), "example");
        assert_eq!(name("Files.AcmeBase.site."), "acmebase");
        assert_eq!(name("localhost"), "");
    }
}
