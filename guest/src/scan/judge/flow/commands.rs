//! A line of several commands (`site="$DD_SITE"; envf=".env"; jar="${TMPDIR:-/tmp}/signup.jar"`,
//! `key=$(cat ~/.env) && n=3`): each name it assigns takes only what its own command reads, and
//! what the line's earlier commands gave the names that command reads. Read as one statement, a
//! cookie jar's path set beside a `.env` file's name was taken as holding the `.env`, and every
//! request using the jar as sending it (round 46b's Datadog signup page).

use std::collections::BTreeMap;

use super::code;
use crate::scan::facts::Fact;

/// For a one-line statement of several commands, the origins each assigned name takes (only ones
/// in `carried`, the statement's origins); `None` for a single command, where every name the
/// statement assigns takes all of `carried`.
///
/// `line` is the statement's text and `start` its byte offset in the file; `facts` the file's facts
/// (a source counts for the command its match sits in); `tainted` the names followed so far; and
/// `named_files(command)` the origins of files written earlier that the command names.
pub(super) fn origins_by_name(
    line: &str,
    start: usize,
    facts: &[Fact],
    carried: &[usize],
    tainted: &BTreeMap<String, Vec<usize>>,
    named_files: &dyn Fn(&str) -> Vec<usize>,
) -> Option<BTreeMap<String, Vec<usize>>> {
    let mut starts = top_level_starts(line);
    if starts.len() < 2 {
        return None;
    }
    starts.push(line.len());
    // Names the line's earlier commands set (clean ones too: a name set anew no longer carries).
    let mut set_here: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut out: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for w in starts.windows(2) {
        let (from, to) = (w[0], w[1]);
        let Some(command) = line.get(from..to) else {
            continue;
        };
        let mut got: Vec<usize> = carried
            .iter()
            .copied()
            .filter(|&o| {
                facts.get(o).is_some_and(|f| {
                    (start + from..start + to).contains(&((f.start + f.at) as usize))
                })
            })
            .collect();
        let written = code::overwritten(command);
        for r in code::refs(command) {
            if Some(r) == written {
                continue;
            }
            let from_line = set_here.get(r);
            let known = from_line.or_else(|| tainted.get(r));
            got.extend(known.into_iter().flatten().filter(|o| carried.contains(o)));
        }
        got.extend(
            named_files(command)
                .into_iter()
                .filter(|o| carried.contains(o)),
        );
        got.sort_unstable();
        got.dedup();
        for name in code::assigned(command) {
            let list = out.entry(name.to_owned()).or_default();
            list.extend(&got);
            list.sort_unstable();
            list.dedup();
            set_here.insert(name, got.clone());
        }
    }
    Some(out)
}

/// Where the commands of a line start: after `;`, `&&`, `||` outside quotes and brackets (a
/// PowerShell hash literal's `@{ a = 1; b = $x }` and a shell `$(cd d; cat f)` are one command).
fn top_level_starts(line: &str) -> Vec<usize> {
    let b = line.as_bytes();
    let mut starts = vec![0usize];
    let mut depth = 0i32;
    for (i, c) in code::unquoted(line) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b';' if depth == 0 => starts.push(i + 1),
            b'&' | b'|' if depth == 0 && b.get(i + 1) == Some(&c) => starts.push(i + 2),
            _ => {}
        }
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(start: u32, at: u32) -> Fact {
        Fact {
            kind: crate::scan::facts::FactKind::SecretFile,
            rule: 0,
            line: 1,
            start,
            end: start + 40,
            at,
            to: at + 4,
            prose: false,
            section: 0,
            capture: None,
        }
    }

    #[test]
    fn each_command_takes_only_what_it_reads() {
        let line = r#"site="$DD_SITE"; envf=".env"; jar="${TMPDIR:-/tmp}/signup.jar""#;
        let at = line.find(".env").unwrap() as u32;
        let facts = [fact(100, at)];
        let none = |_: &str| Vec::new();
        let m = origins_by_name(line, 100, &facts, &[0], &BTreeMap::new(), &none).unwrap();
        assert_eq!(m["envf"], vec![0]);
        assert!(m["site"].is_empty() && m["jar"].is_empty(), "{m:?}");
    }

    #[test]
    fn a_later_command_reading_an_earlier_one_carries_it() {
        let line = r#"k=$(cat ~/.env); b=$(printf %s "$k" | base64); n=3"#;
        let facts = [fact(0, 7)];
        let none = |_: &str| Vec::new();
        let m = origins_by_name(line, 0, &facts, &[0], &BTreeMap::new(), &none).unwrap();
        assert_eq!(
            (m["k"].len(), m["b"].len(), m["n"].len()),
            (1, 1, 0),
            "{m:?}"
        );
    }

    #[test]
    fn a_name_set_anew_stops_carrying_and_a_followed_one_is_read() {
        let mut tainted = BTreeMap::new();
        tainted.insert("jar".to_owned(), vec![0]);
        tainted.insert("pw".to_owned(), vec![1]);
        let line = r#"jar="/tmp/x.jar"; body="p=$pw"; copy="$jar""#;
        let none = |_: &str| Vec::new();
        let m = origins_by_name(line, 0, &[], &[0, 1], &tainted, &none).unwrap();
        assert!(m["jar"].is_empty() && m["copy"].is_empty(), "{m:?}");
        assert_eq!(m["body"], vec![1]);
    }

    #[test]
    fn a_hash_literal_and_a_substitution_are_one_command() {
        let mut tainted = BTreeMap::new();
        tainted.insert("envDump".to_owned(), vec![0]);
        let none = |_: &str| Vec::new();
        let line = r#"$body = @{ host = $env:COMPUTERNAME; ctx = $envDump } | ConvertTo-Json"#;
        let got = origins_by_name(line, 0, &[], &[0], &tainted, &none);
        assert!(got.is_none(), "{got:?}");
        let line = r#"x=$(cd /tmp; cat "$envDump"); n=1"#;
        let m = origins_by_name(line, 0, &[], &[0], &tainted, &none).unwrap();
        assert_eq!((m["x"].len(), m["n"].len()), (1, 0), "{m:?}");
    }

    #[test]
    fn a_slice_of_a_followed_name_carries_it() {
        let mut tainted = BTreeMap::new();
        tainted.insert("data".to_owned(), vec![0]);
        let none = |_: &str| Vec::new();
        let line = "  chunk=${data:0:60}; data=${data:60}";
        let m = origins_by_name(line, 0, &[], &[0], &tainted, &none).unwrap();
        assert_eq!((m["chunk"].len(), m["data"].len()), (1, 1), "{m:?}");
    }

    #[test]
    fn one_command_is_left_to_the_statement() {
        let none = |_: &str| Vec::new();
        let got = origins_by_name("a=$(cat .env) b=1", 0, &[], &[0], &BTreeMap::new(), &none);
        assert!(got.is_none());
    }
}
