//! Injection specimens in a document titled as prompt-injection teaching (round 44b, sets44b).
//!
//! [`super::taught_injection`] treats the attack strings a prompt-security skill shows in framed,
//! plain fenced blocks as specimens, when the skill's SKILL.md `name` or `description` says it is
//! about prompt injection or jailbreaks. A course exercise, a red-team worksheet or a guard's notes
//! can say the same thing in its own title instead (`# Prompt Injection Strategy`, `# 越狱测试`),
//! inside a bundle whose SKILL.md names something wider. This pass gives such a document the same
//! reading for its own blocks.
//!
//! All of these must hold, or the finding keeps its grade: the file is a Markdown or text document
//! other than the root SKILL.md (what a skill tells the agent is never re-read as teaching); its
//! title — the first heading, among its first five non-blank lines after any front matter — names
//! prompt injection or jailbreaks; the finding is a prompt-injection phrase above `medium` on a
//! line of a plain fenced block that a heading or one of the three lines before it frames as an
//! attack or an example (the same block test as [`super::taught_injection`]); it pairs with
//! nothing outside such lines; and the line reaches no real outside address. The finding becomes
//! `medium` (informational). A document with another title, a code fence, an unframed block or a
//! specimen aimed at a real collector keep their grade. One pass over the bundle's documents.

use crate::scan::bundle::{Bundle, EntryKind};
use crate::scan::content::{FileKind, Finding, kind_of};
use crate::scan::rules::Severity;

use super::taught_injection::{prompt_security, specimen_lines, topic};

/// Non-blank lines (after front matter) within which a document's title is looked for.
const TITLE_WINDOW: usize = 5;

/// Whether the first heading of `content`, among its first [`TITLE_WINDOW`] non-blank lines after
/// any front matter, names prompt injection or jailbreaks.
pub(super) fn titled_as_injection_teaching(content: &str) -> bool {
    let mut lines = content.lines().peekable();
    if lines.peek().is_some_and(|l| l.trim() == "---") {
        lines.next();
        for l in lines.by_ref() {
            if l.trim() == "---" {
                break;
            }
        }
    }
    lines
        .filter(|l| !l.trim().is_empty())
        .take(TITLE_WINDOW)
        .find(|l| l.trim_start().starts_with('#'))
        .is_some_and(|h| topic().is_match(h.as_bytes()))
}

/// Lower prompt-injection phrase findings on framed specimen lines of a document titled as
/// prompt-injection teaching to `medium` (see the module's documentation).
pub(super) fn demote_titled_specimens(bundle: &Bundle, out: &mut [Finding]) {
    // A prompt-security skill's documents are already read so by `taught_injection`.
    if !out
        .iter()
        .any(|f| f.category == "prompt_injection" && f.severity > Severity::Medium)
        || prompt_security(bundle)
    {
        return;
    }
    let mut docs: Vec<(&str, &str, Vec<usize>)> = Vec::new();
    for f in bundle.files.iter().filter(|f| f.kind == EntryKind::Text) {
        let Some(content) = f.content.as_deref() else {
            continue;
        };
        if f.path.eq_ignore_ascii_case("SKILL.md")
            || !matches!(
                kind_of(&f.path, content),
                FileKind::Markdown | FileKind::Text
            )
            || !titled_as_injection_teaching(content)
        {
            continue;
        }
        let lines = specimen_lines(content);
        if !lines.is_empty() {
            docs.push((f.path.as_str(), content, lines));
        }
    }
    if docs.is_empty() {
        return;
    }
    let on_specimen = |file: &str, line: usize| {
        docs.iter().any(|(p, content, ls)| {
            *p == file
                && ls.contains(&line)
                && content
                    .lines()
                    .nth(line.saturating_sub(1))
                    .is_some_and(|l| !crate::scan::teaching::reaches_real_host(l))
        })
    };
    for f in out.iter_mut() {
        if f.category != "prompt_injection"
            || f.severity <= Severity::Medium
            || !f.related.iter().all(|r| on_specimen(&r.file, r.line))
            || !on_specimen(&f.file, f.line)
        {
            continue;
        }
        f.severity = Severity::Medium;
        f.description.push_str(
            " (Informational: this document's title says it teaches prompt injection, and this line is an example in a plain fenced block it introduces as an attack, aimed at no real address.)",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::titled_as_injection_teaching;

    #[test]
    fn title_after_front_matter_counts() {
        assert!(titled_as_injection_teaching(
            "---\ntitle: x\n---\n\n# Jailbreak drills for the workshop\n\ntext"
        ));
        assert!(titled_as_injection_teaching(
            "# Notes on prompt injection\n```\nsample\n```"
        ));
    }

    #[test]
    fn other_titles_or_late_headings_do_not() {
        assert!(!titled_as_injection_teaching(
            "# Deploy notes\n\n## Prompt injection\n"
        ));
        assert!(!titled_as_injection_teaching(
            "a\nb\nc\nd\ne\n# Prompt injection drills\n"
        ));
        assert!(!titled_as_injection_teaching(
            "no heading here, prompt injection"
        ));
    }
}
