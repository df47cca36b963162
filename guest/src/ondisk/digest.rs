//! Content digests: the SHA-256 of a skill folder's tree (what provenance records and `audit` compares)
//! and the fingerprint of the scanner's rules (what a scan verdict was made with).
//!
//! The tree digest is defined over the bundle the host read, so every host computes the same value:
//!
//! ```text
//! sha256( "skill-recommender-tree/1\n"
//!         + for each entry, sorted by path (bytes):  KIND " " VALUE " " LEN ":" PATH "\n" )
//! ```
//!
//! KIND is `f` (a file), `x` (an executable file), `l` (a symbolic link) or `u` (unreadable); VALUE is the
//! lowercase hex SHA-256 of the file's bytes, the link's target as written, or `-`; LEN is the path's
//! length in bytes (so no path can forge another line). The provenance file
//! ([`super::names::PROVENANCE_PATH`]) is not part of the tree: it records the digest.

use std::sync::OnceLock;

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::names::PROVENANCE_PATH;
use crate::scan::{Bundle, EntryKind};

/// Lowercase hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// A well-formed digest: 64 lowercase hex characters.
pub fn is_sha256(s: &str) -> bool {
    s.len() == 64
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The digest of each binary entry (text entries' digests are computed here), as the host hashed it.
pub type Digests = [(String, String)];

/// The host's digest of `path`, if it gave one.
fn lookup<'a>(digests: &'a Digests, path: &str) -> Option<&'a str> {
    digests
        .iter()
        .find(|(p, _)| p == path)
        .map(|(_, d)| d.as_str())
}

/// The tree digest of `bundle` (see the module documentation). `digests` must hold the SHA-256 of every
/// binary entry; a text entry's digest is computed from its content, and if the host passed one it must
/// agree. Errors name the path.
pub fn tree_digest(bundle: &Bundle, digests: &Digests) -> Result<String, String> {
    for (path, d) in digests {
        if !is_sha256(d) {
            return Err(format!(
                "the digest of {path} is not 64 lowercase hex characters"
            ));
        }
    }
    let mut lines: Vec<(String, String)> = Vec::with_capacity(bundle.files.len());
    for f in &bundle.files {
        if f.path == PROVENANCE_PATH {
            continue;
        }
        let (kind, value) = match f.kind {
            EntryKind::Text => {
                let own = sha256_hex(f.content.as_deref().unwrap_or_default().as_bytes());
                if let Some(given) = lookup(digests, &f.path)
                    && given != own
                {
                    return Err(format!(
                        "the host's digest of {} does not match its text",
                        f.path
                    ));
                }
                (if f.executable { "x" } else { "f" }, own)
            }
            EntryKind::Binary => match lookup(digests, &f.path) {
                Some(d) => (if f.executable { "x" } else { "f" }, d.to_owned()),
                None => {
                    return Err(format!(
                        "no digest was given for the binary file {}",
                        f.path
                    ));
                }
            },
            EntryKind::Symlink => ("l", f.link_target.clone().unwrap_or_default()),
            EntryKind::Unreadable => ("u", "-".to_owned()),
        };
        lines.push((
            f.path.clone(),
            format!("{kind} {value} {}:{}\n", f.path.len(), f.path),
        ));
    }
    lines.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    if let Some(w) = lines.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!("{} appears twice in the bundle", w[0].0));
    }
    let mut h = Sha256::new();
    h.update(b"skill-recommender-tree/1\n");
    for (_, line) in &lines {
        h.update(line.as_bytes());
    }
    Ok(hex(&h.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(HEX[usize::from(b >> 4)]));
        s.push(char::from(HEX[usize::from(b & 15)]));
    }
    s
}

/// Which rules a scan verdict was made with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RulesVersion {
    /// The rule file's own `version` field.
    pub version: Option<u64>,
    /// The first 16 hex characters of the SHA-256 of the rule file: changes with any rule.
    pub sha256: String,
    /// How many content rules it holds.
    pub rules: usize,
}

/// The bundled rules' version and fingerprint (computed once per instance).
pub fn rules_version() -> &'static RulesVersion {
    static V: OnceLock<RulesVersion> = OnceLock::new();
    V.get_or_init(|| {
        let text = crate::scan::rules::RULES_JSON;
        let version = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|v| v.get("version").and_then(serde_json::Value::as_u64));
        RulesVersion {
            version,
            sha256: sha256_hex(text.as_bytes())[..16].to_owned(),
            rules: crate::scan::RuleSet::builtin().rules.len(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::BundleFile;

    fn bundle(files: Vec<BundleFile>) -> Bundle {
        Bundle {
            name: "x".into(),
            files,
            notes: vec![],
        }
    }

    #[test]
    fn sha256_of_known_input() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(is_sha256(&sha256_hex(b"")));
        assert!(!is_sha256("ABC"));
    }

    #[test]
    fn digest_is_order_independent_and_sees_every_change() {
        let a = BundleFile::text("SKILL.md", "---\nname: x\n---\n");
        let b = BundleFile::text("scripts/run.sh", "echo hi\n");
        let d1 = tree_digest(&bundle(vec![a.clone(), b.clone()]), &[]).unwrap();
        let d2 = tree_digest(&bundle(vec![b.clone(), a.clone()]), &[]).unwrap();
        assert_eq!(d1, d2);
        assert!(is_sha256(&d1));
        // Content, executable bit, a new file and a renamed file all change it.
        let mut b2 = b.clone();
        b2.content = Some("echo bye\n".into());
        let mut b3 = b.clone();
        b3.executable = true;
        let mut b4 = b.clone();
        b4.path = "scripts/go.sh".into();
        for other in [
            vec![a.clone(), b2],
            vec![a.clone(), b3],
            vec![a.clone(), b4],
            vec![a.clone(), b.clone(), BundleFile::text("x.md", "")],
            vec![a.clone()],
        ] {
            assert_ne!(tree_digest(&bundle(other), &[]).unwrap(), d1);
        }
        // The provenance file is not part of the tree.
        let prov = BundleFile::text(PROVENANCE_PATH, "{}");
        assert_eq!(tree_digest(&bundle(vec![a, b, prov]), &[]).unwrap(), d1);
    }

    #[test]
    fn binary_files_need_the_hosts_digest_and_text_digests_must_agree() {
        let bin = BundleFile {
            kind: EntryKind::Binary,
            content: None,
            ..BundleFile::text("assets/logo.png", "")
        };
        let b = bundle(vec![BundleFile::text("SKILL.md", "hi"), bin]);
        assert!(
            tree_digest(&b, &[])
                .unwrap_err()
                .contains("assets/logo.png")
        );
        let d = sha256_hex(b"png bytes");
        assert!(tree_digest(&b, &[("assets/logo.png".into(), d.clone())]).is_ok());
        assert!(tree_digest(&b, &[("assets/logo.png".into(), "zz".into())]).is_err());
        let wrong = vec![
            ("assets/logo.png".into(), d),
            ("SKILL.md".into(), sha256_hex(b"other")),
        ];
        assert!(tree_digest(&b, &wrong).unwrap_err().contains("SKILL.md"));
        let dup = bundle(vec![BundleFile::text("a", "1"), BundleFile::text("a", "2")]);
        assert!(tree_digest(&dup, &[]).unwrap_err().contains("twice"));
    }

    #[test]
    fn a_path_cannot_forge_another_entry() {
        let one = bundle(vec![BundleFile::text("a\nf 00 1:b", "")]);
        let two = bundle(vec![BundleFile::text("a", ""), BundleFile::text("b", "")]);
        assert_ne!(
            tree_digest(&one, &[]).unwrap(),
            tree_digest(&two, &[]).unwrap()
        );
    }

    #[test]
    fn rules_version_is_stable_within_a_build() {
        let v = rules_version();
        assert_eq!(v.sha256.len(), 16);
        assert!(v.rules > 0);
        assert_eq!(v, rules_version());
    }
}
