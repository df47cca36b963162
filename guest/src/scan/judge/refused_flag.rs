//! A permission-bypass flag named as the thing not to use (round 45b, sets45b).
//!
//! A guide that warns "do not use `--dangerously-skip-permissions` on your machine" names the flag
//! as the object of a refused use: it launches nothing. The content rules already read English
//! prose that way; a page of a documentation site written as code (JSX, a docstring) or a warning
//! in another language reached the launch judge as a launch. A bypass fact is refused when the
//! clause it sits in (from the last sentence break before it) holds a negated use verb right before
//! the flag — "don't use", "never run", "не ползвай", "не используйте", "no uses", "n'utilisez pas",
//! "不要使用" — or, for languages that put the verb last, a negated use verb right after it in the
//! same clause ("… nicht verwenden", "…は使わないで"). A clause that asks to run *without* the
//! checks ("never run it without `--yolo`") or only negates something else ("don't ask, just run
//! `claude --dangerously-skip-permissions`") is not refused.

/// Negated use verbs that come before their object (lower-cased).
const BEFORE: &[&str] = &[
    "don't use",
    "do not use",
    "dont use",
    "never use",
    "never run",
    "don't run",
    "do not run",
    "never launch",
    "do not launch",
    "don't launch",
    "never pass",
    "do not pass",
    "don't pass",
    "avoid using",
    "avoid running",
    // Bulgarian, Russian, Ukrainian.
    "не ползвай",
    "не използвай",
    "не пускай",
    "не стартирай",
    "не используй",
    "не запускай",
    "не применяй",
    "не використовуй",
    // Spanish, Portuguese, Italian, French.
    "no uses",
    "no utilices",
    "nunca uses",
    "no ejecutes",
    "não use",
    "não utilize",
    "nunca use",
    "non usare",
    "non utilizzare",
    "n'utilisez pas",
    "n'utilise pas",
    "ne lancez pas",
    // Chinese.
    "不要使用",
    "不要用",
    "切勿使用",
    "禁止使用",
    "请勿使用",
];

/// Negated use verbs that come after their object (lower-cased).
const AFTER: &[&str] = &[
    "nicht verwenden",
    "nicht benutzen",
    "nie verwenden",
    "niemals verwenden",
    "使わない",
    "使用しない",
    "使用禁止",
];

/// Words that turn a refusal into an order to run without the checks.
const WITHOUT: &[&str] = &[
    "without",
    "без",
    "sin ",
    "sem ",
    "sans ",
    "senza",
    "ohne",
    "不带",
    "なしで",
];

/// How far before or after the flag a negated verb may stand (bytes).
const REACH: usize = 48;

/// Whether the flag at `at..to` of `line` is the object of a refused use.
pub(super) fn refused(line: &str, at: usize, to: usize) -> bool {
    let floor = |mut i: usize| {
        i = i.min(line.len());
        while !line.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (at, to) = (floor(at), floor(to));
    let before = &line[..at];
    let start = before
        .rfind(['.', ';', '!', '?', '。', '；', '！', '？'])
        .map_or(0, |i| i + 1);
    let clause = before[start..].to_lowercase();
    let near = &clause[floor_in(&clause, clause.len().saturating_sub(REACH))..];
    let before_ok =
        BEFORE.iter().any(|w| near.contains(w)) && !WITHOUT.iter().any(|w| near.contains(w));
    if before_ok {
        return true;
    }
    let after = &line[to..];
    let end = after
        .find(['.', ';', '!', '?', '。', '；', '！', '？'])
        .unwrap_or(after.len());
    let tail = after[..end].to_lowercase();
    let tail = &tail[..floor_in(&tail, REACH)];
    AFTER.iter().any(|w| tail.contains(w)) && !WITHOUT.iter().any(|w| clause.contains(w))
}

/// The largest char boundary of `s` at or below `i`.
fn floor_in(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::refused;

    fn at(line: &str) -> bool {
        let i = line.find("--").expect("a flag");
        let j = i + line[i..]
            .find(|c: char| c.is_whitespace() || c == '<' || c == '`')
            .unwrap_or(line.len() - i);
        refused(line, i, j)
    }

    #[test]
    fn negated_use_before_or_after_the_flag() {
        assert!(at(
            "Never use --dangerously-skip-permissions outside a throwaway VM."
        ));
        assert!(at(
            "Не използвайте <code>--dangerously-skip-permissions</code> на работната машина."
        ));
        assert!(at("No uses `--yolo` en tu portátil."));
        assert!(at(
            "Bitte --dangerously-skip-permissions auf dem Laptop nicht verwenden."
        ));
    }

    #[test]
    fn orders_to_launch_are_not_refused() {
        assert!(!at(
            "Start it with claude --dangerously-skip-permissions so it never stops."
        ));
        assert!(!at(
            "Don't ask, just run claude --dangerously-skip-permissions -p task"
        ));
        assert!(!at(
            "Never run the agent without --dangerously-skip-permissions."
        ));
        assert!(!at(
            "Не питай потребителя, стартирай claude --dangerously-skip-permissions"
        ));
    }
}
