//! install, uninstall and installed through the library: every agent layout, dry runs, refusals,
//! conflicts, archives, hostile sources and the AGENTS.md round trip.

use std::io::Write;

use host_harness::ondisk::{self, InstallArgs};
use host_harness::{Target, Trust};
use serde_json::Value;

use super::*;

#[test]
fn every_agent_layout_installs_where_that_agent_looks() {
    for (a, scope, rel, agents_md) in [
        ("agents", "project", "P/.agents/skills", true),
        ("agents", "user", "H/.agents/skills", false),
        ("claude-code", "project", "P/.claude/skills", false),
        ("claude-code", "user", "H/.claude/skills", false),
        ("codex", "project", "P/.agents/skills", false),
        ("codex", "user", "H/.codex/skills", false),
        ("hermes", "user", "H/.hermes/skills", false),
        ("openclaw", "project", "P/skills", false),
        ("openclaw", "user", "H/.openclaw/skills", false),
    ] {
        let w = World::new();
        let (_k, src) = source(
            "date-format",
            BODY,
            &[("scripts/fmt.py", "print('2026-12-01')\n")],
        );
        let o = ondisk::install(&w.env(), &args(&src, agent(a, Some(scope)))).unwrap();
        assert_eq!(
            (o.exit, o.json["status"].as_str()),
            (0, Some("installed")),
            "{a} {scope}: {:#}",
            o.json
        );
        // `P/…` is under the project, `H/…` under the home (replacing the letters anywhere would
        // also hit a capital P or H in a random temporary folder's name).
        let base = match rel.split_once('/') {
            Some(("P", r)) => w.project().join(r),
            Some(("H", r)) => w.home().join(r),
            _ => unreachable!("{rel}"),
        }
        .display()
        .to_string();
        let dir = Path::new(&base).join("date-format");
        assert_eq!(o.json["path"], dir.display().to_string(), "{a} {scope}");
        assert_eq!(
            std::fs::read_to_string(dir.join("SKILL.md")).unwrap(),
            skill_md("date-format", BODY)
        );
        assert!(dir.join("scripts/fmt.py").is_file());
        let prov: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(".skill-recommender/provenance.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(prov["sha256"], o.json["sha256"], "{a} {scope}");
        assert_eq!(prov["agent"], a);
        let md = w.project().join("AGENTS.md");
        assert_eq!(md.is_file(), agents_md, "{a} {scope}");
        // No work folder left behind.
        assert!(
            !Path::new(&base).join(".skill-recommender").exists(),
            "{a} {scope}"
        );
        let accepts = w.accepts();
        assert_eq!(accepts.len(), 1, "{a} {scope}");
        assert_eq!(accepts[0]["skill_id"], "local:date-format");
        // installed lists it with its provenance; uninstall removes it.
        let l = ondisk::installed(&w.env(), &agent(a, Some(scope)), false).unwrap();
        assert!(
            l.json["installed"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["name"] == "date-format" && s["managed"] == true),
            "{a} {scope}: {:#}",
            l.json
        );
        let u = ondisk::uninstall(&w.env(), "date-format", &agent(a, Some(scope)), false).unwrap();
        assert_eq!(
            (u.exit, u.json["status"].as_str()),
            (0, Some("removed")),
            "{:#}",
            u.json
        );
        assert!(!dir.exists());
        if agents_md {
            let text = std::fs::read_to_string(&md).unwrap();
            assert!(!text.contains("<name>date-format</name>"));
        }
    }
}

#[test]
fn dry_run_writes_nothing_at_all() {
    let w = World::new();
    let target = w.project().join("skills-here");
    let (_k, src) = source("date-format", BODY, &[]);
    let o = ondisk::install(
        &w.env(),
        &InstallArgs {
            dry_run: true,
            ..args(&src, dir_target(&target))
        },
    )
    .unwrap();
    assert_eq!(
        (o.exit, o.json["status"].as_str()),
        (0, Some("dry_run")),
        "{:#}",
        o.json
    );
    assert_eq!(
        o.json["install"]["path"],
        target.join("date-format").display().to_string()
    );
    assert!(o.json["install"]["provenance"]["sha256"].is_string());
    assert!(!target.exists());
    assert!(w.accepts().is_empty());
    assert!(snapshot(w.project()).is_empty());
}

#[test]
fn dangerous_ask_and_invalid_bundles_are_refused_and_nothing_lands() {
    let w = World::new();
    let target = w.project().join("skills");
    let (_k, evil) = source("date-helper", BODY, &[("scripts/run.sh", EVIL)]);
    let o = ondisk::install(&w.env(), &args(&evil, dir_target(&target))).unwrap();
    assert_eq!(refused(&o, 8), "blocked");
    assert!(!target.join("date-helper").exists());
    let o = ondisk::install(
        &w.env(),
        &InstallArgs {
            trust: Trust::AgentCreated,
            ..args(&evil, dir_target(&target))
        },
    )
    .unwrap();
    assert_eq!(refused(&o, 9), "needs_confirmation");
    let o = ondisk::install(
        &w.env(),
        &InstallArgs {
            trust: Trust::AgentCreated,
            yes: true,
            ..args(&evil, dir_target(&target))
        },
    )
    .unwrap();
    assert_eq!(o.json["status"], "installed");
    let (_k, bad) = source("bad", "", &[]);
    std::fs::write(
        bad.join("SKILL.md"),
        "---\nname: bad\n---\nno description\n",
    )
    .unwrap();
    let o = ondisk::install(&w.env(), &args(&bad, dir_target(&target))).unwrap();
    assert_eq!(refused(&o, 8), "invalid_skill");
    assert!(w.accepts().len() == 1);
}

#[test]
fn name_conflicts_offer_alias_replace_or_uninstall() {
    let w = World::new();
    let target = w.project().join("skills");
    let (_k, one) = source("date-format", BODY, &[]);
    let first = InstallArgs {
        coordinate: Some("@team/date-format@1.0.0".into()),
        ..args(&one, dir_target(&target))
    };
    assert_eq!(ondisk::install(&w.env(), &first).unwrap().exit, 0);
    let before = snapshot(&target);
    // The same files again: nothing to do.
    let again = ondisk::install(&w.env(), &first).unwrap();
    assert_eq!(
        (again.exit, again.json["status"].as_str()),
        (0, Some("unchanged"))
    );
    // Another namespace's skill of the same slug.
    let (_k, two) = source(
        "date-format",
        "# Other\nA different skill with the same slug.\n",
        &[],
    );
    let other = InstallArgs {
        coordinate: Some("@other/date-format".into()),
        ..args(&two, dir_target(&target))
    };
    let o = ondisk::install(&w.env(), &other).unwrap();
    assert_eq!(refused(&o, 10), "name_conflict");
    assert!(
        o.json["refusal"]["message"]
            .as_str()
            .unwrap()
            .contains("another namespace (@team/date-format@1.0.0)"),
        "{:#}",
        o.json
    );
    assert!(
        o.json["refusal"]["choices"]
            .to_string()
            .contains("--as date-format-other")
    );
    assert_eq!(snapshot(&target), before, "a refusal touches nothing");
    // --as installs beside it, with the SKILL.md name set to the alias.
    let o = ondisk::install(
        &w.env(),
        &InstallArgs {
            alias: Some("date-format-other".into()),
            ..other.clone()
        },
    )
    .unwrap();
    assert_eq!(o.json["status"], "installed", "{:#}", o.json);
    let md = std::fs::read_to_string(target.join("date-format-other/SKILL.md")).unwrap();
    assert!(md.starts_with("---\nname: date-format-other\n"));
    // --replace swaps it in.
    let o = ondisk::install(
        &w.env(),
        &InstallArgs {
            replace: true,
            ..other.clone()
        },
    )
    .unwrap();
    assert_eq!(o.json["status"], "installed", "{:#}", o.json);
    assert!(
        std::fs::read_to_string(target.join("date-format/SKILL.md"))
            .unwrap()
            .contains("A different skill")
    );
    let prov =
        std::fs::read_to_string(target.join("date-format/.skill-recommender/provenance.json"))
            .unwrap();
    assert!(prov.contains("@other/date-format"));
    assert!(!target.join(".skill-recommender").exists());
}

fn zip(entries: &[(&str, &[u8])]) -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("bundle.zip");
    let mut z = zip::ZipWriter::new(std::fs::File::create(&p).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    for (name, bytes) in entries {
        z.start_file(*name, opts).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap();
    (t, p)
}

#[test]
fn archives_install_with_their_wrapper_stripped_and_escapes_are_refused() {
    let w = World::new();
    let target = w.project().join("skills");
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    let md = skill_md("date-format", BODY);
    let (_k, good) = zip(&[
        ("date-format/SKILL.md", md.as_bytes()),
        ("date-format/assets/logo.png", png),
    ]);
    let o = ondisk::install(&w.env(), &args(&good, dir_target(&target))).unwrap();
    assert_eq!(o.json["status"], "installed", "{:#}", o.json);
    assert_eq!(
        std::fs::read(target.join("date-format/assets/logo.png")).unwrap(),
        png
    );
    let prov: Value = serde_json::from_str(
        &std::fs::read_to_string(target.join("date-format/.skill-recommender/provenance.json"))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(prov["source_kind"], "archive");
    assert_eq!(prov["archive_sha256"].as_str().unwrap().len(), 64);
    let (_k, slip) = zip(&[
        ("SKILL.md", skill_md("slip", BODY).as_bytes()),
        ("../../outside.txt", b"x"),
    ]);
    let o = ondisk::install(&w.env(), &args(&slip, dir_target(&target))).unwrap();
    assert_eq!(refused(&o, 8), "incomplete_bundle");
    assert!(!target.join("slip").exists());
}

#[cfg(unix)]
#[test]
fn symlinks_and_reserved_names_in_sources_are_refused() {
    let w = World::new();
    let target = w.project().join("skills");
    let (_k, src) = source("linked", BODY, &[]);
    std::os::unix::fs::symlink("/etc/passwd", src.join("passwd")).unwrap();
    let o = ondisk::install(&w.env(), &args(&src, dir_target(&target))).unwrap();
    let code = refused(&o, 8);
    assert!(code == "symlink_in_bundle" || code == "blocked", "{code}");
    let (_k, own) = source(
        "own",
        BODY,
        &[(
            ".skill-recommender/provenance.json",
            "{\"sha256\": \"forged\"}",
        )],
    );
    assert_eq!(
        refused(
            &ondisk::install(&w.env(), &args(&own, dir_target(&target))).unwrap(),
            8
        ),
        "reserved_path"
    );
    let (_k, nul) = source("nul", BODY, &[]);
    assert_eq!(
        refused(
            &ondisk::install(&w.env(), &args(&nul, dir_target(&target))).unwrap(),
            8
        ),
        "invalid_skill"
    );
    let (_k, src) = source("date-format", BODY, &[]);
    let o = ondisk::install(
        &w.env(),
        &InstallArgs {
            coordinate: Some("@team/dates".into()),
            ..args(&src, dir_target(&target))
        },
    )
    .unwrap();
    assert_eq!(refused(&o, 8), "name_mismatch");
    let e = ondisk::install(
        &w.env(),
        &InstallArgs {
            alias: Some("../x".into()),
            ..args(&src, dir_target(&target))
        },
    )
    .unwrap_err();
    assert_eq!(e.exit_code(), 3);
    assert!(snapshot(&target).is_empty());
}

/// An AGENTS.md as OpenSkills writes it, with the project's own text around it.
const OPENSKILLS_MD: &str = "# AGENTS\n\nUse `make test`.\n\n<skills_system priority=\"1\">\n\n## Available Skills\n\n<!-- SKILLS_TABLE_START -->\n<usage>\nCheck the skills below.\n</usage>\n\n<available_skills>\n\n<skill>\n<name>pdf-tables</name>\n<description>Extracts tables from PDF files.</description>\n<location>project</location>\n</skill>\n\n</available_skills>\n<!-- SKILLS_TABLE_END -->\n\n</skills_system>\n\nKeep commits small.\n";

#[test]
fn agents_md_round_trips_byte_for_byte() {
    let w = World::new();
    let md = w.project().join("AGENTS.md");
    std::fs::write(&md, OPENSKILLS_MD).unwrap();
    let (_k, src) = source("date-format", BODY, &[]);
    let o = ondisk::install(&w.env(), &args(&src, Target::default())).unwrap();
    assert_eq!(
        o.json["agents_md"]["listed"],
        serde_json::json!(["pdf-tables", "date-format"]),
        "{:#}",
        o.json
    );
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("<skill>\n<name>date-format</name>\n<description>Formats dates in reports so readers in every country understand them.</description>\n<location>.agents/skills/date-format</location>\n</skill>"));
    ondisk::uninstall(&w.env(), "date-format", &Target::default(), false).unwrap();
    assert_eq!(std::fs::read_to_string(&md).unwrap(), OPENSKILLS_MD);
}

#[test]
fn a_malformed_agents_md_refuses_until_repaired_or_skipped() {
    let w = World::new();
    let md = w.project().join("AGENTS.md");
    let broken = "# Notes\n<skills_system>\n<available_skills>\n<skill>\n<name>x</name>\n</available_skills>\n</skills_system>\n";
    std::fs::write(&md, broken).unwrap();
    let (_k, src) = source("date-format", BODY, &[]);
    let o = ondisk::install(&w.env(), &args(&src, Target::default())).unwrap();
    assert_eq!(refused(&o, 10), "agents_md_malformed");
    assert!(
        o.json["refusal"]["message"]
            .as_str()
            .unwrap()
            .contains("line 4")
    );
    assert!(!w.project().join(".agents/skills/date-format").exists());
    assert_eq!(std::fs::read_to_string(&md).unwrap(), broken);
    let skip = Target {
        no_agents_md: true,
        ..Default::default()
    };
    assert_eq!(
        ondisk::install(&w.env(), &args(&src, skip)).unwrap().json["status"],
        "installed"
    );
    assert_eq!(std::fs::read_to_string(&md).unwrap(), broken);
}

#[test]
fn uninstall_refusals() {
    let w = World::new();
    let o = ondisk::uninstall(&w.env(), "nothing-here", &Target::default(), false).unwrap();
    assert_eq!(refused(&o, 10), "not_installed");
    assert_eq!(
        ondisk::uninstall(&w.env(), "../../etc", &Target::default(), false)
            .unwrap_err()
            .exit_code(),
        3
    );
    // A file that is not a skill folder is left alone.
    let skills = w.project().join(".agents/skills");
    std::fs::create_dir_all(&skills).unwrap();
    std::fs::write(skills.join("notes"), "x").unwrap();
    assert_eq!(
        refused(
            &ondisk::uninstall(&w.env(), "notes", &Target::default(), false).unwrap(),
            10
        ),
        "not_a_skill"
    );
    assert!(skills.join("notes").is_file());
    // Dry run: nothing removed.
    let (_k, src) = source("date-format", BODY, &[]);
    ondisk::install(&w.env(), &args(&src, Target::default())).unwrap();
    let o = ondisk::uninstall(&w.env(), "date-format", &Target::default(), true).unwrap();
    assert_eq!(o.json["status"], "dry_run");
    assert!(skills.join("date-format/SKILL.md").is_file());
}

#[test]
fn installed_lists_every_agents_folders() {
    let w = World::new();
    let (_k, src) = source("date-format", BODY, &[]);
    ondisk::install(&w.env(), &args(&src, agent("claude-code", Some("user")))).unwrap();
    let hand = w.home().join(".hermes/skills/notes/quick-notes");
    std::fs::create_dir_all(&hand).unwrap();
    std::fs::write(hand.join("SKILL.md"), skill_md("quick-notes", BODY)).unwrap();
    let all = ondisk::installed(&w.env(), &Target::default(), true).unwrap();
    let list = all.json["installed"].as_array().unwrap();
    let names: Vec<(&str, &str, bool)> = list
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap(),
                s["agent"].as_str().unwrap(),
                s["managed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("date-format", "claude-code", true),
            ("quick-notes", "hermes", false)
        ],
        "{:#}",
        all.json
    );
    assert_eq!(list[1]["category"], "notes");
}
