//! The conformance suite through the Rust CLI (the reference implementation).
//!
//! Every `tests/conformance/cases/*.json` is run against the built `skill-recommender` binary in a fresh
//! state directory, files directory and home; the exit code, the stdout JSON and the state files after
//! the call must equal the case's `expect`. The format is documented in `tests/conformance/README.md`;
//! the Node and Python hosts run the same cases.
//!
//! `UPDATE_CONFORMANCE=1 cargo test -p host-harness --test conformance` rewrites each case's `expect`
//! from what the CLI actually did (the rest of each file is kept byte for byte). Review the diff before
//! committing: expected values come from the reference, never from hand-editing.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Map, Value, json};

const CLI: &str = env!("CARGO_BIN_EXE_skill-recommender");

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance/cases")
}

/// What one run of the CLI produced, with temp paths replaced by `$STATE_DIR` / `$FILES`.
struct Outcome {
    exit: i64,
    stdout: Value,
    state_after: Value,
    history_after: Value,
}

/// Write a case's file value: `null` = absent, `{"$text": "..."}` = exact bytes, else pretty JSON.
fn write_value(path: &Path, value: &Value) -> Result<(), String> {
    if value.is_null() {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
    }
    let bytes = match text_of(value) {
        Some(t) => t.to_owned(),
        None => serde_json::to_string_pretty(value).expect("JSON serializes") + "\n",
    };
    std::fs::write(path, bytes).map_err(|e| format!("write {}: {e}", path.display()))
}

/// The `$text` of a `{"$text": "..."}` object.
fn text_of(value: &Value) -> Option<&str> {
    let obj = value.as_object()?;
    (obj.len() == 1).then(|| obj.get("$text")?.as_str())?
}

/// A state file after the run: `null` if absent, the exact bytes as `$text` if they are not JSON or if
/// the case gave exact bytes before and they are unchanged, else the parsed JSON.
fn read_after(path: &Path, before: &Value) -> Value {
    let Ok(bytes) = std::fs::read(path) else {
        return Value::Null;
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if text_of(before) == Some(text.as_str()) {
        return json!({ "$text": text });
    }
    serde_json::from_str(&text).unwrap_or_else(|_| json!({ "$text": text }))
}

/// Replace the temp paths inside every string value.
fn redact(value: &mut Value, subs: &[(String, &str)]) {
    match value {
        Value::String(s) => {
            for (from, to) in subs {
                if s.contains(from.as_str()) {
                    *s = s.replace(from.as_str(), to);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact(v, subs)),
        Value::Object(map) => map.values_mut().for_each(|v| redact(v, subs)),
        _ => {}
    }
}

/// Remove a dotted path (`paths.cache`) from a JSON value, if present.
fn remove_path(value: &mut Value, dotted: &str) {
    let mut parts: Vec<&str> = dotted.split('.').collect();
    let Some(last) = parts.pop() else { return };
    let mut cur = value;
    for p in parts {
        match cur.get_mut(p) {
            Some(next) => cur = next,
            None => return,
        }
    }
    if let Some(obj) = cur.as_object_mut() {
        obj.remove(last);
    }
}

fn run_case(case: &Value, cache_dir: &Path) -> Result<Outcome, String> {
    let tmp = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
    let state_dir = tmp.path().join("state");
    let files_dir = tmp.path().join("files");
    let home = tmp.path().join("home");
    for d in [&state_dir, &files_dir, &home] {
        std::fs::create_dir_all(d).map_err(|e| format!("create {}: {e}", d.display()))?;
    }
    let state_before = &case["state_before"];
    let history_before = &case["history_before"];
    write_value(&state_dir.join("state.json"), state_before)?;
    write_value(&state_dir.join("history.json"), history_before)?;
    if let Some(files) = case["files"].as_object() {
        for (name, value) in files {
            write_value(&files_dir.join(name), value)?;
        }
    }
    let sd = state_dir.to_string_lossy().into_owned();
    let fd = files_dir.to_string_lossy().into_owned();
    let mut args: Vec<String> = vec!["--state-dir".into(), sd.clone()];
    for (flag, key) in [("--now", "now"), ("--timezone", "timezone")] {
        if let Some(v) = case[key].as_str() {
            args.push(flag.into());
            args.push(v.into());
        }
    }
    let case_args = case["args"].as_array().ok_or("`args` is not an array")?;
    for a in case_args {
        let a = a.as_str().ok_or("`args` holds a non-string")?;
        args.push(a.replace("$STATE_DIR", &sd).replace("$FILES", &fd));
    }
    let mut cmd = Command::new(CLI);
    cmd.args(&args)
        .current_dir(&files_dir)
        .env_remove("SKILL_RECOMMENDER_STATE_DIR")
        .env_remove("HERMES_HOME")
        // The locale decides the language when a case passes no --lang: pinned, so the runner's own
        // locale never changes a case (a case's `env` may set it).
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "zh_CN.UTF-8")
        .env("HOME", &home)
        .env("SKILL_RECOMMENDER_CACHE_DIR", cache_dir);
    for (k, v) in case["env"].as_object().into_iter().flatten() {
        cmd.env(k, v.as_str().unwrap_or_default());
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {CLI}: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    if let Some(input) = case["stdin"].as_str() {
        // A command that does not read stdin may exit first; a broken pipe is then expected.
        let _ = stdin.write_all(input.as_bytes());
    }
    drop(stdin);
    let out = child
        .wait_with_output()
        .map_err(|e| format!("waiting for the CLI: {e}"))?;
    let stdout_text = String::from_utf8_lossy(&out.stdout);
    let mut stdout = if stdout_text.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&stdout_text).map_err(|e| {
            format!(
                "stdout is not JSON ({e}):\n{stdout_text}\nstderr: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })?
    };
    let mut subs = vec![(sd, "$STATE_DIR"), (fd, "$FILES")];
    for (dir, name) in [(&state_dir, "$STATE_DIR"), (&files_dir, "$FILES")] {
        if let Ok(canon) = dir.canonicalize()
            && canon != *dir
        {
            subs.push((canon.to_string_lossy().into_owned(), name));
        }
    }
    redact(&mut stdout, &subs);
    for p in case["ignore"].as_array().into_iter().flatten() {
        remove_path(&mut stdout, p.as_str().unwrap_or_default());
    }
    Ok(Outcome {
        exit: out.status.code().map_or(-1, i64::from),
        stdout,
        state_after: read_after(&state_dir.join("state.json"), state_before),
        history_after: read_after(&state_dir.join("history.json"), history_before),
    })
}

/// Readable differences between two JSON values, one line per differing path.
fn diff(path: &str, want: &Value, got: &Value, out: &mut Vec<String>) {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            for (k, wv) in w {
                let p = format!("{path}.{k}");
                match g.get(k) {
                    Some(gv) => diff(&p, wv, gv, out),
                    None => out.push(format!("{p}: missing (expected {})", short(wv))),
                }
            }
            for (k, gv) in g {
                if !w.contains_key(k) {
                    out.push(format!("{path}.{k}: unexpected {}", short(gv)));
                }
            }
        }
        (Value::Array(w), Value::Array(g)) => {
            for (i, (wv, gv)) in w.iter().zip(g).enumerate() {
                diff(&format!("{path}[{i}]"), wv, gv, out);
            }
            if w.len() != g.len() {
                out.push(format!(
                    "{path}: expected {} items, got {}",
                    w.len(),
                    g.len()
                ));
            }
        }
        _ if want != got => out.push(format!(
            "{path}: expected {}, got {}",
            short(want),
            short(got)
        )),
        _ => {}
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 160 {
        format!("{}…", s.chars().take(160).collect::<String>())
    } else {
        s
    }
}

fn check(case: &Value, got: &Outcome) -> Vec<String> {
    let expect = &case["expect"];
    let mut out = Vec::new();
    if expect.get("exit").and_then(Value::as_i64) != Some(got.exit) {
        out.push(format!(
            "exit: expected {}, got {}",
            short(&expect["exit"]),
            got.exit
        ));
    }
    for (key, value) in [
        ("stdout", &got.stdout),
        ("state_after", &got.state_after),
        ("history_after", &got.history_after),
    ] {
        match expect.get(key) {
            Some(want) => diff(key, want, value, &mut out),
            None => out.push(format!("{key}: missing from expect")),
        }
    }
    out
}

/// Replace the `expect` member (the last one in the file) with `expect`, keeping the rest as is.
fn rewrite_expect(path: &Path, text: &str, expect: &Value) -> Result<(), String> {
    let at = text.rfind("\n  \"expect\":").ok_or_else(|| {
        format!(
            "{}: no top-level \"expect\" member at the end to rewrite",
            path.display()
        )
    })?;
    let pretty = serde_json::to_string_pretty(expect).expect("JSON serializes");
    let indented = pretty.replace('\n', "\n  ");
    let new = format!("{}\n  \"expect\": {indented}\n}}\n", &text[..at]);
    std::fs::write(path, new).map_err(|e| format!("write {}: {e}", path.display()))
}

#[test]
fn conformance_cases() {
    let update = std::env::var_os("UPDATE_CONFORMANCE").is_some_and(|v| v == "1");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .expect("tests/conformance/cases exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 30,
        "expected at least 30 cases, found {}",
        paths.len()
    );
    let cache = tempfile::tempdir().expect("cache dir");
    let mut failures = String::new();
    let mut failed = 0;
    for path in &paths {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let text = std::fs::read_to_string(path).expect("case readable");
        let case: Value = match serde_json::from_str(&text) {
            Ok(c) => c,
            Err(e) => {
                failed += 1;
                let _ = writeln!(failures, "\n{name}: not valid JSON: {e}");
                continue;
            }
        };
        let outcome = match run_case(&case, cache.path()) {
            Ok(o) => o,
            Err(e) => {
                failed += 1;
                let _ = writeln!(failures, "\n{name}: {e}");
                continue;
            }
        };
        if update {
            let mut expect = Map::new();
            expect.insert("exit".into(), json!(outcome.exit));
            expect.insert("stdout".into(), outcome.stdout);
            expect.insert("state_after".into(), outcome.state_after);
            expect.insert("history_after".into(), outcome.history_after);
            if let Err(e) = rewrite_expect(path, &text, &Value::Object(expect)) {
                failed += 1;
                let _ = writeln!(failures, "\n{name}: {e}");
            }
            continue;
        }
        let diffs = check(&case, &outcome);
        if !diffs.is_empty() {
            failed += 1;
            let title = case["name"].as_str().unwrap_or_default();
            let _ = writeln!(failures, "\n{name} ({title}):");
            for d in diffs.iter().take(25) {
                let _ = writeln!(failures, "    {d}");
            }
            if diffs.len() > 25 {
                let _ = writeln!(failures, "    … and {} more", diffs.len() - 25);
            }
        }
    }
    assert!(
        failed == 0,
        "{failed} of {} conformance cases failed (run with UPDATE_CONFORMANCE=1 to regenerate \
         from the Rust CLI, then review the diff):{failures}",
        paths.len()
    );
}
