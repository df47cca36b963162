//! Invisible and smuggled characters on one line: Unicode Tag characters, bidirectional controls and
//! zero-width characters outside emoji sequences. Separate from [`super`] because it looks at
//! characters, not at what the rules match, and reports its own findings.

use super::{EVIDENCE_CHARS, Finding, evidence};
use crate::scan::rules::Severity;

/// Zero-width characters that can split a word without showing (removing the joiner U+200D from an
/// emoji sequence only changes how the emoji draws, not any word).
pub(super) const ZERO_WIDTH: &[char] = &[
    '\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{2061}', '\u{2062}', '\u{2063}', '\u{2064}',
    '\u{FEFF}',
];

fn is_emoji_neighbour(c: Option<char>) -> bool {
    c.is_some_and(|c| {
        ('\u{1F000}'..='\u{1FAFF}').contains(&c)
            || ('\u{2600}'..='\u{27BF}').contains(&c)
            || c == '\u{FE0F}'
    })
}

/// Letters of scripts whose spelling puts a zero-width non-joiner or joiner between letters of a
/// word: Arabic script (Persian `می‌خواهم`, Urdu, Kurdish), Syriac, the Indic scripts (Hindi,
/// Bengali, Malayalam, Sinhala …) and Mongolian. A joiner between two of them is writing, not a hidden split.
fn joins_in_spelling(c: Option<char>) -> bool {
    c.is_some_and(|c| {
        matches!(c,
            '\u{0600}'..='\u{074F}' // Arabic, Syriac
            | '\u{0750}'..='\u{077F}' // Arabic supplement
            | '\u{08A0}'..='\u{08FF}' // Arabic extended-A
            | '\u{0900}'..='\u{0DFF}' // Devanagari to Sinhala (letters, vowel signs, viramas)
            | '\u{1800}'..='\u{18AF}' // Mongolian
            | '\u{FB50}'..='\u{FDFF}' // Arabic presentation forms A
            | '\u{FE70}'..='\u{FEFE}' // Arabic presentation forms B
        )
    })
}

/// Invisible and smuggled characters on one line.
pub(super) fn invisible(
    line: &str,
    file: &str,
    line_no: usize,
    first_line: bool,
    code: bool,
    out: &mut Vec<Finding>,
) {
    let chars: Vec<char> = line.chars().collect();
    let tags: String = chars
        .iter()
        .filter(|c| ('\u{E0000}'..='\u{E007F}').contains(*c))
        .map(|c| {
            char::from_u32(*c as u32 - 0xE0000)
                .filter(|a| a.is_ascii_graphic() || *a == ' ')
                .unwrap_or('?')
        })
        .collect();
    if !tags.is_empty() {
        out.push(Finding {
            rule_id: "invisible_text.unicode-tag-smuggling".into(),
            category: "invisible_text".into(),
            severity: Severity::Critical,
            file: file.into(),
            line: line_no,
            evidence: format!("{} invisible Unicode Tag characters spelling {:?}", tags.chars().count(), tags.chars().take(80).collect::<String>()),
            related: Vec::new(),
            description: "Unicode Tag characters (U+E0000–U+E007F) are invisible to people but read by models: a known way to smuggle instructions. Remove them; no legitimate skill needs them.".into(),
        });
    }
    let bidi = chars
        .iter()
        .filter(|c| matches!(**c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'))
        .count();
    if bidi > 0 {
        out.push(Finding {
            rule_id: "invisible_text.bidi-control".into(),
            category: "invisible_text".into(),
            // In code, an override makes a line run differently from how it reads (Trojan Source).
            severity: if code { Severity::Critical } else { Severity::High },
            file: file.into(),
            line: line_no,
            evidence: format!("{bidi} bidirectional control character(s): {}", line.chars().filter(|c| !matches!(*c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')).take(EVIDENCE_CHARS).collect::<String>()),
            related: Vec::new(),
            description: "Bidirectional override characters make text display differently from what is executed or read (\"Trojan Source\"). Remove them.".into(),
        });
    }
    let zero_width = chars
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            let before = i.checked_sub(1).map(|j| chars[j]);
            let after = chars.get(i + 1).copied();
            match **c {
                '\u{200B}' | '\u{2060}'..='\u{2064}' => true,
                // The (non-)joiner a script's spelling needs between two of its letters is legitimate.
                '\u{200C}' => !(joins_in_spelling(before) && joins_in_spelling(after)),
                // Zero-width joiners inside emoji sequences are legitimate too.
                '\u{200D}' => {
                    !(is_emoji_neighbour(before)
                        || is_emoji_neighbour(after)
                        || joins_in_spelling(before) && joins_in_spelling(after))
                }
                // A byte-order mark is fine at the start of a file.
                '\u{FEFF}' => !(first_line && *i == 0),
                _ => false,
            }
        })
        .count();
    if zero_width > 0 {
        out.push(Finding {
            rule_id: "invisible_text.zero-width".into(),
            category: "invisible_text".into(),
            // Many of them on one line split words on purpose (to slip past scanners or encode data).
            severity: if zero_width >= 8 { Severity::High } else { Severity::Medium },
            file: file.into(),
            line: line_no,
            evidence: format!("{zero_width} zero-width character(s) in: {}", evidence(&line.replace(['\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}'], "·"), 0, 0)),
            related: Vec::new(),
            description: "Zero-width characters can hide words from people or split keywords to evade scanners. Remove them unless they are part of an emoji sequence.".into(),
        });
    }
}
