//! A catalogue of vulnerable patterns in a review skill's documentation (round 27, sets26b).
//!
//! Code-review and scanner skills list what to flag as a plain fenced block, one pattern per line,
//! each labelled with a trailing comment naming its language or its vulnerability class:
//!
//! ```text
//! eval(user_input)           # Any language
//! pickle.loads(user_data)    # Python
//! os.system(f"cmd {x}")      # Command injection
//! ```
//!
//! Such a block is a list of patterns, not a program: the lines mix languages and nothing runs them.
//! An execution finding on one of its lines is informational (`medium`). The block must be fenced
//! without a language (or as plain text), in Markdown or text documentation (never a script), hold at
//! least three non-blank lines, and every non-blank line must carry such a label; a shell or Python
//! fence, an unlabelled line, or a label that names something else keeps every finding. One pass over
//! the findings.

use std::sync::OnceLock;

use regex_automata::meta::Regex;

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::rules::line_regex;

/// A trailing comment (two or more spaces, then `#` or `//`) whose words start with a language or a
/// vulnerability class.
fn label() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r"(?i)\S\s{2,}(?:#|//)\s*(?:any language|python|php|java(?:script)?|node(?:\.js)?|typescript|ruby|perl|go(?:lang)?|rust|c\+\+|c#|\.net|powershell|bash|shell|sql|nosql|ldap|xpath|(?:dom|reflected|stored|react|vue|angular)?\s*xss|ssrf|csrf|xxe|idor|rce|path traversal|directory traversal|open redirect|(?:sql|nosql|command|code|os command|template|header|log|ldap|xpath)\s+injection|insecure deserialization|deserialization|prototype pollution|weak (?:crypto|hash|random)|hardcoded (?:secret|password|key|credential)s?)\b")
            .expect("valid")
    })
}

/// An open fence: its marker, whether its info string allows a catalogue, and its lines (1-based
/// number, text).
struct Open<'a> {
    marker: String,
    plain: bool,
    lines: Vec<(usize, &'a str)>,
}

/// The 1-based line numbers that sit in a labelled pattern catalogue (see the module's
/// documentation).
fn catalogue_lines(content: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut open: Option<Open<'_>> = None;
    for (i, line) in content.lines().enumerate() {
        let t = line.trim_start();
        let marker: String = t.chars().take_while(|&c| c == '`' || c == '~').collect();
        match open.take() {
            None => {
                if marker.len() >= 3 {
                    let info = t[marker.len()..].trim().to_ascii_lowercase();
                    let plain =
                        info.is_empty() || matches!(info.as_str(), "text" | "txt" | "plaintext");
                    open = Some(Open {
                        marker,
                        plain,
                        lines: Vec::new(),
                    });
                }
            }
            Some(Open {
                marker: m,
                plain,
                mut lines,
            }) => {
                if marker.len() >= m.len()
                    && marker.starts_with(&m[..1])
                    && t[marker.len()..].trim().is_empty()
                {
                    let body: Vec<&(usize, &str)> =
                        lines.iter().filter(|(_, l)| !l.trim().is_empty()).collect();
                    if plain
                        && body.len() >= 3
                        && body.iter().all(|(_, l)| label().is_match(l.as_bytes()))
                    {
                        out.extend(body.iter().map(|(n, _)| *n));
                    }
                } else {
                    lines.push((i + 1, line));
                    open = Some(Open {
                        marker: m,
                        plain,
                        lines,
                    });
                }
            }
        }
    }
    out
}

/// Demotes execution findings on the lines of a labelled pattern catalogue in documentation.
pub(super) fn demote_catalogue_patterns(bundle: &Bundle, out: &mut [Finding]) {
    let mut cache: Vec<(String, Vec<usize>)> = Vec::new();
    super::doc_lines::demote_doc_lines(
        bundle,
        out,
        &["execution"],
        " (Informational: a line of a labelled catalogue of patterns to flag in the skill's documentation, not a command it runs.)",
        |file, content, line| {
            let i = match cache.iter().position(|(p, _)| p == file) {
                Some(i) => i,
                None => {
                    cache.push((file.to_owned(), catalogue_lines(content)));
                    cache.len() - 1
                }
            };
            cache[i].1.contains(&line)
        },
    );
}
