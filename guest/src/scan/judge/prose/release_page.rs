//! A program taken from the releases page of an account unrelated to the skill (round 29p):
//! "download the helper from the releases page of github.com/<someone>/<repo> and run it once".
//!
//! A release on a code host is only as trusted as the account that uploaded it. The skill's own
//! repository (named in SKILL.md's front matter, or an account or repository named after the skill)
//! and the project of a tool the skill talks about (the repository's name used as a word on another
//! line of the bundle's documents or in the description: ripgrep's releases for a skill that uses
//! ripgrep) are the vendor's own channel. Any other account's releases page, in a sentence that
//! also tells the user to run, install, open or execute what it gives, is an install lure
//! (`supply_chain.install-lure`, `critical`). One pass over the lines of the documents that name a
//! code host.

use super::super::{Bundle, File};
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::rules::Severity;

pub(super) const CODE_HOSTS: &[&str] = &["github.com/", "gitlab.com/", "codeberg.org/"];

/// Words that make a link a releases page (in its path or in the sentence around it).
const RELEASE_WORDS: &[&str] = &[
    "/releases",
    "releases page",
    "release page",
    "releases tab",
    "releases of",
    "latest release",
    "发布页",
    "发行页",
    "releases 页",
];

/// Orders that make whatever the page gives run on the user's machine (a command shown in inline
/// code after "run", `run \`gh --version\``, names what runs and is not one).
const RUN_WORDS: &[&str] = &[
    "run it",
    "run them",
    "run the installer",
    "run the setup",
    "run the file",
    "run the binary",
    "run the program",
    "run the helper",
    "run the downloaded",
    "install it",
    "install them",
    "execute it",
    "double-click",
    "launch it",
    "open it",
    "运行",
    "安装",
    "双击",
    "执行",
];

/// `(owner, repo)` of each code-host link on a line (with or without a scheme), lower-cased.
fn code_host_repos(line: &str) -> Vec<(String, String)> {
    let l = crate::ascii_lowered(line);
    let mut out = Vec::new();
    for host in CODE_HOSTS {
        for (i, _) in l.match_indices(host) {
            // `api.github.com/…` or `docs.github.com/…` is not an account's repository.
            if i > 0 && l.as_bytes()[i - 1] == b'.' {
                continue;
            }
            let rest = &l[i + host.len()..];
            let mut parts = rest.split('/').map(|p| {
                p.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
                    .next()
                    .unwrap_or("")
                    .trim_end_matches('.')
            });
            let (Some(owner), Some(repo)) = (parts.next(), parts.next()) else {
                continue;
            };
            if !owner.is_empty() && !repo.is_empty() {
                out.push((owner.to_owned(), repo.to_owned()));
            }
        }
    }
    out
}

/// SKILL.md's front matter (between the first two `---` lines), lower-cased.
pub(super) fn front_matter(b: &Bundle<'_>) -> String {
    let Some(md) = b.skill_md() else {
        return String::new();
    };
    let mut lines = md.content.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return String::new();
    }
    let block: Vec<&str> = lines.take_while(|l| l.trim_end() != "---").collect();
    crate::ascii_lowered(&block.join("\n")).into_owned()
}

/// Whether `word` occurs as a whole word in `text` (both lower-case).
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        let edge = |c: Option<char>| {
            !c.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_' || c == '/')
        };
        edge(before) && edge(after)
    })
}

/// Whether `owner/repo` is the skill's own or the project of a tool the skill talks about.
/// `sentence` is the link's file and the lines its sentence spans, which do not count as elsewhere.
fn related(
    b: &Bundle<'_>,
    front: &str,
    words: &[String],
    (owner, repo): (&str, &str),
    sentence: (&str, std::ops::RangeInclusive<usize>),
) -> bool {
    let squash = |s: &str| {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
    };
    if front.contains(&format!("{owner}/{repo}")) {
        return true;
    }
    // Named after the skill: the account is the name, alone or with an organisation suffix
    // (`acme-io`), or the repository is the name.
    const ORG: [&str; 8] = ["", "io", "dev", "hq", "labs", "app", "org", "team"];
    let (o, r) = (squash(owner), squash(repo));
    if words.iter().any(|w| {
        r == *w
            || o.strip_prefix(w.as_str())
                .is_some_and(|rest| ORG.contains(&rest))
    }) {
        return true;
    }
    // The repository's name used as a word elsewhere: the tool the skill is about.
    if repo.len() < 3 {
        return false;
    }
    b.files
        .iter()
        .filter(|f| f.kind != FileKind::Code)
        .any(|f| {
            f.content.lines().enumerate().any(|(n, l)| {
                !(f.path == sentence.0 && sentence.1.contains(&n)) && {
                    let l = crate::ascii_lowered(l);
                    has_word(&l.replace(&format!("/{repo}"), " "), repo)
                }
            })
        })
        || front
            .lines()
            .any(|l| l.starts_with("description:") && has_word(l, repo))
}

pub(super) fn unrelated_release_page(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let gate = super::gate(&GATE, CODE_HOSTS);
    let mut front: Option<String> = None;
    let words = b.name_words();
    for (file, lines, prose) in super::gated_prose(b, gate) {
        // SKILL.md's front matter states where the skill lives (`homepage:`), it orders nothing.
        let skip = if file.path.eq_ignore_ascii_case("SKILL.md")
            && lines.first().map(|l| l.trim_end()) == Some("---")
        {
            1 + lines
                .iter()
                .skip(1)
                .position(|l| l.trim_end() == "---")
                .unwrap_or(0)
        } else {
            0
        };
        for (n, line) in lines.iter().enumerate() {
            if !prose[n] || n < skip || !gate.is_match(line) {
                continue;
            }
            // The sentence may wrap: the link's line with the one before and the one after.
            let span = |k: usize| {
                lines
                    .get(k)
                    .filter(|_| prose.get(k) == Some(&true))
                    .copied()
                    .unwrap_or("")
            };
            let around = format!(
                "{} {} {}",
                if n > 0 { span(n - 1) } else { "" },
                line,
                span(n + 1)
            );
            let l = crate::ascii_lowered(&around);
            if !RELEASE_WORDS.iter().any(|w| l.contains(w))
                || !RUN_WORDS.iter().any(|w| l.contains(w))
            {
                continue;
            }
            let front = front.get_or_insert_with(|| front_matter(b));
            let Some((owner, repo)) = code_host_repos(line).into_iter().find(|(o, r)| {
                !related(
                    b,
                    front,
                    &words,
                    (o, r),
                    (file.path, n.saturating_sub(1)..=n + 1),
                )
            }) else {
                continue;
            };
            out.push(lure_finding(file, n, line, &owner, &repo));
            break;
        }
    }
}

fn lure_finding(file: &File<'_>, n: usize, line: &str, owner: &str, repo: &str) -> Finding {
    Finding {
        rule_id: "supply_chain.install-lure".into(),
        category: "supply_chain".into(),
        severity: Severity::Critical,
        file: file.path.into(),
        line: n + 1,
        evidence: evidence(line, 0, line.len()),
        description: format!(
            "Install instructions send the user to the releases page of {owner}/{repo}, an account that is neither the skill's own repository nor the project of a tool the skill names, and tell them to run or install what it gives: a release is only as trusted as the account that uploaded it. Do not follow these steps."
        ),
        related: Vec::new(),
    }
}
