//! Data going where the user keeps it (round 31c, scan34): three sends that the single-line and
//! flow rules read as exfiltration, each with an attacker twin that keeps its grade.
//!
//! - `exfiltration.send-conversation` on a line whose every URL is on one vendor's domains, in a
//!   bundle that configures that vendor's key (`DEEPSEEK_API_KEY` for `api.deepseek.com`): the
//!   vendor's own documented API, called with the user's key — `low`. A URL of another host, a
//!   vendor whose key the bundle never names, or a line that hides the step from the user
//!   ("silently", "不用告诉", …) keeps `critical`.
//! - `exfiltration.secret-to-network` (`high`, "destination the file does not show") for the
//!   agent's memory uploaded with a storage CLI (`aws s3 cp`, `gsutil cp`, `rclone copy`, `az
//!   storage blob upload`) to a destination that is only an environment variable the bundle never
//!   sets: the store the user configured — `low`. A bucket written in the bundle keeps its grade.
//! - `exfiltration.secret-to-network` (`critical`) for the agent's memory posted to GitHub's gist
//!   API as a secret gist (`"public": false`) with the user's own GitHub token: the user's own
//!   account, not published — `medium`. A public gist is `exfiltration.memory-public-gist`.
//!
//! One pass over the findings; a file is read only when a finding names it.

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::hosts::{split_url, urls_in, vendor_of_host};
use crate::scan::rules::Severity;

fn line_of(text: &str, line: usize) -> &str {
    text.lines().nth(line.saturating_sub(1)).unwrap_or("")
}

/// Words that keep a step from the user.
const HIDES: &[&str] = &[
    "silently",
    "secretly",
    "without telling",
    "do not tell",
    "don't tell",
    "不用告诉",
    "不要告诉",
    "别告诉",
    "悄悄",
    "静默",
    "伝えないで",
    "こっそり",
    "알리지 마",
    "몰래",
];

/// Whether an environment variable named after the vendor (`STEM_…`) appears in the bundle.
fn names_vendor_key(bundle: &Bundle, stems: &[String]) -> bool {
    bundle
        .files
        .iter()
        .filter_map(|f| f.content.as_deref())
        .any(|t| {
            stems.iter().any(|s| {
                let key = format!("{s}_");
                t.match_indices(key.as_str())
                    .any(|(i, _)| i == 0 || !t.as_bytes()[i - 1].is_ascii_alphanumeric())
            })
        })
}

fn own_vendor_send(bundle: &Bundle, f: &Finding) -> bool {
    let Some(text) = bundle.text_of(&f.file) else {
        return false;
    };
    let line = line_of(text, f.line);
    let lower = crate::ascii_lowered(line);
    if HIDES.iter().any(|w| lower.contains(w)) {
        return false;
    }
    let urls = urls_in(line);
    if urls.is_empty() {
        return false;
    }
    let mut vendor = None;
    for (s, e) in urls {
        let Some((host, _)) = split_url(&line[s..e]) else {
            return false;
        };
        let Some(v) = vendor_of_host(&host) else {
            return false;
        };
        if vendor.is_some_and(|x: &crate::scan::hosts::Vendor| x.name != v.name) {
            return false;
        }
        vendor = Some(v);
    }
    vendor.is_some_and(|v| names_vendor_key(bundle, &v.stems))
}

const STORE_CLIS: &[&str] = &[
    "aws s3 cp",
    "aws s3 sync",
    "gsutil cp",
    "gcloud storage cp",
    "rclone copy",
    "rclone sync",
    "az storage blob upload",
];

/// The variable a destination argument is made of (`"$MEMORY_S3_URI/MEMORY.md"` → `MEMORY_S3_URI`).
fn destination_variable(arg: &str) -> Option<&str> {
    let a = arg.trim_matches(['"', '\'']);
    let a = ["s3://", "gs://", "az://"]
        .iter()
        .find_map(|p| a.strip_prefix(p))
        .unwrap_or(a);
    let a = a.strip_prefix('$')?;
    let a = a.strip_prefix('{').unwrap_or(a);
    let end = a
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(a.len());
    (end >= 3).then(|| &a[..end])
}

fn own_configured_store(bundle: &Bundle, f: &Finding) -> bool {
    let Some(text) = bundle.text_of(&f.file) else {
        return false;
    };
    let line = line_of(text, f.line);
    let lower = crate::ascii_lowered(line);
    let Some(cli) = STORE_CLIS.iter().find(|c| lower.contains(*c)) else {
        return false;
    };
    let rest = &line[lower.find(cli).unwrap_or(0) + cli.len()..];
    // The last argument that is not an option is the destination.
    let Some(dest) = rest
        .split_whitespace()
        .filter(|a| !a.starts_with('-'))
        .nth(1)
    else {
        return false;
    };
    let Some(var) = destination_variable(dest) else {
        return false;
    };
    // Set nowhere in the bundle: the user's own setting.
    let set = format!("{var}=");
    !bundle
        .files
        .iter()
        .filter_map(|f| f.content.as_deref())
        .any(|t| {
            t.lines().any(|l| {
                let l = l.trim_start().trim_start_matches("export ");
                l.starts_with(set.as_str())
            })
        })
}

fn private_gist(bundle: &Bundle, f: &Finding) -> bool {
    let Some(text) = bundle.text_of(&f.file) else {
        return false;
    };
    let flat: String = crate::ascii_lowered(text)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    flat.contains("api.github.com/gists")
        && (flat.contains("'public':false") || flat.contains("\"public\":false"))
        && !flat.contains("'public':true")
        && !flat.contains("\"public\":true")
        && (flat.contains("github_token")
            || flat.contains("gh_token")
            || flat.contains("ghauthtoken"))
}

pub(super) fn demote_own_stores(bundle: &Bundle, out: &mut [Finding]) {
    for f in out.iter_mut() {
        if f.rule_id == "exfiltration.send-conversation"
            && f.severity == Severity::Critical
            && own_vendor_send(bundle, f)
        {
            f.severity = Severity::Low;
            f.description.push_str(
                " Every address on the line is the vendor's own API, and the bundle configures that vendor's key: the documented call of the service the skill is for.",
            );
        } else if f.rule_id == "exfiltration.secret-to-network"
            && f.description.contains("memory, identity or transcripts")
        {
            if f.severity == Severity::High && own_configured_store(bundle, f) {
                f.severity = Severity::Low;
                f.description.push_str(
                    " The destination is only an environment variable the bundle never sets: the store the user configured.",
                );
            } else if f.severity == Severity::Critical
                && f.description.contains("api.github.com")
                && private_gist(bundle, f)
            {
                f.severity = Severity::Medium;
                f.description.push_str(
                    " The gist is created secret (`\"public\": false`) with the user's own GitHub token: a backup in the user's account, not a publication.",
                );
            }
        }
    }
}
