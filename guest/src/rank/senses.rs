//! Word senses: a term of the lexicon that the request uses in another sense is not read as its
//! concept. Four general cues, each a class of words rather than a request:
//!
//! - **Reminder or alert.** "Ping me", 提醒我, "let me know" are an alert when something happens
//!   (a price drops, a site goes down) and a reminder at a time (every Friday, 每月15号, the evening
//!   before): a personal alert form in a request that names a time and no condition is read as
//!   `remind` and the `reminder` it sets, as 提醒 is.
//! - **A noun after a determiner.** A few action terms are also nouns of another sense (*a book* is
//!   no booking, *the watch*, *a record*, *the sign*): after a determiner or a possessive they are
//!   read as the noun, a free word. Modifiers may stand between (*a long book*, *my old smart
//!   watch*, *the quarterly sales record*): up to [`MAX_MODIFIERS`] words that are neither stop
//!   words nor read as actions, in the same clause.
//! - **Product names are not inflected.** A product named by a common noun (*Word*, *Notion*,
//!   *Slack*, *Outlook*) is that product only in the name's own form: an inflection of it (*the
//!   words in my essay*, *the wording*, *notions*) is the common noun, and the
//!   product's concept is dropped ([`PRODUCT_NAMES`]).
//! - **"down".** The monitoring sense of a bare *down* is a state after *be* or *go* (the site is
//!   down, went down); elsewhere (write down, cut down, break down) it is no monitoring.
//! - **Chinese compounds.** A compound whose character reads as an action or object elsewhere (转正
//!   is no conversion, 视频会议 no video, 聊天机器人 no chat history) blocks the reading of its parts:
//!   a data list of compounds ([`COMPOUNDS`]), each with the concepts its parts must not add and the
//!   one it names, if any.

use super::lexicon::lexicon;
use super::text::{Analysis, ConceptHit};

/// Personal alert forms that a time turns into a reminder.
const ALERT_ME: [&str; 9] = [
    "ping me",
    "let me know",
    "tell me",
    "notify me",
    "alert me",
    "提醒我",
    "提醒一下我",
    "通知我",
    "提前告诉我",
];

/// Words that make a request's alert conditional (when something happens).
const CONDITION_CUES: [&str; 24] = [
    " when ",
    " if ",
    " once ",
    "whenever",
    "as soon as",
    "the moment",
    " drops",
    " falls",
    " rises",
    " above ",
    " below ",
    " exceeds",
    " changes",
    " goes down",
    " is down",
    "一旦",
    "如果",
    "要是",
    "超过",
    "低于",
    "高于",
    "的时候",
    "变化",
    "有新",
];

/// Words that name a time or a recurrence.
const TIME_CUES: [&str; 34] = [
    "every ",
    "each ",
    "daily",
    "weekly",
    "monthly",
    "yearly",
    "tomorrow",
    "tonight",
    "morning",
    "evening",
    "afternoon",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "o'clock",
    "the day before",
    "the night before",
    "the evening before",
    "每",
    "号",
    "点",
    "早上",
    "晚上",
    "明天",
    "明早",
    "周一",
    "周日",
    "星期",
    "月底",
    "前一天",
];

/// Action terms that are also nouns of another sense.
const NOUN_SENSES: [&str; 10] = [
    "book", "watch", "watches", "track", "record", "sign", "drop", "scale", "plot", "draw",
];

/// Words after which a word is a noun.
const DETERMINERS: [&str; 16] = [
    "a", "an", "the", "my", "our", "your", "his", "her", "their", "its", "this", "that", "these",
    "those", "each", "every",
];

/// The most modifiers (adjectives, nouns used as adjectives, numbers) read between a determiner and
/// the noun it introduces ("the quarterly sales record").
pub const MAX_MODIFIERS: usize = 3;

/// Products named by a common noun: (the name's form, the concept the name stands for). Another
/// form of the word (a plural, a derived word) is the common noun.
pub const PRODUCT_NAMES: [(&str, &str); 4] = [
    ("word", "word-doc"),
    ("notion", "notion"),
    ("slack", "slack"),
    ("outlook", "email"),
];

/// Words after which a bare "down" is a state (the monitoring sense).
const DOWN_STATES: [&str; 12] = [
    "is", "was", "are", "were", "be", "been", "being", "went", "goes", "go", "going", "gone",
];

/// Chinese compounds: (compound, concepts its parts must not add, the concept it names).
pub const COMPOUNDS: [(&str, &[&str], Option<&str>); 22] = [
    ("转正", &["convert"], None),
    ("转账", &["convert"], None),
    ("转告", &["convert"], None),
    ("转行", &["convert"], None),
    ("转学", &["convert"], None),
    ("转让", &["convert"], None),
    ("好转", &["convert"], None),
    ("周转", &["convert"], None),
    ("视频会议", &["video"], None),
    ("视频会", &["video"], None),
    ("视频通话", &["video"], None),
    ("聊天机器人", &["chat-history"], None),
    ("签到", &["sign"], None),
    ("签证", &["sign"], None),
    ("标签", &["sign"], None),
    ("写字楼", &["create"], None),
    ("目录", &["record"], None),
    ("录取", &["record"], None),
    ("画质", &["create", "visualize"], None),
    ("补贴", &["create"], None),
    ("补偿", &["create"], None),
    ("慢性", &["optimize"], None),
];

/// Apply the sense rules to a request's analysis.
pub fn apply(a: &mut Analysis) {
    if a.concepts.is_empty() {
        return;
    }
    reminder(a);
    english_nouns(a);
    product_names(a);
    compounds(a);
    neighbour_senses(a);
}

/// Words that a neighbouring domain reads otherwise, each read in its other sense when the request
/// names one of the concepts of that sense: (words, the concept they are read as elsewhere, the
/// concepts of the other sense). *script* is what a host or a narrator says and *host* the person
/// presenting beside a video, a live sale, a podcast or speech; a *worksheet* is a school exercise
/// sheet beside maths or schooling, no spreadsheet; *issue* is a verb (to issue an invoice, a
/// certificate), no ticket, beside the document issued.
pub const NEIGHBOUR_SENSES: [(&[&str], &str, &[&str]); 3] = [
    (
        &["script", "scripts", "host", "hosts"],
        "",
        &[
            "video",
            "live-selling",
            "podcast",
            "speech",
            "speak",
            "douyin",
        ],
    ),
    (
        &["worksheet", "worksheets"],
        "spreadsheet",
        &["math", "education", "quiz", "tutor"],
    ),
    (
        &["issue", "issues", "issuing"],
        "issue",
        &["invoice", "certificate", "receipt"],
    ),
];

/// The concepts the show words of [`NEIGHBOUR_SENSES`]' first entry are read as elsewhere.
const SHOW_WORD_CONCEPTS: [(&str, &str); 4] = [
    ("script", "code"),
    ("scripts", "code"),
    ("host", "server"),
    ("hosts", "server"),
];

fn neighbour_senses(a: &mut Analysis) {
    let named = |names: &[&str]| {
        a.concepts
            .iter()
            .any(|h| names.iter().any(|&m| concept(m) == Some(h.concept)))
    };
    let mut drop: Vec<usize> = Vec::new();
    for (words, read_as, context) in NEIGHBOUR_SENSES {
        if !named(context) {
            continue;
        }
        for (i, h) in a.concepts.iter().enumerate() {
            let s = surface(a, h);
            if !words.contains(&s) {
                continue;
            }
            let elsewhere = if read_as.is_empty() {
                SHOW_WORD_CONCEPTS
                    .iter()
                    .any(|&(w, c)| w == s && concept(c) == Some(h.concept))
            } else {
                concept(read_as) == Some(h.concept)
            };
            if elsewhere {
                drop.push(i);
            }
        }
    }
    drop.sort_unstable();
    drop.dedup();
    remove_hits(a, &drop, true);
}

fn concept(name: &str) -> Option<usize> {
    lexicon().concept(name)
}

fn surface<'a>(a: &'a Analysis, h: &ConceptHit) -> &'a str {
    a.lower.get(h.at.0 as usize..h.at.1 as usize).unwrap_or("")
}

/// Whether `text` (lower-cased, padded with spaces) contains any of `cues`.
fn has_any(text: &str, cues: &[&str]) -> bool {
    cues.iter().any(|c| text.contains(c))
}

/// An alert asked for at a time, with no condition, is a reminder; a reminder form asked for on a
/// condition (提醒我 when a price passes a mark) is an alert. Without either cue the lexicon's
/// reading stands.
fn reminder(a: &mut Analysis) {
    let (Some(alert), Some(remind), Some(reminder)) =
        (concept("alert"), concept("remind"), concept("reminder"))
    else {
        return;
    };
    let positions: Vec<usize> = (0..a.concepts.len())
        .filter(|&i| {
            let h = a.concepts[i];
            (h.concept == alert || h.concept == remind) && ALERT_ME.contains(&surface(a, &h))
        })
        .collect();
    if positions.is_empty() {
        return;
    }
    let padded = format!(" {} ", a.lower);
    if has_any(&padded, &CONDITION_CUES) {
        for i in positions {
            a.concepts[i].concept = alert;
        }
        dedup(a);
        return;
    }
    if !has_any(&padded, &TIME_CUES) {
        return;
    }
    // Read as 提醒 is read: the action and the reminder it sets.
    for i in positions {
        a.concepts[i].concept = remind;
        let h = a.concepts[i];
        a.concepts.push(ConceptHit {
            concept: reminder,
            ..h
        });
    }
    dedup(a);
}

/// The ASCII word just before byte `at` of `lower` (skipping spaces), if any.
fn word_before(lower: &str, at: usize) -> &str {
    let before = lower[..at].trim_end();
    let start = before
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '\''))
        .map_or(0, |(i, c)| i + c.len_utf8());
    &before[start..]
}

/// The word (letters, digits, `'` and `-`) that ends just before byte `end` of `lower` (skipping
/// spaces only), with its start; `None` at a clause mark or the start of the text.
fn prev_word(lower: &str, end: usize) -> Option<(usize, &str)> {
    let before = lower[..end].trim_end_matches(' ');
    let start = before
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '\'' || c == '-'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = before[start..].trim_matches('-');
    (!word.is_empty()).then_some((start, word))
}

/// Whether the word ending at byte `at` of the request is introduced by a determiner: the word just
/// before is one, or up to [`MAX_MODIFIERS`] modifiers stand between. A modifier is no stop word
/// (prepositions, pronouns and auxiliaries are) and is not read as an action (a verb: "to *book*
/// the flight", "please *watch* the prices").
fn after_determiner(a: &Analysis, at: usize) -> bool {
    let lex = lexicon();
    let mut end = at;
    for _ in 0..=MAX_MODIFIERS {
        let Some((start, w)) = prev_word(&a.lower, end) else {
            return false;
        };
        if DETERMINERS.contains(&w) {
            return true;
        }
        let stem = super::lexicon::stemmer().stem(w);
        let verb = a.concepts.iter().any(|h| {
            (h.at.0 as usize) < start + w.len()
                && start < h.at.1 as usize
                && lex.concepts[h.concept].kind == super::lexicon::Kind::Action
        });
        if lex.is_stop_stem(&stem) || verb {
            return false;
        }
        end = start;
    }
    false
}

/// A product named by a common noun, written in another form than the name's (the words, the
/// wording): the product's concept is dropped and the word stays a free word.
fn product_names(a: &mut Analysis) {
    let mut drop: Vec<usize> = Vec::new();
    for (i, h) in a.concepts.iter().enumerate() {
        let s = surface(a, h);
        if !s.bytes().all(|b| b.is_ascii_alphabetic()) {
            continue;
        }
        let inflected = PRODUCT_NAMES.iter().any(|&(name, c)| {
            s != name
                && s.starts_with(name)
                && concept(c) == Some(h.concept)
                && super::lexicon::stemmer().stem(s) == super::lexicon::stemmer().stem(name)
        });
        if inflected {
            drop.push(i);
        }
    }
    remove_hits(a, &drop, true);
}

/// Action terms read as nouns after a determiner; a bare "down" that is no state.
fn english_nouns(a: &mut Analysis) {
    let monitor = concept("monitor");
    let mut drop: Vec<usize> = Vec::new();
    for (i, h) in a.concepts.iter().enumerate() {
        let s = surface(a, h);
        if !s.is_ascii() {
            continue;
        }
        let before = word_before(&a.lower, h.at.0 as usize);
        let kind = lexicon().concepts[h.concept].kind;
        let noun = kind == super::lexicon::Kind::Action
            && NOUN_SENSES.contains(&s)
            && after_determiner(a, h.at.0 as usize);
        let no_state = Some(h.concept) == monitor
            && s == "down"
            && !DOWN_STATES.contains(&before)
            && !before.ends_with("'s");
        if noun || no_state {
            drop.push(i);
        }
    }
    remove_hits(a, &drop, true);
}

/// The compounds' parts read as other concepts are dropped; the compound's own concept is added.
fn compounds(a: &mut Analysis) {
    if a.lower.is_ascii() {
        return;
    }
    let mut drop: Vec<usize> = Vec::new();
    let mut add: Vec<(usize, (u32, u32), usize)> = Vec::new();
    for (compound, parts, names) in COMPOUNDS {
        for (start, _) in a.lower.match_indices(compound) {
            let end = start + compound.len();
            for (i, h) in a.concepts.iter().enumerate() {
                let (s, e) = (h.at.0 as usize, h.at.1 as usize);
                let inside = start <= s && e <= end && e - s < compound.len();
                if inside && parts.iter().any(|p| concept(p) == Some(h.concept)) {
                    drop.push(i);
                }
            }
            if let Some(c) = names.and_then(concept)
                && let Some(i) = a
                    .concepts
                    .iter()
                    .position(|h| start < h.at.1 as usize && h.at.0 as usize <= start)
            {
                add.push((c, (start as u32, end as u32), i));
            }
        }
    }
    for (c, at, like) in add {
        if a.concepts.iter().any(|h| h.concept == c && h.at == at) {
            continue;
        }
        let h = a.concepts[like];
        a.concepts.push(ConceptHit {
            concept: c,
            at,
            ..h
        });
    }
    drop.sort_unstable();
    drop.dedup();
    remove_hits(a, &drop, false);
}

/// Remove the hits at `drop` (sorted indices); with `free`, the words they covered become free words
/// unless another hit still covers them.
fn remove_hits(a: &mut Analysis, drop: &[usize], free: bool) {
    if drop.is_empty() {
        return;
    }
    let ranges: Vec<(u32, u32)> = drop.iter().map(|&i| a.concepts[i].at).collect();
    for &i in drop.iter().rev() {
        a.concepts.remove(i);
    }
    if !free {
        return;
    }
    for (s, e) in ranges {
        let still = |t: (u32, u32)| a.concepts.iter().any(|h| h.at.0 < t.1 && t.0 < h.at.1);
        let freed: Vec<usize> = (0..a.tokens.len())
            .filter(|&j| {
                let t = a.tokens[j].at;
                s <= t.0 && t.1 <= e && !still(t)
            })
            .collect();
        for j in freed {
            a.tokens[j].free = true;
        }
    }
}

/// Drop repeated hits (same concept, same place).
fn dedup(a: &mut Analysis) {
    let mut seen: Vec<(usize, (u32, u32))> = Vec::new();
    a.concepts.retain(|h| {
        if seen.contains(&(h.concept, h.at)) {
            false
        } else {
            seen.push((h.concept, h.at));
            true
        }
    });
}

#[cfg(test)]
mod tests;
