//! A service's own secret sent to that service's own address variable (round 29b, sets28b).
//!
//! Scripts that post to a webhook or an internal service keep both its address and its secret in
//! the environment under one prefix: `WEBHOOK_URL` and `WEBHOOK_SECRET`, `FEEDBACK_ENDPOINT` and
//! `FEEDBACK_TOKEN`. The secret goes in a header of the request to that address: it is the
//! address's own credential, as a vendor's key sent to the vendor's API is, whatever the address's
//! default turns out to be (a raw IP, an internal host). The address itself is judged by the
//! network rules.
//!
//! A `secret-to-network` verdict on one named key (never a file, the environment in bulk, or a
//! key named for a vendor, which [`super::decide`] judges against the vendor's hosts) drops to
//! `medium` when the destination was resolved through a variable whose name has the key's stem
//! (`WEBHOOK` of `WEBHOOK_SECRET` and `WEBHOOK_URL`; a stem of at least three letters that is not a
//! generic word such as `API` or `APP`), and every mention of the key in the request sits in a
//! header (or the key reaches the request through a headers container, `HEADERS+=(-H "X-Secret:
//! $KEY")`, `headers = {...}`, that its own line fills as a header). A key of another stem, a vendor's key, a key in the body or query, or a host written
//! into the request keep their grade.

use super::{Verdict, in_header};
use crate::scan::facts::FactKind;
use crate::scan::hosts::vendor_of_key;
use crate::scan::rules::Severity;

/// Last words that make a variable a credential.
const SECRET_SUFFIXES: &[&str] = &[
    "SECRET",
    "TOKEN",
    "KEY",
    "APIKEY",
    "PASSWORD",
    "PASS",
    "SIGNATURE",
    "AUTH",
    "API",
];

/// Last words that make a variable an address.
const ADDRESS_SUFFIXES: &[&str] = &[
    "URL", "URI", "ENDPOINT", "HOST", "ADDR", "ADDRESS", "SERVER", "BASE", "API",
];

/// Stems that name no particular service.
const GENERIC: &[&str] = &[
    "API", "APP", "MY", "THE", "SERVICE", "DEFAULT", "BASE", "AUTH", "ACCESS", "SECRET", "TOKEN",
    "CLIENT", "USER", "REMOTE", "SERVER", "TARGET", "DEST", "OUT", "UPLOAD", "EXFIL",
];

/// The stem of an upper-case variable name before its trailing words in `suffixes` (`WEBHOOK` of
/// `WEBHOOK_SECRET`, `FEEDBACK` of `FEEDBACK_API_URL`), or `None` when the name does not end in
/// one of them.
fn stem<'a>(name: &'a str, suffixes: &[&str]) -> Option<&'a str> {
    let name = name.trim_start_matches('$').trim_matches(['{', '}']);
    let mut end = name.len();
    let mut cut = false;
    while let Some(i) = name[..end].rfind('_') {
        let last = &name[i + 1..end];
        if suffixes.iter().any(|s| last.eq_ignore_ascii_case(s)) {
            end = i;
            cut = true;
        } else {
            break;
        }
    }
    let s = &name[..end];
    (cut && s.len() >= 3 && !GENERIC.iter().any(|g| s.eq_ignore_ascii_case(g))).then_some(s)
}

/// Whether a key and an address variable share a service stem.
pub(super) fn same_service(key: &str, address: &str) -> bool {
    match (stem(key, SECRET_SUFFIXES), stem(address, ADDRESS_SUFFIXES)) {
        (Some(k), Some(a)) => k.eq_ignore_ascii_case(a),
        _ => false,
    }
}

/// Lower a verdict on one named key sent in a header to its own service's address variable (see
/// the module's documentation).
pub(super) fn soften(
    kind: FactKind,
    key: &str,
    source_text: &str,
    address_var: Option<&str>,
    sink_text: &str,
    via: &[String],
    v: Verdict,
) -> Verdict {
    if v.rule != "exfiltration.secret-to-network"
        || v.severity <= Severity::Medium
        || kind != FactKind::SecretEnv
        || vendor_of_key(key).is_some()
    {
        return v;
    }
    let Some(address) = address_var.filter(|a| same_service(key, a)) else {
        return v;
    };
    let mut names: Vec<&str> = via.iter().map(String::as_str).collect();
    names.push(key);
    // Through a headers container filled on the key's own line as a header.
    let through_headers = !via.is_empty()
        && via
            .iter()
            .all(|n| crate::ascii_lowered(n).contains("header"))
        && in_header(source_text, &[key]);
    if !through_headers && !in_header(sink_text, &names) {
        return v;
    }
    Verdict {
        severity: Severity::Medium,
        rule: v.rule,
        why: format!(
            "{}; but `{key}` and `{address}` name one service, and the key rides in a header of the request to that address, as a service's own credential does: check the address itself",
            v.why
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::same_service;

    #[test]
    fn one_stem_is_one_service() {
        assert!(same_service("WEBHOOK_SECRET", "WEBHOOK_URL"));
        assert!(same_service("FEEDBACK_API_TOKEN", "${FEEDBACK_ENDPOINT}"));
    }

    #[test]
    fn other_stems_and_generic_words_are_not() {
        assert!(!same_service("AWS_SECRET_ACCESS_KEY", "WEBHOOK_URL"));
        assert!(!same_service("API_KEY", "API_URL"));
        assert!(!same_service("WEBHOOK_SECRET", "COLLECTOR_URL"));
        assert!(!same_service("WEBHOOK", "WEBHOOK_URL"));
    }
}
