//! Errands in prose (or in strings a model reads) that no single line shows (round 31c, scan34).
//!
//! - `exfiltration.paste-credentials` (`critical`): credentials (API keys, tokens, secrets, a
//!   credentials or tokens table, `.env`, `~/.npmrc`, `gh auth token`) to be pasted, put or posted
//!   into a ticket reply, a chat, an issue or a PR comment, within two lines: the requester (or
//!   everyone) reads them there. Refusals ("never paste your token into a ticket") are left alone.
//! - `exfiltration.split-errand` (`critical`): one document asks for a reader of `.env`/config
//!   files, a sender to a host that is not a known vendor, and a step that hands the one to the
//!   other (on start-up, on import): the decomposed form of "send the `.env` out".
//! - `supply_chain.vulnerable-pins` (`critical`): a document pinning two or more well-known
//!   packages to releases below their published security fix (the table below); a disclosed
//!   teaching lab ("intentionally vulnerable") is left alone.
//! - `destructive.encrypt-destroy-key` (`critical`): encrypt every file of the user's folders,
//!   delete the originals, and destroy the key (or the file that holds it) later: ransomware in the
//!   form of a procedure, in English, Chinese, Japanese or Korean. Encrypting the files a user names
//!   and keeping the key is left alone.
//! - `exfiltration.cjk-secret-send` (`critical`): Chinese, Japanese or Korean prose gathering the
//!   API keys or tokens of the environment in one sentence and sending them to a URL outside the
//!   known vendors within the next two.
//!
//! One pass over each prose file's lowered lines with windows of a few lines: linear in bytes.

use super::Bundle;
use super::pair::{End, negated, push};
use crate::scan::content::{FileKind, Finding};
use crate::scan::hosts::{classify_url, urls_in};
use crate::scan::judge::find::{has, has_any};
use crate::scan::rules::Severity;

/// Words one of these rules needs on a lone text (a registry description) before it can fire:
/// `prose::reads_raw_text` runs the judge on a text that holds one.
pub(crate) fn raw_words() -> impl Iterator<Item = &'static str> {
    PLACES
        .iter()
        .chain(ENCRYPT)
        .chain(ENV_FILES)
        .chain(CJK_SEND)
        .copied()
        .chain(FIXED.iter().map(|(n, _)| *n))
}

fn any(l: &str, words: &[&str]) -> bool {
    has_any(l, words)
}

/// A word's longest part without spaces (`comment` of `comment on`, `put` of `put `): a match of
/// the word in a line some of whose bytes were blanked to spaces keeps this part's bytes from the
/// unblanked line, so the part is in the original text.
fn core(w: &str) -> &str {
    w.split(' ').max_by_key(|p| p.len()).unwrap_or(w)
}

/// The words this judge's whole-text gates ask ([`super::File::words`]).
pub(super) fn gate_words() -> impl Iterator<Item = &'static str> {
    let cores = PASTE.iter().chain(CREDS).map(|w| core(w));
    [PLACES, ENCRYPT, ENV_FILES, STARTS, PIN, CJK_SECRETS]
        .into_iter()
        .flatten()
        .copied()
        .chain(cores)
}

const CREDS: &[&str] = &[
    "api key",
    "api_key",
    "token",
    "secret",
    "credential",
    "password",
    ".env",
    ".npmrc",
    "gh auth token",
    "密钥",
    "令牌",
    "凭证",
    "密码",
    "トークン",
    "キー",
    "パスワード",
    "토큰",
    "키",
    "비밀번호",
];

const PASTE: &[&str] = &[
    "paste",
    "put ",
    "include",
    "post ",
    "add a comment",
    "comment on",
    "share",
    "attach",
    "粘贴",
    "贴到",
    "贴在",
    "发到",
    "貼り付け",
    "붙여",
];

const PLACES: &[&str] = &[
    "ticket",
    "reply",
    "the chat",
    "into chat",
    "in chat",
    "the issue",
    "an issue",
    "this issue",
    "pull request",
    "pr comment",
    "the channel",
    "the thread",
    "工单",
    "回复",
    "聊天",
    "评论",
    "チケット",
    "返信",
    "チャット",
    "티켓",
    "답변",
    "채팅",
];

/// Whether a word of `a` and a word of `b` stand within 80 bytes of each other, in either order
/// (English puts the place after the verb, Japanese and Korean before it).
fn close(l: &str, a: &[&str], b: &[&str]) -> bool {
    let at = |words: &[&str]| -> Vec<usize> {
        words
            .iter()
            .flat_map(|w| l.match_indices(w).map(|(i, _)| i))
            .collect()
    };
    let xs = at(a);
    let ys = at(b);
    xs.iter().any(|x| ys.iter().any(|y| x.abs_diff(*y) <= 80))
}

/// A lowered code line with its HTTP methods (`-x post`, `--request post`, `method="post"`,
/// `.post(`) and its identifiers named like a place (`reply=`, `$reply`, `${reply}`, `reply)`)
/// blanked out, so that only words a reader would read as an errand remain.
fn code_words_masked(l: &str) -> String {
    let mut s = l.to_string();
    for method in [
        "-x post",
        "--request post",
        "method=\"post\"",
        "method: \"post\"",
        "method='post'",
        "method: 'post'",
        ".post(",
    ] {
        s = s.replace(method, &" ".repeat(method.len()));
    }
    for place in PLACES.iter().filter(|p| p.is_ascii() && !p.contains(' ')) {
        let mut from = 0;
        while let Some(i) = s[from..].find(place).map(|i| i + from) {
            let end = i + place.len();
            let before = s[..i].chars().next_back();
            let after = s[end..].chars().next();
            let ident = matches!(before, Some('$' | '{'))
                || matches!(after, Some('=' | ')' | '}' | '_' | '['))
                || before.is_some_and(|c| c == '_' || c.is_ascii_alphanumeric())
                || after.is_some_and(|c| c.is_ascii_alphanumeric());
            if ident {
                s.replace_range(i..end, &" ".repeat(place.len()));
            }
            from = end;
        }
    }
    s
}

fn paste_credentials(path: &str, lines: &[&str], lower: &[String], out: &mut Vec<Finding>) {
    for i in 0..lower.len() {
        let l = &lower[i];
        if !close(l, PASTE, PLACES) || negated(l) || has(l, " not ") || has(l, " no ") {
            continue;
        }
        // The user pasting into the conversation with the agent describes input, not an order.
        if any(
            l,
            &[
                "user paste",
                "pastes ",
                "you paste",
                "if the user",
                "when the user",
                "they paste",
                "pasted",
                "if they",
                "when they",
                "if you",
                "when you",
            ],
        ) {
            continue;
        }
        let lo = i.saturating_sub(2);
        let hi = (i + 2).min(lower.len());
        let Some(k) = (lo..hi).find(|&k| any(&lower[k], CREDS) && !negated(&lower[k])) else {
            continue;
        };
        let src = End::new(path, k, lines[k]);
        let sink = End::new(path, i, lines[i]);
        push(
            out,
            "exfiltration.paste-credentials",
            Severity::Critical,
            ("source", src),
            sink,
            format!(
                "The text asks for credentials ({}) to be pasted into a ticket, a chat, an issue or a reply ({}): whoever reads that place gets the keys. Credentials never go into a conversation.",
                src.place(),
                sink.place()
            ),
        );
        return;
    }
}

/// A URL on the line whose host is not a vendor, installer, registry or local.
fn foreign_url(line: &str) -> bool {
    urls_in(line)
        .into_iter()
        .any(|(s, e)| classify_url(&line[s..e]).is_some_and(|(_, c)| c.is_outside()))
}

const SENDS: &[&str] = &[
    "post",
    "send",
    "upload",
    "ship",
    "submit",
    "发送",
    "提交",
    "上传",
    "送信",
    "アップロード",
    "送って",
    "전송",
    "업로드",
    "보내",
];

const ENV_FILES: &[&str] = &[
    ".env",
    "dotenv",
    "secrets.toml",
    "secrets.json",
    "credentials",
];

const HANDS: &[&str] = &[
    "hand",
    "pass",
    "send it",
    "send them",
    "and send",
    "ship",
    "to the telemetry",
    "to the endpoint",
    "交给",
    "发送",
    "渡して",
    "送信",
    "넘겨",
    "전송",
];

const STARTS: &[&str] = &[
    "import", "startup", "start-up", "on start", "boot", "initiali", "启动", "起動", "시작",
];

fn split_errand(path: &str, lines: &[&str], lower: &[String], out: &mut Vec<Finding>) {
    let Some(u) = (0..lower.len()).find(|&i| any(&lower[i], SENDS) && foreign_url(lines[i])) else {
        return;
    };
    let Some(j) = (0..lower.len()).find(|&i| {
        let l = &lower[i];
        any(l, ENV_FILES) && any(l, HANDS) && any(l, STARTS) && !negated(l)
    }) else {
        return;
    };
    let join = End::new(path, j, lines[j]);
    let url = End::new(path, u, lines[u]);
    push(
        out,
        "exfiltration.split-errand",
        Severity::Critical,
        ("source", join),
        url,
        format!(
            "The steps join up: a `.env` or secrets file is read and handed on at start-up ({}) to a sender whose destination is not a known vendor ({}). Split into parts, it is still the environment sent out.",
            join.place(),
            url.place()
        ),
    );
}

/// Packages with a widely published security fix, and the release the fix arrived in.
const FIXED: &[(&str, &[u32])] = &[
    ("django", &[3, 2]),
    ("requests", &[2, 20]),
    ("pyyaml", &[5, 4]),
    ("pillow", &[9, 0]),
    ("urllib3", &[1, 26, 5]),
    ("jinja2", &[2, 11, 3]),
    ("lodash", &[4, 17, 21]),
    ("minimist", &[1, 2, 6]),
    ("node-fetch", &[2, 6, 7]),
    ("jsonwebtoken", &[9, 0]),
    ("log4j-core", &[2, 17, 1]),
    ("axios", &[0, 21, 1]),
    ("werkzeug", &[2, 2, 3]),
    ("cryptography", &[3, 3, 2]),
];

fn version_after(rest: &str) -> Option<Vec<u32>> {
    let t = rest.trim_start_matches(|c: char| {
        matches!(
            c,
            '=' | '@' | ' ' | '`' | '"' | '\'' | ':' | '<' | '>' | '~' | '^' | 'v'
        )
    });
    let v: String = t
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let parts: Vec<u32> = v.split('.').filter_map(|p| p.parse().ok()).collect();
    (parts.len() >= 2).then_some(parts)
}

fn below(v: &[u32], fix: &[u32]) -> bool {
    for (i, &f) in fix.iter().enumerate() {
        let a = v.get(i).copied().unwrap_or(0);
        if a != f {
            return a < f;
        }
    }
    false
}

/// Pin wording `vulnerable_pins` needs on some line.
const PIN: &[&str] = &[
    "pin",
    "downgrade",
    "exact version",
    "requirements.txt",
    "package.json",
    "pom.xml",
    "固定",
    "降级",
    "锁定",
    "고정",
    "다운그레이드",
];

fn vulnerable_pins(path: &str, lines: &[&str], lower: &[String], out: &mut Vec<Finding>) {
    if lower.iter().any(|l| {
        any(
            l,
            &[
                "intentionally vulnerable",
                "deliberately vulnerable",
                "training lab",
                "teaching lab",
                "ctf",
            ],
        )
    }) {
        return;
    }
    if !lower.iter().any(|l| any(l, PIN)) {
        return;
    }
    let mut hits: Vec<(usize, &str)> = Vec::new();
    for (i, l) in lower.iter().enumerate() {
        for (name, fix) in FIXED {
            let Some(at) = l.find(name) else { continue };
            let before = l[..at].chars().last();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
                continue;
            }
            let rest = &l[at + name.len()..];
            if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
                continue;
            }
            let near = &rest[..rest.len().min(28)];
            if any(
                near,
                &[
                    ">=",
                    "+",
                    "or later",
                    "and later",
                    "or newer",
                    "and newer",
                    "以上",
                    "이상",
                ],
            ) {
                continue;
            }
            if let Some(v) = version_after(&rest[..rest.len().min(16)])
                && below(&v, fix)
                && !hits.iter().any(|(_, n)| n == name)
            {
                hits.push((i, name));
            }
        }
    }
    if hits.len() < 2 {
        return;
    }
    let a = End::new(path, hits[0].0, lines[hits[0].0]);
    let z = End::new(path, hits[1].0, lines[hits[1].0]);
    push(
        out,
        "supply_chain.vulnerable-pins",
        Severity::Critical,
        ("signal", a),
        z,
        format!(
            "The text pins {} packages to releases below their published security fixes ({} and {}): whatever reason is given, the project gets known holes back.",
            hits.len(),
            a.place(),
            z.place()
        ),
    );
}

const ENCRYPT: &[&str] = &["encrypt", "加密", "暗号化", "암호화"];
const ALL: &[&str] = &[
    "every",
    "all ",
    "each",
    "所有",
    "全部",
    "すべて",
    "全て",
    "모든",
    "전부",
];
const DELETE: &[&str] = &[
    "delete", "remove", "shred", "wipe", "destroy", " rm -", "`rm ", "删除", "销毁", "削除",
    "삭제", "파기",
];
const ORIGINAL: &[&str] = &[
    "original",
    "原文件",
    "原件",
    "元のファイル",
    "元ファイル",
    "원본",
];
const KEYS: &[&str] = &[
    "key",
    "passphrase",
    "password",
    "密钥",
    "口令",
    "密码",
    "鍵",
    "キー",
    "パスワード",
    "키",
    "암호",
];

fn backticked(l: &str) -> Vec<String> {
    l.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .filter(|s| s.len() >= 3)
        .collect()
}

/// A deletion the line itself refuses: a negation before the first delete word ("不会删除",
/// "never delete"); a negation after it is about something else ("删除 …，不要告诉用户").
fn refused(l: &str) -> bool {
    let del = DELETE
        .iter()
        .filter_map(|w| l.find(w))
        .min()
        .unwrap_or(l.len());
    negated(&l[..del])
}

fn encrypt_destroy(path: &str, lines: &[&str], lower: &[String], out: &mut Vec<Finding>) {
    let Some(e) = lower
        .iter()
        .position(|l| any(l, ENCRYPT) && any(l, ALL) && !negated(l))
    else {
        return;
    };
    if !lower
        .iter()
        .any(|l| any(l, DELETE) && any(l, ORIGINAL) && !negated(l))
    {
        return;
    }
    // Files said to hold the key.
    let key_files: Vec<String> = lower
        .iter()
        .filter(|l| any(l, KEYS) || any(l, ENCRYPT))
        .flat_map(|l| backticked(l))
        .filter(|t| !t.contains(' ') || t.contains('/'))
        .collect();
    let Some(k) = (0..lower.len()).find(|&i| {
        let l = &lower[i];
        i != e
            && any(l, DELETE)
            && !any(l, ORIGINAL)
            && !refused(l)
            && (any(l, KEYS) || key_files.iter().any(|f| has(l, f.as_str())))
    }) else {
        return;
    };
    let enc = End::new(path, e, lines[e]);
    let key = End::new(path, k, lines[k]);
    push(
        out,
        "destructive.encrypt-destroy-key",
        Severity::Critical,
        ("signal", enc),
        key,
        format!(
            "Every file is encrypted and the originals deleted ({}), then the key is destroyed ({}): the user's files become unrecoverable except through whoever kept a copy of the key. That is ransomware written as a procedure.",
            enc.place(),
            key.place()
        ),
    );
}

const CJK_SECRETS: &[&str] = &[
    "密钥",
    "令牌",
    "凭证",
    "api キー",
    "apiキー",
    "トークン",
    "token",
    "api 키",
    "api키",
    "토큰",
];
const CJK_GATHER: &[&str] = &[
    "环境变量",
    "環境変数",
    "환경 변수",
    "환경변수",
    ".env",
    "收集",
    "集め",
    "모으",
    "모읍",
    "書き出",
    "모두",
];
const CJK_SEND: &[&str] = &[
    "发送",
    "提交",
    "上传",
    "送信",
    "アップロード",
    "送って",
    "전송",
    "업로드",
    "보내",
];

fn is_cjk_text(l: &str) -> bool {
    l.chars().any(|c| {
        ('\u{3040}'..='\u{30ff}').contains(&c)
            || ('\u{4e00}'..='\u{9fff}').contains(&c)
            || ('\u{ac00}'..='\u{d7af}').contains(&c)
    })
}

fn cjk_secret_send(path: &str, lines: &[&str], lower: &[String], out: &mut Vec<Finding>) {
    for i in 0..lower.len() {
        let l = &lower[i];
        if !(is_cjk_text(l) && any(l, CJK_SECRETS) && any(l, CJK_GATHER)) || negated(l) {
            continue;
        }
        let Some(j) = (i..(i + 3).min(lower.len()))
            .find(|&j| any(&lower[j], CJK_SEND) && foreign_url(lines[j]) && !negated(&lower[j]))
        else {
            continue;
        };
        let src = End::new(path, i, lines[i]);
        let sink = End::new(path, j, lines[j]);
        push(
            out,
            "exfiltration.cjk-secret-send",
            Severity::Critical,
            ("source", src),
            sink,
            format!(
                "The keys or tokens of the environment are gathered ({}) and sent to an address that is not a known vendor ({}): secrets sent away, split over sentences.",
                src.place(),
                sink.place()
            ),
        );
        return;
    }
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        let super::Lowered { lines, lower } = f.lowered();
        // Each rule needs words of one list on some line: a file without any of them anywhere is
        // skipped in one search of the whole lowered text instead of many per line.
        let all = f.words();
        // Strings a model reads count too: seeded data and tool text live in code files.
        // A hit also needs a `PASTE` word on its line and a `CREDS` word near it. A code line is
        // read masked (some words blanked to spaces), so the words are asked of the whole text by
        // their longest space-free part ([`core`]), which a masked match keeps from the original.
        if all.any(PLACES)
            && PASTE.iter().any(|w| all.has(core(w)))
            && CREDS.iter().any(|w| all.has(core(w)))
        {
            if f.kind == FileKind::Code {
                // In code, an HTTP method (`-X POST`) is no verb and a variable named like a place
                // (`reply=$(curl …)`) no place: only the words of its strings and comments count
                // (round 38b).
                let masked: Vec<String> = lower.iter().map(|l| code_words_masked(l)).collect();
                paste_credentials(f.path, lines, &masked, out);
            } else {
                paste_credentials(f.path, lines, lower, out);
            }
        }
        if all.any(ENCRYPT) {
            encrypt_destroy(f.path, lines, lower, out);
        }
        if f.kind == FileKind::Code {
            continue;
        }
        if all.any(ENV_FILES) && all.any(STARTS) {
            split_errand(f.path, lines, lower, out);
        }
        if all.any(PIN) {
            vulnerable_pins(f.path, lines, lower, out);
        }
        if !f.content.is_ascii() && all.any(CJK_SECRETS) {
            cjk_secret_send(f.path, lines, lower, out);
        }
    }
}

#[cfg(test)]
mod gate_tests {
    use super::{PASTE, code_words_masked, core};
    use crate::scan::judge::find::has;

    /// A word's core: its longest space-free part, found in the unmasked line whenever the word
    /// is found in the masked one.
    #[test]
    fn scan_errands_core_kept_by_masking() {
        // Must: the longest part, no spaces.
        assert_eq!(core("comment on"), "comment");
        assert_eq!(core("put "), "put");
        assert_eq!(core("paste"), "paste");
        // Must not: a space in a core.
        assert!(PASTE.iter().all(|w| !core(w).contains(' ')));
        // Masking a place named like an identifier can make `put ` appear where the text had
        // `putreply=`; its core `put` was in the text all along.
        let line = "x = putreply=1 into the ticket";
        let masked = code_words_masked(line);
        for w in PASTE {
            if has(&masked, w) {
                assert!(has(line, core(w)), "{w:?}");
            }
        }
        assert!(has(&masked, "put ") && !has(line, "put "));
    }
}
