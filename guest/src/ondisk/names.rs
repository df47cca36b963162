//! Names and paths that may reach the file system: skill directory names, categories, and the relative
//! paths of files an agent writes into a skill. Every check is a pure function over strings, so the host
//! never has to judge a name itself.

/// Longest skill name (agentskills.io).
pub const MAX_NAME: usize = 64;

/// Names Windows reserves for devices, in any case and with any extension (`con`, `nul.txt`): a folder
/// with such a name cannot be created or removed normally there, and a bundle that ships one is hostile.
const WINDOWS_DEVICES: &[&str] = &[
    "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8",
    "com9", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// The folders an agent may write supporting files into (Hermes' `skill_manage write_file`).
pub const SUPPORT_DIRS: &[&str] = &["references", "templates", "scripts", "assets"];

/// The folder inside a skill that holds this tool's own files (provenance). A bundle may not ship it.
pub const OWN_DIR: &str = ".skill-recommender";

/// Where the provenance document lives inside an installed skill.
pub const PROVENANCE_PATH: &str = ".skill-recommender/provenance.json";

/// Why a name cannot be used, for people; `None` when it is fine.
///
/// A skill name is also its folder name (the lookup key every compatible agent uses): 1–64 characters,
/// lowercase ASCII letters, digits and single hyphens, not starting or ending with a hyphen (the
/// agentskills.io rule, which also rules out `.`, `..`, path separators and hidden names), and not a
/// Windows device name.
pub fn name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("the name is empty".into());
    }
    if name.len() > MAX_NAME {
        return Some(format!(
            "{name:?} has {} characters; at most {MAX_NAME}",
            name.len()
        ));
    }
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        let what = match c {
            '/' | '\\' => "a path separator".to_owned(),
            '.' => "a dot".to_owned(),
            c if c.is_ascii_uppercase() => "an uppercase letter".to_owned(),
            c => format!("{c:?}"),
        };
        return Some(format!(
            "{name:?} contains {what}; use lowercase letters, digits and hyphens only"
        ));
    }
    if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        return Some(format!(
            "{name:?} must not start or end with a hyphen or contain `--`"
        ));
    }
    let stem = name.split('.').next().unwrap_or(name);
    if WINDOWS_DEVICES.contains(&stem) {
        return Some(format!(
            "{name:?} is a reserved device name on Windows; choose another name"
        ));
    }
    None
}

/// Why a relative path inside a skill cannot be written by an agent; `None` when it is fine.
///
/// The path must stay inside the skill: relative, `/`-separated (a `\` is read as `/`), no `.` or `..`
/// component, no empty component, no hidden component (code in hidden files escapes review), not
/// `SKILL.md` itself (use `edit` or `patch`), and under one of [`SUPPORT_DIRS`].
pub fn support_path_problem(path: &str) -> Option<String> {
    let p = path.replace('\\', "/");
    if p.is_empty() {
        return Some("the path is empty".into());
    }
    if p.starts_with('/') || p.as_bytes().get(1) == Some(&b':') {
        return Some(format!(
            "{path:?} is absolute; give a path relative to the skill folder"
        ));
    }
    let parts: Vec<&str> = p.split('/').collect();
    if parts.contains(&"..") {
        return Some(format!("{path:?} leaves the skill folder (`..`)"));
    }
    if parts.iter().any(|c| c.is_empty() || *c == ".") {
        return Some(format!("{path:?} has an empty or `.` component"));
    }
    if parts.iter().any(|c| c.starts_with('.')) {
        return Some(format!(
            "{path:?} has a hidden component; supporting files must be visible for review"
        ));
    }
    if parts.iter().any(|c| c.contains('\0')) {
        return Some(format!("{path:?} contains a NUL character"));
    }
    if parts.len() == 1 && parts[0].eq_ignore_ascii_case("SKILL.md") {
        return Some("SKILL.md is changed with `edit` or `patch`, not `write-file`".into());
    }
    if parts.len() < 2 || !SUPPORT_DIRS.contains(&parts[0]) {
        return Some(format!(
            "{path:?} is not under {}: supporting files go in one of those folders",
            SUPPORT_DIRS.join("/, ") + "/"
        ));
    }
    if let Some(device) = parts.iter().find(|c| {
        WINDOWS_DEVICES.contains(&c.split('.').next().unwrap_or(c).to_lowercase().as_str())
    }) {
        return Some(format!(
            "{path:?}: {device:?} is a reserved device name on Windows"
        ));
    }
    None
}

/// `path` with `\` read as `/` (the form every check above accepted).
pub fn normalize_path(path: &str) -> String {
    path.replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_names_pass() {
        for n in ["a", "date-format", "pdf2xlsx", "x-1-y", &"a".repeat(64)] {
            assert_eq!(name_problem(n), None, "{n}");
        }
    }

    #[test]
    fn separators_dots_case_and_reserved_names_are_refused() {
        for (n, needle) in [
            ("", "empty"),
            ("../etc", "a dot"),
            ("a/b", "path separator"),
            ("a\\b", "path separator"),
            (".hidden", "a dot"),
            ("..", "a dot"),
            ("Date", "uppercase"),
            ("-a", "hyphen"),
            ("a-", "hyphen"),
            ("a--b", "`--`"),
            ("con", "reserved"),
            ("lpt9", "reserved"),
            ("a b", "' '"),
            ("naïve", "'ï'"),
        ] {
            let p = name_problem(n).unwrap_or_else(|| panic!("{n:?} passed"));
            assert!(p.contains(needle), "{n:?}: {p}");
        }
        assert!(
            name_problem(&"a".repeat(65))
                .unwrap()
                .contains("at most 64")
        );
    }

    #[test]
    fn support_paths_stay_inside_visible_support_folders() {
        for p in [
            "references/api.md",
            "scripts/run.sh",
            "assets/x/y.png",
            "templates\\t.md",
        ] {
            assert_eq!(support_path_problem(p), None, "{p}");
        }
        for (p, needle) in [
            ("../../escape.txt", "leaves"),
            ("scripts/../../x", "leaves"),
            ("/etc/passwd", "absolute"),
            ("C:/x", "absolute"),
            ("scripts//x", "empty"),
            ("scripts/./x", "empty"),
            ("scripts/.hidden.sh", "hidden"),
            (".skill-recommender/provenance.json", "hidden"),
            ("SKILL.md", "edit"),
            ("notes.md", "not under"),
            ("bin/tool", "not under"),
            ("scripts/con.sh", "reserved"),
            ("", "empty"),
        ] {
            let got = support_path_problem(p).unwrap_or_else(|| panic!("{p:?} passed"));
            assert!(got.contains(needle), "{p:?}: {got}");
        }
    }
}
