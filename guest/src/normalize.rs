//! Registry JSON → candidate records. Each registry's search, list and detail shapes are accepted
//! (parsed defensively: field names and nesting vary between API versions). An item without an
//! identity (slug, id, name) or that is not an object is skipped and reported with its index; an
//! optional field that cannot be read is left out and reported as a warning — the rest still
//! normalizes. Nothing is invented: a page URL is built only from what the registry documents.

use jiff::Timestamp;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::error::{Error, Result};
use crate::model::{Candidate, Popularity, RegistryEvidence, count_of, parse_one};

/// Where the JSON came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Registry {
    Clawhub,
    Skillssh,
    Smithery,
    Glama,
    Skillhub,
    Github,
    Mcpmarket,
    /// Already normalized (`{"candidates": [...]}`): validated and passed through.
    Candidates,
}

impl Registry {
    pub fn as_str(self) -> &'static str {
        match self {
            Registry::Clawhub => "clawhub",
            Registry::Skillssh => "skillssh",
            Registry::Smithery => "smithery",
            Registry::Glama => "glama",
            Registry::Skillhub => "skillhub",
            Registry::Github => "github",
            Registry::Mcpmarket => "mcpmarket",
            Registry::Candidates => "candidates",
        }
    }

    /// The registries whose own JSON is read (every value but `candidates`).
    pub const REGISTRIES: [Registry; 7] = [
        Registry::Clawhub,
        Registry::Skillssh,
        Registry::Smithery,
        Registry::Glama,
        Registry::Skillhub,
        Registry::Github,
        Registry::Mcpmarket,
    ];

    /// The registry named `name` (as `--from` spells it), case-insensitive.
    pub fn parse(name: &str) -> Option<Registry> {
        let name = name.trim().to_ascii_lowercase();
        Self::REGISTRIES
            .into_iter()
            .chain([Registry::Candidates])
            .find(|r| r.as_str() == name)
    }

    /// How people name it.
    pub fn label(self) -> &'static str {
        match self {
            Registry::Clawhub => "ClawHub",
            Registry::Skillssh => "skills.sh",
            Registry::Smithery => "Smithery",
            Registry::Glama => "Glama",
            Registry::Skillhub => "SkillHub",
            Registry::Github => "GitHub",
            Registry::Mcpmarket => "MCP Market",
            Registry::Candidates => "candidates",
        }
    }
}

/// A problem with one input item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Issue {
    pub index: usize,
    pub field: String,
    pub message: String,
}

/// The result of `normalize`.
#[derive(Debug, Clone, PartialEq)]
pub struct Normalized {
    pub registry: Registry,
    pub candidates: Vec<Candidate>,
    /// Items that could not be normalized at all.
    pub skipped: Vec<Issue>,
    /// Fields left out of otherwise normalized items.
    pub warnings: Vec<Issue>,
}

impl Normalized {
    pub fn to_json(&self) -> Value {
        json!({
            "registry": self.registry,
            "candidates": self.candidates,
            "skipped": self.skipped,
            "warnings": self.warnings,
            "summary": {"items": self.candidates.len() + self.skipped.len(), "candidates": self.candidates.len(), "skipped": self.skipped.len()},
        })
    }
}

/// Options a registry needs but its JSON does not carry.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Base URL of a self-hosted registry (SkillHub), for page URLs: `<base>/skills/<slug>`.
    pub base_url: Option<String>,
}

/// Normalize a registry response; `registry` `None` detects it from the shape.
pub fn normalize(text: &str, registry: Option<Registry>, options: &Options) -> Result<Normalized> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| Error::invalid("input", format!("not valid JSON ({e})")))?;
    normalize_value(&value, registry, options)
}

/// [`normalize`] on parsed JSON.
pub fn normalize_value(
    value: &Value,
    registry: Option<Registry>,
    options: &Options,
) -> Result<Normalized> {
    let registry = match registry {
        Some(r) => r,
        None => detect(value).ok_or_else(|| {
            Error::invalid("from", "could not tell which registry this JSON comes from; pass --from clawhub|skillssh|smithery|glama|skillhub|github|mcpmarket")
        })?,
    };
    let mut out = Normalized {
        registry,
        candidates: Vec::new(),
        skipped: Vec::new(),
        warnings: Vec::new(),
    };
    for (index, item) in items_of(value, registry).into_iter().enumerate() {
        let (result, warnings) = normalize_item(index, &item, registry, options);
        out.warnings.extend(warnings);
        match result {
            Ok(c) => out.candidates.push(c),
            Err(issue) => out.skipped.push(issue),
        }
    }
    Ok(out)
}

/// One item of a registry's list: the candidate (or why it has none) and the optional fields left out.
pub fn normalize_item(
    index: usize,
    item: &Value,
    registry: Registry,
    options: &Options,
) -> (std::result::Result<Candidate, Issue>, Vec<Issue>) {
    let Value::Object(obj) = item else {
        let issue = Issue {
            index,
            field: String::new(),
            message: "not a JSON object".into(),
        };
        return (Err(issue), Vec::new());
    };
    let mut ctx = Item {
        index,
        obj,
        warnings: Vec::new(),
    };
    let result = match registry {
        Registry::Clawhub => ctx.clawhub(),
        Registry::Skillssh => ctx.skillssh(),
        Registry::Smithery => ctx.smithery(),
        Registry::Glama => ctx.glama(),
        Registry::Skillhub => ctx.skillhub(options),
        Registry::Github => ctx.github(),
        Registry::Mcpmarket => ctx.mcpmarket(),
        Registry::Candidates => {
            parse_one(Value::Object(obj.clone())).map_err(|m| ("candidate".to_owned(), m))
        }
    };
    let result = result
        .map(|mut c| {
            // Platforms and prerequisites, from whichever registry states them (ClawHub
            // `metadata.os` and `metadata.requires`; a registry echoing SKILL.md's frontmatter).
            crate::fit::fill(&mut c, crate::fit::declared_in(obj));
            c
        })
        .map_err(|(field, message)| Issue {
            index,
            field,
            message,
        });
    (result, ctx.warnings)
}

/// Guess the registry from the JSON's shape.
pub fn detect(value: &Value) -> Option<Registry> {
    if value.get("candidates").is_some() {
        return Some(Registry::Candidates);
    }
    // A GitHub search result or repo object.
    if value.get("full_name").is_some() || value.get("total_count").is_some() {
        return Some(Registry::Github);
    }
    let first = ["items", "results", "skills", "servers", "data"]
        .iter()
        .find_map(|k| value.get(k).and_then(Value::as_array))
        .or_else(|| value.as_array())
        .and_then(|a| a.iter().find(|v| v.is_object()))
        .or_else(|| value.get("skill").filter(|v| v.is_object()))
        .or_else(|| value.is_object().then_some(value))?;
    let node = first.get("node").unwrap_or(first);
    let has = |k: &str| node.get(k).is_some();
    if has("skill_id") {
        Some(Registry::Candidates)
    } else if has("qualifiedName") {
        Some(Registry::Smithery)
    } else if has("full_name") || has("stargazers_count") {
        Some(Registry::Github)
    } else if has("downloadCount") || has("starCount") {
        Some(Registry::Skillhub)
    } else if has("namespace") && has("slug") {
        Some(Registry::Glama)
    } else if has("skillId") || (has("installs") && has("source") && !has("slug")) {
        Some(Registry::Skillssh)
    } else if has("slug") && (has("displayName") || has("stats") || has("summary") || has("topics"))
    {
        Some(Registry::Clawhub)
    } else if has("slug") && has("installs") {
        Some(Registry::Mcpmarket)
    } else {
        None
    }
}

/// The list of items in a response (a detail response is one item).
fn items_of(value: &Value, registry: Registry) -> Vec<Value> {
    for key in [
        "candidates",
        "items",
        "results",
        "skills",
        "servers",
        "data",
        "repositories",
    ] {
        if let Some(Value::Array(a)) = value.get(key) {
            // Glama-style connections: {"servers": [{"node": {...}}]}.
            return a
                .iter()
                .map(|v| v.get("node").cloned().unwrap_or_else(|| v.clone()))
                .collect();
        }
    }
    if let Some(edges) = value.get("edges").and_then(Value::as_array) {
        return edges
            .iter()
            .map(|e| e.get("node").cloned().unwrap_or(Value::Null))
            .collect();
    }
    match value {
        Value::Array(a) => a.clone(),
        Value::Object(o) => {
            // ClawHub detail: {"skill": {...}, "owner": {...}, "latestVersion": {...}, "moderation": ...}
            if let (Registry::Clawhub | Registry::Skillhub, Some(Value::Object(skill))) =
                (registry, o.get("skill"))
            {
                let mut merged = skill.clone();
                for (k, v) in o {
                    if k != "skill" {
                        merged.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                }
                return vec![Value::Object(merged)];
            }
            vec![value.clone()]
        }
        _ => Vec::new(),
    }
}

type ItemResult = std::result::Result<Candidate, (String, String)>;

/// One item being normalized, collecting warnings.
struct Item<'a> {
    index: usize,
    obj: &'a Map<String, Value>,
    warnings: Vec<Issue>,
}

impl Item<'_> {
    fn get(&self, path: &str) -> Option<&Value> {
        let mut v = self.obj.get(path.split('.').next()?)?;
        for part in path.split('.').skip(1) {
            v = v.get(part)?;
        }
        (!v.is_null()).then_some(v)
    }

    fn warn(&mut self, field: &str, message: String) {
        self.warnings.push(Issue {
            index: self.index,
            field: field.into(),
            message,
        });
    }

    /// A string field (numbers are read as text); wrong types are warnings.
    fn text(&mut self, path: &str) -> Option<String> {
        match self.get(path)? {
            Value::String(s) if s.trim().is_empty() => None,
            Value::String(s) => Some(s.trim().to_owned()),
            Value::Number(n) => Some(n.to_string()),
            other => {
                let msg = format!("expected text, found {other}");
                self.warn(path, msg);
                None
            }
        }
    }

    fn first_text(&mut self, paths: &[&str]) -> Option<String> {
        paths.iter().find_map(|p| self.text(p))
    }

    /// The identity field, required.
    fn required(&mut self, paths: &[&str]) -> std::result::Result<String, (String, String)> {
        self.first_text(paths).ok_or_else(|| {
            (
                paths[0].to_owned(),
                format!("missing {}: the item has no identity", paths.join(" / ")),
            )
        })
    }

    fn count(&mut self, path: &str) -> Option<u64> {
        let v = self.get(path)?.clone();
        match count_of(&v) {
            Ok(n) => Some(n),
            Err(m) => {
                self.warn(path, m);
                None
            }
        }
    }

    fn first_count(&mut self, paths: &[&str]) -> Option<u64> {
        paths.iter().find_map(|p| self.count(p))
    }

    /// Downloads and stars from the first path of each that holds a count; unknown when neither does.
    fn popularity(&mut self, downloads: &[&str], stars: &[&str]) -> Popularity {
        let (d, s) = (self.first_count(downloads), self.first_count(stars));
        Popularity {
            downloads: d.unwrap_or(0),
            stars: s.unwrap_or(0),
            unknown: d.is_none() && s.is_none(),
            extra: Map::new(),
        }
    }

    /// A time: epoch milliseconds or seconds (number or numeric string) or an ISO 8601 string → RFC 3339 UTC.
    fn time(&mut self, paths: &[&str]) -> Option<String> {
        for path in paths {
            let Some(v) = self.get(path).cloned() else {
                continue;
            };
            match to_iso(&v) {
                Some(t) => return Some(t),
                None => self.warn(
                    path,
                    format!("{v} is not a time (ISO 8601 or epoch milliseconds)"),
                ),
            }
        }
        None
    }

    fn list(&mut self, path: &str) -> Vec<String> {
        match self.get(path) {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .filter_map(|v| match v {
                    Value::String(s) => Some(s.trim().to_lowercase()),
                    Value::Object(o) => o
                        .get("name")
                        .and_then(Value::as_str)
                        .map(|s| s.trim().to_lowercase()),
                    _ => None,
                })
                .filter(|s| !s.is_empty())
                .collect(),
            Some(Value::String(s)) => s
                .split(',')
                .map(|s| s.trim().to_lowercase())
                .filter(|s| !s.is_empty())
                .collect(),
            Some(other) => {
                let msg = format!("expected a list, found {other}");
                self.warn(path, msg);
                Vec::new()
            }
        }
    }

    fn flag(&self, path: &str) -> Option<bool> {
        match self.get(path)? {
            Value::Bool(b) => Some(*b),
            Value::String(s) => match s.to_ascii_lowercase().as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    fn clawhub(&mut self) -> ItemResult {
        let slug = self.required(&["slug"])?;
        let owner = self.first_text(&[
            "owner.handle",
            "owner.username",
            "ownerHandle",
            "author.handle",
        ]);
        let url = match &owner {
            Some(o) => format!("https://clawhub.ai/{o}/{slug}"),
            None => format!("https://clawhub.ai/skills/{slug}"),
        };
        let moderation = self.get("moderation").cloned();
        let registry = moderation.map(|m| {
            Box::new(RegistryEvidence {
                verdict: m.get("verdict").and_then(Value::as_str).map(str::to_owned),
                is_suspicious: m
                    .get("isSuspicious")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                is_malware_blocked: m
                    .get("isMalwareBlocked")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                flags: m
                    .get("reasonCodes")
                    .and_then(Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(|v| v.as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default(),
                ..Default::default()
            })
        });
        let mut extra = Map::new();
        if let Some(v) = self.first_text(&["latestVersion.version", "version", "tags.latest"]) {
            extra.insert("version".into(), Value::String(v));
        }
        let popularity = self.popularity(
            &[
                "stats.downloads",
                "stats.installsAllTime",
                "stats.installs",
                "stats.installsCurrent",
            ],
            &["stats.stars"],
        );
        // Slugs collide across owners (two different `pdf` skills): the id keeps the protocol's
        // `source:name-lower` form and `owner` tells them apart (dedup and installed matching use both).
        Ok(Candidate {
            skill_id: format!("clawhub:{}", slug.to_lowercase()),
            name: self
                .first_text(&["displayName", "name"])
                .unwrap_or_else(|| slug.clone()),
            url,
            description: self
                .first_text(&["summary", "description"])
                .unwrap_or_default(),
            // `tags` maps version tags ({"latest": "1.2.3"}), never categories.
            categories: self.list("topics"),
            source: "clawhub".into(),
            owner,
            updated_at: self.time(&["updatedAt", "latestVersion.createdAt", "createdAt"]),
            popularity,
            registry,
            extra,
            ..base()
        })
    }

    fn skillssh(&mut self) -> ItemResult {
        let id = match self.text("id") {
            Some(id) => id,
            None => {
                let skill = self.required(&["skillId", "name"])?;
                match self.text("source") {
                    Some(src) => format!("{src}/{skill}"),
                    None => skill,
                }
            }
        };
        let source = self.text("source").or_else(|| {
            let parts: Vec<&str> = id.split('/').collect();
            (parts.len() >= 2).then(|| format!("{}/{}", parts[0], parts[1]))
        });
        let skill = self
            .first_text(&["skillId", "name"])
            .or_else(|| id.rsplit('/').next().map(str::to_owned));
        let mut audits = std::collections::BTreeMap::new();
        if let Some(Value::Object(a)) = self.get("audits").cloned() {
            for (k, v) in a {
                if let Some(s) = v
                    .as_str()
                    .or_else(|| v.get("status").and_then(Value::as_str))
                {
                    audits.insert(k, s.to_owned());
                }
            }
        }
        Ok(Candidate {
            skill_id: format!("skillssh:{}", id.to_lowercase()),
            name: self
                .first_text(&["name", "skillId"])
                .unwrap_or_else(|| id.clone()),
            url: format!("https://skills.sh/{id}"),
            source_code_url: source.as_ref().map(|s| format!("https://github.com/{s}")),
            source_subpath: skill,
            description: self
                .first_text(&["description", "summary"])
                .unwrap_or_default(),
            source: "skillssh".into(),
            owner: source
                .as_deref()
                .and_then(|s| s.split('/').next())
                .map(str::to_owned),
            popularity: self.popularity(&["installs", "weeklyInstalls"], &[]),
            registry: (!audits.is_empty()).then(|| {
                Box::new(RegistryEvidence {
                    audits,
                    ..Default::default()
                })
            }),
            ..base()
        })
    }

    fn smithery(&mut self) -> ItemResult {
        let qualified = self.required(&["qualifiedName"])?;
        let homepage = self.text("homepage").filter(|h| h.starts_with("http"));
        let mut extra = Map::new();
        if let Some(t) = self.time(&["createdAt"]) {
            extra.insert("created_at".into(), Value::String(t));
        }
        if let Some(d) = self.flag("isDeployed") {
            extra.insert("is_deployed".into(), Value::Bool(d));
        }
        let scan = self.flag("security.scanPassed");
        Ok(Candidate {
            skill_id: format!("smithery:{}", qualified.to_lowercase()),
            name: self
                .first_text(&["displayName", "name"])
                .unwrap_or_else(|| qualified.clone()),
            url: format!("https://smithery.ai/server/{qualified}"),
            source_code_url: homepage
                .filter(|h| h.contains("github.com") || h.contains("gitlab.com")),
            description: self.text("description").unwrap_or_default(),
            source: "smithery".into(),
            // `@owner/name` (older API) or `namespace/name` (newer); a bare name has no owner.
            owner: qualified
                .trim_start_matches('@')
                .split_once('/')
                .map(|(owner, _)| owner.to_owned()),
            // Smithery lists no update time; `createdAt` is kept as `created_at`, not passed off as one.
            updated_at: self.time(&["updatedAt"]),
            popularity: self.popularity(&["useCount"], &[]),
            registry: scan.map(|s| {
                Box::new(RegistryEvidence {
                    scan_passed: Some(s),
                    ..Default::default()
                })
            }),
            extra,
            ..base()
        })
    }

    fn glama(&mut self) -> ItemResult {
        let (namespace, slug) = (self.text("namespace"), self.text("slug"));
        let path = match (namespace, slug) {
            (Some(n), Some(s)) => format!("{n}/{s}"),
            _ => self.required(&["id"])?,
        };
        let url = self
            .text("url")
            .filter(|u| u.starts_with("http"))
            .unwrap_or_else(|| format!("https://glama.ai/mcp/servers/@{path}"));
        let mut extra = Map::new();
        if let Some(l) = self.first_text(&["spdxLicense.name"]) {
            extra.insert("license".into(), Value::String(l));
        }
        if let Some(Value::Array(tools)) = self.get("tools") {
            extra.insert("tool_count".into(), Value::from(tools.len()));
        }
        Ok(Candidate {
            skill_id: format!("glama:{}", path.to_lowercase()),
            name: self
                .first_text(&["name", "slug"])
                .unwrap_or_else(|| path.clone()),
            url,
            source_code_url: self.text("repository.url"),
            description: self.text("description").unwrap_or_default(),
            source: "glama".into(),
            owner: path.split('/').next().map(str::to_owned),
            updated_at: self.time(&["updatedAt"]),
            extra,
            ..base()
        })
    }

    fn skillhub(&mut self, options: &Options) -> ItemResult {
        let slug = self.required(&["slug", "name"])?;
        let url = self
            .first_text(&["url", "homepage", "webUrl"])
            .filter(|u| u.starts_with("http"))
            .or_else(|| {
                options
                    .base_url
                    .as_deref()
                    .map(|b| format!("{}/skills/{slug}", b.trim_end_matches('/')))
            });
        if url.is_none() {
            self.warn("url", "SkillHub is self-hosted and the item has no page URL: pass --base-url https://your-skillhub".into());
        }
        let review = self.first_text(&["reviewStatus", "review_status", "status"]);
        let mut extra = Map::new();
        if let Some(v) = self.first_text(&["version", "latestVersion.version"]) {
            extra.insert("version".into(), Value::String(v));
        }
        // Team skills are `namespace--skill`.
        let owner = self
            .first_text(&["author.handle", "owner.handle", "namespace"])
            .or_else(|| slug.split_once("--").map(|(ns, _)| ns.to_owned()));
        Ok(Candidate {
            skill_id: format!("skillhub:{}", slug.to_lowercase()),
            name: self
                .first_text(&["name", "displayName"])
                .unwrap_or_else(|| slug.clone()),
            url: url.unwrap_or_default(),
            source_code_url: self.first_text(&["repository.url", "repositoryUrl", "sourceUrl"]),
            description: self
                .first_text(&["description", "summary"])
                .unwrap_or_default(),
            categories: self.list("tags"),
            source: "skillhub".into(),
            owner,
            updated_at: self.time(&["updatedAt", "createdAt"]),
            popularity: self.popularity(&["downloadCount", "downloads"], &["starCount", "stars"]),
            registry: review.map(|r| {
                Box::new(RegistryEvidence {
                    review_status: Some(r),
                    ..Default::default()
                })
            }),
            extra,
            ..base()
        })
    }

    fn github(&mut self) -> ItemResult {
        let full = self.required(&["full_name"])?;
        let html = self
            .text("html_url")
            .unwrap_or_else(|| format!("https://github.com/{full}"));
        let mut extra = Map::new();
        if let Some(l) = self.first_text(&["license.spdx_id"]) {
            extra.insert("license".into(), Value::String(l));
        }
        if self.flag("archived") == Some(true) {
            extra.insert("archived".into(), Value::Bool(true));
        }
        Ok(Candidate {
            skill_id: format!("github:{}", full.to_lowercase()),
            name: self
                .text("name")
                .unwrap_or_else(|| full.rsplit('/').next().unwrap_or(&full).to_owned()),
            url: html.clone(),
            source_code_url: Some(html),
            description: self.text("description").unwrap_or_default(),
            categories: self.list("topics"),
            source: "github".into(),
            owner: self
                .text("owner.login")
                .or_else(|| full.split('/').next().map(str::to_owned)),
            updated_at: self.time(&["pushed_at", "updated_at"]),
            popularity: self.popularity(&[], &["stargazers_count"]),
            extra,
            ..base()
        })
    }

    fn mcpmarket(&mut self) -> ItemResult {
        let slug = self.required(&["slug", "name"])?;
        let slug_key = slug
            .to_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("-");
        Ok(Candidate {
            skill_id: format!("mcpmarket:{slug_key}"),
            name: self.text("name").unwrap_or_else(|| slug.clone()),
            url: self
                .text("url")
                .filter(|u| u.starts_with("http"))
                .unwrap_or_default(),
            source_code_url: self.first_text(&["repository", "github", "source_code_url"]),
            description: self.text("description").unwrap_or_default(),
            // MCP Market tags are topical (unlike ClawHub's version tags).
            categories: self.list("tags"),
            source: "mcpmarket".into(),
            updated_at: self.time(&["updated_at", "updatedAt"]),
            popularity: self.popularity(&["installs", "downloads"], &[]),
            ..base()
        })
    }
}

/// What a registry item starts from: no counts known until the registry states one.
fn base() -> Candidate {
    Candidate {
        cross_source_count: 1,
        popularity: Popularity::not_given(),
        ..Default::default()
    }
}

/// Epoch milliseconds (≥ 10^11) or seconds, as a number or numeric string, or an ISO 8601 string.
pub fn to_iso(v: &Value) -> Option<String> {
    let from_epoch = |n: f64| -> Option<String> {
        let ms = if n.abs() >= 1e11 { n } else { n * 1000.0 };
        Timestamp::from_millisecond(ms as i64)
            .ok()
            .map(|t| t.to_string())
    };
    match v {
        Value::Number(n) => n.as_f64().and_then(from_epoch),
        Value::String(s) => {
            let s = s.trim();
            if let Ok(n) = s.parse::<f64>() {
                return from_epoch(n);
            }
            crate::clock::parse_stored(s).map(|t| t.to_string())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
