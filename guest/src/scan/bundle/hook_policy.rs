//! Permission hooks whose `allow` is scoped or approved elsewhere (round 36b, sets36b).
//!
//! A PreToolUse hook answers `permissionDecision` for the agent. Two shapes of it are a policy the
//! skill declares, not the "approve everything on the user's behalf":
//!
//! - **A comment that names the hook's job.** A hook script opens with `# … PreToolUse hook to
//!   auto-approve <plugin> skill calls`, and its code allows only the calls it lists (`case
//!   "$SKILL" in plugin:up|plugin:down) … allow`). The approval phrase of
//!   `prompt_injection.approval-manipulation` then describes the script's own scoped policy. It
//!   drops to `medium` when: the phrase is on a comment line of a script; the script answers
//!   `permissionDecision`; every `allow` answer it gives has, in the [`BACK`] lines above it, a
//!   comparison with named values (a `case` branch, `==`, `in (…)`, `startswith`); every place the
//!   finding cites is in the same script; and no file of the bundle has concealment wording.
//! - **An approval recorded once, elsewhere.** `agent.hook-auto-allow` fires on an `allow` decided
//!   by nothing in the tool call. When the [`BACK`] lines above it test that a file exists and
//!   delete that same file before answering (`if [[ -f "$TOKEN_FILE" ]]; then rm -f "$TOKEN_FILE";
//!   … allow`), the hook spends a one-time approval record that the user's approval flow wrote (a
//!   chat "yes", a dialog): one approved call, not every call. It drops to `medium` when no script
//!   line of the bundle (comments aside) creates or writes that record and no file has concealment
//!   wording. A hook that
//!   writes its own token, or allows with no such record, keeps `critical`.
//!
//! One pass over the findings, each reading a few lines of its own file.

use crate::scan::bundle::Bundle;
use crate::scan::content::{FileKind, Finding, kind_of};
use crate::scan::rules::Severity;

/// Lines above an `allow` answer where what decides it stands (as `agent.hook-auto-allow` reads).
const BACK: usize = 6;

/// Whether a lower-cased line answers `permissionDecision` with `allow`.
fn allows(l: &str) -> bool {
    let Some(i) = l.find("permissiondecision") else {
        return false;
    };
    let rest = l[i + "permissiondecision".len()..]
        .trim_start_matches(['"', '\'', ']', ' ', ':', '=', '\\']);
    rest.starts_with("allow")
}

/// Whether a line compares with named values: a `case` branch (`a|b)`), `==`, `!=`, a membership
/// test or a prefix test.
fn compares_with_names(l: &str) -> bool {
    let t = l.trim();
    let branch = t.ends_with(')') && !t.contains('(') && !t.contains(' ') && t.len() > 1
        || t.ends_with(";;") && t.contains(')');
    branch
        || [
            "==",
            "!=",
            " in (",
            " in [",
            " in {",
            "startswith(",
            "case ",
        ]
        .iter()
        .any(|w| t.contains(w))
}

/// Whether `l` is a comment line of a script (`#`, `//`), a shebang excepted.
fn comment(l: &str) -> bool {
    let t = l.trim_start();
    (t.starts_with('#') && !t.starts_with("#!")) || t.starts_with("//")
}

/// Whether every `allow` answer of a script compares with named values in the lines above it, and
/// there is at least one.
fn scoped_allows(text: &str) -> bool {
    let lower: Vec<String> = text.lines().map(|l| l.to_ascii_lowercase()).collect();
    let mut any = false;
    for (i, l) in lower.iter().enumerate() {
        if !allows(l) {
            continue;
        }
        any = true;
        if !lower[i.saturating_sub(BACK)..i]
            .iter()
            .any(|a| compares_with_names(a))
        {
            return false;
        }
    }
    any
}

/// Lower the approval phrase of a scoped hook's own comment (see the module documentation).
pub(super) fn demote_scoped_hook_notes(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals {
        return;
    }
    for f in out.iter_mut().filter(|f| {
        f.rule_id == "prompt_injection.approval-manipulation" && f.severity > Severity::Medium
    }) {
        let Some(text) = bundle.text_of(&f.file) else {
            continue;
        };
        let own_comment = kind_of(&f.file, text) == FileKind::Code
            && text
                .lines()
                .nth(f.line.saturating_sub(1))
                .is_some_and(comment);
        if !own_comment
            || !text.to_ascii_lowercase().contains("permissiondecision")
            || !f
                .related
                .iter()
                .all(|r| r.file == f.file && r.role != "concealment")
            || !scoped_allows(text)
        {
            continue;
        }
        f.severity = Severity::Medium;
        f.description.push_str(" (Informational: the phrase is a comment of a permission hook that describes its own policy, and every call the hook allows is matched against named values first: a scoped auto-approval the skill declares.)");
    }
}

/// The record a shell or Python/JavaScript line tests for existence, if any: the variable or path
/// after `-f`/`-e`, or inside `exists(`/`existsSync(`.
fn tested_record(l: &str) -> Option<String> {
    let after = ["-f ", "-e "]
        .iter()
        .find_map(|m| l.find(m).map(|i| &l[i + m.len()..]))
        .or_else(|| {
            ["exists(", "existssync("]
                .iter()
                .find_map(|m| l.find(m).map(|i| &l[i + m.len()..]))
        })?;
    let token: String = after
        .trim_start()
        .chars()
        .take_while(|c| !matches!(c, ' ' | ')' | ']' | ';' | ','))
        .collect();
    let name = token.trim_matches(['"', '\'', '$', '{', '}']);
    (name.len() >= 3).then(|| name.to_string())
}

/// Whether a line deletes `record` (`rm`, `os.remove`, `unlink`).
fn deletes(l: &str, record: &str) -> bool {
    l.contains(record)
        && ["rm ", "os.remove(", "os.unlink(", "unlink(", "unlinksync("]
            .iter()
            .any(|w| l.contains(w))
}

/// Whether a line creates or writes `record` (`touch`, a redirection into it, a write call).
fn writes(l: &str, record: &str) -> bool {
    let Some(at) = l.find(record) else {
        return false;
    };
    let before = l[..at].trim_end_matches(['"', '\'', '$', '{', ' ']);
    before.contains("touch")
        || before.ends_with('>')
        || ["write", "tee ", "cp ", "mv ", "ln "]
            .iter()
            .any(|w| l.contains(w))
}

/// Lower hook allows that spend a one-time approval record written elsewhere (see the module
/// documentation).
pub(super) fn demote_consumed_approvals(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals {
        return;
    }
    for f in out
        .iter_mut()
        .filter(|f| f.rule_id == "agent.hook-auto-allow" && f.severity > Severity::Medium)
    {
        let Some(text) = bundle.text_of(&f.file) else {
            continue;
        };
        let lower: Vec<String> = text.lines().map(|l| l.to_ascii_lowercase()).collect();
        let i = f.line.saturating_sub(1);
        if i >= lower.len() {
            continue;
        }
        let above = &lower[i.saturating_sub(BACK)..i];
        let Some(record) = above.iter().find_map(|l| tested_record(l)) else {
            continue;
        };
        if !above.iter().any(|l| deletes(l, &record)) {
            continue;
        }
        // Only code writes a record; a document saying who writes it ("your answer makes the
        // bridge write a one-time approval file") and comments describe the flow.
        let written = bundle.files.iter().any(|b| {
            b.content.as_deref().is_some_and(|c| {
                kind_of(&b.path, c) == FileKind::Code
                    && c.to_ascii_lowercase()
                        .lines()
                        .any(|l| !comment(l) && !deletes(l, &record) && writes(l, &record))
            })
        });
        if written {
            continue;
        }
        f.severity = Severity::Medium;
        f.description.push_str(" (Informational: the hook allows only after finding a one-time approval record, which it deletes, and nothing in the bundle writes that record: it spends an approval given elsewhere, one call at a time.)");
    }
}

#[cfg(test)]
mod tests {
    use super::{compares_with_names, deletes, scoped_allows, tested_record, writes};

    #[test]
    fn scoped_and_unscoped_allows() {
        let scoped = "case \"$SKILL\" in\n  plug:up|plug:down)\n    echo '{\"permissionDecision\": \"allow\"}'\n    ;;\nesac\n";
        assert!(scoped_allows(scoped));
        let bare = "INPUT=$(cat)\necho '{\"permissionDecision\": \"allow\"}'\n";
        assert!(!scoped_allows(bare));
        assert!(compares_with_names("if tool == \"Read\":"));
        assert!(!compares_with_names("input = json.load(sys.stdin)"));
    }

    #[test]
    fn one_time_records() {
        assert_eq!(
            tested_record("if [[ -f \"$token_file\" ]]; then").as_deref(),
            Some("token_file")
        );
        assert_eq!(
            tested_record("if os.path.exists(approval_path):").as_deref(),
            Some("approval_path")
        );
        assert!(deletes("  rm -f \"$token_file\"", "token_file"));
        assert!(writes("touch \"$token_file\"", "token_file"));
        assert!(writes("echo ok > \"$token_file\"", "token_file"));
        assert!(!writes(
            "token_file=\"$state_dir/permission-approved\"",
            "token_file"
        ));
    }
}
