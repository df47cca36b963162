//! A product's own configuration folder under /etc, written by that product's skill (round 45b).
//!
//! `destructive.write-etc` (`high`) fires on any write under `/etc/`. An agent-install skill of a
//! monitoring vendor sets its agent's key with `sudo sed -i … /etc/datadog-agent/datadog.yaml`:
//! the folder belongs to the product the skill installs, as its own docs say. Such a finding drops
//! to `medium` when the first folder under `/etc/` is named for the product the skill's front
//! matter names — a word of at least four letters of its `name`, `author`, `repository` or `tags`
//! lines (not its free-text `description`), equal to the folder name's first word
//! (`datadog-agent` → `datadog`) — and that folder is not one of the system's own (`sudoers.d`,
//! `cron.d`, `ssh`, `pam.d`, `profile.d`, `apt`, `systemd`, `security`, `hosts`, `passwd`…).
//! A write into the system's own configuration, or into a folder the skill does not name, keeps
//! `high`.

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const RULE: &str = "destructive.write-etc";

/// Front-matter keys that name the product (lower-cased, with the colon).
const NAMING_KEYS: &[&str] = &[
    "name:",
    "author:",
    "repository:",
    "tags:",
    "vendor:",
    "publisher:",
];

/// Folder and file names under /etc that are the system's own, whoever names them.
const SYSTEM: &[&str] = &[
    "sudoers",
    "sudoers.d",
    "cron.d",
    "cron.daily",
    "cron.hourly",
    "crontab",
    "passwd",
    "shadow",
    "group",
    "gshadow",
    "hosts",
    "profile",
    "profile.d",
    "bash.bashrc",
    "environment",
    "ssh",
    "pam.d",
    "security",
    "systemd",
    "init.d",
    "rc.local",
    "ld.so.preload",
    "ld.so.conf.d",
    "apt",
    "yum.repos.d",
    "resolv.conf",
    "sysctl.d",
    "sysctl.conf",
    "modprobe.d",
    "udev",
    "polkit-1",
    "fstab",
    "default",
    "network",
    "netplan",
    "iptables",
    "nftables.conf",
    "zsh",
];

/// Words too generic to name a product.
const GENERIC: &[&str] = &[
    "agent", "agents", "config", "server", "service", "system", "tool", "tools", "helper", "skill",
    "skills", "data", "install", "setup", "labs", "main", "github", "https", "apps",
];

/// The words of the front matter's naming lines (lower-cased, four letters or more).
fn product_words(skill_md: &str) -> Vec<String> {
    let mut lines = skill_md.lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return Vec::new();
    }
    lines
        .take_while(|l| l.trim() != "---")
        .map(|l| l.trim().to_ascii_lowercase())
        .filter(|l| NAMING_KEYS.iter().any(|k| l.starts_with(k)))
        .flat_map(|l| {
            let value = l.split_once(':').map_or("", |(_, v)| v).to_string();
            value
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| w.len() >= 4 && !GENERIC.contains(w))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The first folder (or file) under `/etc/` that a line names.
fn etc_folder(line: &str) -> Option<String> {
    let at = line.find("/etc/")? + 5;
    let name: String = line[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .collect();
    (!name.is_empty()).then(|| name.to_ascii_lowercase())
}

/// Lower /etc writes into the skill's own product folder to `medium`.
pub(super) fn demote_own_etc(bundle: &Bundle, out: &mut [Finding]) {
    let words = bundle.skill_md().map(product_words).unwrap_or_default();
    if words.is_empty() {
        return;
    }
    for f in out
        .iter_mut()
        .filter(|f| f.rule_id == RULE && f.severity == Severity::High && f.line > 0)
    {
        let Some(content) = bundle.text_of(&f.file) else {
            continue;
        };
        // The logical line: a command continued with `\` goes on below.
        let mut line = String::new();
        for l in content.lines().skip(f.line - 1).take(8) {
            line.push_str(l.trim_end_matches('\\'));
            line.push(' ');
            if !l.trim_end().ends_with('\\') {
                break;
            }
        }
        let line = line.as_str();
        // Every /etc path the line writes must be the product's own folder.
        let mut rest = line;
        let mut own = true;
        let mut any = false;
        while let Some(i) = rest.find("/etc/") {
            any = true;
            let folder = etc_folder(&rest[i..]).unwrap_or_default();
            let first = folder.split(['-', '_', '.']).next().unwrap_or("");
            if SYSTEM.contains(&folder.as_str()) || !words.iter().any(|w| w == first) {
                own = false;
                break;
            }
            rest = &rest[i + 5..];
        }
        if any && own {
            f.severity = Severity::Medium;
            f.description.push_str(" (Here the folder is the own configuration of the product the skill's front matter names, as the product's install steps write it.)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{etc_folder, product_words};

    #[test]
    fn product_words_come_from_naming_lines() {
        let md = "---\nname: probe-install\ndescription: Installs the Zeta probe.\nmetadata:\n  author: zetaco\n  tags: zetaco,monitoring\n---\n";
        let w = product_words(md);
        assert!(w.contains(&"zetaco".to_string()) && w.contains(&"probe".to_string()));
        assert!(
            !w.contains(&"zeta".to_string()),
            "description words do not count"
        );
        assert_eq!(
            etc_folder("sudo tee -a /etc/zetaco-probe/probe.yaml").as_deref(),
            Some("zetaco-probe")
        );
    }
}
