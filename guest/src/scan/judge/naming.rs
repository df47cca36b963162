//! The skill's own name and what is named after it: the declared name and its words, a key or
//! config entry picked by that name, a host, release or installer site named after the skill (a
//! vendor's own service is the skill doing its job). Split out of `judge/mod.rs`.

use super::Host;
use super::find::Has;

/// SKILL.md's frontmatter `name`; when the frontmatter does not parse as a whole (a registry
/// skill's JSON-escaped emoji in its metadata), the `name:` line of the frontmatter block.
pub fn declared_name(text: &str) -> Option<String> {
    crate::validate::frontmatter_name(text).or_else(|| {
        let mut lines = text.lines();
        if lines.next()?.trim_end() != "---" {
            return None;
        }
        lines
            .take_while(|l| l.trim_end() != "---")
            .find_map(|l| l.strip_prefix("name:"))
            .map(|v| v.trim().trim_matches(|c| c == '"' || c == '\'').to_string())
            .filter(|v| !v.is_empty())
    })
}

/// The words of a skill name: split at every character that is not an ASCII letter or digit,
/// lower-cased, four characters or more (shorter ones, `sh`, `ai`, `cli`, name too little).
pub fn name_words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() >= 4)
        .map(|w| w.to_ascii_lowercase())
        .collect()
}

/// Whether a file picks the skill's own entry out of what it reads: a key variable named after the
/// skill (`ACME_NOTES_TOKEN` for `acme-notes`: an upper-case name whose first word is one of the
/// skill's name words and whose last says key, token, secret or license) or the skill's own entry
/// of the agent's config (`skills.entries.acme-notes`, `.get("entries", {}).get("acme-notes")`).
pub fn picks_own_key(text: &str, words: &[String]) -> bool {
    let own_var = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.len() > 6 && w.contains('_'))
        .filter(|w| !w.bytes().any(|c| c.is_ascii_lowercase()))
        .any(|w| {
            let first = w.split('_').next().unwrap_or("").to_ascii_lowercase();
            let last = w.rsplit('_').next().unwrap_or("");
            words.contains(&first) && matches!(last, "KEY" | "TOKEN" | "SECRET" | "LICENSE")
        });
    own_var
        || text.lines().any(|l| {
            let l = crate::ascii_lowered(l);
            l.find("entries").is_some_and(|i| {
                let after: String = l[i..].chars().filter(char::is_ascii_alphanumeric).collect();
                words.iter().any(|w| after.has(w.as_str()))
            })
        })
}

/// A host's registered name: the label before the public suffix (`example` in `a.b.example.org`,
/// the label before a two-part country suffix such as `co.uk` or `com.cn`). Under the reserved
/// documentation domains (`example.com`, `.net`, `.org`), which stand in for a registered name in
/// examples and tests, the label before them (`linkvault` in `api.linkvault.example.com`).
pub fn registered_name(host: &str) -> &str {
    let labels: Vec<&str> = host.trim_end_matches('.').split('.').collect();
    let n = labels.len();
    let two_part = n >= 3
        && labels[n - 1].len() == 2
        && matches!(
            labels[n - 2],
            "co" | "com" | "net" | "org" | "gov" | "edu" | "ac" | "or" | "ne" | "go"
        );
    let documentation =
        n >= 3 && labels[n - 2] == "example" && matches!(labels[n - 1], "com" | "net" | "org");
    match n {
        0 | 1 => host,
        _ if two_part || documentation => labels[n - 3],
        _ => labels[n - 2],
    }
}

/// Whether a host's registered name (the label before the last: `fireflies` in
/// `api.fireflies.ai`) is one of the skill's name words: the service the skill is named after.
pub fn host_named_after(host: &str, words: &[String]) -> bool {
    crate::scan::hosts::second_level(host).is_some_and(|name| words.contains(&name))
}

/// Whether a URL is a release asset (`/<owner>/<repo>/releases/download/…`) on GitHub, GitLab or
/// Codeberg whose owner account is named after the skill (`lightpanda-io` for a skill named
/// `Lightpanda`: the name, alone or with an organisation suffix): the project's own release, like an
/// installer from the tool's own site.
pub fn release_named_after(h: &Host, words: &[String]) -> bool {
    if !matches!(
        h.host.as_str(),
        "github.com" | "gitlab.com" | "codeberg.org"
    ) || !h.url.starts_with("https://")
    {
        return false;
    }
    let mut parts = h.path.trim_start_matches('/').split('/');
    let owner: String = parts
        .next()
        .unwrap_or("")
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let rest: Vec<&str> = parts.collect();
    let release = rest.windows(2).any(|w| w == ["releases", "download"]);
    // The owner is the name itself or the name with an organisation suffix (`lightpanda-io`);
    // the agents' own names are what impostor accounts borrow (`open-claw-agent`), never this.
    const ORG: [&str; 10] = [
        "", "io", "dev", "hq", "labs", "app", "org", "inc", "team", "official",
    ];
    const AGENTS: [&str; 8] = [
        "openclaw", "clawdbot", "moltbot", "claude", "codex", "cursor", "gemini", "agent",
    ];
    release
        && words.iter().any(|w| {
            !AGENTS.contains(&w.as_str())
                && owner
                    .strip_prefix(w.as_str())
                    .is_some_and(|rest| ORG.contains(&rest))
        })
}

/// Whether `host` is shaped like a tool's own installer site and its registered name is one of
/// `words`: the label before the last (`acme` in `get.acme.sh`, `atuin` in `setup.atuin.sh`), on
/// the bare domain or under an installer label (`get.`, `setup.`, `install.`, `sh.`, `download.`,
/// `dl.`). A skill named after a tool that installs the tool from the tool's own site is doing
/// its job, like a vendor's key sent to the vendor.
pub fn installer_named_after(host: &str, words: &[String]) -> bool {
    let labels: Vec<&str> = host.split('.').collect();
    let n = labels.len();
    if !(2..=3).contains(&n) {
        return false;
    }
    if n == 3
        && !matches!(
            labels[0].to_ascii_lowercase().as_str(),
            "get" | "setup" | "install" | "installer" | "sh" | "download" | "downloads" | "dl"
        )
    {
        return false;
    }
    let name = labels[n - 2].to_ascii_lowercase();
    words.contains(&name)
}
