//! Scanning one text file: line context (Markdown fences vs prose, script files, comments, negated
//! sentences), the content rules, invisible and smuggled characters, and the multi-line ClawHavoc
//! install-prompt shape.

use std::sync::OnceLock;

use regex_automata::meta::Regex;
use serde::Serialize;

use super::rules::{RuleSet, Severity, line_regex};

/// Longest evidence excerpt, in characters.
pub const EVIDENCE_CHARS: usize = 160;
/// How many lines after an install prompt a payload still counts as part of it.
pub const INSTALL_PROMPT_WINDOW: usize = 15;
/// Findings of one rule per file beyond this are counted, not listed.
pub const MAX_FINDINGS_PER_RULE_PER_FILE: usize = 5;

/// One reason for concern.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule_id: String,
    pub category: String,
    pub severity: Severity,
    pub file: String,
    /// 1-based; 0 for findings about the whole file or bundle.
    pub line: usize,
    /// The offending text, truncated, with secrets redacted.
    pub evidence: String,
    /// What fired and what a user can do about it.
    pub description: String,
}

/// How a file's lines are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// Markdown: prose, with fenced code blocks as code.
    Markdown,
    /// A script or config file: every line is code.
    Code,
    /// Plain text: prose.
    Text,
}

/// Choose how to read a file from its path (and first line, for extension-less scripts).
pub fn kind_of(path: &str, content: &str) -> FileKind {
    let lower = path.to_lowercase();
    let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match ext {
        "md" | "markdown" | "mdx" => FileKind::Markdown,
        "txt" | "rst" | "adoc" => FileKind::Text,
        _ if content.starts_with("#!") => FileKind::Code,
        "" => FileKind::Text,
        _ => FileKind::Code,
    }
}

/// Build the rules (every regex compiled) and this module's helper patterns now
/// ([`crate::initialize`]).
pub(crate) fn initialize() {
    RuleSet::builtin().compile_lazy();
    negation();
    redactors();
    install_prompt_words();
    install_prompt();
    payload();
    outbound_send();
    loopback();
}

fn negation() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r"(?i)\b(never|do not|don't|dont|must not|mustn't|should not|shouldn't|avoid|refuse to|not allowed to|forbidden)\b|禁止|不要|严禁|切勿|不得")
            .expect("valid")
    })
}

fn is_comment(line: &str) -> bool {
    let t = line.trim_start();
    (t.starts_with('#') && !t.starts_with("#!"))
        || t.starts_with("//")
        || t.starts_with("-- ")
        || t.starts_with("<!--")
        || t.starts_with(';')
        || t.starts_with("REM ")
}

/// Categories whose findings are demoted on comment and negated lines: talking about an attack is not
/// one. Injection and smuggling are not demoted ("do NOT tell the user" is the attack).
fn demotable(category: &str) -> bool {
    !matches!(category, "prompt_injection" | "invisible_text")
}

fn redactors() -> &'static [Regex] {
    static R: OnceLock<Vec<Regex>> = OnceLock::new();
    R.get_or_init(|| {
        [
            r"(sk-(?:ant-)?|ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|xox[baprs]-|AKIA|AIza)[A-Za-z0-9_\-]{8,}",
            r"[A-Za-z0-9+/]{48,}={0,2}",
        ]
        .iter()
        .map(|p| line_regex(p).expect("valid"))
        .collect()
    })
}

/// An excerpt around the match, truncated to [`EVIDENCE_CHARS`], with key-shaped strings redacted.
pub fn evidence(line: &str, start: usize, end: usize) -> String {
    let mut text = line.trim().to_owned();
    for r in redactors() {
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for m in r.find_iter(text.as_bytes()) {
            out.push_str(&text[last..m.start()]);
            let keep: String = text[m.start()..m.end()].chars().take(6).collect();
            out.push_str(&keep);
            out.push_str("…[redacted]");
            last = m.end();
        }
        out.push_str(&text[last..]);
        text = out;
    }
    if text.chars().count() <= EVIDENCE_CHARS {
        return text;
    }
    // Centre the window on the match (positions are approximate after redaction; that is fine).
    let centre = line[..start.min(line.len())].chars().count()
        + line[start.min(line.len())..end.min(line.len())]
            .chars()
            .count()
            / 2;
    let from = centre.saturating_sub(EVIDENCE_CHARS / 2);
    let excerpt: String = text.chars().skip(from).take(EVIDENCE_CHARS).collect();
    format!("{}{excerpt}…", if from > 0 { "…" } else { "" })
}

fn is_emoji_neighbour(c: Option<char>) -> bool {
    c.is_some_and(|c| {
        ('\u{1F000}'..='\u{1FAFF}').contains(&c)
            || ('\u{2600}'..='\u{27BF}').contains(&c)
            || c == '\u{FE0F}'
    })
}

/// Invisible and smuggled characters on one line.
fn invisible(line: &str, file: &str, line_no: usize, first_line: bool, out: &mut Vec<Finding>) {
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
            severity: Severity::High,
            file: file.into(),
            line: line_no,
            evidence: format!("{bidi} bidirectional control character(s): {}", line.chars().filter(|c| !matches!(*c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')).take(EVIDENCE_CHARS).collect::<String>()),
            description: "Bidirectional override characters make text display differently from what is executed or read (\"Trojan Source\"). Remove them.".into(),
        });
    }
    let zero_width = chars
        .iter()
        .enumerate()
        .filter(|(i, c)| match **c {
            '\u{200B}' | '\u{200C}' | '\u{2060}'..='\u{2064}' => true,
            // Zero-width joiners inside emoji sequences are legitimate.
            '\u{200D}' => {
                !(is_emoji_neighbour(i.checked_sub(1).map(|j| chars[j]))
                    || is_emoji_neighbour(chars.get(i + 1).copied()))
            }
            // A byte-order mark is fine at the start of a file.
            '\u{FEFF}' => !(first_line && *i == 0),
            _ => false,
        })
        .count();
    if zero_width > 0 {
        out.push(Finding {
            rule_id: "invisible_text.zero-width".into(),
            category: "invisible_text".into(),
            severity: Severity::Medium,
            file: file.into(),
            line: line_no,
            evidence: format!("{zero_width} zero-width character(s) in: {}", evidence(&line.replace(['\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}'], "·"), 0, 0)),
            description: "Zero-width characters can hide words from people or split keywords to evade scanners. Remove them unless they are part of an emoji sequence.".into(),
        });
    }
}

/// Words one of which every ASCII install-prompt line has: ASCII lines without any skip the regex.
fn install_prompt_words() -> &'static aho_corasick::AhoCorasick {
    static A: OnceLock<aho_corasick::AhoCorasick> = OnceLock::new();
    A.get_or_init(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .prefilter(false)
            .build([
                "copy",
                "paste",
                "run",
                "execute",
                "enter",
                "for ",
                "prerequisite",
                "复制",
                "在终端",
            ])
            .expect("valid")
    })
}

fn install_prompt() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r"(?i)(\b(copy|paste|run|execute|enter)\b.{0,60}\b(command|this|following|below)\b.{0,80}\b(terminal|shell|console|command line)\b|\bfor (macos|mac os|windows|linux)\b.{0,40}\b(run|copy|paste|install)\b|\bprerequisites?\b.{0,60}\b(run|install)\b|复制.{0,20}(命令|终端)|在终端.{0,10}运行)")
            .expect("valid")
    })
}

fn payload() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r"(?i)(\|\s*(sudo\s+)?(ba|z|da)?sh\b|\|\s*python[0-9.]*\b|base64\s+(-d|-D|--decode)|\bbase64\b.*\|\s*(ba)?sh|iex\b|invoke-expression)")
            .expect("valid")
    })
}

/// Rules that mean "this code reads credentials".
pub const CREDENTIAL_ACCESS_RULES: &[&str] = &[
    "exfiltration.ssh-keys",
    "exfiltration.cloud-credentials",
    "exfiltration.other-agent-secrets",
    "exfiltration.browser-data",
    "exfiltration.env-dump",
    "exfiltration.stage-secrets",
    "exfiltration.agent-memory-files",
];

fn outbound_send() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r#"(?i)\b(requests|httpx|session)\.(post|put|patch)\s*\(|\burlopen\s*\(|\baxios\.(post|put)\s*\(|\bfetch\s*\([^\n]*method\s*:\s*["']?(post|put)|\bcurl\b[^\n]*(\s-d\b|--data|\s-F\b|--form|--upload-file|\s-T\s)|\bwget\b[^\n]*--post|\bscp\s+\S+\s+\S+@|\b(nc|ncat)\s+[^\s-]\S*\s+\d+|Invoke-WebRequest[^\n]*-Method\s+Post|\bsmtplib\.|\bftplib\."#)
            .expect("valid")
    })
}

fn loopback() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| line_regex(r"(?i)(localhost|127\.0\.0\.1|\[::1\])").expect("valid"))
}

/// `text.split_inclusive('\n')`, found with the `memchr` crate's SIMD search.
fn lines_inclusive(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let ends = memchr::memchr_iter(b'\n', text.as_bytes())
        .map(|i| i + 1)
        .chain((!text.ends_with('\n') && !text.is_empty()).then_some(text.len()));
    ends.map(move |end| {
        // Both ends are at a '\n' boundary or the end of the text: char boundaries.
        let line = &text[start..end];
        start = end;
        line
    })
}

/// Scan one text file with the rules; returns its findings.
pub fn scan_text(rules: &RuleSet, file: &str, content: &str) -> Vec<Finding> {
    let kind = kind_of(file, content);
    let mut out: Vec<Finding> = Vec::new();
    let mut per_rule: std::collections::BTreeMap<usize, usize> = Default::default();
    let mut in_fence: Option<&str> = None;
    let mut prompt_at: Option<usize> = None;
    // A command continued with a trailing `\` is matched as one logical line (reported at its first
    // physical line), so splitting `curl ... \` / `-d "$TOKEN"` across lines hides nothing.
    let mut continued: Option<(usize, String)> = None;
    // The keyword automaton runs once over the whole file; each physical line takes the occurrences
    // that start on it (the rules they belong to are the line's candidates).
    let mut keywords = rules.keywords_in(content).peekable();
    let mut candidates = super::rules::RuleBits::new();
    let mut end = 0;
    // Lines with their terminators, then "\n" / "\r\n" stripped: the lines `str::lines` gives.
    for (idx, raw) in lines_inclusive(content).enumerate() {
        end += raw.len();
        let physical = match raw.strip_suffix('\n') {
            Some(l) => l.strip_suffix('\r').unwrap_or(l),
            None => raw,
        };
        candidates.clear();
        while let Some(&found) = keywords.peek() {
            if found.0 >= end {
                break;
            }
            rules.add_candidates(content, found, &mut candidates);
            keywords.next();
        }
        // Every character `invisible` looks for is outside ASCII.
        let ascii = crate::is_ascii(physical);
        if !ascii {
            invisible(physical, file, idx + 1, idx == 0, &mut out);
        }
        let joined;
        let (line_no, line, is_joined) = match continued.take() {
            Some((start, mut acc)) => {
                acc.push(' ');
                acc.push_str(physical.trim_start());
                joined = acc;
                (start, joined.as_str(), true)
            }
            None => (idx + 1, physical, false),
        };
        let in_code_now =
            kind == FileKind::Code || kind == FileKind::Markdown && in_fence.is_some();
        if in_code_now && line.ends_with('\\') && line.len() < 64 * 1024 {
            continued = Some((line_no, line[..line.len() - 1].to_owned()));
            continue;
        }
        if kind == FileKind::Markdown {
            let trimmed = line.trim_start();
            let fence = ["```", "~~~"].into_iter().find(|f| trimmed.starts_with(f));
            if let Some(f) = fence {
                in_fence = match in_fence {
                    Some(open) if open == f => None,
                    None => Some(f),
                    other => other,
                };
                continue;
            }
        }
        let in_code = match kind {
            FileKind::Code => true,
            FileKind::Markdown => in_fence.is_some(),
            FileKind::Text => false,
        };
        // The ClawHavoc shape: an instruction to paste a command into a terminal, then a payload.
        if !in_code
            // (Unicode case folding could match a non-ASCII spelling the ASCII prefilter misses.)
            && (!(if is_joined { crate::is_ascii(line) } else { ascii })
                || install_prompt_words().is_match(line))
            && install_prompt().is_match(line.as_bytes())
        {
            prompt_at = Some(line_no);
        }
        if let Some(at) = prompt_at
            && line_no > at
            && line_no <= at + INSTALL_PROMPT_WINDOW
            && payload().is_match(line.as_bytes())
        {
            out.push(Finding {
                rule_id: "supply_chain.install-prompt-payload".into(),
                category: "supply_chain".into(),
                severity: Severity::Critical,
                file: file.into(),
                line: line_no,
                evidence: evidence(line, 0, line.len()),
                description: format!("Line {at} tells the user to paste a command into a terminal, and this line pipes downloaded or decoded content into a shell: the shape of the ClawHavoc infostealer campaign. Do not run it; install only from a reviewed package."),
            });
            prompt_at = None;
        }
        let hits = if is_joined {
            // A joined line is new text: search it (rare).
            rules.scan_line(line, in_code)
        } else {
            rules.confirm(line, in_code, &candidates)
        };
        if hits.is_empty() {
            continue;
        }
        // Only a line with findings needs to know whether it is a comment or a negated sentence.
        let comment = in_code && is_comment(line)
            || kind != FileKind::Code && line.trim_start().starts_with("<!--");
        let negated = negation().is_match(line.as_bytes());
        for hit in hits {
            let rule = &rules.rules[hit.rule];
            let n = per_rule.entry(hit.rule).or_default();
            *n += 1;
            if *n > MAX_FINDINGS_PER_RULE_PER_FILE {
                continue;
            }
            let demote = demotable(&rule.category) && (comment || negated);
            let (severity, description) = if demote && rule.severity > Severity::Low {
                let why = if comment {
                    "a comment"
                } else {
                    "a negated sentence"
                };
                (
                    Severity::Low,
                    format!(
                        "{} (Informational: it appears in {why}, so it is mentioned rather than done.)",
                        rule.description
                    ),
                )
            } else {
                (rule.severity, rule.description.clone())
            };
            out.push(Finding {
                rule_id: rule.id.clone(),
                category: rule.category.clone(),
                severity,
                file: file.into(),
                line: line_no,
                evidence: evidence(line, hit.start, hit.end),
                description,
            });
        }
    }
    // Read-then-send across lines: credentials are read somewhere in this file and something is sent
    // out elsewhere in it.
    let reads: Vec<usize> = out
        .iter()
        .filter(|f| {
            f.severity >= Severity::High && CREDENTIAL_ACCESS_RULES.contains(&f.rule_id.as_str())
        })
        .map(|f| f.line)
        .collect();
    if let Some(&read_line) = reads.first()
        && kind != FileKind::Text
    {
        let send = content.lines().enumerate().find(|(_, l)| {
            outbound_send().is_match(l.as_bytes())
                && !loopback().is_match(l.as_bytes())
                && !is_comment(l)
        });
        if let Some((i, l)) = send {
            out.push(Finding {
                rule_id: "exfiltration.credentials-to-network".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.into(),
                line: i + 1,
                evidence: evidence(l, 0, l.len()),
                description: format!("This file reads credentials (line {read_line}) and sends data out (this line): the shape of a credential stealer. Do not install it."),
            });
        }
    }
    for (rule, n) in per_rule {
        if n > MAX_FINDINGS_PER_RULE_PER_FILE {
            let r = &rules.rules[rule];
            out.push(Finding {
                rule_id: r.id.clone(),
                category: r.category.clone(),
                severity: Severity::Low,
                file: file.into(),
                line: 0,
                evidence: format!(
                    "{} more occurrence(s) not listed",
                    n - MAX_FINDINGS_PER_RULE_PER_FILE
                ),
                description: format!("{} (further occurrences in this file)", r.title),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    #[test]
    fn lines_inclusive_edges() {
        fn split(t: &str) -> Vec<&str> {
            super::lines_inclusive(t).collect()
        }
        assert_eq!(split(""), Vec::<&str>::new());
        assert_eq!(split("\n"), ["\n"]);
        assert_eq!(split("a"), ["a"]);
        assert_eq!(split("a\r\nb\n\nc"), ["a\r\n", "b\n", "\n", "c"]);
    }

    proptest! {
        /// The same lines as `split_inclusive('\n')` for any text.
        #[test]
        fn lines_inclusive_is_split_inclusive(text in "[a\\n\\r中]{0,40}") {
            let ours: Vec<&str> = super::lines_inclusive(&text).collect();
            let std: Vec<&str> = text.split_inclusive('\n').collect();
            prop_assert_eq!(ours, std);
        }
    }
}
