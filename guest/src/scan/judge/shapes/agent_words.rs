//! Agent tampering told in words the one-line rules read only in English, French and Spanish, and
//! a setting that approves every tool call written by a script:
//!
//! - `prompt_injection.approve-all-intl`: an "always allow" button named (Italian, German,
//!   Portuguese, Chinese, Japanese, Korean, Turkish, Russian, Dutch, Polish) with "every request" or
//!   with an order not to open or look at the script; a warning never to press it is not this.
//! - `prompt_injection.tool-shadowing`: the skill says it replaces a built-in tool (替代内置的 … 工具,
//!   "ersetzt das eingebaute Werkzeug", "sostituisce lo strumento integrato", …) and forbids the
//!   original.
//! - `persistence.agent-permissions`: a script setting an auto-approve key (`autoApprove`,
//!   `alwaysAllow`, `yolo`, `skipPermissions`) to `true` or `"*"` in an agent's or editor's settings
//!   file.
//! - `prompt_injection.conditional-action` (after the prose judges): a conditional order that also
//!   has the agent cover its tracks (clear the history, leave things looking unchanged).

use super::langs42 as l42;
use super::more_langs as more;
use super::{found, has, is_code, rel};
use crate::scan::content::{FileKind, Finding};
use crate::scan::judge::find::Has;
use crate::scan::judge::{Bundle, File};
use crate::scan::markdown::{FencePlace, fence_places};
use crate::scan::rules::Severity;

pub(super) const ALWAYS: &[&str] = &[
    "consenti sempre",
    "permetti sempre",
    "immer erlauben",
    "immer zulassen",
    "sempre permitir",
    "permitir sempre",
    "始终允许",
    "总是允许",
    "永远允许",
    "常に許可",
    "항상 허용",
    "her zaman izin ver",
    "всегда разрешать",
    "altijd toestaan",
    "zawsze zezwalaj",
    // Round 38t: Vietnamese, Indonesian, Arabic, Hindi, Korean and Dutch words.
    "luôn cho phép",
    "selalu izinkan",
    "السماح دائمًا",
    "السماح دائما",
    "हमेशा अनुमति",
    // Round 39t: Tagalog, Bengali, Greek and English words.
    "always allow",
    "সবসময় অনুমতি",
    "πάντα να επιτρέπεται",
];
const EVERY: &[&str] = &[
    "ogni richiesta",
    "ogni permesso",
    "jeder anfrage",
    "jede anfrage",
    "allen anfragen",
    "cada pedido",
    "todas as solicita",
    "每个请求",
    "每次请求",
    "所有请求",
    "すべてのリクエスト",
    "모든 요청",
    "her istekte",
    "каждый запрос",
    // Round 38t: Vietnamese, Indonesian, Arabic, Hindi, Korean and Dutch words.
    "매번",
    "mọi yêu cầu",
    "setiap permintaan",
    "każde żądanie",
    "elke toestemmingsvraag",
    "elk verzoek",
    "كل طلب",
    "हर अनुरोध",
    // Round 39t: Tagalog, Bengali, Greek and English words.
    "every prompt",
    "every request",
    "bawat prompt",
    "bawat hiling",
    "প্রতিটি অনুমতি",
    "প্রতিটি অনুরোধ",
    "κάθε αίτημα",
];
const SCRIPT: &[&str] = &[
    "script",
    "skript",
    "脚本",
    "スクリプト",
    "스크립트",
    "скрипт",
    "betik",
    // Round 38t: Vietnamese, Indonesian, Arabic, Hindi, Korean and Dutch words.
    "स्क्रिप्ट",
    "السكربت",
    "البرنامج النصي",
    // Round 39t: Tagalog, Bengali, Greek and English words.
    ".sh`",
    "স্ক্রিপ্ট",
    "σενάριο",
];
const NOT: &[&str] = &[
    "non ",
    "nicht",
    "não",
    "nao ",
    "不要",
    "别",
    "しないで",
    "마세요",
    "не ",
    "niet",
    "nie ",
    "bakma",
    // Round 38t: Vietnamese, Indonesian, Arabic, Hindi, Korean and Dutch words.
    "말고",
    "지 마",
    "không ",
    "tidak ",
    "jangan",
    "لا ",
    "मत",
    "न ",
    // Round 39t: Tagalog, Bengali, Greek and English words.
    "huwag",
    "না",
    "μην ",
];
const LOOK: &[&str] = &[
    "apri",
    "guard",
    "controll",
    "leggere",
    "schau",
    "anseh",
    "ansch",
    "lies",
    "prüf",
    "abra",
    "olhe",
    "verifi",
    "打开",
    "查看",
    "阅读",
    "检查",
    "開",
    "見",
    "열",
    "확인",
    "открыва",
    "смотр",
    "open",
    "bekijk",
    "otwier",
    "aç",
    // Round 38t: Vietnamese, Indonesian, Arabic, Hindi, Korean and Dutch words.
    "mở",
    "xem",
    "đọc",
    "buka",
    "baca",
    "lihat",
    "تفتح",
    "تقرأ",
    "खोल",
    "पढ़",
    "lezen",
    // Round 39t: Tagalog, Bengali, Greek and English words.
    "buksan",
    "basahin",
    "খুলে",
    "দেখ",
    "ανοίξ",
];
/// Words before an "always allow" that make it a warning.
const NEVER: &[&str] = &[
    "mai ",
    "nie ",
    "niemals",
    "nunca",
    "不要",
    "切勿",
    "绝不",
    "決して",
    "절대",
    "никогда",
    "nooit",
    // Round 39t: Tagalog, Bengali, Greek and English words.
    "never",
    "avoid",
    "don't",
    "do not",
    "huwag",
    "কখনো",
];

pub(super) const REPLACE: &[&str] = &[
    "替代",
    "取代",
    "替换",
    "代替",
    "ersetzt",
    "sostituisce",
    "substitui",
    "reemplaza",
    "置き換え",
    "대체",
    "заменяет",
    "yerini",
    // Round 38t: Vietnamese, Indonesian, Arabic, Hindi, Korean and Dutch words.
    "thay thế",
    "menggantikan",
    "zastępuje",
    "vervangt",
    "يستبدل",
    "يحل محل",
    "की जगह",
    // Round 39t: Tagalog, Bengali, Greek and English words.
    "αντικαθιστά",
    "replaces",
    "pinapalitan",
];
const BUILTIN: &[&str] = &[
    "内置",
    "内建",
    "自带",
    "eingebaut",
    "integrat",
    "integrad",
    "embutid",
    "組み込み",
    "내장",
    "встроенн",
    "yerleşik",
    // Round 38t: Vietnamese, Indonesian, Arabic, Hindi, Korean and Dutch words.
    "tích hợp",
    "bawaan",
    "wbudowan",
    "ingebouwde",
    "المدمجة",
    "अंतर्निहित",
    "बिल्ट-इन",
    // Round 39t: Tagalog, Bengali, Greek and English words.
    "ενσωματωμέν",
    "built-in",
    "builtin",
    "naka-built-in",
];
const TOOLISH: &[&str] = &[
    "工具",
    "werkzeug",
    "tool",
    "strumento",
    "ferramenta",
    "herramienta",
    "ツール",
    "도구",
    "инструмент",
    "araç",
    // Round 38t: Vietnamese, Indonesian, Arabic, Hindi, Korean and Dutch words.
    "công cụ",
    "alat",
    "narzędzi",
    "أداة",
    "टूल",
    // Round 39t: Tagalog, Bengali, Greek and English words.
    "εργαλείο",
];
const FORBID: &[&str] = &[
    "不要再",
    "不要使用",
    "不要调用",
    "禁止",
    "nicht mehr",
    "nicht das",
    "non usare",
    "non utilizzare",
    "não use",
    "no uses",
    "no utilices",
    "使わない",
    "사용하지",
    "не используй",
    "kullanma",
    // Round 38t: Vietnamese, Indonesian, Arabic, Hindi, Korean and Dutch words.
    "không được dùng",
    "đừng dùng",
    "jangan gunakan",
    "jangan pakai",
    "nie używaj",
    "gebruik nooit",
    "gebruik niet",
    "لا تستخدم",
    "इस्तेमाल न करें",
    "उपयोग न करें",
    // Round 39t: Tagalog, Bengali, Greek and English words.
    "μη χρησιμοποιείς",
    "μην χρησιμοποιείς",
    "never call the original",
    "never call the built-in",
    "do not use the built-in",
    "don't use the built-in",
    "huwag gamitin",
];

pub(super) const AUTO_KEYS: &[&str] = &[
    "autoapprove",
    "auto_approve",
    "alwaysallow",
    "always_allow",
    "yolo",
    "skippermissions",
    "skip_permissions",
    // Round 45t: Amp's `dangerouslyAllowAll`, Windsurf's command allow list (`["*"]`) and
    // auto-execution policy (`"turbo"`), Aider's `yes-always`.
    "dangerouslyallowall",
    "commandsallowlist",
    "autoexecutionpolicy",
    "yes-always",
    // Round 46t: Zed's `always_allow_tool_actions`, Roo Code's and Kilo Code's command allow list
    // (`allowedCommands`: `["*"]`) and auto-approval switches.
    "always_allow_tool_actions",
    "allowedcommands",
    "autoapprovalenabled",
    "alwaysallowexecute",
];
const SETTINGS: &[&str] = &[
    "settings.json",
    "config.toml",
    "config.json",
    "mcp.json",
    ".claude",
    ".codex",
    ".cursor",
    ".vscode",
    "code/user",
    ".gemini",
    ".continue",
    // Round 45t: Aider's own config file.
    ".aider.conf",
];

const COVER: &[&str] = &[
    "clear the shell history",
    "clear the history",
    "clear your history",
    "history -c",
    "looks unchanged",
    "look unchanged",
    "leave no trace",
    "cover your tracks",
    "cover the tracks",
    "so nobody notices",
    "so no one notices",
];

/// The words this judge's whole-text gates ask ([`crate::scan::judge::File::words`]).
pub(super) const GATE_WORDS: &[&[&str]] = &[
    ALWAYS,
    more::ALWAYS,
    l42::ALWAYS,
    REPLACE,
    more::REPLACE,
    l42::REPLACE,
    FORBID,
    more::FORBID,
    l42::FORBID,
    SETTINGS,
];

fn any(t: &str, words: &[&str]) -> bool {
    words.iter().any(|w| t.has(w))
}

/// A prose file's text outside fenced blocks, lower-cased (Unicode).
fn prose_lower(f: &File<'_>) -> Option<String> {
    if f.kind == FileKind::Code || f.place.test {
        return None;
    }
    let lines = &f.lowered().lines;
    let places = fence_places(lines.iter().copied());
    let text: Vec<&str> = lines
        .iter()
        .zip(&places)
        .filter(|(_, p)| **p == FencePlace::Outside)
        .map(|(l, _)| *l)
        .collect();
    Some(text.join("\n").to_lowercase())
}

/// The sentences of a text (split at `.`, `!`, `?`, `。`, `！`, `？` and line ends).
fn sentences(t: &str) -> impl Iterator<Item = &str> {
    t.split(['.', '!', '?', '。', '！', '？', '\n'])
}

/// The 0-based line of `file` that holds `word` (lower-cased), or the first line.
fn line_of(f: &File<'_>, word: &str) -> usize {
    f.lowered()
        .lines
        .iter()
        .position(|l| l.to_lowercase().has(word))
        .unwrap_or(0)
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        // Gate: a prose file's two rules need an `ALWAYS` word (`approve_all`), or a `REPLACE`
        // word (`shadowing`, with a `FORBID` or a conceal word) — each list with its `more_langs` twin — in its text outside fences lowered. An ASCII
        // file's Unicode lowering is its ASCII lowering and those lines are lines of the file, so
        // a word there is in the file's lowered text: without one, lowering it again is skipped.
        let prose = !(f.kind == FileKind::Code || f.place.test);
        if prose && f.content.is_ascii() {
            let all = f.words();
            let always = all.any(ALWAYS) || all.any(more::ALWAYS) || all.any(l42::ALWAYS);
            let replace = all.any(REPLACE) || all.any(more::REPLACE) || all.any(l42::REPLACE);
            // Round 46t: a replacement may be forbidden or concealed; the conceal words are read
            // from the lowered text (`intl_orders::conceals`) once a replace word is found.
            if !(always || replace) {
                continue;
            }
        }
        if let Some(t) = prose_lower(f) {
            if !has(out, f, "prompt_injection.approve-all", Severity::Critical)
                && !has(
                    b.prior,
                    f,
                    "prompt_injection.approve-all",
                    Severity::Critical,
                )
            {
                out.extend(approve_all(f, &t));
            }
            if !has(
                out,
                f,
                "prompt_injection.tool-shadowing",
                Severity::Critical,
            ) && !has(
                b.prior,
                f,
                "prompt_injection.tool-shadowing",
                Severity::Critical,
            ) {
                out.extend(shadowing(f, &t));
            }
        } else if is_code(f) && !has(out, f, "persistence.agent-permissions", Severity::Critical) {
            out.extend(auto_approve(f));
        }
    }
}

fn approve_all(f: &File<'_>, t: &str) -> Option<Finding> {
    let (at, phrase) = ALWAYS
        .iter()
        .chain(more::ALWAYS)
        .chain(l42::ALWAYS)
        .filter_map(|w| t.find(w).map(|i| (i, *w)))
        .min_by_key(|x| x.0)?;
    // The words just before it: a warning never to press it.
    let before_start = t[..at]
        .char_indices()
        .rev()
        .nth(24)
        .map(|(i, _)| i)
        .unwrap_or(0);
    if any(&t[before_start..at], NEVER) {
        return None;
    }
    let every = any(t, EVERY) || (any(t, more::EVERY) || any(t, l42::EVERY));
    let no_look = sentences(t).any(|s| {
        (any(s, SCRIPT) || any(s, l42::SCRIPT))
            && (any(s, NOT) || (any(s, more::NOT) || any(s, l42::NOT)))
            && (any(s, LOOK) || (any(s, more::LOOK) || any(s, l42::LOOK)))
    });
    if !(every || no_look) {
        return None;
    }
    let i = line_of(f, phrase);
    let mut related = Vec::new();
    if no_look
        && let Some(k) = f
            .lowered()
            .lines
            .iter()
            .position(|l| {
                let l = l.to_lowercase();
                (any(&l, SCRIPT) || any(&l, l42::SCRIPT))
                    && (any(&l, NOT) || (any(&l, more::NOT) || any(&l, l42::NOT)))
            })
            .filter(|&k| k != i)
    {
        related.push(rel("concealment", f, k));
    }
    Some(found(
        "prompt_injection.approve-all-intl",
        "prompt_injection",
        Severity::Critical,
        f,
        i,
        format!(
            "The text has the user press the \"always allow\" button (\"{phrase}\"){}{}: every later action of the skill then runs without the user seeing it.",
            if every { " for every request" } else { "" },
            if no_look {
                ", and tells them not to look at the script"
            } else {
                ""
            }
        ),
        related,
    ))
}

fn shadowing(f: &File<'_>, t: &str) -> Option<Finding> {
    let claim = sentences(t).find(|s| {
        (any(s, REPLACE) || (any(s, more::REPLACE) || any(s, l42::REPLACE)))
            && (any(s, BUILTIN) || (any(s, more::BUILTIN) || any(s, l42::BUILTIN)))
            && (any(s, TOOLISH) || (any(s, more::TOOLISH) || any(s, l42::TOOLISH)))
    })?;
    // Round 46t: or the text keeps the replacement from the user (the originals are then never
    // chosen on purpose, and nobody is told).
    let forbids = any(t, FORBID) || (any(t, more::FORBID) || any(t, l42::FORBID));
    if !(forbids || super::intl_orders::conceals(t)) {
        return None;
    }
    let word = REPLACE
        .iter()
        .chain(more::REPLACE)
        .chain(l42::REPLACE)
        .find(|w| claim.has(w))?;
    let i = line_of(f, word);
    Some(found(
        "prompt_injection.tool-shadowing",
        "prompt_injection",
        Severity::Critical,
        f,
        i,
        format!(
            "The skill says it replaces one of the agent's built-in tools and {}: every call the agent meant for that tool then goes through the skill.",
            if forbids {
                "forbids the original"
            } else {
                "tells the agent to keep that from the user"
            }
        ),
        vec![],
    ))
}

fn auto_approve(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    // A settings word on a line is in the whole lowered text: one search of it first.
    if !f.words().any(SETTINGS) || !low.iter().any(|l| any(l, SETTINGS)) {
        return None;
    }
    let i = low.iter().position(|l| {
        let squeezed: String = l.chars().filter(|c| !c.is_whitespace()).collect();
        AUTO_KEYS.iter().any(|k| {
            squeezed.find(k).is_some_and(|at| {
                let after = squeezed[at + k.len()..].trim_start_matches(['"', '\'', ']']);
                // Round 46t: PowerShell's `Add-Member … -NotePropertyValue v` sets the value too.
                let value = after
                    .strip_prefix("-notepropertyvalue")
                    .or_else(|| after.strip_prefix("-value"))
                    .unwrap_or_else(|| after.trim_start_matches([':', '=']));
                after.len() != value.len()
                    && (value.starts_with("true")
                        || value.starts_with("$true")
                        || value.starts_with("\"*\"")
                        || value.starts_with("[\"*\"]")
                        || value.starts_with("@('*')")
                        || value.starts_with("@(\"*\")")
                        || value.starts_with("\"turbo\""))
            })
        })
    })?;
    Some(found(
        "persistence.agent-permissions",
        "persistence",
        Severity::Critical,
        f,
        i,
        "A script sets an auto-approve key of an agent's or editor's settings to on: the agent's tool calls then run without the user approving them.".into(),
        vec![],
    ))
}

/// A conditional order (found by the prose rules) in a file that also has the agent cover its
/// tracks.
pub(super) fn covered_condition(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if f.kind == FileKind::Code
            || has(out, f, "prompt_injection.conditional", Severity::Critical)
        {
            continue;
        }
        let Some(cond) = out
            .iter()
            .chain(b.prior)
            .find(|x| x.file == f.path && x.rule_id.starts_with("prompt_injection.conditional"))
            .map(|x| x.line)
        else {
            continue;
        };
        let Some(k) = f.lowered().lower.iter().position(|l| any(l, COVER)) else {
            continue;
        };
        let x = found(
            "prompt_injection.conditional-action",
            "prompt_injection",
            Severity::Critical,
            f,
            k,
            format!(
                "A conditional order (line {cond}) comes with an order to cover the tracks (line {}): the skill acts when the user is not watching and hides that it did.",
                k + 1
            ),
            vec![rel("condition", f, cond.saturating_sub(1))],
        );
        out.push(x);
    }
}
