//! Typo correction of a request's English words against the lexicon's words (one edit away, a
//! unique best candidate with the same first letter). A real English word is no typo: the words one
//! edit from a lexicon word that a dictionary knows (`guest/rules/real-words.txt`, generated from
//! SCOWL by `guest/rules/real-words.py`) are left as written (*front* is no *font*).

use super::super::lexicon::lexicon;
use super::super::text::Vocab;

/// The shortest word a typo correction may change one letter of (a swap, a missing or an extra
/// letter are corrected from four letters on).
pub const SUBSTITUTION_MIN: usize = 6;

/// The real words one edit from a lexicon word, one a line, sorted (`#` lines are the header).
static REAL_WORDS_TXT: &str = include_str!("../../../rules/real-words.txt");

/// Whether `word` (lower-case letters) is a real English word that the corrector must not change.
pub fn is_real_word(word: &str) -> bool {
    static WORDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    WORDS
        .get_or_init(|| {
            REAL_WORDS_TXT
                .lines()
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect()
        })
        .binary_search(&word)
        .is_ok()
}

/// Damerau–Levenshtein distance at most 1 (one insertion, deletion, substitution or swap of two
/// neighbours).
fn within_one(a: &[u8], b: &[u8]) -> bool {
    if a == b {
        return true;
    }
    let (la, lb) = (a.len(), b.len());
    if la.abs_diff(lb) > 1 {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    match la.cmp(&lb) {
        std::cmp::Ordering::Equal => {
            ra[1..] == rb[1..]
                || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..])
        }
        std::cmp::Ordering::Less => ra == &rb[1..],
        std::cmp::Ordering::Greater => &ra[1..] == rb,
    }
}

/// Correct typos of the request's English words against the lexicon's words: a word of four or
/// more letters that no candidate and no term contains, one edit away from exactly one lexicon word
/// with the same first letter (for four-letter words, only a missing letter or two swapped ones),
/// is read as that word.
pub fn correct_typos(vocab: &Vocab, text: &str) -> String {
    correct_typos_with(&|word| vocab.knows_word(word), text)
}

/// Whether [`correct_typos`] asks the candidates' vocabulary about any word of `text`: when it does
/// not, the corrected request is the same whatever the candidates are, so it can be analyzed before
/// them (`rank::scorer`'s lazy analysis reads this).
pub fn consults_vocabulary(text: &str) -> bool {
    let asked = std::cell::Cell::new(false);
    correct_typos_with(
        &|_| {
            asked.set(true);
            false
        },
        text,
    );
    asked.get()
}

/// [`correct_typos`] with `knows(word)` telling whether a candidate has the raw word.
fn correct_typos_with(knows: &dyn Fn(&str) -> bool, text: &str) -> String {
    let lex = lexicon();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let lower = crate::lowercase(text);
    if lower.len() != text.len() {
        return text.to_owned();
    }
    let bytes = lower.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_lowercase() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let word = &lower[start..i];
        if word.len() < 4 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
            continue;
        }
        if lex.vocabulary.iter().any(|(raw, _)| raw == word) {
            continue;
        }
        let stem = super::super::lexicon::word_stem(word);
        if lex.is_stop_stem(&stem) || lex.vocabulary.iter().any(|(_, s)| *s == stem) {
            continue;
        }
        // A real word is no typo of another (front is no font, from no form).
        if is_real_word(word) {
            continue;
        }
        // Each candidate with its edit: two swapped letters (the commonest slip) before a missing or
        // extra letter before a wrong one; only a unique best candidate is taken.
        let mut candidates: Vec<(u8, String)> = lex
            .vocabulary
            .iter()
            .flat_map(|(raw, _)| [raw.clone(), format!("{raw}s")])
            .filter(|raw| {
                raw != word
                    // A slip rarely hits the first letter; a real word one letter away from a
                    // lexicon word usually differs there ('light' is no 'flight').
                    && raw.as_bytes().first() == word.as_bytes().first()
                    && within_one(word.as_bytes(), raw.as_bytes())
                    && (word.len() > 4 || raw.len() > word.len() || is_swap(word, raw))
                    // One wrong letter in a short word is as often another real word ('taken'
                    // is no 'token'): only words of SUBSTITUTION_MIN letters or more.
                    && (raw.len() != word.len()
                        || is_swap(word, raw)
                        || (word.len() >= SUBSTITUTION_MIN && is_neighbour_slip(word, raw)))
            })
            .map(|raw| {
                let rank = if is_swap(word, &raw) {
                    0
                } else if raw.len() != word.len() {
                    1
                } else {
                    2
                };
                (rank, raw)
            })
            .collect();
        candidates.sort();
        candidates.dedup();
        let best: Vec<&(u8, String)> = candidates
            .iter()
            .filter(|c| c.0 == candidates.first().map_or(9, |f| f.0))
            .collect();
        // A word some candidate has is no typo (asked last: only a word that would be corrected
        // depends on the candidates).
        if let [only] = best[..]
            && !knows(word)
        {
            out.push_str(&text[last..start]);
            out.push_str(&only.1);
            last = i;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// The keyboard rows (QWERTY, the layout of English typing): a wrong letter typed by slip is next
/// to the right one on the same row or on the row above or below.
const ROWS: [&[u8]; 3] = [b"qwertyuiop", b"asdfghjkl", b"zxcvbnm"];

fn key_at(c: u8) -> Option<(usize, usize)> {
    ROWS.iter()
        .enumerate()
        .find_map(|(r, row)| row.iter().position(|&k| k == c).map(|i| (r, i)))
}

/// Whether two letters are neighbouring keys (same row, one apart; or the rows above/below, where
/// each row sits about half a key to the right of the one above: `a` touches `q` and `w`).
pub(super) fn keys_touch(a: u8, b: u8) -> bool {
    let (Some((ra, ia)), Some((rb, ib))) = (key_at(a), key_at(b)) else {
        return false;
    };
    match ra.abs_diff(rb) {
        0 => ia.abs_diff(ib) == 1,
        1 => {
            // Key i of a lower row lies between keys i and i + 1 of the row above it.
            let (upper, lower) = if ra < rb { (ia, ib) } else { (ib, ia) };
            upper == lower || upper == lower + 1
        }
        _ => false,
    }
}

/// One letter substituted for another (same length, one position differs) the way people slip:
/// a neighbouring key (`extracr` → `extract`) or one vowel for another, as words are misspelt by
/// their sound (`summerize` → `summarize`). A real word one letter from a lexicon word mostly
/// differs by a far consonant (`remote`/`remove`, `laptop`/`lapton`), which is neither.
fn is_neighbour_slip(typed: &str, meant: &str) -> bool {
    let vowel = |c: u8| b"aeiou".contains(&c);
    let diffs: Vec<(u8, u8)> = typed
        .bytes()
        .zip(meant.bytes())
        .filter(|(a, b)| a != b)
        .collect();
    matches!(diffs[..], [(a, b)] if keys_touch(a, b) || (vowel(a) && vowel(b)))
}

fn is_swap(a: &str, b: &str) -> bool {
    a.len() == b.len() && {
        let d: Vec<usize> = (0..a.len())
            .filter(|&k| a.as_bytes()[k] != b.as_bytes()[k])
            .collect();
        d.len() == 2 && d[1] == d[0] + 1
    }
}

#[cfg(test)]
mod real_word_tests {
    use super::*;
    use crate::rank::text::Vocab;

    #[test]
    fn a_real_word_is_not_corrected_into_a_lexicon_word() {
        let v = Vocab::default();
        // Must not: real words one edit from a lexicon word.
        for task in [
            "the front page of the pdf",
            "how do I stop the fight at bedtime",
            "have I taken my tablets",
        ] {
            assert_eq!(correct_typos(&v, task), task);
        }
        // Must: misspellings that no dictionary knows.
        assert_eq!(correct_typos(&v, "mrege pdfs"), "merge pdfs");
        assert_eq!(
            correct_typos(&v, "extarct tabels from pdf to exel"),
            "extract tables from pdf to excel"
        );
        assert_eq!(
            correct_typos(&v, "summerize this meeting"),
            "summarize this meeting"
        );
    }

    #[test]
    fn the_real_word_list_is_sorted_lower_case_and_holds_no_lexicon_term() {
        let words: Vec<&str> = REAL_WORDS_TXT
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect();
        assert!(words.len() > 1000, "{} words", words.len());
        assert!(
            words.windows(2).all(|w| w[0] < w[1]),
            "not sorted or repeated"
        );
        assert!(
            words
                .iter()
                .all(|w| w.len() >= 4 && w.bytes().all(|b| b.is_ascii_lowercase()))
        );
        let lex = lexicon();
        for (raw, _) in &lex.vocabulary {
            assert!(!is_real_word(raw), "{raw} is a lexicon term");
        }
        assert!(is_real_word("front") && !is_real_word("mrege"));
    }
}
