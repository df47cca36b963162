//! Card copy taken from a candidate's description: splitting it into sentences and telling which of
//! them may be shown as the pain point ("the problem it solves"). A need ("no more retyping tables by
//! hand", 「不用再手动整理」) may; a limitation or a negation ("scanned pages are not supported",
//! 「暂不支持扫描件」) never. The phrases are data (`guest/rules/card-copy.json`), each kind with
//! examples the tests check.

use std::sync::OnceLock;

use serde::Deserialize;

static RULES_JSON: &str = include_str!("../../rules/card-copy.json");

#[derive(Debug, Deserialize)]
struct Phrases {
    en: Vec<String>,
    zh: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct Rules {
    need: Phrases,
    limitation: Phrases,
    negation: Phrases,
    #[cfg_attr(not(test), allow(dead_code))]
    examples: Examples,
}

#[derive(Debug, Deserialize)]
#[cfg_attr(not(test), allow(dead_code))]
struct Examples {
    need: Vec<String>,
    limitation: Vec<String>,
    neutral: Vec<String>,
}

fn rules() -> &'static Rules {
    static R: OnceLock<Rules> = OnceLock::new();
    R.get_or_init(|| serde_json::from_str(RULES_JSON).expect("rules/card-copy.json is valid"))
}

/// What a sentence says, for the pain point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// States a need or a pain: may be the pain point.
    Need,
    /// A limitation or a negation: never the pain point.
    Limitation,
    /// Says what the skill does or supports: not a need.
    Neutral,
}

/// Whether `phrase` occurs in `text` (both lower-cased), as whole words for ASCII phrases.
fn find(text: &str, phrase: &str) -> Option<(usize, usize)> {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    let ascii = phrase.is_ascii();
    let mut from = 0;
    while let Some(at) = text[from..].find(phrase) {
        let start = from + at;
        let end = start + phrase.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        if !ascii || (!word(before) && !word(after)) {
            return Some((start, end));
        }
        from = start + phrase.chars().next().map_or(1, char::len_utf8);
    }
    None
}

fn any_of(text: &str, phrases: &Phrases) -> bool {
    phrases
        .en
        .iter()
        .chain(&phrases.zh)
        .any(|p| find(text, p).is_some())
}

/// Classify one sentence: need phrases are taken out first (so "don't have to" is a need, not a
/// negation); then any limitation marker or negation word left makes it a limitation.
pub fn classify(sentence: &str) -> Kind {
    let r = rules();
    let mut text = crate::lowercase(sentence);
    let mut need = false;
    for p in r.need.en.iter().chain(&r.need.zh) {
        while let Some((start, end)) = find(&text, p) {
            text.replace_range(start..end, " ");
            need = true;
        }
    }
    if any_of(&text, &r.limitation) || any_of(&text, &r.negation) {
        Kind::Limitation
    } else if need {
        Kind::Need
    } else {
        Kind::Neutral
    }
}

/// The sentences of a text, split after `。！？；` and after `.!?;` followed by white space (so `v1.2`
/// and `e.g.x` stay whole); each trimmed, empty ones left out.
pub fn sentences(text: &str) -> Vec<&str> {
    let t = text.trim();
    let mut out = Vec::new();
    let mut start = 0;
    let mut iter = t.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        let end = i + c.len_utf8();
        let cut = match c {
            '。' | '！' | '？' | '；' => true,
            '.' | '!' | '?' | ';' => iter.peek().is_none_or(|(_, n)| n.is_whitespace()),
            _ => false,
        };
        if cut {
            out.push(t[start..end].trim());
            start = end;
        }
    }
    out.push(t[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// The first sentence of `description` that states a need, if any: the first sentence (what the skill
/// does) is tried last, so a need stated after it wins.
pub fn need_sentence(description: &str) -> Option<&str> {
    let all = sentences(description);
    let (first, rest) = all.split_first()?;
    rest.iter()
        .chain(std::iter::once(first))
        .copied()
        .find(|s| classify(s) == Kind::Need)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_is_classified_as_its_kind() {
        let ex = &rules().examples;
        for (kind, list) in [
            (Kind::Need, &ex.need),
            (Kind::Limitation, &ex.limitation),
            (Kind::Neutral, &ex.neutral),
        ] {
            assert!(!list.is_empty());
            for s in list {
                assert_eq!(classify(s), kind, "{s:?}");
            }
        }
    }

    #[test]
    fn english_markers_are_whole_words() {
        // "not" inside "notes", "no" inside "notion": not negations.
        assert_eq!(classify("Writes notes into Notion."), Kind::Neutral);
        assert_eq!(classify("Notes are not synced."), Kind::Limitation);
        assert_eq!(classify("BETA build"), Kind::Limitation);
    }

    #[test]
    fn a_need_after_the_first_sentence_wins_and_limitations_never_count() {
        let d = "Turns meeting transcripts into notes. Scanned pages are not supported. No more writing minutes by hand.";
        assert_eq!(need_sentence(d), Some("No more writing minutes by hand."));
        let d = "Turns meeting transcripts into notes with decisions and action items. Scanned pages are not supported.";
        assert_eq!(need_sentence(d), None);
        assert_eq!(
            need_sentence("告别手动整理纪要。支持中英文。"),
            Some("告别手动整理纪要。")
        );
    }

    #[test]
    fn sentences_split_on_either_script() {
        assert_eq!(
            sentences("把表格导出。支持 OCR。 v1.2 is here. Done"),
            vec!["把表格导出。", "支持 OCR。", "v1.2 is here.", "Done"]
        );
    }
}
