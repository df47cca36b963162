//! Here-documents in shell code (split from `code.rs`, round 33m).
//!
//! A here-document's body is data (a JSON file, a config, a message), one statement per line, so
//! brackets in it never join unrelated lines. One kind of body is code: a script the shell writes
//! to run later (`cat > run.sh <<'EOF'` / `#!/bin/bash` / … / `EOF`, then `bash run.sh`). Its lines
//! are read as code statements, so a request spread over several lines inside it is one statement
//! like anywhere else.

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The here-document terminator a shell line opens (`<<EOF`, `<<'EOF'`, `<<-"JSON"`), if any.
pub(super) fn word(line: &str) -> Option<String> {
    let i = line.find("<<")?;
    let rest = line[i + 2..].trim_start_matches('-').trim_start();
    let rest = rest.trim_start_matches(['\'', '"']);
    let word: String = rest
        .bytes()
        .take_while(|b| is_ident(*b))
        .map(char::from)
        .collect();
    (!word.is_empty() && !line[i..].starts_with("<<<")).then_some(word)
}

/// Script files a here-document may write.
const SCRIPT_EXTS: &[&str] = &[
    ".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".rb", ".pl", ".ps1",
];

/// Whether a here-document's body is a script: its first line is a shebang (`#!/bin/bash`), or
/// the line that opens it writes a script file (`cat > check.sh <<'EOF'`, `tee run.py <<EOF`).
pub(super) fn body_is_script(opener: &str, first: &str) -> bool {
    if first.trim_start().starts_with("#!") {
        return true;
    }
    let Some(i) = opener.find("<<") else {
        return false;
    };
    // The target is written before the `<<` (`cat > f.sh <<EOF`) or after its word
    // (`cat <<EOF > f.sh`).
    opener
        .split(|c: char| c.is_whitespace() || c == '>' || c == '"' || c == '\'')
        .filter(|w| !w.is_empty() && !w.starts_with("<<"))
        .any(|w| SCRIPT_EXTS.iter().any(|e| w.ends_with(e)))
        && (opener[..i].contains('>') || opener[i..].contains('>') || opener.contains("tee "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heredoc_word_and_script_bodies() {
        assert_eq!(word("cat > f <<'JSON'").as_deref(), Some("JSON"));
        assert_eq!(word("cat <<< \"$x\""), None);
        assert!(body_is_script(
            "cat > /tmp/x.json <<'E'",
            "#!/usr/bin/env bash"
        ));
        assert!(body_is_script("cat > ~/bin/check.sh << 'E'", "cd $HOME"));
        assert!(body_is_script("cat <<EOF > run.py", "import os"));
        assert!(!body_is_script("cat > config.json <<'E'", "{"));
        assert!(!body_is_script("cat <<EOF", "Hello"));
    }
}
