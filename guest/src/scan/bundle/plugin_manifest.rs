//! Agent-plugin manifests in their conventional dot-locations (round 28b, sets27b).
//!
//! Agent plugins keep their manifests where the agent looks for them: `.mcp.json` (the MCP servers
//! a plugin or project declares) and one JSON/YAML/TOML file directly in a `.<agent>-plugin/`
//! folder (`.claude-plugin/plugin.json`, `.cursor-plugin/marketplace.json`,
//! `.antigravity-plugin/hooks.json`). Every forge and every agent shows them; they are data, not a
//! program hidden from review, so `structural.hidden-code` does not apply to them. What they say is
//! still judged like any other file (an MCP server started with `npx`, a hook's command). A script
//! in such a folder, a manifest one folder deeper, or any other hidden folder on the path keeps the
//! finding.

/// Data-file extensions a manifest may have.
const DATA_EXTS: &[&str] = &["json", "jsonc", "yaml", "yml", "toml"];

/// Whether a dot-folder name is an agent's plugin folder: `.` then letters, digits or `-`, ending
/// in `-plugin` (`.claude-plugin`, `.codex-plugin`).
fn plugin_folder(c: &str) -> bool {
    c.strip_prefix('.')
        .and_then(|r| r.strip_suffix("-plugin"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

/// Whether the hidden parts of `path` are only those of a conventional plugin manifest (see the
/// module's documentation). `ordinary` tells the dot-names that are not hidden anyway.
pub(super) fn conventional_manifest(path: &str, is_script: bool, ordinary: &[&str]) -> bool {
    if is_script {
        return false;
    }
    let parts: Vec<&str> = path
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    let Some((&name, dirs)) = parts.split_last() else {
        return false;
    };
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
    if !ext.is_some_and(|e| DATA_EXTS.contains(&e.as_str())) {
        return false;
    }
    let hidden = |c: &&str| c.starts_with('.') && !ordinary.contains(c);
    let hidden_dirs: Vec<(usize, &&str)> =
        dirs.iter().enumerate().filter(|(_, c)| hidden(c)).collect();
    if name.eq_ignore_ascii_case(".mcp.json") {
        return hidden_dirs.is_empty();
    }
    !hidden(&name)
        && hidden_dirs.len() == 1
        && hidden_dirs[0].0 + 1 == dirs.len()
        && plugin_folder(hidden_dirs[0].1)
}

#[cfg(test)]
mod tests {
    use super::conventional_manifest as m;

    const ORD: &[&str] = &[".gitignore"];

    #[test]
    fn plugin_manifests_are_conventional() {
        assert!(m(".mcp.json", false, ORD));
        assert!(m("plugins/data/.mcp.json", false, ORD));
        assert!(m(".claude-plugin/plugin.json", false, ORD));
        assert!(m("tools/.cursor-plugin/marketplace.json", false, ORD));
        assert!(m(".antigravity-plugin/hooks.json", false, ORD));
        assert!(m(".codex-plugin/config.toml", false, ORD));
    }

    #[test]
    fn scripts_and_other_hidden_places_are_not() {
        // A script in a plugin folder, a manifest one level deeper, another hidden folder, a
        // hidden file that is not `.mcp.json`, a folder that only looks like a plugin folder.
        assert!(!m(".claude-plugin/plugin.json", true, ORD));
        assert!(!m(".antigravity-plugin/node_hooks/guard.js", false, ORD));
        assert!(!m(".claude-plugin/hooks/hooks.json", false, ORD));
        assert!(!m(".cache/.mcp.json", false, ORD));
        assert!(!m(".hidden/plugin.json", false, ORD));
        assert!(!m(".config.json", false, ORD));
        assert!(!m(".-plugin/plugin.json", false, ORD));
        assert!(!m(".claude-plugin/.secret.json", false, ORD));
        assert!(!m(".mcp.js", false, ORD));
    }
}
