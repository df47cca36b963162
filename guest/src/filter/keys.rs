//! The keys the filter compares candidates by: a folded name, an id with its owner, a canonical
//! source URL. Each is computed once per candidate, so the common case (ASCII text) writes the key
//! straight into one string instead of building it from lower-cased pieces.

use smallvec::SmallVec;

/// Fold a name for comparison: lower case, `-` and `_` as spaces, runs of white space as one space.
pub fn name_key(name: &str) -> String {
    let mut out = String::new();
    push_name_key(&mut out, name);
    out
}

/// [`name_key`] appended to `out` (no allocation for ASCII names when `out` has room).
pub(super) fn push_name_key(out: &mut String, name: &str) {
    if !crate::is_ascii(name) {
        out.push_str(
            &crate::lowercase(name)
                .replace(['-', '_'], " ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        );
        return;
    }
    // The same, in one pass (ASCII white space as `char::is_whitespace` has it).
    let base = out.len();
    out.reserve(name.len());
    let mut gap = false;
    for b in name.bytes() {
        let b = if b == b'-' || b == b'_' { b' ' } else { b };
        if (b as char).is_whitespace() {
            gap = out.len() > base;
        } else {
            if gap {
                out.push(' ');
                gap = false;
            }
            out.push(b.to_ascii_lowercase() as char);
        }
    }
}

/// The name part of an id: `clawhub:pdf-tables` → `pdf-tables`; `skillssh:o/r/skill` → `skill`.
pub(super) fn id_slug(id: &str) -> &str {
    let rest = id.split_once(':').map_or(id, |(_, r)| r);
    rest.rsplit('/').next().unwrap_or(rest)
}

/// Canonical form of a source URL for comparison: no scheme, `www.`, query, fragment, trailing `/` or
/// `.git`; host lower-cased; on code hosts (GitHub, GitLab, Codeberg), whose paths are case-insensitive,
/// the path too; `/tree/<branch>/…` and `/blob/<branch>/…` become the sub-path. `None` if not http(s).
pub fn canonical_url(url: &str, subpath: Option<&str>) -> Option<String> {
    let mut out = String::new();
    push_canonical_url(&mut out, url, subpath).then_some(out)
}

/// [`canonical_url`] appended to `out`; false (and `out` unchanged) when there is none.
pub fn push_canonical_url(out: &mut String, url: &str, subpath: Option<&str>) -> bool {
    if crate::is_ascii(url) && subpath.is_none_or(crate::is_ascii) {
        push_canonical_ascii(out, url, subpath)
    } else {
        match canonical_general(url, subpath) {
            Some(u) => {
                out.push_str(&u);
                true
            }
            None => false,
        }
    }
}

/// [`canonical_url`] for any text: each segment lower-cased on its own (Unicode case folding).
fn canonical_general(url: &str, subpath: Option<&str>) -> Option<String> {
    let url = url.trim();
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .or_else(|| url.strip_prefix("HTTPS://"))
        .or_else(|| url.strip_prefix("HTTP://"))?;
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_owned();
    if host.is_empty() {
        return None;
    }
    let code_host = matches!(host.as_str(), "github.com" | "gitlab.com" | "codeberg.org");
    let mut segments: Vec<String> = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| {
            if code_host {
                crate::lowercase(s)
            } else {
                s.to_owned()
            }
        })
        .collect();
    if code_host {
        if let Some(last) = segments.get_mut(1)
            && let Some(stripped) = last.strip_suffix(".git")
        {
            *last = stripped.to_owned();
        }
        // owner/repo/tree/<branch>/path → owner/repo + path
        if segments.len() > 3 && matches!(segments[2].as_str(), "tree" | "blob") {
            let sub: Vec<String> = segments.drain(2..).skip(2).collect();
            segments.extend(sub);
        } else if segments.len() > 2 && matches!(segments[2].as_str(), "tree" | "blob") {
            segments.truncate(2);
        }
    }
    if let Some(sub) = subpath.map(str::trim).filter(|s| !s.is_empty()) {
        let sub = if code_host {
            crate::lowercase(sub)
        } else {
            sub.to_owned()
        };
        let sub: Vec<&str> = sub.split('/').filter(|s| !s.is_empty()).collect();
        // A sub-path already present at the end of the URL is not appended twice.
        if !segments.ends_with(&sub.iter().map(|s| s.to_string()).collect::<Vec<_>>()) {
            segments.extend(sub.into_iter().map(str::to_owned));
        }
    }
    let mut out = host;
    for s in segments {
        out.push('/');
        out.push_str(&s);
    }
    Some(out)
}

/// Lower-case `s` onto `out` (ASCII by a byte map; anything else as `str::to_lowercase`).
fn push_lower(out: &mut String, s: &str) {
    if crate::is_ascii(s) {
        push_ascii_lower(out, s);
    } else {
        out.push_str(&s.to_lowercase());
    }
}

/// `s` (ASCII, or any text whose capitals are ASCII) appended to `out` with its ASCII capitals
/// lower-cased: one copy, then the copied bytes folded in place (pushing it `char` by `char` costs a
/// capacity check and a UTF-8 encoding per byte, 100,000 candidates × three keys in the filter).
fn push_ascii_lower(out: &mut String, s: &str) {
    let start = out.len();
    out.push_str(s);
    out[start..].make_ascii_lowercase();
}

#[cfg(test)]
pub(super) fn push_ascii_lower_for_test(out: &mut String, s: &str) {
    push_ascii_lower(out, s)
}

/// The dedup key of an id: the trimmed id lower-cased, a NUL, and the owner lower-cased (the same id
/// from two different owners is two skills: registry slugs collide across owners).
#[cfg(test)]
pub(super) fn id_key(id: &str, owner: Option<&str>) -> String {
    let mut key = String::new();
    push_id_key(&mut key, id, owner);
    key
}

/// [`id_key`] appended to `key`.
pub(super) fn push_id_key(key: &mut String, id: &str, owner: Option<&str>) {
    let (id, owner) = (id.trim(), owner.unwrap_or(""));
    key.reserve(id.len() + 1 + owner.len());
    push_lower(key, id);
    key.push('\u{0}');
    push_lower(key, owner);
}

/// [`canonical_url`] for ASCII text, appended to `out`: the segments are borrowed from the URL and
/// lower-cased as they are copied. Gives what [`canonical_general`] gives (a test compares the two),
/// whose ASCII case folding is this byte map.
fn push_canonical_ascii(out: &mut String, url: &str, subpath: Option<&str>) -> bool {
    let url = url.trim();
    let scheme = |p: &str| url.strip_prefix(p);
    let Some(rest) = scheme("https://")
        .or_else(|| scheme("http://"))
        .or_else(|| scheme("HTTPS://"))
        .or_else(|| scheme("HTTP://"))
    else {
        return false;
    };
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = match host.get(..4) {
        Some(www) if www.eq_ignore_ascii_case("www.") => &host[4..],
        _ => host,
    };
    if host.is_empty() {
        return false;
    }
    let code_host = ["github.com", "gitlab.com", "codeberg.org"]
        .iter()
        .any(|h| host.eq_ignore_ascii_case(h));
    let same = |a: &str, b: &str| {
        if code_host {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    // On the stack for the usual few segments (one allocation per candidate otherwise).
    let mut segments: SmallVec<[&str; 8]> = path.split('/').filter(|s| !s.is_empty()).collect();
    if code_host {
        if let Some(last) = segments.get_mut(1) {
            let n = last.len();
            if n >= 4 && last[n - 4..].eq_ignore_ascii_case(".git") {
                *last = &last[..n - 4];
            }
        }
        // owner/repo/tree/<branch>/path → owner/repo + path
        let tree = |s: &str| s.eq_ignore_ascii_case("tree") || s.eq_ignore_ascii_case("blob");
        if segments.len() > 3 && tree(segments[2]) {
            segments.drain(2..4);
        } else if segments.len() > 2 && tree(segments[2]) {
            segments.truncate(2);
        }
    }
    if let Some(sub) = subpath.map(str::trim).filter(|s| !s.is_empty()) {
        let sub: SmallVec<[&str; 8]> = sub.split('/').filter(|s| !s.is_empty()).collect();
        // A sub-path already present at the end of the URL is not appended twice.
        let present = sub.len() <= segments.len()
            && segments[segments.len() - sub.len()..]
                .iter()
                .zip(&sub)
                .all(|(a, b)| same(a, b));
        if !present {
            segments.extend(sub);
        }
    }
    out.reserve(host.len() + segments.iter().map(|s| s.len() + 1).sum::<usize>());
    push_ascii_lower(out, host);
    for s in segments {
        out.push('/');
        push_segment(out, s, code_host);
    }
    true
}

fn push_segment(out: &mut String, s: &str, lower: bool) {
    if lower {
        push_ascii_lower(out, s);
    } else {
        out.push_str(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ascii_url_path_gives_what_the_general_one_gives() {
        let urls = [
            "https://github.com/Owner/Repo.git/",
            "HTTPS://WWW.GitHub.com/O/R.GIT/tree/Main/Skills/PDF?x=1#y",
            "http://gitlab.com/o/r/blob/dev",
            "https://codeberg.org/o/r/tree",
            "https://github.com/o/r/tree/main",
            "https://github.com/o",
            "https://github.com/o/.git",
            "https://github.com",
            "https://www./x",
            "https://",
            "http:///a/b",
            "  https://Example.org/Case/Path/?q=1#x  ",
            "https://example.org/a//b/tree/c/d",
            "https://www.Example.org/A/B/skills/pdf",
            "ftp://github.com/o/r",
            "github.com/o/r",
            "Https://github.com/o/r",
        ];
        let subs = [
            None,
            Some(""),
            Some("  "),
            Some("skills/PDF"),
            Some("/pdf/"),
            Some("PDF"),
            Some("a/b/skills/pdf"),
            Some("B/skills/pdf"),
            Some("r/x"),
        ];
        for u in urls {
            for s in subs {
                let mut ascii = String::from("kept|");
                let found = push_canonical_ascii(&mut ascii, u, s);
                let general = canonical_general(u, s);
                assert_eq!(found, general.is_some(), "{u:?} with {s:?}");
                // Appended after what the buffer held; nothing written when there is none.
                assert_eq!(
                    ascii,
                    format!("kept|{}", general.unwrap_or_default()),
                    "{u:?} with {s:?}"
                );
            }
        }
    }

    #[test]
    fn id_keys_fold_case_and_keep_the_owner_apart() {
        assert_eq!(
            id_key(" ClawHub:PDF ", Some("Acme")),
            "clawhub:pdf\u{0}acme"
        );
        assert_eq!(id_key("x", None), "x\u{0}");
        assert_eq!(id_key("Ärger", Some("Ö")), "ärger\u{0}ö");
    }
}
