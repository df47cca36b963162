//! Where a vendor's key really goes when the written host is not the whole story (round 35b,
//! sets35b).
//!
//! `exfiltration.key-to-foreign-host` compares the vendor a key is named for with the host it is
//! sent to. Two shapes of honest API clients defeat that comparison:
//!
//! - **The address is the vendor's own variable.** A region-aware client builds the host from a
//!   variable the user (or the connector) sets: `https://api.$DATADOG_DOMAIN/api/v1/monitor` with
//!   `Authorization: Bearer $DATADOG_TOKEN`. The written host stops at the `$`; the variable is
//!   named for the same vendor as the key, so the key goes where its own service is configured.
//!   Informational (`low`) when every URL of the request is either such a host or one of the
//!   vendor's domains, and the bundle's file never assigns that variable itself (a skill that sets
//!   `DATADOG_DOMAIN=collector.example` keeps the finding).
//! - **A delegated credential.** A vendor's API is given a token of another service to reach a
//!   resource of that service for the user: a GitHub token as the `authorization_token` of a
//!   `github.com/...` repository in a request to `api.anthropic.com`, signed with the user's own
//!   Anthropic key. `medium` (worth a note, not a theft) when the destination is a vendor's API,
//!   the same request carries a key named for the destination's vendor (the user's own account
//!   there), and it names a URL of the key's own vendor (the resource the token is for). Without
//!   the user's own key for the destination, or without a resource of the key's vendor, it stays
//!   `critical`.

use super::Verdict;
use crate::scan::hosts::{HostClass, Vendor, belongs_to, urls_in, vendor_of_key};
use crate::scan::judge::Host;
use crate::scan::rules::Severity;

/// The rule this module softens.
const RULE: &str = "exfiltration.key-to-foreign-host";

/// Soften a `key-to-foreign-host` verdict for key `key` as the module documentation says.
pub(super) fn soften(
    key: &str,
    dest: Option<&Host>,
    sink_text: &str,
    content: &str,
    lines: (u32, u32),
    v: Verdict,
) -> Verdict {
    if v.rule != RULE || v.severity < Severity::High {
        return v;
    }
    let Some(vendor) = vendor_of_key(key) else {
        return v;
    };
    if let Some(var) = own_address_variable(vendor, sink_text, content) {
        return Verdict {
            severity: Severity::Low,
            rule: RULE,
            why: format!(
                "`{key}` is sent to the address held in `${var}`, a variable named for {} like the key itself (set by the user or the connector, never by this skill): the key goes to its own service wherever that is configured",
                vendor.name
            ),
        };
    }
    // Round 46b: the same address written as a placeholder or through a local alias.
    if let Some(var) = super::site_alias::own_site(key, sink_text, content) {
        return Verdict {
            severity: Severity::Low,
            rule: RULE,
            why: format!(
                "`{key}` is sent to the site held in `{var}` (written as a placeholder or copied into a local variable), named for the same service as the key: the key goes to its own service wherever the user configures it"
            ),
        };
    }
    if let Some(d) = dest
        && let Some((own_key, resource)) = delegation(vendor, d, sink_text, &span(content, lines))
    {
        return Verdict {
            severity: Severity::Medium,
            rule: RULE,
            why: format!(
                "`{key}` (a {} credential) is handed to {} in a request signed with `{own_key}` (your own account there) that names the {} resource `{resource}`: a delegated credential the service uses to reach that resource for you; check that you mean to grant it",
                vendor.name, d.host, vendor.name
            ),
        };
    }
    v
}

/// The variable names (`NAME` of `$NAME`, `${NAME}`, `${NAME:-x}`) in a piece of text.
fn variables(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' {
            let mut s = i + 1;
            if b.get(s) == Some(&b'{') {
                s += 1;
            }
            let mut e = s;
            while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'_') {
                e += 1;
            }
            if e > s && b[s].is_ascii_alphabetic() {
                out.push(&text[s..e]);
            }
            i = e.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// The host part of a URL: after `://` and any `user:password@`, up to the first `/`.
fn authority(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let auth = &rest[..end];
    auth.rsplit_once('@').map_or(auth, |(_, h)| h)
}

/// Whether `content` assigns variable `name` a value itself (`NAME=…`, `export NAME=…`,
/// `NAME = …`, `["NAME"] = …`, `.NAME = …`).
fn assigned(content: &str, name: &str) -> bool {
    let mut from = 0;
    while let Some(i) = content[from..].find(name).map(|i| i + from) {
        let before = content[..i].chars().next_back();
        let after = content[i + name.len()..].trim_start_matches([' ', '"', '\'', ']']);
        let boundary =
            before.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '{'));
        if boundary && after.starts_with('=') && !after.starts_with("==") {
            return true;
        }
        from = i + name.len();
    }
    false
}

/// A variable named for `vendor` that every variable-built URL of the request takes its host from,
/// when all the request's URLs are such hosts or the vendor's own domains and the file never
/// assigns the variable.
fn own_address_variable<'t>(vendor: &Vendor, sink_text: &'t str, content: &str) -> Option<&'t str> {
    let mut found = None;
    for (s, e) in urls_in(sink_text) {
        let auth = authority(&sink_text[s..e]);
        if auth.contains('$') {
            let vars = variables(auth);
            let own = vars
                .iter()
                .find(|n| vendor_of_key(n).is_some_and(|w| std::ptr::eq(w, vendor)))?;
            if assigned(content, own) {
                return None;
            }
            found = Some(*own);
        } else {
            let host = auth.split(':').next().unwrap_or(auth).to_ascii_lowercase();
            if !belongs_to(vendor, &host) {
                return None;
            }
        }
    }
    found
}

/// The text of the 1-based lines from the lower to the higher of `lines` (the request as written,
/// from its first line to where the key enters it), at most 40 lines.
fn span(content: &str, lines: (u32, u32)) -> String {
    let (a, b) = (lines.0.min(lines.1) as usize, lines.0.max(lines.1) as usize);
    if a == 0 || b - a > 40 {
        return String::new();
    }
    content
        .lines()
        .skip(a - 1)
        .take(b - a + 1)
        .collect::<Vec<_>>()
        .join("\n")
}

/// For a key of `vendor` sent to the vendor API `dest`: the request's own key for `dest` and a
/// URL of `vendor`'s domains the request names (in its logical line or in the lines from its start
/// to where the key enters it) (see the module documentation).
fn delegation<'t>(
    vendor: &Vendor,
    dest: &Host,
    sink_text: &'t str,
    request: &str,
) -> Option<(&'t str, String)> {
    if dest.class != HostClass::Vendor {
        return None;
    }
    let own_key = variables(sink_text).into_iter().find(|n| {
        vendor_of_key(n).is_some_and(|w| !std::ptr::eq(w, vendor) && belongs_to(w, &dest.host))
    })?;
    let resource = [sink_text, request].into_iter().find_map(|text| {
        urls_in(text).into_iter().find_map(|(s, e)| {
            let url = &text[s..e];
            let host = authority(url).to_ascii_lowercase();
            (!host.contains('$') && belongs_to(vendor, &host)).then(|| url.to_string())
        })
    })?;
    Some((own_key, resource))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_and_assignments() {
        assert_eq!(
            variables("https://api.$DATADOG_DOMAIN/x ${A_B:-c} $1"),
            vec!["DATADOG_DOMAIN", "A_B"]
        );
        assert!(assigned(
            "export DATADOG_DOMAIN=collector.example\n",
            "DATADOG_DOMAIN"
        ));
        assert!(assigned(
            "os.environ[\"DATADOG_DOMAIN\"] = 'x'",
            "DATADOG_DOMAIN"
        ));
        assert!(!assigned(
            "curl https://api.$DATADOG_DOMAIN/v1",
            "DATADOG_DOMAIN"
        ));
        assert!(!assigned(
            "if [ \"$DATADOG_DOMAIN\" == x ]",
            "DATADOG_DOMAIN"
        ));
        // A key in the userinfo is not the host.
        assert_eq!(
            authority("https://${GITHUB_TOKEN}@git.mirror.invalid/x.git"),
            "git.mirror.invalid"
        );
    }
}
