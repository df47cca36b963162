//! `supply_chain.registry-redirect` (`critical`): a package manager's index written to point at a
//! host that is not a registry — `npm config set registry`, `registry=` in an `.npmrc`,
//! `index-url` in `pip.conf` or `PIP_INDEX_URL`, `repository =` in a `.pypirc`, `GOPROXY`, a cargo
//! `[source]` replacement — in the user's configuration (a global config file or a `config set`
//! command), or with credentials written for that host or verification turned off beside it.
//! Every later install then comes from, and every publish goes to, that host. Not judged: the
//! registries and their well-known public mirrors (npmmirror, the university and cloud mirrors,
//! goproxy.cn), a host named after the skill or its description's service, and a project-level
//! setting with no credential or verification change.

use super::super::shapes::{found, rel};
use super::super::{Bundle, File, hosts_in};
use super::{foreign, own_host, own_words, sample_file};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const RULE: &str = "supply_chain.registry-redirect";

/// Keys that set a package manager's index (lowered, compared after spaces are removed), each
/// with the words of which one must be in the file (the key's ecosystem).
const KEYS: &[(&str, &[&str])] = &[
    ("configsetregistry", &["npm", "yarn", "pnpm"]),
    ("registry=", &["npm", "yarn", "pnpm"]),
    ("registry\"=", &["npm", "yarn", "pnpm"]),
    ("npmregistryserver:", &["yarn"]),
    ("index-url=", &["pip", "pypi", "uv "]),
    ("index_url=", &["pip", "pypi", "uv_"]),
    ("global.index-url", &["pip"]),
    ("repository=", &["pypirc", "[pypi"]),
    ("goproxy=", &["go "]),
    ("registry=\"sparse+", &["[source", "[registries"]),
    ("registry=\"https", &["[source", "[registries"]),
    ("index=\"https", &["[source", "[registries"]),
    ("sourcesadd", &["gem "]),
];
/// What makes the setting the user's (it outlives the skill): a global config or a set command.
const USER_LEVEL: &[&str] = &[
    "~/.npmrc",
    "$home/.npmrc",
    "home/.npmrc",
    "homedir(), '.npmrc'",
    "homedir(), \".npmrc\"",
    "npm config set",
    "yarn config set",
    "pnpm config set",
    ".yarnrc",
    "pip.conf",
    "pip.ini",
    "pip config set",
    ".pypirc",
    "go env -w",
    ".cargo/config",
    ".cargo\" / \"config",
    "gem sources",
    "setx ",
    "[environment]::setenvironmentvariable",
];
/// Credentials written for the host, or verification turned off.
const WEAKENED: &[&str] = &[
    "always-auth",
    "_authtoken",
    "_auth=",
    "password",
    "gosumdb=off",
    "gonosumdb",
    "gonosumcheck",
    "goinsecure",
    "goflags=-insecure",
    "trusted-host",
    "strict-ssl=false",
    "strict-ssl false",
    "--insecure",
];
/// Public mirrors of the registries run by universities and cloud vendors (host suffixes).
const MIRRORS: &[&str] = &[
    "npmmirror.com",
    "npm.taobao.org",
    "tsinghua.edu.cn",
    "ustc.edu.cn",
    "bfsu.edu.cn",
    "sjtu.edu.cn",
    "nju.edu.cn",
    "mirrors.aliyun.com",
    "mirrors.cloud.tencent.com",
    "mirrors.huaweicloud.com",
    "repo.huaweicloud.com",
    "goproxy.cn",
    "goproxy.io",
    "pypi.douban.com",
    "rsproxy.cn",
    "npm.pkg.github.com",
    "maven.pkg.github.com",
    "registry.yarnpkg.com",
    "pypi.python.org",
    "files.pythonhosted.org",
    "index.crates.io",
    "sum.golang.org",
    "pkgs.dev.azure.com",
    "jsr.io",
];

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &[
    "registry",
    "index-url",
    "index_url",
    "goproxy",
    "pypirc",
    "[pypi",
    "[source",
    "[registries",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = own_words(b);
    for f in &b.files {
        if sample_file(f) {
            continue;
        }
        if let Some(x) = redirect(f, &words) {
            out.push(x);
        }
    }
}

fn mirror(host: &str) -> bool {
    MIRRORS
        .iter()
        .any(|m| host == *m || host.ends_with(&format!(".{m}")))
}

fn redirect(f: &File<'_>, words: &[String]) -> Option<Finding> {
    let low = &f.lowered().lower;
    let all = f.lower_all();
    if !RAW.iter().any(|w| all.contains(w)) {
        return None;
    }
    let user_file = USER_LEVEL.iter().any(|w| all.contains(w));
    for (i, l) in low.iter().enumerate() {
        let squeezed: String = l
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '`')
            .collect();
        if !KEYS
            .iter()
            .any(|(k, eco)| squeezed.contains(k) && eco.iter().any(|w| all.contains(w)))
        {
            continue;
        }
        let line = f.lowered().lines[i];
        let Some(h) = hosts_in(line)
            .into_iter()
            .find(|h| foreign(h) && !mirror(&h.host) && !own_host(h, words))
        else {
            continue;
        };
        // Credentials or verification changes near the setting (a config block is short).
        let from = i.saturating_sub(10);
        let to = (i + 10).min(low.len());
        let weak = (from..to).find(|&k| WEAKENED.iter().any(|w| low[k].contains(w)));
        let user =
            user_file || USER_LEVEL.iter().any(|w| l.contains(w)) || squeezed.contains("configset");
        if !user && weak.is_none() {
            continue;
        }
        let ip = h.host.bytes().all(|c| c.is_ascii_digit() || c == b'.');
        let plain = h.url.starts_with("http://");
        let mut why = vec![];
        if user {
            why.push("in the user's own configuration, so every later install or publish uses it");
        }
        if weak.is_some() {
            why.push("with credentials written for it or verification turned off");
        }
        if ip || plain {
            why.push("at a bare address or over plain HTTP");
        }
        let related = weak
            .filter(|&k| k != i)
            .map(|k| vec![rel("weakened", f, k)])
            .unwrap_or_default();
        return Some(found(
            RULE,
            "supply_chain",
            Severity::Critical,
            f,
            i,
            format!(
                "A package manager's index is pointed at {} ({}), {}: packages would be installed from, and releases or tokens sent to, a host that is not a registry and not the skill's own service.",
                h.host,
                h.class.phrase(),
                why.join(", ")
            ),
            related,
        ));
    }
    None
}
