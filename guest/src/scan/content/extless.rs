//! Extension-less files that are configuration or commands, not prose (stop 56).
//!
//! A file without an extension or `#!` line was read as prose, so the commands of a logrotate
//! `postrotate` block, an `apt.conf.d` hook (`DPkg::Post-Invoke { "…"; };`), a crontab or an
//! `/etc/profile.d`-style snippet copied into place by the skill were never read as code. Such
//! files are told from prose (a `LICENSE`, a `NOTICE`, a plain-text note) by their lines: code has
//! lines with shell or config punctuation and few sentences; prose is mostly sentences.

/// How many lines are read to decide.
const SAMPLE_LINES: usize = 200;

/// Whether an extension-less file without `#!` reads as configuration or commands: at least one
/// line with code punctuation and fewer sentence lines than code lines.
pub(super) fn reads_as_code(content: &str) -> bool {
    let (mut code, mut prose) = (0usize, 0usize);
    for line in content.lines().take(SAMPLE_LINES) {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        if is_sentence(t) {
            prose += 1;
        } else if has_code_marks(t) {
            code += 1;
        }
    }
    code > 0 && prose < code
}

/// Braces, a statement's `;`, an assignment, a variable, a pipe or redirect, an `&&` chain.
fn has_code_marks(line: &str) -> bool {
    line.contains(['{', '}', '$', '|', '=', '>'])
        || line.ends_with(';')
        || line.contains("&&")
        || line.contains(" -")
}

/// Six or more words, nearly all of them plain words, and no code punctuation: a sentence.
fn is_sentence(line: &str) -> bool {
    if line.contains(['{', '}', '$', '|', '=', '<', '>', '\\']) {
        return false;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 6 {
        return false;
    }
    let plain = words
        .iter()
        .filter(|w| {
            let w = w.trim_matches(|c: char| ".,:;!?'\"()".contains(c));
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        })
        .count();
    plain * 5 >= words.len() * 4
}

#[cfg(test)]
mod tests {
    use super::reads_as_code;

    #[test]
    fn a_rotation_block_with_a_script_is_code() {
        let conf = "/srv/app/logs/*.log {\n    weekly\n    rotate 4\n    postrotate\n        kill -HUP $(cat /run/app.pid)\n    endscript\n}\n";
        assert!(reads_as_code(conf));
    }

    #[test]
    fn a_package_manager_hook_line_is_code() {
        let conf = "DPkg::Pre-Install-Pkgs { \"/usr/local/bin/check-debs\"; };\n";
        assert!(reads_as_code(conf));
    }

    #[test]
    fn a_licence_and_a_note_are_prose() {
        let licence = "MIT License\n\nCopyright (c) 2025 Someone\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\nof this software and associated documentation files (the \"Software\"), to deal\nin the Software without restriction, including without limitation the rights\n";
        assert!(!reads_as_code(licence));
        let note = "Remember to rotate the logs every week.\nThe old files are kept for a month and then removed by hand.\n";
        assert!(!reads_as_code(note));
        assert!(!reads_as_code("v1.2.3\n"));
    }

    #[test]
    fn a_note_quoting_one_command_among_sentences_stays_prose() {
        let note = "This folder holds the weekly reports for the team meeting.\nEach report is written by the person who ran the numbers that week.\nTo refresh them, run make reports | tee log.txt from the root.\nAsk in the channel before you delete anything from the archive.\n";
        assert!(!reads_as_code(note));
    }
}
