//! Remote code made worse by where it comes from or how it is run (round 32c, scan35).
//!
//! `supply_chain.remote-code-unattended` (`critical`): a script from a host no vendor, installer
//! or registry runs, piped into a shell (the `supply_chain.remote-code` finding) within eight lines
//! of an order to switch the agent's permission prompts off (accept-edits, bypass, auto-approve):
//! a stranger's code run while the user's checks are off. A refusal or a sandbox on that line
//! leaves it alone.
//!
//! `supply_chain.lookalike-installer` (`critical`): a script piped into a shell
//! (the single-line `supply_chain.remote-code` finding) from a host that wears an installer
//! vendor's name outside the vendor's own registrable domains: `get-docker-cdn.example`,
//! `deb.nodesource1.example`, `astral-sh.cdn-mirror.example`. A vendor's installer one-liner is
//! `caution` because the vendor runs the host; the same shape from a host that only borrows the
//! name is a ClickFix lure. The decision is the host's registrable domain against the vendor its
//! labels name (each label split at `-`, trailing digits dropped): a brand token in the host and a
//! host under none of that brand's domains is a lookalike. The vendors' own hosts (`sh.rustup.rs`,
//! `get.docker.com`, `brew.sh`, `deno.land`, `bun.sh`, `astral.sh`, `deb.nodesource.com`, nvm and
//! Homebrew on GitHub) are untouched.

use super::Bundle;
use super::pair::{End, negated, push};
use crate::scan::content::Finding;
use crate::scan::hosts::{classify, split_url, under, urls_in};
use crate::scan::rules::Severity;

/// Installer vendors: the names their hosts carry and the registrable domains that own them.
/// GitHub and its raw-content host serve the projects that live there (`nvm-sh`, `Homebrew`).
const VENDORS: &[(&[&str], &[&str])] = &[
    (&["rustup"], &["rustup.rs", "rust-lang.org"]),
    (&["docker"], &["docker.com", "docker.io"]),
    (&["homebrew", "brew"], &["brew.sh"]),
    (&["nodesource"], &["nodesource.com"]),
    (&["deno"], &["deno.land", "deno.com"]),
    (&["bun"], &["bun.sh"]),
    (&["astral"], &["astral.sh"]),
    (&["nvm"], &[]),
    (&["pnpm"], &["pnpm.io"]),
    (&["poetry"], &["python-poetry.org"]),
    (&["ollama"], &["ollama.com"]),
    (&["sdkman"], &["sdkman.io"]),
    (&["helm"], &["helm.sh"]),
    (&["k3s"], &["k3s.io"]),
    (&["tailscale"], &["tailscale.com"]),
    (&["starship"], &["starship.rs"]),
    (&["volta"], &["volta.sh"]),
    (
        &["hashicorp", "terraform"],
        &["hashicorp.com", "terraform.io"],
    ),
    (&["pulumi"], &["pulumi.com"]),
    (&["doppler"], &["doppler.com"]),
    (&["heroku"], &["heroku.com", "herokucdn.com"]),
    (&["chocolatey"], &["chocolatey.org"]),
    (&["scoop"], &["scoop.sh"]),
    (&["pyenv"], &["pyenv.run"]),
    (&["rvm"], &["rvm.io"]),
    (&["nodejs"], &["nodejs.org"]),
    (
        &["kubernetes", "k8s", "kubectl"],
        &["k8s.io", "kubernetes.io"],
    ),
    (&["ohmyzsh"], &["ohmyz.sh"]),
];

const CODE_HOSTS: &[&str] = &["github.com", "githubusercontent.com"];

/// The installer vendor a host borrows the name of, if it is not that vendor's own host.
pub(crate) fn borrowed_vendor(host: &str) -> Option<&'static str> {
    let host = host.to_ascii_lowercase();
    let labels: Vec<&str> = host.split('.').collect();
    if labels.len() < 2 {
        return None;
    }
    // Tokens of every label but the top-level one.
    let tokens: Vec<&str> = labels[..labels.len() - 1]
        .iter()
        .flat_map(|l| l.split('-'))
        .map(|t| t.trim_end_matches(|c: char| c.is_ascii_digit()))
        .filter(|t| !t.is_empty())
        .collect();
    for (names, domains) in VENDORS {
        let Some(name) = names.iter().find(|n| tokens.contains(n)) else {
            continue;
        };
        if domains.iter().chain(CODE_HOSTS).any(|d| under(&host, d)) {
            return None;
        }
        return Some(name);
    }
    None
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    // The remote-code finding comes from the single-line rules or from the judge's own
    // download-then-run pass (already in `out`).
    let places: Vec<(String, usize)> = b
        .prior
        .iter()
        .chain(out.iter())
        .filter(|f| f.rule_id == "supply_chain.remote-code")
        .map(|f| (f.file.clone(), f.line))
        .collect();
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for (path, line_no) in places {
        let Some(file) = b.files.iter().find(|x| x.path == path) else {
            continue;
        };
        let lines = &file.lowered().lines;
        let Some(i) = line_no.checked_sub(1).filter(|&i| i < lines.len()) else {
            continue;
        };
        let line = lines[i];
        if seen.contains(&(file.path, i)) {
            continue;
        }
        seen.push((file.path, i));
        let strangers: Vec<String> = urls_in(line)
            .into_iter()
            .filter_map(|(s, e)| {
                let (host, rest) = split_url(&line[s..e])?;
                let class = classify(&host, rest);
                class.is_outside().then_some(host)
            })
            .collect();
        let at = End::new(file.path, i, line);
        if let Some(host) = strangers.first()
            && let Some(k) = prompts_off_near(&file.lowered().lower, i)
        {
            let off = End::new(file.path, k, lines[k]);
            push(
                out,
                "supply_chain.remote-code-unattended",
                Severity::Critical,
                ("prompts off", off),
                at,
                format!(
                    "A script from {host} is piped into a shell ({}) right after the agent is told to stop asking before it acts ({}): a stranger's code run with the user's checks switched off.",
                    at.place(),
                    off.place()
                ),
            );
        }
        let hit = strangers
            .into_iter()
            .find_map(|host| borrowed_vendor(&host).map(|v| (host, v)));
        let Some((host, vendor)) = hit else { continue };
        push(
            out,
            "supply_chain.lookalike-installer",
            Severity::Critical,
            ("signal", at),
            at,
            format!(
                "A script piped into a shell ({}) comes from {host}, which wears the name of the `{vendor}` installer but is not under that vendor's own domain: an installer one-liner from a lookalike host is a lure (ClickFix), not the vendor's documented install.",
                at.place()
            ),
        );
    }
}

/// Words that switch the agent's permission prompts off for the session.
const PROMPTS_OFF: &[&str] = &[
    "accept-edits mode",
    "accept edits mode",
    "acceptedits",
    "auto-accept",
    "bypasspermissions",
    "bypass permissions",
    "skip-permissions",
    "skip permission",
    "yolo mode",
    "stop for prompts",
    "without permission prompts",
    "auto-approve",
];

/// A line within eight of `i` (0-based) telling the agent to switch its prompts off, not a
/// refusal or a warning.
fn prompts_off_near(lower: &[String], i: usize) -> Option<usize> {
    let from = i.saturating_sub(8);
    let to = (i + 9).min(lower.len());
    (from..to).find(|&k| {
        let l = lower[k].as_str();
        // A refusal says so before the words ("never switch to accept-edits mode"); what
        // follows them is the reason ("so the steps do not stop for prompts").
        let Some(p) = PROMPTS_OFF.iter().filter_map(|w| l.find(w)).min() else {
            return false;
        };
        !negated(&l[..p]) && !l.contains("sandbox")
    })
}
