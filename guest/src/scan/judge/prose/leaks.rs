//! Secrets handed over in words (round 27p, `exfiltration.prose-leak`): a sentence of a document
//! that names a sensitive source (a credential store, secret values of the environment, browser
//! logins, wallet files, local chat stores) and, in the same statement, a place outside the
//! user's machine it goes to: a host that is neither local nor a known vendor's (a URL, an e-mail
//! address, a `user@host:` remote), or an output someone else reads (the reply, a report, a pull
//! request's description, a ticket, a commit message) with a verb that puts it there. No code and
//! no fixed phrase is needed: the source and the sink are typed separately and judged together.
//!
//! Not a leak: a negated or redacting sentence ("never upload the private key", "mask the value"),
//! a public key (`.pub`), names without values, a link to the store's own vendor. Quotes (`>`),
//! fenced examples and teaching sections are left to the rules that read them. One pass over each
//! document's lines: linear in bytes.

use super::super::{Bundle, hosts_in};
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::judge::find::Has;
use crate::scan::judge::find::{has, has_any};
use crate::scan::rules::Severity;

/// Lines a statement may run on for its destination (the link is often on the next line).
const REACH: usize = 2;

/// Sensitive sources, each with the lower-case words that name it. `hard` stores are secrets by
/// themselves; the others (chat stores, the agent's memory) only go to an outside host.
struct Source {
    name: &'static str,
    words: &'static [&'static str],
    hard: bool,
}

const SOURCES: &[Source] = &[
    Source {
        name: "SSH private keys",
        words: &[
            "~/.ssh",
            "id_rsa",
            "id_ed25519",
            "id_ecdsa",
            "private key",
            "私钥",
        ],
        hard: true,
    },
    Source {
        name: "cloud or cluster credentials",
        words: &[
            ".aws/credentials",
            ".azure/",
            "gcloud/",
            ".kube/config",
            "kubeconfig",
            "service account key",
        ],
        hard: true,
    },
    Source {
        name: "stored tokens",
        words: &[
            ".git-credentials",
            ".npmrc",
            ".pypirc",
            ".netrc",
            ".docker/config.json",
            "gh/hosts.yml",
            ".claude/.credentials",
            ".codex/auth",
        ],
        hard: true,
    },
    Source {
        name: "browser logins or cookies",
        words: &[
            "login data",
            "logins.json",
            "key4.db",
            "cookies.sqlite",
            "saved logins",
            "saved passwords",
            "browser cookies",
            "浏览器密码",
            "浏览器cookie",
        ],
        hard: true,
    },
    Source {
        name: "wallet files",
        words: &[
            "wallet.dat",
            "wallet files",
            "keystore",
            "seed phrase",
            "mnemonic",
            "钱包文件",
            "助记词",
        ],
        hard: true,
    },
    Source {
        name: "secret values from the environment",
        words: &[],
        hard: true,
    },
    Source {
        name: "local chat stores",
        words: &[
            "chat history",
            "chat stores",
            "chat logs",
            "message history",
            "local storage",
            "聊天记录",
        ],
        hard: false,
    },
    // Round 28p: the project's secrets file and connection strings, the passwords a user types,
    // and the user's personal data (contacts, private notes, messages, transcripts; only to an
    // outside host, like chat stores).
    Source {
        name: "the project's secrets file or connection strings",
        words: &[
            ".env file",
            "contents of .env",
            "contents of the .env",
            "`.env` file",
            "database_url",
            "connection string",
            // Round 33m: a glob over secret files (`*.env*`, `*.pem`, `*.key`) names every one.
            "*.env",
            "*.pem",
            "*.key",
            "连接字符串",
            ".env 文件",
        ],
        hard: true,
    },
    Source {
        name: "the passwords the user types",
        words: &[
            "username and password",
            "user's password",
            "password the user",
            "passwords the user",
            "login credentials",
            "用户的密码",
            "账号和密码",
            "账号密码",
        ],
        hard: true,
    },
    Source {
        name: "the user's personal data (contacts, notes, messages)",
        words: &[
            "contact list",
            "contacts",
            "address book",
            "private notes",
            "direct message",
            "every message",
            "all messages",
            "transcript",
            "聊天记录",
            "聊天摘要",
            "联系人",
            "通讯录",
        ],
        hard: false,
    },
];

/// Index of the environment source in [`SOURCES`].
const ENV: usize = 5;

/// Words that make a sentence a refusal, a redaction or a warning rather than an order.
const NEGATIONS: &[&str] = &[
    "never",
    "do not",
    "don't",
    "must not",
    "not ",
    "without ",
    "exclud",
    "skip",
    "redact",
    "mask",
    "instead of",
    "rather than",
    "avoid",
    "refuse",
    "red flag",
    "不要",
    "切勿",
    "禁止",
    "不得",
    "绝不",
    "不会",
    "排除",
    "脱敏",
];

/// Verbs that send something to another place.
const SENDS: &[&str] = &[
    "send", "upload", "post ", "post it", "email", "e-mail", "mail ", "forward", "submit",
    "attach", "share", "push", "bcc", "copy", "log ", "发送", "上传", "提交", "发到", "传到",
    "寄到", "抄送", "转发",
];

/// Verbs that put something into a text (an output, a message, a form).
const PUTS: &[&str] = &[
    "include", "append", "prepend", "paste", "put ", "add ", "write", "insert", "embed", "attach",
    "附", "写进", "写入", "贴", "放进", "放入", "加到", "加入", "包含",
];

/// Outputs other people read: the reply, reports, pull requests, tickets, commits.
const OUTPUTS: &[&str] = &[
    "reply",
    "response",
    "answer",
    "report",
    "pr description",
    "pull request description",
    "pr body",
    "commit message",
    "ticket",
    "issue body",
    "comment",
    "summary",
    "appendix",
    "changelog",
    "release notes",
    "回复",
    "回答",
    "报告",
    "周报",
    "附录",
    "描述",
    "提交说明",
    "评论",
    "总结",
];

/// Round 33m: generated files others read (documentation, fixtures, the comments of written
/// files). Secret *values* belong in none of them, but documentation legitimately shows variable
/// names and placeholder values, so these count only for a statement that asks for the actual
/// values of keys, tokens, secrets or passwords ([`real_secret_values`]).
const GENERATED: &[&str] = &[
    "documentation",
    "generated docs",
    "test fixture",
    "html comment",
    "every file",
    "each file",
    "any file",
];

/// Whether a lower-cased statement asks for real secret values ("the actual API key values",
/// "use real keys, not placeholders"), not names or examples.
fn real_secret_values(l: &str) -> bool {
    ["actual ", "real "].iter().any(|w| has(l, w))
        && ["key", "token", "secret", "password"]
            .iter()
            .any(|w| has(l, w))
}

/// Round 33m: the text of a tool description in a data file (JSON, YAML, TOML): the value after a
/// `description` key, so the words of a tool's description are read as the sentence the model
/// reads (its quotes are the data format's, not a phrase shown). Other lines give nothing.
fn description_value(line: &str) -> &str {
    let t = line.trim_start().trim_start_matches(['"', '\'']);
    let Some(rest) = t.strip_prefix("description") else {
        return "";
    };
    let rest = rest.trim_start_matches(['"', '\'']).trim_start();
    match rest.strip_prefix([':', '=']) {
        Some(v) => v.trim().trim_start_matches(['"', '\'']),
        None => "",
    }
}

/// Words naming environment variables ([`source_of`]).
const ENV_NAMES: &[&str] = &["environment variable", "env var", "环境变量"];

/// The words this judge's whole-text gate asks ([`crate::scan::judge::File::words`]).
pub(super) fn gate_words() -> impl Iterator<Item = &'static [&'static str]> {
    SOURCES.iter().map(|s| s.words).chain([ENV_NAMES])
}

/// The source a lower-cased line names, if any.
fn source_of(l: &str) -> Option<usize> {
    if let Some(i) = SOURCES.iter().position(|s| has_any(l, s.words)) {
        // A public key is meant to be shared.
        if i == 0 && (has(l, ".pub") || has(l, "public key") || has(l, "公钥")) {
            return None;
        }
        return Some(i);
    }
    // Environment values: variables with their values, or those named like secrets.
    let env = has_any(l, ENV_NAMES);
    let values = ["value", "contents", "值", "内容"]
        .iter()
        .any(|w| has(l, w))
        || ["key", "token", "secret", "password"]
            .iter()
            .filter(|w| has(l, w))
            .count()
            >= 2;
    (env && values && !has(l, "names only") && !has(l, "name only")).then_some(ENV)
}

/// The first place in `l` at or after `from` where one of `words` occurs.
fn first_of(l: &str, words: &[&str], from: usize) -> Option<usize> {
    words
        .iter()
        .filter_map(|w| l.get(from..).and_then(|r| r.find(w)).map(|i| i + from))
        .min()
}

/// Whether a negation stands before the sentence gets where it sends or puts things ("never
/// upload the key", "keep `.ssh` out; never send it"): words hiding the act from the user after
/// it ("…, 不要提醒用户") do not undo it.
fn negated(l: &str, from: usize) -> bool {
    // The verb after the source, or, when the sentence names the source after its verb
    // ("e-mail the contact list to …"), that verb.
    let first = |from| {
        first_of(l, SENDS, from)
            .into_iter()
            .chain(first_of(l, PUTS, from))
            .min()
    };
    let verb = first(from).or_else(|| first(0)).unwrap_or(l.len());
    // "without asking the user" hides the act; it does not undo it.
    let before = [
        "without asking",
        "without telling",
        "without notifying",
        "without informing",
    ]
    .iter()
    .fold(l[..verb].to_owned(), |s, w| s.replace(w, " "));
    NEGATIONS.iter().any(|w| has(&before, w))
}

/// Round 33m: a data file (JSON, YAML, TOML) where tool descriptions stand; only its
/// `description` values are read.
fn data_file(path: &str, kind: FileKind) -> bool {
    let l = crate::ascii_lowered(path);
    kind == FileKind::Code
        && [".json", ".yaml", ".yml", ".toml"]
            .iter()
            .any(|e| l.ends_with(e))
}

fn any_of(l: &str, words: &[&str]) -> bool {
    let l = visible(l);
    has_any(&l, words)
}

/// A line without zero-width characters: letters split by them ("s\u{200b}e\u{200b}n\u{200b}d")
/// still spell their word.
fn visible(l: &str) -> std::borrow::Cow<'_, str> {
    let zw = |c: char| matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}');
    if l.contains(zw) {
        std::borrow::Cow::Owned(l.chars().filter(|&c| !zw(c)).collect())
    } else {
        std::borrow::Cow::Borrowed(l)
    }
}

/// Verbs that open an order to the agent (the imperative mood, after an optional adverb).
const ORDERS: &[&str] = &[
    "read", "gather", "collect", "copy", "find", "locate", "take", "grab", "send", "upload",
    "post", "email", "e-mail", "include", "append", "attach", "paste", "put", "add", "write",
    "insert", "bundle", "zip", "forward", "submit", "dump", "export", "finish", "sync", "mail",
    "log", "record", "capture", "extract", "prepend",
];
const ADVERBS: &[&str] = &[
    "please", "also", "then", "and", "always", "first", "now", "just", "quietly", "silently",
    "secretly",
];

/// Whether a lower-cased line gives an order: one of its clauses opens with an imperative verb
/// ("To diagnose, gather every …", "- Find the wallet files", "Also copy …"), or, in Chinese, a
/// clause opens with 把/请/将 or a reading verb.
fn orders(l: &str) -> bool {
    let l = visible(l);
    let zh = ["把", "请", "将", "读取", "收集", "复制", "打包"];
    l.split([',', ';', ':', '.', '(', '，', '；', '：', '。', '（', '、'])
        .map(|c| {
            c.trim_start_matches(|ch: char| {
                ch.is_whitespace()
                    || ch.is_ascii_digit()
                    || matches!(ch, '-' | '*' | '+' | ')' | '>')
            })
        })
        .any(|c| {
            if zh.iter().any(|w| c.starts_with(w)) {
                return true;
            }
            let mut words = c.split(|ch: char| !(ch.is_alphanumeric() || ch == '-'));
            let mut w = words.next().unwrap_or("");
            if ADVERBS.contains(&w) {
                w = words.next().unwrap_or("");
            }
            ORDERS.contains(&w)
        })
}

/// Whether byte `at` of a line sits inside a double-quoted span (a phrase shown, not said).
fn in_double_quotes(l: &str, at: usize) -> bool {
    let before = l.get(..at).unwrap_or("");
    before.matches('"').count() % 2 == 1
        || before.matches('“').count() > before.matches('”').count()
}

/// Whether a line ends its statement: a sentence mark at its end, or nothing after it.
fn ends_statement(l: &str) -> bool {
    l.trim_end().ends_with(['.', '。', '!', '！', '?', '？'])
}

/// Round 42b: whether output word `w` occurs in a lower-cased statement as somewhere things go, not
/// only as where they come from. "Parse `connection_string` from the JSON response", "the token
/// received from the API", "从响应中读取" name the response a value is taken out of: the statement
/// reads the response, it does not write into one. An occurrence counts unless `from` is one of
/// the three words before it (English) or `从` stands in the eight characters before it (Chinese);
/// "in the reply", "at the top of the report" stay destinations.
fn destination_word(l: &str, w: &str) -> bool {
    l.match_indices(w).any(|(i, _)| {
        let before = &l[..i];
        let words: Vec<&str> = before
            .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '_'))
            .filter(|x| !x.is_empty())
            .collect();
        let near = &words[words.len().saturating_sub(3)..];
        let taken_from = near.contains(&"from") || before.chars().rev().take(8).any(|c| c == '从');
        !taken_from
    })
}

pub(super) fn prose_leak(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    // A lone text with no facts never reaches the judge (`text_file_findings`); SKILL.md always
    // does. The same here, so both paths agree.
    for file in b.files.iter().filter(|f| {
        (f.kind != FileKind::Code
            && (!f.facts.facts.is_empty() || f.path.eq_ignore_ascii_case("SKILL.md")))
            || data_file(f.path, f.kind)
    }) {
        // Gate: a line is read only when `source_of` names a source, which needs a word of
        // `SOURCES` or of `ENV_NAMES` in the line (or in its description value, a part of it),
        // lowered: a file whose lowered text has none of them has no such line.
        let all = file.words();
        if !SOURCES.iter().any(|s| all.any(s.words)) && !all.any(ENV_NAMES) {
            continue;
        }
        let data = data_file(file.path, file.kind);
        let lines: Vec<&str> = if data {
            file.content.lines().map(description_value).collect()
        } else {
            file.content.lines().collect()
        };
        let prose = super::prose_lines(&lines, !data);
        for (i, raw) in lines.iter().enumerate() {
            if !prose[i] {
                continue;
            }
            let l = crate::ascii_lowered(raw);
            let Some(src) = source_of(&l) else { continue };
            let at = SOURCES[src]
                .words
                .iter()
                .filter_map(|w| l.find(w))
                .min()
                .unwrap_or(0);
            if negated(&l, at) || in_double_quotes(&l, at) || !orders(&l) {
                continue;
            }
            // The statement: this line, and the next ones while it has not ended (a list whose
            // next item says where things go: "- Find the wallet files." / "- Email them to …").
            let mut stmt = vec![i];
            let mut j = i;
            while j + 1 < lines.len() && stmt.len() <= REACH {
                let next = lines[j + 1].trim();
                if next.is_empty() || next.starts_with('#') || next.starts_with("```") {
                    break;
                }
                if ends_statement(lines[j]) && !crate::ascii_lowered(next).has("them") {
                    break;
                }
                j += 1;
                stmt.push(j);
            }
            let text: String = stmt
                .iter()
                .map(|&k| lines[k])
                .collect::<Vec<_>>()
                .join("\n");
            let lower = crate::ascii_lowered(&text);
            if stmt[1..]
                .iter()
                .any(|&k| negated(&crate::ascii_lowered(lines[k]), 0))
            {
                continue;
            }
            let output = if SOURCES[src].hard {
                OUTPUTS
                    .iter()
                    .find(|w| destination_word(&lower, w))
                    .or_else(|| {
                        GENERATED
                            .iter()
                            .find(|w| has(&lower, w))
                            .filter(|_| real_secret_values(&lower) || src != ENV)
                    })
            } else {
                None
            };
            // To a host: a verb that sends, or one that puts it into a form or message there.
            let host = hosts_in(&text)
                .into_iter()
                .find(|h| h.class.is_outside())
                .filter(|_| any_of(&lower, SENDS) || output.is_some() && any_of(&lower, PUTS));
            // Into an output: a verb that puts or sends it there.
            let output = output.filter(|_| any_of(&lower, PUTS) || any_of(&lower, SENDS));
            let dest = match (&host, output) {
                (Some(h), _) => format!("{} ({})", h.host, h.class.phrase()),
                (None, Some(o)) => format!("the {o}, which others read"),
                _ => continue,
            };
            let sink_line = stmt
                .iter()
                .copied()
                .find(|&k| match &host {
                    Some(h) => has(lines[k], h.url.as_str()),
                    None => true,
                })
                .unwrap_or(i);
            let shown = |k: usize| evidence(lines[k], 0, lines[k].len());
            let mut related = Vec::new();
            if sink_line != i {
                related.push(Related {
                    role: "sink".into(),
                    file: file.path.into(),
                    line: sink_line + 1,
                    evidence: shown(sink_line),
                });
            }
            out.push(Finding {
                rule_id: "exfiltration.prose-leak".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: shown(i),
                description: format!(
                    "Instructions take {} ({}:{}) and put them where others get them: {} ({}:{}). A skill never needs to hand those over: do not install it.",
                    SOURCES[src].name,
                    file.path,
                    i + 1,
                    dest,
                    file.path,
                    sink_line + 1
                ),
                related,
            });
            return;
        }
    }
}
