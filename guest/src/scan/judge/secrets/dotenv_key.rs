//! One key looked up in a project's `.env`, sent in a header to the host the key is named for
//! (round 38b, sets38b).
//!
//! API clients without a dotenv library parse the project's `.env` themselves (`for line in
//! open(".env"): key, value = line.split("=", 1)`) and then look up the one key they need:
//! `env_vars.get("SKILLSMP_API_KEY")`, sent as `Authorization: Bearer {api_key}` to
//! `https://skillsmp.com`. The flow the judge follows starts at the file read, so it reads as the
//! whole `.env` leaving; what leaves is one value, the user's key for that very service, as a
//! vendor's key sent to the vendor's API.
//!
//! A dotenv read reaching a request is not judged (no finding) when all of these hold:
//! - the value reaches the request through a name (`api_key`), not as the file's text;
//! - every mention of that name in the request sits in a header (see [`super::in_header`]);
//! - the file looks a credential key up by its quoted name (`.get("X_KEY")`, `["X_TOKEN"]`,
//!   `getenv("X_SECRET")`) whose first word, or its words before the credential suffix run
//!   together, is the registered name of the destination host (`skillsmp` of `skillsmp.com`).
//!
//! The file's text sent anywhere, a key sent in a body or a query, a key looked up for another
//! service, or a host that the key does not name keep the `critical` verdict.

use super::in_header;

/// Last words that make an upper-case name a credential.
const SUFFIXES: &[&str] = &[
    "KEY", "TOKEN", "SECRET", "APIKEY", "PASS", "PASSWORD", "API", "ACCESS", "AUTH",
];

/// Words that name no service.
const GENERIC: &[&str] = &[
    "API", "APP", "MY", "SECRET", "ACCESS", "AUTH", "USER", "DB", "THE",
];

/// The service names a credential name gives: its first word and its words before the suffix
/// run together (`OPEN_ROUTER_API_KEY` gives `open` and `openrouter`).
pub(super) fn services(name: &str) -> Vec<String> {
    let words: Vec<&str> = name.split('_').filter(|w| !w.is_empty()).collect();
    let Some(last) = words.last() else {
        return Vec::new();
    };
    if words.len() < 2 || !SUFFIXES.contains(last) {
        return Vec::new();
    }
    let mut end = words.len();
    while end > 0 && SUFFIXES.contains(&words[end - 1]) {
        end -= 1;
    }
    let mut out = Vec::new();
    if end >= 1 && words[0].len() >= 3 && !GENERIC.contains(&words[0]) {
        out.push(words[0].to_ascii_lowercase());
    }
    if end >= 2 {
        out.push(words[..end].concat().to_ascii_lowercase());
    }
    out
}

/// The credential names the file looks up by a quoted name: a quoted upper-case name right after
/// `get(`, `getenv(`, `[`, `env(` or `environ(` (spaces allowed), on one line.
fn looked_up(text: &str) -> Vec<&str> {
    const OPENERS: &[&str] = &["get(", "getenv(", "Getenv(", "[", "env(", "environ("];
    let mut out = Vec::new();
    for line in text.lines() {
        for opener in OPENERS {
            for (i, _) in line.match_indices(opener) {
                let rest = line[i + opener.len()..].trim_start();
                let Some(q) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') else {
                    continue;
                };
                let inner = &rest[1..];
                let Some(e) = inner.find(q) else { continue };
                let name = &inner[..e];
                if name.len() > 3
                    && name.contains('_')
                    && name
                        .bytes()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
                    && !out.contains(&name)
                {
                    out.push(name);
                }
            }
        }
    }
    out
}

/// Whether a dotenv read reaching a request to `host` is one looked-up key sent in a header to the
/// host the key is named for. `via` are the names the value went through.
pub(super) fn key_for_its_host(content: &str, host: &str, sink_text: &str, via: &[String]) -> bool {
    if via.is_empty() {
        return false;
    }
    let names: Vec<&str> = via.iter().map(String::as_str).collect();
    if !in_header(sink_text, &names) {
        return false;
    }
    let Some(reg) = crate::scan::hosts::second_level(host) else {
        return false;
    };
    looked_up(content)
        .iter()
        .any(|k| services(k).contains(&reg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_name_gives_its_service_words() {
        assert_eq!(services("SKILLSMP_API_KEY"), vec!["skillsmp".to_string()]);
        assert_eq!(
            services("OPEN_ROUTER_API_KEY"),
            vec!["open".to_string(), "openrouter".to_string()]
        );
        assert!(services("API_KEY").is_empty());
        assert!(services("SKILLSMP_URL").is_empty());
    }

    #[test]
    fn only_quoted_lookups_count() {
        let text = "\"\"\"Doc.\"\"\"\nk = env.get(\"ACME_TOKEN\")\nx = os.getenv('ZED_SECRET')\nprint(\"ACME_TOKEN\")\n";
        assert_eq!(looked_up(text), vec!["ACME_TOKEN", "ZED_SECRET"]);
    }
}
