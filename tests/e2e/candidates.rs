//! Issue 3 end to end: `normalize` on every registry fixture, `normalize | filter`, discovery.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command as Proc;

use serde_json::{Value, json};

use crate::common::{NOW, cache_dir, cli, cli_input, code, json, root};

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/registries").join(name)
}

fn normalize(name: &str, extra: &[&str]) -> (i32, Value) {
    let path = fixture(name);
    let mut args = vec!["normalize"];
    args.extend_from_slice(extra);
    args.push(path.to_str().unwrap());
    let out = cli(None, &args, &[]);
    (code(&out), json(&out))
}

fn by_id<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["skill_id"] == id)
        .unwrap_or_else(|| panic!("{id} in {v}"))
}

/// Run the CLI with `stdin` piped in.
fn cli_stdin(state_dir: &Path, args: &[&str], stdin: &str) -> (i32, Value) {
    let out = cli_input(Some(state_dir), args, &[], Some(stdin));
    (code(&out), json(&out))
}

#[test]
fn every_fixture_is_detected_and_normalized() {
    let expected = [
        ("clawhub-search.json", "clawhub", 5),
        ("clawhub-list.json", "clawhub", 5),
        ("clawhub-detail.json", "clawhub", 1),
        ("skillssh-search.json", "skillssh", 5),
        ("smithery-servers.json", "smithery", 4),
        ("glama-servers.json", "glama", 3),
        ("skillhub-search.json", "skillhub", 3),
        ("github-search.json", "github", 4),
        ("github-repo.json", "github", 1),
        ("mcpmarket-page.json", "mcpmarket", 4),
    ];
    for (file, registry, n) in expected {
        let (rc, v) = normalize(file, &[]);
        assert_eq!(rc, 0, "{file}: {v}");
        assert_eq!(v["registry"], registry, "{file}");
        assert_eq!(v["candidates"].as_array().unwrap().len(), n, "{file}");
        for c in v["candidates"].as_array().unwrap() {
            let id = c["skill_id"].as_str().unwrap();
            assert!(id.starts_with(&format!("{registry}:")), "{file}: {id}");
            assert_eq!(c["source"], registry);
            if let Some(t) = c["updated_at"].as_str() {
                assert!(
                    t.ends_with('Z') && t.len() == 20,
                    "{file}: ISO 8601 UTC, got {t}"
                );
            }
        }
    }
}

#[test]
fn clawhub_specifics() {
    let (_, v) = normalize("clawhub-list.json", &["--from", "clawhub"]);
    for c in v["candidates"].as_array().unwrap() {
        let cats = c["categories"].to_string();
        assert!(
            !cats.contains("latest") && !cats.contains("stable"),
            "tags are version tags, not categories: {cats}"
        );
    }
    let sus = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["skill_id"]
                .as_str()
                .unwrap()
                .ends_with("quick-shell-helper")
        })
        .unwrap();
    assert_eq!(sus["registry"]["verdict"], "suspicious");
    assert!(
        sus["registry"]["flags"]
            .to_string()
            .contains("obfuscated_shell")
    );
    let mal = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["skill_id"].as_str().unwrap().ends_with("wallet-sync-pro"))
        .unwrap();
    assert_eq!(mal["registry"]["is_malware_blocked"], true);
    let minutes = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["skill_id"]
                .as_str()
                .unwrap()
                .ends_with("feishu-meeting-minutes")
        })
        .unwrap();
    assert_eq!(
        minutes["popularity"]["downloads"], 1532,
        "a count given as a string"
    );
    // Two `pdf` skills of different owners stay two skills.
    let (_, s) = normalize("clawhub-search.json", &[]);
    let pdfs: Vec<&Value> = s["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["skill_id"] == "clawhub:pdf")
        .collect();
    assert_eq!(pdfs.len(), 2);
    assert_ne!(pdfs[0]["owner"], pdfs[1]["owner"]);
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("c.json");
    fs::write(&f, s.to_string()).unwrap();
    let (_, filtered) = filter_file(d.path(), &f, "manual", &[]);
    let dup_pdfs = filtered["dropped"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["skill_id"] == "clawhub:pdf" && x["reason"] == "duplicate")
        .count();
    assert_eq!(
        dup_pdfs, 0,
        "same slug, different owners: not duplicates: {filtered}"
    );
    // The detail shape merges the top-level owner and moderation.
    let (_, d) = normalize("clawhub-detail.json", &[]);
    let c = &d["candidates"][0];
    assert!(
        c["url"]
            .as_str()
            .unwrap()
            .starts_with("https://clawhub.ai/")
    );
    assert_eq!(c["registry"]["verdict"], "suspicious");
}

#[test]
fn bad_items_are_reported_and_the_rest_normalized() {
    let (rc, v) = normalize("bad-items.json", &[]);
    assert_eq!(rc, 7, "partial result");
    assert_eq!(v["candidates"].as_array().unwrap().len(), 3);
    let skipped: Vec<(u64, String)> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["index"].as_u64().unwrap(),
                s["field"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(skipped, vec![(1, String::new()), (2, "slug".to_owned())]);
    let warned: Vec<String> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["field"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        warned.contains(&"updatedAt".to_owned()) && warned.contains(&"stats.downloads".to_owned()),
        "{warned:?}"
    );
}

#[test]
fn skillssh_monorepo_and_string_counts() {
    let (_, v) = normalize("skillssh-search.json", &[]);
    let react = by_id(&v, "skillssh:vercel-labs/agent-skills/react-best-practices");
    assert_eq!(
        react["source_code_url"],
        "https://github.com/vercel-labs/agent-skills"
    );
    let perf = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["skill_id"]
                .as_str()
                .unwrap()
                .contains("react-native-perf")
        })
        .unwrap();
    assert_eq!(perf["popularity"]["downloads"], 18230);
    assert_eq!(
        perf["skill_id"],
        perf["skill_id"].as_str().unwrap().to_lowercase()
    );
}

#[test]
fn skillhub_needs_base_url_and_smithery_counts_parse() {
    let (_, v) = normalize("skillhub-search.json", &[]);
    assert!(
        v["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["url"] == ""),
        "no invented page URLs"
    );
    let (_, v) = normalize(
        "skillhub-search.json",
        &["--base-url", "https://hub.example.com"],
    );
    assert_eq!(
        by_id(&v, "skillhub:iflytek--meeting-notes")["url"],
        "https://hub.example.com/skills/iflytek--meeting-notes"
    );
    let (_, v) = normalize("smithery-servers.json", &[]);
    let amap = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["skill_id"].as_str().unwrap().contains("amap"))
        .unwrap();
    assert_eq!(amap["popularity"]["downloads"], 2310);
    let (_, v) = normalize("mcpmarket-page.json", &[]);
    let counts: Vec<u64> = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["popularity"]["downloads"].as_u64())
        .collect();
    assert!(counts.contains(&12_400), "\"12.4k\" parses: {counts:?}");
}

#[test]
fn normalize_then_filter_on_every_registry() {
    let d = tempfile::tempdir().unwrap();
    for file in fs::read_dir(root().join("tests/fixtures/registries")).unwrap() {
        let path = file.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let out = cli(
            None,
            &["normalize", "--compact", path.to_str().unwrap()],
            &[],
        );
        let normalized = String::from_utf8(out.stdout).unwrap();
        let n = json(&crate::common::cli(
            None,
            &["normalize", path.to_str().unwrap()],
            &[],
        ))["candidates"]
            .as_array()
            .unwrap()
            .len();
        let (rc, v) = cli_stdin(
            d.path(),
            &[
                "filter",
                "--candidates",
                "-",
                "--mode",
                "manual",
                "--no-discover",
            ],
            &normalized,
        );
        let kept = v["kept"].as_array().unwrap().len();
        // Exit 10 exactly when nothing was kept (nothing usable).
        assert_eq!(
            rc,
            if kept == 0 { 10 } else { 0 },
            "{}: {v}",
            path.display()
        );
        let dropped = v["dropped"].as_array().unwrap().len();
        assert_eq!(
            kept + dropped,
            n,
            "{}: every candidate accounted for",
            path.display()
        );
        assert_eq!(v["summary"]["input"], n);
        for x in v["dropped"].as_array().unwrap() {
            assert!(
                !x["reason"].as_str().unwrap().is_empty()
                    && !x["detail"].as_str().unwrap().is_empty()
            );
        }
    }
}

#[test]
fn filter_reports_every_reason_with_details() {
    let d = tempfile::tempdir().unwrap();
    let (rc, v) =
        crate::candidates::filter_file(d.path(), &crate::common::real_sample(), "manual", &[]);
    assert_eq!(rc, 0);
    let reasons: Vec<&str> = v["dropped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["reason"].as_str().unwrap())
        .collect();
    for r in [
        "duplicate",
        "blacklist_category",
        "description_too_short",
        "stale_and_low_popularity",
    ] {
        assert!(
            reasons.contains(&r),
            "the sample data exercises {r}: {reasons:?}"
        );
    }
    let dup = v["dropped"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["reason"] == "duplicate")
        .unwrap();
    assert!(dup["duplicate_of"].is_string() && dup["matched_on"].is_string());
    assert_eq!(v["mode"], "manual");
}

pub fn filter_file(state: &Path, file: &Path, mode: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec![
        "filter",
        "--candidates",
        file.to_str().unwrap(),
        "--mode",
        mode,
        "--no-discover",
    ];
    args.extend_from_slice(extra);
    let out = cli(Some(state), &args, &[]);
    (code(&out), json(&out))
}

#[test]
fn discovery_finds_installed_skills_in_skills_dirs_and_home() {
    let d = tempfile::tempdir().unwrap();
    let skills = d.path().join("skills/docs/pdf-tables");
    fs::create_dir_all(&skills).unwrap();
    fs::write(
        skills.join("SKILL.md"),
        "---\nname: pdf-tables\ndescription: Tables from PDFs.\n---\n",
    )
    .unwrap();
    let broken = d.path().join("skills/broken");
    fs::create_dir_all(&broken).unwrap();
    fs::write(broken.join("SKILL.md"), "no frontmatter").unwrap();
    let cands = d.path().join("c.json");
    let c = json!({"candidates": [{"skill_id": "clawhub:pdf-tables", "name": "PDF Tables", "url": "https://clawhub.ai/x/pdf-tables",
        "description": "Extract tables from PDF files into spreadsheets.", "source": "clawhub", "updated_at": "2026-11-01T00:00:00Z",
        "popularity": {"downloads": 900, "stars": 20}}]});
    fs::write(&cands, c.to_string()).unwrap();
    let skills_dir = d.path().join("skills");
    let out = cli(
        Some(d.path()),
        &[
            "filter",
            "--candidates",
            cands.to_str().unwrap(),
            "--mode",
            "manual",
            "--no-discover",
            "--skills-dir",
            skills_dir.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(
        code(&out),
        10,
        "the only candidate is installed: nothing usable"
    );
    let v = json(&out);
    assert_eq!(v["dropped"][0]["reason"], "already_installed", "{v}");
    assert!(
        v["dropped"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("pdf-tables")
    );
    assert_eq!(v["discovery"]["installed_skills"], 1);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("broken"),
        "malformed skills are warned about, not fatal"
    );
    // The same skill under ~/.hermes/skills/<category>/ is found by default discovery.
    let home = tempfile::tempdir().unwrap();
    let hermes = home.path().join(".hermes/skills/documents/pdf-tables");
    fs::create_dir_all(&hermes).unwrap();
    fs::write(hermes.join("SKILL.md"), "---\nname: pdf-tables\n---\n").unwrap();
    // Run `filter` as a user whose HOME holds that skill folder.
    let filter_at_home = |extra: &[&str]| {
        let out = Proc::new(env!("CARGO_BIN_EXE_skill-recommender"))
            .env_clear()
            .env("HOME", home.path())
            .env("SKILL_RECOMMENDER_CACHE_DIR", cache_dir())
            .current_dir(home.path())
            .args([
                "--state-dir",
                d.path().to_str().unwrap(),
                "--now",
                NOW,
                "filter",
            ])
            .args(["--candidates", cands.to_str().unwrap(), "--mode", "manual"])
            .args(extra)
            .output()
            .unwrap();
        json(&out)
    };
    let v = filter_at_home(&[]);
    assert_eq!(v["dropped"][0]["reason"], "already_installed", "{v}");
    // --no-discover turns it off.
    let v = filter_at_home(&["--no-discover"]);
    assert_eq!(v["kept"].as_array().unwrap().len(), 1);
}

#[test]
fn bad_candidate_input_is_invalid_input_and_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("c.json");
    for (content, _why) in [
        ("not json", "parse"),
        ("{\"hits\": [1]}", "shape"),
        ("[\"pdf-tool\", \"k8s-tool\"]", "strings"),
    ] {
        fs::write(&f, content).unwrap();
        let out = cli(
            Some(d.path()),
            &[
                "filter",
                "--candidates",
                f.to_str().unwrap(),
                "--mode",
                "daily",
                "--no-discover",
            ],
            &[],
        );
        assert_eq!(code(&out), 3);
        assert_eq!(json(&out)["error"]["field"], "candidates");
    }
    let out = cli(
        Some(d.path()),
        &[
            "filter",
            "--candidates",
            "/no/such/file.json",
            "--mode",
            "daily",
        ],
        &[],
    );
    assert_eq!(code(&out), 3);
    assert!(
        json(&out)["error"]["message"]
            .as_str()
            .unwrap()
            .contains("/no/such/file.json")
    );
    assert!(!d.path().join("state.json").exists() && !d.path().join("history.json").exists());
}

#[test]
fn filter_never_writes_state() {
    let d = tempfile::tempdir().unwrap();
    fs::write(
        d.path().join("state.json"),
        "{\"daily_rec_status\": \"enabled\"}",
    )
    .unwrap();
    let (rc, _) = filter_file(d.path(), &crate::common::real_sample(), "daily", &[]);
    assert_eq!(rc, 0);
    assert_eq!(
        fs::read_to_string(d.path().join("state.json")).unwrap(),
        "{\"daily_rec_status\": \"enabled\"}"
    );
    assert!(!d.path().join("history.json").exists());
}

#[test]
fn the_component_filters_exactly_like_the_native_build() {
    use host_harness::{Command, Ctx, MemoryStateStore, Mode};
    let sample = crate::common::real_sample_text();
    let state = r#"{"installed_skill_ids": ["clawhub:meeting-minutes-cn"], "timezone": "Asia/Shanghai",
        "last_actions": [{"skill_id": "clawhub:fridge-chef", "action": "reject", "date": "2026-11-20T00:00:00+00:00"}]}"#;
    let history = r#"{"recommendations": [{"date": "2026-11-10T00:00:00+00:00", "skill_id": "mcpmarket:portfolio-morning-brief", "user_action": "shown"}]}"#;
    for mode in [Mode::Manual, Mode::Daily] {
        let store = MemoryStateStore::with(Some(state), Some(history));
        let ctx = Ctx::at("2026-11-29T09:00:00Z");
        let wasm = crate::common::harness()
            .run(
                &store,
                &ctx,
                &Command::Filter {
                    mode,
                    candidates: sample.clone(),
                    installed: vec![],
                    agent: Default::default(),
                },
            )
            .unwrap();
        let mut native_store = guest::MemoryStore::with(Some(state), Some(history));
        let native = guest::filter::run(&ctx, &mut native_store, mode, &sample, &[]).unwrap();
        assert_eq!(wasm, native, "{mode:?}");
        let reasons: Vec<&str> = wasm["dropped"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["reason"].as_str().unwrap())
            .collect();
        assert!(
            reasons.contains(&"already_installed")
                && reasons.contains(&"rejected_recently")
                && reasons.contains(&"recommended_recently"),
            "{reasons:?}"
        );
    }
}

/// `filter`'s text leaves the component in pieces of ~256 KiB (`filter-text`): a result of several
/// pieces prints as one JSON document ending in one newline, pretty and `--compact` the same value,
/// every candidate in it exactly once.
#[test]
fn a_filter_result_of_several_pieces_prints_as_one_document() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("c.json");
    let n = 3_000;
    fs::write(&f, crate::scale::candidates(n)).unwrap();
    let args = [
        "filter",
        "--candidates",
        f.to_str().unwrap(),
        "--mode",
        "manual",
        "--no-discover",
    ];
    let pretty = cli(Some(d.path()), &args, &[]);
    let compact = cli(Some(d.path()), &[&["--compact"][..], &args].concat(), &[]);
    assert_eq!((code(&pretty), code(&compact)), (0, 0));
    let text = String::from_utf8(pretty.stdout.clone()).unwrap();
    assert!(
        text.len() > 3 * (256 << 10),
        "several pieces: {} bytes",
        text.len()
    );
    assert!(text.ends_with("}\n") && !text.ends_with("\n\n"));
    let one_line = String::from_utf8(compact.stdout.clone()).unwrap();
    assert_eq!(one_line.matches('\n').count(), 1, "compact: one line");
    let (v, c) = (json(&pretty), json(&compact));
    assert_eq!(v, c);
    let kept = v["kept"].as_array().unwrap();
    assert_eq!(v["summary"]["kept"], kept.len());
    assert_eq!(kept.len() + v["dropped"].as_array().unwrap().len(), n);
    let ids: std::collections::BTreeSet<&str> = kept
        .iter()
        .map(|k| k["skill_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), kept.len(), "no candidate twice");
}
