//! `destructive.resolved-target`: a recursive delete or raw disk write whose target, followed
//! through the file's variables (and loop values), is the system, the home folder or a disk.
//! Separate from [`super`] because resolving a delete's target (system paths, devices, list and
//! loop values) is its own body of path knowledge, unrelated to code being fetched and run.

use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::judge::flow::FileFlow;
use crate::scan::judge::{At, Bundle, finding};
use crate::scan::rules::Severity;

/// Paths a recursive delete must never reach.
/// The words of a list (`(/etc /usr)`, `"/a" "/b"`, `("/a", "/b")`).
fn list_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']' | ',' | ';'))
        .map(|w| w.trim_matches(['"', '\'']))
        .filter(|w| !w.is_empty())
}

/// A system path among the values a loop variable takes (`for d in /etc /usr; do`,
/// `for d in "${DIRS[@]}"`, `for p in ("/usr/local", "/opt"):`), with the loop's line. The loop
/// header is looked for in the [`LOOP_LOOK`] bytes before the delete at byte `before`, so each
/// delete costs a bounded search.
fn loop_value(
    content: &str,
    before: usize,
    line: u32,
    var: &str,
    flow: &FileFlow,
) -> Option<(String, u32)> {
    if var.is_empty() || !var.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return None;
    }
    let delete_line = line;
    let needle = format!("for {var} in ");
    let mut from = before.min(content.len()).saturating_sub(LOOP_LOOK);
    while !content.is_char_boundary(from) {
        from += 1;
    }
    let end = before.min(content.len());
    let window = content.get(from..end)?;
    let (at, head) = match window.rfind(&needle) {
        Some(i) => {
            let rest = &content[from + i + needle.len()..];
            let head = rest.split('\n').next().unwrap_or("");
            (from + i, head.split("; do").next().unwrap_or(head))
        }
        None => {
            let (i, head) = loop_collection(window, var)?;
            (from + i, head)
        }
    };
    // The loop's line, counted back from the delete's (within the bounded window).
    let line = line.saturating_sub(content[at..end].bytes().filter(|&c| c == b'\n').count() as u32);
    for w in list_words(head) {
        if system_path(w) {
            return Some((w.to_owned(), line));
        }
        // A collection named by a variable: `$DIRS` in a shell, a bare constant elsewhere
        // (`ORPHANS.each`, `for (const d of roots)`).
        let bare = w
            .bytes()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
            && w.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
        if w.starts_with('$') || bare {
            let name = w
                .trim_start_matches('$')
                .trim_start_matches('{')
                .split(['[', '}'])
                .next()
                .unwrap_or("");
            if let Some(found) = flow.defs.resolve(name, &|rhs: &str| {
                list_words(rhs).find(|v| system_path(v)).map(str::to_owned)
            }) {
                return Some(found);
            }
            // Round 50k: a list set inside a function body (`local roots=(/usr/local /opt)`),
            // which the file's definitions do not see.
            if let Some((v, l)) = local_value(content, before, delete_line, name)
                && let Some(p) = list_words(&v).find(|p| system_path(p))
            {
                return Some((p.to_owned(), l));
            }
        }
    }
    None
}

/// Calls that return the user's home folder (a value set from one is the home folder).
const HOME_CALLS: &[&str] = &[
    "os.UserHomeDir()",
    "Path.home()",
    "pathlib.Path.home()",
    "Dir.home",
    "os.homedir()",
    "homedir()",
    "os.path.expanduser(\"~\")",
    "os.path.expanduser('~')",
    "$env:USERPROFILE",
];

/// The collection a loop over `var` walks, when the loop is written the Ruby, PowerShell,
/// JavaScript or Go way (`DIRS.each do |d|`, `foreach ($d in $dirs)`, `for (const d of dirs)`,
/// `dirs.forEach((d) =>`, `for _, d := range dirs`), and where its header starts. The shell and
/// Python form (`for d in …`) is [`loop_value`]'s own.
fn loop_collection<'c>(window: &'c str, var: &str) -> Option<(usize, &'c str)> {
    let header_line = |at: usize| {
        let s = window[..at].rfind('\n').map_or(0, |i| i + 1);
        let e = window[at..].find('\n').map_or(window.len(), |i| at + i);
        (s, &window[s..e])
    };
    // `X.each do |v|` / `X.each { |v|` / `X.each_with_index do |v, i|`
    if let Some(at) = window
        .rfind(&format!("|{var}|"))
        .or_else(|| window.rfind(&format!("|{var},")))
    {
        let (s, line) = header_line(at);
        if let Some(each) = line.find(".each") {
            let head = line[..each].trim();
            let head = head.rsplit([' ', '\t', '=']).next().unwrap_or(head);
            return Some((s, head));
        }
    }
    for (open, close) in [
        (format!("foreach (${var} in "), ")"),
        (format!("for (const {var} of "), ")"),
        (format!("for (let {var} of "), ")"),
        (format!(", {var} := range "), "{"),
    ] {
        if let Some(at) = window.rfind(&open) {
            let rest = &window[at + open.len()..];
            let rest = rest.split('\n').next().unwrap_or("");
            let head = rest.rsplit_once(close).map_or(rest, |(h, _)| h);
            return Some((header_line(at).0, head.trim()));
        }
    }
    if let Some(at) = window
        .rfind(&format!(".forEach(({var})"))
        .or_else(|| window.rfind(&format!(".forEach({var} =>")))
    {
        let (s, line) = header_line(at);
        let head = line[..at - s].trim();
        let head = head.rsplit([' ', '\t', '=']).next().unwrap_or(head);
        return Some((s, head));
    }
    None
}

/// The value `var` was last given on a line of its own before byte `before` (`dir, _ :=
/// os.UserHomeDir()`, `const base = os.homedir();`), with that line: the file's definitions see only
/// a braced block's first line, so a name set inside a function body is looked for here, within
/// the [`LOOP_LOOK`] bytes before the delete.
fn local_value(content: &str, before: usize, line: u32, var: &str) -> Option<(String, u32)> {
    if var.is_empty() || !var.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return None;
    }
    let end = before.min(content.len());
    let mut from = end.saturating_sub(LOOP_LOOK);
    while !content.is_char_boundary(from) {
        from += 1;
    }
    let window = content.get(from..end)?;
    for (back, l) in window.rsplit('\n').enumerate() {
        let t = l.trim_start();
        let t = [
            "const ",
            "let ",
            "var ",
            "my ",
            "local ",
            "declare -a ",
            "readonly ",
        ]
        .iter()
        .find_map(|k| t.strip_prefix(k))
        .unwrap_or(t);
        let Some(rest) = t.strip_prefix(var) else {
            continue;
        };
        let rest = rest.trim_start();
        let rest = [", _", ", err", ",_", ",err"]
            .iter()
            .find_map(|k| rest.strip_prefix(k))
            .unwrap_or(rest)
            .trim_start();
        let Some(rhs) = rest.strip_prefix(":=").or_else(|| {
            rest.strip_prefix('=')
                .filter(|r| !r.starts_with(['=', '>', '~']))
        }) else {
            continue;
        };
        let v = rhs.trim().trim_end_matches(';').trim();
        if !v.is_empty() {
            return Some((v.to_owned(), line.saturating_sub(back as u32)));
        }
    }
    None
}

/// How far before a delete [`loop_value`] looks for its loop.
const LOOP_LOOK: usize = 16 * 1024;

fn system_path(p: &str) -> bool {
    let p = p
        .trim()
        .trim_end_matches(';')
        .trim_matches(['"', '\''])
        .trim_end_matches("/*")
        .trim_end_matches('/');
    HOME_CALLS.contains(&p)
        || matches!(
            p,
            "" | "~"
                | "$HOME"
                | "${HOME}"
                | "/etc"
                | "/usr"
                | "/var"
                | "/bin"
                | "/sbin"
                | "/boot"
                | "/lib"
                | "/lib64"
                | "/opt"
                | "/root"
                | "/home"
                | "/System"
                | "/Library"
                | "/Users"
                | "/Applications"
                | "C:"
                | "C:\\"
                | "C:\\Windows"
                | "/usr/local"
                | "/usr/bin"
                | "/var/lib"
        )
}

/// Round 47t: the system folder below a package manager's live-root variable (`"${EROOT}"/etc/*`,
/// `$ROOT/usr`), when `var` is one: Gentoo's `ROOT`, `EROOT` and `EPREFIX` name the installed
/// system in a package's hooks (not the staging image `D` / `ED`).
fn live_root_below(target: &str, var: &str) -> Option<String> {
    if !matches!(var, "EROOT" | "ROOT" | "EPREFIX") {
        return None;
    }
    let at = target.find(var)? + var.len();
    let rest = target[at..].trim_start_matches(['}', '"', '\'']);
    (rest.starts_with('/') && rest.len() > 1 && system_path(rest)).then(|| rest.to_owned())
}

fn device(p: &str) -> bool {
    let p = p.trim().trim_matches(['"', '\'']);
    [
        "/dev/sd",
        "/dev/nvme",
        "/dev/hd",
        "/dev/disk",
        "/dev/mmcblk",
        "/dev/xvd",
        "/dev/vd",
        "disk0",
        "disk1",
        "\\\\.\\PhysicalDrive",
    ]
    .iter()
    .any(|d| p.starts_with(d))
}

pub(super) fn destructive(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    for (file, flow) in b.files.iter().zip(flows) {
        let content = file.content;
        // Whole-file searches, made only when a fact needs them (most files have none).
        let force_push = || {
            content.contains("push --force")
                || content.contains("push -f ")
                || content.contains("push --mirror")
        };
        for at in b
            .in_file(file, FactKind::RemoveTree)
            .filter(|a| !a.fact.prose)
        {
            let target = at.fact.capture.as_deref().unwrap_or("").trim();
            let var = target
                .trim_matches(['"', '\''])
                .trim_start_matches('$')
                .trim_start_matches('{')
                .split(['}', '/', '"'])
                .next()
                .unwrap_or("")
                .to_owned();
            let value = (!var.is_empty())
                .then(|| {
                    flow.defs.resolve(&var, &|rhs: &str| {
                        let v = rhs.trim().trim_matches(['"', '\'']).to_owned();
                        (!v.is_empty() && !v.contains("$(")).then_some(v)
                    })
                })
                .flatten();
            let value = value.or_else(|| {
                local_value(content, at.fact.start as usize, at.fact.line, &var)
                    .filter(|(v, _)| system_path(v))
            });
            // A loop variable (`for d in …`) takes each of the loop's values.
            let value = match value {
                Some((v, l)) if !v.starts_with("for ") => Some((v, l)),
                other => {
                    // The match's own place: a block header can share its logical line.
                    let here = (at.fact.start + at.fact.at) as usize;
                    loop_value(content, here, at.fact.line, &var, flow).or(other)
                }
            };
            let trimmed = target.trim_matches(['"', '\'']);
            let (sev, why) = if let Some((v, line)) = &value
                && (system_path(v) || v.trim_matches(['"', '\'']) == "/")
                && (target.starts_with(['$', '"'])
                    // A bare name handed to a delete call (`shutil.rmtree(os.path.expanduser(t))`).
                    || !at.fact.prose
                        && target.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
                        && ["rmtree", "rm_rf", "rmSync", "rimraf", "RemoveAll"]
                            .iter()
                            .any(|w| at.text().contains(w)))
            {
                (
                    Severity::Critical,
                    format!(
                        "A recursive delete of `{target}`, and `{var}` is set to `{v}` on line {line}: this deletes the system or the home folder. Do not install this skill."
                    ),
                )
            } else if let Some(rest) = live_root_below(trimmed, &var)
                && value.is_none()
            {
                // Round 47t: a package's install hooks (an ebuild's `pkg_postinst`, run with
                // `${EROOT}` / `${ROOT}` the installed system's root, never a staging folder).
                (
                    Severity::Critical,
                    format!(
                        "A recursive delete of `{target}`: `{var}` is the root of the system a package is installed on (its staging folder is `${{D}}` / `${{ED}}`), so this deletes `{rest}` on the user's machine. Do not install this skill."
                    ),
                )
            } else if trimmed.trim_end_matches('/') == ".git" && force_push() {
                (
                    Severity::Critical,
                    "The repository's history (`.git`) is deleted and the result force-pushed: the history, branches and tags on the remote are destroyed. Do not install this skill.".to_owned(),
                )
            } else if value.is_none()
                && target.contains('$')
                && (trimmed.ends_with("/*") || trimmed.ends_with('/') || trimmed.ends_with("\"/*"))
                && !target.contains(":?")
                && !var.is_empty()
                && !content.contains(&format!("-z \"${var}\""))
                && !content.contains(&format!("-n \"${var}\""))
                && !content.contains(&format!("${{{var}:?"))
            {
                (
                    Severity::High,
                    format!(
                        "A recursive delete of `{target}` where `{var}` is not set in this file and not checked: if it is empty the command deletes from the root. Guard it with `${{{var}:?}}`."
                    ),
                )
            } else {
                continue;
            };
            out.push(finding(
                "destructive.resolved-target",
                "destructive",
                sev,
                at,
                why,
                Vec::new(),
            ));
        }
        let writes: Vec<At<'_>> = b
            .in_file(file, FactKind::DeviceWrite)
            .filter(|a| !a.fact.prose)
            .collect();
        let asks = || {
            [
                "read -p",
                "read -r",
                "[y/N]",
                "[Y/n]",
                "confirm",
                "Read-Host",
                "input(",
            ]
            .iter()
            .any(|w| content.contains(w))
        };
        let mut unresolved = Vec::new();
        for at in &writes {
            let target = at.fact.capture.as_deref().unwrap_or("").trim().to_owned();
            let var = target
                .trim_matches(['"', '\''])
                .trim_start_matches('$')
                .trim_start_matches('{')
                .trim_end_matches('}')
                .to_owned();
            let value = flow.defs.resolve(&var, &|rhs: &str| {
                crate::scan::judge::code::literals(rhs)
                    .into_iter()
                    .chain([rhs.trim()])
                    .find(|l| device(l))
                    .map(str::to_owned)
            });
            if let Some((v, line)) = value {
                let why = format!(
                    "A raw write to `{target}`, and `{var}` is `{v}` (line {line}): this overwrites a whole disk. Do not install this skill."
                );
                out.push(finding(
                    "destructive.resolved-target",
                    "destructive",
                    Severity::Critical,
                    *at,
                    why,
                    Vec::new(),
                ));
            } else if device(&target) {
                continue;
            } else {
                unresolved.push(*at);
            }
        }
        if unresolved.len() >= 2 && !asks() {
            let at = unresolved[0];
            let why = format!(
                "{} raw disk writes or formats ({} and {}) on targets the script picks itself, with no question to the user first: one wrong pick erases a disk. Do not install this skill.",
                unresolved.len(),
                at.place(),
                unresolved[1].place()
            );
            out.push(finding(
                "destructive.resolved-target",
                "destructive",
                Severity::Critical,
                at,
                why,
                vec![unresolved[1].related("signal")],
            ));
        } else if let Some(at) = unresolved.first() {
            let why = format!(
                "A raw disk write or format on `{}`, a target chosen at run time: check it can only ever be the device the user named.",
                at.fact.capture.as_deref().unwrap_or("?")
            );
            out.push(finding(
                "destructive.resolved-target",
                "destructive",
                Severity::High,
                *at,
                why,
                Vec::new(),
            ));
        }
    }
}
