//! Skills on disk: the host half of `install`, `uninstall`, `installed` and the agent-written `skill`
//! commands (`audit` runs on the catalog engine: [`crate::catalog::Audit`]).
//!
//! Each command: resolve the folders (the component's layout), lock the skills folder, finish anything
//! an interrupted command left ([`txn::recover`]), read what the plan needs ([`disk`]), ask the component
//! for the plan (WIT `skills`), and — only when it says `planned` and this is not a dry run — carry it
//! out as one [`txn::Txn`]. The host never decides: refusals, the target, conflicts, texts and
//! provenance all come from the component.

pub mod disk;
pub mod txn;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::Error;
use crate::{
    Command, Ctx, DiskFacts, Harness, InstallRequest, NullStateStore, Roots, SkillAction,
    SkillFacts, SkillsCall, Target, Trust,
};
use txn::{Faults, HistorySkill, Step, Txn, io, join_rel, lock_dir, write_new};

/// What every command needs.
pub struct Env<'h> {
    pub harness: &'h Harness,
    pub ctx: Ctx,
    pub roots: Roots,
    /// Where `accept` is recorded after an install (`None`: not recorded).
    pub state_dir: Option<PathBuf>,
    pub faults: Faults,
    /// How long to wait for another process holding the skills folder.
    pub lock_timeout: Duration,
}

impl<'h> Env<'h> {
    /// The roots from the environment, no fault injection, a 30 s lock wait.
    pub fn new(harness: &'h Harness, ctx: Ctx, state_dir: Option<PathBuf>) -> Env<'h> {
        Env {
            harness,
            ctx,
            roots: disk::roots_from_env(),
            state_dir,
            faults: Faults::default(),
            lock_timeout: Duration::from_secs(30),
        }
    }

    fn call(&self, call: SkillsCall) -> Result<Value, Error> {
        self.harness
            .run_owned(&NullStateStore, &self.ctx, Command::Skills(Box::new(call)))
    }
}

/// A command's result: the JSON to print and the process exit code.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub json: Value,
    pub exit: u8,
}

/// The exit code of a refusal (documented in docs/skills-on-disk.md): 8 the skill is refused (invalid,
/// hostile, blocked by the scan), 9 the scan asks the user first, 10 a conflict with what is on disk,
/// 3 a patch that does not apply.
pub fn refusal_exit(code: &str) -> u8 {
    match code {
        "needs_confirmation" => 9,
        "name_conflict"
        | "agents_md_malformed"
        | "not_installed"
        | "not_found"
        | "ambiguous_name"
        | "not_a_skill"
        | "not_a_file"
        | "symlink_in_path" => 10,
        "empty_old" | "no_match" | "ambiguous_match" | "unchanged" => 3,
        _ => 8,
    }
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct SearchDir {
    pub path: String,
    pub agent: String,
    pub categories: bool,
}

#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Layout {
    pub skills_dir: String,
    pub category: Option<String>,
    pub agents_md: Option<String>,
    pub categories: bool,
    pub search: Vec<SearchDir>,
}

pub(crate) fn resolve(env: &Env, target: &Target, all: bool) -> Result<Layout, Error> {
    let v = env.call(SkillsCall::ResolveLayout {
        target: target.clone(),
        roots: env.roots.clone(),
        all,
    })?;
    serde_json::from_value(v)
        .map_err(|e| Error::Component(format!("the component returned an unusable layout: {e}")))
}

/// The locks of one command: the skills folder, and the AGENTS.md's folder when it is another.
struct Locks(#[allow(dead_code)] Vec<txn::DirLock>);

fn lock(env: &Env, layout: &Layout) -> Result<Locks, Error> {
    let skills = PathBuf::from(&layout.skills_dir);
    std::fs::create_dir_all(&skills).map_err(|e| io("create", &skills, e))?;
    let mut locks = vec![lock_dir(&skills, env.lock_timeout)?];
    if let Some(md) = &layout.agents_md {
        let parent = Path::new(md).parent().map(Path::to_path_buf);
        if let Some(p) = parent.filter(|p| p.is_dir()) {
            let same = match (p.canonicalize(), skills.canonicalize()) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            };
            if !same {
                locks.push(lock_dir(&p, env.lock_timeout)?);
            }
        }
    }
    Ok(Locks(locks))
}

fn facts(layout: &Layout) -> Result<DiskFacts, Error> {
    let mut listings = Vec::new();
    let mut seen = Vec::new();
    let mut dirs: Vec<(&str, bool)> = layout
        .search
        .iter()
        .map(|s| (s.path.as_str(), s.categories))
        .collect();
    dirs.push((layout.skills_dir.as_str(), layout.categories));
    for (path, categories) in dirs {
        if seen.contains(&path) {
            continue;
        }
        seen.push(path);
        if let Some(l) = disk::listing(path, categories) {
            listings.push(l);
        }
    }
    let agents_md = match &layout.agents_md {
        Some(p) => disk::read_small(Path::new(p))?,
        None => None,
    };
    Ok(DiskFacts {
        listings,
        agents_md,
    })
}

/// The plan as people and agents read it: file texts replaced by what they are.
fn present(mut plan: Value) -> Value {
    if let Some(md) = plan.get_mut("agents_md").and_then(Value::as_object_mut) {
        md.remove("text");
    }
    if let Some(i) = plan.get_mut("install").and_then(Value::as_object_mut) {
        if let Some(r) = i.remove("rewrite").and_then(|r| r.as_object().cloned()) {
            i.insert("rewritten".into(), json!(r.keys().collect::<Vec<_>>()));
        }
        if let Some(p) = i.get("provenance").and_then(|p| p["text"].as_str()) {
            let parsed: Value = serde_json::from_str(p).unwrap_or(Value::Null);
            i.insert("provenance".into(), parsed);
        }
    }
    if let Some(p) = plan.get("provenance").and_then(|p| p["text"].as_str()) {
        plan["provenance"] = serde_json::from_str(p).unwrap_or(Value::Null);
    }
    if let Some(ws) = plan.get_mut("writes").and_then(Value::as_array_mut) {
        for w in ws {
            let bytes = w["text"].as_str().map(str::len);
            if let Some(o) = w.as_object_mut() {
                o.remove("text");
                o.insert(
                    "change".into(),
                    match bytes {
                        Some(n) => json!(format!("write {n} bytes")),
                        None => json!("remove"),
                    },
                );
            }
        }
    }
    plan
}

fn refused(plan: Value) -> Outcome {
    let code = plan["refusal"]["code"]
        .as_str()
        .unwrap_or("refused")
        .to_owned();
    Outcome {
        json: present(plan),
        exit: refusal_exit(&code),
    }
}

/// `install`'s arguments.
#[derive(Debug, Clone)]
pub struct InstallArgs {
    /// A folder, a `.zip`/`.skill` archive or a SKILL.md the platform downloaded.
    pub source: PathBuf,
    pub coordinate: Option<String>,
    pub alias: Option<String>,
    pub skill_id: Option<String>,
    pub trust: Trust,
    pub force: bool,
    pub yes: bool,
    pub replace: bool,
    pub dry_run: bool,
    pub target: Target,
}

fn source_kind(path: &Path) -> Result<(&'static str, Option<String>), Error> {
    let meta = std::fs::metadata(path).map_err(|e| Error::InvalidInput {
        field: "source".into(),
        message: format!("{}: {e}", path.display()),
    })?;
    if meta.is_dir() {
        return Ok(("folder", None));
    }
    let bytes = std::fs::read(path).map_err(|e| io("read", path, e))?;
    let lower = path.to_string_lossy().to_lowercase();
    if bytes.starts_with(b"PK\x03\x04") || lower.ends_with(".zip") || lower.ends_with(".skill") {
        Ok(("archive", Some(disk::sha256_hex(&bytes))))
    } else {
        Ok(("file", None))
    }
}

/// Install a skill (see the module documentation).
pub fn install(env: &Env, args: &InstallArgs) -> Result<Outcome, Error> {
    let layout = resolve(env, &args.target, false)?;
    let (kind, archive_sha256) = source_kind(&args.source)?;
    let disk::Read {
        bundle,
        blobs,
        digests,
    } = disk::read_skill(&args.source)?;
    let _locks = if args.dry_run {
        None
    } else {
        Some(lock(env, &layout)?)
    };
    let skills_dir = PathBuf::from(&layout.skills_dir);
    let recovered = if args.dry_run {
        vec![]
    } else {
        txn::recover(&skills_dir, env.harness)?
    };
    let source = std::path::absolute(&args.source).unwrap_or_else(|_| args.source.clone());
    let request = InstallRequest {
        source: source.display().to_string(),
        source_kind: kind.into(),
        archive_sha256,
        coordinate: args.coordinate.clone(),
        alias: args.alias.clone(),
        skill_id: args.skill_id.clone(),
        trust: args.trust,
        force: args.force,
        yes: args.yes,
        replace: args.replace,
        target: args.target.clone(),
        roots: env.roots.clone(),
    };
    let mut plan = env.call(SkillsCall::PlanInstall {
        request,
        bundle: bundle.clone(),
        digests,
        facts: facts(&layout)?,
    })?;
    plan["recovered"] = json!(recovered);
    match plan["status"].as_str() {
        Some("refused") => return Ok(refused(plan)),
        Some("unchanged") => {
            return Ok(Outcome {
                json: present(plan),
                exit: 0,
            });
        }
        Some("planned") if args.dry_run => {
            plan["status"] = json!("dry_run");
            return Ok(Outcome {
                json: present(plan),
                exit: 0,
            });
        }
        Some("planned") => {}
        other => {
            return Err(Error::Component(format!(
                "the install plan has an unknown status {other:?}"
            )));
        }
    }
    let mut t = Txn::begin(&skills_dir, "install", &env.faults)?;
    match stage_install(&mut t, env, &plan, &bundle, &blobs) {
        Ok(()) => {}
        Err(e) => {
            if !matches!(&e, Error::Disk { op: "crash", .. }) {
                t.abandon();
            }
            return Err(e);
        }
    }
    let warnings = t.commit(env.harness)?;
    plan["status"] = json!("installed");
    extend_warnings(&mut plan, warnings);
    Ok(Outcome {
        json: present(plan),
        exit: 0,
    })
}

fn extend_warnings(plan: &mut Value, more: Vec<String>) {
    if more.is_empty() {
        return;
    }
    match plan["warnings"].as_array_mut() {
        Some(w) => w.extend(more.into_iter().map(Value::from)),
        None => plan["warnings"] = json!(more),
    }
}

fn str_of<'a>(v: &'a Value, what: &str) -> Result<&'a str, Error> {
    v.as_str()
        .ok_or_else(|| Error::Component(format!("the plan has no {what}")))
}

/// Copy the planned files into the transaction's staging folder, checking each against the digest the
/// component judged, then add the provenance and the steps.
fn stage_install(
    t: &mut Txn,
    env: &Env,
    plan: &Value,
    bundle: &crate::Bundle,
    blobs: &crate::bundle::Blobs,
) -> Result<(), Error> {
    let i = &plan["install"];
    let stage = t.scratch("skill");
    let files = i["files"].as_array().cloned().unwrap_or_default();
    for (n, f) in files.iter().enumerate() {
        let rel = str_of(&f["path"], "file path")?;
        let dest = join_rel(&stage, rel)?;
        let bytes: Vec<u8> = match i["rewrite"][rel].as_str() {
            Some(text) => text.as_bytes().to_vec(),
            None => match bundle.files.iter().find(|b| b.path == rel) {
                Some(b) if b.content.is_some() => {
                    b.content.as_deref().unwrap_or_default().as_bytes().to_vec()
                }
                _ => blobs
                    .get(rel)
                    .cloned()
                    .ok_or_else(|| io("copy", &dest, "the source has no such file"))?,
            },
        };
        if n == 0 {
            t.fails("copy")?;
        }
        write_new(&dest, &bytes, f["executable"].as_bool().unwrap_or(false))?;
        let written = std::fs::read(&dest).map_err(|e| io("read back", &dest, e))?;
        if disk::sha256_hex(&written) != str_of(&f["sha256"], "file digest")? {
            return Err(io(
                "verify",
                &dest,
                "the staged copy differs from what was scanned",
            ));
        }
        if n == 0 {
            t.fault("copy")?;
        }
    }
    let prov = &i["provenance"];
    write_new(
        &join_rel(&stage, str_of(&prov["path"], "provenance path")?)?,
        str_of(&prov["text"], "provenance")?.as_bytes(),
        false,
    )?;
    let path = PathBuf::from(str_of(&i["path"], "install path")?);
    // Replacing: one atomic swap where the OS has it (the old folder ends up in the staging place),
    // else move the old one aside and rename the new one in.
    let trash = match i["replace"].as_str() {
        Some(old) if txn::can_exchange() && Path::new(old) == path => {
            t.push(Step::Exchange {
                from: stage.clone(),
                to: path,
                marker: str_of(&prov["text"], "provenance")?.to_owned(),
            });
            Some(stage)
        }
        Some(old) => {
            let trash = t.scratch("replaced");
            t.push(Step::Retire {
                path: PathBuf::from(old),
                trash: trash.clone(),
            });
            t.push(Step::Rename {
                from: stage,
                to: path,
            });
            Some(trash)
        }
        None => {
            t.push(Step::Rename {
                from: stage,
                to: path,
            });
            None
        }
    };
    stage_agents_md(t, plan)?;
    if let Some(trash) = &trash {
        t.push(Step::Purge {
            path: trash.clone(),
        });
    }
    if let (Some(state_dir), Some(h)) = (&env.state_dir, plan.get("history")) {
        t.push(Step::History {
            state_dir: state_dir.clone(),
            now: env.ctx.now.clone(),
            timezone: env.ctx.host_timezone.clone(),
            skill: HistorySkill {
                skill_id: str_of(&h["skill_id"], "skill id")?.to_owned(),
                name: h["name"].as_str().map(str::to_owned),
                url: h["url"].as_str().map(str::to_owned),
                categories: vec![],
            },
        });
    }
    Ok(())
}

fn stage_agents_md(t: &mut Txn, plan: &Value) -> Result<(), Error> {
    let md = &plan["agents_md"];
    if md["changed"] == true {
        let path = PathBuf::from(str_of(&md["path"], "AGENTS.md path")?);
        t.stage_write(
            "agents-md",
            &path,
            Some(str_of(&md["text"], "AGENTS.md text")?.as_bytes()),
            false,
        )?;
    }
    Ok(())
}

/// Remove an installed skill and its AGENTS.md entry.
pub fn uninstall(env: &Env, name: &str, target: &Target, dry_run: bool) -> Result<Outcome, Error> {
    let layout = resolve(env, target, false)?;
    let exists = Path::new(&layout.skills_dir).is_dir();
    let _locks = if dry_run || !exists {
        None
    } else {
        Some(lock(env, &layout)?)
    };
    let skills_dir = PathBuf::from(&layout.skills_dir);
    if !dry_run && exists {
        txn::recover(&skills_dir, env.harness)?;
    }
    let mut plan = env.call(SkillsCall::PlanUninstall {
        name: name.to_owned(),
        target: target.clone(),
        roots: env.roots.clone(),
        facts: facts(&layout)?,
    })?;
    match plan["status"].as_str() {
        Some("planned") if dry_run => {
            plan["status"] = json!("dry_run");
            return Ok(Outcome {
                json: present(plan),
                exit: 0,
            });
        }
        Some("planned") => {}
        _ => return Ok(refused(plan)),
    }
    let mut t = Txn::begin(&skills_dir, "uninstall", &env.faults)?;
    let trash = t.scratch("removed");
    t.push(Step::Retire {
        path: PathBuf::from(str_of(&plan["path"], "path")?),
        trash: trash.clone(),
    });
    if let Err(e) = stage_agents_md(&mut t, &plan) {
        t.abandon();
        return Err(e);
    }
    t.push(Step::Purge { path: trash });
    let warnings = t.commit(env.harness)?;
    plan["status"] = json!("removed");
    extend_warnings(&mut plan, warnings);
    Ok(Outcome {
        json: present(plan),
        exit: 0,
    })
}

/// List installed skills with their provenance: the target's folders, or every agent's.
pub fn installed(env: &Env, target: &Target, all: bool) -> Result<Outcome, Error> {
    let layout = resolve(env, target, all)?;
    let mut skills = Vec::new();
    let mut scanned = Vec::new();
    for s in &layout.search {
        let Some(l) = disk::listing(&s.path, s.categories) else {
            continue;
        };
        scanned.push(s.path.clone());
        for e in &l.entries {
            if !(e.is_dir && (e.has_skill_md || e.provenance.is_some())) {
                continue;
            }
            let path = guest::ondisk::judge::entry_path(&l, e);
            skills.push(json!({
                "name": e.name,
                "path": path,
                "agent": s.agent,
                "category": e.category,
                "managed": e.provenance.is_some(),
                "provenance": guest::ondisk::judge::provenance_summary(e.provenance.as_deref()),
                "pending_recovery": txn::pending(Path::new(&s.path)),
            }));
        }
    }
    Ok(Outcome {
        json: json!({"installed": skills, "count": skills.len(), "scanned": scanned}),
        exit: 0,
    })
}

/// `skill …`'s arguments.
#[derive(Debug, Clone)]
pub struct SkillArgs {
    pub name: String,
    pub action: SkillAction,
    pub target: Target,
    pub dry_run: bool,
}

/// `path` and everything above it up to `root` are real folders inside `root` (no symbolic link
/// leads a write elsewhere).
fn inside(root: &Path, path: &Path) -> Result<(), Error> {
    let canon_root = root.canonicalize().map_err(|e| io("resolve", root, e))?;
    if let Ok(m) = std::fs::symlink_metadata(path)
        && m.file_type().is_symlink()
    {
        return Err(io("write", path, "it is a symbolic link"));
    }
    let mut probe = path.parent();
    while let Some(p) = probe {
        if let Ok(c) = p.canonicalize() {
            if !c.starts_with(&canon_root) {
                return Err(io(
                    "write",
                    path,
                    "a folder on the way leads outside the skill",
                ));
            }
            return Ok(());
        }
        probe = p.parent();
    }
    Err(io("write", path, "cannot resolve its folder"))
}

/// The folders of installed skills `audit` reads, from the component's layout (the same folders
/// `install` writes to and `installed` lists): every agent's when `target` is `None`; else the agent's
/// folders, only its `scope`'s one when a scope is given. Each folder is named once, with whether it
/// has category folders.
pub fn skills_dirs(
    env: &Env,
    target: Option<&Target>,
) -> Result<Vec<crate::catalog::InstalledDir>, Error> {
    let (layout, scoped) = match target {
        Some(t) => (resolve(env, t, false)?, t.scope.is_some()),
        None => (resolve(env, &Target::default(), true)?, false),
    };
    Ok(layout
        .search
        .into_iter()
        .filter(|s| !scoped || s.path == layout.skills_dir)
        .map(|s| crate::catalog::InstalledDir {
            path: PathBuf::from(s.path),
            agent: s.agent,
            categories: s.categories,
        })
        .collect())
}

/// An agent's write to a skill (`create`, `edit`, `patch`, `delete`, `write-file`, `remove-file`).
pub fn skill(env: &Env, args: &SkillArgs) -> Result<Outcome, Error> {
    let layout = resolve(env, &args.target, false)?;
    let skills_dir = PathBuf::from(&layout.skills_dir);
    let creating = matches!(args.action, SkillAction::Create { .. });
    let exists = skills_dir.is_dir();
    let _locks = if args.dry_run || (!exists && !creating) {
        None
    } else {
        Some(lock(env, &layout)?)
    };
    if _locks.is_some() {
        txn::recover(&skills_dir, env.harness)?;
    }
    let listings: Vec<_> = disk::listing(&layout.skills_dir, layout.categories)
        .into_iter()
        .collect();
    let mut skill = None;
    let mut digests = vec![];
    if !creating {
        let matches: Vec<String> = listings
            .iter()
            .flat_map(|l| l.entries.iter().map(move |e| (l, e)))
            .filter(|(_, e)| e.name == args.name)
            .filter(|(_, e)| layout.category.is_none() || e.category == layout.category)
            .map(|(l, e)| guest::ondisk::judge::entry_path(l, e))
            .collect();
        if let [one] = matches.as_slice()
            && Path::new(one).is_dir()
        {
            let read = disk::read_skill(Path::new(one))?;
            skill = Some((one.clone(), read.bundle));
            digests = read.digests;
        }
    }
    let agents_md = match &layout.agents_md {
        Some(p) => disk::read_small(Path::new(p))?,
        None => None,
    };
    let mut plan = env.call(SkillsCall::PlanSkillEdit {
        name: args.name.clone(),
        action: args.action.clone(),
        target: args.target.clone(),
        roots: env.roots.clone(),
        facts: SkillFacts {
            listings,
            skill,
            digests,
            agents_md,
        },
    })?;
    match plan["status"].as_str() {
        Some("planned") if args.dry_run => {
            plan["status"] = json!("dry_run");
            return Ok(Outcome {
                json: present(plan),
                exit: 0,
            });
        }
        Some("planned") => {}
        _ => return Ok(refused(plan)),
    }
    let mut t = Txn::begin(&skills_dir, "skill", &env.faults)?;
    if let Err(e) = stage_skill(&mut t, &plan) {
        if !matches!(&e, Error::Disk { op: "crash", .. }) {
            t.abandon();
        }
        return Err(e);
    }
    let warnings = t.commit(env.harness)?;
    plan["status"] = json!(if plan["remove"] == true {
        "removed"
    } else {
        "written"
    });
    extend_warnings(&mut plan, warnings);
    Ok(Outcome {
        json: present(plan),
        exit: 0,
    })
}

fn stage_skill(t: &mut Txn, plan: &Value) -> Result<(), Error> {
    let path = PathBuf::from(str_of(&plan["path"], "path")?);
    let writes = plan["writes"].as_array().cloned().unwrap_or_default();
    let provenance = plan.get("provenance").filter(|p| !p.is_null());
    if plan["create"] == true {
        let stage = t.scratch("skill");
        t.fails("copy")?;
        for w in &writes {
            let rel = str_of(&w["path"], "write path")?;
            write_new(
                &join_rel(&stage, rel)?,
                str_of(&w["text"], "text")?.as_bytes(),
                false,
            )?;
        }
        if let Some(p) = provenance {
            write_new(
                &join_rel(&stage, str_of(&p["path"], "provenance path")?)?,
                str_of(&p["text"], "provenance")?.as_bytes(),
                false,
            )?;
        }
        t.fault("copy")?;
        t.push(Step::Rename {
            from: stage,
            to: path,
        });
    } else if plan["remove"] == true {
        let trash = t.scratch("removed");
        t.push(Step::Retire {
            path,
            trash: trash.clone(),
        });
        stage_agents_md(t, plan)?;
        t.push(Step::Purge { path: trash });
        return Ok(());
    } else {
        for w in &writes {
            let rel = str_of(&w["path"], "write path")?;
            let dest = join_rel(&path, rel)?;
            inside(&path, &dest)?;
            t.stage_write("file", &dest, w["text"].as_str().map(str::as_bytes), false)?;
        }
        if let Some(p) = provenance {
            let dest = join_rel(&path, str_of(&p["path"], "provenance path")?)?;
            inside(&path, &dest)?;
            t.stage_write(
                "provenance",
                &dest,
                Some(str_of(&p["text"], "provenance")?.as_bytes()),
                false,
            )?;
        }
    }
    stage_agents_md(t, plan)
}
