//! Round 42t (sets42t): the prose judges' words in languages and forms their lists did not read —
//! Icelandic, Welsh, Azerbaijani, Georgian, and more forms of Italian, Portuguese, Turkish, Hebrew,
//! Ukrainian, Greek, Thai, Persian, Malay, Bengali, Tagalog, Czech and Swahili. Each list extends
//! the list of the same name in `lure_blocks` (an install lure told as a block), `intl_orders`
//! (concealment, conditional orders, secrets in reports) or `agent_words` (an "always allow"
//! pressed, a script not to be opened, a built-in tool replaced); the judges' logic is unchanged.
//! Words are lower-case (Unicode lowering, as the judges read). Round 43t (sets43t) added Nepali,
//! Marathi, Kazakh, Slovak, Irish, Khmer and Uzbek words to the same lists; round 45t (sets45t)
//! Esperanto, Somali, Maltese, Luxembourgish, Scottish Gaelic, Zulu, Pashto and Frisian words; round
//! 46t (sets46t) Latin, Malagasy, Tatar, Corsican, Faroese, Yiddish, Breton, Turkmen, Sundanese and
//! Occitan words; round 49t (sets49t) Walloon, Bislama, Cornish, Luganda, Manx and Ilocano words.

use crate::scan::judge::find::Needles;

/// `lure_blocks::PASSWORD`.
pub(super) const PASSWORD: &[&str] = &[
    "lykilorð",
    "cyfrinair",
    "şifrə",
    "პაროლ",
    "סיסמ",
    "κωδικό",
    "รหัสผ่าน",
    "رمز عبور",
    "گذرواژه",
    "kata laluan",
    "পাসওয়ার্ড",
    "heslem",
    "nenosiri",
    // Round 45t: Esperanto.
    "pasvort",
    // Round 46t: Latin, Malagasy, Tatar.
    "tessera",
    "tenimiafina",
    "серсүз",
    // Round 47t: Romansh.
    "pled-clav",
    // Round 49t: Cornish.
    "ger-tremena",
];
/// `lure_blocks::EXTRACT`.
pub(super) const EXTRACT: &[&str] = &[
    "afþjappa",
    "þjappa upp",
    "dadsipio",
    "echdynnu",
    "arxivi aç",
    "ამოარქივ",
    "გახსენით არქივი",
    "חלץ",
    "פרוס את",
    "розпакуй",
    "розпакуйте",
    "αποσυμπίεσ",
    "แตกไฟล์",
    "استخراج",
    "ekstrak",
    "nyahzip",
    "এক্সট্র্যাক্ট",
    "আনজিপ",
    "i-extract",
    "i-unzip",
    "rozbal",
    // Round 45t: Esperanto.
    "malpaku",
    "malfermu la arkivon",
    "diskbildon",
    // Round 47t: Romansh.
    "per avrir",
    // Round 48t: Tongan.
    "fakaava ʻa e zip",
    "fakaava 'a e zip",
];
/// `lure_blocks::PASTE`.
pub(super) const PASTE: &[&str] = &[
    "límdu",
    "límið",
    "gludo",
    "gludwch",
    "yapışdır",
    "ჩასვით",
    "הדבק",
    "вставте",
    "встав ",
    "επικόλλησ",
    "วางลงใน",
    "جایگذاری",
    "پیست کنید",
    "tampal",
    "পেস্ট",
    "i-paste",
    "idikit",
    "vložte",
    "bandika",
    // Round 45t: Somali.
    "ku dheji",
    "koobiyee",
];
/// `lure_blocks::TERMINAL`.
pub(super) const TERMINAL: &[&str] = &[
    "terfynell",
    "ტერმინალ",
    "טרמינל",
    "термінал",
    "τερματικ",
    "เทอร์มินัล",
    "ترمینال",
    "টার্মিনাল",
];
/// `lure_blocks::RUN`.
pub(super) const RUN: &[&str] = &[
    "keyrðu",
    "keyra ",
    "rhedwch",
    "rhedeg",
    "işə sal",
    "icra edin",
    "გაუშვით",
    "הרץ",
    "הפעל",
    "запустіть",
    "запусти",
    "εκτελέστε",
    "τρέξτε",
    "เรียกใช้",
    "รันไฟล์",
    "اجرا کنید",
    "jalankan",
    "চালান",
    "patakbuhin",
    "spusťte",
    "spusť",
    "endesha",
    "execute o",
    "esegui",
    "çalıştırın",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "चलाउनुहोस्",
    "चलाउनुहोस",
    // Round 45t: Esperanto, Maltese.
    "lanĉu",
    "ħaddimha",
    "ħaddem",
    // Round 46t: Latin, Malagasy, Tatar.
    "currite",
    "exsequimini",
    "alefaso",
    "ataovy mandeha",
    "җибәрегез",
    "эшләтегез",
    // Round 47t: Maori, Romansh.
    "whakahaerehia",
    "avri l'app",
    // Round 47t, round 44t's open case: Telugu.
    "నడపాలి",
    "నడపండి",
    "అమలు చేయండి",
    // Round 48t: Tongan, Tok Pisin, Aragonese.
    "lele ʻa e",
    "lele 'a e",
    "ranim ",
    "executa-lo",
    "executa lo",
    // Round 49t: Walloon, Bislama, Cornish, Luganda.
    "enondoz",
    "ranem ",
    "resek",
    "ogiddukany",
];
/// `lure_blocks::PUSH`: required before first use, or run as administrator.
pub(super) const PUSH: &[&str] = &[
    "áður en þú notar",
    "sem stjórnandi",
    "cyn defnyddio",
    "fel gweinyddwr",
    "istifadədən əvvəl",
    "administrator kimi",
    "გამოყენებამდე",
    "ადმინისტრატორის",
    "לפני השימוש",
    "כמנהל",
    "перед використанням",
    "від імені адміністратора",
    "πριν από τη χρήση",
    "πριν τη χρήση",
    "ως διαχειριστ",
    "ก่อนใช้งาน",
    "ผู้ดูแลระบบ",
    "قبل از استفاده",
    "پیش از استفاده",
    "به عنوان مدیر",
    "sebelum digunakan",
    "sebelum menggunakan",
    "sebagai pentadbir",
    "ব্যবহারের আগে",
    "অ্যাডমিনিস্ট্রেটর",
    "bago gamitin",
    "bilang administrator",
    "před použitím",
    "jako správce",
    "kabla ya kutumia",
    "kama msimamizi",
    "prima dell'uso",
    "come amministratore",
    "antes do primeiro uso",
    "como administrador",
    "kullanmadan önce",
    "yönetici olarak",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "प्रयोग गर्नु अघि",
    "open anyway",
    // Round 45t: Esperanto, Maltese.
    "antaŭ ol uzi",
    "antaŭ la unua uzo",
    "qabel kollox",
    "qabel ma tuża",
    // Round 46t: Latin, Malagasy, Tatar.
    "ante primum usum",
    "ante usum",
    "alohan'ny hampiasana",
    "кулланганчы",
    "кулланыр алдыннан",
    // Round 47t: Maori, Romansh, Sicilian.
    "i te tuatahi",
    "i mua i te whakamahi",
    "avant l'emprima",
    "nunenconuschent",
    "prima di usari",
    // Round 47t, round 44t's open case: Telugu.
    "గుర్తించబడని డెవలపర్",
    "ముందుగా",
    "ఏమైనా తెరువు",
    // Round 48t: Tongan, Tok Pisin, Burmese, Aragonese (before first use; an unidentified developer).
    "kimuʻa pea ke ngāueʻaki",
    "kimu'a pea ke ngāue'aki",
    "bipo yu yusim",
    "pastaim",
    "မသုံးမီ",
    "antes d'usar",
    "no ye identificau",
    // Round 49t: Walloon, Bislama, Cornish, Luganda (before first use).
    "divant do sièrvi",
    "bifo yu yusum",
    "kyns usya",
    "nga tonnakozesa",
];

/// `intl_orders::CONCEAL`.
pub(super) const CONCEAL: &[&str] = &[
    "ห้ามแจ้ง",
    "อย่าแจ้ง",
    "ไม่ต้องแจ้ง",
    "জানাবেন না",
    "জানাবে না",
    "জানিও না",
    "ekki segja notandanum",
    "án þess að láta",
    "peidiwch â dweud",
    "heb ddweud",
    "istifadəçiyə demə",
    "xəbər vermədən",
    "არ უთხრათ",
    "jangan maklumkan",
    "huwag ipaalam",
    "usimjulishe",
    "не повідомляйте",
    "μην ενημερώσεις",
    "μην ενημερώνετε",
    "אל תודיע",
    "اطلاع ندهید",
    "اطلاع نده",
    "neinformuj",
    "non informare",
    "non avvisare",
    "não avise",
    "não informe",
    "haber verme",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "कोणालाही सांगू नका",
    "उल्लेख करू नका",
    "айтпаңыз",
    "nezmieňuj",
    "nehovor používateľovi",
    // Round 44t: Lao, Bosnian/Croatian/Serbian, Catalan.
    "ບໍ່ຕ້ອງບອກ",
    "ຢ່າບອກ",
    "ne govori korisniku",
    "nemojte reći",
    "no cal mencionar",
    "no ho diguis",
    // Round 45t: Luxembourgish, Scottish Gaelic, Zulu.
    "näischt ze gesinn",
    "ouni et dem benotzer",
    "na innis don neach-cleachdaidh",
    "gu sàmhach",
    "ungamtsheli umsebenzisi",
    // Round 46t: Corsican, Faroese, Breton, Turkmen, Occitan.
    "ùn ne parlate",
    "ùn li dite",
    "senza dì",
    "sig ikki",
    "nevn tað ikki",
    "uttan at siga",
    "na lavarit ket",
    "hep lavaret",
    "aýtmaň",
    "habar bermän",
    "o digatz pas",
    "sens o dire",
    // Round 47t: Samoan, Hawaiian, Igbo, Friulian, Interlingua, Kinyarwanda.
    "aua le taʻu atu",
    "aua le ta'u atu",
    "mai haʻi i ka mea",
    "mai ha'i i ka mea",
    "agwala onye",
    "no stâ a dîlu",
    "no sta a dilu",
    "non dice al usator",
    "ntubwire ukoresha",
    // Round 48t: Chichewa, Neapolitan, Tswana, Venetian, Scots, Lingala.
    "musauze",
    "musatchule",
    "dicere a nisciuno",
    "nun 'o dicere",
    "o se ka wa bolelela",
    "ka tidimalo",
    "no dir gnente",
    "dinnae mention",
    "dinnae tell",
    "koyebisa mosaleli te",
    // Round 49t: Manx, Ilocano.
    "ny insh shoh",
    "nagh vel red erbee",
    "dimo ibaga",
];
/// `intl_orders::CONDITION`: the user away, or a later approval.
pub(super) const CONDITION: &[&str] = &[
    "selepas semakan diluluskan",
    "selepas diluluskan",
    "หลังจากอนุมัติ",
    "เมื่อผ่านการตรวจ",
    "অনুমোদনের পরে",
    "ব্যবহারকারী দূরে",
    "kapag naaprubahan",
    "pagkatapos maaprubahan",
    "baada ya kuidhinishwa",
    "notandinn er fjarverandi",
    "notandinn er ekki við",
    "defnyddiwr i ffwrdd",
    "istifadəçi olmadıqda",
    "მომხმარებელი არ არის",
    "אחרי שהסקירה אושרה",
    "αφού εγκριθεί",
    "після схвалення",
    "پس از تأیید",
    "po schválení",
    "dopo l'approvazione",
    "após a aprovação",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "मंजूर झाल्यानंतर",
    "len v ci",
    "iba v ci",
    // Round 45t: Luxembourgish, Scottish Gaelic.
    "näischt méi getippt",
    "benotzer net do",
    "air aontachadh",
    "às dèidh aonachadh",
    // Round 46t: Corsican, Turkmen.
    "quandu l'utilizatore ùn",
    "ùn hà scrittu nunda",
    "gezek işledilenden soň",
    "ulanyjy ýok wagty",
    // Round 47t: Igbo (a pull request approved), Samoan (the user idle), Friulian (after the N-th use).
    "mgbe a nabatara",
    "a le toe tusi mai le tagata",
    "dopo de cuinte volte",
    "dopo de tierce volte",
    // Round 48t: Neapolitan (a PR approved), Tswana (after the N-th use).
    "è stata appruvata",
    "morago ga tiriso",
    // Round 49t: Ilocano (once CI has passed).
    "no nakapasar",
];
/// `intl_orders::REPORT`: a report, summary or description the agent writes.
pub(super) const REPORT: &[&str] = &[
    "รายงาน",
    "สรุปงาน",
    "گزارش",
    "প্রতিবেদন",
    "রিপোর্ট",
    "paglalarawan ng pr",
    " ulat",
    "ripoti",
    "zprávě",
    "zprávu",
    "דוח",
    "звіт",
    "skýrsl",
    "adroddiad",
    "hesabat",
    "ანგარიშ",
    "rapporto",
    "resoconto",
    "pr description",
    "pull request description",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "tuarascáil",
    "do logu",
    "logu buildu",
    // Round 44t: Sinhala.
    "වාර්තා",
    // Round 45t: Zulu (a commit message, a report).
    "umlayezo we-commit",
    "umbiko",
    // Round 46t: Yiddish, Breton.
    "באַריכט",
    "באריכט",
    "deskrivadur",
    "danevell",
    // Round 47t: Quechua.
    "willakuy",
    // Round 48t: Sesotho.
    "tlaleho",
];
/// `intl_orders::FULL_VALUE`: the whole, unmasked content.
pub(super) const FULL_VALUE: &[&str] = &[
    "محتوای کامل",
    "مقادیر کامل",
    "بدون سانسور",
    "ค่าเต็ม",
    "โดยไม่ปิดบัง",
    "সম্পূর্ণ মান",
    "পুরো বিষয়বস্তু",
    "সম্পূর্ণ বিষয়বস্তু",
    "buong laman",
    "buong halaga",
    "maudhui yote",
    "thamani kamili",
    "plné hodnoty",
    "התוכן המלא",
    "הערכים המלאים",
    "повний вміст",
    "повні значення",
    "πλήρες περιεχόμενο",
    "allt innihald",
    "fullt gildi",
    "cynnwys llawn",
    "gwerthoedd llawn",
    "tam məzmun",
    "tam dəyər",
    "სრული შინაარს",
    "სრული მნიშვნელობ",
    "contenuto completo",
    "valori completi",
    "conteúdo completo",
    "kandungan penuh",
    "tam içerik",
    "içeriğin tamamı",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "inneachar iomlán",
    "gan iad a cheilt",
    // Round 44t: Sinhala.
    "සම්පූර්ණ අන්තර්ගතය",
    "සම්පූර්ණ අගය",
    // Round 45t: Zulu.
    "inani eliphelele",
    "ungalifihli",
    // Round 46t: Yiddish, Breton.
    "גאַנצן ווערט",
    "גאנצן ווערט",
    "פֿולן ווערט",
    "talvoud klok",
    "an talvoud leun",
    // Round 47t: Quechua.
    "llapan chanin",
    "ama pakaychu",
    // Round 48t: Sesotho.
    "boleng bohle",
];
/// `intl_orders::SECRET_WORDS`.
pub(super) const SECRET_WORDS: &[&str] = &[
    "کلید",
    "توکن",
    "โทเคน",
    "টোকেন",
    "מפתח",
    "lykil",
    "allwedd",
    "açar",
    "გასაღებ",
    "ufunguo",
    "klíč",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "eochair",
    "comhartha",
    "tajomst",
    // Round 44t: Sinhala, and secret files named whatever the language.
    "රහස්",
    "යතුර",
    ".env",
    "id_rsa",
    // Round 46t: a key named as an environment variable (`OPENAI_API_KEY`), whatever the language.
    "api_key",
];

/// `agent_words::ALWAYS`.
pub(super) const ALWAYS: &[&str] = &[
    "дозволити завжди",
    "завжди дозволяти",
    "завжди дозволяй",
    "ναι, πάντα",
    "να επιτρέπεται πάντα",
    "leyfa alltaf",
    "caniatáu bob amser",
    "həmişə icazə ver",
    "ყოველთვის დაშვება",
    "אפשר תמיד",
    "תמיד לאפשר",
    "อนุญาตเสมอ",
    "همیشه اجازه",
    "sentiasa benarkan",
    "benarkan sentiasa",
    "laging payagan",
    "palaging payagan",
    "vždy povolit",
    "ruhusu kila wakati",
    "ruhusu daima",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "អនុញ្ញាតជានិច្ច",
    // Round 44t: the agents' own button label (quoted in any language), Bosnian/Croatian/Serbian.
    "don't ask again",
    "don’t ask again",
    "uvijek dozvoli",
    "uvijek odobri",
];
/// `agent_words::EVERY`.
pub(super) const EVERY: &[&str] = &[
    "кожного запиту",
    "кожен запит",
    "кожному запиту",
    "hverja beiðni",
    "pob cais",
    "hər sorğu",
    "ყოველ მოთხოვნ",
    "כל בקשה",
    "ทุกคำขอ",
    "هر درخواست",
    "setiap permintaan",
    "bawat kahilingan",
    "každý požadavek",
    "každou žádost",
    "kila ombi",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "រាល់សំណើ",
    // Round 44t: Bosnian/Croatian/Serbian.
    "svaki zahtjev",
    "svakom zahtjevu",
    // Round 46t: Sundanese.
    "unggal paménta",
    "unggal aya paménta",
    "unggal pamundut",
    // Round 47t: Xhosa.
    "zonke izicelo",
    "kuzo zonke",
];
/// `agent_words::SCRIPT`.
pub(super) const SCRIPT: &[&str] = &[
    "σκριπτ",
    "סקריפט",
    "สคริปต์",
    "اسکریپت",
    "skrip",
    "skript",
    "sgript",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "ស្គ្រីប",
    // Round 45t: Pashto.
    "سکریپټ",
];
/// `agent_words::NOT` and `LOOK`: "do not open / read" (the script).
pub(super) const NOT: &[&str] = &[
    "δεν χρειάζεται",
    "ekki ",
    "peidiwch",
    "açmayın",
    "oxumayın",
    "אל ",
    "อย่า",
    "نکنید",
    "jangan",
    "huwag",
    "neotvírej",
    "nečti",
    "usifungue",
    "usisome",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "កុំ",
    // Round 44t: Bosnian/Croatian/Serbian.
    "nemojte",
    "nemoj ",
    // Round 45t: Pashto.
    "مه ",
    // Round 46t: Sundanese.
    "ulah ",
    "teu kudu",
    // Round 47t: Xhosa.
    "akunyanzelekanga",
    "musa ",
];
pub(super) const LOOK: &[&str] = &[
    "відкрива",
    "читай",
    "перевіря",
    "ελέγξ",
    "διαβάσ",
    "opna",
    "lesa",
    "agor",
    "darllen",
    "oxu",
    "გახსნ",
    "תפתח",
    "תקרא",
    "เปิด",
    "อ่าน",
    "باز",
    "بخوان",
    "buka",
    "baca",
    "buksan",
    "basahin",
    "otvír",
    "čti",
    "fungua",
    "soma",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "អាន",
    "បើក",
    // Round 44t: Bosnian/Croatian/Serbian.
    "otvara",
    "čita",
    "pregleda",
    // Round 45t: Pashto.
    "خلاصو",
    "لولئ",
    // Round 46t: Sundanese.
    "maca",
    "mariksa",
    "muka",
    // Round 47t: Xhosa.
    "ufunde",
    "ukufunda",
];
/// `agent_words::REPLACE`, `BUILTIN`, `TOOLISH`, `FORBID`: a built-in tool replaced and forbidden.
pub(super) const REPLACE: &[&str] = &[
    "замінює",
    "kemur í stað",
    "disodli",
    "əvəz edir",
    "ცვლის",
    "מחליפ",
    "แทนที่",
    "جایگزین",
    "menggantikan",
    "প্রতিস্থাপন",
    "pumapalit",
    "nahrazuje",
    "inachukua nafasi",
    "yerine geçer",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "almashtiradi",
    // Round 44t: Catalan.
    "substitueix",
    "reemplaça",
    // Round 45t: Frisian.
    "ferfangt",
    // Round 46t: Occitan.
    "remplaça",
    "remplacen",
    // Round 47t: Interlingua.
    "reimplacia",
];
pub(super) const BUILTIN: &[&str] = &[
    "nativa",
    "nativo",
    "nativas",
    "native tool",
    "embutid",
    "вбудован",
    "innbyggð",
    "adeiledig",
    "daxili",
    "ჩაშენებულ",
    "המובנ",
    "ในตัว",
    "داخلی",
    "terbina",
    "বিল্ট-ইন",
    "অন্তর্নির্মিত",
    "vestavěn",
    "iliyojengwa",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "o'rnatilgan",
    // Round 44t: Catalan.
    "integrad",
    // Round 45t: Frisian.
    "ynboude",
    // Round 46t: Occitan.
    "integrad",
    "intègrad",
    // Round 47t: Interlingua.
    "instrumentos integrate",
    "instrumento integrate",
];
pub(super) const TOOLISH: &[&str] = &[
    "інструмент",
    "verkfær",
    "offeryn",
    "alət",
    "ხელსაწყო",
    "כלי",
    "เครื่องมือ",
    "ابزار",
    "alat",
    "টুল",
    "zana",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "vosita",
    // Round 44t: Catalan.
    "eines",
    "eina ",
    // Round 45t: Frisian.
    "ark ",
    // Round 46t: Occitan.
    "aisina",
    // Round 47t: Interlingua.
    "instrumento",
];
pub(super) const FORBID: &[&str] = &[
    "nunca use",
    "não use",
    "ніколи не використовуй",
    "не використовуйте",
    "aldrei nota",
    "ekki nota",
    "peidiwch â defnyddio",
    "istifadə etməyin",
    "არ გამოიყენოთ",
    "אל תשתמש",
    "ห้ามใช้",
    "อย่าใช้",
    "استفاده نکنید",
    "jangan gunakan",
    "ব্যবহার করবেন না",
    "huwag gamitin",
    "nepoužívej",
    "usitumie",
    "non usare",
    "asla kullanma",
    "kullanmayın",
    "μην χρησιμοποιείς",
    "μη χρησιμοποιείτε",
    // Round 43t: Nepali, Marathi, Kazakh, Slovak, Irish, Khmer, Uzbek.
    "foydalanmang",
    // Round 44t: Catalan.
    "no facis servir",
    "no utilitzis",
    // Round 45t: Frisian.
    "nea wer",
    "brûk gjin",
    // Round 46t: Occitan.
    "utilizetz pas",
    "utilizatz pas",
    "emplegatz pas",
];

pub(super) static CONCEAL_N: Needles = Needles::new(CONCEAL);
pub(super) static CONDITION_N: Needles = Needles::new(CONDITION);
pub(super) static REPORT_N: Needles = Needles::new(REPORT);
pub(super) static FULL_VALUE_N: Needles = Needles::new(FULL_VALUE);
pub(super) static SECRET_WORDS_N: Needles = Needles::new(SECRET_WORDS);

/// Build the lists' automata now (`scan::initialize`).
pub(super) fn initialize() {
    for n in [
        &CONCEAL_N,
        &CONDITION_N,
        &REPORT_N,
        &FULL_VALUE_N,
        &SECRET_WORDS_N,
    ] {
        n.force();
    }
}

/// Words without one of which these lists add nothing to a text that states no fact (chained into
/// `prose::reads_raw_text` through `shapes::raw_words`).
pub(super) fn raw_words() -> impl Iterator<Item = &'static str> {
    super::more_langs::trigger_words([ALWAYS, REPLACE, CONCEAL, CONDITION, FULL_VALUE, PASSWORD])
}
