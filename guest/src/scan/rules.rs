//! Content rules are data (`guest/rules/content-rules.json`): each has an id, a category, a severity, a
//! description a user can act on, keywords, a regex, exemptions and examples that must and must not
//! match (checked by tests).
//!
//! Matching is linear: each file is scanned once by one keyword automaton over all rules' keywords
//! ([`super::keywords`], ASCII case-insensitive), so cost grows with bytes, not rules × bytes; only
//! rules whose keyword occurs on a line run their regex on it, and each regex is compiled on first use. The regex engine
//! (regex-automata's meta engine, the one behind `regex`) runs in linear time, so no pattern can
//! blow up on hostile input.

use std::sync::{Mutex, OnceLock};

use regex_automata::meta::Regex;
use regex_syntax::hir::Hir;
use serde::{Deserialize, Serialize};

mod compile;
/// Used by the byte-class tests ([`super::utf8_bytes`]).
#[cfg(test)]
pub(crate) use compile::line_hir;
pub(crate) use compile::{char_span, line_regex};
use compile::{hir_regex, hir_regex_with_groups, parse_line, rule_regex};

use super::facts::{Fact, FactKind, FileFacts};
use super::keywords::{Keywords, Occurrences};
use super::utf8_bytes::has_unicode_space;

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

/// A way a line can only *mention* what a rule matches (quote it, teach it, deny it), in which case
/// the rule's finding is demoted to `low` and it states no fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Context {
    /// A code comment (or an HTML comment line in Markdown).
    Comment,
    /// A negated sentence ("never", "do not", 「不要」).
    Negated,
    /// In prose, the match sits inside quotes or backticks.
    Quoted,
    /// In prose, the line teaches or defends ("for example", "attackers", "such as", "detect").
    Defensive,
    /// In Markdown prose, a table row.
    Table,
    /// In Markdown prose, a blockquote line (`> …`): an example shown, for rules that say so.
    Blockquote,
    /// A test file or fixture folder.
    Test,
    /// A detection-signature file (YARA).
    Signature,
}

impl Context {
    /// How a finding's description says where it appeared.
    pub fn phrase(self) -> &'static str {
        match self {
            Context::Comment => "in a comment",
            Context::Negated => "in a negated sentence",
            Context::Quoted => "in quotes, as an example",
            Context::Defensive => "in text that teaches or defends against it",
            Context::Table => "in a table row describing it",
            Context::Blockquote => "in a quoted example",
            Context::Test => "in a test file",
            Context::Signature => "in a detection signature",
        }
    }
}

/// Where a rule's match is only a mention, unless the rule says otherwise (`mention_in`): talking
/// about an attack is not one. Injection wording is a mention when quoted, taught, denied, in a
/// table or a test; commands and code when commented out, denied or in a signature file. Invisible
/// characters never are.
pub fn default_mention(category: &str) -> &'static [Context] {
    use Context::*;
    match category {
        "prompt_injection" => &[Negated, Quoted, Defensive, Table, Test, Signature],
        "invisible_text" => &[],
        "credential_exposure" => &[Test, Signature, Quoted, Defensive],
        _ => &[Comment, Negated, Defensive, Table, Signature],
    }
}

/// One rule as written in the data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleSpec {
    pub id: String,
    pub category: String,
    /// The severity of the rule's own finding; absent for rules that only state a fact for the judge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<Severity>,
    /// The fact the rule states about its line ([`super::facts`]), for the judge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact: Option<FactKind>,
    /// A detail of the fact (which kind of secret, which channel, which kind of file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// State a fact for every match on the line, not only the first (rules that capture a name).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all: bool,
    /// Where a match is only a mention; when absent, [`default_mention`] of the category.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mention_in: Option<Vec<Context>>,
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
    /// The distinct keywords, lowercased, in the order the automaton numbers them.
    patterns: Vec<String>,
    keywords: Keywords,
    /// For each keyword pattern, the rules it belongs to wherever it occurs…
    keyword_rules: Vec<RuleBits>,
    /// …and the rules it belongs to only where it stands as a whole word.
    word_rules: Vec<RuleBits>,
    /// The rules that apply in code (scope any or code), and in prose (any or prose).
    in_code: RuleBits,
    in_prose: RuleBits,
    /// Rules with a keyword outside ASCII: candidates on every line that is not plain ASCII. Such
    /// keywords stay out of the automaton, whose table would otherwise need a column for each byte
    /// of every CJK, Cyrillic or Japanese keyword (a line holding one is never plain ASCII).
    non_ascii: RuleBits,
    /// For each pattern of the automaton, its number as a required fragment, if it is one.
    fragment: Vec<Option<u16>>,
    /// For each rule, its required groups as fragment numbers ([`super::literals`]): the regex
    /// runs on a line only when every group has a fragment there.
    required: Vec<Vec<Vec<u16>>>,
    /// Each rule's pattern as parsed for the required fragments, and whether it has Unicode
    /// semantics ([`parse_line`]): the rule's regex and its ASCII twin are compiled from it, so a
    /// pattern is parsed once, not three times (parsing was a fifth of `initialize`). Dropped by
    /// [`RuleSet::compile_lazy`] once every regex is built (the trees held 9 MB of heap that the
    /// component's snapshot would otherwise carry); a rule compiled after that parses again.
    parsed: Mutex<Vec<Option<(Hir, bool)>>>,
    /// Each rule's regex ([`rule_regex`]) and whether a line with non-ASCII white space needs
    /// the exact one instead…
    regexes: Vec<OnceLock<(Regex, bool)>>,
    /// …which is compiled only when such a line wakes the rule (it is not in the snapshot).
    exact: Vec<OnceLock<Regex>>,
    /// For a rule with Unicode semantics, its regex for plain-ASCII lines
    /// ([`super::ascii_twin`]): the same matches there, a far smaller automaton.
    twins: Vec<OnceLock<Option<Regex>>>,
    unless: Vec<OnceLock<Vec<Regex>>>,
    /// Which of each rule's capture groups are named (the captures a fact keeps).
    named_groups: Vec<OnceLock<Vec<usize>>>,
}

/// Most rules a rule file may have ([`RuleBits`] is a fixed-size set).
pub const MAX_RULES: usize = 320;

/// A set of rules, one bit per rule: the candidates of a line. A keyword occurrence adds its rules
/// with a few ORs, and the set is read in rule order, so no list needs sorting or deduplicating per
/// line. Fixed-size, so that clearing and merging are plain stores (in WebAssembly, clearing a
/// slice of unknown length becomes `memory.fill`, a call into the host).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RuleBits([u64; MAX_RULES / 64]);

impl RuleBits {
    /// An empty set.
    pub fn new() -> RuleBits {
        RuleBits::default()
    }

    pub fn insert(&mut self, rule: usize) {
        self.0[rule / 64] |= 1 << (rule % 64);
    }

    pub fn remove(&mut self, rule: usize) {
        if let Some(w) = self.0.get_mut(rule / 64) {
            *w &= !(1 << (rule % 64));
        }
    }

    pub fn contains(&self, rule: usize) -> bool {
        self.0
            .get(rule / 64)
            .is_some_and(|w| w & (1 << (rule % 64)) != 0)
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    pub fn clear(&mut self) {
        self.0 = [0; MAX_RULES / 64];
    }

    pub fn union(&mut self, other: &RuleBits) {
        for (w, o) in self.0.iter_mut().zip(&other.0) {
            *w |= o;
        }
    }

    /// The rules in both sets, in increasing order.
    pub fn iter_and<'a>(&'a self, mask: &'a RuleBits) -> impl Iterator<Item = usize> + 'a {
        self.0
            .iter()
            .zip(&mask.0)
            .enumerate()
            .flat_map(|(i, (&w, &m))| {
                let mut bits = w & m;
                std::iter::from_fn(move || {
                    (bits != 0).then(|| {
                        let bit = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        i * 64 + bit
                    })
                })
            })
    }
}

/// Most distinct required fragments ([`super::literals`]) a rule file may use; past it a rule's
/// further groups are not checked (which only costs time).
pub const MAX_FRAGMENTS: usize = 1024;

/// A set of required fragments (by number), one bit each: those that occur on a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FragmentBits([u64; MAX_FRAGMENTS / 64]);

impl Default for FragmentBits {
    fn default() -> Self {
        FragmentBits([0; MAX_FRAGMENTS / 64])
    }
}

impl FragmentBits {
    pub fn insert(&mut self, f: u16) {
        self.0[f as usize / 64] |= 1 << (f % 64);
    }

    pub fn contains(&self, f: u16) -> bool {
        self.0[f as usize / 64] & (1 << (f % 64)) != 0
    }
}

/// What a line's keyword occurrences tell: the candidate rules (their keywords occur) and the
/// required fragments that occur. Merged for text searched across two lines (a union of both is
/// never less than what the joined text holds).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Candidates {
    pub rules: RuleBits,
    pub seen: FragmentBits,
}

impl Candidates {
    pub fn new() -> Candidates {
        Candidates::default()
    }

    pub fn clear(&mut self) {
        *self = Candidates::default();
    }

    pub fn union(&mut self, other: &Candidates) {
        self.rules.union(&other.rules);
        for (w, o) in self.seen.0.iter_mut().zip(&other.seen.0) {
            *w |= o;
        }
    }

    pub fn remove(&mut self, rule: usize) {
        self.rules.remove(rule);
    }

    pub fn contains(&self, rule: usize) -> bool {
        self.rules.contains(rule)
    }

    pub fn iter_and<'a>(&'a self, mask: &'a RuleBits) -> impl Iterator<Item = usize> + 'a {
        self.rules.iter_and(mask)
    }
}

/// Bytes of heap a rule's compiled regexes hold ([`RuleSet::regex_memory`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RegexMemory {
    pub regex: usize,
    pub twin: usize,
    pub unless: usize,
}

impl RegexMemory {
    pub fn total(&self) -> usize {
        self.regex + self.twin + self.unless
    }
}

/// A rule that fired on a line: which, and the byte range of the match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    pub rule: usize,
    pub start: usize,
    pub end: usize,
}

/// The automaton's number for pattern `p`, added (belonging to no rule yet) when it is new.
fn intern(
    p: &str,
    patterns: &mut Vec<String>,
    keyword_rules: &mut Vec<RuleBits>,
    word_rules: &mut Vec<RuleBits>,
) -> usize {
    if let Some(i) = patterns.iter().position(|q| q == p) {
        return i;
    }
    patterns.push(p.to_owned());
    keyword_rules.push(RuleBits::new());
    word_rules.push(RuleBits::new());
    patterns.len() - 1
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
        let n = file.rules.len();
        if n > MAX_RULES {
            return Err(format!(
                "rule file: {n} rules; at most {MAX_RULES} are supported"
            ));
        }
        let mut patterns: Vec<String> = Vec::new();
        let mut keyword_rules: Vec<RuleBits> = Vec::new();
        let mut word_rules: Vec<RuleBits> = Vec::new();
        let (mut in_code, mut in_prose) = (RuleBits::new(), RuleBits::new());
        let mut non_ascii = RuleBits::new();
        for (i, r) in file.rules.iter().enumerate() {
            if r.keywords.iter().all(|k| k.trim().is_empty()) {
                return Err(format!("rule {}: no keywords", r.id));
            }
            if r.scope != Scope::Prose {
                in_code.insert(i);
            }
            if r.scope != Scope::Code {
                in_prose.insert(i);
            }
            for k in &r.keywords {
                let k = k.trim().to_lowercase();
                if k.is_empty() {
                    continue;
                }
                if !k.is_ascii() {
                    non_ascii.insert(i);
                    continue;
                }
                if k.contains(['\n', '\r']) {
                    return Err(format!("rule {}: keyword {k:?} spans lines", r.id));
                }
                let p = intern(&k, &mut patterns, &mut keyword_rules, &mut word_rules);
                // Whole-word narrowing applies to ASCII word keywords only; any other keyword
                // (CJK, punctuation) is a candidate wherever it occurs.
                let word = r.whole_word_keywords
                    && k.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.');
                if word {
                    word_rules[p].insert(i);
                } else {
                    keyword_rules[p].insert(i);
                }
            }
        }
        // Required fragments join the automaton as patterns of their own (or share a keyword's).
        let mut fragment: Vec<Option<u16>> = vec![None; patterns.len()];
        let mut fragments = 0usize;
        let mut required = Vec::with_capacity(n);
        let mut parsed = Vec::with_capacity(n);
        for r in &file.rules {
            let (hir, unicode) =
                parse_line(&r.pattern).map_err(|e| format!("rule {}: {e}", r.id))?;
            let mut groups = Vec::new();
            for group in super::literals::groups_for(&hir, &r.keywords) {
                let mut numbers = Vec::with_capacity(group.len());
                for f in group {
                    let p = intern(&f, &mut patterns, &mut keyword_rules, &mut word_rules);
                    fragment.resize(patterns.len(), None);
                    if fragment[p].is_none() && fragments < MAX_FRAGMENTS {
                        fragment[p] = Some(fragments as u16);
                        fragments += 1;
                    }
                    match fragment[p] {
                        Some(number) => numbers.push(number),
                        // Out of numbers: the group is not checked (the regex decides).
                        None => {
                            numbers.clear();
                            break;
                        }
                    }
                }
                if !numbers.is_empty() {
                    groups.push(numbers);
                }
            }
            required.push(groups);
            parsed.push(Some((hir, unicode)));
        }
        let keywords = Keywords::new(&patterns)?;
        Ok(RuleSet {
            rules: file.rules,
            patterns,
            keywords,
            keyword_rules,
            word_rules,
            in_code,
            in_prose,
            non_ascii,
            fragment,
            required,
            parsed: Mutex::new(parsed),
            regexes: (0..n).map(|_| OnceLock::new()).collect(),
            exact: (0..n).map(|_| OnceLock::new()).collect(),
            twins: (0..n).map(|_| OnceLock::new()).collect(),
            unless: (0..n).map(|_| OnceLock::new()).collect(),
            named_groups: (0..n).map(|_| OnceLock::new()).collect(),
        })
    }

    fn regex(&self, i: usize) -> &Regex {
        &self.compiled(i).0
    }

    fn compiled(&self, i: usize) -> &(Regex, bool) {
        self.regexes[i].get_or_init(|| {
            self.with_parsed(i, |hir, _| rule_regex(hir))
                .unwrap_or_else(|e| panic!("rule {}: {e}", self.rules[i].id))
        })
    }

    /// Rule `i`'s regex with exact Unicode classes ([`rule_regex`]), compiled on first use.
    fn exact_regex(&self, i: usize) -> &Regex {
        self.exact[i].get_or_init(|| {
            self.with_parsed(i, |hir, _| hir_regex_with_groups(hir))
                .unwrap_or_else(|e| panic!("rule {}: {e}", self.rules[i].id))
        })
    }

    /// Rule `i`'s regex for a line that is not plain ASCII; `spaced`: whether the line holds
    /// non-ASCII white space ([`has_unicode_space`]).
    fn regex_on(&self, i: usize, spaced: bool) -> &Regex {
        let (regex, differs) = self.compiled(i);
        if spaced && *differs {
            self.exact_regex(i)
        } else {
            regex
        }
    }

    /// Rule `i`'s leftmost match on `line`, a line that is not plain ASCII; `spaced` says whether
    /// it holds non-ASCII white space ([`has_unicode_space`], worked out only if needed).
    ///
    /// The rule's fast regex ([`rule_regex`]) runs first. Where it differs from the exact one, its
    /// classes only ever take *more* characters (a class that leaves out non-ASCII white space
    /// takes it instead), so it matches wherever the exact regex does: when it finds nothing, the
    /// exact regex would not either, and need not run — nor be compiled, which it is on first use
    /// (outside the component's snapshot; a call that met one such line paid ~25 M instructions
    /// per rule to build it, even when nothing matched). When it finds a match on a spaced line,
    /// the exact regex decides, match and span.
    fn find_on(
        &self,
        i: usize,
        line: &str,
        spaced: impl FnOnce() -> bool,
    ) -> Option<regex_automata::Match> {
        let (regex, differs) = self.compiled(i);
        let m = regex.find(line.as_bytes())?;
        if *differs && spaced() {
            self.exact_regex(i).find(line.as_bytes())
        } else {
            Some(m)
        }
    }

    /// Rule `i`'s regex for `line`, whatever it holds (tests).
    #[cfg(test)]
    pub(crate) fn regex_for(&self, i: usize, line: &str) -> &Regex {
        if crate::is_ascii(line) {
            self.ascii_regex(i)
        } else {
            self.regex_on(i, has_unicode_space(line))
        }
    }

    /// Rule `i`'s regex for a line that is plain ASCII when it has one of its own
    /// ([`super::ascii_twin`]), else its regex.
    fn ascii_regex(&self, i: usize) -> &Regex {
        let twin = self.twins[i].get_or_init(|| {
            let twin = self
                .with_parsed(i, |hir, unicode| {
                    Ok(unicode
                        .then(|| super::ascii_twin::ascii_twin(hir))
                        .flatten())
                })
                .unwrap_or_else(|e| panic!("rule {}: {e}", self.rules[i].id))?;
            Some(
                hir_regex(&twin)
                    .unwrap_or_else(|e| panic!("rule {} (ASCII twin): {e}", self.rules[i].id)),
            )
        });
        twin.as_ref().unwrap_or_else(|| self.regex(i))
    }

    /// `f` on rule `i`'s parsed pattern and whether it has Unicode semantics ([`RuleSet::parsed`]).
    fn with_parsed<T>(
        &self,
        i: usize,
        f: impl FnOnce(&Hir, bool) -> Result<T, String>,
    ) -> Result<T, String> {
        let parsed = self.parsed.lock().unwrap_or_else(|e| e.into_inner());
        match parsed.get(i).and_then(Option::as_ref) {
            Some((hir, unicode)) => f(hir, *unicode),
            None => {
                drop(parsed);
                let (hir, unicode) = parse_line(&self.rules[i].pattern)?;
                f(&hir, unicode)
            }
        }
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

    fn named(&self, i: usize) -> &[usize] {
        self.named_groups[i].get_or_init(|| {
            let info = self.regex(i).group_info();
            let pid = regex_automata::PatternID::ZERO;
            (1..info.group_len(pid))
                .filter(|&g| info.to_name(pid, g).is_some())
                .collect()
        })
    }

    /// Compile every rule's regex and exemptions now instead of on a rule's first keyword hit.
    pub fn compile_lazy(&self) {
        for i in 0..self.rules.len() {
            self.regex(i);
            self.ascii_regex(i);
            self.exemptions(i);
            self.named(i);
        }
        let mut parsed = self.parsed.lock().unwrap_or_else(|e| e.into_inner());
        *parsed = Vec::new();
    }

    /// Where rule `i`'s match is only a mention ([`RuleSpec::mention_in`] or the category's default).
    pub fn mention_contexts(&self, i: usize) -> &[Context] {
        match &self.rules[i].mention_in {
            Some(v) => v,
            None => default_mention(&self.rules[i].category),
        }
    }

    /// State rule `i`'s fact about `line` (where it matched as `base` says): once, or for every
    /// match when the rule says `all`; each with the first named group that took part in it as its
    /// capture.
    pub fn facts_on_line(&self, i: usize, line: &str, base: &Fact, out: &mut FileFacts) {
        if out.is_full(base.kind) {
            out.dropped += 1;
            return;
        }
        let named = self.named(i);
        if !self.rules[i].all && named.is_empty() {
            out.push(base.clone());
            return;
        }
        let re = self.regex_on(i, has_unicode_space(line));
        let capture_of = |caps: &regex_automata::util::captures::Captures| {
            named
                .iter()
                .find_map(|&g| caps.get_group(g))
                .and_then(|sp| {
                    let (start, end) = char_span(line, sp.start, sp.end);
                    line.get(start..end)
                })
                .map(Box::<str>::from)
        };
        if self.rules[i].all {
            for caps in re.captures_iter(line.as_bytes()).take(32) {
                let Some(m) = caps.get_match() else { continue };
                let (at, to) = char_span(line, m.start(), m.end());
                out.push(Fact {
                    at: at as u32,
                    to: to as u32,
                    capture: capture_of(&caps),
                    ..base.clone()
                });
            }
        } else {
            let mut caps = re.create_captures();
            let input =
                regex_automata::Input::new(line.as_bytes()).span(base.at as usize..line.len());
            re.search_captures(&input, &mut caps);
            out.push(Fact {
                capture: capture_of(&caps),
                ..base.clone()
            });
        }
    }

    /// The heap each rule's compiled regexes hold (regex-automata's `memory_usage`, which the
    /// snapshot of a pre-initialized component carries): its own regex, its ASCII twin (0 when it
    /// has none) and its exemptions, in rule order. Compiles them.
    pub fn regex_memory(&self) -> Vec<RegexMemory> {
        (0..self.rules.len())
            .map(|i| {
                let own = self.regex(i);
                let twin = self.ascii_regex(i);
                RegexMemory {
                    regex: own.memory_usage(),
                    twin: if std::ptr::eq(own, twin) {
                        0
                    } else {
                        twin.memory_usage()
                    },
                    unless: self.exemptions(i).iter().map(Regex::memory_usage).sum(),
                }
            })
            .collect()
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
        let mut candidates = Candidates::new();
        if !crate::is_ascii(line) {
            self.add_non_ascii(&mut candidates);
        }
        for found in self.keywords.find_iter(line.as_bytes()) {
            self.add_candidates(line, found, &mut candidates);
        }
        self.confirm(line, in_code, &candidates)
    }

    /// Every keyword occurrence in `text` as (start, end, keyword), in order of where they end. No
    /// keyword contains a line break, so a file is searched once and the occurrences are handed to
    /// the lines they start on ([`RuleSet::add_candidates`], [`RuleSet::confirm`]): one search over
    /// the file costs less than one search per line.
    pub fn keywords_in<'a>(&'a self, text: &'a str) -> Occurrences<'a> {
        self.keywords.find_iter(text.as_bytes())
    }

    /// The keyword automaton (tests).
    #[cfg(test)]
    pub(crate) fn keyword_table(&self) -> &Keywords {
        &self.keywords
    }

    /// The distinct keywords (lowercased), numbered as [`RuleSet::keywords_in`] reports them.
    pub fn keyword_patterns(&self) -> &[String] {
        &self.patterns
    }

    /// Add the rules a keyword occurrence in `text` (as [`RuleSet::keywords_in`] gives it) makes
    /// candidates: all of the keyword's rules when it stands as a whole word, else those without
    /// [`RuleSpec::whole_word_keywords`].
    pub fn add_candidates(
        &self,
        text: &str,
        (start, end, keyword): (usize, usize, usize),
        out: &mut Candidates,
    ) {
        if let Some(f) = self.fragment[keyword] {
            out.seen.insert(f);
        }
        out.rules.union(&self.keyword_rules[keyword]);
        let words = &self.word_rules[keyword];
        if !words.is_empty() {
            let bytes = text.as_bytes();
            let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
            let before = start == 0 || !word(bytes[start - 1]);
            let after = end == bytes.len() || !word(bytes[end]);
            if before && after {
                out.rules.union(words);
            }
        }
    }

    /// Add the rules that have a keyword outside ASCII (for a line that is not plain ASCII).
    pub fn add_non_ascii(&self, out: &mut Candidates) {
        out.rules.union(&self.non_ascii);
    }

    /// Of the `candidates` (rules whose keywords occur on `line`), those that apply where the line
    /// is (code or prose) and whose regex matches while no exemption does, in rule order.
    pub fn confirm(&self, line: &str, in_code: bool, candidates: &Candidates) -> Vec<Hit> {
        self.confirm_in(line, self.scope(in_code, false), candidates)
    }

    /// The rules that apply on a line: code, prose, or prose with inline code (`…` spans in Markdown
    /// prose are commands too, so both kinds of rule run there).
    pub fn scope(&self, in_code: bool, inline_code: bool) -> std::borrow::Cow<'_, RuleBits> {
        use std::borrow::Cow;
        match (in_code, inline_code) {
            (true, _) => Cow::Borrowed(&self.in_code),
            (false, false) => Cow::Borrowed(&self.in_prose),
            (false, true) => {
                let mut both = self.in_prose.clone();
                both.union(&self.in_code);
                Cow::Owned(both)
            }
        }
    }

    /// [`RuleSet::confirm`] with the scope given as a set of rules.
    pub fn confirm_in(
        &self,
        line: &str,
        scope: std::borrow::Cow<'_, RuleBits>,
        candidates: &Candidates,
    ) -> Vec<Hit> {
        if candidates.rules.is_empty() {
            return Vec::new();
        }
        let scope = scope.as_ref();
        // (One combined automaton of all rules telling which regexes match a line was measured and
        // rejected twice: with 101 rules 5–8% faster on ordinary text, but on some lines, e.g.
        // `mkfs.ext4 disk.img`, its lazy DFA gave up and the fallback engine's cache took
        // ~290 MiB; with 208 rules and a bounded cache, no faster on the bench bundle and five
        // times slower on varied text, where its states never repeat. BENCHMARKS.md.)
        let mut hits = Vec::new();
        let ascii = crate::is_ascii(line);
        let mut spaced = None;
        for i in candidates.iter_and(scope) {
            // A required word is missing: the regex cannot match (the common case on prose that
            // mentions a rule's keyword in passing).
            let present = |group: &Vec<u16>| group.iter().any(|&f| candidates.seen.contains(f));
            if !self.required[i].iter().all(present) {
                continue;
            }
            let found = if ascii {
                self.ascii_regex(i).find(line.as_bytes())
            } else {
                self.find_on(i, line, || {
                    *spaced.get_or_insert_with(|| has_unicode_space(line))
                })
            };
            if let Some(m) = found
                && !self
                    .exemptions(i)
                    .iter()
                    .any(|u| u.is_match(line.as_bytes()))
            {
                let (start, end) = char_span(line, m.start(), m.end());
                hits.push(Hit {
                    rule: i,
                    start,
                    end,
                });
            }
        }
        hits
    }
}

#[cfg(test)]
mod tests;
