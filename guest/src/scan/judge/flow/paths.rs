//! How code names the files and paths a flow follows: a path expression as later code names it
//! (`path_key`), whether a statement names such a key (`names_key`), the files a statement writes
//! (`write_targets`), whether a run's target is a fixed system program (`fixed_program`) and whether
//! a statement reads a file's contents (`reads_content`). Split from `flow.rs`.

use super::args::arg_pieces;

/// A path expression as later code would name it: a variable (`$TMP`, `${BIN}` → `$BIN`; a bare
/// identifier stays itself) or the basename of a literal path.
pub fn path_key(expr: &str) -> Option<String> {
    let e = expr
        .trim()
        .trim_matches(|c| matches!(c, '"' | '\'' | '`' | '(' | ')' | ',' | ';'))
        .trim_start_matches("str(")
        .trim();
    if e.is_empty() || e == "-" || e.starts_with("/dev/") {
        return None;
    }
    let e = e.replace("${", "$").replace('}', "");
    // A whole variable: `$TMP`, `$opt`, `target`.
    let bare = e.trim_start_matches('$');
    if !bare.is_empty() && bare.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Some(e);
    }
    // A variable with a suffix (`$BIN.tmp`, later moved to `$BIN`): the variable.
    if e.starts_with('$') && !e.contains(['/', '\\']) {
        let n = bare
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        if n > 0 {
            return Some(format!("${}", &bare[..n]));
        }
    }
    let base = e
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(&e)
        .trim_end_matches(['"', '\'']);
    (base.len() >= 3 && !base.starts_with('$')).then(|| base.to_owned())
}

/// Whether `text` names `key` (a variable as a whole word, or a basename).
pub fn names_key(text: &str, key: &str) -> bool {
    if key.is_empty() || text.len() < key.len() {
        return false;
    }
    let finder = memchr::memmem::Finder::new(key.as_bytes());
    let mut from = 0;
    while let Some(i) = finder.find(&text.as_bytes()[from..]).map(|i| i + from) {
        let before = text[..i].chars().next_back();
        let after = text[i + key.len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        let key_is_var =
            key.starts_with('$') || key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        let before_ok = if key_is_var {
            !word(before)
        } else {
            !word(before) || before == Some('/')
        };
        if before_ok && !word(after) {
            return true;
        }
        from = i + key.len();
    }
    false
}

/// Where a statement writes (redirects, `tee`, `open(x, "w")`, `writeFile`, `Out-File`,
/// `Set-Content`, `cp … dest`), as path expressions.
pub(super) fn write_targets(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let token = |s: usize| -> &str {
        let rest = text[s..].trim_start();
        let off = text.len() - rest.len();
        let end = if rest.starts_with(['"', '\'']) {
            let q = rest.as_bytes()[0];
            rest[1..].find(q as char).map_or(rest.len(), |i| i + 2)
        } else {
            rest.find(|c: char| c.is_whitespace() || matches!(c, ';' | '&' | '|' | ')'))
                .unwrap_or(rest.len())
        };
        &text[off..off + end]
    };
    for i in 0..b.len() {
        if b[i] == b'>' && (i == 0 || !matches!(b[i - 1], b'2' | b'&' | b'-' | b'=' | b'>')) {
            let s = if b.get(i + 1) == Some(&b'>') {
                i + 2
            } else {
                i + 1
            };
            if b.get(s) != Some(&b'&') {
                let t = token(s);
                if !t.is_empty() && t != "/dev/null" {
                    out.push(t);
                }
            }
        }
    }
    // `target.write_bytes(body)` / `dest.write_text(src)`: the path object by its name.
    for pat in [".write_bytes(", ".write_text("] {
        if let Some(i) = text.find(pat) {
            let recv = &text[..i];
            let n = recv
                .bytes()
                .rev()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                .count();
            let name = &recv[recv.len() - n..];
            if n > 0 && !recv[..recv.len() - n].ends_with(['.', ')']) {
                out.push(name);
            }
        }
    }
    for pat in [
        "Set-Content -Path ",
        "Set-Content -LiteralPath ",
        "Out-File -FilePath ",
        "tee -a ",
        "tee ",
        "Out-File ",
        "Set-Content ",
        "Add-Content ",
        "-OutFile ",
    ] {
        if let Some(i) = text.find(pat) {
            out.push(token(i + pat.len()));
        }
    }
    for pat in [
        "open(",
        "writeFile(",
        "writeFileSync(",
        "appendFileSync(",
        "WriteFile(",
        "writeTextFile(",
        "File.write(",
        "File.binwrite(",
        "IO.write(",
        "Path(",
    ] {
        let mut from = 0;
        while let Some(i) = text[from..].find(pat).map(|i| i + from) {
            let args = &text[i + pat.len()..];
            let first = args.split([',', ')']).next().unwrap_or("");
            let writes = !matches!(pat, "open(" | "Path(")
                || pat == "open("
                    && args.split(')').next().is_some_and(|a| {
                        a.contains("'w")
                            || a.contains("\"w")
                            || a.contains("'a")
                            || a.contains("\"a")
                    })
                || pat == "Path("
                    && (text.contains(".write_text") || text.contains(".write_bytes"));
            if writes {
                out.push(first.trim());
            }
            from = i + pat.len();
        }
    }
    let t = text.trim_start();
    if t.starts_with("cp ")
        || t.starts_with("rsync ")
        || t.contains(" cp ")
        || t.contains("shutil.copy")
    {
        // The last argument of the first command.
        let cmd = t.split(['|', ';', '&', '\n']).next().unwrap_or(t);
        if let Some(last) = cmd.split_whitespace().last() {
            out.push(last);
        }
    }
    out
}

/// A run target that is a quoted interpreter or shell (`'bash'`, `"python3"`): it runs the file
/// given among its arguments (round 34t).
pub(crate) fn quoted_interpreter(target: &str) -> bool {
    let t = target.trim();
    let quoted = t.len() >= 3
        && t.starts_with(['"', '\'', '`'])
        && t.ends_with(['"', '\'', '`'])
        && !t[1..t.len() - 1].contains(['$', '{', ' ']);
    quoted && !fixed_program(t)
}

/// The function a run target calls with no arguments (`engine()` gives `engine`).
pub(crate) fn called_name(target: &str) -> Option<&str> {
    let n = target.trim().strip_suffix("()")?;
    let n = n.rsplit('.').next().unwrap_or(n);
    (!n.is_empty() && n.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')).then_some(n)
}

/// A run target that is a quoted program name which is not an interpreter or shell: what it runs
/// is fixed by the bundle, whatever its arguments hold.
pub(crate) fn fixed_program(target: &str) -> bool {
    let t = target.trim();
    let Some(q) = t.chars().next().filter(|c| matches!(c, '"' | '\'' | '`')) else {
        return false;
    };
    let Some(inner) = t[1..].strip_suffix(q) else {
        return false;
    };
    let name = inner.rsplit(['/', '\\']).next().unwrap_or(inner);
    let name = name
        .strip_suffix(".exe")
        .unwrap_or(name)
        .to_ascii_lowercase();
    let interpreter = name.is_empty()
        || name.contains(['$', '{', ' '])
        || name.ends_with("sh")
        || name.starts_with("python")
        || name.starts_with("pwsh")
        || name.starts_with("powershell")
        || matches!(
            name.as_str(),
            "node"
                | "nodejs"
                | "deno"
                | "bun"
                | "ruby"
                | "perl"
                | "php"
                | "cmd"
                | "osascript"
                | "env"
                | "sudo"
                | "xargs"
                | "eval"
                | "exec"
                | "source"
                | "npx"
                | "tsx"
                | "ts-node"
                | "lua"
                | "java"
                | "rundll32"
                | "mshta"
                | "wscript"
                | "cscript"
                | "regsvr32"
                | "msiexec"
                | "open"
                | "start"
                | "nohup"
                | "setsid"
                | "doas"
                | "awk"
                | "gawk"
                | "tclsh"
                | "rscript"
                | "julia"
                | "dotnet"
                | "chmod"
                | "install"
                | "launchctl"
                | "systemctl"
                | "crontab"
                | "schtasks"
        );
    !interpreter
}

/// A file opened for writing under a name (stop 58): Python's `with open(P, "w") as NAME:` and
/// `NAME = open(P, "a")`, Node's `NAME = fs.createWriteStream(P)`. Returns the name and the path
/// expression, so what is later written through the name (`NAME.write(v)`) is written to `P`.
pub(super) fn write_handle(first_line: &str) -> Option<(&str, &str)> {
    let t = first_line.trim();
    let (name, call) = if let Some(rest) = t.strip_prefix("with ") {
        let (call, name) = rest.trim_end_matches(':').rsplit_once(" as ")?;
        (name.trim(), call.trim())
    } else {
        let t = ["const ", "let ", "var "]
            .iter()
            .find_map(|k| t.strip_prefix(k))
            .unwrap_or(t);
        let (name, call) = t.split_once('=')?;
        (name.trim(), call.trim())
    };
    if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return None;
    }
    if let Some(args) = call
        .strip_prefix("fs.createWriteStream(")
        .or_else(|| call.strip_prefix("createWriteStream("))
    {
        let path = *arg_pieces(args).0.first()?;
        return (!path.is_empty()).then_some((name, path));
    }
    let (args, _) = arg_pieces(call.strip_prefix("open(")?);
    let path = *args.first()?;
    let mode = *args.get(1)?;
    let mode = mode.strip_prefix("mode=").unwrap_or(mode);
    let quoted = mode.len() >= 3 && mode.starts_with(['"', '\'']) && mode.ends_with(['"', '\'']);
    let writes = quoted && mode[1..mode.len() - 1].contains(['w', 'a', 'x']);
    (writes && !path.is_empty()).then_some((name, path))
}

/// Whether a statement reads a file's contents (`f.read()`, `readFileSync(p)`, `Get-Content p`,
/// `File.read(p)`, `read_text()`): what evaluating a downloaded file needs.
pub(super) fn reads_content(text: &str) -> bool {
    [
        ".read()",
        "readFileSync(",
        "readTextFile(",
        "Get-Content",
        "File.read(",
        "read_text(",
        "ReadAllText(",
        "os.ReadFile(",
    ]
    .iter()
    .any(|w| text.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_keys() {
        assert_eq!(path_key("\"$TMP\"").as_deref(), Some("$TMP"));
        assert_eq!(path_key("${BIN}").as_deref(), Some("$BIN"));
        assert_eq!(path_key("str(target)").as_deref(), Some("target"));
        assert_eq!(
            path_key("\"$HOME/.cache/vfx/codec\"").as_deref(),
            Some("codec")
        );
        assert_eq!(
            path_key(r"%TEMP%\notionsync.exe").as_deref(),
            Some("notionsync.exe")
        );
        assert_eq!(path_key("\"$BIN.tmp\"").as_deref(), Some("$BIN"));
        assert_eq!(path_key("/dev/null"), None);
        assert_eq!(path_key("-"), None);
    }

    #[test]
    fn naming_a_key() {
        assert!(names_key(". \"$TMP\"", "$TMP"));
        assert!(!names_key("echo $TMPDIR", "$TMP"));
        assert!(names_key("subprocess.run([str(target), '--x'])", "target"));
        assert!(!names_key("targets = 1", "target"));
        assert!(names_key(
            "source \"$HOME/.bashrc_remote\"",
            ".bashrc_remote"
        ));
        assert!(names_key("~/.cache/vfx/codec --hw", "codec"));
    }

    #[test]
    fn write_handles() {
        assert_eq!(
            write_handle("    with open(_tmp, \"w\") as f:"),
            Some(("f", "_tmp"))
        );
        assert_eq!(
            write_handle("out = open(os.path.join(d, 'k.txt'), 'ab')"),
            Some(("out", "os.path.join(d, 'k.txt')"))
        );
        assert_eq!(
            write_handle("const ws = fs.createWriteStream(dest);"),
            Some(("ws", "dest"))
        );
        assert_eq!(write_handle("with open(p) as f:"), None);
        assert_eq!(write_handle("with open(p, 'rb') as f:"), None);
        assert_eq!(write_handle("x = open(p, 'r')"), None);
        assert_eq!(write_handle("x = open(os.path.join(d, 'x.txt'))"), None);
    }

    #[test]
    fn write_targets_of_statements() {
        assert_eq!(write_targets("env > /tmp/.ctx 2>/dev/null"), ["/tmp/.ctx"]);
        assert_eq!(write_targets("cat a >> \"$OUT\""), ["\"$OUT\""]);
        assert_eq!(write_targets("json.dump(s, open(STATE, 'w'))"), ["STATE"]);
        assert!(write_targets("x = open(p).read()").is_empty());
        assert_eq!(write_targets("cp ~/.ssh/id_* .state/"), [".state/"]);
    }
}
