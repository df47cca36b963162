//! Where each agent keeps its skills, and which folder an install or an agent-written skill goes to.
//!
//! | agent | project scope | user scope | AGENTS.md `<skill>` block |
//! |---|---|---|---|
//! | `agents` (OpenSkills universal) | `./.agents/skills` | `~/.agents/skills` | project: `./AGENTS.md` |
//! | `claude-code` | `./.claude/skills` | `~/.claude/skills` | — |
//! | `codex` | `./.agents/skills` | `$CODEX_HOME/skills` (`~/.codex/skills`) | — |
//! | `hermes` | — | `$HERMES_HOME/skills` (`~/.hermes/skills`, category folders) | — |
//! | `openclaw` | `./skills` (the workspace) | `~/.openclaw/skills` | — |
//!
//! The search order used to warn about shadowing follows the skillhub/OpenSkills four-level order
//! (`./.agents/skills` → `~/.agents/skills` → `./.claude/skills` → `~/.claude/skills`) for the agents
//! that read those folders, and each agent's own folders otherwise. The host passes its roots (the
//! project folder, home, `$HERMES_HOME`, `$CODEX_HOME`); the component never reads the environment.

use serde::Serialize;

use crate::error::{Error, Result};

/// An agent whose conventions are known.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Agent {
    Agents,
    ClaudeCode,
    Codex,
    Hermes,
    Openclaw,
}

/// Every agent, in the order `installed` and `audit` visit their folders.
pub const AGENTS: &[Agent] = &[
    Agent::Agents,
    Agent::ClaudeCode,
    Agent::Codex,
    Agent::Hermes,
    Agent::Openclaw,
];

impl Agent {
    pub fn parse(s: &str) -> Result<Agent> {
        Ok(match s {
            "agents" | "openskills" | "universal" => Agent::Agents,
            "claude-code" | "claude" => Agent::ClaudeCode,
            "codex" => Agent::Codex,
            "hermes" => Agent::Hermes,
            "openclaw" => Agent::Openclaw,
            other => {
                return Err(Error::invalid(
                    "agent",
                    format!(
                        "{other:?} is not a known agent; use agents, claude-code, codex, hermes or openclaw (or --dir for any folder)"
                    ),
                ));
            }
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Agent::Agents => "agents",
            Agent::ClaudeCode => "claude-code",
            Agent::Codex => "codex",
            Agent::Hermes => "hermes",
            Agent::Openclaw => "openclaw",
        }
    }

    /// Skills sit in category folders (`<dir>/<category>/<name>`) as well as directly.
    pub fn categories(self) -> bool {
        self == Agent::Hermes
    }
}

/// Project (this working folder) or user (the home folder).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Project,
    User,
}

impl Scope {
    pub fn parse(s: &str) -> Result<Scope> {
        match s {
            "project" => Ok(Scope::Project),
            "user" | "global" => Ok(Scope::User),
            other => Err(Error::invalid(
                "scope",
                format!("{other:?} is not a scope; use project or user"),
            )),
        }
    }
}

/// What the host knows about where things are. Paths are absolute, as the host's OS writes them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Roots {
    /// The user's home folder, if there is one.
    pub home: Option<String>,
    /// The project folder (the working directory).
    pub project: String,
    /// `$HERMES_HOME`, when set.
    pub hermes_home: Option<String>,
    /// `$CODEX_HOME`, when set.
    pub codex_home: Option<String>,
}

/// What the caller asked for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Target {
    pub agent: Option<String>,
    pub scope: Option<String>,
    /// `--dir`: this skills folder, whatever the agent.
    pub dir: Option<String>,
    /// `--agents-md`: update this AGENTS.md (absolute, or relative to the project).
    pub agents_md: Option<String>,
    /// `--no-agents-md`.
    pub no_agents_md: bool,
    /// A category folder (Hermes), when the skill goes into one.
    pub category: Option<String>,
}

/// One folder of an agent's search order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchDir {
    pub path: String,
    /// `agents`, `claude-code`, …, or `custom` for `--dir`.
    pub agent: &'static str,
    pub scope: Option<Scope>,
    /// Skills may sit in category folders here.
    pub categories: bool,
}

/// The resolved layout of one command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// `custom` when `--dir` was given without an agent.
    pub agent: &'static str,
    pub scope: Option<Scope>,
    /// The skills folder the command works in.
    pub skills_dir: String,
    /// The folder new skills go into: `skills_dir`, or its category folder.
    pub install_dir: String,
    pub category: Option<String>,
    /// The AGENTS.md whose `<skill>` block is kept in step, if any.
    pub agents_md: Option<String>,
    /// Skills may sit in category folders of `skills_dir`.
    pub categories: bool,
    /// Every folder where an agent of this kind finds skills, highest priority first (`skills_dir` is
    /// one of them): where a same-named skill would shadow or be shadowed.
    pub search: Vec<SearchDir>,
}

/// `root/rel` with `/` (accepted by every OS the hosts run on).
pub fn join(root: &str, rel: &str) -> String {
    let root = if root.len() > 1 {
        root.trim_end_matches(['/', '\\'])
    } else {
        root
    };
    if root.ends_with(['/', '\\']) {
        format!("{root}{rel}")
    } else {
        format!("{root}/{rel}")
    }
}

/// An absolute path (`/…`, `\\…` or a drive letter).
pub fn is_absolute(p: &str) -> bool {
    p.starts_with('/') || p.starts_with('\\') || p.as_bytes().get(1) == Some(&b':')
}

fn home(roots: &Roots) -> Result<&str> {
    roots
        .home
        .as_deref()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| {
            Error::invalid(
                "scope",
                "there is no home folder for user scope; pass --dir or --scope project",
            )
        })
}

/// One agent's folder for one scope.
fn dir_of(agent: Agent, scope: Scope, roots: &Roots) -> Result<String> {
    let project = roots.project.as_str();
    Ok(match (agent, scope) {
        (Agent::Agents | Agent::Codex, Scope::Project) => join(project, ".agents/skills"),
        (Agent::Agents, Scope::User) => join(home(roots)?, ".agents/skills"),
        (Agent::ClaudeCode, Scope::Project) => join(project, ".claude/skills"),
        (Agent::ClaudeCode, Scope::User) => join(home(roots)?, ".claude/skills"),
        (Agent::Codex, Scope::User) => {
            match roots.codex_home.as_deref().filter(|h| !h.is_empty()) {
                Some(h) => join(h, "skills"),
                None => join(home(roots)?, ".codex/skills"),
            }
        }
        (Agent::Hermes, Scope::User) => {
            match roots.hermes_home.as_deref().filter(|h| !h.is_empty()) {
                Some(h) => join(h, "skills"),
                None => join(home(roots)?, ".hermes/skills"),
            }
        }
        (Agent::Hermes, Scope::Project) => {
            return Err(Error::invalid(
                "scope",
                "Hermes keeps skills only in ~/.hermes/skills (or $HERMES_HOME/skills): use --scope user, or --dir",
            ));
        }
        (Agent::Openclaw, Scope::Project) => join(project, "skills"),
        (Agent::Openclaw, Scope::User) => join(home(roots)?, ".openclaw/skills"),
    })
}

fn search_dir(agent: Agent, scope: Scope, roots: &Roots) -> Option<SearchDir> {
    dir_of(agent, scope, roots).ok().map(|path| SearchDir {
        path,
        agent: agent.as_str(),
        scope: Some(scope),
        categories: agent.categories(),
    })
}

/// The folders where `agent` finds skills, highest priority first.
pub fn search_order(agent: Agent, roots: &Roots) -> Vec<SearchDir> {
    use Agent::*;
    use Scope::*;
    let order: &[(Agent, Scope)] = match agent {
        // The skillhub / OpenSkills four-level order.
        Agents => &[
            (Agents, Project),
            (Agents, User),
            (ClaudeCode, Project),
            (ClaudeCode, User),
        ],
        ClaudeCode => &[(ClaudeCode, Project), (ClaudeCode, User)],
        Codex => &[(Codex, Project), (Codex, User)],
        Hermes => &[(Hermes, User)],
        Openclaw => &[(Openclaw, Project), (Openclaw, User)],
    };
    order
        .iter()
        .filter_map(|(a, s)| search_dir(*a, *s, roots))
        .collect()
}

/// Every known skills folder of every agent, each once, in [`AGENTS`] order (for `installed` and
/// `audit` without `--agent`).
pub fn all_dirs(roots: &Roots) -> Vec<SearchDir> {
    let mut out: Vec<SearchDir> = Vec::new();
    for agent in AGENTS {
        for scope in [Scope::Project, Scope::User] {
            if let Some(d) = search_dir(*agent, scope, roots)
                && !out.iter().any(|o| o.path == d.path)
            {
                out.push(d);
            }
        }
    }
    out
}

/// Resolve the layout of a command. Defaults: agent `agents`, scope `project` (the seed's first
/// folder), except Hermes, whose only folder is the user's.
pub fn resolve(target: &Target, roots: &Roots) -> Result<Layout> {
    let agent = target.agent.as_deref().map(Agent::parse).transpose()?;
    let scope = target.scope.as_deref().map(Scope::parse).transpose()?;
    if let Some(c) = &target.category
        && let Some(p) = super::names::name_problem(c)
    {
        return Err(Error::invalid("category", p));
    }
    let (agent_name, scope, skills_dir, categories, search) = match &target.dir {
        Some(dir) => {
            if dir.trim().is_empty() {
                return Err(Error::invalid("dir", "empty; give the skills folder"));
            }
            let dir = if is_absolute(dir) {
                dir.clone()
            } else {
                join(&roots.project, dir)
            };
            let categories = agent.is_some_and(Agent::categories);
            let name = agent.map_or("custom", Agent::as_str);
            let here = SearchDir {
                path: dir.clone(),
                agent: name,
                scope,
                categories,
            };
            (name, scope, dir, categories, vec![here])
        }
        None => {
            let agent = agent.unwrap_or(Agent::Agents);
            let scope = scope.unwrap_or(if agent == Agent::Hermes {
                Scope::User
            } else {
                Scope::Project
            });
            let dir = dir_of(agent, scope, roots)?;
            let mut search = search_order(agent, roots);
            if !search.iter().any(|s| s.path == dir) {
                search.insert(0, search_dir(agent, scope, roots).expect("resolved above"));
            }
            (agent.as_str(), Some(scope), dir, agent.categories(), search)
        }
    };
    if target.category.is_some() && !categories {
        return Err(Error::invalid(
            "category",
            format!("{agent_name} does not use category folders (only hermes does)"),
        ));
    }
    let agents_md = match (&target.agents_md, target.no_agents_md) {
        (Some(_), true) => {
            return Err(Error::invalid(
                "agents-md",
                "--agents-md and --no-agents-md contradict each other",
            ));
        }
        (_, true) => None,
        (Some(p), false) if p.trim().is_empty() => {
            return Err(Error::invalid(
                "agents-md",
                "empty; give the AGENTS.md path",
            ));
        }
        (Some(p), false) if is_absolute(p) => Some(p.clone()),
        (Some(p), false) => Some(join(&roots.project, p)),
        (None, false) => {
            (agent_name == "agents" && scope == Some(Scope::Project) && target.dir.is_none())
                .then(|| join(&roots.project, "AGENTS.md"))
        }
    };
    let install_dir = match &target.category {
        Some(c) => join(&skills_dir, c),
        None => skills_dir.clone(),
    };
    Ok(Layout {
        agent: agent_name,
        scope,
        skills_dir,
        install_dir,
        category: target.category.clone(),
        agents_md,
        categories,
        search,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roots() -> Roots {
        Roots {
            home: Some("/home/u".into()),
            project: "/proj".into(),
            hermes_home: None,
            codex_home: None,
        }
    }

    fn layout(agent: Option<&str>, scope: Option<&str>) -> Result<Layout> {
        resolve(
            &Target {
                agent: agent.map(Into::into),
                scope: scope.map(Into::into),
                ..Default::default()
            },
            &roots(),
        )
    }

    #[test]
    fn every_agent_and_scope() {
        for (agent, scope, dir) in [
            ("agents", "project", "/proj/.agents/skills"),
            ("agents", "user", "/home/u/.agents/skills"),
            ("claude-code", "project", "/proj/.claude/skills"),
            ("claude-code", "user", "/home/u/.claude/skills"),
            ("codex", "project", "/proj/.agents/skills"),
            ("codex", "user", "/home/u/.codex/skills"),
            ("hermes", "user", "/home/u/.hermes/skills"),
            ("openclaw", "project", "/proj/skills"),
            ("openclaw", "user", "/home/u/.openclaw/skills"),
        ] {
            let l = layout(Some(agent), Some(scope)).unwrap();
            assert_eq!(l.skills_dir, dir, "{agent} {scope}");
            assert!(l.search.iter().any(|s| s.path == dir), "{agent} {scope}");
            assert_eq!(
                l.agents_md.is_some(),
                agent == "agents" && scope == "project",
                "{agent} {scope}"
            );
        }
    }

    #[test]
    fn defaults_follow_the_seed_and_hermes_is_user_only() {
        let l = layout(None, None).unwrap();
        assert_eq!(l.skills_dir, "/proj/.agents/skills");
        assert_eq!(l.agents_md.as_deref(), Some("/proj/AGENTS.md"));
        let order: Vec<&str> = l.search.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(
            order,
            [
                "/proj/.agents/skills",
                "/home/u/.agents/skills",
                "/proj/.claude/skills",
                "/home/u/.claude/skills"
            ]
        );
        assert_eq!(
            layout(Some("hermes"), None).unwrap().skills_dir,
            "/home/u/.hermes/skills"
        );
        let e = layout(Some("hermes"), Some("project")).unwrap_err();
        assert!(matches!(e, Error::InvalidInput { ref field, .. } if field == "scope"));
        assert!(layout(Some("cursor"), None).is_err());
        assert!(layout(None, Some("system")).is_err());
    }

    #[test]
    fn env_homes_dir_override_and_categories() {
        let r = Roots {
            hermes_home: Some("/opt/hermes".into()),
            codex_home: Some("/opt/codex/".into()),
            ..roots()
        };
        let t = |agent: &str| Target {
            agent: Some(agent.into()),
            scope: Some("user".into()),
            ..Default::default()
        };
        assert_eq!(
            resolve(&t("hermes"), &r).unwrap().skills_dir,
            "/opt/hermes/skills"
        );
        assert_eq!(
            resolve(&t("codex"), &r).unwrap().skills_dir,
            "/opt/codex/skills"
        );
        let with_category = Target {
            category: Some("devops".into()),
            ..t("hermes")
        };
        let l = resolve(&with_category, &r).unwrap();
        assert_eq!(l.install_dir, "/opt/hermes/skills/devops");
        assert!(
            resolve(
                &Target {
                    category: Some("devops".into()),
                    ..t("codex")
                },
                &r
            )
            .is_err()
        );
        assert!(
            resolve(
                &Target {
                    category: Some("../x".into()),
                    ..t("hermes")
                },
                &r
            )
            .is_err()
        );

        let custom = Target {
            dir: Some("rel/skills".into()),
            ..Default::default()
        };
        let l = resolve(&custom, &r).unwrap();
        assert_eq!(
            (l.agent, l.skills_dir.as_str()),
            ("custom", "/proj/rel/skills")
        );
        assert_eq!(l.agents_md, None);
        let with_md = Target {
            agents_md: Some("docs/AGENTS.md".into()),
            ..custom.clone()
        };
        assert_eq!(
            resolve(&with_md, &r).unwrap().agents_md.as_deref(),
            Some("/proj/docs/AGENTS.md")
        );
        let both = Target {
            no_agents_md: true,
            ..with_md
        };
        assert!(resolve(&both, &r).is_err());
        let no_home = Roots {
            home: None,
            ..roots()
        };
        assert!(resolve(&t("claude-code"), &no_home).is_err());
    }

    #[test]
    fn all_dirs_lists_each_folder_once() {
        let all = all_dirs(&roots());
        let paths: Vec<&str> = all.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths.len(), 8, "{paths:?}");
        assert_eq!(paths[0], "/proj/.agents/skills");
        assert!(paths.contains(&"/home/u/.hermes/skills"));
    }

    #[test]
    fn join_handles_roots_and_trailing_separators() {
        assert_eq!(join("/", "x"), "/x");
        assert_eq!(join("/a/", "x"), "/a/x");
        assert_eq!(join("C:\\u", "x"), "C:\\u/x");
    }
}
