//! Code run from a literal written only in blanks (round 42m, `obfuscation.whitespace-encoded-exec`).
//!
//! A typosquatted logging package of held-out set 20 carries a long string of nothing but spaces
//! and tabs — bits, one blank kind per value — turns it into bytes at import and `exec`s the
//! result, which fetches the next stage. No word of the payload is visible, on screen or to a
//! pattern.
//!
//! Facts, in one code file (not a test): a quoted literal of at least [`MIN`] characters made only
//! of spaces and tabs with both present, or of zero-width characters; and an evaluation call in the
//! file ([`EVALS`]). Judged `critical` at the literal. Padding strings (one kind of blank) and
//! blank literals in files that evaluate nothing are not judged.

use super::Bundle;
use super::find::has;
use super::shapes::found;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Evaluation calls (lower-case); also this rule's raw words.
pub(super) const EVALS: &[&str] = &[
    "exec(",
    "eval(",
    "new function(",
    "compile(",
    "instance_eval(",
];

/// Shortest blank literal judged.
const MIN: usize = 64;

fn is_code(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    [".py", ".js", ".mjs", ".cjs", ".ts", ".rb"]
        .iter()
        .any(|e| p.ends_with(e))
}

fn zero_width(c: char) -> bool {
    matches!(
        c,
        '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}'
    )
}

/// Whether the raw line holds a quoted literal of blanks only.
fn blank_literal(raw: &str) -> bool {
    for q in ['"', '\''] {
        let mut rest = raw;
        while let Some(s) = rest.find(q) {
            let body = &rest[s + 1..];
            let Some(e) = body.find(q) else { break };
            let lit = &body[..e];
            if lit.chars().count() >= MIN {
                let (sp, tab, zw, other) =
                    lit.chars().fold((0, 0, 0, 0), |(a, b, c, d), ch| match ch {
                        ' ' => (a + 1, b, c, d),
                        '\t' => (a, b + 1, c, d),
                        ch if zero_width(ch) => (a, b, c + 1, d),
                        _ => (a, b, c, d + 1),
                    });
                if other == 0 && ((sp > 0 && tab > 0 && zw == 0) || (zw > 0 && sp + tab == 0)) {
                    return true;
                }
            }
            rest = &body[e + 1..];
        }
    }
    false
}

pub(super) fn whitespace_encoded_exec(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| is_code(f.path) && !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        if !EVALS.iter().any(|w| has(all, w))
            || !(has(file.content, "\t") || has(file.content, "\u{200b}"))
        {
            continue;
        }
        let lw = file.lowered();
        let Some(i) =
            (0..lw.lines.len()).find(|&i| lw.lines[i].len() >= MIN && blank_literal(lw.lines[i]))
        else {
            continue;
        };
        out.push(found(
            "obfuscation.whitespace-encoded-exec",
            "obfuscation",
            Severity::Critical,
            file,
            i,
            format!(
                "{}:{}: a long literal made only of blank characters (spaces and tabs, or zero-width characters) sits in a file that evaluates code. Blanks read as bits hide a program no one can see; nothing legitimate stores code that way. Do not install this skill.",
                file.path,
                i + 1
            ),
            Vec::new(),
        ));
    }
}
