//! A finding with two ends, each a `file:line` (round 31c): the shape the line-window judges of
//! `exposed`, `carry` and `errands` report.

use crate::scan::content::{Finding, Related, evidence};
use crate::scan::rules::Severity;

/// One end of a combination: the file, the 0-based line index and the line's text.
#[derive(Clone, Copy)]
pub(crate) struct End<'a> {
    pub file: &'a str,
    pub index: usize,
    pub text: &'a str,
}

impl<'a> End<'a> {
    pub fn new(file: &'a str, index: usize, text: &'a str) -> Self {
        End { file, index, text }
    }

    pub fn place(&self) -> String {
        format!("{}:{}", self.file, self.index + 1)
    }
}

/// Push a finding at `sink` with `source` as its related end.
pub(crate) fn push(
    out: &mut Vec<Finding>,
    rule: &str,
    severity: Severity,
    (source_role, source): (&str, End<'_>),
    sink: End<'_>,
    description: String,
) {
    let category = rule.split('.').next().unwrap_or(rule).to_owned();
    out.push(Finding {
        rule_id: rule.into(),
        category,
        severity,
        file: sink.file.into(),
        line: sink.index + 1,
        evidence: evidence(sink.text, 0, sink.text.len()),
        description,
        related: vec![Related {
            role: source_role.into(),
            file: source.file.into(),
            line: source.index + 1,
            evidence: evidence(source.text, 0, source.text.len()),
        }],
    });
}

/// Whether a lowered line refuses or warns rather than orders (English, Chinese, Japanese and
/// Korean negations).
pub(crate) fn negated(l: &str) -> bool {
    const NO: &[&str] = &[
        "never",
        "do not",
        "don't",
        "must not",
        "should not",
        "shouldn't",
        "not paste",
        "not copy",
        "not send",
        "no need to",
        "instead of",
        "avoid",
        "redact",
        "attacker",
        "malicious",
        "请勿",
        "不要",
        "切勿",
        "禁止",
        "不会",
        "不得",
        "ないで",
        "しない",
        "禁止",
        "하지 마",
        "않",
        "금지",
    ];
    // "unredacted" is the opposite of a refusal.
    NO.iter().any(|w| l.contains(w))
        && (!l.contains("unredact") || NO.iter().any(|w| *w != "redact" && l.contains(w)))
}
