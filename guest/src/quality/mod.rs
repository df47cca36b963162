//! Quality: how much of a skill is more than a prompt.
//!
//! A skill is a bundle, not one Markdown file (the Lime standard): the main file routes (when to use,
//! the procedure) and carries the high-signal content (pitfalls, a verification step), details live in
//! `references/`, and what can be a script or a template is one. A skill that is a paragraph of
//! instructions is a prompt. Each signal ([`signals`], data in `guest/rules/quality-signals.json`) is
//! found or missing with its evidence (file, line, text); their weights sum to the 0–100 score and the
//! level is `prompt-only`, `basic` or `strong`.
//!
//! Inputs: a SKILL.md text and, when known, the bundle's file list (a local bundle, or a candidate's
//! `bundle_files`): with it, referenced files must exist; without it, a reference counts as written.
//! Ranking uses the level as the `quality` adjustment ([`QUALITY_WEIGHT`]); without content it is
//! neutral.

pub mod signals;

use serde::Serialize;
use serde_json::{Value, json};

use crate::model::Candidate;
use crate::scan::Bundle;
use signals::{Signal, Signals};

/// The ranking's `quality` adjustment: `points = QUALITY_WEIGHT × (value − 0.5)` with value 1 for
/// `strong`, 0.5 for `basic` or unknown (no content) and 0 for `prompt-only`: ±8 points of the
/// protocol's 100, more than popularity can add (trend weighs 5), less than a clear difference in task
/// relevance (30).
pub const QUALITY_WEIGHT: f64 = 16.0;
/// The adjustment's neutral value: what a candidate without content gets.
pub const QUALITY_NEUTRAL: f64 = 0.5;
/// The detectors read at most this much of a SKILL.md body (the length signal counts all of it): the
/// guidance is about 20 KB and Hermes refuses SKILL.md files over 100,000 characters, so a larger one
/// adds nothing to find but time.
pub const MAX_ANALYZED_BYTES: usize = 512 << 10;

/// The overall level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Level {
    #[serde(rename = "prompt-only")]
    PromptOnly,
    #[serde(rename = "basic")]
    Basic,
    #[serde(rename = "strong")]
    Strong,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::PromptOnly => "prompt-only",
            Level::Basic => "basic",
            Level::Strong => "strong",
        }
    }

    /// The ranking adjustment's value.
    pub fn value(self) -> f64 {
        match self {
            Level::PromptOnly => 0.0,
            Level::Basic => QUALITY_NEUTRAL,
            Level::Strong => 1.0,
        }
    }
}

/// Where a signal was seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Evidence {
    pub file: String,
    /// 1-based; 0 for the bundle as a whole.
    pub line: usize,
    pub text: String,
}

/// One signal's result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SignalResult {
    pub id: String,
    pub title: String,
    pub found: bool,
    pub weight: u32,
    pub evidence: Vec<Evidence>,
    /// What was found, or what to add.
    pub note: String,
    #[serde(skip)]
    pub title_zh: String,
}

/// A bundle's (or a SKILL.md's) quality.
#[derive(Debug, Clone, PartialEq)]
pub struct Assessment {
    pub level: Level,
    /// The sum of the found signals' weights, 0–100.
    pub score: u32,
    /// Whether the bundle's file list was known (referenced files were checked to exist).
    pub files_checked: bool,
    pub signals: Vec<SignalResult>,
}

impl Assessment {
    pub fn found(&self, id: &str) -> bool {
        self.signals.iter().any(|s| s.id == id && s.found)
    }

    /// `{level, score, files_checked, summary, signals: [{id, title, found, weight, evidence: [{file,
    /// line, text}], note}]}`.
    pub fn to_json(&self) -> Value {
        json!({
            "level": self.level.as_str(),
            "score": self.score,
            "files_checked": self.files_checked,
            "summary": self.summary(),
            "signals": self.signals,
        })
    }

    /// One line: the level, the score, what is missing.
    pub fn summary(&self) -> String {
        let missing: Vec<&str> = self
            .signals
            .iter()
            .filter(|s| !s.found)
            .map(|s| s.id.as_str())
            .collect();
        let head = format!("{} ({}/100)", self.level.as_str(), self.score);
        if missing.is_empty() {
            head
        } else {
            format!("{head}; missing: {}", missing.join(", "))
        }
    }
}

/// A line of the body: its number in the file, its text, whether it is inside a code fence.
struct Line<'a> {
    no: usize,
    text: &'a str,
    fenced: bool,
}

fn lines_of(body: &str, first: usize) -> Vec<Line<'_>> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, text) in body.lines().enumerate() {
        let t = text.trim_start();
        let fence = t.starts_with("```") || t.starts_with("~~~");
        out.push(Line {
            no: first + i,
            text,
            fenced: fenced || fence,
        });
        if fence {
            fenced = !fenced;
        }
    }
    out
}

/// A heading's text: ATX (`## Text`) or a line that is all bold (`**Text**`), without leading
/// numbering, emoji or punctuation.
fn heading_text(line: &str) -> Option<&str> {
    let t = line.trim();
    let raw = if let Some(rest) = t.strip_prefix('#') {
        let rest = rest.trim_start_matches('#');
        (t.len() - rest.len() <= 6 && rest.starts_with([' ', '\t']))
            .then(|| rest.trim().trim_end_matches('#').trim())?
    } else {
        t.strip_prefix("**")
            .and_then(|r| r.strip_suffix("**:").or_else(|| r.strip_suffix("**")))
            .filter(|r| !r.contains("**"))?
    };
    let lead =
        |s: &str| -> usize { s.len() - s.trim_start_matches(|c: char| !c.is_alphanumeric()).len() };
    let mut s = &raw[lead(raw)..];
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && s[digits..].starts_with(['.', ')', ' ', '、']) {
        s = &s[digits..];
        s = &s[lead(s)..];
    }
    (!s.is_empty()).then_some(s)
}

/// Word count of a text: whitespace-separated tokens with a letter or digit; a token of Chinese (or
/// other non-Latin) characters counts two thirds of a word per character.
fn words(text: &str) -> usize {
    text.split_whitespace()
        .filter(|t| t.chars().any(char::is_alphanumeric))
        .map(|t| {
            let wide = t.chars().filter(|&c| c >= '\u{2E80}').count();
            if wide == 0 { 1 } else { (wide * 2 / 3).max(1) }
        })
        .sum()
}

fn shorten(s: &str, max: usize) -> String {
    let s = s.trim();
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// What one SKILL.md offers to the detectors.
struct Doc<'a> {
    description: Option<&'a str>,
    description_line: usize,
    /// The body, cut at [`MAX_ANALYZED_BYTES`] (on a character boundary).
    body: &'a str,
    /// The whole body, for the length signal.
    full_body: &'a str,
    body_line: usize,
    lines: Vec<Line<'a>>,
    /// Byte offset of each body line's start (for the line of a match).
    starts: Vec<usize>,
    files: Option<&'a [String]>,
}

impl Doc<'_> {
    fn line_at(&self, offset: usize) -> usize {
        self.body_line
            + self
                .starts
                .partition_point(|&s| s <= offset)
                .saturating_sub(1)
    }
}

fn evidence(line: usize, text: &str) -> Evidence {
    Evidence {
        file: "SKILL.md".into(),
        line,
        text: shorten(text, 120),
    }
}

/// Paths the body references under a signal's folders (and `.md` links), with their lines.
fn referenced(
    sig: &Signal,
    doc: &Doc<'_>,
    link: &regex_automata::meta::Regex,
) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    let body = doc.body.as_bytes();
    let add = |path: &str, offset: usize, out: &mut Vec<(String, usize)>| {
        let path = path
            .trim_start_matches("./")
            .trim_end_matches(['.', ',', ':', ';']);
        if !path.is_empty() && !out.iter().any(|(p, _)| p == path) {
            out.push((path.to_owned(), doc.line_at(offset)));
        }
    };
    if let Some(re) = &sig.dirs {
        for m in re.find_iter(doc.body) {
            let start = m.start();
            // Not inside a URL or a longer path (`https://x/docs/…`, `my-docs/…`), except `./docs/…`.
            let prev = start.checked_sub(1).map(|i| body[i]);
            let dotted = start >= 2 && &body[start - 2..start] == b"./";
            let inside = matches!(prev, Some(b'/') if !dotted)
                || matches!(prev, Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'));
            if !inside {
                add(&doc.body[m.range()], start, &mut out);
            }
        }
    }
    if sig.spec.markdown_links {
        let mut caps = link.create_captures();
        let mut at = 0;
        while at < doc.body.len() {
            link.search_captures(&regex_automata::Input::new(doc.body).range(at..), &mut caps);
            let (Some(whole), Some(target)) = (caps.get_match(), caps.get_group(1)) else {
                break;
            };
            let t = doc.body[target.range()].split('#').next().unwrap_or("");
            let relative =
                !t.contains("://") && !t.starts_with(['/', '#']) && !t.starts_with("mailto:");
            let md = t.to_ascii_lowercase().ends_with(".md") && !t.eq_ignore_ascii_case("SKILL.md");
            if relative && md {
                add(t, target.start, &mut out);
            }
            at = whole.end().max(at + 1);
        }
    }
    out
}

fn exists(path: &str, files: &[String]) -> bool {
    let dir = format!("{}/", path.trim_end_matches('/'));
    files.iter().any(|f| {
        let f = f.trim_start_matches("./");
        f == path || f.starts_with(&dir)
    })
}

/// Detect one signal.
fn detect(sig: &Signal, doc: &Doc<'_>, set: &Signals) -> (bool, Vec<Evidence>, String) {
    let spec = &sig.spec;
    let mut ev = Vec::new();
    // Description: what (long enough) and when (a trigger phrase).
    if let Some(d) = &spec.description {
        let Some(text) = doc.description else {
            return (false, ev, "no description in the frontmatter".into());
        };
        let what = text.chars().count() >= d.min_chars;
        let when = sig.when.iter().any(|re| re.is_match(text));
        ev.push(Evidence {
            line: doc.description_line,
            ..evidence(0, text)
        });
        return match (what, when) {
            (true, true) => (true, ev, "says what it does and when to use it".into()),
            (false, _) => (
                false,
                ev,
                format!(
                    "too short to say what it does (under {} characters)",
                    d.min_chars
                ),
            ),
            (true, false) => (false, ev, spec.hint.clone()),
        };
    }
    if spec.length {
        let g = &set.body;
        let n_lines = doc.full_body.lines().count();
        let n_words = words(doc.full_body);
        ev.push(evidence(
            doc.body_line,
            &format!("{n_lines} lines, {n_words} words"),
        ));
        return if n_words < g.min_words {
            (
                false,
                ev,
                format!(
                    "only {n_words} words: too little to carry more than a one-line prompt (at least {})",
                    g.min_words
                ),
            )
        } else if n_lines > g.max_lines || n_words > g.max_words {
            (
                false,
                ev,
                format!(
                    "over the guidance ({} lines, about {} words): move details to referenced files",
                    g.max_lines, g.max_words
                ),
            )
        } else {
            (
                true,
                ev,
                format!(
                    "within the guidance ({}–{} words, under {} lines)",
                    g.min_words, g.max_words, g.max_lines
                ),
            )
        };
    }
    let prose = || doc.lines.iter().filter(|l| !l.fenced);
    for l in prose() {
        if let Some(h) = heading_text(l.text)
            && sig.headings.iter().any(|re| re.is_match(h))
        {
            ev.push(evidence(l.no, l.text));
            return (true, ev, format!("section “{h}”"));
        }
    }
    if !sig.lines.is_empty() {
        let hits: Vec<&Line<'_>> = prose()
            .filter(|l| sig.lines.iter().any(|re| re.is_match(l.text)))
            .collect();
        if hits.len() >= spec.min_lines {
            ev.extend(hits.iter().take(3).map(|l| evidence(l.no, l.text)));
            return (true, ev, format!("{} line(s) like it", hits.len()));
        }
    }
    if sig.dirs.is_some() || spec.markdown_links {
        let refs = referenced(sig, doc, &set.link);
        let Some(files) = doc.files else {
            if refs.is_empty() {
                return (false, ev, spec.hint.clone());
            }
            ev.extend(refs.iter().take(5).map(|(p, line)| evidence(*line, p)));
            return (
                true,
                ev,
                "referenced from SKILL.md (the files themselves were not available to check)"
                    .into(),
            );
        };
        let (present, missing): (Vec<_>, Vec<_>) = refs.iter().partition(|(p, _)| exists(p, files));
        if !present.is_empty() {
            ev.extend(present.iter().take(5).map(|(p, line)| evidence(*line, p)));
            return (
                true,
                ev,
                "referenced from SKILL.md and present in the bundle".into(),
            );
        }
        if !missing.is_empty() {
            ev.extend(missing.iter().take(5).map(|(p, line)| evidence(*line, p)));
            return (
                false,
                ev,
                "referenced from SKILL.md but missing from the bundle".into(),
            );
        }
        let orphans: Vec<&String> = files
            .iter()
            .filter(|f| spec.dirs.iter().any(|d| f.starts_with(&format!("{d}/"))))
            .collect();
        if !orphans.is_empty() {
            ev.extend(orphans.iter().take(5).map(|f| Evidence {
                file: (*f).clone(),
                line: 0,
                text: String::new(),
            }));
            return (false, ev, "present in the bundle but never referenced from SKILL.md, so an agent will not load it".into());
        }
    }
    (false, ev, spec.hint.clone())
}

/// Assess a SKILL.md text; `files` is the bundle's file list (paths relative to its root) when known.
pub fn assess(skill_md: &str, files: Option<&[String]>) -> Assessment {
    let set = Signals::builtin();
    let md = crate::skill_md::read(skill_md);
    let description_line = skill_md
        .lines()
        .take(md.body_line.saturating_sub(1))
        .position(|l| l.trim_start().starts_with("description:"))
        .map_or(0, |i| i + 1);
    let mut cut = md.body.len().min(MAX_ANALYZED_BYTES);
    while !md.body.is_char_boundary(cut) {
        cut -= 1;
    }
    let body = &md.body[..cut];
    let mut starts = vec![0];
    starts.extend(body.match_indices('\n').map(|(i, _)| i + 1));
    let doc = Doc {
        description: md.field("description"),
        description_line,
        body,
        full_body: md.body,
        body_line: md.body_line,
        lines: lines_of(body, md.body_line),
        starts,
        files,
    };
    let signals: Vec<SignalResult> = set
        .signals
        .iter()
        .map(|sig| {
            let (found, evidence, note) = detect(sig, &doc, set);
            SignalResult {
                id: sig.spec.id.clone(),
                title: sig.spec.title.clone(),
                title_zh: sig.spec.title_zh.clone(),
                found,
                weight: sig.spec.weight,
                evidence,
                note,
            }
        })
        .collect();
    let score: u32 = signals.iter().filter(|s| s.found).map(|s| s.weight).sum();
    let strength = signals
        .iter()
        .any(|s| s.found && set.levels.strength_signals.contains(&s.id));
    let level = if !strength || score < set.levels.prompt_only_below {
        Level::PromptOnly
    } else if score >= set.levels.strong_at {
        Level::Strong
    } else {
        Level::Basic
    };
    Assessment {
        level,
        score,
        files_checked: files.is_some(),
        signals,
    }
}

/// A candidate's quality, when it carries its SKILL.md (`raw_content`); its `bundle_files`, if any,
/// are the file list.
pub fn assess_candidate(c: &Candidate) -> Option<Assessment> {
    let raw = c.raw_content.as_deref().filter(|r| !r.trim().is_empty())?;
    let files = (!c.bundle_files.is_empty()).then_some(c.bundle_files.as_slice());
    Some(assess(raw, files))
}

/// A bundle's quality: its SKILL.md with the bundle's file list. Without a SKILL.md, every signal is
/// missing.
pub fn assess_bundle(bundle: &Bundle) -> Assessment {
    let files: Vec<String> = bundle
        .files
        .iter()
        .map(|f| f.path.replace('\\', "/"))
        .collect();
    let text = bundle
        .files
        .iter()
        .find(|f| f.path == "SKILL.md")
        .and_then(|f| f.content.as_deref())
        .unwrap_or("");
    assess(text, Some(&files))
}

/// The `validate` export's result ([`crate::validate::validate`]), with the bundle's `quality` when
/// asked (`validate --quality`).
pub fn validate_report(bundle: &Bundle, strict: bool, quality: bool) -> Value {
    let mut out = crate::validate::validate(bundle, strict);
    if quality {
        out["quality"] = assess_bundle(bundle).to_json();
    }
    out
}

/// The `scan-bundle` export's result ([`crate::scan::scan_bundle`]) with the bundle's `quality`: one
/// call tells an agent whether a skill is safe to install and whether it is more than a prompt.
pub fn scan_bundle_report(bundle: &Bundle, trust: crate::scan::Trust, force: bool) -> Value {
    let mut out = crate::scan::scan_bundle(bundle, trust, force);
    out["quality"] = assess_bundle(bundle).to_json();
    out
}

/// Build the signal set now (see [`crate::initialize`]).
pub(crate) fn initialize() {
    Signals::builtin();
}

#[cfg(test)]
mod tests;
