//! Whole-bundle scanning: structural checks on what the host read, the content rules on every text
//! file (ignore files hide nothing), the verdict and the install policy.

use serde_json::{Value, json};

use super::content::{FileKind, FilePlace, Finding, evidence, kind_of, scan_file};
use super::rules::{RuleSet, Severity};
use super::{Trust, policy, verdict};

mod catalogue;
mod doc_lines;
pub(crate) mod key_for_host;
mod own_setup;
mod own_store;
mod own_tunnel;
mod permission_patterns;
mod plugin_manifest;
mod probe_payload;
mod specimen_literals;
mod stand_in;
mod taught_injection;
// Round 34b (sets34b): upkeep, documented launches, presence checks.
mod documented_launch;
mod log_upkeep;
mod presence_check;
mod product_checker;
// Round 35b (sets35b): guard literals, taught test goals, image builds, disclosed launches.
mod disclosed_launch;
mod firewall_lockdown;
mod guard_literals;
mod hand_set_default;
mod image_build;
mod own_profile_copy;
mod policy_matchers;
mod taught_paragraphs;
mod titled_specimens;
// Round 36b (sets36b): bare key headers, scoped and once-approved hook allows.
mod hook_policy;
mod key_material;
// Round 40b (sets40b): a bypass shortcut the documentation offers under a new command name.
mod own_command;
// Round 41b: a memory skill that keeps its own memory saves out of its replies.
mod own_etc;
mod payload_templates;
mod quiet_memory;
mod timed_tasks;
// Round 48b (sets48b): a documented smoke-test launch; a browser profile cloned for local use.
mod browser_profile_clone;
mod smoke_launch;
// Round 50b (sets50b): quoted override phrases a guard watches for; headless launches.
mod headless_launch;
mod quoted_watchlist;
#[cfg(test)]
pub(crate) use stand_in::is_stand_in as stand_in_host_for_tests;

/// More files than this is unusual for a skill (informational).
pub const MANY_FILES: usize = 100;
/// A text file larger than this is unusual for a skill (informational).
pub const LARGE_TEXT_FILE: u64 = 1 << 20;
/// Extensions of native executables and installers.
pub const EXECUTABLE_EXTENSIONS: &[&str] = &[
    "exe", "dll", "so", "dylib", "bin", "com", "msi", "dmg", "app", "deb", "rpm", "scr", "elf",
];
/// Extensions of scripts (an executable bit on them is expected).
pub const SCRIPT_EXTENSIONS: &[&str] = &[
    "sh", "bash", "zsh", "fish", "py", "js", "mjs", "cjs", "ts", "rb", "pl", "php", "ps1", "bat",
    "cmd", "lua",
];
/// Dot-files that are ordinary in a repository.
pub const ORDINARY_DOTFILES: &[&str] = &[
    ".gitignore",
    ".gitattributes",
    ".editorconfig",
    ".clawhubignore",
    ".skillignore",
    ".npmignore",
    ".prettierrc",
    ".DS_Store",
    // Templates of settings (names and placeholders), not code.
    ".env.example",
    ".env.sample",
    ".env.template",
    ".nvmrc",
    ".python-version",
    ".tool-versions",
];

/// A tool's config at the one path the tool reads it from: `.vscode/tasks.json` and
/// `.vscode/launch.json` (the editor), `.pre-commit-config.yaml` and `.pre-commit-hooks.yaml`
/// (the pre-commit framework), a CI service's pipeline file (`.gitlab-ci.yml`), at the bundle's
/// root or a folder's.
fn conventional_tool_config(path: &str) -> bool {
    let mut parts = path.rsplit('/');
    let name = parts.next().unwrap_or(path);
    let parent = parts.next();
    let dirs_plain = |skip: usize| {
        path.split('/')
            .rev()
            .skip(skip)
            .all(|c| !c.starts_with('.') || c == ".")
    };
    match name {
        ".pre-commit-config.yaml" | ".pre-commit-hooks.yaml" => dirs_plain(1),
        // Round 41c: the workspace settings and recommended extensions beside them (data, shown by
        // the editor; their keys are still read by the content rules and the settings judges).
        "tasks.json" | "launch.json" | "settings.json" | "extensions.json" => {
            (parent == Some(".vscode")
                || name == "settings.json" && matches!(parent, Some(".claude" | ".gemini")))
                && dirs_plain(2)
        }
        // Round 39t: the CI services' pipeline files at the root they are read from.
        ".gitlab-ci.yml" | ".travis.yml" | ".drone.yml" | ".cirrus.yml" => dirs_plain(1),
        // Round 46t: Woodpecker CI's pipeline file at the root it is read from.
        ".woodpecker.yml" | ".woodpecker.yaml" => dirs_plain(1),
        // Round 42t: R's project startup file, read from the project's root (its lines are still
        // read by the content rules and judges).
        ".Rprofile" => dirs_plain(1),
        // Round 49t: Aider's project config and Cursor CLI's project permissions, where those
        // tools read them (their keys are still read by the content rules and the settings judge).
        ".aider.conf.yml" => dirs_plain(1),
        "cli.json" => parent == Some(".cursor") && dirs_plain(2),
        // Round 50t: an agent's project settings where the agent reads them (Claude Code's
        // `.claude/settings.json` and `settings.local.json`, Gemini CLI's, Codex's): data whose
        // permission values and hooks the agent judges still read (`agent.rs`).
        "settings.local.json" => parent == Some(".claude") && dirs_plain(2),
        "config.toml" => parent == Some(".codex") && dirs_plain(2),
        _ => false,
    }
}

/// What the host found at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    Text,
    Binary,
    Symlink,
    Unreadable,
}

/// One entry of a bundle, as the host read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleFile {
    /// Relative, `/`-separated.
    pub path: String,
    pub size: u64,
    pub kind: EntryKind,
    /// UTF-8 text (text files only).
    pub content: Option<String>,
    /// An executable bit is set.
    pub executable: bool,
    /// The format the first bytes show (`elf`, `pe`, `macho`, `png`, `jpeg`, `gif`, `pdf`, `zip`, `wasm`), if any.
    pub magic: Option<String>,
    /// For symlinks: where it points.
    pub link_target: Option<String>,
    /// For symlinks: it resolves outside the bundle (or cannot be resolved).
    pub link_escapes: bool,
}

impl Bundle {
    /// The bytes of text the bundle carries (what input limits and deadlines are measured by).
    pub fn text_bytes(&self) -> usize {
        self.files
            .iter()
            .map(|f| f.content.as_ref().map_or(0, String::len))
            .sum()
    }

    /// The text of the file at `path` (exactly as the bundle names it), if it is a text file.
    pub fn text_of(&self, path: &str) -> Option<&str> {
        self.files
            .iter()
            .find(|f| f.path == path)
            .and_then(|f| f.content.as_deref())
    }

    /// The findings of `rule` a bundle-level check may lower: graded above medium, at a line, with
    /// no other end (`related`), in a text file of the bundle; each with its file's text. What the
    /// demotions of one-line findings share (`firewall_lockdown`, `own_profile_copy`,
    /// `browser_profile_clone`).
    pub(crate) fn lone_findings<'b>(
        &'b self,
        rule: &'b str,
        out: &'b mut [Finding],
    ) -> impl Iterator<Item = (&'b mut Finding, &'b str)> {
        out.iter_mut().filter_map(move |f| {
            if f.rule_id != rule
                || f.severity <= Severity::Medium
                || f.line == 0
                || !f.related.is_empty()
            {
                return None;
            }
            let text = self.text_of(&f.file)?;
            Some((f, text))
        })
    }

    /// The text of the bundle's SKILL.md (its name matched without regard to case), if it has one.
    pub fn skill_md(&self) -> Option<&str> {
        self.files
            .iter()
            .find(|f| f.path.eq_ignore_ascii_case("SKILL.md"))
            .and_then(|f| f.content.as_deref())
    }
}

/// The format shown by a file's first bytes: `elf`, `pe`, `macho`, `png`, `jpeg`, `gif`, `pdf`, `zip`,
/// `wasm`, or none. Hosts name a binary entry's `magic` with it.
pub fn magic(bytes: &[u8]) -> Option<&'static str> {
    let starts = |m: &[u8]| bytes.starts_with(m);
    Some(if starts(b"\x7fELF") {
        "elf"
    } else if starts(b"MZ") {
        "pe"
    } else if starts(&[0xfe, 0xed, 0xfa, 0xce])
        || starts(&[0xfe, 0xed, 0xfa, 0xcf])
        || starts(&[0xcf, 0xfa, 0xed, 0xfe])
        || starts(&[0xce, 0xfa, 0xed, 0xfe])
        || starts(&[0xca, 0xfe, 0xba, 0xbe])
    {
        "macho"
    } else if starts(b"\x89PNG\r\n\x1a\n") {
        "png"
    } else if starts(&[0xff, 0xd8, 0xff]) {
        "jpeg"
    } else if starts(b"GIF87a") || starts(b"GIF89a") {
        "gif"
    } else if starts(b"%PDF") {
        "pdf"
    } else if starts(b"PK\x03\x04") {
        "zip"
    } else if starts(b"\0asm") {
        "wasm"
    } else {
        return None;
    })
}

impl BundleFile {
    /// A symbolic link entry: where it points and whether that is outside the bundle.
    pub fn symlink(path: String, target: String, escapes: bool) -> BundleFile {
        BundleFile {
            path,
            size: 0,
            kind: EntryKind::Symlink,
            content: None,
            executable: false,
            magic: None,
            link_target: Some(target),
            link_escapes: escapes,
        }
    }

    /// A text entry (tests, and hosts that already hold the text).
    pub fn text(path: &str, content: &str) -> BundleFile {
        BundleFile {
            path: path.into(),
            size: content.len() as u64,
            kind: EntryKind::Text,
            content: Some(content.into()),
            executable: false,
            magic: None,
            link_target: None,
            link_escapes: false,
        }
    }
}

/// Something the host could not or would not read (zip-slip entry, bomb, cap reached…).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleNote {
    pub path: String,
    /// `path_escape`, `absolute_path`, `zip_bomb`, `too_many_files`, `file_too_large`, `bundle_too_large`,
    /// `duplicate_path`, `symlink_loop`, `unreadable`.
    pub code: String,
    pub message: String,
}

/// A skill bundle.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bundle {
    /// The folder or archive name (the skill name when SKILL.md has none).
    pub name: String,
    pub files: Vec<BundleFile>,
    pub notes: Vec<BundleNote>,
}

fn finding(
    rule_id: &str,
    severity: Severity,
    file: &str,
    evidence: String,
    description: &str,
) -> Finding {
    Finding {
        rule_id: rule_id.into(),
        category: "structural".into(),
        severity,
        file: file.into(),
        line: 0,
        evidence,
        description: description.into(),
        related: Vec::new(),
    }
}

/// Whether a finding's file is documentation (Markdown or plain text) rather than a script the
/// bundle ships, by its name (round 34b's relaxations read only documentation).
fn documentation(path: &str) -> bool {
    let p = crate::ascii_lowered(path);
    [".md", ".mdx", ".markdown", ".txt", ".rst"]
        .iter()
        .any(|e| p.ends_with(e))
}

fn ext(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .map(|(_, e)| e.to_lowercase())
        .unwrap_or_default()
}

/// The bundle path is relative and stays inside (checked again here; the host checks first).
pub fn path_problem(path: &str) -> Option<&'static str> {
    let p = if path.contains('\\') {
        std::borrow::Cow::Owned(path.replace('\\', "/"))
    } else {
        std::borrow::Cow::Borrowed(path)
    };
    if p.starts_with('/') {
        return Some("absolute path");
    }
    let b = p.as_bytes();
    if b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic() {
        return Some("drive-letter path");
    }
    if p.split('/').any(|c| c == "..") {
        return Some("`..` component");
    }
    None
}

fn magic_matches_ext(magic: &str, ext: &str) -> bool {
    match magic {
        "png" => ext == "png",
        "jpeg" => matches!(ext, "jpg" | "jpeg"),
        "gif" => ext == "gif",
        "pdf" => ext == "pdf",
        "zip" => matches!(
            ext,
            "zip" | "docx" | "xlsx" | "pptx" | "jar" | "skill" | "odt" | "epub"
        ),
        "wasm" => ext == "wasm",
        _ => false,
    }
}

/// Structural findings about one entry.
fn structural(f: &BundleFile, out: &mut Vec<Finding>) {
    let e = ext(&f.path);
    path_escape(&f.path, out);
    match f.kind {
        EntryKind::Symlink if f.link_escapes => out.push(finding(
            "structural.symlink-escape",
            Severity::Critical,
            &f.path,
            format!("{} -> {}", f.path, f.link_target.as_deref().unwrap_or("?")),
            "A symbolic link points outside the skill folder: installing or reading it exposes files the skill must not reach. Replace it with a real file inside the bundle.",
        )),
        EntryKind::Symlink => out.push(finding("structural.symlink", Severity::Low, &f.path, format!("{} -> {}", f.path, f.link_target.as_deref().unwrap_or("?")), "A symbolic link inside the bundle (it stays inside; the target was scanned as its own file).")),
        EntryKind::Binary => {
            let magic = f.magic.as_deref().unwrap_or("");
            if matches!(magic, "elf" | "pe" | "macho") || EXECUTABLE_EXTENSIONS.contains(&e.as_str()) {
                out.push(finding("structural.executable-binary", Severity::Critical, &f.path, format!("{} ({}, {} bytes)", f.path, if magic.is_empty() { "by extension" } else { magic }, f.size), "A native executable or installer ships inside the skill: it cannot be reviewed and runs with the agent's rights. Skills should ship source scripts instead."));
            } else if !magic.is_empty() && !magic_matches_ext(magic, &e) || magic.is_empty() && (SCRIPT_EXTENSIONS.contains(&e.as_str()) || matches!(e.as_str(), "md" | "txt" | "json" | "yaml" | "yml" | "toml" | "png" | "jpg" | "jpeg" | "gif" | "pdf")) {
                out.push(finding("structural.content-mismatch", Severity::High, &f.path, format!("{}: extension .{e} but content {}", f.path, if magic.is_empty() { "is unrecognised binary data" } else { magic }), "The file's content does not match its extension, a way to hide a payload. Check what the file really is before installing."));
            } else {
                out.push(finding("structural.binary-file", Severity::Low, &f.path, format!("{} ({}, {} bytes)", f.path, if magic.is_empty() { "binary" } else { magic }, f.size), "A binary asset (not scanned for text patterns)."));
            }
        }
        EntryKind::Unreadable => out.push(finding("structural.unreadable", Severity::Medium, &f.path, f.path.clone(), "The host could not read this entry, so it was not scanned.")),
        EntryKind::Text => {}
    }
    let entry = Entry {
        path: &f.path,
        ext: &e,
        kind: f.kind,
        content: f.content.as_deref().unwrap_or(""),
        size: f.size,
        executable: f.executable,
    };
    structural_rest(&entry, out);
}

/// A path that leaves the bundle (the first structural check of every entry).
fn path_escape(path: &str, out: &mut Vec<Finding>) {
    if let Some(problem) = path_problem(path) {
        out.push(finding("structural.path-escape", Severity::Critical, path, format!("{problem}: {path}"), "An entry's path leaves the skill folder (zip-slip). Installing it could overwrite files elsewhere. Do not install this bundle."));
    }
}

/// What [`structural_rest`] reads of an entry, borrowed (a [`BundleFile`]'s, or a text scanned alone).
struct Entry<'a> {
    path: &'a str,
    /// [`ext`] of the path.
    ext: &'a str,
    kind: EntryKind,
    /// The text (empty for other kinds).
    content: &'a str,
    size: u64,
    executable: bool,
}

/// The structural checks after the entry kind's own: executable bit, hidden code, ignore files,
/// size.
fn structural_rest(f: &Entry<'_>, out: &mut Vec<Finding>) {
    let name = f.path.rsplit('/').next().unwrap_or(f.path);
    let content = f.content;
    let is_script = SCRIPT_EXTENSIONS.contains(&f.ext) || content.starts_with("#!");
    if f.executable && f.kind != EntryKind::Symlink && !is_script {
        out.push(finding("structural.unexpected-executable", Severity::Medium, f.path, f.path.to_owned(), "An executable bit is set on a file that is not a script. Clear it unless the file is meant to run."));
    }
    let hidden = f
        .path
        .split('/')
        .any(|c| c.starts_with('.') && c != "." && !ORDINARY_DOTFILES.contains(&c))
        && !f.path.starts_with(".github/")
        // Git hook managers' folder (husky): shown by every forge, run only inside the repository.
        && !f.path.starts_with(".husky/")
        // Round 40c: the checked-in hooks folder `git config core.hooksPath .githooks` points at,
        // shown like husky's (its commands are still read by the content rules).
        && !f.path.starts_with(".githooks/")
        // A dev container's settings where editors look for them (round 31c): shown and read like
        // the workflows; its commands are still read by the content rules, scripts beside it are not
        // exempt.
        && f.path != ".devcontainer/devcontainer.json"
        && !f.path.ends_with("/.devcontainer/devcontainer.json")
        // Round 38t: an editor's task and launch files and the pre-commit framework's config where
        // those tools look for them (shown by editors and forges like the workflows; their commands
        // are still read by the content rules).
        && !conventional_tool_config(f.path)
        // Agent-plugin manifests where the agent looks for them (`.mcp.json`, `.claude-plugin/`).
        && !plugin_manifest::conventional_manifest(f.path, is_script, ORDINARY_DOTFILES);
    if hidden
        && f.kind == EntryKind::Text
        && (is_script || kind_of(f.path, content) == FileKind::Code && !name.ends_with("rc"))
    {
        out.push(finding("structural.hidden-code", Severity::High, f.path, f.path.to_owned(), "Code in a hidden file or folder is easy to overlook in review. Move it to scripts/ where people will see it."));
    }
    if matches!(name, ".clawhubignore" | ".skillignore") {
        let patterns: Vec<&str> = content
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .take(10)
            .collect();
        out.push(finding("structural.ignore-file", Severity::Low, f.path, format!("ignores: {}", patterns.join(", ")), "An ignore file is present. It does not hide anything from this scan: every file in the bundle was scanned."));
    }
    if f.kind == EntryKind::Text && f.size > LARGE_TEXT_FILE {
        out.push(finding(
            "structural.large-file",
            Severity::Medium,
            f.path,
            format!("{} bytes", f.size),
            "An unusually large text file for a skill; review what it contains.",
        ));
    }
}

fn note_finding(n: &BundleNote) -> Finding {
    let (rule, severity, what) = match n.code.as_str() {
        "path_escape" | "absolute_path" => (
            "structural.path-escape",
            Severity::Critical,
            "An archive entry's path leaves the skill folder (zip-slip); it was not extracted. Do not install this bundle.",
        ),
        "zip_bomb" => (
            "structural.zip-bomb",
            Severity::Critical,
            "An archive entry expands far beyond its compressed size (a decompression bomb); it was not extracted.",
        ),
        "symlink_escape" => (
            "structural.symlink-escape",
            Severity::Critical,
            "A symbolic link points outside the skill folder; it was not followed.",
        ),
        "duplicate_path" => (
            "structural.duplicate-path",
            Severity::High,
            "Two archive entries have the same path after normalising `\\` to `/`: which one lands depends on the tool. Do not install until it is fixed.",
        ),
        "too_many_files" | "file_too_large" | "bundle_too_large" => (
            "structural.over-limit",
            Severity::High,
            "The bundle exceeds a scan limit, so part of it was not scanned: the result is incomplete.",
        ),
        "symlink_loop" => (
            "structural.symlink-loop",
            Severity::Medium,
            "A symbolic link loops; it was not followed.",
        ),
        _ => (
            "structural.unreadable",
            Severity::Medium,
            "The host could not read this entry, so it was not scanned.",
        ),
    };
    Finding {
        rule_id: rule.into(),
        category: "structural".into(),
        severity,
        file: n.path.clone(),
        line: 0,
        evidence: evidence(&n.message, 0, 0),
        description: what.into(),
        related: Vec::new(),
    }
}

/// Scan every entry (pass one: the rules' findings and facts of every text file), then judge the
/// facts of the whole bundle together (pass two); findings sorted most severe first.
pub fn findings(bundle: &Bundle) -> Vec<Finding> {
    let rules = RuleSet::builtin();
    let mut out: Vec<Finding> = bundle.notes.iter().map(note_finding).collect();
    let mut scanned = Vec::new();
    // The skill's own folder: its declared name and the bundle's (the folder it is installed in).
    let declared = bundle.skill_md().and_then(super::judge::declared_name);
    let own: Vec<String> = declared
        .iter()
        .chain([&bundle.name])
        .map(|n| own_folder(n))
        .filter(|n| !n.is_empty())
        .collect();
    // A short one-word name (`xai`) is its own key prefix and config entry too (round 33b).
    let short_name = declared
        .iter()
        .filter(|n| n.len() == 3 && n.bytes().all(|c| c.is_ascii_alphanumeric()))
        .map(|n| n.to_ascii_lowercase());
    let own_words: Vec<String> = declared
        .iter()
        .flat_map(|n| super::judge::name_words(n))
        .chain(own.iter().cloned())
        .chain(short_name)
        .collect();
    // The vendors the skill's declared name names (`glm` of `glm-plan-usage`: Zhipu).
    let skill_vendors =
        super::hosts::vendors_named_by(declared.as_deref().unwrap_or(bundle.name.as_str()));
    for f in &bundle.files {
        structural(f, &mut out);
        if let (EntryKind::Text, Some(text)) = (f.kind, &f.content) {
            let mut scan = scan_file(rules, &f.path, text);
            if !own.is_empty() {
                drop_own_storage(rules, text, &own, &mut scan);
            }
            if !own_words.is_empty() {
                demote_own_key_reads(text, &own_words, &mut scan);
            }
            if !skill_vendors.is_empty() {
                demote_vendor_key_reads(text, &skill_vendors, &mut scan);
            }
            key_for_host::demote_key_for_host(text, &mut scan);
            out.append(&mut scan.findings);
            scanned.push((f.path.as_str(), text.as_str(), scan.facts));
        }
    }
    // Whether any file has concealment wording: it keeps the round-34b relaxations off.
    let conceals = scanned
        .iter()
        .any(|(_, _, facts)| facts.has(super::facts::FactKind::Conceal));
    // Every line with concealment wording (file, 1-based line), for round 41b's memory check.
    let conceal_lines: Vec<(&str, usize)> = if conceals {
        scanned
            .iter()
            .flat_map(|(path, _, facts)| {
                facts
                    .of(super::facts::FactKind::Conceal)
                    .map(move |f| (*path, f.line as usize))
            })
            .collect()
    } else {
        Vec::new()
    };
    judge_into(rules, &scanned, &mut out);
    own_tunnel::demote_own_tunnel(&mut out);
    own_setup::demote_own_setups(bundle, &mut out);
    own_store::demote_own_stores(bundle, &mut out);
    stand_in::demote_stand_in_examples(bundle, &mut out);
    catalogue::demote_catalogue_patterns(bundle, &mut out);
    taught_injection::demote_taught_injection(bundle, &mut out);
    titled_specimens::demote_titled_specimens(bundle, &mut out);
    probe_payload::demote_probe_payloads(bundle, &mut out);
    specimen_literals::demote_specimen_literals(bundle, &mut out);
    guard_literals::demote_guard_literals(bundle, &mut out);
    policy_matchers::demote_policy_matchers(bundle, &mut out);
    taught_paragraphs::demote_taught_paragraphs(bundle, &mut out);
    permission_patterns::demote_refused_patterns(bundle, &mut out);
    log_upkeep::demote_log_upkeep(bundle, conceals, &mut out);
    image_build::demote_image_builds(bundle, conceals, &mut out);
    firewall_lockdown::demote_lockdown_flushes(bundle, conceals, &mut out);
    own_profile_copy::demote_profile_copies(bundle, &mut out);
    browser_profile_clone::demote_profile_clones(bundle, conceals, &mut out);
    documented_launch::cap_documented_launches(bundle, conceals, &mut out);
    disclosed_launch::cap_disclosed_launches(bundle, conceals, &mut out);
    hand_set_default::cap_hand_set_defaults(bundle, conceals, &mut out);
    own_command::cap_own_commands(bundle, conceals, &mut out);
    quiet_memory::demote_quiet_memory(bundle, &conceal_lines, &mut out);
    presence_check::demote_presence_checks(&mut out);
    key_material::demote_bare_key_headers(bundle, &mut out);
    hook_policy::demote_scoped_hook_notes(bundle, conceals, &mut out);
    timed_tasks::demote_timed_tasks(bundle, &mut out);
    own_etc::demote_own_etc(bundle, &mut out);
    payload_templates::demote_payload_templates(bundle, &mut out);
    hook_policy::demote_consumed_approvals(bundle, conceals, &mut out);
    product_checker::demote_product_checkers(bundle, conceals, &mut out);
    quoted_watchlist::demote_quoted_watchlist(bundle, &mut out);
    headless_launch::cap_headless_launches(bundle, conceals, &mut out);
    if super::teaching::documents_attacks(bundle) {
        super::teaching::cap_documentation(bundle, &mut out);
    }
    if !bundle
        .files
        .iter()
        .any(|f| f.path.eq_ignore_ascii_case("SKILL.md"))
    {
        out.push(finding(
            "structural.no-skill-md",
            Severity::Medium,
            "",
            bundle.name.clone(),
            "The bundle has no SKILL.md at its root, so agents will not load it as a skill.",
        ));
    }
    if bundle.files.len() > MANY_FILES {
        out.push(finding(
            "structural.many-files",
            Severity::Medium,
            "",
            format!("{} files", bundle.files.len()),
            "Unusually many files for a skill; review what it ships.",
        ));
    }
    sort_findings(&mut out);
    out
}

/// A skill name as a folder name compares: its ASCII letters and digits, lower-cased
/// (`claw-clash` and `clawclash` are one name). Empty when shorter than four.
fn own_folder(name: &str) -> String {
    let n: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if n.len() < 4 { String::new() } else { n }
}

/// Whether `line` names the skill's own folder in an agent's skills directory
/// (`~/.openclaw/workspace/skills/<its name>/.token`): where a skill keeps its own token or
/// settings. `own` holds [`own_folder`] of the skill's names.
fn names_own_folder(line: &str, own: &[String]) -> bool {
    line.match_indices("skills/").any(|(i, m)| {
        let seg = line[i + m.len()..]
            .split(|c: char| c == '/' || c == '"' || c == '\'' || c.is_whitespace())
            .next()
            .unwrap_or("");
        let seg = own_folder(seg);
        own.contains(&seg)
    })
}

/// A skill's own folder under an agent's skills directory is its own storage, not the agent's
/// credential store: the agent-secrets rule's finding and fact on a line naming only that folder
/// are dropped (the token it saved there and sends to its own service is its job). A line that
/// also names the agent's own `.env`, `auth.json`, `openclaw.json` or credentials keeps both, and
/// so does another skill's folder.
fn drop_own_storage(
    rules: &RuleSet,
    text: &str,
    own: &[String],
    scan: &mut super::content::FileScan,
) {
    // The agent-secrets rule, and the agent-workspace read (`.openclaw/workspace`) the same path
    // matches.
    const RULES: [&str; 2] = ["exfiltration.other-agent-secrets", "source.agent-memory"];
    let agent_store = |line: &str| {
        let l = crate::ascii_lowered(line);
        ["/.env", "auth.json", "openclaw.json", "credentials"]
            .iter()
            .any(|w| l.contains(w))
    };
    // Every other word of the line: the agent's own stores named beside the skill's folder; and no
    // way out of the folder or into the agent's memory anywhere on it.
    let own_only = |line: &str| {
        let l = crate::ascii_lowered(line);
        names_own_folder(line, own)
            && !l.contains("..")
            && ![
                "memory.md",
                "soul.md",
                "user.md",
                "identity.md",
                "history.jsonl",
            ]
            .iter()
            .any(|w| l.contains(w))
            && !line
                .split(|c: char| c.is_whitespace() || c == '"' || c == '\'')
                .filter(|w| !names_own_folder(w, own))
                .any(agent_store)
    };
    scan.findings.retain(|f| {
        !RULES.contains(&f.rule_id.as_str())
            || !text
                .lines()
                .nth(f.line.saturating_sub(1))
                .is_some_and(own_only)
    });
    scan.facts.retain(|fact| {
        !RULES.contains(&rules.rules[fact.rule as usize].id.as_str())
            || !own_only(&super::facts::logical_text(text, fact.start, fact.end))
    });
}

/// The agent-secrets rule, whose line findings the two demotions below lower.
const AGENT_SECRETS: &str = "exfiltration.other-agent-secrets";

/// Whether the file has an agent-secrets finding above `medium`.
fn agent_secrets_above_medium(scan: &super::content::FileScan) -> bool {
    scan.findings
        .iter()
        .any(|f| f.rule_id == AGENT_SECRETS && f.severity > Severity::Medium)
}

/// Lowers the file's agent-secrets findings above `medium` to `medium`, saying why (`note`).
fn demote_agent_secrets(scan: &mut super::content::FileScan, note: &str) {
    for f in scan
        .findings
        .iter_mut()
        .filter(|f| f.rule_id == AGENT_SECRETS && f.severity > Severity::Medium)
    {
        f.severity = Severity::Medium;
        f.description.push_str(note);
    }
}

/// A file that reads an agent's stored secrets only to pick the skill's own key out of them
/// ([`super::judge::picks_own_key`]: the key the user put there for this skill, where the agent's docs say to
/// keep it) is reading its own configuration: the agent-secrets rule's findings there drop to
/// `medium`. Its facts stay, so a read that is sent anywhere is still judged as a flow.
fn demote_own_key_reads(text: &str, words: &[String], scan: &mut super::content::FileScan) {
    if agent_secrets_above_medium(scan) && super::judge::picks_own_key(text, words) {
        demote_agent_secrets(
            scan,
            " This file picks the skill's own key out of it (a key named after the skill, or its own entry of the agent's config), so it reads as the skill loading its own setting; sending the store anywhere would still be judged.",
        );
    }
}

/// A file that reads an agent's stored secrets (its model providers, `~/.openclaw/openclaw.json`)
/// in a skill named after a vendor, and whose every host is that vendor's (`open.bigmodel.cn` for
/// `glm-plan-usage`), takes the user's key for that vendor to that vendor: the skill's job, as a
/// vendor's key sent to the vendor's API is (round 38b). The agent-secrets rule's findings there
/// drop to `medium`; its facts stay, so a flow anywhere else is still judged. A file that names
/// no host, or any host of someone else, keeps the grade.
fn demote_vendor_key_reads(
    text: &str,
    vendors: &[&'static super::hosts::Vendor],
    scan: &mut super::content::FileScan,
) {
    if !agent_secrets_above_medium(scan) {
        return;
    }
    let hosts = super::judge::hosts_in(text);
    if !hosts.is_empty()
        && hosts
            .iter()
            .all(|h| vendors.iter().any(|v| super::hosts::belongs_to(v, &h.host)))
    {
        demote_agent_secrets(
            scan,
            " The skill is named after a vendor and this file talks only to that vendor's hosts, so it reads as the skill taking the user's key for that vendor to that vendor; sending the store anywhere else would still be judged.",
        );
    }
}

/// Pass two over the scanned text files (path, text, facts): the judge's findings, appended to
/// `out` (which it reads as the findings so far).
fn judge_into(
    rules: &RuleSet,
    scanned: &[(&str, &str, super::facts::FileFacts)],
    out: &mut Vec<Finding>,
) {
    let view = super::judge::Bundle {
        rules,
        files: scanned
            .iter()
            .map(|(path, content, facts)| {
                super::judge::File::new(
                    path,
                    content,
                    kind_of(path, content),
                    FilePlace::of_file(path, content),
                    facts,
                )
            })
            .collect(),
        prior: out,
    };
    let judged = super::judge::judge(&view);
    out.extend(judged);
}

/// Most severe first, then by file and line (stable: equal findings keep their order).
fn sort_findings(out: &mut [Finding]) {
    out.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.file.cmp(&b.file))
            .then(a.line.cmp(&b.line))
    });
}

/// The findings of one text file scanned on its own: what [`findings`] gives for a bundle holding
/// only that file, less the bundle-level `structural.no-skill-md` (which names the bundle, not the
/// text). The candidate risk scan reads every candidate's name and description this way; it builds
/// no [`Bundle`] and copies neither the path nor the text.
pub fn text_file_findings(path: &str, text: &str) -> Vec<Finding> {
    if path.eq_ignore_ascii_case("SKILL.md") {
        // A lone SKILL.md also decides whether the skill teaches security (the documentation cap):
        // the whole bundle path, whose only bundle-level finding there is none.
        let bundle = Bundle {
            name: String::new(),
            files: vec![BundleFile::text(path, text)],
            notes: Vec::new(),
        };
        return findings(&bundle);
    }
    let rules = RuleSet::builtin();
    let mut out = Vec::new();
    let ext = ext(path);
    path_escape(path, &mut out);
    let entry = Entry {
        path,
        ext: &ext,
        kind: EntryKind::Text,
        content: text,
        size: text.len() as u64,
        executable: false,
    };
    structural_rest(&entry, &mut out);
    let mut scan = scan_file(rules, path, text);
    out.append(&mut scan.findings);
    // The judge combines facts (and weighs earlier findings): a text that stated none and was
    // given none has nothing for it to judge (`judge_adds_nothing_without_facts_or_findings`
    // checks this on every fixture file and line). Most registry descriptions are such texts.
    // The prose rules that read raw text (tool descriptions, install commands) see a text that
    // holds their words; the look-alike dependency rule sees every source file and manifest.
    if !scan.facts.facts.is_empty()
        || !out.is_empty()
        || super::judge::prose::reads_raw_text(text)
        || super::judge::reads_dependencies(path)
    {
        judge_into(rules, &[(path, text, scan.facts)], &mut out);
    }
    sort_findings(&mut out);
    out
}

#[cfg(test)]
mod judge_skip_tests {
    use super::*;

    /// [`text_file_findings`] skips the judge for a text with no facts and no findings: over every
    /// file of the skill fixtures, and every line of them as a text of its own, the judge adds
    /// nothing to such a text (and both kinds of text occur).
    #[test]
    fn judge_adds_nothing_without_facts_or_findings() {
        let files = crate::scan::fixture_texts();
        let rules = RuleSet::builtin();
        let (mut empty, mut judged) = (0usize, 0usize);
        let mut check = |path: &str, text: &str| {
            let scan = scan_file(rules, path, text);
            if !scan.facts.facts.is_empty()
                || !scan.findings.is_empty()
                || crate::scan::judge::prose::reads_raw_text(text)
                || crate::scan::judge::reads_dependencies(path)
            {
                judged += 1;
                return;
            }
            empty += 1;
            let mut out = Vec::new();
            judge_into(rules, &[(path, text, scan.facts)], &mut out);
            assert!(out.is_empty(), "{path}: {text:?}: {out:?}");
        };
        for (name, text) in &files {
            if name.eq_ignore_ascii_case("SKILL.md") {
                continue;
            }
            check(name, text);
            for line in text.lines() {
                check("description", line);
            }
        }
        assert!(
            empty > 1000 && judged > 1000,
            "{empty} empty, {judged} judged"
        );
    }
}

/// The skill's name: SKILL.md's frontmatter `name`, else the bundle name.
pub fn skill_name(bundle: &Bundle) -> String {
    bundle
        .skill_md()
        .and_then(crate::validate::frontmatter_name)
        .unwrap_or_else(|| bundle.name.clone())
}

/// The `scan-bundle` result.
pub fn scan_bundle(bundle: &Bundle, trust: Trust, force: bool) -> Value {
    let found = findings(bundle);
    let v = verdict(&found);
    let (policy, reason) = policy(trust, v, force);
    let mut by_severity = std::collections::BTreeMap::new();
    for f in &found {
        *by_severity.entry(f.severity.as_str()).or_insert(0usize) += 1;
    }
    json!({
        "skill": skill_name(bundle),
        "trust": trust,
        "verdict": v,
        "policy": policy,
        "reason": reason,
        "forced": force,
        "findings": found,
        "stats": {
            "files": bundle.files.len(),
            "bytes": bundle.files.iter().map(|f| f.size).sum::<u64>(),
            "text_files": bundle.files.iter().filter(|f| f.kind == EntryKind::Text).count(),
            "rules": RuleSet::builtin().rules.len(),
            "by_severity": by_severity,
        },
    })
}

#[cfg(test)]
mod tests;
