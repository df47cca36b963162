//! Skills an agent writes itself, with Hermes' `skill_manage` semantics: `create`, `edit` (a whole new
//! SKILL.md), `patch` (find and replace), `delete`, `write-file` and `remove-file`.
//!
//! Every write is checked (name, frontmatter, the 100,000-character SKILL.md cap, 1 MiB supporting
//! files, paths that stay inside `references/`, `templates/`, `scripts/` or `assets/`) and the skill *as
//! it would be after the write* is scanned with trust `agent-created` before anything is written:
//!
//! | verdict | decision | what happens |
//! |---|---|---|
//! | safe | `allow` | written |
//! | caution | `ask` | written; the findings are reported as warnings for the user |
//! | dangerous | `block` | nothing written: the previous bytes stay exactly as they were, a new skill never appears |
//!
//! This is stricter than the scanner's install policy for `agent-created` sources (which asks on
//! dangerous): when an agent writes a skill there is no user at the prompt to ask, and an agent talked
//! into writing a dangerous skill must not be able to persist it. The scanner's own result, with its
//! policy, is returned unchanged beside the decision.

use serde_json::{Map, Value, json};

use super::agents_md::{self, Entry};
use super::digest;
use super::judge::{self, Listed, Listing, Refusal, entry_path};
use super::layout::{self, Roots, Target, join};
use super::names::{PROVENANCE_PATH, name_problem, normalize_path, support_path_problem};
use super::patch::{self, PatchError};
use crate::Ctx;
use crate::error::{Error, Result};
use crate::scan::{Bundle, BundleFile, EntryKind, Trust};

/// Longest SKILL.md an agent may write, in characters (Hermes).
pub const MAX_SKILL_MD_CHARS: usize = 100_000;
/// Largest supporting file an agent may write, in bytes.
pub const MAX_SUPPORT_FILE_BYTES: usize = 1 << 20;

/// What the agent asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A new skill from a whole SKILL.md.
    Create { content: String },
    /// Replace the whole SKILL.md.
    Edit { content: String },
    /// Find and replace in SKILL.md, or in `file` (a supporting file).
    Patch {
        old: String,
        new: String,
        file: Option<String>,
        replace_all: bool,
    },
    /// Remove the skill.
    Delete,
    /// Add or replace a supporting file.
    WriteFile { path: String, content: String },
    /// Remove a supporting file.
    RemoveFile { path: String },
}

impl Action {
    pub fn name(&self) -> &'static str {
        match self {
            Action::Create { .. } => "create",
            Action::Edit { .. } => "edit",
            Action::Patch { .. } => "patch",
            Action::Delete => "delete",
            Action::WriteFile { .. } => "write-file",
            Action::RemoveFile { .. } => "remove-file",
        }
    }
}

/// One agent write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditRequest {
    pub name: String,
    pub action: Action,
    pub target: Target,
    pub roots: Roots,
}

/// What the host read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EditFacts {
    /// The layout's skills folder (with category folders' entries), when it exists.
    pub listings: Vec<Listing>,
    /// The skill the host found under that name (not for `create`): its path and files.
    pub skill: Option<(String, Bundle)>,
    /// SHA-256 of each binary file of `skill`.
    pub digests: Vec<(String, String)>,
    /// The layout's AGENTS.md, `None` when it does not exist.
    pub agents_md: Option<String>,
}

/// The write decision for agent-written content (see the module documentation).
fn decision(verdict: &str) -> &'static str {
    match verdict {
        "safe" => "allow",
        "caution" => "ask",
        _ => "block",
    }
}

fn refused(mut out: Value, r: Refusal) -> Result<Value> {
    out["status"] = json!("refused");
    out["refusal"] = json!(r);
    Ok(out)
}

/// Check a whole SKILL.md an agent wrote for skill `name`: size, frontmatter, name, body.
fn check_skill_md(text: &str, name: &str) -> Option<Refusal> {
    let chars = text.chars().count();
    if chars > MAX_SKILL_MD_CHARS {
        return Some(Refusal::new(
            "too_large",
            format!("SKILL.md would have {chars} characters; at most {MAX_SKILL_MD_CHARS}"),
        ));
    }
    let probe = Bundle {
        name: name.to_owned(),
        files: vec![BundleFile::text("SKILL.md", text)],
        notes: vec![],
    };
    let (errors, warnings, fm) = judge::validate(&probe);
    if let Some(e) = errors.first() {
        return Some(Refusal::new(
            "invalid_skill",
            format!(
                "SKILL.md: {} (frontmatter needs name and description, then a body)",
                e["message"].as_str().unwrap_or("invalid")
            ),
        ));
    }
    let declared = fm.get("name").and_then(Value::as_str).unwrap_or("");
    if declared != name {
        return Some(Refusal::new(
            "name_mismatch",
            format!(
                "SKILL.md is named {declared:?} but the skill is {name:?}: they must be the same (the folder name is the lookup key)"
            ),
        ));
    }
    if warnings.iter().any(|w| w["code"] == "empty_body") {
        return Some(Refusal::new(
            "invalid_skill",
            "SKILL.md has no body after the frontmatter: write the steps the agent should follow",
        ));
    }
    None
}

/// Find the skill `name` in the listings of the layout's skills folder.
fn locate<'a>(listings: &'a [Listing], dir: &str, name: &str) -> Vec<(&'a Listing, &'a Listed)> {
    listings
        .iter()
        .filter(|l| l.path == dir)
        .flat_map(|l| l.entries.iter().map(move |e| (l, e)))
        .filter(|(_, e)| e.name.eq_ignore_ascii_case(name))
        .collect()
}

/// A symbolic link of the skill at `rel` or on the way to it (a write there would land elsewhere).
fn link_on_the_way(bundle: &Bundle, rel: &str) -> Option<String> {
    bundle
        .files
        .iter()
        .filter(|f| f.kind == EntryKind::Symlink)
        .find(|f| rel == f.path || rel.starts_with(&format!("{}/", f.path)))
        .map(|f| f.path.clone())
}

fn set_file(bundle: &mut Bundle, path: &str, text: Option<String>) {
    bundle.files.retain(|f| f.path != path);
    if let Some(t) = text {
        bundle.files.push(BundleFile::text(path, &t));
        bundle.files.sort_by(|a, b| a.path.cmp(&b.path));
    }
}

/// The plan for one agent write: `{action, skill, path, status: planned|refused, refusal?, decision,
/// scan, match?, writes: [{path, text}], create, remove, provenance?, agents_md?, sha256, warnings}`.
/// `writes` paths are relative to the skill folder; a `null` text removes the file.
pub fn plan_edit(ctx: &Ctx, req: &EditRequest, facts: &EditFacts) -> Result<Value> {
    if let Some(p) = name_problem(&req.name) {
        return Err(Error::invalid("name", p));
    }
    let layout = layout::resolve(&req.target, &req.roots)?;
    let stamp = crate::clock::stamp(crate::clock::parse_now(&ctx.now)?);
    let action = req.action.name();
    let mut out = json!({
        "action": action,
        "skill": req.name,
        "status": "refused",
        "layout": layout,
        "writes": [],
        "create": false,
        "remove": false,
        "warnings": [],
    });
    let here = locate(&facts.listings, &layout.skills_dir, &req.name);
    // The skill being changed, for every action but create.
    let (path, current) = if let Action::Create { .. } = req.action {
        if let Some((l, e)) = here.first() {
            return refused(
                out,
                Refusal::new(
                    "name_conflict",
                    format!(
                        "{} already exists: a skill of that name is there",
                        entry_path(l, e)
                    ),
                )
                .choices(vec![
                    format!(
                        "skill edit {} (rewrite it) or skill patch {}",
                        req.name, req.name
                    ),
                    "another name".into(),
                ]),
            );
        }
        (join(&layout.install_dir, &req.name), None)
    } else {
        let exact: Vec<_> = here.iter().filter(|(_, e)| e.name == req.name).collect();
        let chosen = match exact.as_slice() {
            [] => {
                return refused(
                    out,
                    Refusal::new(
                        "not_found",
                        format!("no skill named {} in {}", req.name, layout.skills_dir),
                    )
                    .choices(vec![format!("skill create {}", req.name)]),
                );
            }
            [one] => entry_path(one.0, one.1),
            many => {
                let paths: Vec<String> = many.iter().map(|(l, e)| entry_path(l, e)).collect();
                return refused(
                    out,
                    Refusal::new(
                        "ambiguous_name",
                        format!(
                            "{} skills are named {}: {}",
                            paths.len(),
                            req.name,
                            paths.join(", ")
                        ),
                    )
                    .choices(vec!["--category NAME".into()]),
                );
            }
        };
        match &facts.skill {
            Some((p, b)) if *p == chosen => (chosen, Some(b)),
            _ => {
                return Err(Error::invalid(
                    "skill",
                    format!("the host read another folder than {chosen}"),
                ));
            }
        }
    };
    out["path"] = json!(path);
    // Build the skill as it would be after the write.
    let mut next = match current {
        Some(b) => judge::without_provenance(b),
        None => Bundle {
            name: req.name.clone(),
            ..Default::default()
        },
    };
    next.name = req.name.clone();
    let mut writes: Vec<(String, Option<String>)> = Vec::new();
    let touched = match &req.action {
        Action::Patch { file: Some(f), .. } => Some(normalize_path(f)),
        Action::WriteFile { path, .. } | Action::RemoveFile { path } => Some(normalize_path(path)),
        _ => None,
    };
    if let Some(link) = touched.and_then(|t| link_on_the_way(&next, &t)) {
        return refused(
            out,
            Refusal::new(
                "symlink_in_path",
                format!(
                    "{link} is a symbolic link: a write through it could land outside the skill"
                ),
            ),
        );
    }
    match &req.action {
        Action::Create { content } | Action::Edit { content } => {
            if let Some(r) = check_skill_md(content, &req.name) {
                return refused(out, r);
            }
            set_file(&mut next, "SKILL.md", Some(content.clone()));
            writes.push(("SKILL.md".into(), Some(content.clone())));
        }
        Action::Patch {
            old,
            new,
            file,
            replace_all,
        } => {
            let target = file
                .as_deref()
                .map(normalize_path)
                .unwrap_or_else(|| "SKILL.md".into());
            if target != "SKILL.md"
                && let Some(p) = support_path_problem(&target)
            {
                return Err(Error::invalid("file", p));
            }
            let Some(text) = next
                .files
                .iter()
                .find(|f| f.path == target && f.kind == EntryKind::Text)
                .and_then(|f| f.content.clone())
            else {
                return refused(
                    out,
                    Refusal::new(
                        "not_found",
                        format!("{target} is not a text file of {}", req.name),
                    ),
                );
            };
            let patched = match patch::apply(&text, old, new, *replace_all) {
                Ok(p) => p,
                Err(e) => {
                    let mut r = Refusal::new(e.code(), e.to_string());
                    if let PatchError::Ambiguous { count, lines, .. } = &e {
                        r = r
                            .choices(vec![
                                "more surrounding text in --old".into(),
                                "--replace-all".into(),
                            ])
                            .details(json!({"count": count, "lines": lines}));
                    }
                    return refused(out, r);
                }
            };
            if target == "SKILL.md" {
                if let Some(r) = check_skill_md(&patched.text, &req.name) {
                    let r = Refusal::new(
                        r.code,
                        format!("the patch would break SKILL.md: {}", r.message),
                    );
                    return refused(out, r);
                }
            } else if patched.text.len() > MAX_SUPPORT_FILE_BYTES {
                return refused(
                    out,
                    Refusal::new(
                        "too_large",
                        format!(
                            "{target} would be {} bytes; at most {MAX_SUPPORT_FILE_BYTES}",
                            patched.text.len()
                        ),
                    ),
                );
            }
            out["match"] = json!(patched);
            set_file(&mut next, &target, Some(patched.text.clone()));
            writes.push((target, Some(patched.text)));
        }
        Action::WriteFile { path: rel, content } => {
            if let Some(p) = support_path_problem(rel) {
                return Err(Error::invalid("path", p));
            }
            if content.len() > MAX_SUPPORT_FILE_BYTES {
                return refused(
                    out,
                    Refusal::new(
                        "too_large",
                        format!(
                            "the content is {} bytes; at most {MAX_SUPPORT_FILE_BYTES}",
                            content.len()
                        ),
                    ),
                );
            }
            let rel = normalize_path(rel);
            if next
                .files
                .iter()
                .any(|f| f.path.starts_with(&format!("{rel}/")))
            {
                return refused(
                    out,
                    Refusal::new("not_a_file", format!("{rel} is a folder")),
                );
            }
            set_file(&mut next, &rel, Some(content.clone()));
            writes.push((rel, Some(content.clone())));
        }
        Action::RemoveFile { path: rel } => {
            if let Some(p) = support_path_problem(rel) {
                return Err(Error::invalid("path", p));
            }
            let rel = normalize_path(rel);
            if !next.files.iter().any(|f| f.path == rel) {
                return refused(
                    out,
                    Refusal::new("not_found", format!("{rel} is not a file of {}", req.name)),
                );
            }
            set_file(&mut next, &rel, None);
            writes.push((rel, None));
        }
        Action::Delete => {}
    }
    let removing = req.action == Action::Delete;
    // AGENTS.md, for layouts that keep one.
    let md_entry = |next: &Bundle| -> Option<Entry> {
        let text = next
            .files
            .iter()
            .find(|f| f.path == "SKILL.md")?
            .content
            .as_deref()?;
        let (_, _, fm) = judge::validate(&Bundle {
            name: req.name.clone(),
            files: vec![BundleFile::text("SKILL.md", text)],
            notes: vec![],
        });
        Some(Entry {
            name: req.name.clone(),
            description: judge::fm_str(&fm, "description").unwrap_or_default(),
            location: String::new(),
        })
    };
    if let Some(md) = &layout.agents_md {
        let (upsert, remove): (Vec<Entry>, Vec<String>) = if removing {
            (vec![], vec![req.name.clone()])
        } else {
            let listed = facts
                .agents_md
                .as_deref()
                .and_then(|t| agents_md::listed(t).ok())
                .unwrap_or_default();
            match md_entry(&next) {
                // An edit refreshes an existing entry's description; a create adds one.
                Some(mut e)
                    if matches!(req.action, Action::Create { .. })
                        || listed.contains(&req.name) =>
                {
                    e.location = agents_md::location(md, &path);
                    (vec![e], vec![])
                }
                _ => (vec![], vec![]),
            }
        };
        if !upsert.is_empty() || !remove.is_empty() {
            match agents_md::update(facts.agents_md.as_deref(), &upsert, &remove) {
                Ok(u) if u.changed => {
                    out["agents_md"] =
                        json!({"path": md, "text": u.text, "changed": true, "listed": u.listed});
                }
                Ok(_) => {}
                Err(m) => {
                    return refused(
                        out,
                        Refusal::new(
                            "agents_md_malformed",
                            format!("{md}: {m}; nothing was written"),
                        )
                        .choices(vec![
                            format!("repair {md} at line {}", m.line),
                            "--no-agents-md".into(),
                        ]),
                    );
                }
            }
        }
    }
    if removing {
        out["remove"] = json!(true);
        out["decision"] = json!("allow");
        out["status"] = json!("planned");
        return Ok(out);
    }
    let scan = judge::scan(&next, Trust::AgentCreated, false);
    let decided = decision(&scan.verdict);
    out["decision"] = json!(decided);
    out["scan"] = scan.json.clone();
    if decided == "block" {
        let findings = scan.json["findings"].clone();
        return refused(
            out,
            Refusal::new(
                "blocked",
                format!(
                    "the scan rates the skill after this {action} {}: nothing was written{}",
                    scan.verdict,
                    if current.is_some() {
                        " (the previous bytes are unchanged)"
                    } else {
                        " (no skill was created)"
                    }
                ),
            )
            .details(json!({"verdict": scan.verdict, "findings": findings})),
        );
    }
    if decided == "ask" {
        let w: Vec<String> = scan.json["findings"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| matches!(f["severity"].as_str(), Some("high" | "critical")))
            .map(|f| {
                format!(
                    "{} {}:{} {}",
                    f["rule_id"].as_str().unwrap_or(""),
                    f["file"].as_str().unwrap_or(""),
                    f["line"],
                    f["description"].as_str().unwrap_or("")
                )
            })
            .collect();
        out["warnings"] = json!(w);
    }
    let binary: Vec<(String, String)> = facts
        .digests
        .iter()
        .filter(|(p, _)| {
            next.files
                .iter()
                .any(|f| &f.path == p && f.kind == EntryKind::Binary)
        })
        .cloned()
        .collect();
    let sha = digest::tree_digest(&next, &binary).map_err(|m| Error::invalid("digests", m))?;
    out["sha256"] = json!(sha);
    // Provenance: a created skill gets one; an edited skill's is brought up to date, if it has one.
    let old_prov = current.and_then(|b| {
        b.files
            .iter()
            .find(|f| f.path == PROVENANCE_PATH)
            .and_then(|f| f.content.clone())
    });
    let prov: Option<Map<String, Value>> = match (&req.action, old_prov) {
        (Action::Create { .. }, _) => {
            let mut m = Map::new();
            m.insert("format".into(), json!("skill-recommender/provenance@1"));
            m.insert("name".into(), json!(req.name));
            m.insert("source".into(), json!("agent"));
            m.insert("created_by".into(), json!("agent"));
            m.insert("created_at".into(), json!(stamp));
            m.insert("trust".into(), json!("agent-created"));
            m.insert("agent".into(), json!(layout.agent));
            m.insert("edits".into(), json!(0));
            Some(m)
        }
        (_, Some(text)) => match judge::parse_provenance(&text) {
            Ok(mut m) => {
                let edits = m.get("edits").and_then(Value::as_u64).unwrap_or(0) + 1;
                m.insert("edits".into(), json!(edits));
                m.insert(
                    "last_edit".into(),
                    json!({"action": action, "at": stamp, "by": "agent"}),
                );
                Some(m)
            }
            Err(e) => {
                out["warnings"]
                    .as_array_mut()
                    .expect("array")
                    .push(json!(format!(
                        "{PROVENANCE_PATH} is unreadable ({e}); it was left as it is"
                    )));
                None
            }
        },
        _ => None,
    };
    if let Some(mut m) = prov {
        m.insert("sha256".into(), json!(sha));
        m.insert(
            "scan".into(),
            json!({"verdict": scan.verdict, "policy": decided, "trust": "agent-created"}),
        );
        m.insert("rules".into(), json!(digest::rules_version()));
        let text = serde_json::to_string_pretty(&Value::Object(m)).expect("JSON serializes") + "\n";
        out["provenance"] = json!({"path": PROVENANCE_PATH, "text": text});
    }
    out["create"] = json!(matches!(req.action, Action::Create { .. }));
    out["writes"] = json!(
        writes
            .into_iter()
            .map(|(p, t)| json!({"path": p, "text": t}))
            .collect::<Vec<_>>()
    );
    out["status"] = json!("planned");
    Ok(out)
}

#[cfg(test)]
mod tests;
