//! A bundle that opens its own public tunnel shows that tunnel's address (round 26).
//!
//! A tunnel host (`*.ngrok-free.app`, `*.trycloudflare.com`) is a collector when a skill sends data
//! to it; a skill whose own code starts the tunnel (`network.tunnel`: `ngrok http`, `cloudflared
//! tunnel`) prints and documents the address it was given, and that address alone is neither a
//! collector nor an install lure. Such findings drop to `medium` when every host on their line is a
//! tunnel and the line sends nothing; a send, or any other host, keeps them. One pass over the
//! findings.

use crate::scan::content::Finding;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

/// Words of a request on a line (a send keeps the finding).
const SENDS: &[&str] = &[
    "curl",
    "wget",
    "fetch(",
    "requests.",
    "httpx.",
    "axios",
    "invoke-webrequest",
    "invoke-restmethod",
    "urlopen",
    "-d ",
    "--data",
    "post ",
];

fn only_tunnel_shown(f: &Finding) -> bool {
    let hosts = crate::scan::judge::hosts_in(&f.evidence);
    let l = crate::ascii_lowered(&f.evidence);
    !hosts.is_empty()
        && hosts.iter().all(|h| h.class == HostClass::Tunnel)
        && !SENDS.iter().any(|w| l.contains(w))
}

pub(super) fn demote_own_tunnel(out: &mut [Finding]) {
    if !out.iter().any(|f| f.rule_id == "network.tunnel") {
        return;
    }
    for f in out.iter_mut().filter(|f| {
        f.severity > Severity::Medium
            && (f.rule_id == "exfiltration.webhook-collector"
                || f.rule_id == "supply_chain.install-lure" && f.related.is_empty())
    }) {
        if only_tunnel_shown(f) {
            f.severity = Severity::Medium;
            f.description.push_str(
                " The bundle opens a public tunnel itself, and this line only shows a tunnel address (no request): it reads as the skill's own tunnel; sending data there would still be judged.",
            );
        }
    }
}
