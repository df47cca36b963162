//! A `.pth` start-up file that imports a bundled module which sends data to a stranger (round 50m,
//! `persistence.pth-import-send`; round 49m's open item).
//!
//! Python runs every line of a `.pth` file in `site-packages` that starts with `import` at each
//! interpreter start, before any user code. A package that ships one (`data_files`, a wheel's
//! root) and has it import a module of its own makes that module run for every Python process on
//! the machine. When the module posts anything to a host that is not local, a vendor's, an
//! installer's or a registry's, the package has planted a beacon that outlives the skill's use.
//!
//! Facts: a `.pth` file of the bundle with a line `import m` (or `import a, b`); a code file of the
//! bundle named after one of those modules (`m.py`, `m/__init__.py`) that holds a send call and
//! names a host that is not trusted nor named after the skill. Judged `critical` at the `.pth`
//! line, the module's send related.
//!
//! Not judged: a `.pth` that lists directories; one importing a module the bundle does not carry
//! (`coverage`, `_virtualenv`); an imported module that sends nothing or only to a local or
//! trusted host. Each file is read once.

use super::super::shapes::{found, judged, rel};
use super::super::{Bundle, File, host_named_after, hosts_in};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Calls that send over the network (lower-case).
const SENDS: &[&str] = &[
    "urlopen(",
    "requests.post(",
    "requests.put(",
    "requests.get(",
    "httpx.",
    "http.client",
    "socket.create_connection(",
    ".connect((",
];

/// The modules a `.pth` line imports (`import a, b; f()` gives `a`, `b`).
fn imported(line: &str) -> Vec<&str> {
    let Some(rest) = line.trim_start().strip_prefix("import ") else {
        return Vec::new();
    };
    rest.split(';')
        .next()
        .unwrap_or("")
        .split(',')
        .map(|m| m.trim().split(' ').next().unwrap_or(""))
        .filter(|m| {
            !m.is_empty()
                && m.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        })
        .collect()
}

/// Whether `path` is the source of module `m` (`m.py`, `m/__init__.py`, under any folder).
fn is_module(path: &str, m: &str) -> bool {
    let rel = m.replace('.', "/");
    [format!("{rel}.py"), format!("{rel}/__init__.py")]
        .iter()
        .any(|f| path == f || path.ends_with(&format!("/{f}")))
}

/// The send line and untrusted host of a module file, if it posts to a stranger.
fn sends_out(file: &File<'_>, names: &[String]) -> Option<(usize, String)> {
    let lw = file.lowered();
    let send = lw
        .lower
        .iter()
        .position(|l| !l.starts_with('#') && SENDS.iter().any(|s| l.contains(s)))?;
    let host = lw.lower.iter().enumerate().find_map(|(i, l)| {
        if l.starts_with('#') {
            return None;
        }
        hosts_in(lw.lines[i])
            .into_iter()
            .find(|h| h.class.is_outside() && !host_named_after(&h.host, names))
    })?;
    Some((send, host.host))
}

pub(in crate::scan::judge) fn pth_import_send(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let names = b.name_words();
    let mut new = Vec::new();
    for pth in b
        .files
        .iter()
        .filter(|f| f.path.to_ascii_lowercase().ends_with(".pth"))
    {
        let lines = &pth.lowered().lower;
        for (i, l) in lines.iter().enumerate() {
            let hit = imported(l).into_iter().find_map(|m| {
                b.files
                    .iter()
                    .find(|f| is_module(f.path, m))
                    .and_then(|f| sends_out(f, &names).map(|(s, h)| (f, s, h)))
            });
            let Some((module, send, host)) = hit else {
                continue;
            };
            if judged(b, out, pth, i) {
                continue;
            }
            new.push(found(
                "persistence.pth-import-send",
                "persistence",
                Severity::Critical,
                pth,
                i,
                format!(
                    "{}:{}: this `.pth` file imports a module of the package at every Python start, before any user code, and that module ({}:{}) sends data to {}. A start-up hook that phones a stranger runs in every Python process on the machine, long after the skill is used. Do not install this skill.",
                    pth.path,
                    i + 1,
                    module.path,
                    send + 1,
                    host
                ),
                vec![rel("send", module, send)],
            ));
            break;
        }
    }
    out.extend(new);
}
