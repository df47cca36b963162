//! Shared helpers: one harness per test binary, temp dirs, running the CLI.

use std::path::{Path, PathBuf};
use std::process::{Command as Proc, Output};
use std::sync::OnceLock;

use host_harness::{CacheMode, Harness, Limits};
use serde_json::Value;

pub const NOW: &str = "2026-11-29T09:00:00Z";

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A cache directory shared by the tests (so each compiles the component at most once).
pub fn cache_dir() -> PathBuf {
    root().join("target").join("e2e-cache")
}

/// The real component with test limits.
pub fn harness() -> &'static Harness {
    static H: OnceLock<Harness> = OnceLock::new();
    H.get_or_init(|| {
        Harness::builder()
            .cache(CacheMode::Dir(cache_dir()))
            .limits(Limits::for_testing())
            .build()
            .expect("the real component loads")
    })
}

/// The real component with test limits and its own cache directory.
pub fn cached_in(dir: &Path) -> Harness {
    Harness::builder()
        .cache(CacheMode::Dir(dir.into()))
        .limits(Limits::for_testing())
        .build()
        .expect("the real component loads")
}

/// The hostile fixture component with the given limits.
pub fn hostile(limits: Limits) -> Harness {
    let bytes =
        std::fs::read(env!("SKILL_RECOMMENDER_HOSTILE_WASM")).expect("hostile fixture built");
    Harness::builder()
        .component_bytes(bytes)
        .cache(CacheMode::Dir(cache_dir()))
        .limits(limits)
        .build()
        .expect("the hostile fixture loads")
}

/// Run the CLI with an isolated HOME and the shared cache; returns the output.
pub fn cli(state_dir: Option<&Path>, args: &[&str], env: &[(&str, &str)]) -> Output {
    cli_input(state_dir, args, env, None)
}

/// [`cli`] with `stdin` piped in (or no stdin at all).
pub fn cli_input(
    state_dir: Option<&Path>,
    args: &[&str],
    env: &[(&str, &str)],
    stdin: Option<&str>,
) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let home = tempfile::tempdir().unwrap();
    let mut cmd = Proc::new(env!("CARGO_BIN_EXE_skill-recommender"));
    cmd.env_clear()
        .env("HOME", home.path())
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("SKILL_RECOMMENDER_CACHE_DIR", cache_dir());
    for (k, v) in env {
        cmd.env(k, v);
    }
    if let Some(d) = state_dir {
        cmd.arg("--state-dir").arg(d);
    }
    cmd.args(["--now", NOW]).args(args);
    let out = match stdin {
        None => cmd.output().expect("running the CLI"),
        Some(text) => {
            let mut child = cmd
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("running the CLI");
            child
                .stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
            child.wait_with_output().unwrap()
        }
    };
    drop(home);
    out
}

/// stdout as JSON.
pub fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

/// Read a file, or "" if it does not exist.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The bundled sample candidates as real search results: without their `"demo": true` (which marks
/// every card as a demonstration and records nothing), for tests of recording and cards.
pub fn real_sample_text() -> String {
    let text = std::fs::read_to_string(root().join("data/sample_candidates.json")).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    v.as_object_mut().unwrap().remove("demo");
    serde_json::to_string_pretty(&v).unwrap()
}

/// [`real_sample_text`] in a file (written once per test binary, under `target/`).
pub fn real_sample() -> PathBuf {
    static P: OnceLock<PathBuf> = OnceLock::new();
    P.get_or_init(|| {
        let path = root()
            .join("target")
            .join(format!("e2e-real-sample-{}.json", std::process::id()));
        std::fs::write(&path, real_sample_text()).unwrap();
        path
    })
    .clone()
}
