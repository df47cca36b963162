//! Install coordinates, as the skillhub package protocol defines them (§8.7, §8.8):
//!
//! | written | namespace | slug | version / tag |
//! |---|---|---|---|
//! | `@team/my-skill` | `team` | `my-skill` | the latest published |
//! | `@team/my-skill@1.2.0` | `team` | `my-skill` | exactly 1.2.0 |
//! | `@team/my-skill@latest` | `team` | `my-skill` | the latest (a reserved tag) |
//! | `@team/my-skill@beta` | `team` | `my-skill` | the `beta` tag |
//! | `my-skill` | `global` | `my-skill` | the latest |
//! | `team--my-skill` (ClawHub canonical slug) | `team` | `my-skill` | the latest |
//! | `my-skill@1.2.0` | `global` | `my-skill` | exactly 1.2.0 |
//!
//! The local folder is always the slug, never the namespace: two namespaces' skills of the same slug
//! collide on disk, which the install plan detects.

use serde::Serialize;

use super::names::name_problem;
use crate::error::{Error, Result};

/// The namespace of a bare slug.
pub const GLOBAL: &str = "global";

/// A parsed coordinate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Coordinate {
    /// Without the `@`.
    pub namespace: String,
    pub slug: String,
    /// An exact version (semver), when one was asked for.
    pub version: Option<String>,
    /// A tag other than `latest`, when one was asked for.
    pub tag: Option<String>,
    /// No exact version or tag: the latest published version.
    pub latest: bool,
    /// The canonical form: `@ns/slug`, then `@version` or `@tag` when pinned.
    pub coordinate: String,
    /// The ClawHub canonical slug: `slug` in the global namespace, else `ns--slug`.
    pub clawhub_slug: String,
    /// The local folder name: always the slug.
    pub dir_name: String,
}

fn invalid(message: String) -> Error {
    Error::invalid("coordinate", message)
}

/// A namespace: like a skill name (lowercase, digits, single hyphens), since ClawHub joins it to the
/// slug with `--`.
fn namespace_problem(ns: &str) -> Option<String> {
    name_problem(ns).map(|p| format!("namespace {p}"))
}

/// Parse a coordinate; errors (field `coordinate`) say which part is wrong and what is expected.
pub fn parse(text: &str) -> Result<Coordinate> {
    let t = text.trim();
    if t.is_empty() {
        return Err(invalid(
            "empty; expected @namespace/slug, @namespace/slug@version, slug or namespace--slug"
                .into(),
        ));
    }
    let (namespace, rest) = match t.strip_prefix('@') {
        Some(r) => {
            let (ns, rest) = r.split_once('/').ok_or_else(|| {
                invalid(format!(
                    "{t:?} has no `/`: a namespaced coordinate is @namespace/slug"
                ))
            })?;
            (Some(ns), rest)
        }
        None => (None, t),
    };
    let (name, reference) = match rest.split_once('@') {
        Some((n, r)) => (n, Some(r)),
        None => (rest, None),
    };
    let (namespace, slug) = match (namespace, name.split_once("--")) {
        (Some(ns), _) => (ns.to_owned(), name.to_owned()),
        (None, Some((ns, slug))) => (ns.to_owned(), slug.to_owned()),
        (None, None) => (GLOBAL.to_owned(), name.to_owned()),
    };
    if let Some(p) = namespace_problem(&namespace) {
        return Err(invalid(format!("{t:?}: {p}")));
    }
    if let Some(p) = name_problem(&slug) {
        return Err(invalid(format!("{t:?}: slug {p}")));
    }
    let (version, tag) = match reference {
        None => (None, None),
        Some("") => {
            return Err(invalid(format!(
                "{t:?} ends with `@`: give a version, a tag, or nothing"
            )));
        }
        Some("latest") => (None, None),
        Some(r) => match semver::Version::parse(r.strip_prefix('v').unwrap_or(r)) {
            Ok(v) => (Some(v.to_string()), None),
            Err(_) if r.chars().next().is_some_and(|c| c.is_ascii_digit()) => {
                return Err(invalid(format!(
                    "{t:?}: version {r:?} is not semantic versioning (MAJOR.MINOR.PATCH, e.g. 1.2.0)"
                )));
            }
            Err(_) => match name_problem(r) {
                None => (None, Some(r.to_owned())),
                Some(p) => return Err(invalid(format!("{t:?}: tag {p}"))),
            },
        },
    };
    let pinned = version.as_deref().or(tag.as_deref());
    let coordinate = match pinned {
        Some(p) => format!("@{namespace}/{slug}@{p}"),
        None => format!("@{namespace}/{slug}"),
    };
    let clawhub_slug = if namespace == GLOBAL {
        slug.clone()
    } else {
        format!("{namespace}--{slug}")
    };
    Ok(Coordinate {
        latest: pinned.is_none(),
        dir_name: slug.clone(),
        namespace,
        slug,
        version,
        tag,
        coordinate,
        clawhub_slug,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(t: &str) -> Coordinate {
        parse(t).unwrap_or_else(|e| panic!("{t}: {e}"))
    }

    #[test]
    fn every_form_of_the_seed() {
        let c = ok("@team/my-skill");
        assert_eq!(
            (c.namespace.as_str(), c.slug.as_str(), c.latest),
            ("team", "my-skill", true)
        );
        assert_eq!(c.coordinate, "@team/my-skill");
        assert_eq!(c.clawhub_slug, "team--my-skill");
        assert_eq!(c.dir_name, "my-skill");

        let c = ok("@team/my-skill@1.2.0");
        assert_eq!(c.version.as_deref(), Some("1.2.0"));
        assert!(!c.latest);
        assert_eq!(c.coordinate, "@team/my-skill@1.2.0");

        let c = ok("@team/my-skill@latest");
        assert_eq!(
            (c.version.clone(), c.tag.clone(), c.latest),
            (None, None, true)
        );
        assert_eq!(c.coordinate, "@team/my-skill");

        let c = ok("@team/my-skill@beta");
        assert_eq!(c.tag.as_deref(), Some("beta"));
        assert_eq!(c.coordinate, "@team/my-skill@beta");

        let c = ok("my-skill");
        assert_eq!(c.namespace, "global");
        assert_eq!(c.coordinate, "@global/my-skill");
        assert_eq!(c.clawhub_slug, "my-skill");

        let c = ok("team-name--my-skill");
        assert_eq!(
            (c.namespace.as_str(), c.slug.as_str()),
            ("team-name", "my-skill")
        );
        assert_eq!(c.dir_name, "my-skill");

        let c = ok("my-skill@1.2.0");
        assert_eq!(
            (c.namespace.as_str(), c.version.as_deref()),
            ("global", Some("1.2.0"))
        );
        assert_eq!(ok("@g/s@v2.0.1").version.as_deref(), Some("2.0.1"));
        assert_eq!(ok("  @g/s  ").coordinate, "@g/s");
    }

    #[test]
    fn bad_coordinates_name_the_part() {
        for (t, needle) in [
            ("", "empty"),
            ("@team", "no `/`"),
            ("@Team/x", "namespace"),
            ("@team/../x", "slug"),
            ("@team/a/b", "slug"),
            ("@team/x@", "ends with `@`"),
            ("@team/x@1.2", "semantic versioning"),
            ("@team/x@Beta", "tag"),
            ("a--b--c", "slug"),
            ("--x", "namespace"),
            ("con", "reserved"),
        ] {
            match parse(t) {
                Err(Error::InvalidInput { field, message }) => {
                    assert_eq!(field, "coordinate");
                    assert!(message.contains(needle), "{t:?}: {message}");
                }
                other => panic!("{t:?}: {other:?}"),
            }
        }
    }
}
