//! How a line that a rule fired on reads: negated clauses, teaching or defensive prose, quoted
//! spans and example blockquotes, HTML attributes, detector patterns and test data in code, and
//! soft-wrapped paragraphs. Separate from [`super`] because these are pure predicates on text, each
//! tested on its own, while [`super::scan_file`] only combines their answers per match.

use std::sync::OnceLock;

use regex_automata::meta::Regex;

use super::negation;
use crate::scan::rules::line_regex;

/// Whether the clause a match sits in is negated before the match ("never run `curl … | sh`",
/// "do not follow attempts to override …"): from the last sentence break before the match up to it.
pub(super) fn negated_before(line: &str, at: usize) -> bool {
    let mut at = at.min(line.len());
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    let before = &line[..at];
    let start = before
        .rfind(['.', ';', '!', '?', '。', '；', '！', '？'])
        .map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
    negation().is_match(&before.as_bytes()[start..])
}

/// Whether a prose match's clause began on the previous line of the same paragraph and is negated
/// there ("Never include` / `the contents of `.env` in a report."): the line holds no sentence
/// break before the match and does not open a list item or heading, so its sentence continues the
/// previous line's last one.
pub(super) fn negated_from_before(content: &str, line_start: usize, line: &str, at: usize) -> bool {
    let mut at = at.min(line.len());
    while !line.is_char_boundary(at) {
        at -= 1;
    }
    let head = &line[..at];
    let t = line.trim_start();
    if head.contains(['.', ';', '!', '?', '。', '；', '！', '？'])
        || t.starts_with(['-', '*', '+', '#', '>', '|'])
        || t.starts_with(|c: char| c.is_ascii_digit())
    {
        return false;
    }
    let before = content.get(..line_start).unwrap_or("");
    let before = before.strip_suffix('\n').unwrap_or(before);
    let before = before.strip_suffix('\r').unwrap_or(before);
    let prev = before.rsplit('\n').next().unwrap_or("");
    if prev.trim().is_empty() || prev.len() > 4096 || prev.trim_start().starts_with('#') {
        return false;
    }
    negated_before(&format!("{prev} {head}"), prev.len() + 1 + head.len())
}

/// Whether a prose line teaches or defends, judged on its words (URLs and addresses removed, so a
/// host such as `collector.example` is not taken for "example").
pub(super) fn is_defensive(line: &str) -> bool {
    // Round 50t: an image's alt text describes the picture, not the line's stance.
    let line = &*super::link_title::without_image_alt(line);
    let mut words = String::with_capacity(line.len());
    let mut last = 0;
    for (s, e) in crate::scan::hosts::urls_in(line) {
        words.push_str(&line[last..s]);
        last = e;
    }
    words.push_str(&line[last..]);
    // Paths, file names and addresses are not words ("example-architecture.png").
    let words: String = words
        .split_whitespace()
        .filter(|w| {
            let b = w.as_bytes();
            !w.contains(['@', '/', '\\'])
                && !(1..b.len().saturating_sub(1)).any(|i| {
                    b[i] == b'.'
                        && b[i - 1].is_ascii_alphanumeric()
                        && b[i + 1].is_ascii_alphanumeric()
                })
        })
        .collect::<Vec<_>>()
        .join(" ");
    defensive().is_match(words.as_bytes())
}

/// Whether a Markdown blockquote starting its line at byte `at` is shown as an example: its
/// section's heading, or the nearest prose line before or after the quote block, teaches or defends
/// ("Example 1: the invoice", "Red flags: …"). A quote in an install section is an instruction.
/// Looks at most [`QUOTE_LOOK`] bytes each way, so a long quote costs no more per line.
pub(super) fn quote_is_example(content: &str, at: usize, heading: (usize, usize)) -> bool {
    if heading.1 > heading.0 && content.get(heading.0..heading.1).is_some_and(is_defensive) {
        return true;
    }
    let nearest = |text: &str, backwards: bool| -> Option<String> {
        let mut lines: Vec<&str> = text.split('\n').collect();
        if backwards {
            lines.reverse();
        }
        lines
            .into_iter()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('>'))
            .map(str::to_owned)
    };
    let mut from = at.saturating_sub(QUOTE_LOOK);
    while !content.is_char_boundary(from) {
        from += 1;
    }
    let before = content.get(from..at).unwrap_or("");
    let rest = content.get(at..).unwrap_or("");
    // Skip the quote's own line, then look past the block.
    let rest = rest.split_once('\n').map_or("", |(_, r)| r);
    let mut to = rest.len().min(QUOTE_LOOK);
    while !rest.is_char_boundary(to) {
        to -= 1;
    }
    [nearest(before, true), nearest(&rest[..to], false)]
        .into_iter()
        .flatten()
        .any(|l| !l.starts_with('#') && is_defensive(&l))
}

/// Headings of sections that teach about attacks.
pub(super) fn teaching_heading() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r"(?i)\b(red flags?|attacks?|attackers?|malicious|malware|lures?|phishing|scams?|injections?|detect(ion|ing)?|warning signs|indicators|threats?|what to refuse)\b|诱饵|钓鱼|攻击|恶意|诈骗|骗局|木马|识别(诈骗|骗局|木马|风险|陷阱|攻击|恶意|钓鱼)")
            .expect("valid")
    })
}

/// How far [`quote_is_example`] looks for the prose around a quote block.
const QUOTE_LOOK: usize = 4096;

/// Markers of text that talks *about* an attack (teaches, quotes, defends) rather than doing it.
pub(super) fn defensive() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r#"(?i)\b(e\.g\.|for example|for instance|such as|like ["'`“「]|examples?|attempts? to|tries to|trying to|phrases?|wording|attack(s|er|ers)?|attacker'?s|injection|injected|malicious|suspicious|red flags?|detection|look for|watch for|refuse (to|such|any|all|these|those|them|requests?|instructions?|commands?|it and)|refus(als?|ing)|reject|classif(y|ier|ies)|payloads?|probes?|jailbreaks?|adversarial|untrusted|phishing|scam|lures?|(telling|asking|instructing) (the )?(agent|model|assistant|user) to|tells? the (agent|model|assistant) to|tells the user to|asks? the (agent|model|assistant) to|asks the user to|instructs? the (agent|model) to|instructs the user to|override-style)\b|\b(ataques?|atacantes?|injeção|iniezione|attacc(o|hi|ante)|saldırı|saldırgan|enjeksiyon|зловмисник\w*|útočník\w*|serangan|penyerang|mshambuliaji)\b|例如|比如|攻击|注入|恶意|可疑|示例|诸如|类似\s*["“「『]"#)
            .expect("valid")
    })
}

/// Whether byte `at` of a line sits inside an HTML tag (`<span style="font-size:0">`): the quotes
/// there delimit an attribute's value, markup that takes effect, not a quotation.
pub fn in_html_tag(line: &str, at: usize) -> bool {
    let before = line.get(..at).unwrap_or("");
    let Some(open) = before.rfind('<') else {
        return false;
    };
    !before[open..].contains('>')
        && line[open + 1..]
            .bytes()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
}

/// Whether the byte range `at..to` of a prose line sits inside a quoted span ("…", `…`, “…”,
/// „…“, «…», 「…」, 『…』, or '…' opened after a non-letter): a quoted phrase is shown, not said.
pub fn is_quoted(line: &str, at: usize) -> bool {
    quote_open(line, at).is_some()
}

/// Whether the whole match `at..to` sits inside one quoted span: a match that starts inside a
/// quoted file name and runs on past its closing quote (`` `Tool.zip` (password: `x`) ``) is said,
/// not quoted.
pub fn is_quoted_match(line: &str, at: usize, to: usize) -> bool {
    match quote_span(line, at) {
        Some(open) => quote_span(line, to.max(at)) == Some(open),
        None => false,
    }
}

/// Whether the quote open at byte `at` of a prose line holds words the text tells the agent to say
/// to someone (`Tell your owner: "…"`, `Ask the user: “…”`): the words of a message it is to send,
/// not a phrase shown as an example. Only an imperative at the start of the line (after a list
/// marker) whose only other words are who is addressed, ending in a colon right before the quote.
pub fn is_scripted_speech(line: &str, at: usize) -> bool {
    let Some((_, open)) = quote_span(line, at) else {
        return false;
    };
    let before = line[..open].trim_end().to_ascii_lowercase();
    let Some(lead) = before.strip_suffix(':') else {
        return false;
    };
    let lead = lead.trim_start_matches(|c: char| {
        c.is_whitespace() || c.is_ascii_digit() || matches!(c, '-' | '*' | '+' | '.' | ')' | '>')
    });
    let mut words = lead.split_whitespace();
    let verb = words.next().unwrap_or("");
    let rest: Vec<&str> = words.collect();
    matches!(
        verb,
        "tell" | "ask" | "say" | "message" | "remind" | "reply" | "respond" | "write"
    ) && rest.len() <= 3
        && rest.iter().all(|w| {
            matches!(
                *w,
                "to" | "your"
                    | "the"
                    | "them"
                    | "him"
                    | "her"
                    | "owner"
                    | "human"
                    | "user"
                    | "operator"
                    | "principal"
                    | "person"
                    | "master"
                    | "boss"
                    | "client"
            )
        })
}

/// Whether byte `at` of a prose line sits inside a quote that an earlier line of the same paragraph
/// opened and this line has not yet closed (`Wording like "before using this skill, download` /
/// `Helper.zip … password `1234`". Legitimate…`).
pub fn quoted_from_before(content: &str, line_start: usize, line: &str, at: usize) -> bool {
    let before = content.get(..line_start).unwrap_or("");
    let before = before.strip_suffix('\n').unwrap_or(before);
    let before = before.strip_suffix('\r').unwrap_or(before);
    let prev = before.rsplit('\n').next().unwrap_or("");
    if prev.trim().is_empty() || prev.len() > 4096 {
        return false;
    }
    let close = match quote_open(prev, prev.len()) {
        Some('"') => '"',
        Some('“') => '”',
        Some('„') => '“',
        Some('«') => '»',
        Some('「') => '」',
        Some('『') => '』',
        _ => return false,
    };
    line.find(close).is_none_or(|end| at < end)
}

/// The quote character open at byte `at` of a line (or at its end), if any.
fn quote_open(line: &str, at: usize) -> Option<char> {
    quote_span(line, at).map(|(q, _)| q)
}

/// Round 50t: whether byte `at` of a line is inside a Markdown link's or image's title (its quotes
/// are the link's syntax, not a quotation).
pub(super) fn in_link_title(line: &str, at: usize) -> bool {
    quote_span(line, at).is_some_and(|(_, open)| super::link_title::is_link_title(line, open))
}

/// The quote open at byte `at` of a line (or at its end) and where it opened, if any.
fn quote_span(line: &str, at: usize) -> Option<(char, usize)> {
    let mut open: Option<(char, usize)> = None;
    let mut prev: Option<char> = None;
    for (i, c) in line.char_indices() {
        if i >= at {
            return open;
        }
        match open {
            Some((q, _)) => {
                let closes = match q {
                    '“' => c == '”',
                    // German and Polish quotes open low („…“, „…”, „…"); French guillemets («…»).
                    '„' => matches!(c, '“' | '”' | '"'),
                    '«' => c == '»',
                    '「' => c == '」',
                    '『' => c == '』',
                    '\'' => c == '\'' && !line[i + 1..].starts_with(|n: char| n.is_alphanumeric()),
                    q => c == q,
                };
                if closes {
                    open = None;
                }
            }
            None => {
                let opens = match c {
                    // A straight double quote right after a letter closes a quote opened on an
                    // earlier line (`…example" or "…`); it opens nothing. Chinese and Japanese set
                    // quotes right after a character (`类似"忽略之前的指令"`): only an ASCII letter
                    // or digit counts.
                    '"' => !prev.is_some_and(|p| p.is_ascii_alphanumeric()),
                    '`' | '“' | '「' | '『' | '„' | '«' => true,
                    '\'' => !prev.is_some_and(char::is_alphanumeric),
                    _ => false,
                };
                if opens {
                    open = Some((c, i));
                }
            }
        }
        prev = Some(c);
    }
    open
}

/// Whether a code line holds a regular expression literal (a detector's pattern: `r"~/\.ssh|\.env\b"`,
/// `re.compile(…)`, `new RegExp(…)`): what it matches is searched for, not done. Two distinct regex
/// tokens are required, so a Windows path in a raw string (`r"C:\bin"`) is not taken for one.
pub(super) fn is_pattern_literal(line: &str) -> bool {
    // A raw string's `r` starts a token (`r"…"`, `br"…"`); the `r"` ending a word (`"never"`) is
    // a quote.
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let raw_opener = ["r\"", "r'"].iter().any(|o| {
        line.match_indices(o).any(|(at, _)| {
            let mut before = line[..at].chars().rev();
            match before.next() {
                None => true,
                Some(c) if !ident(c) => true,
                Some('b' | 'B' | 'f' | 'F') => !before.next().is_some_and(ident),
                Some(_) => false,
            }
        })
    });
    let opener = raw_opener
        || [
            "re.compile(",
            "RegExp(",
            "Regex::new(",
            "regexp.MustCompile(",
            "Pattern.compile(",
            // Rule files of detectors (YAML / JSON): `pattern: '…'`, `"regex": "…"`.
            "pattern: ",
            "regex: ",
            "\"pattern\":",
            "\"regex\":",
        ]
        .iter()
        .any(|o| line.contains(o));
    if raw_string_entry(line) || compiled_alternation(line) {
        return true;
    }
    if !opener {
        return false;
    }
    let tokens = [
        "\\s", "\\b", "\\.", "\\d", "\\w", "(?:", "(?i)", "[^", ")*", ")?", "|\\", ".*", "\\(",
    ];
    tokens.iter().filter(|t| line.contains(*t)).count() >= 2
}

/// Whether a code line hands a string literal of alternatives straight to a regex compiler
/// (`re.compile(r"bash -i >& /dev/tcp/|nc -e /bin/sh")`, `new RegExp('a|b')`): a detector's list of
/// what it looks for, with no regex token needed. The literal must be the call's first argument and
/// hold a `|`, and nothing on the line may run a command.
fn compiled_alternation(line: &str) -> bool {
    const CALLS: [&str; 5] = [
        "re.compile(",
        "RegExp(",
        "Regex::new(",
        "regexp.MustCompile(",
        "Pattern.compile(",
    ];
    CALLS.iter().any(|c| {
        line.find(c).is_some_and(|i| {
            let arg = line[i + c.len()..].trim_start();
            let arg = arg
                .strip_prefix(['r', 'R'])
                .filter(|a| a.starts_with(['"', '\'']))
                .unwrap_or(arg);
            let Some(q) = arg.chars().next().filter(|c| matches!(c, '"' | '\'' | '`')) else {
                return false;
            };
            arg[1..]
                .find(q)
                .is_some_and(|end| arg[1..1 + end].contains('|'))
        })
    }) && ![
        "system(",
        "subprocess",
        "exec(",
        "popen(",
        "spawn(",
        "Invoke-Expression",
    ]
    .iter()
    .any(|w| line.contains(w))
}

/// Whether a code line is one raw-string entry of a list or map (`r"disregard the system prompt",`,
/// `"bash-dev-tcp": r"bash -i >& /dev/tcp/",`): a detector's table of patterns. Raw strings are
/// how Python writes regexes; one standing alone as an element, with no name assigned and nothing
/// called, is data a detector searches for, not a command.
fn raw_string_entry(line: &str) -> bool {
    let t = line.trim();
    let Some(t) = t.strip_suffix(',') else {
        return false;
    };
    // An optional quoted key: `"name": `.
    let t = match t.as_bytes().first() {
        Some(&q @ (b'"' | b'\'')) => match t[1..].find(q as char) {
            Some(i) => match t[i + 2..].trim_start().strip_prefix(':') {
                Some(rest) => rest.trim_start(),
                None => return false,
            },
            None => return false,
        },
        _ => t,
    };
    let Some(body) = t.strip_prefix('r').or_else(|| t.strip_prefix('R')) else {
        return false;
    };
    let Some(q) = body.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
        return false;
    };
    body.len() >= 2 && body.ends_with(q) && !body[1..body.len() - 1].contains(q)
}

/// Whether bytes `start..end` of a code line sit inside one string literal (`"…"`, `'…'`, `` `…` ``)
/// and nothing on the line runs a string (`system(`, `exec(`, `subprocess`, `spawn(`…): test data.
pub(super) fn test_data_literal(line: &str, start: usize, end: usize) -> bool {
    const RUNNERS: &[&str] = &[
        "system(",
        "exec(",
        "eval(",
        "popen(",
        "Popen(",
        "subprocess",
        "spawn(",
        "execSync(",
        "check_output(",
        "Invoke-Expression",
        "iex ",
        "child_process",
        "`",
    ];
    if RUNNERS.iter().any(|r| line.contains(r)) {
        return false;
    }
    let b = line.as_bytes();
    let mut open: Option<u8> = None;
    let mut opened_at = 0;
    let mut i = 0;
    while i < b.len() && i < end {
        let c = b[i];
        match open {
            Some(_) if c == b'\\' => i += 1,
            Some(q) if c == q => open = None,
            None if matches!(c, b'"' | b'\'') => {
                open = Some(c);
                opened_at = i;
            }
            _ => {}
        }
        i += 1;
    }
    // Still inside the literal opened before the match, and it closes after it; or the whole line
    // is data (`"name": "sample",`) and the match runs across its literals.
    open.is_some() && opened_at < start && b[end.min(b.len())..].iter().any(|&c| Some(c) == open)
        || data_line(line)
}

/// Whether the string literal holding byte `end` of a code line is followed by a label: the
/// literal closes, then a comma and a 0/1/true/false label closing a tuple or list
/// (`("sample text", 1),`, JSON-escaped in a notebook as `(\"sample text\", 1),`). A labelled
/// sample is data an evaluation scores, not an order.
pub(super) fn labelled_sample(line: &str, end: usize) -> bool {
    let Some(rest) = line.get(end..) else {
        return false;
    };
    let Some(close) = rest.find(['"', '\'']) else {
        return false;
    };
    let after = rest[close + 1..].trim_start_matches(['"', '\'', '\\']);
    let Some(after) = after.trim_start().strip_prefix(',') else {
        return false;
    };
    let after = after.trim_start();
    ["0)", "1)", "0]", "1]", "true)", "false)", "True)", "False)"]
        .iter()
        .any(|l| after.starts_with(l))
}

/// Whether a code line is only string literals and the punctuation of a list, map or assignment
/// (`"k": "v",`, `x = ["a", "b"]`).
pub(super) fn data_line(line: &str) -> bool {
    let mut rest = String::new();
    let mut open: Option<char> = None;
    let mut literals = 0;
    let mut escaped = false;
    for c in line.chars() {
        match open {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => open = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => {
                open = Some(c);
                literals += 1;
            }
            None => rest.push(c),
        }
    }
    let rest = rest.trim_start();
    // An assignment or key at the start (`SAMPLE = `, `sample: `).
    let ident = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(rest.len());
    let rest = if ident > 0 && rest[ident..].trim_start().starts_with(['=', ':']) {
        &rest[ident..]
    } else {
        rest
    };
    open.is_none()
        && literals > 0
        && rest
            .chars()
            .all(|c| c.is_whitespace() || "=:,()[]{};".contains(c))
}

/// How far before and after a soft line break the joined text is searched.
const JOIN_REACH: usize = 160;

/// The byte range of `text` within [`JOIN_REACH`] of the break at `at` (on char boundaries).
pub(super) fn join_window(text: &str, at: usize) -> (usize, usize) {
    let mut s = at.saturating_sub(JOIN_REACH);
    while s > 0 && !text.is_char_boundary(s) {
        s -= 1;
    }
    let mut e = (at + 1 + JOIN_REACH).min(text.len());
    while e < text.len() && !text.is_char_boundary(e) {
        e += 1;
    }
    (s, e)
}

/// Whether a line of a script is a line of words (in a docstring or a long string): four words or
/// more, mostly letters, none of the marks statements are made of (`=`, `{`, `}`, `$`, `|`, `<`,
/// `>`, backticks), not ending like a statement or an argument list (`;`, `,`, `(`, `)`) and not a
/// comment's start. Such lines are joined like a paragraph's.
pub(super) fn is_wrapped_words(line: &str) -> bool {
    let t = line.trim();
    if t.len() < 16
        || t.len() > 400
        || t.starts_with(['#', '/', '*', '-', '"', '\''])
        || t.contains(['=', '{', '}', '$', '|', '<', '>', '`'])
        || t.ends_with([';', ',', '(', ')'])
    {
        return false;
    }
    // A whole `echo "…"` command ends its string at the line break (round 32b).
    if super::echo_line::complete_echo(t) {
        return false;
    }
    let letters = t.chars().filter(|c| c.is_alphabetic()).count();
    t.split_whitespace().count() >= 4 && letters * 10 >= t.chars().count() * 6
}

/// Whether `line` continues the prose line at `prev_start..prev_end` of `content` as one soft-wrapped
/// paragraph: neither is blank, a heading, a table row or a horizontal rule, and `line` does not
/// open a new list item or change the blockquote level.
pub(super) fn continues_paragraph(
    content: &str,
    prev_start: usize,
    prev_end: usize,
    line: &str,
) -> bool {
    let prev = content.get(prev_start..prev_end).unwrap_or("").trim();
    let cur = line.trim();
    // A sentence that ends at the break ends every phrase the rules look for (their gaps do not
    // cross a full stop followed by a space).
    if prev.ends_with(['.', '!', '?', '。', '！', '？']) {
        return false;
    }
    let block = |t: &str| {
        t.is_empty()
            || t.starts_with('#')
            || t.starts_with('|')
            || t.starts_with("---")
            || t.starts_with("```")
            || t.starts_with("~~~")
    };
    if block(prev) || block(cur) || prev.starts_with('>') != cur.starts_with('>') {
        return false;
    }
    let item = cur
        .strip_prefix(['-', '*', '+'])
        .map(|r| r.starts_with(' '))
        .unwrap_or(false)
        || {
            let digits = cur.bytes().take_while(u8::is_ascii_digit).count();
            digits > 0 && cur[digits..].starts_with(['.', ')'])
        };
    !item
}

/// Step the front-matter state over a Markdown file's line `idx`: whether the line is a front-matter
/// key naming a command that an installer or the agent runs (`command: "npm install"`,
/// `- install: ./setup.sh`, `postinstall:`), whose value is code. The front matter is the block
/// from a first line `---` to the next `---` (or `...`).
pub(super) fn front_matter_command(open: &mut bool, idx: usize, line: &str) -> bool {
    let t = line.trim();
    if idx == 0 {
        *open = t == "---";
        return false;
    }
    if !*open {
        return false;
    }
    if t == "---" || t == "..." {
        *open = false;
        return false;
    }
    let Some((key, value)) = t.trim_start_matches("- ").split_once(':') else {
        return false;
    };
    let key = key.trim().trim_matches(['"', '\'']).to_ascii_lowercase();
    !value.trim().is_empty()
        && matches!(
            key.as_str(),
            "command"
                | "commands"
                | "cmd"
                | "install"
                | "preinstall"
                | "postinstall"
                | "pre_install"
                | "post_install"
                | "setup"
                | "run"
                | "script"
                | "exec"
                | "entrypoint"
        )
}

/// Whether a Markdown line is one inline code span and nothing else (`` `tool --flag` ``): a
/// command set on a line of its own, shown like a one-line code block.
pub(super) fn lone_code_span(line: &str) -> bool {
    let t = line.trim();
    t.len() > 2
        && t.starts_with('`')
        && t.ends_with('`')
        && !t[1..t.len() - 1].contains('`')
        && t[1..t.len() - 1].contains(' ')
}
