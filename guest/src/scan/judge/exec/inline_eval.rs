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
    (sink.fact.kind == FactKind::EvalValue
        && src.fact.line == sink.fact.line
        && inline_eval(&sink.text()))
    .then_some(
        "evaluated inside an interpreter one-liner (no file to read or check, unlike an installer script)",
    )
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
