//! Installed-skill discovery: the host reads the conventional skill directories (the guest cannot read
//! files) and hands the guest each skill's SKILL.md `name` and, when the frontmatter names one, its
//! source repository. Unreadable or malformed skills are skipped with a warning, never fatal.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::InstalledSkill;

/// Largest SKILL.md read for its frontmatter.
pub const MAX_SKILL_MD_BYTES: u64 = 1 << 20;
/// At most this many entries are looked at per skills directory (a runaway directory is not scanned whole).
pub const MAX_ENTRIES_PER_DIR: usize = 5_000;

/// A directory to scan and the agent it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillsDir {
    pub path: PathBuf,
    /// `agents`, `claude`, `hermes`, `codex`, `openclaw` or `custom`.
    pub label: &'static str,
}

/// The conventional skill directories, project-local first: `./.agents/skills`, `~/.agents/skills`,
/// `./.claude/skills`, `~/.claude/skills`, `~/.hermes/skills` (with category subfolders),
/// `~/.codex/skills`, `~/.openclaw/skills`.
pub fn default_dirs(cwd: &Path, home: Option<&Path>) -> Vec<SkillsDir> {
    let mut dirs = vec![SkillsDir {
        path: cwd.join(".agents/skills"),
        label: "agents",
    }];
    if let Some(h) = home {
        dirs.push(SkillsDir {
            path: h.join(".agents/skills"),
            label: "agents",
        });
    }
    dirs.push(SkillsDir {
        path: cwd.join(".claude/skills"),
        label: "claude",
    });
    if let Some(h) = home {
        for (p, label) in [
            (".claude/skills", "claude"),
            (".hermes/skills", "hermes"),
            (".codex/skills", "codex"),
            (".openclaw/skills", "openclaw"),
        ] {
            dirs.push(SkillsDir {
                path: h.join(p),
                label,
            });
        }
    }
    dirs
}

/// What discovery found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Discovery {
    pub skills: Vec<InstalledSkill>,
    pub warnings: Vec<String>,
    /// The directories that existed and were scanned.
    pub scanned: Vec<PathBuf>,
}

/// Scan `dirs`: each `<dir>/<skill>/SKILL.md`, and one level of category folders
/// (`<dir>/<category>/<skill>/SKILL.md`, as Hermes lays them out).
pub fn discover(dirs: &[SkillsDir]) -> Discovery {
    let mut out = Discovery::default();
    let mut seen_dirs = BTreeSet::new();
    for d in dirs {
        let Ok(canon) = d.path.canonicalize() else {
            continue;
        };
        if !canon.is_dir() || !seen_dirs.insert(canon.clone()) {
            continue;
        }
        out.scanned.push(d.path.clone());
        for skill in skill_folders(&canon, &mut out.warnings) {
            read_skill(&skill, d.label, &mut out);
        }
    }
    out
}

/// The skill folders of one skills directory, sorted: each `<dir>/<skill>/` holding a SKILL.md, and
/// one level of category folders (`<dir>/<category>/<skill>/`, as Hermes lays them out). A folder that
/// cannot be listed adds a warning.
pub fn skill_folders(dir: &Path, warnings: &mut Vec<String>) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in sorted_subdirs(dir, warnings) {
        if entry.join("SKILL.md").is_file() {
            found.push(entry);
        } else {
            // A category folder.
            for sub in sorted_subdirs(&entry, warnings) {
                if sub.join("SKILL.md").is_file() {
                    found.push(sub);
                }
            }
        }
    }
    found
}

fn sorted_subdirs(dir: &Path, warnings: &mut Vec<String>) -> Vec<PathBuf> {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            warnings.push(format!("{}: cannot list ({e})", dir.display()));
            return Vec::new();
        }
    };
    let mut dirs: Vec<PathBuf> = rd
        .filter_map(Result::ok)
        .take(MAX_ENTRIES_PER_DIR)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .filter(|p| {
            !p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.'))
        })
        .collect();
    dirs.sort();
    dirs
}

fn read_skill(dir: &Path, label: &'static str, out: &mut Discovery) {
    let path = dir.join("SKILL.md");
    let warn = |out: &mut Discovery, why: String| {
        out.warnings
            .push(format!("{}: skipped ({why})", path.display()))
    };
    match std::fs::metadata(&path) {
        Ok(m) if m.len() > MAX_SKILL_MD_BYTES => {
            return warn(out, format!("{} bytes, over {MAX_SKILL_MD_BYTES}", m.len()));
        }
        Err(e) => return warn(out, e.to_string()),
        Ok(_) => {}
    }
    let text = match std::fs::read(&path).map(String::from_utf8) {
        Ok(Ok(t)) => t,
        Ok(Err(_)) => return warn(out, "not UTF-8".into()),
        Err(e) => return warn(out, e.to_string()),
    };
    let fields = match frontmatter(&text) {
        Ok(f) => f,
        Err(why) => return warn(out, why),
    };
    let Some(name) = fields
        .get("name")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|n| !n.is_empty())
    else {
        return warn(out, "frontmatter has no `name`".into());
    };
    let metadata = fields.get("metadata").and_then(Value::as_object);
    let source_url = ["repository", "source_url", "homepage", "source"]
        .iter()
        .find_map(|k| {
            fields
                .get(*k)
                .or_else(|| metadata.and_then(|m| m.get(*k)))
                .and_then(Value::as_str)
                .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
        })
        .map(str::to_owned);
    out.skills.push(InstalledSkill {
        name: name.to_owned(),
        dir: dir.display().to_string(),
        source: Some(label.to_owned()),
        source_url,
    });
}

/// The YAML frontmatter of a SKILL.md (between a first line `---` and the next `---`), parsed with a
/// maintained YAML parser (saphyr's), with budgets on aliases, depth and anchors (`guest::yaml`).
pub fn frontmatter(text: &str) -> Result<Map<String, Value>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return Err("no YAML frontmatter (the file must start with ---)".into());
    }
    let mut yaml = String::new();
    let mut closed = false;
    for line in lines {
        if matches!(line.trim_end(), "---" | "...") {
            closed = true;
            break;
        }
        yaml.push_str(line);
        yaml.push('\n');
    }
    if !closed {
        return Err("the frontmatter is not closed by ---".into());
    }
    let value: Value =
        guest::yaml::parse(&yaml).map_err(|e| format!("frontmatter is not valid YAML: {e}"))?;
    match value {
        Value::Object(m) => Ok(m),
        _ => Err("frontmatter is not a YAML mapping".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn skill(root: &Path, rel: &str, content: &str) {
        let d = root.join(rel);
        fs::create_dir_all(&d).unwrap();
        fs::write(d.join("SKILL.md"), content).unwrap();
    }

    #[test]
    fn finds_skills_and_category_folders_and_skips_broken_ones() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        skill(
            r,
            "pdf-tables",
            "---\nname: pdf-tables\ndescription: Tables.\nmetadata:\n  repository: https://github.com/o/pdf-tables\n---\nbody",
        );
        skill(
            r,
            "research/web-digest",
            "---\nname: web-digest\ndescription: \"x: y\"\n---\n",
        );
        skill(r, "no-front", "# just markdown\n");
        skill(r, "bad-yaml", "---\nname: [unclosed\n---\n");
        skill(r, "no-name", "---\ndescription: nameless\n---\n");
        skill(r, "open", "---\nname: open\n");
        fs::create_dir_all(r.join(".hidden/x")).unwrap();
        let found = discover(&[SkillsDir {
            path: r.into(),
            label: "hermes",
        }]);
        let names: Vec<&str> = found.skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["pdf-tables", "web-digest"]);
        assert_eq!(
            found.skills[0].source_url.as_deref(),
            Some("https://github.com/o/pdf-tables")
        );
        assert_eq!(found.skills[0].source.as_deref(), Some("hermes"));
        assert_eq!(found.warnings.len(), 4, "{:#?}", found.warnings);
        for w in ["no-front", "bad-yaml", "no-name", "open"] {
            assert!(found.warnings.iter().any(|x| x.contains(w)), "{w}");
        }
    }

    #[test]
    fn missing_dirs_are_fine_and_duplicates_scanned_once() {
        let root = tempfile::tempdir().unwrap();
        skill(root.path(), "a", "---\nname: a\n---\n");
        let d = SkillsDir {
            path: root.path().into(),
            label: "custom",
        };
        let gone = SkillsDir {
            path: root.path().join("nope"),
            label: "custom",
        };
        let found = discover(&[d.clone(), gone, d]);
        assert_eq!(found.skills.len(), 1);
        assert_eq!(found.scanned.len(), 1);
        assert!(found.warnings.is_empty());
    }

    #[test]
    fn alias_bombs_in_frontmatter_are_refused() {
        let mut bomb = String::from("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            bomb.push_str(&format!(
                "{}: &{} [*{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}, *{}]\n",
                (b'a' + i) as char,
                (b'a' + i) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char,
                (b'a' + i - 1) as char
            ));
        }
        bomb.push_str("name: boom\n---\n");
        assert!(frontmatter(&bomb).is_err());
    }

    #[test]
    fn default_dirs_cover_every_agent() {
        let dirs = default_dirs(Path::new("/proj"), Some(Path::new("/home/u")));
        let paths: Vec<String> = dirs.iter().map(|d| d.path.display().to_string()).collect();
        for p in [
            "/proj/.agents/skills",
            "/home/u/.agents/skills",
            "/proj/.claude/skills",
            "/home/u/.claude/skills",
            "/home/u/.hermes/skills",
            "/home/u/.codex/skills",
            "/home/u/.openclaw/skills",
        ] {
            assert!(paths.contains(&p.to_owned()), "{p}");
        }
    }
}
