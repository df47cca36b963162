//! Settings changed inside a machine image being built, not on this machine (round 35b, sets35b).
//!
//! Image-build templates (HashiCorp Packer's `provisioner "powershell" { inline = [...] }`, a
//! Dockerfile's `RUN`) list commands that run inside the virtual machine or container being turned
//! into an image. Switching Defender's real-time monitoring off there (a common step for build
//! speed) changes the image, not the computer the skill runs on.
//!
//! A `destructive.disable-firewall` finding is informational (`medium`) when its line sits in a
//! Packer provisioner block (the nearest unclosed block above it opens with `provisioner "…"`, at
//! most forty lines up) or is a Dockerfile `RUN` line (in a file named `Dockerfile*` or a fenced
//! block marked `dockerfile`/`docker`), the finding pairs with nothing, and the bundle has no
//! concealment wording. Anywhere else (a shell script, a prose order, a hook) it keeps its grade.

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// The rules this module lowers: host security settings switched off.
const RULES: &[&str] = &["destructive.disable-firewall"];

/// How far up a provisioner block may open.
const LOOK_UP: usize = 40;

/// Whether line `n` (1-based) sits inside a Packer `provisioner "…" {` block.
fn in_provisioner(lines: &[&str], n: usize) -> bool {
    // Walk up counting braces: the first line that opens more than it closes, net, is the block.
    let mut depth: i32 = 0;
    let from = n.saturating_sub(LOOK_UP).max(1);
    for k in (from..n).rev() {
        let l = lines[k - 1];
        let opens = l.matches('{').count() as i32;
        let closes = l.matches('}').count() as i32;
        depth += opens - closes;
        if depth > 0 {
            let t = l.trim_start();
            return t.starts_with("provisioner ") && t.contains('"');
        }
    }
    false
}

/// Whether line `n` (1-based) is a Dockerfile `RUN` instruction (or its continuation).
fn docker_run(path: &str, lines: &[&str], n: usize) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let in_dockerfile = name.starts_with("dockerfile") || name.ends_with(".dockerfile") || {
        // A fenced block marked as a Dockerfile.
        lines[..n - 1]
            .iter()
            .rev()
            .find(|l| l.trim_start().starts_with("```"))
            .is_some_and(|l| {
                let tag = l
                    .trim_start()
                    .trim_start_matches('`')
                    .trim()
                    .to_ascii_lowercase();
                tag == "dockerfile" || tag == "docker"
            })
    };
    if !in_dockerfile {
        return false;
    }
    // The instruction this line belongs to: up through `\` continuations.
    let mut k = n;
    while k > 1 && lines[k - 2].trim_end().ends_with('\\') {
        k -= 1;
    }
    lines[k - 1].trim_start().starts_with("RUN ")
}

/// Lower host-setting findings inside image builds (see the module documentation).
pub(super) fn demote_image_builds(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals {
        return;
    }
    for f in out.iter_mut() {
        if !RULES.contains(&f.rule_id.as_str()) || f.line == 0 || !f.related.is_empty() {
            continue;
        }
        let Some(content) = bundle.text_of(&f.file) else {
            continue;
        };
        let lines: Vec<&str> = content.lines().collect();
        if f.line > lines.len() {
            continue;
        }
        if in_provisioner(&lines, f.line) || docker_run(&f.file, &lines, f.line) {
            f.severity = f.severity.min(Severity::Medium);
            f.description.push_str(" (Informational: this runs inside the machine image being built (a Packer provisioner or a Dockerfile RUN step), not on the computer the skill runs on.)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{docker_run, in_provisioner};

    #[test]
    fn provisioner_blocks_and_run_steps() {
        let hcl = "build {\n  provisioner \"powershell\" {\n    inline = [\n      \"Set-MpPreference -DisableRealtimeMonitoring $true\",\n    ]\n  }\n}\n";
        let lines: Vec<&str> = hcl.lines().collect();
        assert!(in_provisioner(&lines, 4));
        let script = "function off {\n  Set-MpPreference -DisableRealtimeMonitoring $true\n}\n";
        let lines: Vec<&str> = script.lines().collect();
        assert!(!in_provisioner(&lines, 2));
        let doc = "```dockerfile\nFROM ubuntu\nRUN ufw disable\n```\n";
        let lines: Vec<&str> = doc.lines().collect();
        assert!(docker_run("SKILL.md", &lines, 3));
        let sh = "```bash\nsudo ufw disable\n```\n";
        let lines: Vec<&str> = sh.lines().collect();
        assert!(!docker_run("SKILL.md", &lines, 2));
    }
}
