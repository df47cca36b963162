//! Hostile input through the real CLI: each case ends with a clear error (or a clean, bounded
//! result) inside the limits, and writes nothing to state. The guest-side cases (a call that runs
//! forever or allocates without bound) are in `sandbox.rs` (`runaway_guest_*`, `memory_hog_*`).

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

use crate::common::{cli, code, json};

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Ended by the program, not by a signal, within the documented codes.
fn clean_exit(out: &Output) -> i32 {
    let c = out
        .status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal: {}", stderr(out)));
    assert!((0..=9).contains(&c), "exit {c}: {}", stderr(out));
    c
}

fn error_of(out: &Output) -> Value {
    let v = json(out);
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{v}"
    );
    v["error"].clone()
}

/// Ended cleanly with `code` and an error whose message contains `needle`.
fn refused(out: &Output, code: i32, needle: &str) {
    assert_eq!(clean_exit(out), code);
    assert!(error_of(out)["message"].as_str().unwrap().contains(needle));
}

/// No state or history file was written (a `state.lock` may exist: it is the lock, not state).
fn assert_no_state(dir: &Path) {
    for f in ["state.json", "history.json"] {
        assert!(!dir.join(f).exists(), "{f} was written");
    }
}

fn recommend(dir: &Path, file: &Path) -> Output {
    cli(
        Some(dir),
        &[
            "recommend",
            "--mode",
            "manual",
            "--candidates",
            file.to_str().unwrap(),
            "--json",
            "--no-discover",
        ],
        &[],
    )
}

fn filter(dir: &Path, file: &Path) -> Output {
    cli(
        Some(dir),
        &[
            "filter",
            "--candidates",
            file.to_str().unwrap(),
            "--mode",
            "manual",
            "--no-discover",
        ],
        &[],
    )
}

#[test]
fn a_million_candidates_over_the_input_cap_are_refused_before_reading_them_all() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("million.json");
    let mut w = std::io::BufWriter::new(fs::File::create(&f).unwrap());
    write!(w, "{{\"candidates\": [").unwrap();
    for i in 0..1_000_000 {
        let sep = if i == 0 { "" } else { "," };
        write!(w, "{sep}{{\"skill_id\":\"clawhub:skill-{i}\",\"name\":\"skill {i}\",\"url\":\"https://clawhub.ai/o/s{i}\"}}").unwrap();
    }
    write!(w, "]}}").unwrap();
    drop(w);
    assert!(fs::metadata(&f).unwrap().len() > 64 << 20);
    let out = recommend(t.path(), &f);
    assert_eq!(clean_exit(&out), 3);
    let e = error_of(&out);
    assert_eq!(e["field"], "candidates");
    assert!(
        e["message"].as_str().unwrap().contains("input limit"),
        "{e}"
    );
    assert_no_state(t.path());
}

#[test]
fn a_million_tiny_items_inside_the_cap_end_cleanly() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("tiny.json");
    let body = format!("[{}{{}}]", "{},".repeat(999_999));
    fs::write(&f, body).unwrap();
    let out = recommend(t.path(), &f);
    // Either every item is dropped as invalid (silent, exit 0) or the memory cap ends it (exit 5):
    // both are clean, and neither writes state.
    match clean_exit(&out) {
        0 => {
            let v = json(&out);
            assert_eq!(v["silent"], true);
            assert_eq!(v["summary"]["input"], 1_000_000);
        }
        5 => assert_eq!(error_of(&out)["code"], "sandbox_limit"),
        c => panic!("exit {c}: {}", stderr(&out)),
    }
    assert_no_state(t.path());
}

#[test]
fn deeply_nested_json_is_invalid_input_and_deeply_nested_state_is_a_state_error() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("deep.json");
    fs::write(&f, "[".repeat(200_000)).unwrap();
    let out = filter(t.path(), &f);
    refused(&out, 3, "recursion limit");
    assert_no_state(t.path());

    let s = tempfile::tempdir().unwrap();
    let deep = format!("{{\"x\": {}1{}}}", "[".repeat(100_000), "]".repeat(100_000));
    fs::write(s.path().join("state.json"), &deep).unwrap();
    let out = cli(Some(s.path()), &["shown", "--skill-id", "clawhub:a"], &[]);
    assert_eq!(clean_exit(&out), 4);
    assert_eq!(
        fs::read_to_string(s.path().join("state.json")).unwrap(),
        deep,
        "left as it was"
    );
    assert!(!s.path().join("history.json").exists());
}

fn skill_with_frontmatter(dir: &Path, frontmatter: &str) -> std::path::PathBuf {
    let d = dir.join("skill");
    fs::create_dir_all(&d).unwrap();
    fs::write(
        d.join("SKILL.md"),
        format!("---\n{frontmatter}\n---\n# Body\n"),
    )
    .unwrap();
    d
}

#[test]
fn deeply_nested_yaml_and_alias_bombs_are_invalid_not_hangs() {
    let t = tempfile::tempdir().unwrap();
    let nested = format!(
        "name: deep\ndescription: {}x{}",
        "[".repeat(50_000),
        "]".repeat(50_000)
    );
    let mut bomb = String::from(
        "name: bomb\ndescription: ok description\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for (i, prev) in ["b", "c", "d", "e", "f", "g", "h", "i"]
        .iter()
        .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
    {
        bomb.push_str(&format!(
            "{i}: &{i} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
        ));
    }
    for (label, fm) in [("nested", nested), ("alias bomb", bomb)] {
        let d = skill_with_frontmatter(&t.path().join(label.replace(' ', "-")), &fm);
        let out = cli(None, &["validate", d.to_str().unwrap()], &[]);
        assert_eq!(clean_exit(&out), 8, "{label}: {}", stderr(&out));
        let v = json(&out);
        assert_eq!(v["valid"], false, "{label}");
        let msgs = v["errors"].to_string();
        assert!(
            msgs.contains("depth")
                || msgs.contains("alias")
                || msgs.contains("nodes")
                || msgs.contains("YAML"),
            "{label}: {msgs}"
        );
        // The scanner reads the same file without trouble.
        let out = cli(None, &["scan-bundle", d.to_str().unwrap()], &[]);
        clean_exit(&out);
        assert!(json(&out)["policy"].is_string());
    }
}

#[test]
fn invalid_utf8_is_refused_by_name_everywhere() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("bad.json");
    fs::write(&f, b"{\"candidates\": [{\"skill_id\": \"\xff\xfe\"}]}").unwrap();
    let out = filter(t.path(), &f);
    refused(&out, 3, "not UTF-8");
    assert_no_state(t.path());

    let s = tempfile::tempdir().unwrap();
    fs::write(
        s.path().join("state.json"),
        b"{\"daily_rec_status\": \"\xff\"}",
    )
    .unwrap();
    let out = cli(Some(s.path()), &["status"], &[]);
    refused(&out, 4, "state.json");

    // A SKILL.md that is not UTF-8 is reported, not decoded into garbage.
    let d = t.path().join("skill");
    fs::create_dir_all(&d).unwrap();
    fs::write(
        d.join("SKILL.md"),
        b"---\nname: x\ndescription: \xff\xfe\xfd\n---\n",
    )
    .unwrap();
    let out = cli(None, &["validate", d.to_str().unwrap()], &[]);
    assert_eq!(clean_exit(&out), 8);
}

#[test]
fn a_sixty_megabyte_bundle_is_scanned_within_the_caps() {
    let t = tempfile::tempdir().unwrap();
    let d = skill_with_frontmatter(
        t.path(),
        "name: skill\ndescription: a perfectly ordinary skill",
    );
    let line = "plain words in a long reference document\n";
    let mut w = std::io::BufWriter::new(fs::File::create(d.join("reference.md")).unwrap());
    for _ in 0..(60 << 20) / line.len() {
        w.write_all(line.as_bytes()).unwrap();
    }
    drop(w);
    let out = cli(None, &["scan-bundle", d.to_str().unwrap()], &[]);
    assert_eq!(clean_exit(&out), 8, "an incomplete scan is not an allow");
    let v = json(&out);
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule_id"] == "structural.over-limit"),
        "{v}"
    );
    assert!(v["stats"]["bytes"].as_u64().unwrap() < 50 << 20);
}

#[test]
fn a_zip_bomb_is_reported_not_inflated() {
    let t = tempfile::tempdir().unwrap();
    let path = t.path().join("bomb.zip");
    let mut w = zip::ZipWriter::new(fs::File::create(&path).unwrap());
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    w.start_file("bomb/SKILL.md", opts).unwrap();
    w.write_all(b"---\nname: bomb\ndescription: nothing to see here at all\n---\n")
        .unwrap();
    w.start_file("bomb/zeros.txt", opts).unwrap();
    let zeros = vec![b'0'; 1 << 20];
    for _ in 0..64 {
        w.write_all(&zeros).unwrap();
    }
    w.finish().unwrap();
    assert!(
        fs::metadata(&path).unwrap().len() < 1 << 20,
        "64 MiB compressed to under 1 MiB"
    );
    let out = cli(None, &["scan-bundle", path.to_str().unwrap()], &[]);
    assert_eq!(clean_exit(&out), 8);
    let v = json(&out);
    assert!(
        v.to_string().contains("ratio") || v.to_string().contains("bomb"),
        "{v}"
    );
    assert!(
        v["stats"]["bytes"].as_u64().unwrap() < 1 << 20,
        "the bomb was not inflated"
    );
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_is_reported_not_followed() {
    let t = tempfile::tempdir().unwrap();
    let d = skill_with_frontmatter(
        t.path(),
        "name: skill\ndescription: a skill with looping links",
    );
    std::os::unix::fs::symlink("b", d.join("a")).unwrap();
    std::os::unix::fs::symlink("a", d.join("b")).unwrap();
    std::os::unix::fs::symlink(".", d.join("self")).unwrap();
    std::os::unix::fs::symlink("..", d.join("up")).unwrap();
    let out = cli(None, &["scan-bundle", d.to_str().unwrap()], &[]);
    clean_exit(&out);
    let v = json(&out);
    assert!(v["policy"].is_string());
    let text = v.to_string();
    assert!(text.contains("symlink"), "{text}");
}

#[test]
fn a_path_of_4096_characters_is_handled() {
    // In a bundle: nested folders whose path is over 4,096 characters.
    let t = tempfile::tempdir().unwrap();
    let d = skill_with_frontmatter(
        t.path(),
        "name: skill\ndescription: a skill with a very deep folder",
    );
    let mut deep = d.clone();
    for i in 0..17 {
        deep = deep.join(format!("{i:02}{}", "x".repeat(240)));
    }
    assert!(deep.strip_prefix(&d).unwrap().to_str().unwrap().len() > 4096);
    if fs::create_dir_all(&deep).is_ok() {
        fs::write(deep.join("note.md"), "deep").unwrap();
    }
    let out = cli(None, &["scan-bundle", d.to_str().unwrap()], &[]);
    clean_exit(&out);
    assert!(json(&out)["policy"].is_string());

    // As a state directory: a clear error, nothing created.
    let long = t.path().join("s".repeat(4096));
    let out = cli(Some(&long), &["prompt-daily", "--source", "manual"], &[]);
    let c = clean_exit(&out);
    assert_ne!(c, 0);
    assert!(!error_of(&out)["message"].as_str().unwrap().is_empty());

    // As a skill id: accepted or refused, but never a crash.
    let s = tempfile::tempdir().unwrap();
    let id = format!("clawhub:{}", "a".repeat(4096));
    let out = cli(Some(s.path()), &["shown", "--skill-id", &id], &[]);
    clean_exit(&out);
    assert!(code(&out) == 0 || code(&out) == 3);
}
