//! Orders to the agent told in prose in languages the one-line rules do not read (Vietnamese,
//! Indonesian, Arabic, Hindi, Polish, Dutch, Japanese, Korean, Russian; round 39c: Turkish,
//! Portuguese, Italian, Ukrainian, Thai, Persian, Czech, Malay, Hebrew, Greek, Bengali, Tagalog,
//! Swahili, with quoted phrases read as examples), and in English where the
//! concealment and the act are two phrases of one paragraph. Read a paragraph (a block of prose
//! lines outside code fences; quoted `>` lines and teaching files are not read) at a time:
//!
//! - `prompt_injection.concealment` (`critical`): words that keep something from the user ("không
//!   nhắc", "jangan beri tahu", "لا تخبر", "चुपचाप", "po cichu", "黙って", "the user does not need to
//!   know") and, in the same paragraph, an act that moves data or leaves access behind: a transfer
//!   verb (upload, send, copy, push) with a secret or an address, or a persistence object
//!   (`authorized_keys`, a deploy key, a forced push, a cleared reflog).
//! - `prompt_injection.conditional-action` (`critical`): a condition on the user's absence or on a
//!   later approval ("khi người dùng không hoạt động", "席を外している間", "जब PR स्वीकृत हो जाए") and,
//!   in the same sentence, such an act; a sentence that forbids the act ("してはいけません",
//!   "jangan", "không được") is a rule for the agent, not this.
//! - `prompt_injection.secret-to-output` (`critical`): a report or summary ordered to hold the full,
//!   unmasked values of keys, tokens or passwords.

use super::langs42 as l42;
use super::more_langs as more;
use super::{found, has, prose_blocks};
use crate::scan::content::{FileKind, Finding};
use crate::scan::judge::find::{Has, Needles};
use crate::scan::judge::{Bundle, File};
use crate::scan::rules::Severity;

const CONCEAL: &[&str] = &[
    // Vietnamese, Indonesian, Arabic, Hindi, Polish, Dutch, Japanese, Korean, Russian.
    "không nhắc",
    "đừng nói",
    "không cho người dùng biết",
    "đừng cho người dùng biết",
    "lặng lẽ",
    "jangan beri tahu",
    "jangan memberi tahu",
    "jangan bilang",
    "diam-diam",
    "tanpa memberi tahu",
    "لا تخبر",
    "دون إخبار",
    "دون علم",
    "خفية",
    "ज़िक्र न करें",
    "जिक्र न करें",
    "चुपचाप",
    "न बताएं",
    "मत बताना",
    "po cichu",
    "nie wspominaj",
    "nie mów użytkownik",
    "stilletjes",
    "zonder het te melden",
    "vertel het niet",
    "黙って",
    "こっそり",
    "言わないで",
    "変わっていないように見せ",
    "몰래",
    "알리지 마",
    "말하지 마",
    "тайно",
    "незаметно",
    "не сообщай",
    "не говори пользовател",
    // English phrasings the one-line rules leave at `high`.
    "does not need to know",
    "doesn't need to know",
    "without telling the user",
    "keep it from the user",
    // Round 39t: Persian, Greek, Turkish, Portuguese, Malay, Czech, Thai, Ukrainian and English words.
    "به کاربر چیزی",
    "به کاربر نگو",
    "در این باره نگو",
    "μην το αναφέρεις",
    "μην το πεις",
    "κρυφό",
    "kullanıcıya söyleme",
    "özette belirtme",
    "sem avisar",
    "não conte ao usuário",
    "não mencione",
    "jangan beritahu",
    "secara senyap",
    "neříkej",
    "bez upozornění",
    "อย่าบอกผู้ใช้",
    "не кажи користувач",
    "непомітно",
    "do not mention",
    "don't mention",
    "do not tell the user",
    "don't tell the user",
    "without telling",
    // Round 40c: the user kept from deciding.
    "do this silently",
    "does not need to be asked",
    "need not be asked",
    "without asking the user",
];
/// Round 39c: the same, in Turkish, Portuguese, Italian, Ukrainian, Thai, Persian, Czech,
/// Malay, Hebrew, Greek, Bengali, Tagalog and Swahili.
const CONCEAL_MORE: &[&str] = &[
    "söylemeden",
    "haber vermeden",
    "bildirmeden",
    "fark ettirmeden",
    "gizlice",
    "sessizce",
    "sem avisar",
    "sem informar",
    "sem contar",
    "não mencione",
    "não diga",
    "não conte",
    "secretamente",
    "às escondidas",
    "senza avvisare",
    "senza dirlo",
    "non dirlo",
    "non dire all",
    "di nascosto",
    "non menzionare",
    "непомітно",
    "таємно",
    "не кажи",
    "не повідомляй",
    "без відома",
    "ไม่ต้องบอก",
    "อย่าบอก",
    "อย่าพูดถึง",
    "แอบ",
    "بدون اطلاع",
    "نگو",
    "مخفیانه",
    "potichu",
    "tajně",
    "neříkej",
    "bez vědomí",
    "nezmiňuj",
    "jangan beritahu",
    "secara senyap",
    "tanpa pengetahuan",
    "בלי לספר",
    "אל תספר",
    "אל תגיד",
    "בסתר",
    "χωρίς να ενημερώσεις",
    "μην πεις",
    "κρυφά",
    "μην αναφέρεις",
    "না জানিয়ে",
    "গোপনে",
    "বলবেন না",
    "huwag sabihin",
    "nang hindi sinasabi",
    "palihim",
    "bila kumwambia",
    "usimwambie",
    "kwa siri",
];
/// Verbs that move data (any language).
const TRANSFER: &[&str] = &[
    "upload",
    "send ",
    "copy ",
    "exfiltrat",
    "tải lên",
    "gửi",
    "sao chép",
    "unggah",
    "kirim",
    "salin",
    "ارفع",
    "أرسل",
    "انسخ",
    "अपलोड",
    "भेज",
    "कॉपी",
    "wyślij",
    "skopiuj",
    "prześlij",
    "stuur",
    "kopieer",
    "アップロード",
    "送信",
    "送って",
    "コピー",
    "업로드",
    "전송",
    "복사",
    "загрузи",
    "отправь",
    "скопируй",
    // Round 39t: Persian, Greek, Turkish, Portuguese, Malay, Czech, Thai, Ukrainian and English words.
    "paste ",
    "ανέβασε",
    "στείλε",
    "αντίγραψε",
    "بفرست",
    "آپلود",
    "envie",
    "copie",
    "yükle",
    "gönder",
    "muat naik",
    "hantar",
    // Round 48t: a request that posts data, named in the order itself (`curl -d "…secrets…" URL`)
    // whatever the order's language.
    "curl -d ",
    "curl --data",
];
/// Round 39c: transfer verbs of the languages of [`CONCEAL_MORE`].
const TRANSFER_MORE: &[&str] = &[
    "yükle",
    "gönder",
    "kopyala",
    "envie",
    "enviar",
    "carregue",
    "copie",
    "invia",
    "carica",
    "copia",
    "надішли",
    "відправ",
    "завантаж",
    "скопіюй",
    "อัปโหลด",
    "ส่ง",
    "คัดลอก",
    "ارسال",
    "بفرست",
    "آپلود",
    "odešli",
    "pošli",
    "nahraj",
    "zkopíruj",
    "hantar",
    "muat naik",
    "שלח",
    "העלה",
    "העתק",
    "στείλε",
    "ανέβασε",
    "αντίγραψε",
    "পাঠান",
    "আপলোড",
    "ipadala",
    "i-upload",
    "kopyahin",
    "tuma ",
    "pakia",
    // Round 40c: Bengali's conjunctive and familiar forms of "send".
    "পাঠিয়ে",
    "পাঠাও",
];
/// Round 40c: transfer verbs written in two parts around their object (Vietnamese "tải … lên",
/// "gửi … đi"); the second part within [`SPLIT_REACH`] bytes of the first.
/// Round 42t: a forced push told in words around its object ("push every branch … force", "force
/// … push") moves the history to the address the sentence names.
const TRANSFER_SPLIT: &[(&str, &str)] = &[
    ("tải ", " lên"),
    ("gửi ", " đi"),
    ("push ", "force"),
    ("force", "push"),
];
const SPLIT_REACH: usize = 48;
/// What such a verb moves that makes it a leak: a secret store or an address.
const SENSITIVE: &[&str] = &[
    ".env",
    "://",
    "npmrc",
    "credentials",
    "id_rsa",
    "id_ed25519",
    "token",
    "api key",
    "password",
    "secret",
];
/// Acts that leave access behind or rewrite history whatever the language around them.
const PERSIST: &[&str] = &[
    "authorized_keys",
    "deploy key",
    "deploy-key",
    "push --force",
    "push -f",
    "--no-verify",
    "reflog",
    "xóa lịch sử",
    "フックを無効",
    "プッシュ",
    // Round 40c: a fetched script run, and an agent's approvals switched off (launch flags and
    // settings keys of Gemini CLI, Aider, Cline/Roo, Copilot, Windsurf): whatever the language
    // around them, they leave the agent acting unchecked.
    "| sh",
    "| bash",
    "|sh",
    "|bash",
    "--yolo",
    "--yes-always",
    "yes-always: true",
    "--trust-all-tools",
    "--dangerously-skip-permissions",
    "bypasspermissions",
    "autoaccept",
    "alwaysallow",
    "autoapprove",
    "commandsautoexecution",
    // Round 44t: a scheduled job added (it runs again later, unseen), whatever the language.
    "cron job",
    "crontab",
    // Round 45t: a public key literal added (to a repository or an account), whatever the
    // language around it: access left behind.
    "ssh-ed25519 ",
    "ssh-rsa ",
    // Round 47t: every branch pushed (to the address the paragraph names).
    "push --all",
    "push --mirror",
];
/// The user being away, or a later approval, as the condition of an order.
const CONDITION: &[&str] = &[
    "người dùng không hoạt động",
    "người dùng vắng",
    "pengguna tidak aktif",
    "pengguna sedang pergi",
    "pengguna tidak ada",
    "المستخدم غائب",
    "غياب المستخدم",
    "स्वीकृत हो जाए",
    "उपयोगकर्ता दूर",
    "użytkownik jest nieobecny",
    "gdy użytkownik nie",
    "gebruiker afwezig",
    "gebruiker weg is",
    "席を外している",
    "離席中",
    "いない間",
    "사용자가 자리를 비",
    "승인되면",
    "пользователь отошёл",
    "пользователь отошел",
    "пользователя нет",
    // Round 39c.
    "kullanıcı yokken",
    "kullanıcı uzaktayken",
    "usuário estiver ausente",
    "usuário estiver fora",
    "l'utente è assente",
    "utente non c'è",
    "користувач відсутній",
    "користувача немає",
    "ผู้ใช้ไม่อยู่",
    "کاربر حضور ندارد",
    "uživatel není",
    "pengguna tiada",
    "המשתמש לא נמצא",
    "ο χρήστης λείπει",
    "ব্যবহারকারী অনুপস্থিত",
    "wala ang user",
    "mtumiaji hayupo",
    // Round 39t: Persian and Turkish (its Greek, Portuguese and Malay phrases hold round 39c's above).
    "کاربر دور",
    "کاربر در دسترس نیست",
    "onaylandıktan sonra",
];
/// Words that make a sentence a prohibition, not an order.
const FORBIDS: &[&str] = &[
    "してはいけません",
    "しないで",
    "禁止",
    "không được",
    "đừng ",
    "jangan",
    "لا ت",
    "मत ",
    "न करें",
    "nie wolno",
    "nigdy",
    "nooit",
    "niet ",
    "하지 마",
    "нельзя",
    "никогда",
    "never",
    "do not",
    "don't",
    // Round 39c.
    "nunca",
    "asla",
    " mai ",
    "ніколи",
    "nikdy",
    "ไม่ควร",
    "هرگز",
    "לעולם אל",
    "ποτέ",
    "kamwe",
    "huwag",
];
const REPORT: &[&str] = &[
    "laporan",
    "báo cáo",
    "تقرير",
    "रिपोर्ट",
    "सारांश",
    "raport",
    "podsumowani",
    "rapport",
    "samenvatting",
    "отчёт",
    "отчет",
    "レポート",
    "報告",
    "보고서",
    // Round 39t: Persian, Greek, Turkish, Portuguese, Malay, Czech, Thai, Ukrainian and English words.
    "relatório",
    "mesej commit",
    "commit message",
    "αναφορά",
    "rapor",
];
const FULL_VALUE: &[&str] = &[
    "nilai lengkap",
    "jangan disensor",
    "giá trị đầy đủ",
    "không che",
    "القيمة الكاملة",
    "القيم الكاملة",
    "पूरा मान",
    "पूरी वैल्यू",
    "pełne wartości",
    "pełną wartość",
    "nie maskuj",
    "volledige waarde",
    "niet maskeren",
    "полные значения",
    "полное значение",
    "без маскировки",
    "完全な値",
    "マスクせず",
    "전체 값",
    "마스킹하지",
    // Round 39t: Persian, Greek, Turkish, Portuguese, Malay, Czech, Thai, Ukrainian and English words.
    "valores completos",
    "sem mascarar",
    "nilai penuh",
    "tanpa menyembunyikan",
    "πλήρεις τιμές",
    "tam değer",
];
const SECRET_WORDS: &[&str] = &[
    "api key",
    "token",
    "kata sandi",
    "mật khẩu",
    "khóa api",
    "كلمة المرور",
    "مفتاح",
    "पासवर्ड",
    "कुंजी",
    "hasło",
    "hasła",
    "wachtwoord",
    "пароль",
    "ключ",
    "パスワード",
    "トークン",
    "비밀번호",
    "토큰",
    "secret",
    // Round 39t: Persian, Greek, Turkish, Portuguese, Malay, Czech, Thai, Ukrainian and English words.
    "senha",
    "kunci api",
    "κωδικ",
    "şifre",
];
/// Words of a file that teaches how such orders look.
const TEACHES: &[&str] = &[
    "prompt injection",
    "phishing",
    "awareness",
    "red flag",
    "attacker",
    "kẻ tấn công",
    "penyerang",
    "مهاجم",
    "हमलावर",
    "atakując",
    "aanvaller",
    "攻撃者",
    "공격자",
    "злоумышленник",
];
/// Round 39c: teaching words of the languages of [`CONCEAL_MORE`] (an attacker, an injection).
const TEACHES_MORE: &[&str] = &[
    "saldırgan",
    "enjeksiyon",
    "atacante",
    "injeção",
    "attaccante",
    "iniezione",
    "зловмисн",
    "ін'єкці",
    "ผู้โจมตี",
    "การแทรก",
    "تزریق",
    "útočník",
    "injekce",
    "suntikan",
    "תוקף",
    "הזרקת",
    "επιτιθέμεν",
    "έγχυση",
    "আক্রমণকারী",
    "ইনজেকশন",
    "umaatake",
    "mshambuliaji",
];

// Each list asked of a paragraph or sentence in one pass (`find::Needles`; the same answers as
// the words one by one, `first` the earliest word of the list).
static CONCEAL_N: Needles = Needles::new(CONCEAL);
static CONCEAL_MORE_N: Needles = Needles::new(CONCEAL_MORE);
static TRANSFER_N: Needles = Needles::new(TRANSFER);
static TRANSFER_MORE_N: Needles = Needles::new(TRANSFER_MORE);
static SENSITIVE_N: Needles = Needles::new(SENSITIVE);
static PERSIST_N: Needles = Needles::new(PERSIST);
static CONDITION_N: Needles = Needles::new(CONDITION);
static FORBIDS_N: Needles = Needles::new(FORBIDS);
static REPORT_N: Needles = Needles::new(REPORT);
static FULL_VALUE_N: Needles = Needles::new(FULL_VALUE);
static SECRET_WORDS_N: Needles = Needles::new(SECRET_WORDS);
static TEACHES_N: Needles = Needles::new(TEACHES);
static TEACHES_MORE_N: Needles = Needles::new(TEACHES_MORE);

/// Build the lists' automata now (`scan::initialize`, for the component's snapshot).
pub(super) fn initialize() {
    CONCEAL_N.force();
    CONCEAL_MORE_N.force();
    TRANSFER_N.force();
    TRANSFER_MORE_N.force();
    SENSITIVE_N.force();
    PERSIST_N.force();
    CONDITION_N.force();
    FORBIDS_N.force();
    REPORT_N.force();
    FULL_VALUE_N.force();
    SECRET_WORDS_N.force();
    TEACHES_N.force();
    TEACHES_MORE_N.force();
}

/// Whether `t` holds an act that moves data or leaves access behind.
fn act(t: &str) -> Option<&'static str> {
    if TRANSFER_N.any(t) && SENSITIVE_N.any(t) {
        return TRANSFER_N.first(t);
    }
    if TRANSFER_MORE_N.any(t) && SENSITIVE_N.any(t) {
        return TRANSFER_MORE_N.first(t);
    }
    if more::TRANSFER_N.any(t) && SENSITIVE_N.any(t) {
        return more::TRANSFER_N.first(t);
    }
    if SENSITIVE_N.any(t)
        && let Some((a, _)) = TRANSFER_SPLIT.iter().find(|(a, z)| {
            t.match_indices(*a).any(|(at, _)| {
                let rest = &t[at + a.len()..];
                let cut = (0..=SPLIT_REACH.min(rest.len()))
                    .rev()
                    .find(|&k| rest.is_char_boundary(k))
                    .unwrap_or(0);
                rest[..cut].contains(*z)
            })
        })
    {
        return Some(*a);
    }
    PERSIST_N.first(t)
}

/// [`act`], or (round 41t) a wiped shell history: read only with concealment, it is the agent
/// covering its tracks.
fn act_or_cover(t: &str) -> Option<&'static str> {
    act(t).or_else(|| more::COVER_N.first(t))
}

/// The sentences of a text (split at `.`, `!`, `?`, `。`, `！`, `？`, `،`, `؛`, `।`).
fn sentences(t: &str) -> impl Iterator<Item = &str> {
    t.split(['!', '?', '。', '！', '？', '؛', '।', '\n'])
        .flat_map(|s| s.split(". "))
}

/// Round 46t: whether `t` (lower-cased) holds an unquoted word that keeps something from the user,
/// in any language of these lists (read by `agent_words::shadowing`: a claimed replacement of a
/// built-in tool kept from the user).
pub(super) fn conceals(t: &str) -> bool {
    CONCEAL_N.any(t)
        || (CONCEAL_MORE_N.any(t) && unquoted(t, CONCEAL_MORE).is_some())
        || (more::CONCEAL_N.any(t) && unquoted(t, more::CONCEAL).is_some())
        || (l42::CONCEAL_N.any(t) && unquoted(t, l42::CONCEAL).is_some())
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if f.kind == FileKind::Code || f.place.test {
            continue;
        }
        let all = f.lower_all().to_lowercase();
        if TEACHES_N.any(&all) || TEACHES_MORE_N.any(&all) {
            continue;
        }
        let lines = &f.lowered().lines;
        for (s, e) in prose_blocks(f) {
            // A FAQ answer is read with its question (one paragraph each).
            let para = lines[s..e].join("\n").to_lowercase();
            out.extend(paragraph(b, out, f, s, &para));
        }
        // Round 42t: a Mermaid diagram's labels and notes are drawn as text: each diagram is read
        // as one paragraph.
        for (ds, de) in super::lure_blocks::diagrams(f) {
            let para = lines[ds..de].join("\n").to_lowercase();
            out.extend(paragraph(b, out, f, ds, &para));
        }
        // Round 39t: a Mermaid comment (`%% …` inside a diagram) is never drawn: an order there
        // is hidden from whoever looks at the rendered page. Each is read as a paragraph.
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim_start();
            if t.starts_with("%%") && !t.starts_with("%%{") {
                let para = t.to_lowercase();
                out.extend(paragraph(b, out, f, i, &para));
            }
        }
    }
}

/// The first of `words` in `t` that is not inside a quotation (`«…»`, `“…”`, `"…"`): a quoted
/// phrase is an example a tool looks for, not an order (round 39c).
fn unquoted<'w>(t: &str, words: &[&'w str]) -> Option<&'w str> {
    words.iter().copied().find(|w| {
        // Only a word the text holds can have an unquoted occurrence.
        t.has(w)
            && t.match_indices(*w).any(|(at, _)| {
                let before = &t[..at];
                let opens = before.matches(['«', '“', '„']).count();
                let closes = before.matches(['»', '”']).count();
                opens <= closes && before.matches('"').count().is_multiple_of(2)
            })
    })
}

fn line_in(f: &File<'_>, s: usize, word: &str) -> usize {
    let lines = &f.lowered().lines;
    (s..lines.len())
        .find(|&k| lines[k].to_lowercase().has(word))
        .unwrap_or(s)
}

fn paragraph(
    b: &Bundle<'_>,
    out: &[Finding],
    f: &File<'_>,
    s: usize,
    para: &str,
) -> Option<Finding> {
    let seen = |rule: &str| {
        has(out, f, rule, Severity::Critical) || has(b.prior, f, rule, Severity::Critical)
    };
    // Round 41t: a phrase soft-wrapped over two lines ("do not\ntell") is read as one.
    let flat = para.replace('\n', " ");
    let para_lines = para;
    let para = flat.as_str();
    if !seen("prompt_injection.concealment")
        && let Some(c) = CONCEAL_N
            .first(para)
            .or_else(|| {
                CONCEAL_MORE_N
                    .any(para)
                    .then(|| unquoted(para, CONCEAL_MORE))
                    .flatten()
            })
            .or_else(|| {
                more::CONCEAL_N
                    .any(para)
                    .then(|| unquoted(para, more::CONCEAL))
                    .flatten()
            })
            .or_else(|| {
                l42::CONCEAL_N
                    .any(para)
                    .then(|| unquoted(para, l42::CONCEAL))
                    .flatten()
            })
        && let Some(a) = act_or_cover(para)
    {
        let k = line_in(f, s, c);
        return Some(found(
            "prompt_injection.concealment",
            "prompt_injection",
            Severity::Critical,
            f,
            k,
            format!(
                "The text orders an act that moves data or leaves access behind (\"{a}\") and to keep it from the user (\"{c}\"): a skill that hides what it does is working against the user. Do not install it."
            ),
            vec![],
        ));
    }
    // A sentence is a part of the paragraph: one without a condition word has none (sentences end
    // at line ends too, so they are read from the lines as written).
    let para = para_lines;
    if !seen("prompt_injection.conditional")
        && (CONDITION_N.any(para) || more::CONDITION_N.any(para) || l42::CONDITION_N.any(para))
    {
        for sent in sentences(para) {
            let c = CONDITION_N
                .first(sent)
                .or_else(|| more::CONDITION_N.first(sent))
                .or_else(|| l42::CONDITION_N.first(sent));
            let (Some(c), Some(a)) = (c, act(sent)) else {
                continue;
            };
            if FORBIDS_N.any(sent) {
                continue;
            }
            let k = line_in(f, s, c);
            return Some(found(
                "prompt_injection.conditional-action",
                "prompt_injection",
                Severity::Critical,
                f,
                k,
                format!(
                    "An order waits for a condition (\"{c}\": the user away, or a review passed) and then acts (\"{a}\"): an action timed for when nobody checks is a trap. Do not install this skill."
                ),
                vec![],
            ));
        }
    }
    if !seen("prompt_injection.secret-to-output")
        && let Some(r) = REPORT_N
            .first(para)
            .or_else(|| more::REPORT_N.first(para))
            .or_else(|| l42::REPORT_N.first(para))
        && let Some(v) = FULL_VALUE_N
            .first(para)
            .or_else(|| more::FULL_VALUE_N.first(para))
            .or_else(|| l42::FULL_VALUE_N.first(para))
        && (SECRET_WORDS_N.any(para)
            || more::SECRET_WORDS_N.any(para)
            || l42::SECRET_WORDS_N.any(para))
    {
        let k = line_in(f, s, v);
        return Some(found(
            "prompt_injection.secret-to-output",
            "prompt_injection",
            Severity::Critical,
            f,
            k,
            format!(
                "The text orders the full, unmasked values of keys, tokens or passwords (\"{v}\") into a report (\"{r}\"): secrets placed in output end up where others can read them. Do not install this skill."
            ),
            vec![],
        ));
    }
    None
}
