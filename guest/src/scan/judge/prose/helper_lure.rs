//! A branded helper to fetch from a free host (round 31m, sets30m).
//!
//! - `lure.branded-helper` (`critical`): prose that makes a separate program a requirement of the
//!   skill ("requires X to be installed", "X must be installed first", "必须先安装 X"), where the
//!   program's name is a brand with something added (`OpenClawCLI`, `openclaw-core`,
//!   `ClaudeHelper`: what impostor downloads are called), and, within the next lines, a link to
//!   download or install it from a host that is not that brand's: a subdomain anyone can register
//!   on a free hosting platform, a paste site, a raw IP, a tunnel, a shortener or a lookalike. A
//!   brand's own programs ship from the brand's own domain or a package registry.
//!
//! Negated and teaching lines ("never install …", "malware asks you to …") are left alone. One
//! pass over the lines of each document, each looking at most [`REACH`] lines ahead.

use super::super::Bundle;
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::hosts::{HostClass, brand_names, vendor_of_host};
use crate::scan::rules::Severity;

/// Lines after the requirement within which the download link may stand.
const REACH: usize = 3;

/// A requirement to install something first (lower-case).
pub(super) const REQUIRE: &[&str] = &[
    "requires",
    "required",
    "must be installed",
    "must install",
    "must first install",
    "need to install",
    "needs to be installed",
    "install it first",
    "get it first",
    "before using",
    "必须先安装",
    "需要安装",
    "必须安装",
    "先安装",
    "需先安装",
];

/// Fetching or installing (lower-case).
const FETCH: &[&str] = &["download", "install", "get it", "下载", "安装"];

/// Lines that warn about, teach or refuse such steps (lower-case).
const AGAINST: &[&str] = &[
    "never",
    "do not",
    "don't",
    "malware",
    "malicious",
    "lure",
    "scam",
    "phishing",
    "不要",
    "恶意",
    "诈骗",
];

/// Hosting platforms where anyone registers a subdomain (`name.vercel.app`).
const FREE_HOSTS: &[&str] = &[
    ".vercel.app",
    ".netlify.app",
    ".pages.dev",
    ".workers.dev",
    ".herokuapp.com",
    ".web.app",
    ".firebaseapp.com",
    ".github.io",
    ".onrender.com",
    ".glitch.me",
    ".surge.sh",
    ".replit.app",
    ".fly.dev",
    ".railway.app",
];

/// A program name made of a brand and something more (`openclawcli`, `openclaw-core`), from the
/// words of `text` with its links taken out: the brand's name, if any.
fn branded_product(text: &str) -> Option<&'static str> {
    let mut words = String::with_capacity(text.len());
    let mut last = 0;
    for (s, e) in crate::scan::hosts::urls_in(text) {
        words.push_str(&text[last..s]);
        words.push(' ');
        last = e;
    }
    words.push_str(&text[last..]);
    let lower = crate::ascii_lowered(&words).into_owned();
    lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| w.len() >= 5)
        .find_map(|w| {
            brand_names().find(|b| w.len() > b.len() && w.contains(b) && !w.contains('.'))
        })
}

/// Suffixes of an organisation's own account name (`openai`, `anthropics`, `cursor-io`).
const ORG: &[&str] = &[
    "", "s", "-io", "io", "-ai", "ai", "hq", "-hq", "labs", "-labs", "-dev", "dev",
];

/// The first link on `line` to a host that is neither the brand's vendor nor a known vendor's:
/// a free-hosting subdomain or a suspicious host. A free-hosting account named exactly after the
/// brand (`openai.github.io`) is the brand's own.
fn foreign_download(line: &str, brand: &str, component: bool) -> Option<String> {
    super::super::hosts_in(line).into_iter().find_map(|h| {
        let first = h.host.split('.').next().unwrap_or("");
        let own = first
            .strip_prefix(brand)
            .is_some_and(|rest| ORG.contains(&rest));
        let free = !own && FREE_HOSTS.iter().any(|s| h.host.ends_with(s));
        let bad = h.class.is_suspicious() && h.class != HostClass::Local;
        // Round 38m: a domain whose registered name is the brand with something added
        // (`brandcli.example`): a look-alike of the brand's own site.
        let labels: Vec<&str> = h.host.split('.').collect();
        let registered = labels.len() >= 2 && {
            let name = labels[labels.len() - 2];
            name.strip_prefix(brand)
                .is_some_and(|rest| !rest.is_empty() && !ORG.contains(&rest))
        };
        let squat = registered && !h.class.is_known_good();
        // Round 38m: a release asset of a brand-named component (`brand-core`, `brandcli`) on a
        // code host, under an account that is no brand's own: the impostor's upload.
        // GitHub hosts everyone's releases: a `github-…` part released there is no impostor sign.
        let release = component && brand != "github" && foreign_release(&h);
        ((free || bad || squat) && !h.class.is_known_good() && vendor_of_host(&h.host).is_none()
            || release)
            .then_some(h.host)
    })
}

/// Suffixes that make a brand's name into the name of a program part (`brand-core`,
/// `brandcli`, `BrandDriver`): what impostor prerequisites are called.
const COMPONENT: &[&str] = &[
    "cli",
    "core",
    "driver",
    "provider",
    "agent",
    "helper",
    "runtime",
    "setup",
    "installer",
    "service",
    "daemon",
    "bridge",
    "connector",
    "updater",
    "launcher",
];

/// Whether `product` (a lowered word holding `brand`) is the brand plus a component suffix.
fn component_name(product: &str, brand: &str) -> bool {
    product.find(brand).is_some_and(|i| {
        let rest = product[i + brand.len()..].trim_start_matches(['-', '_']);
        COMPONENT.iter().any(|c| rest.starts_with(c))
    })
}

/// A release asset (`/<owner>/<repo>/releases/download/…`) on GitHub, GitLab or Codeberg whose
/// owner account is not named after any brand (with an organisation suffix).
fn foreign_release(h: &super::super::Host) -> bool {
    if !matches!(
        h.host.as_str(),
        "github.com" | "gitlab.com" | "codeberg.org"
    ) || !h.path.contains("/releases/download/")
    {
        return false;
    }
    let owner: String = h
        .path
        .trim_start_matches('/')
        .split('/')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    !brand_names().any(|b| owner.strip_prefix(b).is_some_and(|r| ORG.contains(&r)))
}

/// The lowered word of `text` that holds `brand` with something added.
fn product_word(text: &str, brand: &str) -> Option<String> {
    crate::ascii_lowered(text)
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .find(|w| w.len() > brand.len() && w.contains(brand))
        .map(str::to_owned)
}

/// `lure.branded-helper`: at most one finding per document.
pub(super) fn branded_helper(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b.files.iter().filter(|f| f.kind != FileKind::Code) {
        let crate::scan::judge::Lowered { lines, lower } = file.lowered();
        'lines: for i in 0..lines.len() {
            if !REQUIRE.iter().any(|w| lower[i].contains(w))
                || super::tool_cc::has_phrase(&lower[i], AGAINST)
            {
                continue;
            }
            let end = (i + REACH).min(lines.len() - 1);
            // The product may be named on the line before the requirement ("X is a helper …
            // you have to get it first", round 38m).
            let Some((brand, at)) = (i.saturating_sub(1)..=end.min(i + 1))
                .find_map(|j| branded_product(lines[j]).map(|b| (b, j)))
            else {
                continue;
            };
            let component =
                product_word(lines[at], brand).is_some_and(|w| component_name(&w, brand));
            for j in i..=end {
                if super::tool_cc::has_phrase(&lower[j], AGAINST) {
                    continue 'lines;
                }
                let fetch = FETCH
                    .iter()
                    .any(|w| lower[j].contains(w) || lower[i].contains(w));
                let Some(host) = foreign_download(lines[j], brand, component) else {
                    continue;
                };
                if !fetch {
                    continue;
                }
                out.push(Finding {
                    rule_id: "lure.branded-helper".into(),
                    category: "supply_chain".into(),
                    severity: Severity::Critical,
                    file: file.path.into(),
                    line: i + 1,
                    evidence: evidence(lines[i], 0, lines[i].len()),
                    description: format!(
                        "The skill makes a separate program named after {brand} a requirement ({}:{}) and sends people to download it from {host} ({}:{}), a host that is not {brand}'s: the impostor-helper lure that delivers infostealers. A brand's own programs ship from its own domain or a package registry.",
                        file.path,
                        i + 1,
                        file.path,
                        j + 1
                    ),
                    related: Vec::new(),
                });
                break 'lines;
            }
        }
    }
}
