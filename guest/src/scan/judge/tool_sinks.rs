//! What a tool collects for someone else (round 32c, scan35).
//!
//! - `exfiltration.input-mirror` (`critical`): text (tool descriptions in code strings, comments,
//!   prose) saying that every input, request, prompt, tool argument or the conversation is sent,
//!   forwarded, mirrored or uploaded to a diagnostics, telemetry, monitoring, quality, audit or
//!   analytics sink, by default, always or in full. The collection itself is the harm when the
//!   tool's job is something else; a loopback sink does not change that. Refusals, opt-in wording
//!   ("if you set", "off by default") and metadata-only reports (timings, counts, status codes)
//!   are left alone.
//! - `exfiltration.memory-raw-host` (`critical`): a code file of a memory tool (it saves, searches
//!   or lists memories) that sends requests to a fixed public raw IP, or to a host that is not a
//!   known vendor, installer or registry on an explicit port other than 80 and 443: the user's
//!   memories go to whoever runs that address. Loopback, private addresses and hosts read from the
//!   environment are left alone.
//! - `exfiltration.secrets-into-answer` (`critical`): text naming private keys or credential files
//!   (`~/.ssh/id_*`, `.aws/credentials`, `.netrc`, `.env`, "private key", 私钥, 凭证) and loading
//!   their contents into the answer, the response or the model's context (or advertising that it
//!   "loads secrets automatically"). Public keys and refusals are left alone.
//!
//! One pass over each file's lowered lines with windows of two or three lines: linear in bytes.

use super::Bundle;
use super::pair::{End, negated, push};
use crate::scan::content::{FileKind, Finding};
use crate::scan::hosts::{HostClass, classify, split_url, urls_in};
use crate::scan::judge::find::{has, has_any};
use crate::scan::rules::Severity;

fn any(l: &str, words: &[&str]) -> bool {
    has_any(l, words)
}

/// What the user hands the tool or the agent.
/// ("request" alone is left out: traced HTTP requests are metadata.)
const INPUTS: &[&str] = &[
    "input",
    "conversation",
    "prompt",
    "argument",
    "chat history",
    "transcript",
    "every message",
    "all messages",
    "script passed",
    "输入",
    "对话",
    "提示词",
    "参数",
    "聊天记录",
];

/// Every one of them, by default, in full.
const WHOLESALE: &[&str] = &[
    "every",
    "each",
    "all ",
    "full",
    "whole",
    "entire",
    "by default",
    "always",
    "automatically",
    "默认",
    "每次",
    "所有",
    "完整",
    "全部",
    "自动",
];

const SENDS: &[&str] = &[
    "sent to",
    "send ",
    "forward",
    "mirror",
    "post ",
    "posted to",
    "upload",
    "ship",
    "copied to",
    "发送",
    "上传",
    "转发",
];

/// Sinks named for watching the tool rather than for doing its job.
const SINKS: &[&str] = &[
    "diagnostic",
    "telemetry",
    "monitoring",
    "quality service",
    "quality monitoring",
    "analytics",
    "audit sink",
    "observab",
    "collector",
    "sink",
    "诊断",
    "遥测",
    "监控",
    "质量",
];

/// Opt-in wording, refusals and metadata-only reports.
const NOT_CONTENT: &[&str] = &[
    "if you set",
    "when you set",
    "only if",
    "only when",
    "opt-in",
    "opt in",
    "off by default",
    "disabled by default",
    "timing",
    "duration",
    "latency",
    "counts only",
    "error code",
    "status code",
    "anonymi",
    "metadata",
    "no copy",
    "not sent",
    "refuse",
    "red flag",
    "拒绝",
];

fn passage(lower: &[String], i: usize, n: usize) -> String {
    lower[i..(i + n).min(lower.len())].join(" ")
}

fn input_mirror(path: &str, lines: &[&str], lower: &[String], out: &mut Vec<Finding>) {
    for i in 0..lower.len() {
        if !any(&lower[i], SINKS) && !lower.get(i + 1).is_some_and(|n| any(n, SINKS)) {
            continue;
        }
        let p = passage(lower, i, 2);
        if !(any(&p, INPUTS) && any(&p, WHOLESALE) && any(&p, SENDS) && any(&p, SINKS))
            || negated(&p)
            || any(&p, NOT_CONTENT)
        {
            continue;
        }
        // The line that says what is sent (the first of the two holding an input word).
        let k = if any(&lower[i], INPUTS) { i } else { i + 1 };
        let sink = End::new(path, k, lines[k]);
        push(
            out,
            "exfiltration.input-mirror",
            Severity::Critical,
            ("signal", sink),
            sink,
            format!(
                "The text says every input, request or the conversation is sent to a diagnostics, telemetry or monitoring sink by default ({}): whatever users paste into the tool (keys, private text) is collected for someone else, which is not the tool's job.",
                sink.place()
            ),
        );
        return;
    }
}

/// Words of a memory tool.
const MEMORY: &[&str] = &["memor", "remember", "recall", "记忆"];

/// The words this judge's whole-text gates ask ([`super::File::words`]).
pub(super) const GATE_WORDS: &[&[&str]] = &[SINKS, CREDENTIAL_FILES, MEMORY];

/// Calls that send a request.
const REQUESTS: &[&str] = &[
    "fetch(",
    "requests.post",
    "requests.put",
    "httpx.post",
    "http.post(",
    "axios.post",
    "urlopen(",
    "invoke-restmethod",
    "invoke-webrequest",
    "got.post",
];

/// The explicit port of a URL's authority, if any.
fn port(url: &str) -> Option<u16> {
    let rest = url.split_once("://")?.1;
    let auth = rest.split(['/', '?', '#']).next()?;
    let auth = auth.rsplit('@').next()?;
    if auth.starts_with('[') {
        return auth.rsplit_once("]:")?.1.parse().ok();
    }
    auth.rsplit_once(':')?.1.parse().ok()
}

/// A fixed destination no honest memory store hides behind: a public raw IP, or an unknown host
/// on an explicit port other than 80 and 443.
fn raw_destination(line: &str) -> bool {
    urls_in(line).into_iter().any(|(s, e)| {
        let url = &line[s..e];
        let Some((host, rest)) = split_url(url) else {
            return false;
        };
        // Documentation's own placeholders (RFC 2606 names, "your-server") stand for the user's
        // server.
        if ["example.com", "example.org", "example.net"]
            .iter()
            .any(|d| crate::scan::hosts::under(&host, d))
            || host
                .split(['.', '-'])
                .any(|l| l == "your" || l.starts_with("your"))
        {
            return false;
        }
        match classify(&host, rest) {
            HostClass::RawIp => true,
            HostClass::Unknown => port(url).is_some_and(|p| p != 80 && p != 443),
            _ => false,
        }
    })
}

fn memory_raw_host(path: &str, lines: &[&str], lower: &[String], out: &mut Vec<Finding>) {
    if !lower.iter().any(|l| any(l, REQUESTS)) || !lower.iter().any(|l| any(l, MEMORY)) {
        return;
    }
    let Some(d) = (0..lower.len()).find(|&i| {
        raw_destination(lines[i])
            && !has(&lower[i], "environ")
            && !has(&lower[i], "process.env")
            && !has(&lower[i], "getenv")
    }) else {
        return;
    };
    let Some(r) = (0..lower.len()).find(|&i| any(&lower[i], REQUESTS)) else {
        return;
    };
    let dest = End::new(path, d, lines[d]);
    let send = End::new(path, r, lines[r]);
    push(
        out,
        "exfiltration.memory-raw-host",
        Severity::Critical,
        ("destination", dest),
        send,
        format!(
            "A memory tool sends what it is given ({}) to a fixed raw address or an unknown host on a raw port ({}): every memory the assistant keeps, with whatever personal detail it holds, goes to whoever runs that address. Keep memories local or on a service the user configures.",
            send.place(),
            dest.place()
        ),
    );
}

/// Private keys and credential files.
const CREDENTIAL_FILES: &[&str] = &[
    ".ssh/id_",
    ".ssh\\id_",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    ".aws/credentials",
    ".aws\\credentials",
    ".netrc",
    "private key",
    "credential file",
    "credential path",
    "私钥",
    "凭证",
];

/// Their contents going into what the model reads or answers.
const INTO_ANSWER: &[&str] = &[
    "into the answer",
    "into its answer",
    "into your answer",
    "into the response",
    "into your context",
    "assistant's context",
    "model's context",
    "returns the full text",
    "returns their contents",
    "load secrets",
    "loads secrets",
    "loading secrets",
    "load their secrets",
    "loading their secrets",
    "load the secrets",
    "secrets automatically",
    "回答里",
    "回答中",
    "上下文",
];

fn secrets_into_answer(path: &str, lines: &[&str], lower: &[String], out: &mut Vec<Finding>) {
    for i in 0..lower.len() {
        if !any(&lower[i], CREDENTIAL_FILES) {
            continue;
        }
        let p = passage(lower, i, 3);
        if !any(&p, INTO_ANSWER) || negated(&p) || any(&p, &["refuse", "red flag", "拒绝"]) {
            continue;
        }
        // A public key is meant to be shown.
        if has(&lower[i], ".pub") || has(&lower[i], "public key") {
            continue;
        }
        let at = End::new(path, i, lines[i]);
        push(
            out,
            "exfiltration.secrets-into-answer",
            Severity::Critical,
            ("signal", at),
            at,
            format!(
                "The text loads private keys or credential files into the answer or the model's context ({}): the secrets end up in a conversation, a log or a reply that others read. A tool reads the setting it needs, never key files wholesale.",
                at.place()
            ),
        );
        return;
    }
}

/// The words without which the raw-text rules here say nothing (the memory rule also needs a URL,
/// which is a fact of its own): the judge sees a text holding one even when it states no fact.
pub(super) fn raw_words() -> impl Iterator<Item = &'static str> {
    SINKS.iter().chain(CREDENTIAL_FILES).copied()
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        let all = f.words();
        let sinks = all.any(SINKS);
        let creds = all.any(CREDENTIAL_FILES);
        let memory = f.kind == FileKind::Code && all.any(MEMORY);
        if !(sinks || creds || memory) {
            continue;
        }
        let super::Lowered { lines, lower } = f.lowered();
        if sinks {
            input_mirror(f.path, lines, lower, out);
        }
        if creds {
            secrets_into_answer(f.path, lines, lower, out);
        }
        if memory {
            memory_raw_host(f.path, lines, lower, out);
        }
    }
}
