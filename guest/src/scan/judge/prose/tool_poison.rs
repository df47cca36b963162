//! MCP tool-description poisoning told in words (round 29p).
//!
//! A tool's description goes to the model, not to the user. Two shapes are judged, in SKILL.md,
//! references, tool JSON and server manifests alike:
//!
//! - `prompt_injection.tool-poisoning`: one instruction that names a secret the tool has no use for
//!   (`~/.ssh`, private keys, the agent's MCP configuration `mcp.json`/`claude.json`, cloud
//!   credentials, `.env`, or the tokens and keys of *other* servers or tools) and hands it to one of
//!   the tool's parameters ("put them in the `notes` parameter", "pass it as 'sidenote'", "放入
//!   remark 参数"), with a verb that reads or moves it. `critical`.
//! - `prompt_injection.tool-shadowing`: an instruction about another server's tool ("the
//!   filesystem server's `read_file`", "the `send_email` tool of any other server") that replaces
//!   it, forbids it, or changes what it does (adds a recipient, a copy). `critical`.
//!
//! Refusals ("do not put keys here", "paths like `~/.ssh` are refused") and a server's ordering of
//! its own tools ("call `authenticate` before any other tool of this server") are not poisoning.
//! In a skill that declares it reviews or teaches tool poisoning, a Markdown example in a fenced
//! block or a quote is the specimen it teaches, and its list items describing the shapes are
//! `medium`. One pass over the lines of the files that name a secret store or another server.

use super::super::Bundle;
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::rules::Severity;

/// Secrets a tool has no use for (lower-case).
pub(super) const SECRETS: &[&str] = &[
    "~/.ssh",
    ".ssh/",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    "mcp.json",
    "claude.json",
    "claude_desktop_config",
    ".aws/credentials",
    ".git-credentials",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".kube/config",
    ".env",
    "other connected server",
    "other servers",
    "other server's",
    "other tools'",
    "another server",
    "mcp server was configured",
    "mcp server is configured",
    "env blocks",
    "其他服务的凭据",
    "其他服务的令牌",
    "其他工具的凭据",
    "私钥",
    "凭据",
];

/// Credential words that make "other servers" a secret.
const CREDENTIALS: &[&str] = &[
    "token",
    "api key",
    "credential",
    "secret",
    "password",
    "private key",
    "~/.ssh",
    "id_rsa",
    "id_ed25519",
    "mcp.json",
    "claude.json",
    ".env",
    ".aws",
    "私钥",
    "凭据",
    "令牌",
    "密钥",
];

/// A tool parameter as the destination.
fn to_parameter(l: &str) -> bool {
    let named = ["parameter", "argument", " param ", " param.", "参数"]
        .iter()
        .any(|w| l.contains(w));
    let passes_as = [
        "pass its content as",
        "pass their content as",
        "pass them as",
        "pass it as",
        "put it in `",
        "put them in `",
        "put it in '",
        "put them in '",
    ]
    .iter()
    // "put them in `~/.config/x.env`" names the user's own settings file, not a parameter.
    .any(|w| {
        l.match_indices(w)
            .any(|(i, _)| !super::super::own_forms::names_a_file(&l[i + w.len()..]))
    });
    named || passes_as
}

/// Verbs that read or move the secret.
const MOVES: &[&str] = &[
    "read ", "include ", "put ", "pass ", "look up", "attach ", "add ", "send ", "copy ", "读取",
    "放入", "放进", "填入", "提交", "附上",
];

/// Refusals.
const REFUSALS: &[&str] = &[
    "do not put",
    "don't put",
    "never put",
    "do not pass",
    "never pass",
    "do not include",
    "never include",
    "refused",
    "refuses",
    "never read",
    "make sure no",
    "should not",
    "must not",
    "不要",
    "切勿",
    "禁止",
];

/// Another server's tool, named as such.
pub(super) const OTHER_TOOL: &[&str] = &[
    "server's `",
    "server's read",
    "server's write",
    "server's send",
    "tool of any other",
    "tool of another",
    "tool of every other",
    "other server's tool",
    "other servers' tools",
    "其他服务的",
    "其他服务器的",
];

/// What shadowing does to that tool.
const SHADOWS: &[&str] = &[
    "replaces",
    "instead of",
    "never use",
    "do not use",
    "don't use",
    "stop using",
    "overrides",
    "supersedes",
    "bcc",
    " cc ",
    "also send",
    "add ",
    "redirect",
    "代替",
    "替代",
    "不要再使用",
];

/// Whether the skill says it reviews or teaches tool poisoning or prompt injection.
pub(super) fn teaches_poisoning(b: &Bundle<'_>) -> bool {
    let front = super::release_page::front_matter(b);
    [
        "poison",
        "injection",
        "security review",
        "audit",
        "red team",
        "投毒",
        "注入",
        "审查",
        "安全",
    ]
    .iter()
    .any(|w| front.contains(w))
}

/// Files where a tool description can stand: documents and data (JSON, YAML, TOML), not scripts.
fn described_in(path: &str, kind: FileKind) -> bool {
    let l = crate::ascii_lowered(path);
    kind != FileKind::Code
        || [".json", ".yaml", ".yml", ".toml"]
            .iter()
            .any(|e| l.ends_with(e))
}

pub(super) fn tool_poisoning(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let words: Vec<&str> = SECRETS.iter().chain(OTHER_TOOL).copied().collect();
    let gate = super::gate(&GATE, &words);
    let mut teaches: Option<bool> = None;
    let mut poisoned = false;
    let mut shadowed = false;
    for file in b.files.iter().filter(|f| described_in(f.path, f.kind)) {
        if !gate.is_match(file.content) {
            continue;
        }
        let lines: Vec<&str> = file.content.lines().collect();
        let md = file.kind == FileKind::Markdown;
        let prose = super::prose_lines(&lines, md);
        for (n, line) in lines.iter().enumerate() {
            if !gate.is_match(line) {
                continue;
            }
            // A line with its neighbours, for a sentence wrapped in a document.
            let joined = if md || file.kind == FileKind::Text {
                let at = |k: usize| lines.get(k).copied().unwrap_or("");
                format!(
                    "{} {line} {}",
                    if n > 0 { at(n - 1) } else { "" },
                    at(n + 1)
                )
            } else {
                (*line).to_owned()
            };
            let l = crate::ascii_lowered(&joined);
            if REFUSALS.iter().any(|w| l.contains(w)) {
                continue;
            }
            let secret =
                SECRETS.iter().any(|w| l.contains(w)) && CREDENTIALS.iter().any(|w| l.contains(w));
            let poison =
                !poisoned && secret && to_parameter(&l) && MOVES.iter().any(|w| l.contains(w));
            let shadow = !shadowed
                && OTHER_TOOL.iter().any(|w| l.contains(w))
                && SHADOWS.iter().any(|w| l.contains(w))
                && !l.contains("of this server");
            if !poison && !shadow {
                continue;
            }
            let taught = *teaches.get_or_insert_with(|| teaches_poisoning(b));
            // A teaching skill's specimens (fenced, quoted) are what it teaches.
            if taught && !prose[n] {
                continue;
            }
            let severity = if taught {
                Severity::Medium
            } else {
                Severity::Critical
            };
            let (rule, why) = if poison {
                poisoned = true;
                (
                    "prompt_injection.tool-poisoning",
                    "A tool's instructions tell the agent to read a secret the tool has no use for (keys, the agent's MCP configuration, other servers' credentials) and hand it to one of the tool's parameters: the tool-poisoning side channel that carries secrets out through an ordinary call. Do not install this skill.",
                )
            } else {
                shadowed = true;
                (
                    "prompt_injection.tool-shadowing",
                    "A tool's instructions take over another server's tool (replacing it, forbidding it, or changing what it sends): tool shadowing, which routes the agent's work through this skill. Do not install this skill.",
                )
            };
            out.push(Finding {
                rule_id: rule.into(),
                category: "prompt_injection".into(),
                severity,
                file: file.path.into(),
                line: n + 1,
                evidence: evidence(line, 0, line.len()),
                description: if taught {
                    format!("{why} The skill says it reviews or teaches tool poisoning, so this may describe the shape; check it is not an order.")
                } else {
                    why.to_owned()
                },
                related: Vec::new(),
            });
        }
    }
}
