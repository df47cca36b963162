//! Downloads that run without a visible run step, for `supply_chain.download-execute`:
//!
//! - a file downloaded straight into a place that runs by itself (a git hook, a shell start-up
//!   file, an autostart or launch folder, a cron or systemd directory): the next `git checkout`,
//!   shell or login runs it;
//! - a script of the bundle that fetches content from an unknown host, makes a file executable
//!   and starts a program, with the file passed between functions so that no single name joins
//!   the download to the run (`write_bytes(r.content)` in one function, `Popen([path])` in
//!   another). Each piece is ordinary; together, in one file, with an unknown host, they are a
//!   dropper.
//!
//! Separate from [`super`]'s flow pairing because neither shape has a name that flows from the
//! download to a run.

use super::{advice, grade, source_host};
use crate::scan::content::{FileKind, Finding};
use crate::scan::facts::FactKind;
use crate::scan::judge::flow::FileFlow;
use crate::scan::judge::{At, Bundle, finding};
use crate::scan::rules::Severity;

/// Git hooks: git runs a file of this name in `.git/hooks/` on its own.
const GIT_HOOKS: &[&str] = &[
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-rebase",
    "post-checkout",
    "post-merge",
    "pre-push",
    "post-rewrite",
    "pre-auto-gc",
];

/// Where a saved file runs by itself, in words for the finding, if it does.
pub(super) fn autorun_place(target: &str) -> Option<&'static str> {
    let t = target.trim_matches(['"', '\'']);
    let name = t.rsplit(['/', '\\']).next().unwrap_or("");
    let parent = t
        .rsplit(['/', '\\'])
        .nth(1)
        .unwrap_or("")
        .trim_start_matches(['$', '{'])
        .trim_end_matches('}')
        .to_ascii_lowercase();
    if GIT_HOOKS.contains(&name) && (parent == "hooks" || t.contains(".git/hooks")) {
        return Some("a git hook, which git runs on its own");
    }
    if [
        ".bashrc",
        ".zshrc",
        ".profile",
        ".bash_profile",
        ".zprofile",
    ]
    .contains(&name)
    {
        return Some("a shell start-up file, which every new shell runs");
    }
    let lower = t.to_ascii_lowercase();
    if [
        "/launchagents/",
        "/autostart/",
        "\\startup\\",
        "/cron.d/",
        "/systemd/",
    ]
    .iter()
    .any(|p| lower.contains(p))
    {
        return Some("a folder whose programs start by themselves");
    }
    None
}

/// A download saved into a place that runs it ([`autorun_place`]).
pub(super) fn download_to_autorun(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    for (file, flow) in b.files.iter().zip(flows) {
        if file.kind != FileKind::Code {
            continue;
        }
        for d in b.in_file(file, FactKind::Download) {
            let Some(place) = d.fact.capture.as_deref().and_then(autorun_place) else {
                continue;
            };
            let host = source_host(b, &d, flow);
            let Some((mut sev, from)) = grade(host.as_ref()) else {
                continue;
            };
            if sev == Severity::High {
                sev = Severity::Critical;
            }
            let why = format!(
                "Content downloaded {from} at {} is saved as {}: it runs without any step that shows it. {}",
                d.place(),
                place,
                advice(sev)
            );
            out.push(finding(
                "supply_chain.download-execute",
                "supply_chain",
                sev,
                d,
                why,
                Vec::new(),
            ));
        }
    }
}

/// Whether a run fact makes a file executable (`chmod +x`, `os.chmod(p, 0o755)`).
fn makes_executable(at: &At<'_>) -> bool {
    let m = at.matched();
    m.contains("chmod") || m.contains("Chmod")
}

/// Fetch from an unknown host + make executable + start a program, in one script of the bundle.
pub(super) fn fetched_made_executable_and_run(
    b: &Bundle<'_>,
    flows: &[FileFlow],
    out: &mut Vec<Finding>,
) {
    for (file, flow) in b.files.iter().zip(flows) {
        if file.kind != FileKind::Code
            || out
                .iter()
                .any(|f| f.file == file.path && f.rule_id == "supply_chain.download-execute")
        {
            continue;
        }
        let fetch = b
            .in_file(file, FactKind::FetchToValue)
            .chain(b.in_file(file, FactKind::Download))
            .filter_map(|a| {
                let host = source_host(b, &a, flow)?;
                let (sev, from) = grade(Some(&host))?;
                // The project's own release (an owner named after the skill) is its installer.
                let own = crate::scan::judge::release_named_after(&host, &b.name_words());
                (sev >= Severity::High && !own).then_some((a, from))
            })
            .next();
        let Some((fetch, from)) = fetch else {
            continue;
        };
        let runs: Vec<At<'_>> = b.in_file(file, FactKind::RunFile).collect();
        let Some(chmod) = runs
            .iter()
            .find(|r| makes_executable(r) && r.fact.line > fetch.fact.line)
        else {
            continue;
        };
        let Some(run) = runs
            .iter()
            .find(|r| !makes_executable(r) && r.fact.line > chmod.fact.line)
        else {
            continue;
        };
        let why = format!(
            "Content fetched {from} at {} is made executable at {} and a program is started at {}: the file is passed between functions, but fetched, made executable and run in one script is how a dropper works. {}",
            fetch.place(),
            chmod.place(),
            run.place(),
            advice(Severity::Critical)
        );
        out.push(finding(
            "supply_chain.download-execute",
            "supply_chain",
            Severity::Critical,
            *run,
            why,
            vec![fetch.related("download"), chmod.related("made executable")],
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::autorun_place;

    #[test]
    fn places_that_run_by_themselves() {
        assert!(autorun_place("\"$HOOKS/post-checkout\"").is_some());
        assert!(autorun_place(".git/hooks/pre-commit").is_some());
        assert!(autorun_place("~/.bashrc").is_some());
        assert!(autorun_place("$HOME/Library/LaunchAgents/com.x.plist").is_some());
        assert!(autorun_place("hooks/pre-commit.sample.txt").is_none());
        assert!(autorun_place("./bin/tool").is_none());
        assert!(autorun_place("docs/pre-commit").is_none());
    }
}
