//! Credentials carried to places the user does not control, and the agent's own folders filled from
//! outside (round 31c, scan34).
//!
//! - `exfiltration.agent-login-carried` (`critical`): an agent's or a CLI's login file (Claude's
//!   `.credentials.json`, Codex's `auth.json`, gh's `hosts.yml`, gcloud's folder, `~/.aws`,
//!   `~/.kube/config`, `~/.docker/config.json`) copied into a container (`docker cp`, `kubectl cp`),
//!   an image (a `COPY`/`ADD` of the copied file, a copy next to `docker build`) or a shared volume,
//!   in code or in prose. A read-only bind mount of the user's own config is how dev containers
//!   reuse a login and is left alone; so are refusals.
//! - `exfiltration.tls-off-model-proxy` (`critical`): certificate verification turned off
//!   (`verify=False`, `ssl_verify: false`, `rejectUnauthorized: false`,
//!   `NODE_TLS_REJECT_UNAUTHORIZED=0`) in a file that talks to a model API host: the API key and
//!   every prompt cross a connection anyone on the path can read. Loopback-only files are left
//!   alone.
//! - `persistence.remote-skills-overwrite` (`critical`): an archive downloaded from a host that is
//!   not a known vendor (a raw IP, an unknown domain) and extracted or copied into the agent's
//!   skills, commands, plugins or hooks folder: whoever runs that host decides what the agent loads
//!   next. Local archives the user names and vendor repositories are left alone.
//! - `exfiltration.memory-public-gist` (`critical`): the agent's memory or identity files
//!   (`MEMORY.md`, `SOUL.md`, `USER.md`, `IDENTITY.md`) put into a gist marked public: the user's
//!   token goes to its vendor, but the files become readable by everyone.
//!
//! One pass over each file's lowered lines: linear in bytes.

use super::Bundle;
use super::pair::{End, negated, push};
use crate::scan::content::{FileKind, Finding};
use crate::scan::hosts::{classify_url, urls_in};
use crate::scan::judge::find::Has;
use crate::scan::judge::find::has;
use crate::scan::rules::Severity;

/// Words one of these rules needs on a lone text before it can fire (`prose::reads_raw_text`).
pub(crate) fn raw_words() -> impl Iterator<Item = &'static str> {
    LOGINS
        .iter()
        .chain(MODEL_HOSTS)
        .chain(ARCHIVES)
        .chain(&[
            "creds",
            "credentials",
            "login file",
            "auth file",
            "token file",
            "docker cp",
            "podman cp",
            "kubectl cp",
            "gist",
        ])
        .copied()
}

/// Login files of agents and cloud CLIs (lowered, as written in paths).
const LOGINS: &[&str] = &[
    ".claude/.credentials.json",
    ".claude\\.credentials.json",
    ".credentials.json",
    ".codex/auth.json",
    ".codex\\auth.json",
    "gh/hosts.yml",
    "github cli\\hosts.yml",
    ".config/gcloud",
    ".config\\gcloud",
    "application_default_credentials.json",
    ".aws/credentials",
    ".aws\\credentials",
    "'.aws', 'credentials'",
    "\".aws\", \"credentials\"",
    ".kube/config",
    ".docker/config.json",
];

fn names_login(l: &str) -> bool {
    LOGINS.iter().any(|w| has(l, w))
}

/// Words for a login in prose (one of them is needed by [`prose_login`]).
const LOGIN_WORDS: &[&str] = &[
    "oauth cred",
    "creds",
    "credentials",
    "login file",
    "auth file",
    "token file",
];

/// Prose naming an agent's or a CLI's login without its path ("the Claude OAuth creds").
fn prose_login(l: &str) -> bool {
    LOGIN_WORDS.iter().any(|w| has(l, w))
        && ["claude", "codex", "gemini", "agent", "gh ", "gcloud", "aws"]
            .iter()
            .any(|w| has(l, w))
}

/// A copy into a running container.
fn container_copy(l: &str) -> bool {
    has(l, "docker cp") || has(l, "podman cp") || has(l, "kubectl cp")
}

/// An image build or a Dockerfile copy.
fn image_build(l: &str) -> bool {
    has(l, "docker build") || has(l, "podman build") || has(l, "docker buildx")
}

/// A file copy of a login into somewhere else (cp, Copy-Item, shutil, copyFileSync).
fn copies(l: &str) -> bool {
    let t = l.trim_start();
    t.starts_with("cp ")
        || has(l, " cp ")
        || has(l, "copy-item")
        || has(l, "shutil.copy")
        || has(l, "copyfilesync(")
        || has(l, "copyfile(")
        || has(l, "fs.cp(")
}

/// Prose: into a container or an image, in four languages.
fn into_container_prose(l: &str) -> bool {
    let en = (has(l, "container") || has(l, "image") || has(l, "sandbox"))
        && (has(l, "copy") || has(l, "bake") || has(l, "docker cp") || has(l, "put"));
    let cjk = ((has(l, "容器") || has(l, "镜像")) && (has(l, "复制") || has(l, "拷贝")))
        || (has(l, "コンテナ") && has(l, "コピー"))
        || (has(l, "컨테이너") && has(l, "복사"));
    en || cjk || container_copy(l)
}

/// Names a line assigns a login path to (`CREDS="$HOME/.claude/…"`, `$hosts = Join-Path …`,
/// `const p = path.join(…'.aws', 'credentials')`).
fn assigned_name(l: &str) -> Option<String> {
    let eq = l.find('=')?;
    let left = l[..eq]
        .trim()
        .trim_start_matches("export ")
        .trim_start_matches("const ");
    let left = left
        .trim_start_matches("let ")
        .trim_start_matches("var ")
        .trim();
    let name = left.trim_start_matches('$');
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| name.to_owned())
}

fn uses_name(l: &str, name: &str) -> bool {
    [format!("${name}"), format!("${{{name}}}")]
        .iter()
        .any(|w| has(l, w.as_str()))
        || l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(|w| w == name)
}

/// Model API hosts whose keys ride on the connection.
const MODEL_HOSTS: &[&str] = &[
    "api.openai.com",
    "api.anthropic.com",
    "generativelanguage.googleapis.com",
    "openai.azure.com",
    "api.deepseek.com",
    "api.mistral.ai",
    "api.groq.com",
    "openrouter.ai",
    "api.siliconflow.cn",
    "dashscope.aliyuncs.com",
    "api.moonshot.cn",
    "open.bigmodel.cn",
    "api.x.ai",
    "api.cohere.ai",
    "api.together.xyz",
];

fn tls_off(l: &str) -> bool {
    let c: String = l.chars().filter(|c| !c.is_whitespace()).collect();
    [
        "verify=false",
        "verify_ssl:false",
        "verify_ssl=false",
        "'verify_ssl':false",
        "\"verify_ssl\":false",
        "ssl_verify':false",
        "\"ssl_verify\":false",
        "ssl_verify:false",
        "ssl_verify=false",
        "tls_verify':false",
        "tls_verify\":false",
        "tls_verify:false",
        "tls_verify=false",
        "rejectunauthorized:false",
        "node_tls_reject_unauthorized='0'",
        "node_tls_reject_unauthorized=\"0\"",
        "node_tls_reject_unauthorized=0",
        "insecureskipverify:true",
        "_create_unverified_context",
    ]
    .iter()
    .any(|w| has(&c, w))
}

/// An agent folder that loads what is put in it.
fn agent_folder(l: &str) -> bool {
    let agent = AGENT_DIRS.iter().any(|w| has(l, w));
    let sub = ["skills", "commands", "plugins", "hooks"]
        .iter()
        .any(|w| has(l, w));
    (agent && sub) || has(l, "skills_dir") || has(l, "skillsdir") || has(l, "plugins_dir")
}

/// Agent folders that load what is put in them ([`agent_folder`]).
const AGENT_DIRS: &[&str] = &[
    ".claude",
    ".codex",
    ".cursor",
    ".openclaw",
    ".gemini",
    ".clawdbot",
    ".agents",
];

/// Extracting or tree-copying words ([`extracts`]; `tar ` with ` -c ` and an `x` too).
const EXTRACTS: &[&str] = &[
    "unzip ",
    "tar -x",
    "tar x",
    "extractall(",
    "expand-archive",
    "extract_all",
    "extractallto",
    "cp -r",
    "cp -a",
];

fn extracts(l: &str) -> bool {
    EXTRACTS.iter().any(|w| has(l, w)) || (has(l, "tar ") && has(l, " -c ") && l.contains('x'))
}

const ARCHIVES: &[&str] = &[".zip", ".tgz", ".tar.gz", ".tar", ".tar.xz"];

/// The words this judge's whole-text gates ask ([`super::File::words`]).
pub(super) const GATE_WORDS: &[&[&str]] = &[
    LOGINS,
    LOGIN_WORDS,
    MODEL_HOSTS,
    ARCHIVES,
    EXTRACTS,
    AGENT_DIRS,
    MEMORY_FILES,
    &["tar ", "skills_dir", "skillsdir", "plugins_dir"],
];

fn downloads(l: &str) -> bool {
    [
        "curl ",
        "wget ",
        "urlretrieve(",
        "urlopen(",
        "invoke-webrequest",
        "iwr ",
        "fetch(",
        "requests.get(",
        "httpx.get(",
        "downloadfile(",
    ]
    .iter()
    .any(|w| has(l, w))
}

/// A URL on the line whose host is outside the vendors, installers and registries we know.
fn foreign_url(line: &str) -> bool {
    urls_in(line)
        .into_iter()
        .any(|(s, e)| classify_url(&line[s..e]).is_some_and(|(_, c)| c.is_outside()))
}

const MEMORY_FILES: &[&str] = &["memory.md", "soul.md", "user.md", "identity.md"];

fn public_gist(l: &str) -> bool {
    let c: String = l.chars().filter(|c| !c.is_whitespace()).collect();
    has(&c, "\"public\":true")
        || has(&c, "'public':true")
        || has(&c, "public:true")
        || has(&c, "public=true")
        || (has(l, "gist create") && (has(l, "--public") || has(l, " -p ")))
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut download: Option<End<'_>> = None;
    let mut extract: Option<End<'_>> = None;
    for f in &b.files {
        let super::Lowered { lines, lower } = f.lowered();
        let code = f.kind == FileKind::Code;
        let all = f.words();
        // Agent logins carried into a container or an image: every hit needs a login path on some
        // line (code) or a login path or login words (prose), so a file without any is skipped.
        let logins =
            LOGINS.iter().any(|w| all.has(w)) || !code && LOGIN_WORDS.iter().any(|w| all.has(w));
        let mut names: Vec<String> = Vec::new();
        let mut login_at: Option<usize> = None;
        let mut carried = false;
        for (i, l) in lower.iter().enumerate().filter(|_| logins) {
            if names_login(l) {
                login_at.get_or_insert(i);
                if let Some(n) = assigned_name(l) {
                    names.push(n);
                }
            }
            let uses = names_login(l) || names.iter().any(|n| uses_name(l, n));
            let hit = if code {
                (container_copy(l) && uses)
                    || (copies(l) && names_login(l) && lower.iter().any(|x| image_build(x)))
                    || (copies(l) && names_login(l) && copied_into_image(b, l))
            } else {
                let lo = i.saturating_sub(2);
                let near = &lower[lo..(i + 3).min(lower.len())];
                (names_login(l) || prose_login(l))
                    && near.iter().any(|x| into_container_prose(x))
                    && !near
                        .iter()
                        .any(|x| negated(x) && (has(x, "cop") || has(x, "복사")))
            };
            if hit && !carried {
                carried = true;
                let src = End::new(f.path, login_at.unwrap_or(i), lines[login_at.unwrap_or(i)]);
                let sink = if code {
                    End::new(f.path, i, lines[i])
                } else {
                    let j = (i.saturating_sub(2)..(i + 3).min(lower.len()))
                        .find(|&j| into_container_prose(&lower[j]))
                        .unwrap_or(i);
                    End::new(f.path, j, lines[j])
                };
                push(
                    out,
                    "exfiltration.agent-login-carried",
                    Severity::Critical,
                    ("source", src),
                    sink,
                    format!(
                        "An agent or cloud CLI login file ({}) is copied into a container, an image or a shared volume ({}): whoever can open that container, pull that image or mount that volume signs in as the user. Mount your own config read-only instead, or sign in inside the container.",
                        src.place(),
                        sink.place()
                    ),
                );
            }
        }
        if !code {
            // Prose: public gist of memory files.
            memory_public_gist(f.path, all, lines, lower, out);
            continue;
        }
        // TLS verification off next to a model API host: the host must be on some line, so a file
        // whose lowered text names none is skipped before `tls_off` reads (and copies) each line.
        if MODEL_HOSTS.iter().any(|m| all.has(m))
            && let Some(off) = lower.iter().position(|l| tls_off(l))
            && let Some(h) = lower
                .iter()
                .position(|l| MODEL_HOSTS.iter().any(|m| has(l, m)))
        {
            let a = End::new(f.path, off, lines[off]);
            let hst = End::new(f.path, h, lines[h]);
            push(
                out,
                "exfiltration.tls-off-model-proxy",
                Severity::Critical,
                ("signal", hst),
                a,
                format!(
                    "Certificate verification is turned off ({}) in code that carries model API traffic ({}): the API key and every prompt cross a connection anyone on the path can read or change. Keep verification on; trust a local CA explicitly if a proxy needs one.",
                    a.place(),
                    hst.place()
                ),
            );
        }
        // Remote archive into the agent's folders (a download needs an archive name nearby).
        let archives = ARCHIVES.iter().any(|a| all.has(a));
        // An extraction needs an extracting word (`extracts`: one of its words, or `tar `) and an
        // agent folder (`agent_folder`: an agent folder name, `skills_dir`, `skillsdir` or
        // `plugins_dir`) on lines of the file: without both in its lowered text none is found.
        let extractable = (EXTRACTS.iter().any(|w| all.has(w)) || all.has("tar "))
            && (AGENT_DIRS.iter().any(|w| all.has(w))
                || all.has("skills_dir")
                || all.has("skillsdir")
                || all.has("plugins_dir"));
        let looking = (download.is_none() && archives) || (extract.is_none() && extractable);
        for (i, l) in lower.iter().enumerate().filter(|_| looking) {
            if download.is_none() && archives {
                let archive = ARCHIVES.iter().any(|a| has(l, a))
                    || lower[i.saturating_sub(3)..(i + 3).min(lower.len())]
                        .iter()
                        .any(|x| ARCHIVES.iter().any(|a| has(x, a)));
                let from_foreign = foreign_url(lines[i])
                    || (downloads(l) && lower[..i].iter().rev().take(8).any(|x| foreign_url(x)));
                if archive
                    && from_foreign
                    && (downloads(l)
                        || lower[i..(i + 6).min(lower.len())]
                            .iter()
                            .any(|x| downloads(x)))
                {
                    download = Some(End::new(f.path, i, lines[i]));
                }
            }
            if extract.is_none() && extracts(l) && agent_folder_near(lower, i) {
                extract = Some(End::new(f.path, i, lines[i]));
            }
        }
        memory_public_gist(f.path, all, lines, lower, out);
    }
    if let (Some(d), Some(x)) = (download, extract) {
        push(
            out,
            "persistence.remote-skills-overwrite",
            Severity::Critical,
            ("download", d),
            x,
            format!(
                "An archive from a host that is not a known vendor ({}) is extracted or copied into the agent's skills, commands, plugins or hooks folder ({}): whoever runs that host decides what the agent loads next.",
                d.place(),
                x.place()
            ),
        );
    }
}

/// Whether the extraction's destination is an agent folder: on the line, or in a variable or
/// function set a few lines above.
fn agent_folder_near(lower: &[String], i: usize) -> bool {
    lower[i.saturating_sub(6)..=i]
        .iter()
        .any(|x| agent_folder(x))
}

/// Whether a Dockerfile of the bundle `COPY`s or `ADD`s the file a copy line writes.
fn copied_into_image(b: &Bundle<'_>, l: &str) -> bool {
    let Some(dest) = l.split_whitespace().last() else {
        return false;
    };
    let base = dest
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(dest)
        .trim_matches(['"', '\'', ')', ';']);
    if base.len() < 3 {
        return false;
    }
    b.files.iter().any(|f| {
        f.path.to_ascii_lowercase().has("dockerfile")
            && f.lowered()
                .lower
                .iter()
                .any(|x| (x.starts_with("copy ") || x.starts_with("add ")) && has(x, base))
    })
}

fn memory_public_gist(
    path: &str,
    all: super::find::Found<'_>,
    lines: &[&str],
    lower: &[String],
    out: &mut Vec<Finding>,
) {
    // A hit needs a memory file named on a line, so a file's whole lowered text without one is
    // skipped before `public_gist` reads (and copies) each line.
    if !MEMORY_FILES.iter().any(|w| all.has(w)) {
        return;
    }
    let Some(m) = lower
        .iter()
        .position(|l| MEMORY_FILES.iter().any(|w| has(l, w)))
    else {
        return;
    };
    let Some(p) = lower.iter().position(|l| public_gist(l) && !negated(l)) else {
        return;
    };
    if !lower.iter().any(|l| has(l, "gist")) {
        return;
    }
    let mem = End::new(path, m, lines[m]);
    let publ = End::new(path, p, lines[p]);
    push(
        out,
        "exfiltration.memory-public-gist",
        Severity::Critical,
        ("source", mem),
        publ,
        format!(
            "The agent's memory or identity files ({}) are put into a public gist ({}): the user's own token is used, but the files become readable by anyone. Keep such a backup secret or private.",
            mem.place(),
            publ.place()
        ),
    );
}
