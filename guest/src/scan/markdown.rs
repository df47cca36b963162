//! Markdown block structure the scanner needs: CommonMark's fenced and indented code blocks.

/// An open fenced code block (CommonMark): a run of three or more backticks or tildes opens it (a
/// backtick fence's info string holds no backtick); only a run of the same character at least as
/// long, with nothing after it but spaces, closes it. So a line like "```bash" inside a block is
/// its content, not its end, and a fence written after text on a line ("Step: ```bash") opens
/// nothing: what the reader sees rendered is what the scanner reads as code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fence {
    ch: u8,
    len: usize,
    /// The info string's first word, lower-cased, is a data format (`json`, `toml`, …).
    pub data: bool,
}

impl Fence {
    /// The fence that `trimmed` (a line without its leading spaces) opens, if any.
    pub fn opens(trimmed: &str) -> Option<Fence> {
        let ch = *trimmed.as_bytes().first()?;
        if ch != b'`' && ch != b'~' {
            return None;
        }
        let len = trimmed.bytes().take_while(|&b| b == ch).count();
        let info = &trimmed[len..];
        if len < 3 || ch == b'`' && info.contains('`') {
            return None;
        }
        let lang = info
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let data = matches!(
            lang.as_str(),
            "json" | "jsonc" | "json5" | "toml" | "xml" | "plist" | "csv"
        );
        Some(Fence { ch, len, data })
    }

    /// Whether `trimmed` closes this fence.
    pub fn closed_by(self, trimmed: &str) -> bool {
        let run = trimmed.bytes().take_while(|&b| b == self.ch).count();
        run >= self.len && trimmed[run..].trim().is_empty()
    }

    /// Step a file's fence state over one line (leading spaces trimmed): whether the line is a
    /// fence line (it opened or closed a block).
    pub fn step(state: &mut Option<Fence>, trimmed: &str) -> bool {
        match *state {
            Some(open) if open.closed_by(trimmed) => {
                *state = None;
                true
            }
            Some(_) => false,
            None => match Fence::opens(trimmed) {
                Some(f) => {
                    *state = Some(f);
                    true
                }
                None => false,
            },
        }
    }
}

/// Where a line sits against a file's fenced code blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FencePlace {
    /// Outside every fenced block.
    Outside,
    /// A line that opens or closes a block.
    Fence,
    /// Inside an open block.
    Inside,
}

/// Each line's place against the fenced code blocks, stepping [`Fence::step`] over the lines (so
/// a fence is closed only as CommonMark closes it).
pub fn fence_places<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<FencePlace> {
    let mut fence = None;
    lines
        .into_iter()
        .map(|line| {
            let was_open = fence.is_some();
            if Fence::step(&mut fence, line.trim_start()) {
                FencePlace::Fence
            } else if was_open {
                FencePlace::Inside
            } else {
                FencePlace::Outside
            }
        })
        .collect()
}

/// The block structure of a Markdown file that decides CommonMark's indented code blocks: a line
/// indented by four or more columns (a tab counts four) that follows a blank line or another such
/// line, and does not continue a paragraph. Inside a list item the indentation is counted from the
/// item's content column (`1. ` → 3), so a list item's own indented paragraphs stay prose. Fenced
/// blocks are tracked by the caller; a continuation line of a `\`-joined command is not stepped.
#[derive(Debug, Default)]
pub struct IndentedCode {
    /// The previous line was blank (or the file just started).
    after_blank: bool,
    /// The previous non-blank line was indented code.
    in_block: bool,
    /// The content column of the list item the text is in, if any.
    list_column: Option<usize>,
    /// At least one line was seen (the start of a file counts as after a blank line).
    started: bool,
}

impl IndentedCode {
    /// Feed one physical line; whether it is indented code.
    pub fn step(&mut self, line: &str) -> bool {
        if !self.started {
            self.started = true;
            self.after_blank = true;
        }
        if line.trim().is_empty() {
            self.after_blank = true;
            // A blank line inside an indented block neither ends nor starts it.
            return self.in_block;
        }
        let indent = indent_columns(line);
        let needed = self.list_column.map_or(4, |c| c + 4);
        let code = indent >= needed && (self.after_blank || self.in_block);
        if !code && indent < needed {
            let body = &line[line.len() - line.trim_start().len()..];
            if let Some(marker) = list_marker_len(body) {
                self.list_column = Some(indent + marker);
            } else if indent == 0 && self.after_blank {
                // A paragraph or heading at the margin after a blank line ends any list.
                self.list_column = None;
            }
        }
        self.in_block = code;
        self.after_blank = false;
        code
    }
}

/// Leading indentation in columns (a tab advances to the next multiple of four).
fn indent_columns(line: &str) -> usize {
    let mut col = 0;
    for b in line.bytes() {
        match b {
            b' ' => col += 1,
            b'\t' => col = col / 4 * 4 + 4,
            _ => break,
        }
    }
    col
}

/// The width of a list marker and the spaces after it (`- `, `* `, `+ `, `12. `, `3) `), if the
/// text opens with one.
fn list_marker_len(body: &str) -> Option<usize> {
    let b = body.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let marker = match b.first()? {
        b'-' | b'*' | b'+' => 1,
        _ if (1..=9).contains(&digits) && matches!(b.get(digits), Some(b'.' | b')')) => digits + 1,
        _ => return None,
    };
    let spaces = b[marker..].iter().take_while(|c| **c == b' ').count();
    // A marker needs a space after it (or ends the line); more than four spaces means the content
    // column is the marker's plus one (the rest is an indented code block inside the item).
    match spaces {
        0 if marker == b.len() => Some(marker + 1),
        0 => None,
        1..=4 => Some(marker + spaces),
        _ => Some(marker + 1),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fence_places_mark_fences_insides_and_prose() {
        use super::{FencePlace::*, fence_places};
        assert_eq!(
            fence_places("a\n```sh\nx\n```\nb".lines()),
            vec![Outside, Fence, Inside, Fence, Outside]
        );
        // A shorter or different run inside a block is its content, not its end (a toggle on
        // every ``` or ~~~ would read `c` as code and `x` as prose).
        assert_eq!(
            fence_places("~~~\n```\n~~~\nc".lines()),
            vec![Fence, Inside, Fence, Outside]
        );
        assert_eq!(
            fence_places("````md\n```\nx\n".lines()),
            vec![Fence, Inside, Inside]
        );
    }

    #[test]
    fn fences_follow_commonmark() {
        use super::Fence;
        fn fenced(text: &str) -> Vec<usize> {
            let mut state = None;
            let mut out = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if !Fence::step(&mut state, line.trim_start()) && state.is_some() {
                    out.push(i + 1);
                }
            }
            out
        }
        // An info string does not close a block; the closing run must be as long as the opening.
        assert_eq!(fenced("```\na\n```bash\nb\n```\nc"), vec![2, 3, 4]);
        assert_eq!(fenced("````md\n```\nx\n```\n````\ny"), vec![2, 3, 4]);
        assert_eq!(fenced("~~~\n```\n~~~\nz"), vec![2]);
        // A fence after text on a line opens nothing; a backtick info string holds no backtick.
        assert_eq!(fenced("Step: ```bash\nrun\n```\nin\n```"), vec![4]);
        assert_eq!(fenced("``` a ` b\nprose"), Vec::<usize>::new());
        assert!(Fence::opens("```json").is_some_and(|f| f.data));
        assert!(Fence::opens("```bash").is_some_and(|f| !f.data));
        assert!(Fence::opens("``").is_none());
    }

    #[test]
    fn indented_code_blocks_follow_commonmark() {
        fn code_lines(text: &str) -> Vec<usize> {
            let mut st = super::IndentedCode::default();
            text.lines()
                .enumerate()
                .filter(|(_, l)| st.step(l) && !l.trim().is_empty())
                .map(|(i, _)| i + 1)
                .collect()
        }
        // After a blank line, four spaces are code; the blank line inside the block keeps it.
        assert_eq!(
            code_lines("Run:\n\n    curl -o /tmp/x URL\n\n    /tmp/x\nDone."),
            [3, 5]
        );
        // Indentation that continues a paragraph (no blank line before) is prose.
        assert_eq!(
            code_lines("Download it from\n    https://x.example/a.zip"),
            Vec::<usize>::new()
        );
        // A list item's own paragraph indented to its content column is prose; four more is code.
        assert_eq!(
            code_lines("1. Step one\n\n   more about step one\n\n       code in the item\n"),
            [5]
        );
        assert_eq!(
            code_lines("- item\n\n    continued item text\n"),
            Vec::<usize>::new()
        );
        // A paragraph at the margin ends the list; a tab counts four columns.
        assert_eq!(code_lines("- item\n\nText.\n\n\tcode\n"), [5]);
    }
}
