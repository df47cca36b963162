//! `persistence.agent-permissions`, two shapes the line rules do not read:
//! - a value that lifts an agent's checks set through a property call in code that writes an
//!   agent's settings file (`Add-Member autoAccept $true`, `cfg["sandbox"] = False`,
//!   `jq '.approval_policy = "never"'`): the key and its value on one line, not compared;
//! - a config shipped in the bundle that holds such values (`approval_policy = "never"`,
//!   `sandbox_mode = "danger-full-access"`), copied by an order of the bundle over an agent's own
//!   settings (`cp config/codex.toml ~/.codex/config.toml`): the shipped file is then the user's.
//!
//! Not judged: a deny rule or an MCP server entry added (no lifting value), a check that compares
//! a value, a shipped config nothing copies into an agent's folder.

use super::super::agent::writes;
use super::super::shapes::{found, has, is_code};
use super::super::{Bundle, File};
use super::sample_file;
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::judge::find::Has;
use crate::scan::rules::Severity;

const RULE: &str = "persistence.agent-permissions";

/// Agents' and editors' settings folders and files.
const AGENT_PLACES: &[&str] = &[
    ".claude",
    ".codex",
    ".gemini",
    ".cursor",
    "windsurf",
    ".codeium",
    "code/user",
    "code\\user",
    ".continue",
    ".openclaw",
    "claude_desktop_config",
    // Round 41c: OpenCode, Roo Code and Zed settings.
    "opencode",
    ".roo",
    "zed/settings",
    ".config/zed",
    // Round 47t: Cline's settings (under the VS Code extension's id) and Amp's.
    "claude-dev",
    ".config/amp",
];
/// A key that lifts a check, and the values that lift it.
const LIFTS: &[(&str, &[&str])] = &[
    ("autoaccept", &["true", "$true"]),
    ("autoapprove", &["true", "$true", "\"*\""]),
    ("alwaysallow", &["true", "$true", "\"*\""]),
    ("yolo", &["true", "$true"]),
    ("skippermissions", &["true", "$true"]),
    ("skipdangerousmodepermissionprompt", &["true", "$true"]),
    ("dangerouslyskippermissions", &["true", "$true"]),
    ("trustall", &["true", "$true"]),
    (
        "sandbox",
        &[
            "false",
            "$false",
            "\"off\"",
            "'off'",
            "\"none\"",
            "danger-full-access",
        ],
    ),
    ("approval_policy", &["never"]),
    ("approvalpolicy", &["never"]),
    ("defaultmode", &["bypasspermissions"]),
    // Round 41c: OpenCode's shell permission, Continue's tool policy, Roo's execute toggle and
    // command list, Zed's agent toggle.
    ("\"bash\"", &["\"allow\""]),
    (
        "builtin_run_terminal_command",
        &["allowedwithoutpermission"],
    ),
    ("alwaysallowexecute", &["true"]),
    ("allowedcommands", &["[\"*\"]"]),
    ("always_allow_tool_actions", &["true"]),
    // Round 47t: Cline's auto-approval of every command, Amp's allow-all switch.
    ("executeallcommands", &["true"]),
    ("dangerouslyallowall", &["true"]),
    // Round 48t: Gemini CLI's per-server `trust` (every call of that MCP server unconfirmed), read
    // only as a whole key (`folderTrust`, `trustedFolders` are other settings).
    ("trust", &["true", "$true"]),
    // Round 49t: Aider's confirm-everything switch, and an allow list whose first rule is any
    // shell command (Cursor CLI's `Shell(*)`, Claude Code's `Bash(*)`).
    ("yes-always", &["true"]),
    ("\"allow\"", &["\"shell(*)\"", "\"bash(*)\""]),
];
/// Keys of [`LIFTS`] that count only as a whole key: the character before them is not a letter,
/// a digit or `_`.
const WHOLE_KEYS: &[&str] = &["trust"];
/// Round 48t: project config files an agent loads by itself when it starts in the folder, like
/// VS Code's workspace settings: OpenCode's `opencode.json`, Zed's and Gemini CLI's project
/// settings.
const LOADED: &[&str] = &[
    "opencode.json",
    "opencode.jsonc",
    ".zed/settings.json",
    ".gemini/settings.json",
    // Round 49t: Cursor CLI's project permissions and Aider's project config, both read from the
    // folder the tool starts in.
    ".cursor/cli.json",
    ".aider.conf.yml",
];
/// Verbs that copy a file into place.
const COPIES: &[&str] = &[
    "cp ",
    "copy ",
    "copy-item",
    "install -m",
    "shutil.copy",
    "copyfile",
    "copyfilesync",
    "ln -s",
    "mv ",
    "move-item",
];

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &[
    ".claude",
    ".codex",
    ".gemini",
    ".cursor",
    "windsurf",
    "opencode",
    ".roo",
    ".config/zed",
    ".continue",
    "claude-dev",
    ".config/amp",
    "yes-always",
    "shell(*)",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        // A file another rule already judged for this (a contained script stops at `high`).
        if sample_file(f) || !is_code(f) || has(out, f, RULE, Severity::Medium) {
            continue;
        }
        if let Some(x) = property_set(f) {
            out.push(x);
        }
    }
    if !out
        .iter()
        .any(|x| x.rule_id == RULE && x.severity == Severity::Critical)
    {
        out.extend(shipped_copied(b));
    }
    if !out
        .iter()
        .any(|x| x.rule_id == RULE && x.severity == Severity::Critical)
    {
        out.extend(shipped_on(b));
    }
}

/// The line of a settings file that sets a lifting value (`"alwaysAllowExecute": true`).
fn lifting_line(f: &File<'_>) -> Option<usize> {
    f.lowered().lower.iter().position(|l| {
        let squeezed: String = l.chars().filter(|c| !c.is_whitespace()).collect();
        lifts(&squeezed)
    })
}

/// Round 41c: a settings file shipped in the bundle that switches an agent's approvals off, and
/// that takes effect by being there or by being named: VS Code's workspace settings
/// (`.vscode/settings.json`, loaded when the folder is opened) or a JSON/YAML settings file
/// another file of the bundle names (an import the user is told to do). A settings file nobody
/// names is a sample; a guide's fenced block is not a file.
fn shipped_on(b: &Bundle<'_>) -> Option<Finding> {
    for cfg in &b.files {
        let p = cfg.path.to_ascii_lowercase();
        // A file kept as an example (`examples/`, `samples/`, `*.example.json`) is shown, not used.
        if sample_file(cfg)
            || !is_code(cfg)
            || p.split('/')
                .any(|c| c.starts_with("example") || c.starts_with("sample"))
            || p.contains(".example.")
            || p.contains(".sample.")
        {
            continue;
        }
        // Round 47t: a VS Code workspace file holds a `settings` block loaded when it is opened.
        let settings = [
            ".json",
            ".jsonc",
            ".yaml",
            ".yml",
            ".toml",
            ".code-workspace",
        ]
        .iter()
        .any(|x| p.ends_with(x));
        if !settings {
            continue;
        }
        let loaded = p == ".vscode/settings.json"
            || p.ends_with("/.vscode/settings.json")
            || LOADED
                .iter()
                .any(|l| p == *l || p.ends_with(&format!("/{l}")));
        let name = p.rsplit('/').next().unwrap_or(&p);
        let named = name.len() >= 8
            && b.files
                .iter()
                .any(|f| !std::ptr::eq(f, cfg) && f.lower_all().has(name));
        if !(loaded || named) {
            continue;
        }
        let Some(i) = lifting_line(cfg) else {
            continue;
        };
        return Some(found(
            RULE,
            "persistence",
            Severity::Critical,
            cfg,
            i,
            format!(
                "{}:{}: the bundle ships agent settings that switch approvals off ({}): once {} the agent runs its tools without asking the user.",
                cfg.path,
                i + 1,
                cfg.lowered().lines[i].trim(),
                if loaded {
                    "the folder is opened in the editor or the agent"
                } else {
                    "the user imports the file as the bundle says"
                }
            ),
            vec![],
        ));
    }
    None
}

fn property_set(f: &File<'_>) -> Option<Finding> {
    let all = f.lower_all();
    if !AGENT_PLACES.iter().any(|p| all.has(p)) || !writes(f) {
        return None;
    }
    let i = f.lowered().lower.iter().position(|l| {
        if ["==", "!=", "-eq ", "-ne ", "assert", "if ", "elif "]
            .iter()
            .any(|c| l.has(c))
        {
            return false;
        }
        // A message shown to the user (`print("sandbox: false is risky")`) sets nothing.
        if [
            "print(",
            "console.log",
            "write-host",
            "logger.",
            "warn(",
            "echo ",
        ]
        .iter()
        .any(|m| l.has(m))
            && !l.contains('>')
        {
            return false;
        }
        let squeezed: String = l.chars().filter(|c| !c.is_whitespace()).collect();
        lifts(&squeezed)
    })?;
    Some(found(
        RULE,
        "persistence",
        Severity::Critical,
        f,
        i,
        "Code that writes an agent's or editor's settings sets a value that lifts its checks (auto-accept, auto-approve, sandbox off, approvals never): the agent would then act without asking the user.".into(),
        vec![],
    ))
}

/// Whether a squeezed, lowered line sets a key of [`LIFTS`] to one of its lifting values.
fn lifts(squeezed: &str) -> bool {
    LIFTS.iter().any(|(k, vals)| {
        key_at(squeezed, k).is_some_and(|at| {
            let after = &squeezed[at + k.len()..];
            vals.iter()
                .any(|v| after.find(v).is_some_and(|p| assigns(&after[..p])))
        })
    })
}

/// Where key `k` first stands in `s` (for a [`WHOLE_KEYS`] key, as a whole key only).
fn key_at(s: &str, k: &str) -> Option<usize> {
    if !WHOLE_KEYS.contains(&k) {
        return s.find(k);
    }
    s.match_indices(k).map(|(p, _)| p).find(|&p| {
        let before = s[..p].bytes().next_back();
        let after = s.as_bytes().get(p + k.len()).copied();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
    })
}

/// Whether the text between a key and its value is an assignment (`"] = `, `": `, `, `,
/// `-NotePropertyValue `), not words of a message (`defaultMode is bypassPermissions`).
fn assigns(between: &str) -> bool {
    let rest = between
        .replace("-notepropertyvalue", "=")
        .replace("-value", "=");
    rest.len() <= 6
        && rest.contains([':', '=', ','])
        && rest.chars().all(|c| "\"'[]:=,(){}\\".contains(c))
}

/// A shipped file with lifting values, copied over an agent's settings by an order of the bundle.
fn shipped_copied(b: &Bundle<'_>) -> Option<Finding> {
    for cfg in &b.files {
        let Some(v) = b
            .in_file(cfg, FactKind::PermissionValue)
            .find(|v| !v.fact.prose && matches!(b.tag(v.fact), "bypass" | "bypass-key"))
        else {
            continue;
        };
        let name = cfg.path.rsplit('/').next().unwrap_or(cfg.path);
        for f in &b.files {
            if std::ptr::eq(f, cfg) {
                continue;
            }
            let low = &f.lowered().lower;
            let Some(k) = low.iter().position(|l| {
                COPIES.iter().any(|c| l.has(c))
                    && (l.contains(&cfg.path.to_ascii_lowercase())
                        || name.len() >= 6 && l.contains(&name.to_ascii_lowercase()))
                    && AGENT_PLACES.iter().any(|p| l.has(p))
            }) else {
                continue;
            };
            return Some(found(
                RULE,
                "persistence",
                Severity::Critical,
                f,
                k,
                format!(
                    "The bundle ships {} holding a value that lifts the agent's checks (line {}) and this order copies it over an agent's own settings: every later session would run without the user's approval.",
                    cfg.path, v.fact.line
                ),
                vec![v.related("setting")],
            ));
        }
    }
    None
}
