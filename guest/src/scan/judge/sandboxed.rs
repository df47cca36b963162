//! Where a script's lines run inside a disposable container (round 32c, scan35).
//!
//! Lifting the agent's permission checks is what the vendors document for a throw-away container
//! (a dev container, a sandbox the user built). Two shapes say a line runs there, not on the
//! user's machine:
//!
//! - the script refuses to go on outside a container: before the line, a test of a container
//!   marker (`/.dockerenv`, `/run/.containerenv`, `$container`, `/proc/1/cgroup`,
//!   `$REMOTE_CONTAINERS`, `$CODESPACES`) followed by an `exit` (or `return`) before the line;
//! - the script is a lifecycle command of the bundle's dev container (`postCreateCommand`,
//!   `postStartCommand`, `onCreateCommand`, `updateContentCommand`, `postAttachCommand` of a
//!   `.devcontainer/devcontainer.json` or `.devcontainer.json` naming the script's path).
//!
//! - (round 37b) the line is in the bundle's own container build file (`Dockerfile`,
//!   `Containerfile`), or the script is copied into the image by one (`COPY`/`ADD` naming the
//!   script or its folder): a container the skill defines itself, which a reviewer can read. A
//!   container only claimed in words ("runs inside the sandbox") is not one: nothing shows it.
//!
//! The judges that grade a permission lift ask this and stop at `high` (a careful reviewer still
//! wants a look); everything else the script does is judged as usual.

use super::{Bundle, File};

const MARKERS: &[&str] = &[
    "/.dockerenv",
    "/run/.containerenv",
    "$container",
    "${container",
    "/proc/1/cgroup",
    "remote_containers",
    "codespaces",
];

const TESTS: &[&str] = &["if ", "[[", "[ ", "test ", "||", "&&"];

/// The 1-based line of a container guard that covers `line` (0-based), if any.
pub(super) fn guard_before(file: &File<'_>, line: usize) -> Option<usize> {
    let lower = &file.lowered().lower;
    let end = line.min(lower.len());
    let marker = (0..end).find(|&i| {
        let l = &lower[i];
        MARKERS.iter().any(|m| l.contains(m)) && TESTS.iter().any(|t| l.contains(t))
    })?;
    // The guard leaves when the test fails: an exit between the test and the line.
    (marker..end)
        .any(|i| {
            let l = lower[i].as_str();
            l.starts_with("exit")
                || l.contains(" exit ")
                || l.contains("; exit")
                || l.contains("|| exit")
                || l.starts_with("return 1")
        })
        .then_some(marker + 1)
}

const LIFECYCLE: &[&str] = &[
    "\"postcreatecommand\"",
    "\"poststartcommand\"",
    "\"oncreatecommand\"",
    "\"updatecontentcommand\"",
    "\"postattachcommand\"",
];

/// The dev-container file and 1-based line whose lifecycle command runs `path`, if any.
pub(super) fn lifecycle_of<'a>(b: &'a Bundle<'a>, path: &str) -> Option<(&'a str, usize)> {
    let name = path.to_ascii_lowercase();
    if name.starts_with(".devcontainer/") || name.ends_with(".devcontainer.json") {
        return None;
    }
    b.files
        .iter()
        .filter(|f| {
            let p = f.path.to_ascii_lowercase();
            p.ends_with(".devcontainer/devcontainer.json") || p.ends_with(".devcontainer.json")
        })
        .find_map(|f| {
            let lower = &f.lowered().lower;
            // The command's value may sit on the key's line or the next two (an array form).
            (0..lower.len()).find_map(|i| {
                if !LIFECYCLE.iter().any(|k| lower[i].contains(k)) {
                    return None;
                }
                let value = lower[i..(i + 3).min(lower.len())].join(" ");
                value.contains(name.as_str()).then_some((f.path, i + 1))
            })
        })
}

/// Whether `path` is a container build file (`Dockerfile`, `Containerfile`, `x.dockerfile`).
fn is_build_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.starts_with("dockerfile")
        || name.starts_with("containerfile")
        || name.ends_with(".dockerfile")
}

/// The build file and 1-based line that copies `path` (or a folder holding it) into the image the
/// bundle builds (`COPY setup/ttyd-wrapper.sh /usr/local/bin/`, `ADD configs/ /etc/profile.d/`),
/// if any (round 37b). `COPY . …` names no file of its own and does not count.
pub(super) fn copied_into_image<'a>(b: &'a Bundle<'a>, path: &str) -> Option<(&'a str, usize)> {
    let want = path.to_ascii_lowercase();
    let base = want.rsplit('/').next()?.to_string();
    b.files
        .iter()
        .filter(|f| is_build_file(f.path))
        .find_map(|f| {
            f.lowered().lower.iter().enumerate().find_map(|(i, l)| {
                let t = l.trim_start();
                if !(t.starts_with("copy ") || t.starts_with("add ")) {
                    return None;
                }
                let mut args: Vec<&str> = t
                    .split_whitespace()
                    .skip(1)
                    .filter(|a| !a.starts_with("--"))
                    .map(|a| a.trim_matches(['"', '[', ']', ',']))
                    .filter(|a| !a.is_empty())
                    .collect();
                args.pop(); // the destination
                args.iter()
                    .any(|a| {
                        let a = a.trim_start_matches("./");
                        let dir = a.trim_end_matches('/');
                        a == want
                            || a == base
                            || !dir.is_empty() && dir != "." && want.starts_with(&format!("{dir}/"))
                    })
                    .then_some((f.path, i + 1))
            })
        })
}

/// Why `line` (0-based) of `file` runs inside a disposable container, as a sentence naming the
/// place that says so; `None` when nothing does.
pub(super) fn contained(b: &Bundle<'_>, file: &File<'_>, line: usize) -> Option<String> {
    // The bundle's own image (round 37b): its build file's lines run while building it or in the
    // container it starts, and a script the build file copies in runs there.
    if is_build_file(file.path) {
        return Some(format!(
            "{} is the bundle's own container build file: its commands run in the image it builds",
            file.path
        ));
    }
    if let Some((p, l)) = copied_into_image(b, file.path) {
        return Some(format!(
            "the bundle's container build file copies this script into the image it builds ({p}:{l})"
        ));
    }
    if file.kind != crate::scan::content::FileKind::Code {
        return None;
    }
    if let Some(g) = guard_before(file, line) {
        return Some(format!(
            "the script stops outside a container first ({}:{g})",
            file.path
        ));
    }
    lifecycle_of(b, file.path).map(|(p, l)| {
        format!("the script is the dev container's lifecycle command ({p}:{l}), so it runs inside the container")
    })
}
