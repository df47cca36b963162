use super::*;
use std::fs;

fn skill(root: &Path, rel: &str) {
    let d = root.join(rel);
    fs::create_dir_all(&d).unwrap();
    fs::write(d.join("SKILL.md"), "---\nname: x\n---\n").unwrap();
}

fn rel(root: &Path, jobs: impl Iterator<Item = Job>) -> Vec<String> {
    jobs.map(|j| {
        j.path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned()
    })
    .collect()
}

#[test]
fn every_skill_folder_beneath_is_found_once_in_order() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    skill(r, "b/beta");
    skill(r, "a/alpha");
    skill(r, "a/alpha/nested"); // inside a skill: part of it, not another bundle
    skill(r, "c/d/e/deep");
    skill(r, ".git/hidden");
    fs::create_dir_all(r.join("empty/dir")).unwrap();
    fs::write(r.join("notes.txt"), "x").unwrap();
    assert_eq!(
        rel(r, skill_folders(r)),
        ["a/alpha", "b/beta", "c/d/e/deep"]
    );
    // A root that is itself a skill is the one bundle.
    let alpha = r.join("a/alpha");
    assert_eq!(rel(&alpha, skill_folders(&alpha)), [""]);
}

#[cfg(unix)]
#[test]
fn symlinked_folders_are_followed_once_and_loops_end() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    let elsewhere = tempfile::tempdir().unwrap();
    skill(elsewhere.path(), "linked");
    fs::create_dir_all(r.join("cat")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), r.join("cat/ext")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), r.join("cat/ext-again")).unwrap();
    std::os::unix::fs::symlink(r, r.join("cat/loop")).unwrap();
    skill(r, "own");
    let found = rel(r, skill_folders(r));
    assert_eq!(found, ["cat/ext/linked", "own"], "{found:?}");
}

#[cfg(unix)]
#[test]
fn an_unlistable_folder_is_a_job_that_says_why() {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    fs::create_dir_all(r.join("locked/x")).unwrap();
    fs::set_permissions(r.join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
    let readable_anyway = fs::read_dir(r.join("locked")).is_ok(); // root reads it anyway
    let jobs: Vec<Job> = skill_folders(r).collect();
    fs::set_permissions(r.join("locked"), fs::Permissions::from_mode(0o755)).unwrap();
    if readable_anyway {
        return;
    }
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert!(
        jobs[0]
            .unreadable
            .as_deref()
            .is_some_and(|w| w.contains("cannot list"))
    );
}

fn report(policy: Policy) -> Result<Report, Error> {
    Ok(Report {
        json: "{}".into(),
        policy,
        verdict: "safe".into(),
        files: 1,
        bytes: 10,
        level: None,
    })
}

#[test]
fn the_exit_code_is_the_worst_outcome() {
    let exit = |outcomes: Vec<Result<Report, Error>>| {
        let mut s = Summary::default();
        for o in &outcomes {
            s.add(o);
        }
        s.exit_code()
    };
    let unreadable = || {
        Err(Error::InvalidInput {
            field: "path".into(),
            message: "gone".into(),
        })
    };
    assert_eq!(exit(vec![]), 0);
    assert_eq!(exit(vec![report(Policy::Allow)]), 0);
    assert_eq!(exit(vec![report(Policy::Allow), report(Policy::Ask)]), 9);
    assert_eq!(exit(vec![report(Policy::Ask), unreadable()]), 3);
    assert_eq!(
        exit(vec![
            unreadable(),
            report(Policy::Block),
            report(Policy::Ask)
        ]),
        8
    );
    let mut s = Summary::default();
    s.add(&report(Policy::Block));
    s.add(&report(Policy::Allow));
    s.add(&unreadable());
    let v = s.to_json();
    assert_eq!(v["summary"]["bundles"], 3);
    assert_eq!(v["summary"]["by_policy"]["block"], 1);
    assert_eq!(v["summary"]["by_policy"]["ask"], 0);
    assert_eq!(v["summary"]["errors"], 1);
    assert_eq!(v["summary"]["policy"], "block");
    assert_eq!(v["summary"]["exit_code"], 8);
    assert_eq!(v["summary"]["files"], 2);
}

#[test]
fn result_lines_carry_the_path_and_the_jobs_fields() {
    let done = Scanned {
        index: 0,
        job: Job {
            path: "/s/x".into(),
            extra: vec![("agent", json!("claude"))],
            unreadable: None,
        },
        outcome: Ok(Report {
            json: r#"{"findings":[],"policy":"allow","verdict":"safe"}"#.into(),
            policy: Policy::Allow,
            verdict: "safe".into(),
            files: 0,
            bytes: 0,
            level: None,
        }),
    };
    assert_eq!(
        done.to_json_line(),
        r#"{"agent":"claude","findings":[],"path":"/s/x","policy":"allow","verdict":"safe"}"#
    );
    let failed = Scanned {
        outcome: Err(Error::InvalidInput {
            field: "path".into(),
            message: "gone".into(),
        }),
        ..done
    };
    let v: Value = serde_json::from_str(&failed.to_json_line()).unwrap();
    assert_eq!(v["path"], "/s/x");
    assert_eq!(v["error"]["code"], "invalid_input");
    assert!(!failed.to_json_line().contains('\n'));
}
