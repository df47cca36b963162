//! The AGENTS.md skills index in the OpenSkills format, kept in step as a pure text transform.
//!
//! The format (OpenSkills, which skillhub's CLI must stay compatible with) is one `<skill>` element per
//! skill, each tag on its own line, inside `<available_skills>`, inside a `<skills_system …>` section
//! (or, in older files, between `<!-- SKILLS_TABLE_START -->` and `<!-- SKILLS_TABLE_END -->`):
//!
//! ```text
//! <skill>
//! <name>date-format</name>
//! <description>Formats dates in reports.</description>
//! <location>.agents/skills/date-format</location>
//! </skill>
//! ```
//!
//! Only the bytes of the `<skill>` elements being added, replaced or removed change; everything else —
//! other skills, hand-written notes, the usage text, line endings (`\n` or `\r\n`), the rest of the
//! file — is kept byte for byte. A file without a section gets one appended (a missing file is created).
//! A block that cannot be read safely (an unclosed element, a `<skill>` without `<name>`, two sections)
//! is refused with its line number rather than guessed at. Tags inside fenced code blocks are text.
//! Descriptions are written on one line with `&`, `<` and `>` escaped and invisible characters
//! removed, so a skill's description cannot close the element and smuggle instructions into the file.

use serde::Serialize;

/// One skill to list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub name: String,
    pub description: String,
    /// Where the skill is installed (relative to the AGENTS.md's folder when inside it).
    pub location: String,
}

/// Why a file's skills block cannot be edited safely.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Malformed {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The result of an update.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Update {
    pub text: String,
    pub changed: bool,
    /// The file had no skills section; one was appended (or the file created).
    pub section_added: bool,
    /// The names listed after the update, in file order.
    pub listed: Vec<String>,
    pub warnings: Vec<String>,
}

/// Longest description written (the agentskills.io limit).
const MAX_DESCRIPTION: usize = 1024;

struct Line {
    start: usize,
    /// End of the content, before the line ending.
    end: usize,
    /// End including the line ending.
    next: usize,
}

fn lines(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut start = 0;
    for piece in text.split_inclusive('\n') {
        let next = start + piece.len();
        let content = piece.strip_suffix('\n').unwrap_or(piece);
        let content = content.strip_suffix('\r').unwrap_or(content);
        out.push(Line {
            start,
            end: start + content.len(),
            next,
        });
        start = next;
    }
    out
}

/// A parsed `<skill>` element: the lines it spans and its name.
struct Block {
    first: usize,
    last: usize,
    name: String,
}

/// Where the list lives.
struct Section {
    /// The `<available_skills>` line and the `</available_skills>` line.
    open: usize,
    close: usize,
    blocks: Vec<Block>,
}

fn bad(line: usize, message: impl Into<String>) -> Malformed {
    Malformed {
        line: line + 1,
        message: message.into(),
    }
}

/// Is this line (trimmed at the start) the tag `tag`, possibly with attributes (`<skills_system priority="1">`)?
fn opens(line: &str, tag: &str) -> bool {
    let t = line.trim_start();
    t.strip_prefix(tag)
        .is_some_and(|rest| rest.starts_with('>') || rest.starts_with(char::is_whitespace))
}

fn find_section(text: &str, ls: &[Line]) -> Result<Option<Section>, Malformed> {
    let line = |i: usize| &text[ls[i].start..ls[i].end];
    // Lines inside fenced code blocks are text, never tags.
    let mut fence: Option<&str> = None;
    let mut live = Vec::with_capacity(ls.len());
    for i in 0..ls.len() {
        let t = line(i).trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| t.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => {
                fence = Some(m);
                live.push(false);
            }
            (Some(f), Some(m)) if f == m => {
                fence = None;
                live.push(false);
            }
            (Some(_), _) => live.push(false),
            (None, None) => live.push(true),
        }
    }
    let tagged = |pred: &dyn Fn(&str) -> bool| -> Vec<usize> {
        (0..ls.len())
            .filter(|&i| live[i] && pred(line(i)))
            .collect()
    };
    let sys_open = tagged(&|l| opens(l, "<skills_system"));
    let sys_close = tagged(&|l| l.trim_start().starts_with("</skills_system>"));
    let (from, to) = match (sys_open.as_slice(), sys_close.as_slice()) {
        ([], []) => {
            let start = tagged(&|l| l.trim() == "<!-- SKILLS_TABLE_START -->");
            let end = tagged(&|l| l.trim() == "<!-- SKILLS_TABLE_END -->");
            match (start.as_slice(), end.as_slice()) {
                ([], []) => return Ok(None),
                ([s], [e]) if s < e => (*s, *e),
                ([s, second, ..], _) => {
                    return Err(bad(
                        *second,
                        format!(
                            "a second SKILLS_TABLE_START (the first is at line {}); keep one skills table",
                            s + 1
                        ),
                    ));
                }
                ([s], _) => {
                    return Err(bad(
                        *s,
                        "SKILLS_TABLE_START is not followed by SKILLS_TABLE_END",
                    ));
                }
                ([], [e, ..]) => {
                    return Err(bad(*e, "SKILLS_TABLE_END without SKILLS_TABLE_START"));
                }
            }
        }
        ([o], [c]) if o < c => (*o, *c),
        ([o, second, ..], _) => {
            return Err(bad(
                *second,
                format!(
                    "a second <skills_system> section (the first is at line {}); keep one",
                    o + 1
                ),
            ));
        }
        ([o], _) => return Err(bad(*o, "<skills_system> is not closed by </skills_system>")),
        ([], [c, ..]) => return Err(bad(*c, "</skills_system> without <skills_system>")),
    };
    let inside = |i: &usize| *i > from && *i < to;
    let av_open: Vec<usize> = tagged(&|l| l.trim_start().starts_with("<available_skills>"))
        .into_iter()
        .filter(inside)
        .collect();
    let av_close: Vec<usize> = tagged(&|l| l.trim_start().starts_with("</available_skills>"))
        .into_iter()
        .filter(inside)
        .collect();
    let (open, close) = match (av_open.as_slice(), av_close.as_slice()) {
        ([o], [c]) if o < c => (*o, *c),
        ([], _) => {
            return Err(bad(
                from,
                "the skills section has no <available_skills> list",
            ));
        }
        ([o], _) => {
            return Err(bad(
                *o,
                "<available_skills> is not closed by </available_skills>",
            ));
        }
        ([_, second, ..], _) => return Err(bad(*second, "a second <available_skills> list")),
    };
    let mut blocks = Vec::new();
    let mut i = open + 1;
    while i < close {
        let l = line(i);
        if !live[i] {
            i += 1;
            continue;
        }
        if l.trim_start().starts_with("</skill>") {
            return Err(bad(i, "</skill> without <skill>"));
        }
        if !opens(l, "<skill") {
            i += 1;
            continue;
        }
        let first = i;
        let mut body = String::new();
        let last = loop {
            if i >= close {
                return Err(bad(first, "<skill> is not closed by </skill>"));
            }
            let l = line(i);
            if i > first && opens(l, "<skill") {
                return Err(bad(
                    first,
                    "<skill> is not closed by </skill> before the next <skill>",
                ));
            }
            body.push_str(l);
            body.push('\n');
            if l.contains("</skill>") {
                break i;
            }
            i += 1;
        };
        let name = body
            .split_once("<name>")
            .and_then(|(_, rest)| rest.split_once("</name>"))
            .map(|(n, _)| n.trim().to_owned())
            .filter(|n| !n.is_empty())
            .ok_or_else(|| bad(first, "a <skill> without a <name>"))?;
        blocks.push(Block { first, last, name });
        i = last + 1;
    }
    Ok(Some(Section {
        open,
        close,
        blocks,
    }))
}

/// The names a file lists, in order (`Ok(vec![])` without a section).
pub fn listed(text: &str) -> Result<Vec<String>, Malformed> {
    let ls = lines(text);
    Ok(find_section(text, &ls)?
        .map(|s| s.blocks.into_iter().map(|b| b.name).collect())
        .unwrap_or_default())
}

fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{feff}' | '\u{e0000}'..='\u{e007f}')
}

/// Text for one XML element's content: one line, `&<>` escaped, invisible characters removed.
pub fn element_text(s: &str, max_chars: usize) -> String {
    let mut flat = String::with_capacity(s.len());
    for word in s
        .split(|c: char| c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        if !flat.is_empty() {
            flat.push(' ');
        }
        flat.extend(word.chars().filter(|c| !invisible(*c)));
    }
    let flat: String = if flat.chars().count() > max_chars {
        flat.chars().take(max_chars - 1).chain(['…']).collect()
    } else {
        flat
    };
    flat.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// One `<skill>` element, its lines joined by `eol`, each prefixed by `indent`.
pub fn render_block(e: &Entry, eol: &str, indent: &str) -> String {
    [
        "<skill>".to_owned(),
        format!("<name>{}</name>", element_text(&e.name, 64)),
        format!(
            "<description>{}</description>",
            element_text(&e.description, MAX_DESCRIPTION)
        ),
        format!("<location>{}</location>", element_text(&e.location, 4096)),
        "</skill>".to_owned(),
    ]
    .iter()
    .map(|l| format!("{indent}{l}"))
    .collect::<Vec<_>>()
    .join(eol)
}

/// A whole new section listing `entries` (OpenSkills' structure; the usage text is ours).
pub fn render_section(entries: &[Entry], eol: &str) -> String {
    let blocks: Vec<String> = entries.iter().map(|e| render_block(e, eol, "")).collect();
    let mut out = [
        "<skills_system priority=\"1\">",
        "",
        "## Available Skills",
        "",
        "<!-- SKILLS_TABLE_START -->",
        "<usage>",
        "A skill is a folder of instructions (SKILL.md) with optional references/, scripts/ and assets/.",
        "When a task matches a skill's description below, read the SKILL.md at its location first and",
        "follow it; paths the skill mentions are relative to that location.",
        "</usage>",
        "",
        "<available_skills>",
        "",
    ]
    .join(eol);
    out.push_str(eol);
    for b in &blocks {
        out.push_str(b);
        out.push_str(eol);
        out.push_str(eol);
    }
    out.push_str(
        &[
            "</available_skills>",
            "<!-- SKILLS_TABLE_END -->",
            "",
            "</skills_system>",
        ]
        .join(eol),
    );
    out
}

fn leading_ws(s: &str) -> &str {
    &s[..s.len() - s.trim_start().len()]
}

/// Add or replace `upsert` and remove `remove` (names). `text` is the file's content, `None` when it does
/// not exist. Errors: the existing block cannot be edited safely (nothing is changed).
pub fn update(
    text: Option<&str>,
    upsert: &[Entry],
    remove: &[String],
) -> Result<Update, Malformed> {
    let original = text.unwrap_or("");
    let eol = if original.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let ls = lines(original);
    let section = find_section(original, &ls)?;
    let mut warnings = Vec::new();
    let Some(section) = section else {
        let listed: Vec<String> = upsert.iter().map(|e| e.name.clone()).collect();
        if upsert.is_empty() {
            return Ok(Update {
                text: original.to_owned(),
                changed: false,
                section_added: false,
                listed: vec![],
                warnings,
            });
        }
        let mut out = match text {
            None => format!("# AGENTS{eol}{eol}"),
            Some("") => String::new(),
            Some(t) if t.ends_with('\n') => format!("{t}{eol}"),
            Some(t) => format!("{t}{eol}{eol}"),
        };
        out.push_str(&render_section(upsert, eol));
        out.push_str(eol);
        return Ok(Update {
            changed: true,
            text: out,
            section_added: true,
            listed,
            warnings,
        });
    };
    // Edits in original coordinates: (start, end, replacement), applied back to front.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut gone = vec![false; section.blocks.len()];
    let blank = |i: usize| original[ls[i].start..ls[i].end].trim().is_empty();
    // The span of a block with one adjacent blank line (after it, else before it).
    let removal = |b: &Block| {
        if b.last + 1 < section.close && blank(b.last + 1) {
            (ls[b.first].start, ls[b.last + 1].next)
        } else if b.first > section.open + 1 && blank(b.first - 1) {
            (ls[b.first - 1].start, ls[b.last].next)
        } else {
            (ls[b.first].start, ls[b.last].next)
        }
    };
    let mut inserts = String::new();
    let close_line = &original[ls[section.close].start..ls[section.close].end];
    let mut listed: Vec<String> = section.blocks.iter().map(|b| b.name.clone()).collect();
    for e in upsert {
        let same: Vec<usize> = (0..section.blocks.len())
            .filter(|&i| section.blocks[i].name == e.name)
            .collect();
        match same.split_first() {
            Some((&first, rest)) => {
                let b = &section.blocks[first];
                let indent = leading_ws(&original[ls[b.first].start..ls[b.first].end]);
                let new = render_block(e, eol, indent);
                let (start, end) = (ls[b.first].start, ls[b.last].end);
                if original[start..end] != new {
                    edits.push((start, end, new));
                }
                for &i in rest {
                    gone[i] = true;
                    let (s, en) = removal(&section.blocks[i]);
                    edits.push((s, en, String::new()));
                    warnings.push(format!(
                        "{} was listed more than once (line {}); the duplicate was removed",
                        e.name,
                        section.blocks[i].first + 1
                    ));
                }
            }
            None => {
                inserts.push_str(&render_block(e, eol, leading_ws(close_line)));
                inserts.push_str(eol);
                inserts.push_str(eol);
                listed.push(e.name.clone());
            }
        }
    }
    for (i, b) in section.blocks.iter().enumerate() {
        if remove.contains(&b.name) && !gone[i] {
            gone[i] = true;
            let (s, e) = removal(b);
            edits.push((s, e, String::new()));
        }
    }
    if !inserts.is_empty() {
        let at = ls[section.close].start;
        edits.push((at, at, inserts));
    }
    // Removals that share a blank line with a neighbour's removal must not overlap.
    edits.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut out = original.to_owned();
    let mut floor = usize::MAX;
    for (start, end, new) in edits {
        let end = end.min(floor);
        let start = start.min(end);
        out.replace_range(start..end, &new);
        floor = start;
    }
    let mut seen = Vec::new();
    listed.retain(|n| {
        let keep = !remove.contains(n) && !seen.contains(n);
        seen.push(n.clone());
        keep
    });
    Ok(Update {
        changed: out != original,
        text: out,
        section_added: false,
        listed,
        warnings,
    })
}

/// The `location` to write for a skill at `skill_dir`: relative to the AGENTS.md's folder when the skill
/// is inside it, else the absolute path.
pub fn location(agents_md: &str, skill_dir: &str) -> String {
    let base = agents_md
        .rsplit_once(['/', '\\'])
        .map(|(dir, _)| dir)
        .unwrap_or("");
    if base.is_empty() {
        return skill_dir.to_owned();
    }
    match skill_dir.strip_prefix(base) {
        Some(rest) if rest.starts_with(['/', '\\']) => rest[1..].to_owned(),
        _ => skill_dir.to_owned(),
    }
}

#[cfg(test)]
mod tests;
