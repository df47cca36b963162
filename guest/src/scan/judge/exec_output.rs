//! Code run from a variable whose result is sent to an outside host (round 34m,
//! `exfiltration.exec-output-sent`).
//!
//! A script that runs code it is handed (`result = exec(code)`, also through an alias
//! `_x = exec`) and, within a few lines, posts that result to a host that is neither local nor a
//! vendor's nor named after the skill, reports what ran on the user's machine to a third party.
//! Two typed facts of one file are judged together: the dynamic run (its result's name) and the
//! send that carries that name. `high`: a reviewer must see where the output goes.
//!
//! Not this: a literal evaluated (`eval("1+1")`), a result printed or returned, a result sent to the
//! vendor the skill works with or to its own service. One pass over each code file's lines, and
//! for each run a window of [`WINDOW`] lines: linear in bytes.

use super::{Bundle, host_named_after, hosts_in};
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::rules::Severity;

const WINDOW: usize = 10;
const SENDS: &[&str] = &[
    "requests.post(",
    "requests.put(",
    "httpx.post(",
    "urlopen(",
    "fetch(",
    "axios.post(",
];

/// The names a file runs code through: `exec`, `eval` and their aliases (`_x = exec`).
fn runners(lower: &[String]) -> Vec<String> {
    let mut out = vec!["exec".to_string(), "eval".to_string()];
    for l in lower {
        if let Some((lhs, rhs)) = l.split_once('=') {
            let (lhs, rhs) = (lhs.trim(), rhs.trim());
            if matches!(rhs, "exec" | "eval")
                && !lhs.is_empty()
                && lhs.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                out.push(lhs.to_string());
            }
        }
    }
    out
}

/// `name = runner(arg)` with a non-literal `arg`: the result's name.
fn run_result(l: &str, runners: &[String]) -> Option<String> {
    let (lhs, rhs) = l.split_once('=')?;
    let lhs = lhs.trim();
    if lhs.is_empty() || !lhs.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let rhs = rhs.trim();
    let call = runners
        .iter()
        .find_map(|r| rhs.strip_prefix(r.as_str())?.strip_prefix('('))?;
    let arg = call.trim_start();
    if arg.starts_with(['"', '\'']) || arg.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some(lhs.to_string())
}

pub(super) fn exec_output_sent(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = b.name_words();
    for file in b.files.iter().filter(|f| f.kind == FileKind::Code) {
        let all = file.lower_all();
        if !(all.contains("exec") || all.contains("eval")) || !SENDS.iter().any(|s| all.contains(s))
        {
            continue;
        }
        let lw = file.lowered();
        let names = runners(&lw.lower);
        let hit = lw.lower.iter().enumerate().find_map(|(i, l)| {
            let r = run_result(l, &names)?;
            (i + 1..lw.lower.len().min(i + 1 + WINDOW)).find_map(|j| {
                let o = &lw.lower[j];
                if !SENDS.iter().any(|s| o.contains(s))
                    || !o
                        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .any(|w| w == r)
                {
                    return None;
                }
                let h = hosts_in(lw.lines[j])
                    .into_iter()
                    .find(|h| h.class.is_outside() && !host_named_after(&h.host, &words))?;
                Some((i, j, h))
            })
        });
        let Some((i, j, h)) = hit else {
            continue;
        };
        out.push(Finding {
            rule_id: "exfiltration.exec-output-sent".into(),
            category: "exfiltration".into(),
            severity: Severity::High,
            file: file.path.into(),
            line: j + 1,
            evidence: evidence(lw.lines[j], 0, lw.lines[j].len()),
            description: format!(
                "{}:{} runs code it is handed, and {}:{} sends the result to {} ({}): what ran on your machine is reported to a third party. Check why before using this skill.",
                file.path,
                i + 1,
                file.path,
                j + 1,
                h.host,
                h.class.phrase()
            ),
            related: vec![Related {
                role: "source".into(),
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(lw.lines[i], 0, lw.lines[i].len()),
            }],
        });
    }
}
