//! The install plan and the uninstall plan.
//!
//! `plan_install` takes the bundle the host read from a folder or archive, the digests of its binary
//! files, and what the host saw in the target folders; it decides the folder (the agent's conventions
//! and the seed's order), checks the bundle (structure, SKILL.md, name = slug), scans it with the
//! scanner's trust policy, detects name conflicts between namespaces, computes the AGENTS.md text and
//! the provenance document, and returns either a refusal or the exact writes. `plan_uninstall` finds the
//! folder to remove and the AGENTS.md text without its entry.

use serde_json::{Value, json};

use super::agents_md::{self, Entry};
use super::coordinate::{self, Coordinate};
use super::digest::{self, Digests, rules_version};
use super::judge::{self, Listed, Listing, Refusal, entry_path, provenance_summary};
use super::layout::{self, Layout, Roots, Target, join};
use super::names::{OWN_DIR, PROVENANCE_PATH, name_problem};
use crate::Ctx;
use crate::error::{Error, Result};
use crate::scan::{Bundle, EntryKind, Trust};

/// An install, as asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallRequest {
    /// The source as the user named it (a folder, `.zip` or `.skill` path), for provenance.
    pub source: String,
    /// `folder`, `archive` or `file` (a lone SKILL.md).
    pub source_kind: String,
    /// The SHA-256 of the archive file, when the source is an archive.
    pub archive_sha256: Option<String>,
    /// `--coordinate`: where the platform got it (`@ns/slug@1.2.0`, `slug`, `ns--slug`, …).
    pub coordinate: Option<String>,
    /// `--as`: install under this folder name instead (the SKILL.md `name` is set to it).
    pub alias: Option<String>,
    /// The id history records the accept under (default `local:<name>`).
    pub skill_id: Option<String>,
    pub trust: Trust,
    /// Lift a soft block after review (never `dangerous` on community or trusted).
    pub force: bool,
    /// The user confirmed an `ask`.
    pub yes: bool,
    /// Replace a skill already installed under the same folder name.
    pub replace: bool,
    pub target: Target,
    pub roots: Roots,
}

/// What the host saw on disk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Facts {
    /// Each existing folder of the layout's search order, with its entries (Hermes: category folders'
    /// entries too).
    pub listings: Vec<Listing>,
    /// The layout's AGENTS.md, `None` when it does not exist.
    pub agents_md: Option<String>,
}

fn same_name(a: &str, b: &str) -> bool {
    // Case-insensitive: two folders differing only in case are one folder on macOS and Windows.
    a.eq_ignore_ascii_case(b)
}

/// Entries named `name` in the listing of `dir`.
fn found<'a>(facts: &'a Facts, dir: &str, name: &str) -> Vec<(&'a Listing, &'a Listed)> {
    facts
        .listings
        .iter()
        .filter(|l| l.path == dir)
        .flat_map(|l| l.entries.iter().map(move |e| (l, e)))
        .filter(|(_, e)| same_name(&e.name, name))
        .collect()
}

/// Shadowing warnings: the same name in the other folders of the search order.
fn shadows(layout: &Layout, facts: &Facts, name: &str) -> Vec<String> {
    let here = layout
        .search
        .iter()
        .position(|s| s.path == layout.skills_dir);
    let mut out = Vec::new();
    for (i, s) in layout.search.iter().enumerate() {
        if s.path == layout.skills_dir {
            continue;
        }
        for (l, e) in found(facts, &s.path, name) {
            let path = entry_path(l, e);
            let before = here.is_some_and(|h| i < h);
            out.push(if before {
                format!("{path} has a skill of the same name and comes first in the search order: agents will load that one, not this install")
            } else {
                format!("{path} has a skill of the same name; this install comes first and hides it")
            });
        }
    }
    out
}

fn free_alias(facts: &Facts, dir: &str, base: &str) -> Option<String> {
    (1..100)
        .map(|i| {
            if i == 1 {
                base.to_owned()
            } else {
                format!("{base}-{i}")
            }
        })
        .find(|n| name_problem(n).is_none() && found(facts, dir, n).is_empty())
}

/// Problems with the bundle's structure that rule out installing it, whatever its content.
fn structure(bundle: &Bundle) -> Option<Refusal> {
    if !bundle.notes.is_empty() {
        let notes: Vec<Value> = bundle
            .notes
            .iter()
            .map(|n| json!({"path": n.path, "code": n.code, "message": n.message}))
            .collect();
        return Some(
            Refusal::new(
                "incomplete_bundle",
                format!(
                    "the source could not be read completely ({} refused or unread entries: {}); installing part of a skill is never right",
                    notes.len(),
                    bundle.notes.iter().map(|n| format!("{} ({})", n.path, n.code)).collect::<Vec<_>>().join(", ")
                ),
            )
            .details(json!({ "notes": notes })),
        );
    }
    if let Some(f) = bundle.files.iter().find(|f| f.kind == EntryKind::Symlink) {
        return Some(Refusal::new(
            "symlink_in_bundle",
            format!(
                "{} is a symbolic link (-> {}); skills are installed from regular files only",
                f.path,
                f.link_target.as_deref().unwrap_or("?")
            ),
        ));
    }
    if let Some(f) = bundle
        .files
        .iter()
        .find(|f| f.kind == EntryKind::Unreadable)
    {
        return Some(Refusal::new(
            "incomplete_bundle",
            format!("{} could not be read", f.path),
        ));
    }
    if let Some(f) = bundle
        .files
        .iter()
        .find(|f| f.path == OWN_DIR || f.path.starts_with(&format!("{OWN_DIR}/")))
    {
        return Some(Refusal::new(
            "reserved_path",
            format!(
                "{} is inside {OWN_DIR}/, which holds this tool's provenance: a bundle may not ship it",
                f.path
            ),
        ));
    }
    if let Some(f) = bundle
        .files
        .iter()
        .find(|f| crate::scan::bundle::path_problem(&f.path).is_some())
    {
        return Some(Refusal::new(
            "incomplete_bundle",
            format!("{} leaves the skill folder", f.path),
        ));
    }
    None
}

/// The install plan: `{status: planned|unchanged|refused, refusal?, skill, layout, coordinate,
/// validation, scan, sha256, bundle_sha256, install?, agents_md?, history?, warnings}`.
pub fn plan_install(
    ctx: &Ctx,
    req: &InstallRequest,
    bundle: &Bundle,
    digests: &Digests,
    facts: &Facts,
) -> Result<Value> {
    let layout = layout::resolve(&req.target, &req.roots)?;
    let coord: Option<Coordinate> = req
        .coordinate
        .as_deref()
        .map(coordinate::parse)
        .transpose()?;
    if let Some(a) = &req.alias
        && let Some(p) = name_problem(a)
    {
        return Err(Error::invalid("as", p));
    }
    if let Some(h) = &req.archive_sha256
        && !digest::is_sha256(h)
    {
        return Err(Error::invalid(
            "archive-sha256",
            "not 64 lowercase hex characters",
        ));
    }
    if !matches!(req.source_kind.as_str(), "folder" | "archive" | "file") {
        return Err(Error::invalid(
            "source-kind",
            format!("{:?}: use folder, archive or file", req.source_kind),
        ));
    }
    let stamp = crate::clock::stamp(crate::clock::parse_now(&ctx.now)?);
    let mut out = json!({
        "status": "refused",
        "source": req.source,
        "layout": layout,
        "coordinate": coord,
        "warnings": [],
    });
    let refuse = |mut out: Value, r: Refusal| -> Result<Value> {
        out["refusal"] = json!(r);
        Ok(out)
    };
    if let Some(r) = structure(bundle) {
        return refuse(out, r);
    }
    let skill_md = bundle
        .files
        .iter()
        .find(|f| f.path == "SKILL.md")
        .and_then(|f| f.content.clone());
    let Some(skill_md) = skill_md else {
        return refuse(
            out,
            Refusal::new(
                "invalid_skill",
                "the source has no SKILL.md at its root (a skill is a folder with SKILL.md)",
            ),
        );
    };
    let declared = crate::validate::frontmatter_name(&skill_md).unwrap_or_default();
    if let Some(c) = &coord
        && c.slug != declared
    {
        return refuse(
            out,
            Refusal::new(
                "name_mismatch",
                format!(
                    "the coordinate asks for {:?} but the bundle's SKILL.md is named {declared:?}: the folder name, the slug and the SKILL.md name must be the same skill",
                    c.slug
                ),
            )
            .choices(vec![
                "check that the platform downloaded the skill you asked for".into(),
            ]),
        );
    }
    let dir_name = req.alias.clone().unwrap_or_else(|| declared.clone());
    out["skill"] = json!(dir_name);
    let mut installed = bundle.clone();
    installed.name = dir_name.clone();
    if req.alias.is_some() && dir_name != declared {
        match judge::rename_skill_md(&skill_md, &dir_name) {
            Some(text) => {
                if let Some(f) = installed.files.iter_mut().find(|f| f.path == "SKILL.md") {
                    f.size = text.len() as u64;
                    f.content = Some(text);
                }
            }
            None => {
                return refuse(
                    out,
                    Refusal::new(
                        "invalid_skill",
                        "SKILL.md has no `name:` line in its frontmatter to set the alias in",
                    ),
                );
            }
        }
    }
    let (errors, warnings, fm) = judge::validate(&installed);
    out["validation"] = json!({"valid": errors.is_empty(), "errors": errors, "warnings": warnings});
    if !errors.is_empty() {
        let list: Vec<String> = errors
            .iter()
            .map(|e| e["message"].as_str().unwrap_or("").to_owned())
            .collect();
        return refuse(
            out,
            Refusal::new(
                "invalid_skill",
                format!("SKILL.md is not valid: {}", list.join("; ")),
            ),
        );
    }
    if let Some(p) = name_problem(&dir_name) {
        return refuse(out, Refusal::new("invalid_skill", p));
    }
    let source_digest =
        digest::tree_digest(bundle, digests).map_err(|m| Error::invalid("digests", m))?;
    let binary: Vec<(String, String)> = digests
        .iter()
        .filter(|(p, _)| {
            installed
                .files
                .iter()
                .any(|f| &f.path == p && f.kind == EntryKind::Binary)
        })
        .cloned()
        .collect();
    let installed_digest =
        digest::tree_digest(&installed, &binary).map_err(|m| Error::invalid("digests", m))?;
    out["sha256"] = json!(installed_digest);
    out["bundle_sha256"] = json!(source_digest);
    let scan = judge::scan(&installed, req.trust, req.force);
    out["scan"] = scan.json.clone();
    match scan.policy.as_str() {
        "block" => {
            let findings = scan.json["findings"].clone();
            let reason = scan.json["reason"].as_str().unwrap_or("").to_owned();
            return refuse(
                out,
                Refusal::new("blocked", format!("the scan blocks this install: {reason}"))
                    .details(json!({"verdict": scan.verdict, "findings": findings})),
            );
        }
        "ask" if !req.yes => {
            let reason = scan.json["reason"].as_str().unwrap_or("").to_owned();
            return refuse(
                out,
                Refusal::new(
                    "needs_confirmation",
                    format!(
                        "{reason}: show the findings to the user, and install only if they agree"
                    ),
                )
                .choices(vec!["--yes (after the user agreed)".into()]),
            );
        }
        _ => {}
    }
    // Conflicts: the same folder name already in the target folder (any category, for Hermes).
    let here = found(facts, &layout.skills_dir, &dir_name);
    let mut replace = None;
    if let Some((listing, existing)) = here.first() {
        let path = entry_path(listing, existing);
        let recorded = existing
            .provenance
            .as_deref()
            .and_then(|t| judge::parse_provenance(t).ok());
        let same_tree = recorded
            .as_ref()
            .and_then(|m| m.get("sha256"))
            .and_then(Value::as_str)
            == Some(installed_digest.as_str());
        if same_tree && existing.name == dir_name && !req.replace {
            out["status"] = json!("unchanged");
            out["path"] = json!(path);
            out["message"] = json!(format!(
                "{dir_name} is already installed at {path} from the same files (sha256 {}); nothing to do",
                &installed_digest[..12]
            ));
            return Ok(out);
        }
        if req.replace && existing.is_dir && existing.name == dir_name {
            replace = Some(path.clone());
        } else {
            let theirs = recorded
                .as_ref()
                .and_then(|m| m.get("coordinate"))
                .and_then(Value::as_str)
                .and_then(|c| coordinate::parse(c).ok());
            let namespaces_differ = match (&theirs, &coord) {
                (Some(a), Some(b)) => a.namespace != b.namespace,
                _ => false,
            };
            let base = match &coord {
                Some(c) if c.namespace != coordinate::GLOBAL => {
                    format!("{dir_name}-{}", c.namespace)
                }
                _ => format!("{dir_name}-2"),
            };
            let mut choices: Vec<String> = free_alias(facts, &layout.skills_dir, &base)
                .map(|a| format!("--as {a} (install beside it under another name)"))
                .into_iter()
                .collect();
            choices.push(format!("uninstall {} first", existing.name));
            if existing.is_dir && existing.name == dir_name {
                choices.push("--replace (replace the installed skill with this one)".into());
            }
            let what = match (namespaces_differ, &theirs) {
                (true, Some(t)) => format!(
                    "a skill from another namespace ({}) is installed there",
                    t.coordinate
                ),
                _ if existing.provenance.is_none() => {
                    "a skill not installed by this tool is there".to_owned()
                }
                _ => "a different version or build of a skill is installed there".to_owned(),
            };
            return refuse(
                out,
                Refusal::new(
                    "name_conflict",
                    format!("{path} already exists: {what}"),
                )
                .choices(choices)
                .details(json!({
                    "existing": {"path": path, "provenance": provenance_summary(existing.provenance.as_deref())},
                })),
            );
        }
    }
    let parent = layout.install_dir.clone();
    let path = join(&parent, &dir_name);
    out["path"] = json!(path);
    let mut warn: Vec<String> = shadows(&layout, facts, &dir_name);
    let description = judge::fm_str(&fm, "description").unwrap_or_default();
    let agents_md = match &layout.agents_md {
        None => Value::Null,
        Some(md) => {
            let entry = Entry {
                name: dir_name.clone(),
                description: description.clone(),
                location: agents_md::location(md, &path),
            };
            match agents_md::update(facts.agents_md.as_deref(), &[entry], &[]) {
                Ok(u) => {
                    warn.extend(u.warnings.iter().cloned());
                    json!({"path": md, "text": u.text, "changed": u.changed, "section_added": u.section_added, "listed": u.listed})
                }
                Err(m) => {
                    return refuse(
                        out,
                        Refusal::new(
                            "agents_md_malformed",
                            format!("{md}: {m}; nothing was installed"),
                        )
                        .choices(vec![
                            format!("repair {md} at line {}", m.line),
                            "--no-agents-md (install without listing it there)".into(),
                        ]),
                    );
                }
            }
        }
    };
    let version = coord
        .as_ref()
        .and_then(|c| c.version.clone())
        .or_else(|| judge::fm_str(&fm, "version"));
    let skill_id = req
        .skill_id
        .clone()
        .unwrap_or_else(|| crate::lifecycle::local_id(&dir_name));
    let files: Vec<Value> = installed
        .files
        .iter()
        .map(|f| {
            let sha = match &f.content {
                Some(t) => digest::sha256_hex(t.as_bytes()),
                None => binary
                    .iter()
                    .find(|(p, _)| *p == f.path)
                    .map(|(_, d)| d.clone())
                    .unwrap_or_default(),
            };
            json!({"path": f.path, "sha256": sha, "executable": f.executable})
        })
        .collect();
    let rewrite = if installed.files != bundle.files {
        let text = installed
            .files
            .iter()
            .find(|f| f.path == "SKILL.md")
            .and_then(|f| f.content.clone());
        json!({ "SKILL.md": text })
    } else {
        json!({})
    };
    let provenance = json!({
        "format": "skill-recommender/provenance@1",
        "name": dir_name,
        "skill_md_name": if dir_name != declared { json!(declared) } else { Value::Null },
        "source": req.source,
        "source_kind": req.source_kind,
        "coordinate": coord.as_ref().map(|c| c.coordinate.clone()),
        "namespace": coord.as_ref().map(|c| c.namespace.clone()),
        "version": version,
        "tag": coord.as_ref().and_then(|c| c.tag.clone()),
        "sha256": installed_digest,
        "bundle_sha256": source_digest,
        "archive_sha256": req.archive_sha256,
        "trust": judge::trust_name(req.trust),
        "scan": {
            "verdict": scan.verdict,
            "policy": scan.policy,
            "forced": req.force,
            "confirmed": scan.policy == "ask" && req.yes,
            "findings": scan.json["findings"].as_array().map_or(0, Vec::len),
            "by_severity": scan.json["stats"]["by_severity"],
        },
        "rules": rules_version(),
        "component_version": env!("CARGO_PKG_VERSION"),
        "installed_at": stamp,
        "agent": layout.agent,
        "scope": layout.scope,
        "skill_id": skill_id,
    });
    let provenance_text =
        serde_json::to_string_pretty(&provenance).expect("JSON serializes") + "\n";
    out["status"] = json!("planned");
    out["version"] = provenance["version"].clone();
    out["warnings"] = json!(warn);
    out["install"] = json!({
        "path": path,
        "parent": parent,
        "dir_name": dir_name,
        "files": files,
        "rewrite": rewrite,
        "provenance": {"path": PROVENANCE_PATH, "text": provenance_text},
        "replace": replace,
    });
    out["agents_md"] = agents_md;
    out["history"] = json!({
        "skill_id": skill_id,
        "name": declared,
        "url": Value::Null,
        "categories": [],
    });
    Ok(out)
}

/// An uninstall, as asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UninstallRequest {
    pub name: String,
    pub target: Target,
    pub roots: Roots,
}

/// The uninstall plan: `{status: planned|refused, refusal?, skill, path, managed, provenance,
/// agents_md?, layout}`.
pub fn plan_uninstall(req: &UninstallRequest, facts: &Facts) -> Result<Value> {
    if let Some(p) = name_problem(&req.name) {
        return Err(Error::invalid("name", p));
    }
    let layout = layout::resolve(&req.target, &req.roots)?;
    let mut out = json!({"status": "refused", "skill": req.name, "layout": layout});
    let matches: Vec<(&Listing, &Listed)> = found(facts, &layout.skills_dir, &req.name)
        .into_iter()
        .filter(|(_, e)| e.name == req.name)
        .filter(|(_, e)| layout.category.is_none() || e.category == layout.category)
        .collect();
    let (listing, entry) = match matches.as_slice() {
        [] => {
            out["refusal"] = json!(
                Refusal::new(
                    "not_installed",
                    format!("no skill named {} in {}", req.name, layout.skills_dir)
                )
                .choices(vec![
                    "installed (to list what is installed, and where)".into()
                ])
            );
            return Ok(out);
        }
        [one] => *one,
        many => {
            let paths: Vec<String> = many.iter().map(|(l, e)| entry_path(l, e)).collect();
            out["refusal"] = json!(
                Refusal::new(
                    "ambiguous_name",
                    format!(
                        "{} skills are named {}: {}",
                        paths.len(),
                        req.name,
                        paths.join(", ")
                    )
                )
                .choices(vec!["--category NAME (the folder it sits in)".into()])
            );
            return Ok(out);
        }
    };
    let path = entry_path(listing, entry);
    out["path"] = json!(path);
    if !entry.is_dir || !(entry.has_skill_md || entry.provenance.is_some()) {
        out["refusal"] = json!(Refusal::new(
            "not_a_skill",
            format!("{path} is not a skill folder (no SKILL.md): left alone")
        ));
        return Ok(out);
    }
    out["managed"] = json!(entry.provenance.is_some());
    out["provenance"] = provenance_summary(entry.provenance.as_deref());
    out["agents_md"] = match &layout.agents_md {
        None => Value::Null,
        Some(md) => match facts
            .agents_md
            .as_deref()
            .map(|t| agents_md::update(Some(t), &[], std::slice::from_ref(&req.name)))
        {
            None => Value::Null,
            Some(Ok(u)) => {
                json!({"path": md, "text": u.text, "changed": u.changed, "listed": u.listed})
            }
            Some(Err(m)) => {
                out["refusal"] = json!(
                    Refusal::new(
                        "agents_md_malformed",
                        format!("{md}: {m}; nothing was removed")
                    )
                    .choices(vec![
                        format!("repair {md} at line {}", m.line),
                        "--no-agents-md (remove the folder, leave AGENTS.md alone)".into(),
                    ])
                );
                return Ok(out);
            }
        },
    };
    out["status"] = json!("planned");
    Ok(out)
}

#[cfg(test)]
mod tests;
