//! The host's side of `host-env.find-commands`: which of the programs candidates declare as
//! prerequisites are on this machine's PATH. The guest asks (it cannot look); the host looks, and only
//! when that says something about the agent: when the agent's stated platform is this host's own, or
//! not stated. For an agent on another platform every command stays unknown (neutral), never missing.

use std::collections::BTreeSet;

/// Most names answered in one call; a longer question is not answered (the guest asks at most
/// `guest::fit::MAX_LOOKED_UP_COMMANDS`).
pub const MAX_NAMES: usize = guest::fit::MAX_LOOKED_UP_COMMANDS;

/// How the host answers the guest's command lookups.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CommandLookup {
    /// Search this process's PATH (`which`), when the agent runs on this host's platform or its
    /// platform is not stated. The default.
    #[default]
    Path,
    /// Never look: declared commands stay unknown.
    Off,
    /// Exactly these programs exist (tests, or a host that knows the agent's machine).
    Fixed(BTreeSet<String>),
}

/// This host's platform, canonical (`linux`, `macos`, `windows`, …).
pub fn host_platform() -> Option<String> {
    guest::fit::platform(std::env::consts::OS)
}

impl CommandLookup {
    /// The lookup for a call whose agent states `platform`: `None` when nothing should be looked up.
    pub fn for_agent(&self, platform: Option<&str>) -> Option<CommandLookup> {
        match self {
            CommandLookup::Off => None,
            CommandLookup::Fixed(_) => Some(self.clone()),
            CommandLookup::Path => {
                let stated = platform.map(str::trim).filter(|p| !p.is_empty());
                match stated {
                    Some(p) if guest::fit::platform(p) != host_platform() => None,
                    _ => Some(CommandLookup::Path),
                }
            }
        }
    }

    /// Whether `name` (a plain program name; anything else is not found) exists.
    pub fn finds(&self, name: &str) -> bool {
        if !guest::fit::is_command_name(name) {
            return false;
        }
        match self {
            CommandLookup::Path => which::which(name).is_ok(),
            CommandLookup::Fixed(set) => set.contains(name),
            CommandLookup::Off => false,
        }
    }

    /// The answer to one `find-commands` call: `None` when too many names are asked.
    pub fn answer(&self, names: &[String]) -> Option<Vec<bool>> {
        (names.len() <= MAX_NAMES).then(|| names.iter().map(|n| self.finds(n)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_platform_is_not_looked_up() {
        let here = host_platform().expect("the test host's OS is known");
        let other = if here == "windows" {
            "linux"
        } else {
            "windows"
        };
        let path = CommandLookup::Path;
        assert_eq!(path.for_agent(None), Some(CommandLookup::Path));
        assert_eq!(path.for_agent(Some(&here)), Some(CommandLookup::Path));
        assert_eq!(path.for_agent(Some(other)), None);
        assert_eq!(CommandLookup::Off.for_agent(None), None);
        let fixed = CommandLookup::Fixed(["jq".to_owned()].into());
        assert_eq!(fixed.for_agent(Some(other)), Some(fixed.clone()));
    }

    #[test]
    fn only_plain_names_are_looked_up() {
        let fixed = CommandLookup::Fixed(["jq".to_owned(), "/bin/sh".to_owned()].into());
        assert_eq!(
            fixed.answer(&["jq".into(), "curl".into(), "/bin/sh".into()]),
            Some(vec![true, false, false])
        );
        assert_eq!(fixed.answer(&vec!["jq".into(); MAX_NAMES + 1]), None);
        #[cfg(unix)]
        {
            assert!(CommandLookup::Path.finds("sh"));
            assert!(!CommandLookup::Path.finds("no-such-command-skill-recommender"));
            assert!(!CommandLookup::Path.finds("/bin/sh"));
        }
    }
}
