//! A crash at every point of a transaction leaves the old state or the new one (the skill folder and
//! each file at every instant; everything after the next command's recovery), and an I/O failure at
//! every step rolls back to the exact previous bytes. Two concurrent writers: one wins, the other
//! fails cleanly.

use std::collections::BTreeMap;

use host_harness::ondisk::txn::{self, FaultMode};
use host_harness::ondisk::{self, InstallArgs, SkillArgs};
use host_harness::{Error, SkillAction, Target};

use super::*;

/// What a test compares: the skill folder, AGENTS.md, and how many accepts history holds.
#[derive(Debug, Clone, PartialEq, Eq)]
struct State {
    skill: BTreeMap<String, Vec<u8>>,
    agents_md: Option<Vec<u8>>,
    accepts: usize,
}

fn state(w: &World) -> State {
    State {
        skill: snapshot(&w.project().join(".agents/skills/date-format")),
        agents_md: std::fs::read(w.project().join("AGENTS.md")).ok(),
        accepts: w.accepts().len(),
    }
}

fn work_dir(w: &World) -> std::path::PathBuf {
    w.project().join(".agents/skills").join(txn::WORK_DIR)
}

const INSTALL_POINTS: &[&str] = &[
    "copy",
    "staged",
    "journal",
    "rename",
    "agents-md",
    "purge",
    "history",
    "done",
];

/// v1 installed, then v2 installed over it with --replace: the (old, new) states, from a run without
/// faults in a world set up the same way.
fn replace_world(sources: &(std::path::PathBuf, std::path::PathBuf)) -> World {
    let w = World::new();
    std::fs::write(w.project().join("AGENTS.md"), "# Project\n").unwrap();
    let o = ondisk::install(&w.env(), &args(&sources.0, Target::default())).unwrap();
    assert_eq!(o.json["status"], "installed", "{:#}", o.json);
    // The card that offered v2 (its id is what v2's install records the accept under).
    w.shown(
        "clawhub:date-format",
        "date-format",
        "https://clawhub.ai/team/date-format",
    );
    w
}

/// The second version: another body, another description (so AGENTS.md changes too).
fn v2(extra: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf) {
    let (k, p) = source("date-format", "", extra);
    std::fs::write(
        p.join("SKILL.md"),
        "---\nname: date-format\ndescription: Formats dates and times with their time zone in every report.\n---\n# Dates v2\nUse ISO 8601 and say the zone.\n",
    )
    .unwrap();
    (k, p)
}

fn v2_args(sources: &(std::path::PathBuf, std::path::PathBuf)) -> InstallArgs {
    InstallArgs {
        replace: true,
        skill_id: Some("clawhub:date-format".into()),
        ..args(&sources.1, Target::default())
    }
}

#[test]
fn a_crash_at_any_point_of_an_install_leaves_old_or_new() {
    let (_k1, v1) = source("date-format", BODY, &[]);
    let (_k2, v2) = v2(&[("scripts/fmt.py", "print(1)\n")]);
    let sources = (v1, v2);
    // The two end states, from runs without faults.
    let reference = replace_world(&sources);
    let old = state(&reference);
    ondisk::install(&reference.env(), &v2_args(&sources)).unwrap();
    let new = state(&reference);
    assert_ne!(old.skill, new.skill);
    assert_ne!(old.agents_md, new.agents_md);
    assert_eq!(new.accepts, 2);
    for point in INSTALL_POINTS {
        let w = replace_world(&sources);
        assert_eq!(state(&w), old, "{point}: setup");
        let e = ondisk::install(&w.faulty(point, FaultMode::Stop), &v2_args(&sources)).unwrap_err();
        assert!(matches!(e, Error::Disk { op: "crash", .. }), "{point}: {e}");
        // At the instant of the crash: the folder and AGENTS.md are each old or new, never mixed.
        let now = state(&w);
        assert!(
            now.skill == old.skill || now.skill == new.skill,
            "{point}: the skill folder is neither old nor new"
        );
        assert!(
            now.agents_md == old.agents_md || now.agents_md == new.agents_md,
            "{point}: AGENTS.md is neither"
        );
        // The next command on the folder finishes or undoes it: all old or all new.
        let notes = txn::recover(&w.project().join(".agents/skills"), common::harness()).unwrap();
        let after = state(&w);
        let committed = !matches!(*point, "copy" | "staged");
        assert_eq!(
            after,
            if committed { new.clone() } else { old.clone() },
            "{point}: after recovery ({notes:?})"
        );
        assert!(!work_dir(&w).exists(), "{point}: the work folder is left");
    }
}

#[test]
fn a_failure_at_any_step_of_an_install_rolls_back_to_the_previous_bytes() {
    let (_k1, v1) = source("date-format", BODY, &[]);
    let (_k2, v2) = v2(&[]);
    let sources = (v1, v2);
    for point in ["copy", "journal", "rename", "agents-md", "purge"] {
        let w = replace_world(&sources);
        let old = state(&w);
        let r = ondisk::install(&w.faulty(point, FaultMode::Fail), &v2_args(&sources));
        match (point, r) {
            // Deleting the replaced folder is cleanup: its failure is a warning.
            ("purge", Ok(o)) => {
                assert_eq!(o.json["status"], "installed");
                assert!(
                    o.json["warnings"].to_string().contains("could not delete")
                        || o.json["warnings"].to_string().contains("simulated"),
                    "{:#}",
                    o.json
                );
            }
            (_, Err(e)) => {
                assert!(
                    matches!(e, Error::Disk { op: "inject", .. }),
                    "{point}: {e}"
                );
                assert_eq!(state(&w), old, "{point}: not rolled back");
                assert!(!work_dir(&w).exists(), "{point}");
            }
            (_, Ok(o)) => panic!("{point}: {:#}", o.json),
        }
    }
    // History is bookkeeping: a failure there is a warning and the install stands.
    let w = replace_world(&sources);
    let o = ondisk::install(&w.faulty("history", FaultMode::Fail), &v2_args(&sources)).unwrap();
    assert_eq!(o.json["status"], "installed");
    assert!(
        o.json["warnings"]
            .to_string()
            .contains("history could not record"),
        "{:#}",
        o.json
    );
    assert_eq!(w.accepts().len(), 1);
}

#[test]
fn a_crash_during_uninstall_leaves_it_installed_or_removed() {
    let (_k, v1) = source("date-format", BODY, &[]);
    for point in ["staged", "journal", "retire", "agents-md", "purge", "done"] {
        let w = World::new();
        std::fs::write(w.project().join("AGENTS.md"), "# Project\n").unwrap();
        ondisk::install(&w.env(), &args(&v1, Target::default())).unwrap();
        let old = state(&w);
        let e = ondisk::uninstall(
            &w.faulty(point, FaultMode::Stop),
            "date-format",
            &Target::default(),
            false,
        )
        .unwrap_err();
        assert!(matches!(e, Error::Disk { op: "crash", .. }), "{point}: {e}");
        let now = state(&w);
        assert!(now.skill == old.skill || now.skill.is_empty(), "{point}");
        txn::recover(&w.project().join(".agents/skills"), common::harness()).unwrap();
        let after = state(&w);
        if point == "staged" {
            assert_eq!(after, old, "{point}");
        } else {
            assert!(after.skill.is_empty(), "{point}");
            assert!(
                !String::from_utf8(after.agents_md.unwrap())
                    .unwrap()
                    .contains("<name>date-format</name>"),
                "{point}"
            );
        }
        assert!(!work_dir(&w).exists(), "{point}");
    }
}

const WEEKLY: &str = "---\nname: weekly-report\ndescription: Writes the weekly status report from the team's tracker export.\n---\n# Weekly report\n## Procedure\n1. Read the export.\n";

fn hermes_skill(w: &World) -> std::path::PathBuf {
    let o = ondisk::skill(
        &w.env(),
        &SkillArgs {
            name: "weekly-report".into(),
            action: SkillAction::Create {
                content: WEEKLY.into(),
            },
            target: agent("hermes", None),
            dry_run: false,
        },
    )
    .unwrap();
    assert_eq!(o.json["status"], "written", "{:#}", o.json);
    w.home().join(".hermes/skills/weekly-report")
}

fn patch(old: &str, new: &str) -> SkillArgs {
    SkillArgs {
        name: "weekly-report".into(),
        action: SkillAction::Patch {
            old: old.into(),
            new: new.into(),
            file: None,
            replace_all: false,
        },
        target: agent("hermes", None),
        dry_run: false,
    }
}

#[test]
fn a_crash_during_an_agent_patch_leaves_each_file_old_or_new() {
    let p = patch(
        "1. Read the export.",
        "1. Read the export.\n2. Sum the hours.",
    );
    for point in ["staged", "journal", "file", "provenance", "done"] {
        let w = World::new();
        let dir = hermes_skill(&w);
        let old = snapshot(&dir);
        let e = ondisk::skill(&w.faulty(point, FaultMode::Stop), &p).unwrap_err();
        assert!(matches!(e, Error::Disk { op: "crash", .. }), "{point}: {e}");
        let md = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
        assert!(
            md == WEEKLY || md.ends_with("2. Sum the hours.\n"),
            "{point}: {md:?}"
        );
        txn::recover(&w.home().join(".hermes/skills"), common::harness()).unwrap();
        let after = snapshot(&dir);
        if point == "staged" {
            assert_eq!(after, old, "{point}");
        } else {
            let md = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
            assert!(md.ends_with("2. Sum the hours.\n"), "{point}");
            let prov: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(dir.join(".skill-recommender/provenance.json")).unwrap(),
            )
            .unwrap();
            assert_eq!(prov["edits"], 1, "{point}");
        }
        // A clean audit afterwards: the provenance matches the folder.
        let (lines, summary) = super::audit::audit_world(&w);
        assert_eq!(summary.exit_code(), 0, "{point}: {lines:#?}");
    }
    // A failure while writing restores the previous bytes exactly.
    for point in ["file", "provenance"] {
        let w = World::new();
        let dir = hermes_skill(&w);
        let old = snapshot(&dir);
        assert!(
            ondisk::skill(&w.faulty(point, FaultMode::Fail), &p).is_err(),
            "{point}"
        );
        assert_eq!(snapshot(&dir), old, "{point}");
    }
}

#[test]
fn two_concurrent_installs_of_one_name_one_wins_the_other_fails_cleanly() {
    for round in 0..3 {
        let w = World::new();
        let target = w.project().join("skills");
        let (_ka, a) = source(
            "date-format",
            "# A\nVariant A of the skill.\n",
            &[("references/a.md", "A\n")],
        );
        let (_kb, b) = source(
            "date-format",
            "# B\nVariant B of the skill.\n",
            &[("references/b.md", "B\n")],
        );
        let (ra, rb) = std::thread::scope(|s| {
            let ta = s.spawn(|| ondisk::install(&w.env(), &args(&a, dir_target(&target))).unwrap());
            let tb = s.spawn(|| ondisk::install(&w.env(), &args(&b, dir_target(&target))).unwrap());
            (ta.join().unwrap(), tb.join().unwrap())
        });
        let exits = [ra.exit, rb.exit];
        assert!(
            exits.contains(&0) && exits.contains(&10),
            "round {round}: {exits:?}"
        );
        let loser = if ra.exit == 10 { &ra } else { &rb };
        assert_eq!(loser.json["refusal"]["code"], "name_conflict");
        let files: Vec<String> = snapshot(&target.join("date-format")).into_keys().collect();
        let winner_a = ra.exit == 0;
        let want = if winner_a {
            "references/a.md"
        } else {
            "references/b.md"
        };
        let other = if winner_a {
            "references/b.md"
        } else {
            "references/a.md"
        };
        assert!(
            files.contains(&want.to_owned()) && !files.contains(&other.to_owned()),
            "round {round}: mixed {files:?}"
        );
        assert!(!target.join(txn::WORK_DIR).exists());
    }
}

#[test]
fn two_concurrent_patches_one_wins_the_other_fails_cleanly() {
    let w = World::new();
    let dir = hermes_skill(&w);
    let (ra, rb) = std::thread::scope(|s| {
        let ta = s.spawn(|| {
            ondisk::skill(
                &w.env(),
                &patch("1. Read the export.", "1. Read the CSV export."),
            )
            .unwrap()
        });
        let tb = s.spawn(|| {
            ondisk::skill(
                &w.env(),
                &patch("1. Read the export.", "1. Read the JSON export."),
            )
            .unwrap()
        });
        (ta.join().unwrap(), tb.join().unwrap())
    });
    let exits = [ra.exit, rb.exit];
    assert!(
        exits.contains(&0) && exits.contains(&3),
        "{exits:?}: {:#} {:#}",
        ra.json,
        rb.json
    );
    let loser = if ra.exit == 3 { &ra } else { &rb };
    assert_eq!(loser.json["refusal"]["code"], "no_match");
    let md = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    assert_eq!(md.matches("1. Read the").count(), 1, "{md}");
}

#[test]
fn a_busy_folder_is_reported_after_the_wait() {
    let w = World::new();
    let skills = w.project().join(".agents/skills");
    std::fs::create_dir_all(&skills).unwrap();
    let _held = txn::lock_dir(&skills, std::time::Duration::from_secs(1)).unwrap();
    let (_k, src) = source("date-format", BODY, &[]);
    let mut env = w.env();
    env.lock_timeout = std::time::Duration::from_millis(100);
    let e = ondisk::install(&env, &args(&src, Target::default())).unwrap_err();
    assert_eq!((e.code(), e.exit_code()), ("busy", 10), "{e}");
    assert!(!skills.join("date-format").exists());
}
