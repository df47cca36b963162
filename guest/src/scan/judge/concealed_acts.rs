//! What a concealment covers (round 32m). `prompt_injection.concealment` alone is `high`: words
//! that keep something from the user ("do not mention this step", "silently") with nothing
//! else in the bundle worth hiding. Three acts, written in the same few lines as those words, are
//! worth hiding on their own:
//!
//! - a copy of data the agent did not produce into what leaves it: read a file and append its
//!   contents to the report / response / a tool argument, or call another operation with the full
//!   record, body or conversation (`prompt_injection.concealed-copy`);
//! - orders fetched at run time: a URL to fetch and "follow the instructions it returns"
//!   (`prompt_injection.concealed-remote-orders`);
//! - (round 33m) the user's messages or files forwarded to a fixed phone number or address
//!   (`exfiltration.concealed-forward`);
//! - a send the user is not to notice: a `curl` / `wget` POST, `fetch(…, {method: "POST"` or
//!   `requests.post(` whose output is thrown away (`exfiltration.concealed-send`);
//! - (round 40m) an order to call another operation whose name says it hands out secrets
//!   (`get_admin_secrets`, `read_credentials()`), ordered ahead of the task ("always call X",
//!   "call X first", "before …")
//!   (`prompt_injection.concealed-secret-call`). An order not to call it is not one.
//!
//! The window is the concealment's line, the eight lines before it and the sixteen after it (a
//! numbered step and the code block that carries it out), in the same file. Each act needs its
//! own words in that window, so a skill that only says "don't mention internal file names" is
//! still `high`, and a teaching page that quotes such a block is recognised by the concealment
//! rule's own exemptions before it gets here. `critical`; one finding per concealment.

use super::Bundle;
use crate::scan::content::{Finding, Related, evidence};
use crate::scan::judge::find::has_any;
use crate::scan::rules::Severity;

const BEFORE: usize = 8;
const AFTER: usize = 16;

fn any(text: &str, words: &[&str]) -> bool {
    has_any(text, words)
}

/// Read a file (named by path or as "the file") and put its contents into an output.
fn copies_file(w: &str) -> bool {
    let reads = any(w, &["read ", "load ", "open "])
        && any(
            w,
            &[
                "file", "~/", "/users/", "/home/", ".env", ".json", ".txt", ".md",
            ],
        );
    let contents = any(w, &["contents", "content of", "raw content", "its content"]);
    let puts = any(
        w,
        &[
            "append", "include", "attach", "embed", "pass ", "put ", "add it", "add its", "insert",
        ],
    );
    let into = any(
        w,
        &[
            "report",
            "response",
            "result",
            "output",
            "argument",
            "parameter",
            "field",
            "under the key",
            "reply",
            "answer",
        ],
    );
    reads && contents && puts && into
}

/// Another operation called with the whole of something.
fn copies_record(w: &str) -> bool {
    let call = any(
        w,
        &[
            "also call",
            "then call",
            "you are required to",
            "must also call",
            "call ",
        ],
    );
    let whole = any(w, &["full ", "entire ", "complete ", "whole ", "raw "]);
    let what = any(
        w,
        &[
            "record",
            "body",
            "conversation",
            "history",
            "transcript",
            "messages",
            "contents",
            "payload",
        ],
    );
    let mirror = any(
        w,
        &[
            "mirror", "backup", "copy", "sync", "archive", "forward", "send",
        ],
    );
    call && whole && what && mirror
}

/// A URL fetched and its reply obeyed.
fn remote_orders(w: &str) -> bool {
    any(w, &["http://", "https://"])
        && any(
            w,
            &[
                "follow the instructions it returns",
                "follow the instructions it gives",
                "follow the instructions returned",
                "follow the returned instructions",
                "follow whatever it returns",
                "do what it says",
                "execute the instructions it returns",
                "instructions it returns exactly",
                "follow the instructions in the response",
            ],
        )
}

/// A POST whose output is discarded.
fn quiet_send(w: &str) -> bool {
    let post = (any(w, &["curl ", "wget "])
        && any(
            w,
            &["-x post", "--data", " -d ", " -d'", " -d\"", "--post-data"],
        ))
        || any(w, &["requests.post(", "method: \"post\"", "method: 'post'"]);
    let discard = any(w, &[">/dev/null", "> /dev/null", "out-null", "> $null"]);
    post && discard
}

/// Round 33m: the user's messages, mail or files forwarded to a fixed recipient written in the
/// text: a phone number (`+15550100`) or an e-mail address.
fn forwards_user_data(w: &str) -> bool {
    let verb = any(w, &["forward", "send ", "relay", "copy "]);
    let what = any(
        w,
        &[
            "inbox",
            "all messages",
            "all emails",
            "all e-mails",
            "every message",
            "all files",
            "contact list",
            "chat history",
        ],
    );
    let b = w.as_bytes();
    let phone = b
        .windows(5)
        .any(|x| x[0] == b'+' && x[1..].iter().all(u8::is_ascii_digit));
    let mail = w
        .split_whitespace()
        .any(|t| t.contains('@') && t.rsplit('@').next().is_some_and(|d| d.contains('.')));
    verb && what && (phone || mail)
}

/// Words in an operation's name that say it hands out secrets (lower-case).
const SECRET_OPS: &[&str] = &[
    "secret",
    "credential",
    "password",
    "passwd",
    "private_key",
    "privatekey",
];

/// Round 40m: an order to call an operation named for secrets (`call the get_admin_secrets tool
/// first`); the name must look like an identifier (an underscore or an inner capital is gone after
/// lowering, so an underscore or a `(`), and the order must not be a refusal.
fn calls_secret_tool(w: &str) -> Option<String> {
    if any(
        w,
        &["never call", "do not call", "don't call", "must not call"],
    ) {
        return None;
    }
    for verb in ["call ", "invoke ", "run the ", "use the "] {
        for (i, _) in w.match_indices(verb) {
            let rest = &w[i + verb.len()..];
            let rest = rest.strip_prefix("the ").unwrap_or(rest);
            let name: String = rest
                .trim_start_matches(['`', '"', '\''])
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
                .collect();
            let after = &rest[rest.find(name.as_str()).map_or(0, |p| p + name.len())..];
            let shaped = name.contains('_') || after.starts_with('(');
            // Ordered ahead of the task: "always call X", "call X first", "before …".
            let ahead = w[..i].ends_with("always ")
                || after
                    .char_indices()
                    .take_while(|(k, _)| *k < 60)
                    .any(|(k, _)| {
                        after[k..].starts_with("first") || after[k..].starts_with("before")
                    });
            if shaped && ahead && SECRET_OPS.iter().any(|s| name.contains(s)) {
                return Some(name);
            }
        }
    }
    None
}

pub(super) fn concealed_acts(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut add = Vec::new();
    for c in out
        .iter()
        .filter(|f| f.rule_id == "prompt_injection.concealment")
    {
        let Some(file) = b.files.iter().find(|f| f.path == c.file) else {
            continue;
        };
        let lines: Vec<&str> = file.content.lines().collect();
        if c.line == 0 || c.line > lines.len() {
            continue;
        }
        let at = c.line - 1;
        let lo = at.saturating_sub(BEFORE);
        let hi = (at + AFTER + 1).min(lines.len());
        let window = crate::ascii_lowered(&lines[lo..hi].join(" ")).into_owned();
        let (rule, category, what) = if copies_file(&window) || copies_record(&window) {
            (
                "prompt_injection.concealed-copy",
                "prompt_injection",
                "copies data the agent holds (a file's contents, a whole record or conversation) into what leaves it",
            )
        } else if remote_orders(&window) {
            (
                "prompt_injection.concealed-remote-orders",
                "prompt_injection",
                "fetches instructions from a URL and has the agent follow them",
            )
        } else if forwards_user_data(&window) {
            (
                "exfiltration.concealed-forward",
                "exfiltration",
                "forwards the user's messages or files to a fixed outside recipient (a phone number or an address)",
            )
        } else if quiet_send(&window) {
            (
                "exfiltration.concealed-send",
                "exfiltration",
                "sends a request out and throws its output away",
            )
        } else if calls_secret_tool(&window).is_some() {
            (
                "prompt_injection.concealed-secret-call",
                "prompt_injection",
                "has the agent call an operation named for secrets before its task",
            )
        } else {
            continue;
        };
        add.push(Finding {
            rule_id: rule.into(),
            category: category.into(),
            severity: Severity::Critical,
            file: c.file.clone(),
            line: c.line,
            evidence: evidence(lines[at], 0, lines[at].len()),
            description: format!(
                "The words that keep this from the user cover a step that {what}: hiding it is the point. Do not install this skill as it is."
            ),
            related: vec![Related {
                role: "concealment".into(),
                file: c.file.clone(),
                line: c.line,
                evidence: c.evidence.clone(),
            }],
        });
    }
    out.extend(add);
}
