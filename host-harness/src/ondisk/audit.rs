//! `audit`: every installed skill re-scanned with the current rules and compared with its provenance,
//! in one process across cores (one component call per skill; the harness is shared by the workers,
//! and with the instance pool each call reuses warm instance memory).
//!
//! The list of skill folders comes from the component's layout (every agent's folders, or one agent's)
//! plus `--skills-dir` folders; each folder's skills (and, one level down, category folders' skills)
//! are audited. This is the per-bundle half of a catalog scan: [`audit_paths`] takes any list of skill
//! folders, so a catalog scanner that enumerates folders its own way can hand them over.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

use super::{Env, Outcome, disk, resolve, txn};
use crate::error::Error;
use crate::{SkillsCall, Target};

/// `audit`'s arguments.
#[derive(Debug, Clone, Default)]
pub struct AuditArgs {
    /// Restrict the known folders to this agent's (and scope's); `None`: every agent's.
    pub target: Option<Target>,
    /// More skills folders (`<dir>/<skill>/SKILL.md`).
    pub dirs: Vec<PathBuf>,
    /// Skip the known folders; only `dirs`.
    pub no_discover: bool,
    /// Worker threads (0: one per core).
    pub jobs: usize,
}

/// One skill folder to audit and whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditItem {
    pub path: PathBuf,
    pub agent: String,
}

/// The skill folders under the folders `args` names, each once, in folder order.
pub fn items(env: &Env, args: &AuditArgs) -> Result<(Vec<AuditItem>, Vec<String>), Error> {
    let mut dirs: Vec<(String, String, bool)> = Vec::new();
    if !args.no_discover {
        let (target, all) = match &args.target {
            Some(t) => (t.clone(), false),
            None => (Target::default(), true),
        };
        let layout = resolve(env, &target, all)?;
        let search = if all || args.target.as_ref().is_some_and(|t| t.scope.is_none()) {
            layout.search.clone()
        } else {
            layout
                .search
                .iter()
                .filter(|s| s.path == layout.skills_dir)
                .cloned()
                .collect()
        };
        dirs.extend(search.into_iter().map(|s| (s.path, s.agent, s.categories)));
    }
    for d in &args.dirs {
        let abs = std::path::absolute(d).unwrap_or_else(|_| d.clone());
        dirs.push((abs.display().to_string(), "custom".into(), true));
    }
    let mut out: Vec<AuditItem> = Vec::new();
    let mut scanned = Vec::new();
    let mut seen_dirs = Vec::new();
    for (path, agent, categories) in dirs {
        let canon = Path::new(&path).canonicalize().ok();
        if canon.as_ref().is_some_and(|c| seen_dirs.contains(c)) {
            continue;
        }
        let Some(l) = disk::listing(&path, categories) else {
            continue;
        };
        seen_dirs.extend(canon);
        scanned.push(path.clone());
        for e in &l.entries {
            if e.is_dir && e.has_skill_md {
                out.push(AuditItem {
                    path: PathBuf::from(guest::ondisk::judge::entry_path(&l, e)),
                    agent: agent.clone(),
                });
            }
        }
    }
    Ok((out, scanned))
}

fn audit_one(env: &Env, item: &AuditItem) -> Value {
    let path = item.path.display().to_string();
    let read = disk::read_skill(&item.path).and_then(
        |disk::Read {
             bundle, digests, ..
         }| {
            let provenance = bundle
                .files
                .iter()
                .find(|f| f.path == guest::ondisk::names::PROVENANCE_PATH)
                .and_then(|f| f.content.clone());
            env.call(SkillsCall::AuditSkill {
                bundle,
                digests,
                provenance,
                path: path.clone(),
                agent: item.agent.clone(),
            })
        },
    );
    read.unwrap_or_else(|e| {
        json!({
            "skill": item.path.file_name().map(|n| n.to_string_lossy().into_owned()),
            "path": path,
            "agent": item.agent,
            "level": "attention",
            "reasons": [format!("could not be audited: {e}")],
        })
    })
}

/// Audit `items` on `jobs` threads (0: one per core); results in `items` order.
pub fn audit_paths(env: &Env, items: &[AuditItem], jobs: usize) -> Vec<Value> {
    let jobs = match jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(items.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Value>>> = Mutex::new(vec![None; items.len()]);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = audit_one(env, item);
                    results.lock().expect("audit results")[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .expect("audit results")
        .into_iter()
        .flatten()
        .collect()
}

/// `audit`: `{skills: [...], summary: {skills, dangerous, attention, ok, level, flagged, rules},
/// scanned, pending}`. Exit 8 when something is dangerous, 9 when something needs attention, else 0.
pub fn audit(env: &Env, args: &AuditArgs) -> Result<Outcome, Error> {
    let (items, scanned) = items(env, args)?;
    let results = audit_paths(env, &items, args.jobs);
    let summary = guest::ondisk::audit::summarize(&results);
    let pending: Vec<&String> = scanned
        .iter()
        .filter(|d| txn::pending(Path::new(d)))
        .collect();
    let exit = match summary["level"].as_str() {
        Some("dangerous") => 8,
        Some("attention") => 9,
        _ => 0,
    };
    Ok(Outcome {
        json: json!({
            "skills": results,
            "summary": summary,
            "scanned": scanned,
            "pending_recovery": pending,
        }),
        exit,
    })
}
