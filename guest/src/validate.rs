//! SKILL.md validation against the agentskills.io specification, and the bundle rules.
//!
//! Strict mode: every rule of the specification is an error. Lenient mode (the default) follows the
//! spec's client guidance: a name that is not lower-case kebab-case, a name that differs from the
//! folder or an over-long name is a warning and the skill still loads; a missing description or
//! unparseable YAML is an error (skip the skill); an unquoted `key: value: with colon` is retried as a
//! plain string (with a warning). An empty body is a warning in both modes (the spec does not require
//! one). YAML is parsed by [`crate::yaml`] (saphyr's event parser with budgets on
//! alias expansion, nesting depth and anchors).

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::scan::bundle::{Bundle, EntryKind, path_problem};

/// Longest `name`.
pub const MAX_NAME: usize = 64;
/// Longest `description`.
pub const MAX_DESCRIPTION: usize = 1024;
/// Longest `compatibility`.
pub const MAX_COMPATIBILITY: usize = 500;
/// Fields the specification defines.
pub const SPEC_FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];
/// Bundle limits (SkillHub's): files, bytes per file, bytes in all.
pub const MAX_FILES: usize = 100;
pub const MAX_FILE_BYTES: u64 = 10 << 20;
pub const MAX_BUNDLE_BYTES: u64 = 100 << 20;

/// One problem.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub code: String,
    pub message: String,
}

struct Report {
    strict: bool,
    errors: Vec<Problem>,
    warnings: Vec<Problem>,
}

impl Report {
    fn error(&mut self, code: &str, message: String) {
        self.errors.push(Problem {
            code: code.into(),
            message,
        });
    }

    fn warning(&mut self, code: &str, message: String) {
        self.warnings.push(Problem {
            code: code.into(),
            message,
        });
    }

    /// An error in strict mode, a warning in lenient mode.
    fn lenient(&mut self, code: &str, message: String) {
        if self.strict {
            self.error(code, message)
        } else {
            self.warning(code, message)
        }
    }
}

/// Split a SKILL.md into (frontmatter YAML, body). A leading BOM is tolerated.
pub fn split(text: &str) -> Result<(&str, &str), Problem> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_end = text.find('\n').unwrap_or(text.len());
    if text[..first_end].trim_end() != "---" {
        return Err(Problem {
            code: "missing_frontmatter".into(),
            message: "SKILL.md must start with a `---` line opening the YAML frontmatter".into(),
        });
    }
    let rest = &text[(first_end + 1).min(text.len())..];
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Ok((&rest[..offset], &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    Err(Problem {
        code: "unclosed_frontmatter".into(),
        message: "the frontmatter is not closed by a `---` line".into(),
    })
}

fn parse_yaml(yaml: &str) -> Result<Value, String> {
    crate::yaml::parse(yaml)
}

/// Quote `key: value: with colon` values so they parse as plain strings; returns the keys changed.
pub(crate) fn quote_colons(yaml: &str) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut keys = Vec::new();
    for line in yaml.lines() {
        let fixed = (|| {
            if line.starts_with(char::is_whitespace) {
                return None;
            }
            let (key, value) = line.split_once(": ")?;
            let v = value.trim();
            if !key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                || !v.contains(": ")
                || v.starts_with(['"', '\'', '|', '>', '[', '{'])
            {
                return None;
            }
            keys.push(key.to_owned());
            Some(format!("{key}: '{}'", v.replace('\'', "''")))
        })();
        out.push_str(fixed.as_deref().unwrap_or(line));
        out.push('\n');
    }
    (out, keys)
}

/// The frontmatter as a map, with the colon retry; `Err` when it cannot be read.
fn frontmatter(text: &str, report: &mut Report) -> Option<(Map<String, Value>, String)> {
    let (yaml, body) = match split(text) {
        Ok(p) => p,
        Err(p) => {
            report.errors.push(p);
            return None;
        }
    };
    let value = match parse_yaml(yaml) {
        Ok(v) => v,
        Err(first) => {
            let (fixed, keys) = quote_colons(yaml);
            match (keys.is_empty(), parse_yaml(&fixed)) {
                (false, Ok(v)) if !report.strict => {
                    report.warning("unquoted_colon", format!("the value of {} contains `: ` and is not quoted; it was read as a plain string", keys.join(", ")));
                    v
                }
                _ => {
                    report.error(
                        "yaml_parse_error",
                        format!("the frontmatter is not valid YAML: {first}"),
                    );
                    return None;
                }
            }
        }
    };
    match value {
        Value::Object(m) => Some((m, body.to_owned())),
        Value::Null => Some((Map::new(), body.to_owned())),
        _ => {
            report.error(
                "frontmatter_not_mapping",
                "the frontmatter must be a YAML mapping of fields".into(),
            );
            None
        }
    }
}

/// The frontmatter `name`, if the file has a readable one (used for labels, never for judging).
pub fn frontmatter_name(text: &str) -> Option<String> {
    frontmatter_string(text, "name")
}

/// A string field of the frontmatter, if the file has a readable one.
pub fn frontmatter_string(text: &str, key: &str) -> Option<String> {
    let mut r = Report {
        strict: false,
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let (m, _) = frontmatter(text, &mut r)?;
    m.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn check_name(name: &str, dir: Option<&str>, r: &mut Report) {
    let chars = name.chars().count();
    if chars == 0 {
        r.error("missing_name", "`name` is empty".into());
        return;
    }
    if chars > MAX_NAME {
        r.lenient(
            "name_too_long",
            format!("`name` has {chars} characters; at most {MAX_NAME}"),
        );
    }
    // The client guidance loads a skill whose name breaks the format (with a warning); the spec
    // itself (strict) does not.
    let ok_chars = name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !ok_chars {
        r.lenient(
            "invalid_name",
            format!("`name` {name:?} may contain only lowercase letters, digits and hyphens"),
        );
    } else if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        r.lenient(
            "invalid_name",
            format!("`name` {name:?} must not start or end with a hyphen or contain `--`"),
        );
    }
    if let Some(dir) = dir.filter(|d| !d.is_empty())
        && dir != name
    {
        r.lenient(
            "name_mismatch",
            format!("`name` {name:?} differs from the folder name {dir:?}"),
        );
    }
}

/// Validate SKILL.md's text (`dir` is the folder name, when known).
fn validate_skill_md(text: &str, dir: Option<&str>, r: &mut Report) -> Value {
    let Some((fm, body)) = frontmatter(text, r) else {
        return Value::Null;
    };
    match fm.get("name") {
        None => r.error("missing_name", "`name` is required".into()),
        Some(Value::String(n)) => check_name(n, dir, r),
        Some(other) => r.error(
            "invalid_name",
            format!("`name` must be a string, found {other}"),
        ),
    }
    match fm.get("description") {
        None => r.error(
            "missing_description",
            "`description` is required (agents choose skills by it)".into(),
        ),
        Some(Value::String(d)) if d.trim().is_empty() => {
            r.error("missing_description", "`description` is empty".into())
        }
        Some(Value::String(d)) if d.chars().count() > MAX_DESCRIPTION => r.error(
            "description_too_long",
            format!(
                "`description` has {} characters; at most {MAX_DESCRIPTION}",
                d.chars().count()
            ),
        ),
        Some(Value::String(_)) => {}
        Some(other) => r.error(
            "invalid_description",
            format!("`description` must be a string, found {other}"),
        ),
    }
    match fm.get("compatibility") {
        Some(Value::String(c)) if c.chars().count() > MAX_COMPATIBILITY => r.error(
            "compatibility_too_long",
            format!(
                "`compatibility` has {} characters; at most {MAX_COMPATIBILITY}",
                c.chars().count()
            ),
        ),
        Some(Value::String(_)) | None => {}
        Some(other) => r.error(
            "invalid_compatibility",
            format!("`compatibility` must be a string, found {other}"),
        ),
    }
    if let Some(l) = fm.get("license").filter(|l| !l.is_string()) {
        r.error(
            "invalid_license",
            format!("`license` must be a string, found {l}"),
        );
    }
    if let Some(t) = fm.get("allowed-tools").filter(|t| !t.is_string()) {
        r.error(
            "invalid_allowed_tools",
            format!("`allowed-tools` must be a space-separated string, found {t}"),
        );
    }
    match fm.get("metadata") {
        Some(Value::Object(m)) => {
            for (k, v) in m {
                if !v.is_string() {
                    r.lenient("invalid_metadata", format!("`metadata.{k}` must be a string (metadata is a string → string map), found {v}"));
                }
            }
        }
        Some(other) => r.error(
            "invalid_metadata",
            format!("`metadata` must be a map of strings, found {other}"),
        ),
        None => {}
    }
    for k in fm.keys().filter(|k| !SPEC_FIELDS.contains(&k.as_str())) {
        r.lenient(
            "unknown_field",
            format!("`{k}` is not a field of the specification (agents may ignore it)"),
        );
    }
    // The specification does not require a body; an empty one is worth a warning in both modes.
    if body.trim().is_empty() {
        r.warning("empty_body", "the body after the frontmatter is empty: it should tell the agent how to use the skill".into());
    }
    Value::Object(fm)
}

/// Validate a bundle: its SKILL.md and the bundle rules. `{valid, errors, warnings, metadata}`.
pub fn validate(bundle: &Bundle, strict: bool) -> Value {
    let mut r = Report {
        strict,
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    // Bundle rules.
    let mut seen = BTreeSet::new();
    let mut total = 0u64;
    for f in &bundle.files {
        if let Some(problem) = path_problem(&f.path) {
            let code = if problem.contains("`..`") {
                "path_escapes_root"
            } else {
                "absolute_path"
            };
            r.error(code, format!("{}: {problem}", f.path));
        }
        let normalized = f.path.replace('\\', "/");
        if !seen.insert(normalized.to_lowercase()) {
            r.error(
                "duplicate_path",
                format!(
                    "{normalized} appears more than once (after `\\` → `/`, case-insensitively)"
                ),
            );
        }
        if f.size > MAX_FILE_BYTES {
            r.error(
                "file_too_large",
                format!("{} is {} bytes; at most {MAX_FILE_BYTES}", f.path, f.size),
            );
        }
        if f.kind == EntryKind::Symlink && f.link_escapes {
            r.error(
                "path_escapes_root",
                format!("{} is a symbolic link leaving the folder", f.path),
            );
        }
        total += f.size;
    }
    for n in &bundle.notes {
        let code = match n.code.as_str() {
            "path_escape" => "path_escapes_root",
            "absolute_path" => "absolute_path",
            "duplicate_path" => "duplicate_path",
            "too_many_files" => "too_many_files",
            "file_too_large" | "zip_bomb" => "file_too_large",
            "bundle_too_large" => "bundle_too_large",
            _ => "unreadable_entry",
        };
        r.error(code, format!("{}: {}", n.path, n.message));
    }
    if bundle.files.len() > MAX_FILES {
        r.error(
            "too_many_files",
            format!("{} files; at most {MAX_FILES}", bundle.files.len()),
        );
    }
    if total > MAX_BUNDLE_BYTES {
        r.error(
            "bundle_too_large",
            format!("{total} bytes in all; at most {MAX_BUNDLE_BYTES}"),
        );
    }
    let skill_md = bundle.files.iter().find(|f| f.path == "SKILL.md");
    let metadata = match skill_md.and_then(|f| f.content.as_deref()) {
        Some(text) => validate_skill_md(
            text,
            Some(bundle.name.as_str()).filter(|n| !n.is_empty()),
            &mut r,
        ),
        None => {
            r.error(
                "missing_skill_md",
                "no SKILL.md at the root of the skill".into(),
            );
            Value::Null
        }
    };
    json!({
        "valid": r.errors.is_empty(),
        "strict": strict,
        "errors": r.errors,
        "warnings": r.warnings,
        "metadata": metadata,
    })
}

#[cfg(test)]
mod tests;
