//! Scanning one text file: line context (Markdown fences vs prose, script files, comments, negated
//! sentences), the content rules, invisible and smuggled characters, and the multi-line ClawHavoc
//! install-prompt shape.

use std::sync::OnceLock;

use regex_automata::meta::Regex;
use serde::Serialize;

use super::rules::{RuleSet, Severity, char_span, line_regex};

mod checklist;
pub(crate) mod echo_line;
mod extless;
mod invisible;
mod link_title;
mod reading;

use invisible::{ZERO_WIDTH, invisible};
#[cfg(test)]
use reading::data_line;
use reading::{
    continues_paragraph, defensive, is_defensive, is_pattern_literal, is_wrapped_words,
    join_window, labelled_sample, negated_before, negated_from_before, quote_is_example,
    teaching_heading, test_data_literal,
};
use reading::{front_matter_command, lone_code_span};
pub use reading::{
    in_html_tag, is_quoted, is_quoted_match, is_scripted_speech, quoted_from_before,
};

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
    /// For findings that combine facts: the other ends (where a secret was read, where a file was
    /// downloaded, the lure sentence next to the archive password…). Empty for single-line rules.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
}

/// The other end of a finding that combines facts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Related {
    /// What this place contributes: `source`, `transform`, `sink`, `download`, `execute`, `signal`,
    /// `setting`, `write`, `concealment`, `condition`, `definition`.
    pub role: String,
    pub file: String,
    /// 1-based.
    pub line: usize,
    pub evidence: String,
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

/// `path` lower-cased (Unicode, as `str::to_lowercase`), borrowed when that changes nothing: ASCII
/// without capitals ([`crate::ascii_lowered`]).
fn lowered(path: &str) -> std::borrow::Cow<'_, str> {
    if crate::is_ascii(path) {
        crate::ascii_lowered(path)
    } else {
        std::borrow::Cow::Owned(path.to_lowercase())
    }
}

/// Choose how to read a file from its path (and first line, for extension-less scripts).
pub fn kind_of(path: &str, content: &str) -> FileKind {
    // Lower-cased only when it changes anything (the candidate risk scan asks twice per name and
    // description: an allocation each time it was copied).
    let lower = lowered(path);
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    if matches!(
        name,
        "makefile"
            | "gnumakefile"
            | "dockerfile"
            | "justfile"
            | "rakefile"
            | "gemfile"
            | "procfile"
            | "vagrantfile"
            | "containerfile"
            | "cmakelists.txt"
            // Round 39t: extensionless build files (Jenkins pipelines, OCaml dune).
            | "jenkinsfile"
            | "dune"
            // Round 41t: Arch and Alpine package build scripts (bash functions run by makepkg/abuild).
            | "pkgbuild"
            | "apkbuild"
            // Round 42t: SCons build files (Python) and CocoaPods' Podfile (Ruby).
            | "sconstruct"
            | "sconscript"
            | "podfile"
            // Round 50t: Snakemake's rule file (Python with `shell:` blocks).
            | "snakefile"
    ) {
        return FileKind::Code;
    }
    // A file that opens with an interpreter line is a script whatever it is named (a shell
    // script saved as SKILL.md runs the same).
    if content.starts_with("#!/") {
        return FileKind::Code;
    }
    let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match ext {
        // A document that starts with a shebang is a script whatever it is named (a SKILL.md that
        // is a shell script).
        "md" | "markdown" | "mdx" if content.starts_with("#!/") => FileKind::Code,
        "md" | "markdown" | "mdx" => FileKind::Markdown,
        // Round 40c: Cursor's rule files (`.cursor/rules/*.mdc`) are Markdown under a front matter.
        "mdc" if !content.starts_with("#!") => FileKind::Markdown,
        "txt" | "rst" | "adoc" => FileKind::Text,
        _ if content.starts_with("#!") => FileKind::Code,
        // Stop 56: an extension-less file copied into place as configuration (a logrotate block, an
        // apt hook, a crontab) runs its commands: read it as code unless it reads as prose.
        "" if extless::reads_as_code(content) => FileKind::Code,
        "" => FileKind::Text,
        _ => FileKind::Code,
    }
}

/// Build the rules (every regex compiled) and this module's helper patterns now
/// ([`crate::initialize`]).
pub(crate) fn initialize() {
    RuleSet::builtin().compile_lazy();
    super::hosts::initialize();
    super::judge::initialize();
    negation();
    redactors();
    install_prompt_words();
    install_prompt();
    payload();
    defensive();
}

fn negation() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r"(?i)\b(never|do not|don't|dont|must not|mustn't|should not|shouldn't|avoid|refuse to|not allowed to|forbidden)\b|禁止|不要|严禁|切勿|不得")
            .expect("valid")
    })
}

/// A Markdown table row (`| rm -rf / | DENY | critical |`): drawn, never run — also inside a code
/// block, where a report's sample output is often shown. Not a PowerShell line continued by a
/// leading `|`: a row opens and closes with a pipe and has at least two cells.
fn is_table_row(line: &str) -> bool {
    let t = line.trim();
    t.len() > 2
        && t.starts_with('|')
        && t.ends_with('|')
        && t.bytes().filter(|&b| b == b'|').count() >= 3
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
            let (start, end) = char_span(&text, m.start().max(last), m.end());
            out.push_str(&text[last..start]);
            let keep: String = text[start..end].chars().take(6).collect();
            out.push_str(&keep);
            out.push_str("…[redacted]");
            last = end;
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

/// Where a file sits decides how some of its lines read: test data and detection signatures quote
/// attacks on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FilePlace {
    /// Under `tests/`, `test/`, `fixtures/`, `__tests__/`, `spec/`, `testdata/`, or named like a test
    /// (`test_x.py`, `x_test.go`, `x.test.js`, `x.spec.ts`).
    pub test: bool,
    /// A detection-signature file (`.yar`, `.yara`), whose strings are indicators, not actions.
    pub signature: bool,
}

impl FilePlace {
    pub fn of(path: &str) -> FilePlace {
        let lower = crate::ascii_lowered(path);
        // The last segment is the name, the ones before it the folders (no list built).
        let mut parts = lower.rsplit('/');
        let name = parts.next().unwrap_or("");
        let test_dir = parts.any(|p| {
            matches!(
                p,
                "test"
                    | "tests"
                    | "fixtures"
                    | "__tests__"
                    | "spec"
                    | "testdata"
                    | "test_data"
                    | "evals"
                    | "datasets"
            )
        });
        // JSON Lines: records a program reads one by one (a dataset, an eval set), not a
        // document the agent is told to follow.
        let records = name.ends_with(".jsonl") || name.ends_with(".ndjson");
        let stem = name.split('.').next().unwrap_or("");
        // (Both inner names need two dots: most names have one, and are not searched.)
        let test_name = stem.starts_with("test_")
            || stem.ends_with("_test")
            || name.bytes().filter(|&b| b == b'.').nth(1).is_some()
                && (name.contains(".test.") || name.contains(".spec."));
        // A data file named as test material (`fixtures.json`, `test_cases.yaml`, `golden.csv`): the
        // records a test reads, the same as a file under `fixtures/`.
        let data = [".json", ".yaml", ".yml", ".csv", ".tsv"]
            .iter()
            .any(|e| name.ends_with(e));
        let test_data = data
            && matches!(
                stem,
                "fixture" | "fixtures" | "testcases" | "test_cases" | "test-cases" | "golden"
            );
        FilePlace {
            test: test_dir || test_name || records || test_data,
            signature: name.ends_with(".yar") || name.ends_with(".yara"),
        }
    }

    /// [`FilePlace::of`] the path, and a YAML file whose text is a Sigma detection rule (its two
    /// required top-level keys, `logsource:` and `detection:`, each opening a line) is a
    /// detection-signature file too: its `CommandLine|contains` strings are indicators.
    pub fn of_file(path: &str, content: &str) -> FilePlace {
        let mut place = FilePlace::of(path);
        if !place.signature {
            let lower = crate::ascii_lowered(path);
            let yaml = lower.ends_with(".yml") || lower.ends_with(".yaml");
            let key = |k: &str, line: &str| content.starts_with(k) || content.contains(line);
            place.signature =
                yaml && key("logsource:", "\nlogsource:") && key("detection:", "\ndetection:");
            // Round 47t: a Falco rules file (each rule's required `condition:`, `output:` and
            // `priority:` under a `- rule:` item) and a Suricata/Snort rules file (a line with an
            // action, a protocol and `(msg:…; sid:…;)` options): their strings are indicators.
            place.signature = place.signature
                || yaml
                    && key("- rule:", "\n- rule:")
                    && content.contains("condition:")
                    && content.contains("output:")
                    && content.contains("priority:")
                || lower.ends_with(".rules") && content.lines().take(200).any(ids_rule);
        }
        place
    }
}

/// Round 47t: whether `line` is a Suricata/Snort rule (`alert tcp any any -> any any (msg:"…";
/// content:"…"; sid:1000001;)`): an action word, then options holding `msg:` and `sid:`.
fn ids_rule(line: &str) -> bool {
    let l = line.trim_start();
    ["alert ", "drop ", "reject ", "pass "]
        .iter()
        .any(|a| l.starts_with(a))
        && l.contains("(msg:")
        && l.contains("sid:")
}

/// How one line is read, decided only for lines where a rule fired.
#[derive(Debug, Clone, Copy, Default)]
struct LineContext {
    comment: bool,
    negated: bool,
    defensive: bool,
    table: bool,
    blockquote: bool,
}

/// The result of scanning one text file: the rules' own findings and the facts for the judge.
#[derive(Debug, Clone, Default)]
pub struct FileScan {
    pub findings: Vec<Finding>,
    pub facts: super::facts::FileFacts,
}

/// Scan one text file with the rules; returns its findings (the rules' own, without the judge).
pub fn scan_text(rules: &RuleSet, file: &str, content: &str) -> Vec<Finding> {
    scan_file(rules, file, content).findings
}

/// Scan one text file: the rules' findings and the facts they state.
pub fn scan_file(rules: &RuleSet, file: &str, content: &str) -> FileScan {
    use super::facts::Fact;
    use super::rules::Context;
    let kind = kind_of(file, content);
    let json_like = {
        let f = crate::ascii_lowered(file);
        [".json", ".jsonl", ".ndjson", ".jsonc"]
            .iter()
            .any(|e| f.ends_with(e))
    };
    let place = FilePlace::of_file(file, content);
    let mut scan = FileScan::default();
    let out = &mut scan.findings;
    let mut per_rule: std::collections::BTreeMap<usize, usize> = Default::default();
    let mut in_fence: Option<crate::scan::markdown::Fence> = None;
    // CommonMark indented code blocks (four spaces after a blank line, no fence): the state of the
    // Markdown block structure that decides them ([`IndentedCode`]).
    let mut indented = super::markdown::IndentedCode::default();
    let mut prompt_at: Option<usize> = None;
    let mut section = 0u32;
    // Byte range of the current section's heading line (a blockquote under "Examples" is shown).
    let mut heading = (0usize, 0usize);
    // The section is titled as teaching about attacks ("Red flags", "Install-lure review"): lure
    // wording in its prose describes a lure rather than being one.
    let mut heading_teaches = false;
    // The document's title (its first `# ` heading) teaches about attacks ("Lure Pattern Handbook"):
    // every section describes lures rather than being one.
    let mut title_teaches: Option<bool> = None;
    // A command continued with a trailing `\` is matched as one logical line (reported at its first
    // physical line), so splitting `curl ... \` / `-d "$TOKEN"` across lines hides nothing.
    let mut continued: Option<(usize, usize, String)> = None;
    // The keyword automaton runs once over the whole file; each physical line takes the occurrences
    // that start on it (the rules they belong to are the line's candidates).
    let mut keywords = rules.keywords_in(content).peekable();
    let mut candidates = super::rules::Candidates::new();
    // The previous physical line when it is prose that the current line may continue (a soft-wrapped
    // Markdown paragraph): its number, start, end (after its terminator) and keyword candidates.
    // Phrases broken over the line break are matched on the two lines joined
    // ([`continues_paragraph`]).
    let mut prev_prose: Option<(usize, usize, usize, super::rules::Candidates)> = None;
    // Inside a Markdown file's front matter (a first line `---` up to the next): a key that names a
    // command an installer or the agent runs (`command:`, `install:`, `postinstall:`…) holds code.
    let mut front_matter = false;
    let mut end = 0;
    // Lines with their terminators, then "\n" / "\r\n" stripped: the lines `str::lines` gives.
    for (idx, raw) in lines_inclusive(content).enumerate() {
        let physical_start = end;
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
        // Every character `invisible` looks for is outside ASCII, and so is every keyword the
        // automaton leaves out.
        let ascii = crate::is_ascii(physical);
        if !ascii {
            invisible(
                physical,
                file,
                idx + 1,
                idx == 0,
                kind == FileKind::Code,
                out,
            );
            rules.add_non_ascii(&mut candidates);
        }
        let joined;
        let (line_no, line_start, line, is_joined) = match continued.take() {
            Some((start_no, start_at, mut acc)) => {
                acc.push(' ');
                acc.push_str(physical.trim_start());
                joined = acc;
                (start_no, start_at, joined.as_str(), true)
            }
            // In JSON, a string's `\n` escape ends a sentence: read as a break, it keeps the next
            // word from being glued to the previous one (`…rules.\nIgnore all…`). Same length, so
            // every offset stays the file's.
            None if json_like && physical.contains("\\n") => {
                joined = physical.replace("\\n", "  ");
                (idx + 1, physical_start, joined.as_str(), false)
            }
            None => (idx + 1, physical_start, physical, false),
        };
        let in_indented_code = kind == FileKind::Markdown
            && in_fence.is_none()
            && !is_joined
            && indented.step(physical);
        let in_code_now = kind == FileKind::Code
            || kind == FileKind::Markdown && (in_fence.is_some() || in_indented_code);
        if in_code_now && line.ends_with('\\') && line.len() < 64 * 1024 {
            continued = Some((line_no, line_start, line[..line.len() - 1].to_owned()));
            continue;
        }
        // A pipeline continued after a trailing `|` (shell, PowerShell): the next line is the
        // command the data goes to (`Get-ChildItem … |` / `Remove-Item -Recurse`).
        if in_code_now
            && line.len() < 64 * 1024
            && line.trim_end().ends_with('|')
            && !line.trim_end().ends_with("||")
            // A table row drawn in a code block (`| a | b |`) is not a pipeline.
            && !line.trim_start().starts_with('|')
        {
            continued = Some((line_no, line_start, line.trim_end().to_owned()));
            continue;
        }
        if kind == FileKind::Markdown {
            let trimmed = line.trim_start();
            if !in_indented_code && crate::scan::markdown::Fence::step(&mut in_fence, trimmed) {
                prev_prose = None;
                continue;
            }
            if in_fence.is_none() && trimmed.starts_with('#') {
                section = line_no as u32;
                heading = (line_start, line_start + line.len());
                let teaches = teaching_heading().is_match(line.as_bytes());
                if title_teaches.is_none() && trimmed.starts_with("# ") {
                    title_teaches = Some(teaches);
                }
                heading_teaches = teaches || title_teaches == Some(true);
            }
        }
        let front_command = kind == FileKind::Markdown
            && in_fence.is_none()
            && (front_matter_command(&mut front_matter, idx, line) || lone_code_span(line));
        let in_code = match kind {
            FileKind::Code => true,
            FileKind::Markdown => in_fence.is_some() || in_indented_code || front_command,
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
                related: Vec::new(),
            });
            prompt_at = None;
        }
        let inline_code = !in_code && kind == FileKind::Markdown && line.contains('`');
        // Words split by zero-width characters are read again without them: splitting a keyword
        // must not hide it.
        if !ascii && line.contains(ZERO_WIDTH) {
            let cleaned: String = line.chars().filter(|c| !ZERO_WIDTH.contains(c)).collect();
            for hit in rules.scan_line(&cleaned, in_code) {
                let rule = &rules.rules[hit.rule];
                let Some(severity) = rule.severity else {
                    continue;
                };
                out.push(Finding {
                    rule_id: rule.id.clone(),
                    category: rule.category.clone(),
                    severity,
                    file: file.into(),
                    line: line_no,
                    evidence: evidence(&cleaned, hit.start, hit.end),
                    description: format!(
                        "{} (Found after removing the zero-width characters that split its words: hiding it from people and scanners is itself a warning sign.)",
                        rule.description
                    ),
                    related: Vec::new(),
                });
            }
        }
        let hits = if is_joined {
            // A joined line is new text: search it (rare).
            rules.scan_line(line, in_code)
        } else {
            // An indented code block is code, but it was long read as prose and still holds what
            // prose holds (a lone link to open, a sentence indented by habit): both sets of rules.
            let scope = if in_indented_code {
                rules.scope(false, true)
            } else {
                rules.scope(in_code, inline_code)
            };
            rules.confirm_in(line, scope, &candidates)
        };
        // A soft-wrapped paragraph: the previous prose line joined with this one, searched with the
        // rules of both lines' keywords; only matches that cross the break are new (each line's own
        // matches were found on it). Reported at the first line, as continued commands are.
        // In a script, a line of words in a long string (a tool's docstring, a prompt held in
        // code) wraps the same way: a sentence there may name its recipient on the next line.
        let words_in_code = kind == FileKind::Code && !is_joined && is_wrapped_words(line);
        let prose_line = !in_code && kind != FileKind::Code && !is_joined || words_in_code;
        let wrap = match prev_prose.take() {
            Some((p_no, p_start, p_end, p_cands))
                if prose_line && continues_paragraph(content, p_start, p_end, line) =>
            {
                // Rules that matched either line on its own already stated their fact there.
                let mut both = p_cands;
                both.union(&candidates);
                for h in &hits {
                    both.remove(h.rule);
                }
                let inline =
                    inline_code || content.get(p_start..p_end).is_some_and(|p| p.contains('`'));
                let scope = if words_in_code {
                    rules.scope(true, false)
                } else {
                    rules.scope(false, inline)
                };
                if both.iter_and(&scope).next().is_none() {
                    None
                } else {
                    let text = super::facts::logical_text(content, p_start as u32, end as u32);
                    let first_len =
                        super::facts::logical_text(content, p_start as u32, p_end as u32).len();
                    // Only the stretch around the break is searched ([`JOIN_REACH`] bytes each
                    // way): the rules' phrases are shorter, and long lines (a paragraph of Chinese
                    // on one line) cost no more than short ones.
                    let (ws, we) = join_window(&text, first_len);
                    let spanning: Vec<_> = rules
                        .confirm_in(&text[ws..we], scope, &both)
                        .into_iter()
                        .map(|h| super::rules::Hit {
                            rule: h.rule,
                            start: h.start + ws,
                            end: h.end + ws,
                        })
                        .filter(|h| h.start < first_len && h.end > first_len + 1)
                        .collect();
                    (!spanning.is_empty()).then(|| (spanning, p_no, p_start, text.into_owned()))
                }
            }
            _ => None,
        };
        if prose_line && !line.trim().is_empty() && line.len() < 4096 {
            // The next line searches the join with this line's candidates, minus the rules that
            // already matched here.
            let mut own = candidates.clone();
            for h in &hits {
                own.remove(h.rule);
            }
            prev_prose = Some((line_no, line_start, end, own));
        }
        // The line's own hits, then those across a soft wrap (no list built per line: most lines
        // have neither).
        let joined_prose;
        let own_batch = (!hits.is_empty()).then_some((hits, line_no, line_start, line));
        let wrap_batch = match wrap {
            Some((spanning, p_no, p_start, text)) => {
                joined_prose = text;
                Some((spanning, p_no, p_start, joined_prose.as_str()))
            }
            None => None,
        };
        for (hits, line_no, line_start, line) in own_batch.into_iter().chain(wrap_batch) {
            // Only a line with findings needs to know how it reads.
            let ctx = LineContext {
                comment: in_code && is_comment(line)
                    || kind != FileKind::Code && line.trim_start().starts_with("<!--"),
                // Negation is a matter of sentences: in code, "do not" sits in strings and comments.
                // Decided per match (the clause before it), below.
                negated: !in_code,
                defensive: !in_code && (is_defensive(line) || checklist::is_category_bullet(line)),
                table: kind == FileKind::Markdown
                    && (!in_code && line.trim_start().starts_with('|')
                        || in_code && is_table_row(line)),
                blockquote: !in_code
                    && kind == FileKind::Markdown
                    && line.trim_start().starts_with('>')
                    && quote_is_example(content, line_start, heading),
            };
            let line_end = end;
            // Whether the line is a detector's pattern literal: the same for every hit on it, and
            // worked out only if a rule asks.
            let pattern_literal = std::cell::OnceCell::new();
            for hit in hits {
                let rule = &rules.rules[hit.rule];
                let mention = rules.mention_contexts(hit.rule).iter().find(|c| match c {
                    Context::Comment => ctx.comment,
                    Context::Negated => {
                        ctx.negated
                            && (negated_before(line, hit.start)
                                || kind == FileKind::Markdown
                                    && negated_from_before(content, line_start, line, hit.start))
                    }
                    Context::Defensive => {
                        ctx.defensive
                            || heading_teaches
                                && !in_code
                                && rule.fact.is_some_and(super::facts::FactKind::is_lure)
                    }
                    Context::Table => ctx.table,
                    Context::Blockquote => ctx.blockquote,
                    Context::Quoted => {
                        !in_code
                            && !in_html_tag(line, hit.start)
                            && (is_quoted_match(line, hit.start, hit.end)
                                && !is_scripted_speech(line, hit.start)
                                && !reading::in_link_title(line, hit.start)
                                || quoted_from_before(content, line_start, line, hit.start))
                    }
                    Context::Test => place.test,
                    Context::Signature => {
                        place.signature
                            || in_code && *pattern_literal.get_or_init(|| is_pattern_literal(line))
                    }
                });
                // In a test file, an attack string held as data (a sample a detector is tested
                // on) is mentioned, not done; a line that hands the string to a runner still acts.
                // Round 37t: so is a labelled sample anywhere (`("…", 1),` in an evaluation
                // notebook): the string is followed by its label, data a classifier is scored on.
                let mention = mention.or_else(|| {
                    ((place.test || labelled_sample(line, hit.end))
                        && in_code
                        && test_data_literal(line, hit.start, hit.end))
                    .then_some(&Context::Test)
                });
                if let Some(fact) = rule.fact
                    && mention.is_none()
                {
                    let base = Fact {
                        kind: fact,
                        rule: hit.rule as u16,
                        line: line_no as u32,
                        start: line_start as u32,
                        end: line_end as u32,
                        at: hit.start as u32,
                        to: hit.end as u32,
                        prose: !in_code,
                        section,
                        capture: None,
                    };
                    rules.facts_on_line(hit.rule, line, &base, &mut scan.facts);
                }
                let Some(rule_severity) = rule.severity else {
                    continue;
                };
                let n = per_rule.entry(hit.rule).or_default();
                *n += 1;
                if *n > MAX_FINDINGS_PER_RULE_PER_FILE {
                    continue;
                }
                // A code rule that ran only because of `inline code` in a sentence: a command named in
                // prose is informational on its own (the judge still combines its fact).
                let inline_only = inline_code && rule.scope == super::rules::Scope::Code;
                let (severity, description) = match mention {
                    // A key in Markdown prose may be an example that escaped the placeholder checks;
                    // in code, a config file or a key file it is a leak.
                    None if rule.category == "credential_exposure"
                        && !in_code
                        && kind == FileKind::Markdown
                        && rule_severity > Severity::High =>
                    {
                        (Severity::High, rule.description.clone())
                    }
                    None if inline_only && rule_severity > Severity::Medium => (
                        Severity::Medium,
                        format!(
                            "{} (Informational: it is named in a sentence, not in a script or code block.)",
                            rule.description
                        ),
                    ),
                    Some(c) if rule_severity > Severity::Low => (
                        Severity::Low,
                        format!(
                            "{} (Informational: it appears {}, so it is mentioned rather than done.)",
                            rule.description,
                            c.phrase()
                        ),
                    ),
                    _ => (rule_severity, rule.description.clone()),
                };
                out.push(Finding {
                    rule_id: rule.id.clone(),
                    category: rule.category.clone(),
                    severity,
                    file: file.into(),
                    line: line_no,
                    evidence: evidence(line, hit.start, hit.end),
                    description,
                    related: Vec::new(),
                });
            }
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
                related: Vec::new(),
            });
        }
    }
    scan
}

#[cfg(test)]
mod tests;
