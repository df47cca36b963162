//! Content rules are data (`guest/rules/content-rules.json`): each has an id, a category, a severity, a
//! description a user can act on, keywords, a regex, exemptions and examples that must and must not
//! match (checked by tests).
//!
//! Matching is linear: every line is scanned once by one Aho-Corasick automaton over all rules'
//! keywords (case-insensitive), so cost grows with bytes, not rules × bytes; only rules whose keyword
//! occurs on the line run their regex, and each regex is compiled on first use. The regex engine
//! (regex-automata's meta engine, the one behind `regex`) runs in linear time, so no pattern can
//! blow up on hostile input.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex_automata::meta::Regex;
use serde::{Deserialize, Serialize};

/// The bundled rule file.
pub const RULES_JSON: &str = include_str!("../../rules/content-rules.json");

/// How bad a finding is. The verdict ladder: any critical → dangerous; any high → caution; else safe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }
}

/// Where a rule applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Anywhere.
    #[default]
    Any,
    /// Fenced code in Markdown, and every line of a script or config file.
    Code,
    /// Markdown text outside code fences (instructions to the agent).
    Prose,
}

/// One rule as written in the data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleSpec {
    pub id: String,
    pub category: String,
    pub severity: Severity,
    pub title: String,
    pub description: String,
    pub keywords: Vec<String>,
    pub pattern: String,
    #[serde(default)]
    pub unless: Vec<String>,
    #[serde(default)]
    pub scope: Scope,
    /// The rule's regex only matches where one of its keywords stands as a whole word (each ASCII
    /// keyword is wrapped in `\b` or non-word characters in every alternative of the pattern), so a
    /// keyword inside a longer word (`nc` in `function`, `host` in `localhost`) is not a candidate.
    /// Only ever narrows the regex runs, never what matches; the rule's examples are checked
    /// through it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub whole_word_keywords: bool,
    #[serde(default, rename = "match")]
    pub examples_match: Vec<String>,
    #[serde(default)]
    pub no_match: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct RuleFile {
    rules: Vec<RuleSpec>,
}

/// A compiled rule set.
pub struct RuleSet {
    pub rules: Vec<RuleSpec>,
    keywords: AhoCorasick,
    /// For each keyword pattern, the rules it belongs to wherever it occurs…
    keyword_rules: Vec<Vec<usize>>,
    /// …and the rules it belongs to only where it stands as a whole word.
    word_rules: Vec<Vec<usize>>,
    regexes: Vec<OnceLock<Regex>>,
    unless: Vec<OnceLock<Vec<Regex>>>,
}

/// A rule that fired on a line: which, and the byte range of the match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    pub rule: usize,
    pub start: usize,
    pub end: usize,
}

/// A rule's regex. It only ever runs on one line that already contains one of the rule's keywords,
/// so the literal prefilter the regex engine would put in front of its automaton finds nothing to
/// skip; without SIMD (WebAssembly) it cost more than the automaton it was meant to spare.
pub(crate) fn line_regex(pattern: &str) -> Result<Regex, String> {
    Regex::builder()
        .configure(Regex::config().auto_prefilter(false))
        .build(pattern)
        .map_err(|e| e.to_string())
}

impl RuleSet {
    /// The bundled rules, parsed and indexed once per instance.
    pub fn builtin() -> &'static RuleSet {
        static SET: OnceLock<RuleSet> = OnceLock::new();
        SET.get_or_init(|| {
            RuleSet::from_json(RULES_JSON).expect("the bundled rules are valid (tested)")
        })
    }

    /// Parse and index a rule file. Errors name the rule.
    pub fn from_json(text: &str) -> Result<RuleSet, String> {
        let file: RuleFile = serde_json::from_str(text).map_err(|e| format!("rule file: {e}"))?;
        let mut patterns: Vec<String> = Vec::new();
        let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
        let mut word_rules: Vec<Vec<usize>> = Vec::new();
        for (i, r) in file.rules.iter().enumerate() {
            if r.keywords.iter().all(|k| k.trim().is_empty()) {
                return Err(format!("rule {}: no keywords", r.id));
            }
            for k in &r.keywords {
                let k = k.trim().to_lowercase();
                if k.is_empty() {
                    continue;
                }
                if k.contains(['\n', '\r']) {
                    return Err(format!("rule {}: keyword {k:?} spans lines", r.id));
                }
                let p = match patterns.iter().position(|p| *p == k) {
                    Some(p) => p,
                    None => {
                        patterns.push(k.clone());
                        keyword_rules.push(Vec::new());
                        word_rules.push(Vec::new());
                        patterns.len() - 1
                    }
                };
                // Whole-word narrowing applies to ASCII word keywords only; any other keyword
                // (CJK, punctuation) is a candidate wherever it occurs.
                let word = r.whole_word_keywords
                    && k.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.');
                if word {
                    word_rules[p].push(i);
                } else {
                    keyword_rules[p].push(i);
                }
            }
        }
        let keywords = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .prefilter(false)
            .build(&patterns)
            .map_err(|e| format!("keywords: {e}"))?;
        let n = file.rules.len();
        Ok(RuleSet {
            rules: file.rules,
            keywords,
            keyword_rules,
            word_rules,
            regexes: (0..n).map(|_| OnceLock::new()).collect(),
            unless: (0..n).map(|_| OnceLock::new()).collect(),
        })
    }

    fn regex(&self, i: usize) -> &Regex {
        self.regexes[i].get_or_init(|| {
            line_regex(&self.rules[i].pattern)
                .unwrap_or_else(|e| panic!("rule {}: {e}", self.rules[i].id))
        })
    }

    fn exemptions(&self, i: usize) -> &[Regex] {
        self.unless[i].get_or_init(|| {
            self.rules[i]
                .unless
                .iter()
                .map(|u| {
                    line_regex(u)
                        .unwrap_or_else(|e| panic!("rule {} unless: {e}", self.rules[i].id))
                })
                .collect()
        })
    }

    /// Compile every rule's regex and exemptions now instead of on a rule's first keyword hit.
    pub fn compile_lazy(&self) {
        for i in 0..self.rules.len() {
            self.regex(i);
            self.exemptions(i);
        }
    }

    /// Check every pattern compiles (tests; the component compiles lazily).
    pub fn compile_all(&self) -> Result<(), String> {
        for (i, r) in self.rules.iter().enumerate() {
            line_regex(&r.pattern).map_err(|e| format!("rule {}: {e}", r.id))?;
            for u in &r.unless {
                line_regex(u).map_err(|e| format!("rule {} unless: {e}", r.id))?;
            }
            let _ = (self.regex(i), self.exemptions(i));
        }
        Ok(())
    }

    /// The rules that fire on `line` in a context where `in_code` tells fenced/script code from prose.
    pub fn scan_line(&self, line: &str, in_code: bool) -> Vec<Hit> {
        let mut candidates: Vec<usize> = Vec::new();
        for m in self.keywords.find_overlapping_iter(line) {
            self.add_candidates(
                line,
                (m.start(), m.end(), m.pattern().as_usize()),
                &mut candidates,
            );
        }
        self.confirm(line, in_code, &mut candidates)
    }

    /// Every keyword occurrence in `text` as (start, end, keyword), in order of where they end. No
    /// keyword contains a line break, so a file is searched once and the occurrences are handed to
    /// the lines they start on ([`RuleSet::add_candidates`], [`RuleSet::confirm`]): one search over
    /// the file costs less than one search per line.
    pub fn keywords_in<'a>(
        &'a self,
        text: &'a str,
    ) -> impl Iterator<Item = (usize, usize, usize)> + 'a {
        self.keywords
            .find_overlapping_iter(text)
            .map(|m| (m.start(), m.end(), m.pattern().as_usize()))
    }

    /// Add the rules a keyword occurrence in `text` (as [`RuleSet::keywords_in`] gives it) makes
    /// candidates: all of the keyword's rules when it stands as a whole word, else those without
    /// [`RuleSpec::whole_word_keywords`].
    pub fn add_candidates(
        &self,
        text: &str,
        (start, end, keyword): (usize, usize, usize),
        out: &mut Vec<usize>,
    ) {
        out.extend_from_slice(&self.keyword_rules[keyword]);
        let words = &self.word_rules[keyword];
        if !words.is_empty() {
            let bytes = text.as_bytes();
            let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
            let before = start == 0 || !word(bytes[start - 1]);
            let after = end == bytes.len() || !word(bytes[end]);
            if before && after {
                out.extend_from_slice(words);
            }
        }
    }

    /// Of the `candidates` (rules whose keywords occur on `line`, in any order, repeats allowed), the
    /// ones whose regex matches and no exemption does.
    pub fn confirm(&self, line: &str, in_code: bool, candidates: &mut Vec<usize>) -> Vec<Hit> {
        if candidates.is_empty() {
            return Vec::new();
        }
        candidates.sort_unstable();
        candidates.dedup();
        candidates.retain(|&i| match self.rules[i].scope {
            Scope::Any => true,
            Scope::Code => in_code,
            Scope::Prose => !in_code,
        });
        // (One combined automaton of all rules telling which regexes match a line was measured and
        // rejected: 5–8% faster on ordinary text, but on some lines, e.g. `mkfs.ext4 disk.img`, its
        // lazy DFA gives up and the fallback engine's cache for 101 patterns takes ~290 MiB.)
        let mut hits = Vec::new();
        for &i in candidates.iter() {
            if let Some(m) = self.regex(i).find(line.as_bytes())
                && !self
                    .exemptions(i)
                    .iter()
                    .any(|u| u.is_match(line.as_bytes()))
            {
                hits.push(Hit {
                    rule: i,
                    start: m.start(),
                    end: m.end(),
                });
            }
        }
        hits
    }
}
