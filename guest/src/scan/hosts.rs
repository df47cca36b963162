//! Where data goes and where code comes from: hosts taken from URLs, classified against the data in
//! `guest/rules/hosts.json` (vendors with the key names that belong to them, installers, registries,
//! request collectors, paste sites, tunnels, shorteners), and the vendor/host agreement rule: a key
//! whose name names a vendor, sent to that vendor's domain, is the skill doing its job; sent anywhere
//! else it is exfiltration.

use std::sync::OnceLock;

use serde::Deserialize;

/// The bundled host data.
pub const HOSTS_JSON: &str = include_str!("../../rules/hosts.json");

/// What kind of place a host is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum HostClass {
    /// Loopback, private or link-local addresses, `localhost`, `*.local`, `*.internal`.
    Local,
    /// A vendor's API domain (see [`vendor_of_host`]).
    Vendor,
    /// An official installer or download host.
    Installer,
    /// A package registry.
    Registry,
    /// Nothing known about it.
    Unknown,
    /// A public IP address instead of a name.
    RawIp,
    /// A request collector (webhook.site, requestbin, interactsh…): made to receive stolen data.
    Collector,
    /// A paste site or anonymous file share.
    Paste,
    /// A tunnel to someone's machine (ngrok, trycloudflare, serveo…).
    Tunnel,
    /// A link shortener hiding the real destination.
    Shortener,
    /// A host made to look like a vendor's (`api.anthropic.com.evil.example`), or a GitHub path
    /// whose owner cannot exist (`github.com/some_user/…`: GitHub names have no `_`).
    Lookalike,
}

impl HostClass {
    /// Places no honest skill fetches code from or sends secrets to.
    pub fn is_suspicious(self) -> bool {
        self >= HostClass::RawIp
    }

    /// Places a vendor runs (its API, installers, registries).
    pub fn is_known_good(self) -> bool {
        matches!(
            self,
            HostClass::Vendor | HostClass::Installer | HostClass::Registry
        )
    }

    /// Neither this machine (nor its private network) nor a place a vendor runs: where a secret
    /// sent or a script fetched leaves the hands of the user and of the services they chose.
    pub fn is_outside(self) -> bool {
        self != HostClass::Local && !self.is_known_good()
    }

    pub fn as_str(self) -> &'static str {
        match self {
            HostClass::Local => "local",
            HostClass::Vendor => "vendor",
            HostClass::Installer => "installer",
            HostClass::Registry => "registry",
            HostClass::Unknown => "unknown",
            HostClass::RawIp => "raw-ip",
            HostClass::Collector => "collector",
            HostClass::Paste => "paste",
            HostClass::Tunnel => "tunnel",
            HostClass::Shortener => "shortener",
            HostClass::Lookalike => "lookalike",
        }
    }

    /// A phrase for descriptions ("a raw IP address", "a request collector"…).
    pub fn phrase(self) -> &'static str {
        match self {
            HostClass::Local => "this machine or the local network",
            HostClass::Vendor => "a vendor's API",
            HostClass::Installer => "an official installer host",
            HostClass::Registry => "a package registry",
            HostClass::Unknown => "a host that is not a known vendor",
            HostClass::RawIp => "a raw IP address",
            HostClass::Collector => "a request collector made to receive data",
            HostClass::Paste => "a paste site or anonymous file share",
            HostClass::Tunnel => "a tunnel to someone's machine",
            HostClass::Shortener => "a link shortener that hides the destination",
            HostClass::Lookalike => "a lookalike of a vendor's host",
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct Vendor {
    pub name: String,
    pub stems: Vec<String>,
    pub domains: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct HostFile {
    vendors: Vec<Vendor>,
    installers: Vec<String>,
    registries: Vec<String>,
    collectors: Vec<String>,
    paste: Vec<String>,
    tunnels: Vec<String>,
    shorteners: Vec<String>,
    user_content: Vec<String>,
    brands: Vec<String>,
    brand_ok: Vec<String>,
}

fn data() -> &'static HostFile {
    static D: OnceLock<HostFile> = OnceLock::new();
    D.get_or_init(|| {
        serde_json::from_str(HOSTS_JSON).expect("the bundled host data is valid (tested)")
    })
}

/// Build the tables now ([`crate::initialize`]).
pub(crate) fn initialize() {
    lists();
}

/// `host` is `domain` or a subdomain of it.
pub fn under(host: &str, domain: &str) -> bool {
    host == domain
        || host.len() > domain.len()
            && host.ends_with(domain)
            && host.as_bytes()[host.len() - domain.len() - 1] == b'.'
}

/// A URL's host and the rest (path and query), lower-cased host; `None` if `url` has no `scheme://`.
pub fn split_url(url: &str) -> Option<(String, &str)> {
    let rest = &url[url.find("://")? + 3..];
    // Credentials before the host (`https://${TOKEN}@host/…`, `https://x:$T@host`): the host
    // follows the last `@` before the path.
    let mut depth = 0usize;
    let authority_end = rest
        .char_indices()
        .find(|&(i, c)| {
            match c {
                '(' if rest[..i].ends_with('$') => depth += 1,
                ')' if depth > 0 => depth -= 1,
                _ => {}
            }
            depth == 0 && matches!(c, '/' | '?' | '#' | ' ' | '"' | '\'' | '`')
        })
        .map_or(rest.len(), |(i, _)| i);
    let rest = match rest[..authority_end].rfind('@') {
        Some(at) => &rest[at + 1..],
        None => rest,
    };
    // A subdomain filled in at run time under a fixed domain (`https://${project_ref}.supabase.co`,
    // `https://$BUCKET.s3.amazonaws.com`): the request goes to that domain (round 37b).
    let rest = runtime_label(rest).unwrap_or(rest);
    // A host filled in at run time (`https://${SITE}/…`, `https://<host>/…`) is not a host, nor is
    // a pattern's group (`s|https://([^.]+)\.host…|` in a `sed` expression, round 37b).
    if rest.starts_with(['$', '{', '<', '%', '"', '\'', '(', '^']) {
        return None;
    }
    let end = rest
        .find(|c: char| {
            matches!(
                c,
                '/' | '?'
                    | '#'
                    | '"'
                    | '\''
                    | '`'
                    | ' '
                    | '\t'
                    | '\n'
                    | '\r'
                    | ')'
                    | '>'
                    | '<'
                    | '}'
                    | ','
                    | ';'
                    | '|'
                    | '\\'
                    | '$'
                    | '{'
                    | '%'
                    | '*'
            ) || c == ']' && !rest.starts_with('[')
        })
        .unwrap_or(rest.len());
    let authority = &rest[..end];
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let host = if authority.starts_with('[') {
        authority.find(']').map_or(authority, |i| &authority[..=i])
    } else {
        authority.split(':').next().unwrap_or(authority)
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host.is_empty() {
        return None;
    }
    Some((host, &rest[end..]))
}

/// The rest of an authority after a leading run-time label (`${ref}.`, `$ref.`, `{{ref}}.`) when
/// a fixed domain of at least two labels follows it.
fn runtime_label(rest: &str) -> Option<&str> {
    let after = if let Some(r) = rest.strip_prefix("${") {
        &r[r.find('}')? + 1..]
    } else if let Some(r) = rest.strip_prefix("{{") {
        &r[r.find("}}")? + 2..]
    } else if let Some(r) = rest.strip_prefix('$') {
        r.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
    } else {
        return None;
    };
    let domain = after.strip_prefix('.')?;
    let end = domain
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
        .unwrap_or(domain.len());
    let name = domain[..end].trim_end_matches('.');
    let labels = name.split('.').filter(|l| !l.is_empty()).count();
    (labels >= 2
        && name
            .rsplit('.')
            .next()
            .is_some_and(|tld| tld.len() >= 2 && tld.bytes().all(|c| c.is_ascii_alphabetic())))
    .then_some(domain)
}

/// Every `scheme://host…` URL in a line, as byte ranges.
/// The index of the bracket closing the one `b` starts with (`(` or `{`), on the same line.
fn closing(b: &[u8]) -> Option<usize> {
    let (open, close) = match b.first()? {
        b'(' => (b'(', b')'),
        _ => (b'{', b'}'),
    };
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate().take(256) {
        if c == b'\n' {
            return None;
        }
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

pub fn urls_in(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut from = 0;
    while let Some(i) = line[from..].find("://").map(|i| i + from) {
        let mut s = i;
        while s > 0 && (b[s - 1].is_ascii_alphanumeric() || matches!(b[s - 1], b'+' | b'-' | b'.'))
        {
            s -= 1;
        }
        let mut e = i + 3;
        if b.get(e) == Some(&b'[')
            && let Some(close) = line[e..].find(']')
        {
            e += close + 1;
        }
        // A substitution in the authority (`https://${TOKEN}@host`, `https://x:$(gh auth token)@host`)
        // is part of the URL: skip to its closing bracket.
        let mut authority = true;
        while e < b.len() {
            if b[e] == b'/' {
                authority = false;
            }
            if authority
                && b[e] == b'$'
                && matches!(b.get(e + 1), Some(b'(' | b'{'))
                && let Some(close) = closing(&b[e + 1..])
            {
                e += close + 2;
                continue;
            }
            if matches!(
                b[e],
                // A URL ends at a line break too: a text joined across lines (a command continued
                // on the next one) must not read `https://registry.example\necho` as one host
                // (round 33v).
                b' ' | b'\t'
                    | b'\n'
                    | b'\r'
                    | b'"'
                    | b'\''
                    | b'`'
                    | b')'
                    | b'<'
                    | b'>'
                    | b'|'
                    | b'\\'
                    | b']'
                    | b'}'
            ) {
                break;
            }
            e += 1;
        }
        if s < i {
            out.push((s, e));
        }
        from = e.max(i + 3);
    }
    out
}

fn ipv4(host: &str) -> Option<[u8; 4]> {
    let mut out = [0u8; 4];
    let mut parts = host.split('.');
    for o in &mut out {
        *o = parts.next()?.parse().ok()?;
    }
    parts.next().is_none().then_some(out)
}

/// The lists of `hosts.json`, as bits of [`Lists`].
const COLLECTORS: u16 = 1;
const PASTE: u16 = 1 << 1;
const TUNNELS: u16 = 1 << 2;
const SHORTENERS: u16 = 1 << 3;
const INSTALLERS: u16 = 1 << 4;
const REGISTRIES: u16 = 1 << 5;
const USER_CONTENT: u16 = 1 << 6;
const VENDORS: u16 = 1 << 7;
const BRAND_OK: u16 = 1 << 8;

/// How an entry of a list matches a host found at its domain.
enum Entry {
    /// The domain and every subdomain (`example.com`, or `.example.com` in `user_content`).
    Under(u16),
    /// The domain itself only (`user_content` entries without a leading dot).
    Exact(u16),
    /// The domain itself, with a path starting with the prefix (`host/prefix`); ASCII
    /// case-insensitively unless `exact_case`.
    Prefix(u16, String, bool),
}

/// Every list entry by domain, so that a host is classified with one lookup per label suffix
/// (`a.b.example.com`, `b.example.com`, `example.com`, `com`) instead of a walk over every list.
struct Lists {
    by_domain: std::collections::BTreeMap<String, Vec<Entry>>,
    brands: std::collections::BTreeSet<String>,
}

fn lists() -> &'static Lists {
    static L: OnceLock<Lists> = OnceLock::new();
    L.get_or_init(|| {
        let d = data();
        let mut by_domain: std::collections::BTreeMap<String, Vec<Entry>> = Default::default();
        let mut add = |entry: &str, bit: u16, user_content: bool| {
            let (domain, e) = match entry.split_once('/') {
                Some((h, prefix)) => (h, Entry::Prefix(bit, prefix.to_owned(), user_content)),
                None if user_content => match entry.strip_prefix('.') {
                    Some(suffix) => (suffix, Entry::Under(bit)),
                    None => (entry, Entry::Exact(bit)),
                },
                None => (entry, Entry::Under(bit)),
            };
            by_domain.entry(domain.to_owned()).or_default().push(e);
        };
        for (list, bit) in [
            (&d.collectors, COLLECTORS),
            (&d.paste, PASTE),
            (&d.tunnels, TUNNELS),
            (&d.shorteners, SHORTENERS),
            (&d.installers, INSTALLERS),
            (&d.registries, REGISTRIES),
            (&d.brand_ok, BRAND_OK),
        ] {
            for entry in list {
                add(entry, bit, false);
            }
        }
        for entry in &d.user_content {
            add(entry, USER_CONTENT, true);
        }
        for v in &d.vendors {
            for dom in &v.domains {
                add(dom, VENDORS, false);
            }
        }
        Lists {
            by_domain,
            brands: d.brands.iter().cloned().collect(),
        }
    })
}

/// The lists `host` (with the URL's `path`) is on, as bits.
fn lists_of(host: &str, path: &str) -> u16 {
    let l = lists();
    let mut bits = 0;
    let mut suffix = host;
    loop {
        if let Some(entries) = l.by_domain.get(suffix) {
            let whole = suffix.len() == host.len();
            for e in entries {
                bits |= match e {
                    Entry::Under(b) => *b,
                    Entry::Exact(b) if whole => *b,
                    Entry::Prefix(b, prefix, exact_case) if whole => {
                        let p = path.trim_start_matches('/');
                        let ok = p.len() >= prefix.len()
                            && p.is_char_boundary(prefix.len())
                            && if *exact_case {
                                p.starts_with(prefix.as_str())
                            } else {
                                p[..prefix.len()].eq_ignore_ascii_case(prefix)
                            };
                        if ok { *b } else { 0 }
                    }
                    _ => 0,
                };
            }
        }
        match suffix.find('.') {
            Some(i) => suffix = &suffix[i + 1..],
            None => break,
        }
    }
    bits
}

/// The class of a host (lower-case, as [`split_url`] gives it), with the URL's path for the lists
/// that name path prefixes (`raw.githubusercontent.com/Homebrew/`).
pub fn classify(host: &str, path: &str) -> HostClass {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Some([a, b, ..]) = ipv4(bare) {
        let local = a == 127
            || a == 10
            || a == 0
            || (a == 172 && (16..32).contains(&b))
            || (a == 192 && b == 168)
            || (a == 169 && b == 254);
        return if local {
            HostClass::Local
        } else {
            HostClass::RawIp
        };
    }
    if bare.contains(':') {
        let local = bare == "::1"
            || bare.starts_with("fe80")
            || bare.starts_with("fc")
            || bare.starts_with("fd")
            || bare == "::";
        return if local {
            HostClass::Local
        } else {
            HostClass::RawIp
        };
    }
    if bare == "localhost"
        || ["localhost", "local", "internal", "lan", "home.arpa", "test"]
            .iter()
            .any(|s| under(bare, s))
        || bare == "host.docker.internal"
    {
        return HostClass::Local;
    }
    let on = lists_of(bare, path);
    if on & COLLECTORS != 0 {
        return HostClass::Collector;
    }
    if on & PASTE != 0 {
        return HostClass::Paste;
    }
    if on & TUNNELS != 0 {
        return HostClass::Tunnel;
    }
    if on & SHORTENERS != 0 {
        return HostClass::Shortener;
    }
    if matches!(
        bare,
        "github.com"
            | "raw.githubusercontent.com"
            | "gist.github.com"
            | "gist.githubusercontent.com"
    ) && path
        .trim_start_matches('/')
        .split('/')
        .next()
        .is_some_and(|owner| {
            (owner.contains('_') || owner.starts_with('-') || owner.ends_with('-'))
                && !placeholder_owner(owner)
        })
    {
        return HostClass::Lookalike;
    }
    if on & INSTALLERS != 0 {
        return HostClass::Installer;
    }
    if on & REGISTRIES != 0 {
        return HostClass::Registry;
    }
    // Anyone's code: a vendor runs the host, not what it serves (`api.github.com` is the vendor's
    // API; `github.com/<anyone>` is not).
    if on & USER_CONTENT != 0 {
        return HostClass::Unknown;
    }
    if on & VENDORS != 0 {
        return HostClass::Vendor;
    }
    if on & BRAND_OK == 0
        && bare
            .split(['.', '-'])
            .any(|label| lists().brands.contains(label))
    {
        return HostClass::Lookalike;
    }
    HostClass::Unknown
}

/// Whether the host serves anyone's files (`user_content` in `hosts.json`: `github.com/<anyone>`,
/// `*.vercel.app`, object stores): its name says nothing about who wrote what it serves.
pub fn serves_anyones_files(host: &str, path: &str) -> bool {
    lists_of(host.trim_start_matches('[').trim_end_matches(']'), path) & USER_CONTENT != 0
}

/// Whether a lookalike host wears a brand only as a subdomain label of somebody else's domain
/// (`openclaw.news-cdn.example`: a partner's integration endpoint, or a disguise), rather than in the
/// name that was registered (`openai-usage.com`, `claude-helper.net`) or with a vendor's whole domain
/// inside it (`api.anthropic.com.evil.example`). The registered name is taken as the last two labels,
/// three under a two-letter country code with a generic second level (`co.uk`, `com.cn`).
/// The label before the last of a host name, lower-cased (`skillsmp` of `api.skillsmp.com`; a
/// trailing dot is ignored); `None` for a one-label name. Unlike `judge::registered_name` it does
/// not look past two-part country suffixes or the documentation domains.
pub fn second_level(host: &str) -> Option<String> {
    let host = host.trim_end_matches('.');
    let mut labels = host.rsplit('.');
    labels.next()?;
    labels.next().map(str::to_ascii_lowercase)
}

pub fn brand_only_in_subdomain(host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    let labels: Vec<&str> = host.trim_end_matches('.').split('.').collect();
    if labels.len() < 3 {
        return false;
    }
    let generic = [
        "co", "com", "net", "org", "gov", "edu", "ac", "or", "ne", "go",
    ];
    let tld = labels[labels.len() - 1];
    let sld = labels[labels.len() - 2];
    let keep = if tld.len() == 2 && generic.contains(&sld) {
        3
    } else {
        2
    };
    if labels.len() <= keep {
        return false;
    }
    let (sub, reg) = labels.split_at(labels.len() - keep);
    let branded = |l: &&str| l.split('-').any(|part| lists().brands.contains(part));
    // A vendor's whole domain written into the host is deliberate, wherever it sits.
    let embeds_vendor = data().vendors.iter().any(|v| {
        v.domains
            .iter()
            .any(|d| host.contains(&format!("{d}.")) || host.contains(&format!("{d}-")))
    });
    !embeds_vendor && !reg.iter().any(branded) && sub.iter().any(branded)
}

/// The brand names the host lists know (lower-case): names that make a host not the vendor's a
/// lookalike, and that impostor programs borrow (round 31m).
pub fn brand_names() -> impl Iterator<Item = &'static str> {
    lists().brands.iter().map(String::as_str)
}

/// The class of the host of `url` (`None` when it has no host).
/// Whether a code host's owner segment is a placeholder the reader replaces with their own account
/// (`YOUR_USERNAME`, `your-org`, `MY_GITHUB_USER`, `<owner>`, `{user}`, `USERNAME`): the URL is a
/// template of the reader's own repository, not an address of anyone's (round 45b). No account can
/// hold such a name (GitHub names have no `_`, `<` or `{`; a `your-…` one would be an oddity no
/// install guide relies on).
pub fn placeholder_owner(owner: &str) -> bool {
    // A shell or template variable (`$OWNER`, `${{ github.repository_owner }}`) is filled by the
    // script, not by the reader.
    if owner.starts_with('$') {
        return false;
    }
    let o = owner.trim_matches(['<', '>', '{', '}', '[', ']']);
    if o.len() != owner.len() && !o.is_empty() && !o.contains('$') {
        return true;
    }
    let l = o.to_ascii_lowercase();
    let bare = matches!(
        l.as_str(),
        "username" | "user" | "owner" | "org" | "organization" | "organisation" | "account"
    );
    let prefixed = ["your_", "your-", "my_", "my-"].iter().any(|p| {
        l.strip_prefix(p).is_some_and(|rest| {
            [
                "user", "name", "org", "account", "owner", "github", "handle", "team", "company",
            ]
            .iter()
            .any(|w| rest.contains(w))
        })
    });
    bare || prefixed
}

/// Whether `url` is on a code host (`github.com`, `raw.githubusercontent.com`, a gist) under a
/// [`placeholder_owner`]: a template of the reader's own repository (round 45b).
pub fn template_repo_url(url: &str) -> bool {
    let Some((host, rest)) = split_url(url) else {
        return false;
    };
    matches!(
        host.as_str(),
        "github.com"
            | "raw.githubusercontent.com"
            | "gist.github.com"
            | "gist.githubusercontent.com"
    ) && rest
        .trim_start_matches('/')
        .split('/')
        .next()
        .is_some_and(placeholder_owner)
}

pub fn classify_url(url: &str) -> Option<(String, HostClass)> {
    let (host, rest) = split_url(url)?;
    let class = classify(&host, rest);
    Some((host, class))
}

/// The vendor an environment variable's name names, if any: a stem equal to one of the name's
/// `_`-separated tokens (stems of three letters or fewer only as its first token).
pub fn vendor_of_key(name: &str) -> Option<&'static Vendor> {
    let upper = name.to_ascii_uppercase();
    let tokens: Vec<&str> = upper.split('_').filter(|t| !t.is_empty()).collect();
    data().vendors.iter().find(|v| {
        v.stems.iter().any(|stem| {
            if stem.contains('_') {
                return upper.contains(stem.as_str());
            }
            if stem.len() <= 3 {
                tokens.first() == Some(&stem.as_str())
            } else {
                tokens.iter().any(|t| t == stem)
            }
        })
    })
}

/// Whether a key is the own key of the service at `host`: some vendor the key's name names owns the
/// host. A short stem (three letters or fewer) is an abbreviation several services use (`DD` is
/// Datadog's `DD_API_KEY` and DingTalk's `DD_BOT_TOKEN`, the Chinese 钉钉 "DingDing"); a key that
/// abbreviation names goes to its own service when any vendor that claims the stem owns the host
/// (round 43b). A key named for no vendor belongs to none.
pub fn key_owns_host(name: &str, host: &str) -> bool {
    vendors_of_key(name).any(|v| belongs_to(v, host))
}

/// Every vendor a key's name names, in the order of the hosts file (see [`vendor_of_key`], which
/// gives the first).
pub fn vendors_of_key(name: &str) -> impl Iterator<Item = &'static Vendor> {
    let upper = name.to_ascii_uppercase();
    data().vendors.iter().filter(move |v| {
        let tokens = upper.split('_').filter(|t| !t.is_empty());
        v.stems.iter().any(|stem| {
            if stem.contains('_') {
                return upper.contains(stem.as_str());
            }
            if stem.len() <= 3 {
                tokens.clone().next() == Some(stem.as_str())
            } else {
                tokens.clone().any(|t| t == stem)
            }
        })
    })
}

/// The vendors a skill name names: a word of three letters or more (split at every character
/// that is not an ASCII letter or digit) read as a key name (`GLM` names Zhipu, `KIMI` Moonshot,
/// `CLAUDE` Anthropic) (round 38b).
pub fn vendors_named_by(name: &str) -> Vec<&'static Vendor> {
    let mut out: Vec<&'static Vendor> = Vec::new();
    for w in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() >= 3)
    {
        if let Some(v) = vendor_of_key(&w.to_ascii_uppercase())
            && !out.iter().any(|o| std::ptr::eq(*o, v))
        {
            out.push(v);
        }
    }
    out
}

/// The vendor whose API a host belongs to.
pub fn vendor_of_host(host: &str) -> Option<&'static Vendor> {
    data()
        .vendors
        .iter()
        .find(|v| v.domains.iter().any(|d| under(host, d)))
}

/// Whether `host` is one of `vendor`'s domains.
pub fn belongs_to(vendor: &Vendor, host: &str) -> bool {
    vendor.domains.iter().any(|d| under(host, d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn examples() -> Value {
        serde_json::from_str::<Value>(HOSTS_JSON).unwrap()["examples"].clone()
    }

    #[test]
    fn data_loads_and_names_are_sane() {
        let d = data();
        assert!(d.vendors.len() >= 50);
        for v in &d.vendors {
            assert!(!v.stems.is_empty() && !v.domains.is_empty(), "{}", v.name);
            for s in &v.stems {
                assert_eq!(
                    s,
                    &s.to_ascii_uppercase(),
                    "{}: stems are upper case",
                    v.name
                );
            }
            for dom in &v.domains {
                assert_eq!(dom, &dom.to_ascii_lowercase(), "{}", v.name);
            }
        }
    }

    #[test]
    fn keys_agree_with_their_vendors_hosts() {
        let ex = examples();
        for pair in ex["agree"].as_array().unwrap() {
            let (key, host) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
            assert!(vendor_of_key(key).is_some(), "{key} names a vendor");
            assert!(key_owns_host(key, host), "{key} → {host}");
        }
        for pair in ex["disagree"].as_array().unwrap() {
            let (key, host) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
            assert!(vendor_of_key(key).is_some(), "{key} names a vendor");
            assert!(!key_owns_host(key, host), "{key} ↛ {host}");
        }
        for key in ex["no_vendor"].as_array().unwrap() {
            let key = key.as_str().unwrap();
            assert!(
                vendor_of_key(key).is_none(),
                "{key}: {:?}",
                vendor_of_key(key).map(|v| &v.name)
            );
        }
    }

    #[test]
    fn classes() {
        for pair in examples()["classes"].as_array().unwrap() {
            let (host, class) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
            assert_eq!(
                classify(host.trim_start_matches('[').trim_end_matches(']'), "/").as_str(),
                class,
                "{host}"
            );
        }
        assert_eq!(
            classify(
                "raw.githubusercontent.com",
                "/Homebrew/install/HEAD/install.sh"
            ),
            HostClass::Installer
        );
        assert_eq!(
            classify("raw.githubusercontent.com", "/someone/tool/main/install.sh"),
            HostClass::Unknown
        );
        assert_eq!(
            classify("github.com", "/claw_support/x/releases/latest"),
            HostClass::Lookalike
        );
        assert_eq!(classify("api.github.com", "/user"), HostClass::Vendor);
        assert_eq!(classify("someone.github.io", "/"), HostClass::Unknown);
        assert!(HostClass::Paste.is_suspicious() && !HostClass::Unknown.is_suspicious());
    }

    #[test]
    fn outside_is_neither_this_machine_nor_a_vendors_place() {
        use HostClass::*;
        for c in [Local, Vendor, Installer, Registry] {
            assert!(!c.is_outside(), "{c:?}");
        }
        for c in [
            Unknown, RawIp, Collector, Paste, Tunnel, Shortener, Lookalike,
        ] {
            assert!(c.is_outside(), "{c:?}");
        }
        assert!(classify("hooks.example.net", "/x").is_outside());
        assert!(!classify("api.anthropic.com", "/v1/messages").is_outside());
        assert!(!classify("127.0.0.1", "").is_outside());
    }

    #[test]
    fn urls_and_hosts() {
        let line = r#"curl -s "https://user:pw@API.Example.com:8443/v1?q=1" -d @f http://[::1]:80/x 'ftp://203.0.113.9/a'"#;
        let hosts: Vec<String> = urls_in(line)
            .into_iter()
            .map(|(s, e)| split_url(&line[s..e]).unwrap().0)
            .collect();
        assert_eq!(hosts, ["api.example.com", "[::1]", "203.0.113.9"]);
        assert_eq!(classify("[::1]", ""), HostClass::Local);
        assert!(under("a.b.example.com", "example.com") && !under("badexample.com", "example.com"));
        assert!(urls_in("no urls here: just text").is_empty());
        assert!(urls_in("://").is_empty());
        assert_eq!(split_url("https://${JIRA_SITE}/rest"), None);
        // Credentials in the authority do not hide the host.
        assert_eq!(
            split_url("https://x:${tok}@git.example.com/r.git")
                .unwrap()
                .0,
            "git.example.com"
        );
        assert_eq!(
            split_url("https://$GH_TOKEN@github.com/o/r").unwrap().0,
            "github.com"
        );
        assert_eq!(split_url("https://${HOST}/a@b"), None);
        // A run-time subdomain under a fixed domain names that domain; a pattern group none.
        assert_eq!(
            split_url("https://${project_ref}.supabase.co/pg/query")
                .unwrap()
                .0,
            "supabase.co"
        );
        assert_eq!(
            split_url("https://$id.collector.example.net/x").unwrap().0,
            "collector.example.net"
        );
        assert_eq!(split_url("https://${SITE}.local/x"), None);
        assert_eq!(split_url("https://([^.]+)\\.supabase\\.co.*|"), None);
        assert_eq!(
            split_url("https://api.pagerduty.com$1").unwrap().0,
            "api.pagerduty.com"
        );
    }
}
