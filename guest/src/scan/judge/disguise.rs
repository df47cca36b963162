//! Command names spelled so a pattern does not see them (round 36m, `obfuscation.disguised-command`),
//! and the plain reading of a shell line the round-36m judges share.
//!
//! A shell runs `cur\l`, `cu'r'l` and `c""url` as `curl`: a backslash before an ordinary letter and
//! a quoted run inside a word change nothing for the shell, only for whoever (or whatever) reads
//! the line. A word that mixes Latin letters with Cyrillic or Greek look-alikes (`сurl` with a
//! Cyrillic `с`) reads as `curl` to a person. No honest script spells a tool's name in these ways;
//! the only use is to slip past a reviewer or a scanner. A line whose command word names a network
//! tool, a shell or an interpreter only once so undone is `high`; what the line then does is judged
//! by the rules that read its plain form ([`plain_line`]: `key_upload`).
//!
//! Plain quoted strings (`"curl"`), escapes in a string (`"a\nb"`), a variable holding a command
//! (`CURL="curl -fsSL"; $CURL …`, common in install scripts) and words that are wholly Cyrillic or
//! Greek (prose in those languages) are not disguises; test files and signatures are not read. One pass over each line: linear in bytes.

use super::Bundle;
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::rules::Severity;

/// Tools whose name a disguise hides (the command word, lower-case).
pub(super) const TOOLS: &[&str] = &[
    "curl",
    "wget",
    "bash",
    "sh",
    "zsh",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "python",
    "python3",
    "perl",
    "ruby",
    "node",
    "base64",
    "eval",
    "chmod",
    "sudo",
    "powershell",
    "pwsh",
    "iex",
    "openssl",
    "scp",
    "rsync",
    "dig",
    "nslookup",
    "cat",
];

/// A Latin look-alike of a Cyrillic or Greek letter.
fn latin_twin(c: char) -> Option<char> {
    Some(match c {
        'а' => 'a',
        'е' => 'e',
        'о' => 'o',
        'р' => 'p',
        'с' => 'c',
        'у' => 'y',
        'х' => 'x',
        'і' => 'i',
        'ј' => 'j',
        'ѕ' => 's',
        'ԁ' => 'd',
        'ӏ' => 'l',
        'һ' => 'h',
        'А' => 'A',
        'В' => 'B',
        'Е' => 'E',
        'К' => 'K',
        'М' => 'M',
        'Н' => 'H',
        'О' => 'O',
        'Р' => 'P',
        'С' => 'C',
        'Т' => 'T',
        'Х' => 'X',
        'ο' => 'o',
        'α' => 'a',
        'ρ' => 'p',
        'ν' => 'v',
        'Ο' => 'O',
        'Α' => 'A',
        _ => return None,
    })
}

/// How a line hid a word, for the finding's description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Trick {
    /// Cyrillic or Greek letters inside a Latin word.
    Homoglyph,
    /// A backslash before an ordinary letter inside a word.
    Backslash,
    /// A quoted run inside a word (`cu'r'l`, `c""url`).
    QuoteSplit,
}

impl Trick {
    pub(super) fn phrase(self) -> &'static str {
        match self {
            Trick::Homoglyph => "Cyrillic or Greek look-alike letters inside a Latin word",
            Trick::Backslash => "a backslash inside a word (`cur\\l`), which the shell drops",
            Trick::QuoteSplit => "a quoted run inside a word (`cu'r'l`), which the shell joins",
        }
    }
}

/// The line as the shell reads it: look-alike letters of mixed words folded to Latin, backslashes
/// between two letters or digits dropped, quoted runs of at most three characters inside a word
/// joined. Also which tricks it undid (each once).
pub(super) fn plain_line(line: &str) -> (String, Vec<Trick>) {
    let mut tricks = Vec::new();
    if line.is_ascii() && !line.contains(['\\', '\'', '"']) {
        return (line.to_string(), tricks);
    }
    let chars: Vec<char> = line.chars().collect();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(line.len());
    let mut quote: Option<char> = None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        // A run of word characters: fold look-alikes when it also holds an ASCII letter.
        if word(c) {
            let s = i;
            while i < chars.len() && word(chars[i]) {
                i += 1;
            }
            let run = &chars[s..i];
            let mixed = run.iter().any(char::is_ascii_alphabetic)
                && run.iter().any(|&c| latin_twin(c).is_some());
            for &c in run {
                match latin_twin(c) {
                    Some(l) if mixed => out.push(l),
                    _ => out.push(c),
                }
            }
            if mixed && !tricks.contains(&Trick::Homoglyph) {
                tricks.push(Trick::Homoglyph);
            }
            continue;
        }
        let prev_alnum = i > 0 && chars[i - 1].is_ascii_alphanumeric();
        if c == '\\' {
            let next_letter = chars.get(i + 1).is_some_and(|n| n.is_ascii_alphabetic());
            // Inside quotes `\n`, `\t`, `\r`… between letters are string escapes, not a split word.
            let escape = quote.is_some()
                && chars.get(i + 1).is_some_and(|n| {
                    matches!(n, 'n' | 't' | 'r' | 'x' | 'u' | 'd' | 's' | 'w' | 'b')
                });
            if prev_alnum && next_letter && !escape {
                if !tricks.contains(&Trick::Backslash) {
                    tricks.push(Trick::Backslash);
                }
                i += 1;
                continue;
            }
            // Any other backslash keeps the character after it as it is (`\"` is no quote).
            out.push(c);
            if let Some(&n) = chars.get(i + 1) {
                out.push(n);
            }
            i += 2;
            continue;
        }
        if (c == '\'' || c == '"') && prev_alnum {
            // A closing quote at most three characters on, then a letter: a split word.
            let close = (i + 1..chars.len().min(i + 5)).find(|&j| chars[j] == c);
            if let Some(j) = close
                && chars[i + 1..j].iter().all(char::is_ascii_alphanumeric)
                && chars.get(j + 1).is_some_and(char::is_ascii_alphabetic)
            {
                out.extend(&chars[i + 1..j]);
                if !tricks.contains(&Trick::QuoteSplit) {
                    tricks.push(Trick::QuoteSplit);
                }
                i = j + 1;
                continue;
            }
        }
        if c == '\'' || c == '"' {
            quote = match quote {
                None => Some(c),
                Some(q) if q == c => None,
                q => q,
            };
        }
        out.push(c);
        i += 1;
    }
    (out, tricks)
}

/// The command words of a plain shell line: the first word of each command (after `|`, `;`,
/// `&&`, `||`, `(`, `{`, `$(`, a backtick, `sudo`, `then`, `do`), lower-cased.
pub(super) fn command_words(plain: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let b = plain.as_bytes();
    let mut start_of_command = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if matches!(c, b'|' | b';' | b'&' | b'(' | b'{' | b'`' | b'$') {
            start_of_command = c != b'$' || b.get(i + 1) == Some(&b'(');
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if matches!(c, b')' | b'}') {
            i += 1;
            continue;
        }
        let s = i;
        while i < b.len()
            && !b[i].is_ascii_whitespace()
            && !matches!(b[i], b'|' | b';' | b'&' | b')' | b'}' | b'`')
        {
            i += 1;
        }
        if start_of_command {
            let w = plain[s..i].to_ascii_lowercase();
            let w = w.rsplit('/').next().unwrap_or("").to_string();
            let prefix = matches!(
                w.as_str(),
                "sudo" | "then" | "do" | "exec" | "time" | "nohup" | "!"
            );
            out.push((s, w));
            start_of_command = prefix;
        }
    }
    out
}

pub(super) fn disguised_command(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        if file.kind == FileKind::Text || file.place.test || file.place.signature {
            continue;
        }
        let fenced = (file.kind == FileKind::Markdown)
            .then(|| crate::scan::teaching::fenced_lines(file.content));
        for (i, raw) in file.content.lines().enumerate() {
            if let Some(f) = &fenced
                && !f.get(i + 1).copied().unwrap_or(false)
            {
                continue;
            }
            let (plain, tricks) = plain_line(raw);
            if tricks.is_empty() {
                continue;
            }
            let words = command_words(&plain);
            let plain_raw = command_words(raw);
            let Some((_, tool)) = words.iter().find(|(_, w)| {
                TOOLS.contains(&w.as_str()) && !plain_raw.iter().any(|(_, r)| r == w)
            }) else {
                continue;
            };
            out.push(Finding {
                rule_id: "obfuscation.disguised-command".into(),
                category: "obfuscation".into(),
                severity: Severity::High,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{} runs `{tool}` under a disguised spelling ({}): the shell runs it as `{tool}`, but a reader or a pattern looking for `{tool}` does not see it. No honest script spells a command this way.",
                    file.path,
                    i + 1,
                    tricks
                        .iter()
                        .map(|t| t.phrase())
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
                related: Vec::new(),
            });
        }
    }
}
