//! A tool parameter named for a secret file's contents (round 33m, `exfiltration.secret-parameter`).
//!
//! A tool's input schema goes to the model, which fills every parameter from what its name asks
//! for. A parameter whose name asks for the *contents* of a credential store
//! (`content_from_reading_dot_ssh_id_rsa`, `awsCredentialsFileContents`) has the agent read the
//! key and hand it to the tool with each call, with no instruction in the description at all. A
//! name that asks for a path (`ssh_key_path`) or a public key is not this. Only JSON keys of data
//! files (tool lists, server manifests) are read: one pass over their bytes.

use super::Bundle;
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::rules::Severity;

/// Words one of which a file must hold for this rule to read it (case-insensitive): the judge of a
/// lone text with no facts runs when one occurs (`prose::reads_raw_text`), so both paths agree.
pub(super) const RAW: &[&str] = &[
    "id_rsa",
    "idrsa",
    "id-rsa",
    "ed25519",
    "ecdsa",
    "id_dsa",
    "iddsa",
    "ssh",
    "credentials",
    "netrc",
    "npmrc",
    "pgpass",
    "dotenv",
    "envfile",
    "env_file",
    "env-file",
];

/// Whether the words of a key name a credential store.
fn names_store(w: &[String]) -> bool {
    let has = |x: &str| w.iter().any(|y| y == x);
    (has("id") && (has("rsa") || has("ed25519") || has("ecdsa") || has("dsa")))
        || (has("ssh") && (has("key") || has("keys") || has("private")))
        || (has("aws") && has("credentials"))
        || has("netrc")
        || has("npmrc")
        || has("pgpass")
        || (has("dotenv") || (has("env") && has("file")))
}

/// The words of a key: split at every non-alphanumeric character and at lower-to-upper case
/// changes (`awsCredentialsFile` → aws, credentials, file), lower-cased.
fn key_words(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// JSON keys of a line (`"name":`).
fn json_keys(line: &str) -> impl Iterator<Item = &str> {
    line.split('"')
        .enumerate()
        .zip(line.split('"').skip(1))
        .filter(|((i, _), after)| i % 2 == 1 && after.trim_start().starts_with(':'))
        .map(|((_, key), _)| key)
}

pub(super) fn secret_parameter(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| f.kind == FileKind::Code && crate::ascii_lowered(f.path).ends_with(".json"))
    {
        let lower = file.lower_all();
        if !lower.contains("properties") || !RAW.iter().any(|w| lower.contains(w)) {
            continue;
        }
        for (i, line) in file.content.lines().enumerate() {
            let Some(key) = json_keys(line).find(|k| {
                let w = key_words(k);
                names_store(&w)
                    && w.iter().any(|x| {
                        matches!(
                            x.as_str(),
                            "content" | "contents" | "reading" | "read" | "dump"
                        )
                    })
                    && !w.iter().any(|x| x == "pub" || x == "public" || x == "path")
            }) else {
                continue;
            };
            out.push(Finding {
                rule_id: "exfiltration.secret-parameter".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(line, 0, line.len()),
                description: format!(
                    "The tool parameter `{key}` ({}:{}) asks by its name for the contents of a credential store: the model fills parameters from their names, so every call hands the key to the tool without any instruction the user could read. Do not install this skill.",
                    file.path,
                    i + 1
                ),
                related: vec![],
            });
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_words_split_case_and_separators() {
        assert_eq!(
            key_words("awsCredentialsFile"),
            ["aws", "credentials", "file"]
        );
        assert_eq!(key_words("dot_ssh-id_rsa"), ["dot", "ssh", "id", "rsa"]);
        let keys: Vec<&str> = json_keys(r#"  "a_b": { "type": "string", "x": 1 }"#).collect();
        assert_eq!(keys, ["a_b", "type", "x"]);
    }
}
