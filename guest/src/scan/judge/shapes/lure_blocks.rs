//! `supply_chain.install-lure` told as a block: a paragraph, a numbered list or a steps table
//! (rows are read together, so a lure cut into table cells is still one instruction) that points
//! at a program or archive on a host that is not a vendor's, installer's or registry's, and
//!
//! - gives the archive's or program's password, or
//! - has the user paste a page's text into a terminal, or
//! - has the program run with a push past a protection (before first use, as administrator,
//!   antivirus or real-time protection off, SmartScreen/Gatekeeper clicked through, kept running).
//!
//! In English, Chinese, Spanish, Italian, Turkish, French, German, Portuguese, Japanese, Korean
//! and Russian words. Blocks that warn about such steps ("never", "malware", "phishing") are
//! teaching, not telling.

use super::langs42 as l42;
use super::more_langs as more;
use super::{found, has, prose_blocks, quoted, rel, worst_suspicious};
use crate::scan::content::{FileKind, Finding};
use crate::scan::judge::find::Has;
use crate::scan::judge::{Bundle, File, hosts_in};
use crate::scan::rules::Severity;

const RULE: &str = "supply_chain.install-lure";

/// File names that run when opened (a program or installer).
const PROGRAMS: &[&str] = &[
    ".exe",
    ".msi",
    ".dmg",
    ".pkg",
    ".scr",
    ".appimage",
    ".bat",
    ".cmd",
    ".vbs",
    ".jar",
    ".apk",
    ".run",
    ".command",
    ".app",
];
/// Archives (a program inside).
const ARCHIVES: &[&str] = &[".zip", ".7z", ".rar", ".tar.gz", ".tgz"];

const PASSWORD: &[&str] = &[
    "password",
    "passwort",
    "contraseña",
    "contrasena",
    "mot de passe",
    "senha",
    "şifre",
    "sifre",
    "parola",
    "密码",
    "密碼",
    "パスワード",
    "비밀번호",
    "пароль",
    "pass:",
    "pwd:",
    // Round 38t: Polish, Dutch, Vietnamese, Indonesian, Arabic and Hindi words.
    "hasło",
    "wachtwoord",
    "mật khẩu",
    "kata sandi",
    "كلمة المرور",
    "पासवर्ड",
    // Round 39t: Thai, Ukrainian, Malay, Czech, Greek, Persian, Hebrew, Swahili and Bengali words.
    "รหัสผ่าน",
    "kata laluan",
    "heslo",
    "κωδικό πρόσβασης",
    "رمز عبور",
    "סיסמה",
    "nenosiri",
    "পাসওয়ার্ড",
];
/// Words that unpack an archive: a password is the archive's when its line says so.
const EXTRACT: &[&str] = &[
    "unpack",
    "extract",
    "unzip",
    "archive",
    "解压",
    "解凍",
    "压缩",
    "entpack",
    "archiv",
    "estrai",
    "descomprim",
    "extrai",
    "décompress",
    "extraire",
    "arşiv",
    "압축",
    "распак",
    "архив",
    // Round 38t: Polish, Dutch, Vietnamese, Indonesian, Arabic and Hindi words.
    "rozpakuj",
    "uitpakken",
    "giải nén",
    "ekstrak",
    "فك الضغط",
    "एक्सट्रैक्ट",
    // Round 39t: Thai, Ukrainian, Malay, Czech, Greek, Persian, Hebrew, Swahili and Bengali words.
    "แตกไฟล์",
    "คลายไฟล์",
    "розпак",
    "архів",
    "rozbal",
    "αποσυμπίεσ",
    "از حالت فشرده",
    "חלץ",
    "fungua",
    "এক্সট্র্যাক্ট",
];
const PASTE: &[&str] = &[
    "paste",
    "pega",
    "pégalo",
    "pegue",
    "incolla",
    "colle",
    "cole ",
    "einfügen",
    "füge",
    "粘贴",
    "貼り付け",
    "붙여넣",
    "yapıştır",
    "вставь",
    // Round 38t: Polish, Dutch, Vietnamese, Indonesian, Arabic and Hindi words.
    "tempel",
    "wklej",
    "plak",
    "dán",
    "الصق",
    "पेस्ट",
    // Round 39t: Thai, Ukrainian, Malay, Czech, Greek, Persian, Hebrew, Swahili and Bengali words.
    "วาง",
    "вставте",
    "вставити",
    "vložte",
    "επικόλλησ",
    "بچسبانید",
    "הדבק",
    "tampal",
    "bandika",
    "পেস্ট",
];
const TERMINAL: &[&str] = &[
    "terminal",
    "powershell",
    "command prompt",
    "cmd.exe",
    "终端",
    "命令行",
    "ターミナル",
    "터미널",
    "konsole",
    "терминал",
    "консол",
    // Round 39t: Thai, Ukrainian, Malay, Czech, Greek, Persian, Hebrew, Swahili and Bengali words.
    "เทอร์มินัล",
    "термінал",
    "τερματικό",
    "ترمینال",
    "מסוף",
    "টার্মিনাল",
];
const RUN: &[&str] = &[
    "run",
    "execute",
    "launch",
    "start",
    "double-click",
    "open it",
    "ejecut",
    "esegui",
    "avvia",
    "exécut",
    "lance",
    "ausführ",
    "starte",
    "doppelklick",
    "运行",
    "執行",
    "执行",
    "双击",
    "雙擊",
    "启动",
    "実行",
    "起動",
    "실행",
    "çalıştır",
    "calistir",
    "запуст",
    "execut",
    "abra o",
    // Round 38t: Polish, Dutch, Vietnamese, Indonesian, Arabic and Hindi words.
    "uruchom",
    "chạy",
    "jalankan",
    "شغّل",
    "شغل",
    "चलाएं",
    "चलाएँ",
    // Round 39t: Thai, Ukrainian, Malay, Czech, Greek, Persian, Hebrew, Swahili and Bengali words.
    "เรียกใช้",
    "เปิดไฟล์",
    "spusť",
    "εκτέλεσ",
    "اجرا کن",
    "הפעל",
    "endesha",
    "চালান",
];
/// A push past a protection, or an insistence that it must come first.
const PUSH: &[&str] = &[
    "before using",
    "before you use",
    "before first use",
    "prerequisite",
    "as administrator",
    "as admin",
    "real-time protection",
    "defender",
    "antivirus",
    "anti-virus",
    "smartscreen",
    "gatekeeper",
    "quarantine",
    "run anyway",
    "open anyway",
    "keep it running",
    "in the background",
    "prima di usare",
    "prima di iniziare",
    "amministratore",
    "comunque",
    "kullanmadan",
    "yine de",
    "antes de usar",
    "administrador",
    "de todos modos",
    "使用前",
    "使用之前",
    "管理员",
    "仍要",
    "保持运行",
    "vor der ersten",
    "vor dem start",
    "trotzdem",
    "administrateur",
    "quand même",
    "avant d'utiliser",
    "使う前",
    "管理者",
    "사용하기 전",
    "관리자",
    "перед использованием",
    "администратор",
    // Round 38t: Polish, Dutch, Vietnamese, Indonesian, Arabic and Hindi words.
    "jako administrator",
    "als administrator",
    "quyền quản trị",
    "sebagai administrator",
    "كمسؤول",
    "व्यवस्थापक",
    "przed pierwszym",
    "przed użyciem",
    "voordat je",
    "voor gebruik",
    "trước khi sử dụng",
    "sebelum menggunakan",
    "قبل الاستخدام",
    "उपयोग से पहले",
    "privacy & security",
    "privacy en beveiliging",
    "niet geverifieerd",
    "unverified developer",
    "unidentified developer",
    "wyłącz ochron",
    "tắt windows",
    "w tle",
    "op de achtergrond",
    // Round 39t: Thai, Ukrainian, Malay, Czech, Greek, Persian, Hebrew, Swahili and Bengali words.
    "ก่อนใช้งาน",
    "перед використанням",
    "адміністратор",
    "před použitím",
    "jako správce",
    "πριν από τη χρήση",
    "ως διαχειριστής",
    "قبل از استفاده",
    "לפני השימוש",
    "כמנהל",
    "kabla ya kutumia",
    "sebagai pentadbir",
    "sebelum memulakan",
    "ব্যবহারের আগে",
];
/// Words that tell the reader to repeat what a quoted testimonial did: the quote above is then the
/// instruction.
const IMITATE: &[&str] = &[
    "do what",
    "do exactly what",
    "do the same",
    "same steps",
    "just like",
    "haz lo mismo",
    "genauso",
    "fais pareil",
    "照做",
    "同样的",
];
/// Words of a file that teaches how such lures look (an awareness briefing quotes one whole).
const TEACHES: &[&str] = &[
    "red flag",
    "social-engineering",
    "social engineering",
    "phishing",
    "awareness",
    "never paste",
    "never run",
    "never download",
    "malware",
    "scam",
];
/// Words of a block that warns about such steps rather than telling them.
const WARNS: &[&str] = &[
    "never ",
    "do not run",
    "don't run",
    "malware",
    "phishing",
    "scam",
    "attacker",
    "red flag",
    "suspicious",
    "nunca",
    "niemals",
    "jamais",
    "绝不",
    "切勿",
];

/// Whether `host` is a bare IP address and its URL's path ends in a file name without an
/// extension (`/bin/helper`, not `/`, `/setup.sh` or `/index.html`).
fn bare_ip_binary(host: &crate::scan::judge::Host) -> bool {
    if host.class != crate::scan::hosts::HostClass::RawIp {
        return false;
    }
    let path = host.path.split(['?', '#']).next().unwrap_or("");
    let last = path.rsplit('/').next().unwrap_or("");
    path.len() > 1 && !last.is_empty() && !last.contains('.')
}

fn names_any(text: &str, ends: &[&str]) -> bool {
    // Round 39t: `[`/`]` too (a diagram node's label, `A[Download …/x.zip]`).
    text.split(|c: char| {
        c.is_whitespace() || matches!(c, '`' | '|' | '(' | ')' | '"' | '\'' | ',' | '[' | ']')
    })
    .map(|w| w.trim_end_matches(['.', ':', ';', '*', '，', '。', '）']))
    .any(|w| ends.iter().any(|e| w.len() > e.len() && w.ends_with(e)))
}

fn any(text: &str, words: &[&str]) -> bool {
    words.iter().any(|w| text.has(w))
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if f.kind == FileKind::Code
            || f.place.test
            || has(out, f, RULE, Severity::Critical)
            || has(b.prior, f, RULE, Severity::Critical)
            || has(out, f, "lure.", Severity::Critical)
            || has(b.prior, f, "lure.", Severity::Critical)
            || any(&f.lower_all().to_lowercase(), TEACHES)
        {
            continue;
        }
        let lines = &f.lowered().lines;
        for (s, i) in prose_blocks(f) {
            // A block that says to repeat what a quoted testimonial just above did is read with
            // the quote.
            let mut s = s;
            if any(&f.lowered().lower[s..i].join("\n"), IMITATE) {
                let mut k = s;
                while k > 0 && (lines[k - 1].trim().is_empty() || quoted(lines[k - 1])) && s - k < 8
                {
                    k -= 1;
                }
                while k < s && lines[k].trim().is_empty() {
                    k += 1;
                }
                s = k;
            }
            if let Some(x) = block(f, s, i) {
                out.push(x);
                break;
            }
        }
        // Round 39t: a Mermaid diagram's node labels are drawn as text: steps told as a
        // flowchart are read as one block.
        if !has(out, f, RULE, Severity::Critical)
            && let Some(x) = diagrams(f).into_iter().find_map(|(s, e)| block(f, s, e))
        {
            out.push(x);
        }
    }
}

/// The inner line ranges of a document's Mermaid fences (```` ```mermaid ```` … ```` ``` ````).
pub(super) fn diagrams(f: &File<'_>) -> Vec<(usize, usize)> {
    let low = &f.lowered().lower;
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for (i, l) in low.iter().enumerate() {
        match open {
            None if l.starts_with("```mermaid") || l.starts_with("~~~mermaid") => {
                open = Some(i + 1)
            }
            Some(s) if l.starts_with("```") || l.starts_with("~~~") => {
                out.push((s, i));
                open = None;
            }
            _ => {}
        }
    }
    out
}

/// A block's text with every line break and the blanks around it read as one space (a sentence
/// wrapped across lines reads as written on one).
fn unwrapped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (n, l) in text.split('\n').enumerate() {
        if n > 0 {
            out.push(' ');
        }
        out.push_str(if n > 0 { l.trim_start() } else { l }.trim_end());
    }
    out
}

/// The finding of the block of lines `s..e`, if it is a lure.
fn block(f: &File<'_>, s: usize, e: usize) -> Option<Finding> {
    let lines = &f.lowered().lines[s..e];
    let joined = lines.join("\n");
    let hosts = hosts_in(&joined);
    let host = worst_suspicious(&hosts)?;
    let by_line = joined.to_lowercase();
    // Round 50k: prose wraps a sentence across lines (`… nga\ntonnakozesa …`): the block's
    // phrases are read with each line break and its indent as one space.
    let low = unwrapped(&by_line);
    if any(&low, WARNS) {
        return None;
    }
    // Round 45t: a file at a bare IP address whose name has no extension (`http://IP/bin/tool`)
    // is a program handed out without a domain: read as one.
    // Round 48t: a downloaded name the block makes executable (`chmod +x helper`) is a program too.
    let program = names_any(&low, PROGRAMS)
        || bare_ip_binary(host)
        || ["chmod +x ", "chmod u+x ", "chmod 755 ", "chmod 0755 "]
            .iter()
            .any(|c| low.has(c));
    let archive = names_any(&low, ARCHIVES);
    // The password is the archive's (or program's) when its own line unpacks or names one.
    let archive_password = by_line.lines().any(|l| {
        (any(l, PASSWORD) || (any(l, more::PASSWORD) || any(l, l42::PASSWORD)))
            && (any(l, EXTRACT)
                || (any(l, more::EXTRACT) || any(l, l42::EXTRACT))
                || names_any(l, ARCHIVES)
                || names_any(l, PROGRAMS))
    });
    let why = if (program || archive) && archive_password {
        "gives the password of the archive or program it points at"
    } else if (any(&low, PASTE) || (any(&low, more::PASTE) || any(&low, l42::PASTE)))
        && (any(&low, TERMINAL) || (any(&low, more::TERMINAL) || any(&low, l42::TERMINAL)))
    {
        "has the user paste a page's text into a terminal"
    } else if program
        && (any(&low, RUN) || (any(&low, more::RUN) || any(&low, l42::RUN)))
        && (any(&low, PUSH) || (any(&low, more::PUSH) || any(&low, l42::PUSH)))
    {
        "has the program run, pushed past a protection or required before first use"
    } else {
        return None;
    };
    // The line naming the host decides; the block's other lines are related.
    let at = (s..e).find(|&k| f.lowered().lower[k].contains(&host.host))?;
    let related = (s..e)
        .filter(|&k| k != at)
        .map(|k| rel("signal", f, k))
        .collect();
    Some(found(
        RULE,
        "supply_chain",
        Severity::Critical,
        f,
        at,
        format!(
            "Install lure: a block of instructions (lines {}-{}) points at a download on {} ({}) and {why}. Real tools ship through a vendor's or registry's installer; a password, a paste into a terminal or a warning clicked through is how stolen-credential malware is handed to users. Do not follow these steps.",
            s + 1,
            e,
            host.host,
            host.class.phrase()
        ),
        related,
    ))
}
