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
use crate::scan::judge::find::Has;
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
/// The words this judge's whole-text gates ask ([`crate::scan::judge::File::words`]).
pub(super) fn gate_words() -> impl Iterator<Item = &'static [&'static str]> {
    [ANY_FILE, RAW, USER_LEVEL, INSTALLS]
        .into_iter()
        .chain(KEYS.iter().map(|(_, eco)| *eco))
}

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
    "default-index",
    "[[index",
    "uv_default_index",
    "index_url",
    "goproxy",
    "pypirc",
    "[pypi",
    "[source",
    "[registries",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = own_words(b);
    let mut used = None;
    for f in &b.files {
        if sample_file(f) {
            continue;
        }
        if let Some(x) = redirect(f, &words) {
            out.push(x);
        } else if let Some(x) = project(b, f, &words, &mut used) {
            out.push(x);
        }
    }
}

/// Package-manager configuration files a project ships (round 39c), by file name, with the keys
/// that set their index (compared as in [`KEYS`]).
const PROJECT_FILES: &[(&str, &[&str])] = &[
    (".npmrc", &["registry="]),
    (".yarnrc", &["registry"]),
    (".yarnrc.yml", &["npmregistryserver:"]),
    ("bunfig.toml", &["registry="]),
    ("pip.conf", &["index-url="]),
    ("pip.ini", &["index-url="]),
    ("uv.toml", &["url=", "index-url="]),
    ("pyproject.toml", &["url=", "index-url="]),
    ("poetry.toml", &["url="]),
    ("config.toml", &["registry=", "index="]),
    ("config", &["registry=", "index="]),
];
/// Index settings that work from any file (environment variables, install flags).
const ANY_FILE: &[&str] = &[
    "pip_index_url=",
    "uv_index_url=",
    "uv_default_index=",
    "npm_config_registry=",
    "yarn_npm_registry_server=",
    "--index-url",
    "--default-index",
    "--registry",
];
/// Commands that install a project's packages (the shipped setting is then used).
const INSTALLS: &[&str] = &[
    "npm install",
    "npm i ",
    "npm ci",
    "yarn",
    "pnpm i",
    "bun install",
    "bun add",
    "pip install",
    "pip3 install",
    "uv sync",
    "uv add",
    "uv pip",
    "poetry install",
    "cargo build",
    "cargo install",
    "cargo add",
    "cargo run",
    "go build",
    "go mod download",
    "go get",
    "go install",
    // Round 48t: runners that fetch a package and run it at once (`npx -y --registry … pkg`, an
    // MCP server's `command: "npx"`), the install and the run in one.
    "npx",
    "bunx",
    "pnpm dlx",
    "npm exec",
    "uvx",
    "pipx run",
];

/// A host written as the user's own, to fill in: a label naming it so (`yourcompany`,
/// `my-org`, `internal`, `corp`, `intranet`, `lan`, `local`).
fn users_own(host: &str) -> bool {
    host.split(['.', '-']).any(|l| {
        l.starts_with("your")
            || l.starts_with("my")
            || matches!(
                l,
                "internal" | "corp" | "intranet" | "lan" | "local" | "company"
            )
    })
}

/// A project-level index setting with no credential: a package-manager configuration file the
/// bundle ships (`.npmrc`, `.yarnrc.yml`, `bunfig.toml`, `pip.conf`, `uv.toml`, a poetry or uv
/// source in `pyproject.toml`, `.cargo/config.toml`), an index environment variable, or an install
/// flag (`--index-url`, `--registry`), pointing at a concrete host that is not a registry, a
/// well-known mirror, the skill's own service or a host written as the user's own, in a bundle
/// whose files install packages. A placeholder (`<your-host>`, `${REGISTRY}`) names no host.
fn project(
    b: &Bundle<'_>,
    f: &File<'_>,
    words: &[String],
    used: &mut Option<bool>,
) -> Option<Finding> {
    let path = crate::ascii_lowered(f.path);
    let base = path.rsplit('/').next().unwrap_or(&path);
    let keys: &[&str] = PROJECT_FILES
        .iter()
        .find(|(n, _)| *n == base && (!n.starts_with("config") || path.has(".cargo/")))
        .map(|(_, k)| *k)
        .unwrap_or(&[]);
    let all = f.words();
    if keys.is_empty() && !ANY_FILE.iter().any(|k| all.has(k)) {
        return None;
    }
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        if l.trim_start().starts_with(['#', '>', ';']) || l.has("${") || l.contains('<') {
            continue;
        }
        let squeezed: String = l
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '`' && *c != '"' && *c != '\'')
            .collect();
        let flag = ANY_FILE.iter().any(|k| squeezed.has(k) || l.has(k));
        if !flag && !keys.iter().any(|k| squeezed.has(k)) {
            continue;
        }
        let line = f.lowered().lines[i];
        let Some(h) = hosts_in(line)
            .into_iter()
            .find(|h| foreign(h) && !mirror(&h.host) && !own_host(h, words) && !users_own(&h.host))
        else {
            continue;
        };
        let is_used = *used.get_or_insert_with(|| {
            b.files
                .iter()
                .any(|g| INSTALLS.iter().any(|w| g.words().has(w)))
        });
        if !is_used {
            return None;
        }
        return Some(found(
            RULE,
            "supply_chain",
            Severity::Critical,
            f,
            i,
            format!(
                "The project's package index is pointed at {} ({}) and the skill installs packages: every dependency would come from a host that is not a registry, a known public mirror, the skill's own service or a host the user is told to fill in.",
                h.host,
                h.class.phrase()
            ),
            Vec::new(),
        ));
    }
    None
}

fn mirror(host: &str) -> bool {
    MIRRORS
        .iter()
        .any(|m| host == *m || host.ends_with(&format!(".{m}")))
}

fn redirect(f: &File<'_>, words: &[String]) -> Option<Finding> {
    let low = &f.lowered().lower;
    let all = f.words();
    if !RAW.iter().any(|w| all.has(w)) {
        return None;
    }
    let user_file = USER_LEVEL.iter().any(|w| all.has(w));
    for (i, l) in low.iter().enumerate() {
        let squeezed: String = l
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '`')
            .collect();
        if !KEYS
            .iter()
            .any(|(k, eco)| squeezed.has(k) && eco.iter().any(|w| all.has(w)))
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
        let weak = (from..to).find(|&k| WEAKENED.iter().any(|w| low[k].has(w)));
        let user = user_file || USER_LEVEL.iter().any(|w| l.has(w)) || squeezed.has("configset");
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
