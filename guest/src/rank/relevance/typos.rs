//! Typo correction of a request's English words against the lexicon's words (one edit away, a
//! unique best candidate with the same first letter).

use super::super::lexicon::lexicon;
use super::super::text::Vocab;

/// The shortest word a typo correction may change one letter of (a swap, a missing or an extra
/// letter are corrected from four letters on).
pub const SUBSTITUTION_MIN: usize = 6;

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
        let stem = super::super::lexicon::stemmer().stem(word);
        if lex.is_stop_stem(&stem) || lex.vocabulary.iter().any(|(_, s)| *s == stem) {
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
