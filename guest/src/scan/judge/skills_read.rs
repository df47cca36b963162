//! Reading the installed skills is not writing into them (round 34b).
//!
//! `agent.skills-write` states a write into the agent's skills folder for an explicit write and
//! also for a loop or glob over every installed `SKILL.md` (`for f in ~/.claude/skills/*/SKILL.md`,
//! `glob.glob(".../skills/*/SKILL.md")`), because a worm reaches its victims that way. A lister or
//! auditor walks the same folders and only reads: `persistence.skill-worm` needs the loop or glob
//! to be followed by a write — a redirect, a copy, an append, a file opened for writing — on its
//! own line or in the code after it (to the end of the Markdown code block, or of the script),
//! within [`WINDOW`] lines. One pass over those lines, no lower-cased copy.

/// How many lines after the loop or glob are looked at for the write.
const WINDOW: usize = 60;

/// Words that write a file (compared ASCII case-insensitively).
const WRITE_WORDS: &[&str] = &[
    "cp ",
    "mv ",
    "tee ",
    "sed -i",
    "ln -s",
    "rsync ",
    "install -",
    ".write(",
    "write_text",
    "write_bytes",
    "writefile",
    "appendfile",
    "createwritestream",
    "set-content",
    "add-content",
    "out-file",
    "copy-item",
    "shutil.copy",
    "copytree",
    "shutil.move",
    "os.replace",
    "os.rename",
    "fs.copy",
    "fs.rename",
];

/// Whether a line redirects output into a file (`>`, `>>`), not into a descriptor (`2>&1`,
/// `>&2`) and not a comparison or arrow (`>=`, `=>`, `->`).
fn redirects(line: &str) -> bool {
    let b = line.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        if c != b'>' {
            return false;
        }
        let prev = i.checked_sub(1).map(|j| b[j]);
        let next = b.get(i + 1).copied();
        !matches!(prev, Some(b'=' | b'-' | b'<' | b'0'..=b'9' | b'>'))
            && !matches!(next, Some(b'&' | b'='))
            // `2>/dev/null` and `>/dev/null`: discarded, nothing written.
            && !line[i + 1..]
                .trim_start_matches('>')
                .trim_start()
                .starts_with("/dev/null")
    })
}

/// Whether a line opens a file for writing or appending (`open(p, "a")`, `open(p, 'w')`).
fn opens_for_writing(line: &str) -> bool {
    line.match_indices("open(").any(|(i, _)| {
        let rest = &line[i..];
        let call = rest.split(')').next().unwrap_or(rest);
        ["\"a", "'a", "\"w", "'w", "\"r+", "'r+", "\"x", "'x"]
            .iter()
            .any(|m| call.contains(m))
    })
}

fn writes_line(line: &str) -> bool {
    redirects(line)
        || opens_for_writing(line)
        || WRITE_WORDS.iter().any(|w| {
            line.as_bytes()
                .windows(w.len())
                .any(|win| win.eq_ignore_ascii_case(w.as_bytes()))
        })
}

/// Whether the code from 1-based `line` on writes a file: that line, and the lines after it up to
/// the end of its Markdown code block (a line starting with a fence) or [`WINDOW`] lines.
pub(crate) fn writes_after(content: &str, line: usize) -> bool {
    for (n, l) in content
        .lines()
        .skip(line.saturating_sub(1))
        .take(WINDOW)
        .enumerate()
    {
        if n > 0 && l.trim_start().starts_with("```") {
            break;
        }
        if writes_line(l) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::writes_after;

    #[test]
    fn a_read_only_loop_over_installed_skills_writes_nothing() {
        let lister = "for f in ~/.claude/skills/*/SKILL.md; do\n  head -5 \"$f\" 2>/dev/null\n  grep -m1 '^description:' \"$f\" >&2\ndone\n```\nThen write a summary table.";
        assert!(!writes_after(lister, 1));
        let py = "paths = glob.glob(os.path.expanduser(\"~/.openclaw/skills/*/SKILL.md\"))\nfor p in paths:\n    with open(p) as f:\n        print(f.readline())\n";
        assert!(!writes_after(py, 1));
    }

    #[test]
    fn a_loop_or_glob_followed_by_a_write_is_a_write() {
        assert!(writes_after(
            "for d in ~/.claude/skills/*/; do cp -r ./payload \"$d\"; done",
            1
        ));
        let py = "paths = glob.glob(os.path.expanduser(\"~/.openclaw/skills/*/SKILL.md\"))\nfor p in paths:\n    with open(p, \"a\") as f:\n        f.write(NOTE)\n";
        assert!(writes_after(py, 1));
        assert!(writes_after(
            "for f in ~/.claude/skills/*/SKILL.md; do\n  echo x >> \"$f\"\ndone",
            1
        ));
    }
}
