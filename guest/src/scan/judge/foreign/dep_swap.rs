//! Packages taken from a host that is not a registry in place of the real ones:
//! - `supply_chain.package-swap` (`critical`): an install command whose argument is an archive
//!   (`.tgz`, `.tar.gz`, `.whl`, `.zip`) on such a host, named after a widely used package
//!   (`npm install https://pkgs.x.example/axios-1.7.9-patched.tgz`): "our fork" of a popular
//!   package, served from a host nobody vets;
//! - `supply_chain.dependency-confusion` (`critical`): an install from an extra or replacement
//!   index on such a host of a package whose name says it is internal (`internal`, `private`,
//!   `corp`): the classic confusion — the name is taken on whichever index answers with the
//!   higher version (with `--extra-index-url` even the organisation's own index does not
//!   protect the name).
//!
//! Not judged: registries, vendors' own indexes (`download.pytorch.org`), their public mirrors,
//! a host named after the skill or its description's service, quoted or taught lines.

use super::super::shapes::found;
use super::super::{Bundle, File, hosts_in};
use super::{foreign, own_host, own_words, sample_file};
use crate::scan::content::Finding;
use crate::scan::judge::prose::squat;
use crate::scan::rules::Severity;

const INSTALLS: &[(&str, bool)] = &[
    ("pip install ", true),
    ("pip3 install ", true),
    ("python -m pip install ", true),
    ("python3 -m pip install ", true),
    ("uv pip install ", true),
    ("uv add ", true),
    ("poetry add ", true),
    ("npm install ", false),
    ("npm i ", false),
    ("pnpm add ", false),
    ("pnpm install ", false),
    ("yarn add ", false),
    ("bun add ", false),
];
const ARCHIVES: &[&str] = &[".tgz", ".tar.gz", ".whl", ".zip"];
const INDEX_FLAGS: &[&str] = &["--extra-index-url", "--index-url", " -i http", "--registry"];
const INTERNAL: &[&str] = &["internal", "private", "corp", "intranet"];

/// Words without one of which these rules cannot fire.
pub(super) const RAW: &[&str] = &[
    ".tgz",
    ".tar.gz",
    ".whl",
    ".zip",
    "--extra-index-url",
    "--index-url",
    "--registry",
    " -i http",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = own_words(b);
    for f in &b.files {
        if sample_file(f) {
            continue;
        }
        if let Some(x) = swap(f, &words) {
            out.push(x);
        }
    }
}

fn swap(f: &File<'_>, words: &[String]) -> Option<Finding> {
    let all = f.lower_all();
    if !RAW.iter().any(|w| all.contains(w)) || !INSTALLS.iter().any(|(c, _)| all.contains(c)) {
        return None;
    }
    for (i, l) in f.lowered().lower.iter().enumerate() {
        if l.starts_with('>') {
            continue;
        }
        let Some(&(cmd, pypi)) = INSTALLS.iter().find(|(c, _)| l.contains(c)) else {
            continue;
        };
        let line = f.lowered().lines[i];
        // With `--extra-index-url` pip takes a name from whichever index offers the higher
        // version, so even the organisation's own extra index does not protect an internal name.
        let extra = l.contains("--extra-index-url");
        let hosts: Vec<_> = hosts_in(line)
            .into_iter()
            .filter(|h| foreign(h) && (extra || !own_host(h, words)))
            .collect();
        if hosts.is_empty() {
            continue;
        }
        // An archive named after a popular package.
        for h in hosts.iter().filter(|h| !own_host(h, words)) {
            let path = h.path.split(['?', '#']).next().unwrap_or("");
            let file = path.rsplit('/').next().unwrap_or("").to_ascii_lowercase();
            if !ARCHIVES.iter().any(|a| file.ends_with(a)) {
                continue;
            }
            // `axios-1.7.9-patched.tgz` → `axios`; `requests-2.32.0-py3-none-any.whl` → `requests`.
            let stem: Vec<&str> = file.split(['-', '_']).collect();
            let name_end = stem
                .iter()
                .position(|p| p.starts_with(|c: char| c.is_ascii_digit()))
                .unwrap_or(1)
                .max(1);
            let name = stem[..name_end].join("-");
            if squat::is_popular(&name, pypi) {
                return Some(found(
                    "supply_chain.package-swap",
                    "supply_chain",
                    Severity::Critical,
                    f,
                    i,
                    format!(
                        "`{}` installs an archive of the widely used package `{name}` from {} ({}) instead of its registry: a copy nobody vets, served in place of the real package.",
                        cmd.trim(),
                        h.host,
                        h.class.phrase()
                    ),
                    vec![],
                ));
            }
        }
        // An internal-named package from an outside index.
        if INDEX_FLAGS.iter().any(|x| l.contains(x)) {
            let after = &l[l.find(cmd).map_or(0, |p| p + cmd.len())..];
            let internal = after
                .split_whitespace()
                .filter(|t| !t.starts_with('-') && !t.contains("://"))
                .find(|t| INTERNAL.iter().any(|w| t.contains(w)));
            if let Some(pkg) = internal {
                let h = &hosts[0];
                return Some(found(
                    "supply_chain.dependency-confusion",
                    "supply_chain",
                    Severity::Critical,
                    f,
                    i,
                    format!(
                        "A package whose name says it is internal (`{pkg}`) is installed from an index on {} ({}): whoever runs that index decides what the organisation's internal package contains.",
                        h.host,
                        h.class.phrase()
                    ),
                    vec![],
                ));
            }
        }
    }
    None
}
