//! Injection phrases a prompt-security skill shows as examples (round 28b, sets27b).
//!
//! Skills that teach or test prompt injection and jailbreaks (their SKILL.md `name` or
//! `description` says so: "prompt injection", "jailbreak", "LLM security", "AI red teaming") show
//! the attack strings they teach as plain fenced blocks under a heading or sentence that names the
//! attack ("### 1. Direct Prompt Injection", "Encoding bypasses:", "for example:"). Such a block is
//! a specimen, like the quoted phrase the phrase rules already treat as a mention: a prompt-injection
//! phrase finding on one of its lines is informational (`medium`).
//!
//! All of these must hold, or the finding keeps its grade: the file is Markdown or text (never a
//! script); the line is in a fence without a language or marked as plain text or a prompt; the
//! nearest heading above the fence, or one of the three non-blank lines just before it, names an
//! attack or an example; the finding pairs with nothing (no action, send or concealment in
//! `related`); and the line reaches no real outside address (a specimen aimed at
//! `attacker.example` stays a specimen, one aimed at a real collector does not). One pass.

use std::sync::OnceLock;

use regex_automata::meta::Regex;

use crate::scan::bundle::{Bundle, EntryKind};
use crate::scan::content::{FileKind, Finding, kind_of};
use crate::scan::rules::{Severity, line_regex};

/// What a prompt-security skill says it is about.
pub(super) fn topic() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r"(?i)\b(prompt[- ]injections?|jailbreak(s|ing)?|llm (security|red[- ]team\w*|vulnerabilit\w*)|ai (security|red[- ]team\w*)|adversarial prompt\w*|guardrail (testing|evaluation|bypass\w*))\b|提示(词)?注入|越狱")
            .expect("valid")
    })
}

/// Words that frame a block as a specimen of an attack.
fn framing() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        line_regex(r"(?i)\b(injections?|jailbreak\w*|attacks?|attackers?|examples?|e\.g\.|payloads?|bypass(es|ing)?|exploit\w*|manipulation|role[- ]?play\w*|persona|override|overriding|extraction|poisoning|smuggl\w*|indirect|hidden (instructions?|text|prompts?)|instructions? hidden|techniques?|vulnerabilit\w*)\b|(注入|越狱|攻击|示例|例如)")
            .expect("valid")
    })
}

/// Whether the bundle's SKILL.md says it is about prompt security.
pub(super) fn prompt_security(bundle: &Bundle) -> bool {
    crate::scan::teaching::declares(bundle, topic())
}

/// The 1-based numbers of the lines that sit in a framed specimen block (see the module's
/// documentation).
pub(super) fn specimen_lines(content: &str) -> Vec<usize> {
    let lines: Vec<&str> = content.lines().collect();
    let mut out = Vec::new();
    let mut heading: Option<&str> = None;
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        let marker: String = t.chars().take_while(|&c| c == '`' || c == '~').collect();
        if marker.len() < 3 {
            if t.starts_with('#') {
                heading = Some(t);
            }
            i += 1;
            continue;
        }
        let info = t[marker.len()..].trim().to_ascii_lowercase();
        // Markup and data fences (`html`, `json`, an e-mail) show the text as code: a hidden
        // `<div>` or an injected JSON field inside one is displayed to the reader, not hidden
        // (round 36b). Fences of a language that runs (shell, Python…) are never specimens here.
        let plain = matches!(
            info.as_str(),
            "" | "text"
                | "txt"
                | "plaintext"
                | "prompt"
                | "markdown"
                | "md"
                | "html"
                | "htm"
                | "xml"
                | "svg"
                | "json"
                | "yaml"
                | "yml"
                | "email"
                | "eml"
        );
        let framed = heading.is_some_and(|h| framing().is_match(h.as_bytes()))
            || lines[..i]
                .iter()
                .rev()
                .filter(|l| !l.trim().is_empty())
                .take(3)
                .any(|l| framing().is_match(l.as_bytes()));
        // The fence's body, up to its closing marker (or the end of the file).
        let mut j = i + 1;
        while j < lines.len() {
            let u = lines[j].trim_start();
            if u.starts_with(&marker[..1].repeat(marker.len()))
                && u.trim_matches(['`', '~']).trim().is_empty()
            {
                break;
            }
            if plain && framed {
                out.push(j + 1);
            }
            j += 1;
        }
        i = j + 1;
    }
    out
}

/// Lower prompt-injection phrase findings on framed specimen lines of a prompt-security skill's
/// documentation to `medium` (see the module's documentation).
pub(super) fn demote_taught_injection(bundle: &Bundle, out: &mut [Finding]) {
    if !out.iter().any(|f| f.category == "prompt_injection") || !prompt_security(bundle) {
        return;
    }
    demote_on_lines(
        bundle,
        out,
        specimen_lines,
        " (Informational: the skill says it teaches or tests prompt security, and this line is an example in a plain fenced block its documentation introduces as an attack, aimed at no real address.)",
    );
}

/// Lower every prompt-injection finding above `medium` that has no related finding and stands on
/// a line `lines_of` picks in a Markdown or text file (and reaches no real host) to `medium`, with
/// `note` added to its description. Shared by the framed-specimen and the specimen-literal
/// demotions; each checks first that the bundle is a prompt-security skill.
pub(super) fn demote_on_lines(
    bundle: &Bundle,
    out: &mut [Finding],
    lines_of: fn(&str) -> Vec<usize>,
    note: &str,
) {
    let mut specimens: Vec<(&str, &str, Vec<usize>)> = Vec::new();
    for f in bundle.files.iter().filter(|f| f.kind == EntryKind::Text) {
        let Some(content) = f.content.as_deref() else {
            continue;
        };
        if matches!(
            kind_of(&f.path, content),
            FileKind::Markdown | FileKind::Text
        ) {
            let lines = lines_of(content);
            if !lines.is_empty() {
                specimens.push((f.path.as_str(), content, lines));
            }
        }
    }
    let on_specimen = |file: &str, line: usize| {
        specimens.iter().any(|(p, content, ls)| {
            *p == file
                && ls.contains(&line)
                && content
                    .lines()
                    .nth(line.saturating_sub(1))
                    .is_some_and(|l| !crate::scan::teaching::reaches_real_host(l))
        })
    };
    for f in out.iter_mut() {
        // A partner on another specimen line of the same block (the hidden `<div>` and the
        // instruction inside it) is part of the same example (round 36b); any other partner
        // keeps the grade.
        if f.category != "prompt_injection"
            || f.severity <= Severity::Medium
            || !f.related.iter().all(|r| on_specimen(&r.file, r.line))
        {
            continue;
        }
        let on_specimen = on_specimen(&f.file, f.line);
        if on_specimen {
            f.severity = Severity::Medium;
            f.description.push_str(note);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::specimen_lines;

    #[test]
    fn framed_plain_fences_are_specimens() {
        let doc = "# Guide\n### 1. Direct Prompt Injection\nOverriding rules with user input.\n\n```\nline a\nline b\n```\n";
        assert_eq!(specimen_lines(doc), vec![6, 7]);
        let doc = "Some intro.\nFor example:\n```text\nline a\n```\n";
        assert_eq!(specimen_lines(doc), vec![4]);
    }

    #[test]
    fn unframed_or_code_fences_are_not() {
        // A shell fence; a plain fence under a heading and lines that name no attack.
        let doc = "### Prompt injection examples\n```bash\nline a\n```\n";
        assert!(specimen_lines(doc).is_empty());
        let doc = "## Setup\nRun this first.\n\n```\nline a\n```\n";
        assert!(specimen_lines(doc).is_empty());
    }
}
