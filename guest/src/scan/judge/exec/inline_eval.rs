//! Fetched code evaluated inside an interpreter one-liner (round 30c).
//!
//! `node -e "fetch(URL).then(r => r.text()).then(eval)"`, `python3 -c "exec(urlopen(URL).read())"`:
//! the command line itself fetches a body and evaluates it as code (`eval`, `new Function`,
//! `exec`). Installers that vendors publish are scripts a shell runs (`curl … | sh`, graded by
//! their host in `remote_code`); a one-liner that evaluates whatever an address serves, with no
//! file to read or check and no installer around it, is a loader. A download-to-eval flow whose
//! source and eval sit on one such line is raised from `high` (an unknown https host) to
//! `critical`; a vendor's, installer's or registry's host was graded lower before this is asked.

use crate::scan::facts::FactKind;
use crate::scan::judge::At;

/// Why a download-to-eval flow is stealthy when its fetch and its eval sit on one interpreter
/// one-liner (`node -e "…eval"`).
pub(super) fn one_liner(src: &At<'_>, sink: &At<'_>) -> Option<&'static str> {
    if src.fact.line != sink.fact.line {
        return None;
    }
    if sink.fact.kind == FactKind::EvalValue && inline_eval(&sink.text()) {
        return Some(
            "evaluated inside an interpreter one-liner (no file to read or check, unlike an installer script)",
        );
    }
    // Round 34t: fetched and evaluated on one line of a here-document fed to an interpreter
    // (`python3 - <<'EOF'` … `exec(urlopen(u).read())` … `EOF`): the same, written over lines.
    (matches!(sink.fact.kind, FactKind::EvalValue | FactKind::PipeExec)
        && !sink.fact.prose
        && in_interpreter_heredoc(&sink.file.lowered().lower, sink.fact.line as usize))
    .then_some(
        "fetched and evaluated inside a here-document fed to an interpreter (no file to read or check, unlike an installer script)",
    )
}

/// Why a flow from fetched text to an evaluation on a later line is stealthy: the code is held in
/// a variable and evaluated in memory (`$c = …DownloadString(u)` … `Invoke-Expression $c`,
/// `src = urlopen(u).read()` … `exec(src)`), never saved where anyone could read it — the piped
/// form (`iwr u | iex`) written over two statements (round 34t).
pub(super) fn in_memory(src: &At<'_>, sink: &At<'_>) -> Option<&'static str> {
    (src.fact.kind == FactKind::FetchToValue
        && sink.fact.kind == FactKind::EvalValue
        && src.fact.line != sink.fact.line
        && !src.fact.prose
        && !sink.fact.prose)
        .then_some(
            "held in a variable and evaluated in memory (never saved where it could be read)",
        )
}

/// Lines back from a here-document's body line to look for its opener.
const HEREDOC_LOOKBACK: usize = 40;

/// Whether 1-based `line` of a file (its trimmed, lowered lines) sits in the body of a
/// here-document fed to an interpreter's standard input (`python3 - <<'PY'`, `node <<EOF`,
/// `ruby <<-RB`), the terminator not yet reached. Bounded look-back: linear in the lines read.
pub(super) fn in_interpreter_heredoc(lower: &[String], line: usize) -> bool {
    let idx = line.saturating_sub(1);
    let from = idx.saturating_sub(HEREDOC_LOOKBACK);
    for i in (from..idx.min(lower.len())).rev() {
        let l = lower[i].trim_start_matches("$ ");
        let Some(p) = l.find("<<") else { continue };
        let head: Vec<&str> = l[..p].split_whitespace().collect();
        let interp = head.first().is_some_and(|w| {
            let w = w.rsplit('/').next().unwrap_or(w);
            w.starts_with("python")
                || matches!(
                    w,
                    "node" | "nodejs" | "ruby" | "perl" | "php" | "deno" | "bun"
                )
        }) && head[1..].iter().all(|a| a.starts_with('-'));
        let word: String = l[p + 2..]
            .trim_start_matches('-')
            .trim_start()
            .trim_start_matches(['\'', '"'])
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .map(char::from)
            .collect();
        if word.is_empty() {
            return false;
        }
        return interp && !lower[i + 1..idx].contains(&word);
    }
    false
}

/// Interpreter switches that run the next argument as a program.
const ONE_LINERS: &[&str] = &[
    "node -e ",
    "node --eval ",
    "node -p ",
    "nodejs -e ",
    "deno eval ",
    "bun -e ",
    "python -c ",
    "python3 -c ",
    "py -c ",
    "ruby -e ",
    "perl -e ",
];

/// Whether `line` runs an interpreter one-liner whose program text (after the switch) both
/// fetches and evaluates.
fn inline_eval(line: &str) -> bool {
    let l = crate::ascii_lowered(line);
    ONE_LINERS.iter().any(|sw| {
        l.match_indices(sw).any(|(i, _)| {
            let before_ok = i == 0 || !l.as_bytes()[i - 1].is_ascii_alphanumeric();
            let prog = &l[i + sw.len()..];
            let fetches = [
                "fetch(", ".get(", "urlopen(", "request(", "uri.open", "http.get",
            ]
            .iter()
            .any(|w| prog.contains(w));
            let evals = ["eval", "new function", "function(", "exec(", "vm.run"]
                .iter()
                .any(|w| prog.contains(w));
            before_ok && fetches && evals
        })
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn interpreter_heredoc_bodies() {
        let l: Vec<String> = ["x", "python3 - <<'py'", "import os", "exec(y)", "py", "z"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(super::in_interpreter_heredoc(&l, 4));
        assert!(!super::in_interpreter_heredoc(&l, 6));
        let c: Vec<String> = ["cat > f.py <<'py'", "exec(y)"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(!super::in_interpreter_heredoc(&c, 2));
    }
}
