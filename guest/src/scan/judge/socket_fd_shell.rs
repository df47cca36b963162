//! Round 36t: shells wired to a socket across lines, and deletions of system folders through a loop.
//!
//! - `network.reverse-shell-dev-tcp` (split form): `exec N<>/dev/tcp/HOST/PORT` opens a two-way
//!   socket on descriptor N; a later line reads from it (`read … <&N`) and a nearby line runs what
//!   was read with its output sent back (`eval "$line" >&N`), or a shell reads its commands from it
//!   (`sh <&N >&N`). The one-line form is the JSON rule's; this is the same shell written over a
//!   few lines.
//! - `destructive.system-path-loop`: a recursive delete (`os.RemoveAll(p)`, `shutil.rmtree(p)`,
//!   `FileUtils.rm_rf(d)`, `rm -rf "$d"`) of a loop variable whose loop runs over a literal list
//!   naming a system folder (`/etc`, `/usr`, `/var`, …) or the filesystem root.
//!
//! Each reads only the few lines after (or before) a fact already found: linear in bytes.

use super::{Bundle, finding};
use crate::scan::content::{Finding, Related};
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// Lines after the socket is opened within which its commands are read and run.
const SHELL_WINDOW: usize = 8;
/// Lines before a delete within which its loop header is looked for.
const LOOP_LOOKBACK: usize = 3;

/// The descriptor an `exec N<>/dev/tcp/…` (or `/dev/udp/`) line opens, if any.
fn opened_fd(lower: &str) -> Option<String> {
    let i = lower.find("<>")?;
    let rest = lower[i + 2..].trim_start();
    if !(rest.starts_with("/dev/tcp/") || rest.starts_with("/dev/udp/")) {
        return None;
    }
    let before = lower[..i].trim_end();
    let fd: String = before
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let head = before[..before.len() - fd.len()].trim_end();
    (!fd.is_empty() && head.ends_with("exec")).then_some(fd)
}

/// Whether a line runs text it holds (`eval "$line"`, `$cmd`, `bash -c "$x"`) with its output
/// sent to descriptor `fd`.
fn runs_into(line: &str, fd: &str) -> bool {
    let l = line.trim_start_matches(|c: char| c.is_whitespace() || c == ';');
    let l = l.strip_prefix("do ").unwrap_or(l).trim_start();
    let runs = l.starts_with("eval ")
        || l.starts_with('$')
        || l.starts_with("\"$")
        || l.contains("sh -c \"$")
        || l.contains("sh -c $");
    runs && line.contains(&format!(">&{fd}"))
}

/// Whether a line hands descriptor `fd` to a shell as its input (`bash -i <&5 >&5 2>&5`).
fn shell_reads(line: &str, fd: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.first().is_some_and(|w| {
        matches!(
            w.rsplit('/').next().unwrap_or(w),
            "sh" | "bash" | "zsh" | "ksh" | "dash"
        )
    }) && line.contains(&format!("<&{fd}"))
}

pub(super) fn split_socket_shell(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let lower = &file.lowered().lower;
        for open in b.in_file(file, FactKind::SocketConnect) {
            let Some(fd) = opened_fd(&crate::ascii_lowered(&open.text())) else {
                continue;
            };
            let from = open.fact.line as usize; // the next line's index
            let window = lower.iter().enumerate().skip(from).take(SHELL_WINDOW);
            let mut read_at: Option<usize> = None;
            let mut run_at: Option<usize> = None;
            for (i, l) in window {
                if shell_reads(l, &fd) {
                    run_at = Some(i);
                    break;
                }
                if l.contains("read ") && l.contains(&format!("<&{fd}")) {
                    read_at = Some(i);
                }
                if read_at.is_some_and(|r| i >= r && i <= r + 3) && runs_into(l, &fd) {
                    run_at = Some(i);
                    break;
                }
            }
            let Some(run) = run_at else { continue };
            let run_line = run + 1;
            let evidence = file.lowered().lines[run].trim().to_owned();
            let why = format!(
                "A two-way network socket is opened at {} and the commands read from it are run at {}:{} with their output sent back: a reverse shell written over several lines. Someone at the other end gets a command line on this machine. Never run it.",
                open.place(),
                file.path,
                run_line
            );
            out.push(finding(
                "network.reverse-shell-dev-tcp",
                "network",
                Severity::Critical,
                open,
                why,
                vec![Related {
                    role: "execute".into(),
                    file: file.path.into(),
                    line: run_line,
                    evidence,
                }],
            ));
            break;
        }
    }
}

/// System folders (and the root) no skill deletes.
const SYSTEM_ROOTS: &[&str] = &[
    "/",
    "/etc",
    "/usr",
    "/var",
    "/bin",
    "/sbin",
    "/boot",
    "/lib",
    "/lib64",
    "/opt",
    "/root",
    "/home",
    "/system",
    "/library",
    "/users",
    "/applications",
    "c:\\windows",
    "c:\\",
];

/// The system folder a line lists as a quoted literal (`"/etc"`, `'/usr/'`) or, in a shell
/// `for … in` list, as a bare word.
fn listed_system_root(line: &str) -> Option<&'static str> {
    let shell_list = line.trim_start().starts_with("for ") && line.contains(" in ");
    let mut tokens: Vec<String> = Vec::new();
    for (n, part) in line.split(['"', '\'']).enumerate() {
        if n % 2 == 1 {
            tokens.push(part.to_owned());
        } else if shell_list {
            tokens.extend(
                part.split(|c: char| c.is_whitespace() || c == ';')
                    .map(str::to_owned),
            );
        }
    }
    tokens.iter().find_map(|t| {
        let t = t.trim();
        let t = if t.len() > 1 {
            t.trim_end_matches(['/', '\\'])
        } else {
            t
        };
        if t.is_empty() {
            return None;
        }
        SYSTEM_ROOTS
            .iter()
            .find(|r| r.eq_ignore_ascii_case(t))
            .copied()
    })
}

/// Whether a (lowered) line is a loop header binding `var` (`for _, p := range …`, `for p in …`,
/// `.each do |d|` / `{ |d|`, `foreach ($p in …)`, `for (const p of …)`, `.forEach(p =>`).
fn binds_loop_var(line: &str, var: &str) -> bool {
    let has_word = |w: &str| {
        line.match_indices(w).any(|(i, _)| {
            let before = line[..i].chars().next_back();
            let after = line[i + w.len()..].chars().next();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    };
    let loops = line.contains("for ")
        || line.contains("foreach")
        || line.contains(".each")
        || line.contains("foreach(")
        || line.contains(".foreach(");
    loops && has_word(var)
}

pub(super) fn system_path_loop(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        let lower = &file.lowered().lower;
        for del in b.in_file(file, FactKind::RemoveTree) {
            if del.fact.prose {
                continue;
            }
            let Some(cap) = del.fact.capture.as_deref() else {
                continue;
            };
            let var = crate::ascii_lowered(cap.trim_matches(['"', '\'', '$', '{', '}', ' ']));
            if var.is_empty() || !var.chars().all(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let idx = del.fact.line as usize - 1;
            let from = idx.saturating_sub(LOOP_LOOKBACK);
            let found = (from..=idx.min(lower.len().saturating_sub(1)))
                .rev()
                .find_map(|i| {
                    let l = &lower[i];
                    (binds_loop_var(l, &var))
                        .then(|| listed_system_root(l).map(|r| (i, r)))
                        .flatten()
                });
            let Some((i, root)) = found else { continue };
            let why = format!(
                "A recursive delete at {} removes `{var}`, a loop variable running over a list that names the system folder `{root}` (line {}): this wipes part of the operating system. Never run it.",
                del.place(),
                i + 1
            );
            push_once(
                out,
                finding(
                    "destructive.system-path-loop",
                    "destructive",
                    Severity::Critical,
                    del,
                    why,
                    vec![Related {
                        role: "source".into(),
                        file: file.path.into(),
                        line: i + 1,
                        evidence: file.lowered().lines[i].trim().to_owned(),
                    }],
                ),
            );
        }
    }
}

fn push_once(out: &mut Vec<Finding>, f: Finding) {
    if !out
        .iter()
        .any(|o| o.rule_id == f.rule_id && o.file == f.file && o.line == f.line)
    {
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptors_and_lists() {
        assert_eq!(
            opened_fd("exec 5<>/dev/tcp/h.example/80").as_deref(),
            Some("5")
        );
        assert_eq!(
            opened_fd("exec 3<> /dev/udp/h.example/53").as_deref(),
            Some("3")
        );
        assert_eq!(opened_fd("exec 3<>out.log"), None);
        assert!(runs_into("  eval \"$line\" >&5 2>&5", "5"));
        assert!(!runs_into("  echo \"$line\" >&5", "5"));
        assert!(shell_reads("bash -i <&7 >&7 2>&7", "7"));
        assert_eq!(
            listed_system_root("for _, p := range []string{\"/etc\", \"/var/log\"} {"),
            Some("/etc")
        );
        assert_eq!(listed_system_root("for d in /usr /tmp/x; do"), Some("/usr"));
        assert_eq!(listed_system_root("for d in build dist; do"), None);
        assert_eq!(
            listed_system_root("for p in [\"./build\", \"./dist\"]:"),
            None
        );
        assert!(binds_loop_var("%w[/etc /usr].each do |d|", "d"));
        assert!(!binds_loop_var("for dp in paths:", "p"));
    }
}
