//! Fit: can this agent run the skill?
//!
//! A skill declares where it runs and what it needs: `platforms` (Hermes; OpenClaw
//! `metadata.openclaw.os`; ClawHub `metadata.os`), `prerequisites {env_vars, commands}` (Hermes;
//! OpenClaw `requires.env` and `requires.bins`) and toolsets (the protocol's `required_toolsets`; Hermes
//! `metadata.hermes.requires_toolsets` and `requires_tools`). The host states the agent's situation
//! ([`AgentEnv`]: its OS and its capabilities) and looks the declared commands up on its PATH when the
//! guest asks ([`CommandProbe`]); the guest never looks itself.
//!
//! - A skill for another platform is dropped by the filter (`platform_unsupported`).
//! - Missing capabilities and commands lower the ranking's `fit` adjustment ([`FIT_WEIGHT`],
//!   [`Fit::value`]); the card says what the user would need.
//! - Whatever is unknown (no platform stated, no capabilities stated, a command the host did not look
//!   up) is neutral: never a penalty.
//!
//! The vocabulary (platform and capability aliases) is data: `guest/rules/fit.json`.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::Lang;
use crate::error::{Error, Result};
use crate::model::Candidate;

/// The ranking's `fit` adjustment: `points = FIT_WEIGHT × (value − 1)`, so a skill that fits, or whose
/// needs are unknown, loses nothing and one that can run nowhere here loses at most this many points
/// (of the protocol's 100).
pub const FIT_WEIGHT: f64 = 12.0;
/// What one capability (toolset) the agent lacks costs in [`Fit::value`]: a browser or a web search
/// tool cannot be added by the user in a minute.
pub const CAPABILITY_COST: f64 = 0.5;
/// What one command missing from the PATH costs in [`Fit::value`]: usually one package install away.
pub const COMMAND_COST: f64 = 0.25;
/// Most distinct commands the guest asks the host about in one call (a hostile list cannot make the
/// host stat thousands of names).
pub const MAX_LOOKED_UP_COMMANDS: usize = 256;

/// The bundled vocabulary.
pub const FIT_JSON: &str = include_str!("../rules/fit.json");

#[derive(Deserialize)]
struct VocabFile {
    platforms: BTreeMap<String, Vec<String>>,
    platform_groups: BTreeMap<String, Vec<String>>,
    any_platform: Vec<String>,
    capabilities: BTreeMap<String, Vec<String>>,
}

struct Vocab {
    /// alias → canonical platform.
    platform: BTreeMap<String, String>,
    /// group word → its platforms.
    groups: BTreeMap<String, Vec<String>>,
    any: BTreeSet<String>,
    /// alias → canonical capability.
    capability: BTreeMap<String, String>,
    /// The canonical platforms, for messages.
    known: Vec<String>,
}

fn vocab() -> &'static Vocab {
    static VOCAB: OnceLock<Vocab> = OnceLock::new();
    VOCAB.get_or_init(|| {
        let file: VocabFile = serde_json::from_str(FIT_JSON).expect("rules/fit.json is valid");
        let invert = |table: &BTreeMap<String, Vec<String>>| {
            let mut out = BTreeMap::new();
            for (canonical, aliases) in table {
                out.insert(key(canonical), canonical.clone());
                for a in aliases {
                    out.insert(key(a), canonical.clone());
                }
            }
            out
        };
        Vocab {
            platform: invert(&file.platforms),
            groups: file
                .platform_groups
                .iter()
                .map(|(k, v)| (key(k), v.clone()))
                .collect(),
            any: file.any_platform.iter().map(|a| key(a)).collect(),
            capability: invert(&file.capabilities),
            known: file.platforms.keys().cloned().collect(),
        }
    })
}

/// Build the vocabulary now (see [`crate::initialize`]).
pub(crate) fn initialize() {
    vocab();
}

/// A name as compared: trimmed, lower-cased, spaces and hyphens read as underscores.
pub fn key(name: &str) -> String {
    crate::lowercase(name.trim()).replace([' ', '-'], "_")
}

/// The canonical platform a name means (`darwin` → `macos`, `Win32` → `windows`, `freebsd13` →
/// `freebsd`), or `None` for a name that is not a platform.
pub fn platform(name: &str) -> Option<String> {
    let v = vocab();
    let k = key(name);
    v.platform.get(&k).cloned().or_else(|| {
        let stem = k.trim_end_matches(|c: char| c.is_ascii_digit());
        (stem.len() < k.len() && !stem.is_empty())
            .then(|| v.platform.get(stem).cloned())
            .flatten()
    })
}

/// A declared platform list, canonical: aliases become their platform, `unix` its members, a word
/// meaning "any" clears the restriction (empty result); other words are kept as written (lower case)
/// when they look like a name, so an unknown OS still restricts. Order kept, duplicates removed.
pub fn platforms_of(names: &[String]) -> Vec<String> {
    let v = vocab();
    let mut out: Vec<String> = Vec::new();
    let add = |p: String, out: &mut Vec<String>| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    for name in names.iter().flat_map(|n| n.split([',', ' ', '\t', '\n'])) {
        let k = key(name);
        if k.is_empty() {
            continue;
        }
        if v.any.contains(&k) {
            return Vec::new();
        }
        if let Some(members) = v.groups.get(&k) {
            for m in members {
                add(m.clone(), &mut out);
            }
        } else if let Some(p) = platform(&k) {
            add(p, &mut out);
        } else if k.len() <= 32 && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            add(k, &mut out);
        }
    }
    out
}

/// The canonical capability a tool or toolset name means (`bash` → `terminal`, `web` → `web_search`);
/// a name not in the vocabulary is its [`key`].
pub fn capability(name: &str) -> String {
    let k = key(name);
    vocab().capability.get(&k).cloned().unwrap_or(k)
}

/// A program name the host may look up: 1–64 characters, a letter or digit first, then letters,
/// digits, `.`, `_`, `+` or `-` (no path, no spaces).
pub fn is_command_name(s: &str) -> bool {
    let b = s.as_bytes();
    (1..=64).contains(&b.len())
        && b[0].is_ascii_alphanumeric()
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'+' | b'-'))
}

/// An environment variable name: a letter or `_`, then letters, digits or `_` (at most 128).
pub fn is_env_var_name(s: &str) -> bool {
    let b = s.as_bytes();
    (1..=128).contains(&b.len())
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'_')
}

/// What the host states about the agent that will run the skills (WIT `agent-env`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentEnv {
    /// The agent's OS (`linux`, `macos`, `windows`, or an alias such as `darwin`); `None` = unknown.
    pub platform: Option<String>,
    /// The agent's capabilities or toolsets (`terminal`, `browser`, `web_search`, …); `None` =
    /// unknown (an empty list means "none at all").
    pub capabilities: Option<Vec<String>>,
}

/// Looks commands up on the host's PATH (the host's side of [`AgentEnv`]).
pub trait CommandProbe {
    /// For each name, whether the host found a program of that name on its PATH; `None` when the host
    /// does not look (for example, the agent runs on another platform than the host).
    fn find_commands(&mut self, names: &[String]) -> Option<Vec<bool>>;
}

/// A host that does not look anything up: every command stays unknown.
pub struct NoProbe;

impl CommandProbe for NoProbe {
    fn find_commands(&mut self, _names: &[String]) -> Option<Vec<bool>> {
        None
    }
}

/// The agent's situation, resolved for one call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Agent {
    /// Canonical platform, if known.
    pub platform: Option<String>,
    /// Canonical capabilities, if known.
    pub capabilities: Option<BTreeSet<String>>,
    /// Commands the host looked up: name → found. A command not listed is unknown.
    pub commands: BTreeMap<String, bool>,
}

impl Agent {
    /// Resolve what the host stated; an unknown platform name is invalid input (field `platform`).
    pub fn resolve(env: &AgentEnv) -> Result<Agent> {
        let platform = match env.platform.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(p) => Some(platform(p).ok_or_else(|| {
                Error::invalid(
                    "platform",
                    format!(
                        "{p:?} is not a platform this component knows; use one of {} (aliases such as darwin and win32 are accepted)",
                        vocab().known.join(", ")
                    ),
                )
            })?),
        };
        let capabilities = env.capabilities.as_ref().map(|list| {
            list.iter()
                .flat_map(|c| c.split(','))
                .filter(|c| !c.trim().is_empty())
                .map(capability)
                .collect()
        });
        Ok(Agent {
            platform,
            capabilities,
            commands: BTreeMap::new(),
        })
    }

    /// Ask the host about the commands `cands` declare (at most [`MAX_LOOKED_UP_COMMANDS`], valid
    /// names only, one call). An answer of the wrong length is ignored: the commands stay unknown.
    pub fn look_up_commands<'a>(
        &mut self,
        probe: &mut dyn CommandProbe,
        cands: impl IntoIterator<Item = &'a Candidate>,
    ) {
        let names: Vec<String> = cands
            .into_iter()
            .flat_map(|c| c.prerequisites.commands.iter())
            .map(|c| c.trim())
            .filter(|c| is_command_name(c) && !self.commands.contains_key(*c))
            .map(str::to_owned)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .take(MAX_LOOKED_UP_COMMANDS)
            .collect();
        if names.is_empty() {
            return;
        }
        if let Some(found) = probe
            .find_commands(&names)
            .filter(|f| f.len() == names.len())
        {
            self.commands.extend(names.into_iter().zip(found));
        }
    }
}

/// Why a candidate cannot run on the agent's platform, or `None` (it can, or nobody knows).
pub fn platform_mismatch(c: &Candidate, agent: &Agent) -> Option<String> {
    let here = agent.platform.as_deref()?;
    if c.platforms.is_empty() || c.platforms.iter().any(|p| p == here) {
        return None;
    }
    Some(format!(
        "runs on {} only; this agent runs on {here}",
        c.platforms.join(", ")
    ))
}

/// What a SKILL.md frontmatter declares.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Declared {
    pub platforms: Vec<String>,
    pub env_vars: Vec<String>,
    pub commands: Vec<String>,
    pub toolsets: Vec<String>,
}

/// The strings of a value: a list (of strings, or of objects with a `name`) or one string of names
/// separated by commas or spaces.
fn names_in(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::String(s)) => s
            .split([',', ' ', '\t', '\n'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|i| match i {
                Value::String(s) => Some(s.trim().to_owned()),
                Value::Object(o) => o.get("name").and_then(Value::as_str).map(str::to_owned),
                _ => None,
            })
            .filter(|s| !s.is_empty())
            .collect(),
        _ => Vec::new(),
    }
}

/// An object, or a string holding a JSON object (metadata is a string map in the spec, so some
/// skills write their nested metadata as JSON text).
fn object(v: Option<&Value>) -> Option<Map<String, Value>> {
    match v? {
        Value::Object(o) => Some(o.clone()),
        Value::String(s) if s.trim_start().starts_with('{') => match serde_json::from_str(s) {
            Ok(Value::Object(o)) => Some(o),
            _ => None,
        },
        _ => None,
    }
}

fn push_unique(list: &mut Vec<String>, items: Vec<String>) {
    for i in items {
        if !list.contains(&i) {
            list.push(i);
        }
    }
}

/// What a frontmatter declares, from every shape in use: Hermes `platforms`, `prerequisites`,
/// `required_environment_variables` and `metadata.hermes.requires_toolsets`/`requires_tools`;
/// OpenClaw (and its earlier names clawdbot, clawdis) `metadata.openclaw.os` and `requires.bins`/`env`;
/// `metadata.os` and `metadata.requires` (ClawHub's listing). Only valid command and variable names are kept.
pub fn declared_in(fm: &Map<String, Value>) -> Declared {
    let mut d = Declared::default();
    let mut platforms = names_in(fm.get("platforms"));
    if let Some(p) = object(fm.get("prerequisites")) {
        push_unique(&mut d.env_vars, names_in(p.get("env_vars")));
        push_unique(&mut d.commands, names_in(p.get("commands")));
    }
    push_unique(
        &mut d.env_vars,
        names_in(fm.get("required_environment_variables")),
    );
    push_unique(&mut d.toolsets, names_in(fm.get("required_toolsets")));
    if let Some(meta) = object(fm.get("metadata")) {
        platforms.extend(names_in(meta.get("os")));
        if let Some(req) = object(meta.get("requires")) {
            push_unique(&mut d.commands, names_in(req.get("bins")));
            push_unique(&mut d.env_vars, names_in(req.get("env")));
        }
        for agent in ["openclaw", "clawdbot", "clawdis"] {
            let Some(m) = object(meta.get(agent)) else {
                continue;
            };
            platforms.extend(names_in(m.get("os")));
            if let Some(req) = object(m.get("requires")) {
                push_unique(&mut d.commands, names_in(req.get("bins")));
                push_unique(&mut d.env_vars, names_in(req.get("env")));
            }
        }
        if let Some(h) = object(meta.get("hermes")) {
            push_unique(&mut d.toolsets, names_in(h.get("requires_toolsets")));
            push_unique(&mut d.toolsets, names_in(h.get("requires_tools")));
        }
    }
    d.platforms = platforms_of(&platforms);
    d.commands.retain(|c| is_command_name(c));
    d.env_vars.retain(|e| is_env_var_name(e));
    let mut toolsets = Vec::new();
    push_unique(
        &mut toolsets,
        d.toolsets.iter().map(|t| capability(t)).collect(),
    );
    d.toolsets = toolsets;
    d
}

/// Fill what the candidate record leaves empty (platforms, prerequisites, required toolsets) from the
/// SKILL.md frontmatter in `raw_content`. What the record states wins: the agent or the registry said
/// it on purpose.
pub fn complete_from_content(c: &mut Candidate) {
    let Some(raw) = c.raw_content.as_deref() else {
        return;
    };
    let prereq_empty = c.prerequisites.env_vars.is_empty() && c.prerequisites.commands.is_empty();
    if !c.platforms.is_empty() && !prereq_empty && !c.required_toolsets.is_empty() {
        return;
    }
    if let Some(fm) = crate::skill_md::read(raw).frontmatter {
        fill(c, declared_in(&fm));
    }
}

/// Fill what the candidate record leaves empty from what a source declares (a frontmatter, a
/// registry's item).
pub fn fill(c: &mut Candidate, d: Declared) {
    let prereq_empty = c.prerequisites.env_vars.is_empty() && c.prerequisites.commands.is_empty();
    if c.platforms.is_empty() {
        c.platforms = d.platforms;
    }
    if prereq_empty {
        c.prerequisites.env_vars = d.env_vars;
        c.prerequisites.commands = d.commands;
    }
    if c.required_toolsets.is_empty() {
        c.required_toolsets = d.toolsets;
    }
}

/// How well one candidate fits the agent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fit {
    /// In [0, 1]: `1 − CAPABILITY_COST × capabilities missing − COMMAND_COST × commands missing`, at
    /// least 0. 1 when nothing is missing or nothing is known.
    pub value: f64,
    /// The platforms the skill declares (empty: any).
    pub platforms: Vec<String>,
    /// Why it cannot run on the agent's platform at all (then `value` is 0); the filter drops such a
    /// skill, so only a ranking of unfiltered candidates sees it.
    pub platform_unsupported: Option<String>,
    pub capabilities_missing: Vec<String>,
    pub commands_found: Vec<String>,
    pub commands_missing: Vec<String>,
    /// Declared commands the host did not look up.
    pub commands_unchecked: Vec<String>,
    /// Environment variables to set up (never checked).
    pub env_vars: Vec<String>,
}

/// Assess one candidate against the agent.
pub fn assess(c: &Candidate, agent: &Agent) -> Fit {
    let mut fit = Fit {
        platforms: c.platforms.clone(),
        platform_unsupported: platform_mismatch(c, agent),
        ..Fit::default()
    };
    if let Some(have) = &agent.capabilities {
        let mut missing = Vec::new();
        push_unique(
            &mut missing,
            c.required_toolsets
                .iter()
                .filter(|t| !t.trim().is_empty())
                .map(|t| capability(t))
                .filter(|t| !have.contains(t))
                .collect(),
        );
        fit.capabilities_missing = missing;
    }
    let mut commands = Vec::new();
    push_unique(
        &mut commands,
        c.prerequisites
            .commands
            .iter()
            .map(|s| s.trim().to_owned())
            .filter(|s| is_command_name(s))
            .collect(),
    );
    for cmd in commands {
        match agent.commands.get(&cmd) {
            Some(true) => fit.commands_found.push(cmd),
            Some(false) => fit.commands_missing.push(cmd),
            None => fit.commands_unchecked.push(cmd),
        }
    }
    push_unique(
        &mut fit.env_vars,
        c.prerequisites
            .env_vars
            .iter()
            .map(|s| s.trim().to_owned())
            .filter(|s| is_env_var_name(s))
            .collect(),
    );
    fit.value = if fit.platform_unsupported.is_some() {
        0.0
    } else {
        (1.0 - CAPABILITY_COST * fit.capabilities_missing.len() as f64
            - COMMAND_COST * fit.commands_missing.len() as f64)
            .max(0.0)
    };
    fit
}

/// A list for a sentence: `a and b`, `a, b and c`; Chinese `a、b`.
fn list(items: &[String], lang: Lang) -> String {
    match (lang, items) {
        (Lang::Zh, _) => items.join("、"),
        (Lang::En, [one]) => one.clone(),
        (Lang::En, [init @ .., last]) => format!("{} and {last}", init.join(", ")),
        (Lang::En, []) => String::new(),
    }
}

impl Fit {
    /// Whether something the skill needs is known to be missing here.
    pub fn lacks_something(&self) -> bool {
        self.platform_unsupported.is_some()
            || !self.capabilities_missing.is_empty()
            || !self.commands_missing.is_empty()
    }

    /// What is missing here, for the ranking's reasons; empty when nothing is known to be missing.
    pub fn missing_text(&self, lang: Lang) -> String {
        let mut parts = Vec::new();
        if self.platform_unsupported.is_some() {
            parts.push(match lang {
                Lang::Zh => format!("只支持 {}，当前平台无法运行", self.platforms.join("、")),
                Lang::En => format!("runs on {} only, not here", list(&self.platforms, lang)),
            });
        }
        if !self.commands_missing.is_empty() {
            parts.push(match lang {
                Lang::Zh => format!("需要 {}（本机未找到）", list(&self.commands_missing, lang)),
                Lang::En => format!(
                    "needs {} (not found on this machine)",
                    list(&self.commands_missing, lang)
                ),
            });
        }
        if !self.capabilities_missing.is_empty() {
            parts.push(match lang {
                Lang::Zh => format!(
                    "需要 {} 能力（当前 agent 没有）",
                    list(&self.capabilities_missing, lang)
                ),
                Lang::En if self.capabilities_missing.len() == 1 => format!(
                    "needs the {} capability, which this agent lacks",
                    list(&self.capabilities_missing, lang)
                ),
                Lang::En => format!(
                    "needs the {} capabilities, which this agent lacks",
                    list(&self.capabilities_missing, lang)
                ),
            });
        }
        parts.join(if lang == Lang::Zh { "；" } else { "; " })
    }

    /// The factor's detail: what is missing, or that everything declared was found.
    pub fn detail(&self, lang: Lang) -> String {
        if self.lacks_something() {
            return self.missing_text(lang);
        }
        if !self.commands_found.is_empty() && self.commands_unchecked.is_empty() {
            return match lang {
                Lang::Zh => format!("依赖已就绪：{}", list(&self.commands_found, lang)),
                Lang::En => format!(
                    "what it needs is here: {}",
                    list(&self.commands_found, lang)
                ),
            };
        }
        String::new()
    }

    /// Everything the user would need to set up, for the card (`None` when nothing): missing and
    /// unchecked commands, environment variables, missing capabilities.
    pub fn needs(&self, lang: Lang) -> Option<String> {
        let zh = lang == Lang::Zh;
        let mut parts = Vec::new();
        if !self.commands_missing.is_empty() {
            let l = list(&self.commands_missing, lang);
            parts.push(if zh {
                format!("{l}（本机未找到）")
            } else {
                format!("{l} (not found on this machine)")
            });
        }
        if !self.commands_unchecked.is_empty() {
            let l = list(&self.commands_unchecked, lang);
            parts.push(match (zh, self.commands_unchecked.len()) {
                (true, _) => format!("{l}（请确认已安装）"),
                (false, 1) => format!("{l} (check it is installed)"),
                (false, _) => format!("{l} (check they are installed)"),
            });
        }
        if !self.env_vars.is_empty() {
            let l = list(&self.env_vars, lang);
            parts.push(match (zh, self.env_vars.len()) {
                (true, _) => format!("环境变量 {l}"),
                (false, 1) => format!("the environment variable {l}"),
                (false, _) => format!("the environment variables {l}"),
            });
        }
        if !self.capabilities_missing.is_empty() {
            let l = list(&self.capabilities_missing, lang);
            parts.push(match (zh, self.capabilities_missing.len()) {
                (true, _) => format!("{l} 能力（当前 agent 没有）"),
                (false, 1) => format!("the {l} capability (this agent lacks it)"),
                (false, _) => format!("the {l} capabilities (this agent lacks them)"),
            });
        }
        (!parts.is_empty()).then(|| parts.join(if zh { "；" } else { "; " }))
    }

    /// Read back what [`Fit::to_json`] wrote (for `render`, which may be asked for the other
    /// language): the lists; anything missing is empty.
    pub fn from_json(v: &Value) -> Fit {
        let strings = |k: &str| -> Vec<String> {
            v.get(k)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        };
        Fit {
            value: v.get("value").and_then(Value::as_f64).unwrap_or(1.0),
            platforms: strings("platforms"),
            platform_unsupported: None,
            capabilities_missing: strings("capabilities_missing"),
            commands_found: strings("commands_found"),
            commands_missing: strings("commands_missing"),
            commands_unchecked: strings("commands_unchecked"),
            env_vars: strings("env_vars"),
        }
    }

    /// The JSON a pick carries: `{value, platforms, capabilities_missing, commands_found,
    /// commands_missing, commands_unchecked, env_vars, needs}`.
    pub fn to_json(&self, lang: Lang) -> Value {
        json!({
            "value": libm::round(self.value * 1000.0) / 1000.0,
            "platforms": self.platforms,
            "capabilities_missing": self.capabilities_missing,
            "commands_found": self.commands_found,
            "commands_missing": self.commands_missing,
            "commands_unchecked": self.commands_unchecked,
            "env_vars": self.env_vars,
            "needs": self.needs(lang),
        })
    }
}

#[cfg(test)]
mod tests;
