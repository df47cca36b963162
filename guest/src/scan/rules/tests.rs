//! The rule set's own checks: required fragments, ASCII twins, captures, word boundaries.

use super::compile::{ascii_word_boundaries, build_regex, has_named_group};
use super::{RuleSet, line_regex};

/// The required fragments never hide a match: on every example line of every rule (must-match
/// and must-not-match, so lines near each rule's shape), any rule whose regex matches has each
/// of its groups present.
#[test]
fn required_fragments_hold_wherever_a_regex_matches() {
    let set = RuleSet::builtin();
    let fragment_text: Vec<(u16, &str)> = set
        .fragment
        .iter()
        .zip(&set.patterns)
        .filter_map(|(f, p)| f.map(|f| (f, p.as_str())))
        .collect();
    let text_of = |f: u16| fragment_text.iter().find(|(g, _)| *g == f).map(|(_, t)| *t);
    let lines: Vec<&String> = set
        .rules
        .iter()
        .flat_map(|r| r.examples_match.iter().chain(&r.no_match))
        .collect();
    let mut checked = 0;
    for (i, _) in set.rules.iter().enumerate() {
        for line in &lines {
            if !set.regex_for(i, line).is_match(line.as_bytes()) {
                continue;
            }
            let lower = line.to_ascii_lowercase();
            for group in &set.required[i] {
                checked += 1;
                assert!(
                    group
                        .iter()
                        .any(|&f| lower.contains(text_of(f).expect("numbered fragment"))),
                    "rule {} matches {line:?} without any of {:?}",
                    set.rules[i].id,
                    group.iter().map(|&f| text_of(f)).collect::<Vec<_>>()
                );
            }
        }
    }
    assert!(checked > 100, "only {checked} groups checked");
    // Every group of the bundled rules got its number (past the limit a group would silently
    // stop filtering).
    let numbered = set.fragment.iter().flatten().count();
    assert!(numbered < super::MAX_FRAGMENTS, "{numbered} fragments");
}

/// A Unicode rule's ASCII twin finds what the rule's regex finds, at the same span, on every
/// plain-ASCII example line of every rule.
#[test]
fn ascii_twins_agree_with_their_rules_on_ascii_lines() {
    let set = RuleSet::builtin();
    let lines: Vec<&String> = set
        .rules
        .iter()
        .flat_map(|r| r.examples_match.iter().chain(&r.no_match))
        .filter(|l| l.is_ascii())
        .collect();
    let (mut twins, mut matches) = (0, 0);
    for (i, rule) in set.rules.iter().enumerate() {
        let twin = set.ascii_regex(i);
        if std::ptr::eq(twin, set.regex(i)) {
            continue;
        }
        twins += 1;
        for line in &lines {
            let found = set.regex(i).find(line.as_bytes());
            matches += usize::from(found.is_some());
            assert_eq!(
                twin.find(line.as_bytes()),
                found,
                "rule {} on {line:?}",
                rule.id
            );
        }
    }
    // Every rule with Unicode semantics has a twin, and the lines exercise them.
    assert!(twins >= 10, "{twins} twins");
    assert!(matches >= 50, "{matches} matches");
}

/// A rule's regex keeps its groups only when one is named (a fact's capture); every other
/// regex tracks the whole match alone, and finds the same matches either way.
#[test]
fn only_named_groups_keep_their_captures() {
    use super::compile::{hir_regex_with_groups, line_hir};
    let pid = regex_automata::PatternID::ZERO;
    let named = line_hir(r"(?i)\brm\s+-rf\s+(?P<target>\S+)").unwrap();
    let plain = line_hir(r"(?i)\b(rm|del)\s+(-rf|/s)\s+(\S+)").unwrap();
    assert!(has_named_group(&named));
    assert!(!has_named_group(&plain));
    let with = hir_regex_with_groups(&named).unwrap();
    assert_eq!(with.group_info().group_len(pid), 2);
    assert_eq!(with.group_info().to_name(pid, 1), Some("target"));
    let without = hir_regex_with_groups(&plain).unwrap();
    assert_eq!(without.group_info().group_len(pid), 1);
    let all = build_regex(&plain, regex_automata::nfa::thompson::WhichCaptures::All).unwrap();
    assert_eq!(all.group_info().group_len(pid), 4);
    for line in [
        "sudo RM -rf /tmp/x",
        "del /s C:\\x",
        "rm -r x",
        "form -rf y",
    ] {
        assert_eq!(without.find(line), all.find(line), "{line}");
    }
    assert!(without.find("sudo rm -rf /x").is_some());
}

#[test]
fn word_boundaries_become_ascii_ones_and_escapes_stay() {
    assert_eq!(ascii_word_boundaries(r"\bcurl\b"), r"(?-u:\b)curl(?-u:\b)");
    assert_eq!(ascii_word_boundaries(r"a\Bb"), r"a(?-u:\B)b");
    // An escaped backslash before a `b` is a backslash and a letter, not a boundary.
    assert_eq!(ascii_word_boundaries(r"\\b\d"), r"\\b\d");
    let r = line_regex(r"(?i)\bcurl\b").unwrap();
    // Next to ASCII words both kinds agree; beside Chinese or curly quotes the ASCII one still
    // sees the English word (and the line keeps the fast automaton).
    assert!(!r.is_match("curly"));
    assert!(r.is_match("run “curl” now"));
    assert!(r.is_match("请运行curl命令"));
}

/// A rule's fast regex matches wherever its exact one does ([`RuleSet::find_on`] skips the exact
/// regex where the fast one finds nothing): on every example line of every rule, as written and
/// with its spaces turned into non-ASCII ones (no-break, ideographic) one at a time and all at once.
#[test]
fn fast_regexes_match_wherever_the_exact_ones_do() {
    let set = RuleSet::builtin();
    let mut lines: Vec<String> = Vec::new();
    for line in set
        .rules
        .iter()
        .flat_map(|r| r.examples_match.iter().chain(&r.no_match))
    {
        lines.push(line.clone());
        for space in ['\u{a0}', '\u{3000}'] {
            lines.push(line.replace(' ', &space.to_string()));
            for (at, _) in line.match_indices(' ') {
                lines.push(format!("{}{space}{}", &line[..at], &line[at + 1..]));
            }
        }
    }
    let (mut rules, mut exact_matches) = (0, 0);
    for i in 0..set.rules.len() {
        let (fast, differs) = set.compiled(i);
        if !differs {
            continue;
        }
        rules += 1;
        let exact = set.exact_regex(i);
        for line in lines.iter().filter(|l| super::has_unicode_space(l)) {
            if exact.is_match(line.as_bytes()) {
                exact_matches += 1;
                assert!(
                    fast.is_match(line.as_bytes()),
                    "rule {}: exact regex matches {line:?}, fast one does not",
                    set.rules[i].id
                );
            }
        }
    }
    assert!(rules >= 5, "{rules} rules with an exact regex");
    assert!(exact_matches >= 50, "{exact_matches} exact matches checked");
}

/// On a line with non-ASCII white space the exact regex has the last word: a match only the fast
/// regex sees (its `\S` takes a no-break space) is no hit, one both see is.
#[test]
fn the_exact_regex_decides_on_spaced_lines() {
    let set = RuleSet::from_json(
        r#"{"rules":[{"id":"t.secret","category":"c","severity":"low","title":"t","description":"d","keywords":["key"],"pattern":"密钥\\S{0,3}key"}]}"#,
    )
    .unwrap();
    assert!(
        set.compiled(0).1,
        "the rule's fast regex differs from its exact one"
    );
    let hits = |line: &str| {
        let mut c = super::Candidates::new();
        for k in set.keywords_in(line) {
            set.add_candidates(line, k, &mut c);
        }
        set.confirm(line, false, &c)
            .iter()
            .map(|h| (h.start, h.end))
            .collect::<Vec<_>>()
    };
    // Must match: no space in the gap, a non-ASCII space elsewhere on the line, and after a
    // spot that only the fast regex takes, the exact regex's own match further on.
    assert_eq!(hits("x 密钥abkey"), vec![(2, 13)]);
    assert_eq!(hits("x\u{a0}密钥abkey"), vec![(3, 14)]);
    assert_eq!(hits("密钥\u{3000}\u{3000}key 密钥akey"), vec![(16, 26)]);
    // Must not match: the gap holds an ASCII, no-break or ideographic space (the fast `\S` takes
    // the last two).
    assert_eq!(hits("密钥ab key"), vec![]);
    assert_eq!(hits("密钥\u{a0}key"), vec![]);
    assert_eq!(hits("密钥a\u{3000}key"), vec![]);
}
