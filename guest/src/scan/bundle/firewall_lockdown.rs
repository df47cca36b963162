//! A rule flush at the start of a lockdown script (round 47b, sets47b).
//!
//! Firewall set-up scripts (a development container's egress allow-list, a server's hardening
//! step) begin by flushing the old rules (`iptables -F`, `-X`, `-t nat -F`) and then build a
//! stricter set: default policies of `DROP`, an allow-list, a final `REJECT`. The flush is what
//! `destructive.disable-firewall` matches, but the file as a whole closes the machine rather than
//! opening it.
//!
//! A `destructive.disable-firewall` finding whose line is an `iptables`/`ip6tables` flush or chain
//! delete (`-F`, `-X`, `--flush`, `--delete-chain`; never a `-P … ACCEPT`) drops to `medium` when
//! the same file, after that line, sets a default policy of `DROP` or `REJECT` for `INPUT` or
//! `OUTPUT`, and nowhere sets a default policy of `ACCEPT`, opens an inbound port (`-A INPUT …
//! --dport …` or `-I INPUT … --dport …` with `-j ACCEPT`), or runs `ufw disable`; the finding pairs
//! with nothing and the bundle has no concealment wording. A flush followed by nothing, a flush
//! followed by an open policy, and a lockdown that opens a listening port keep their grade.

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const RULE: &str = "destructive.disable-firewall";

/// The words of a line, split on blanks and quotes.
fn words(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || c == '"' || c == '\'')
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether a word is the `iptables` command (any path, `ip6tables`, `iptables-legacy`).
fn is_iptables(w: &str) -> bool {
    let name = w.rsplit('/').next().unwrap_or(w);
    name.starts_with("iptables") || name.starts_with("ip6tables")
}

/// The `iptables` invocations of a line, each as its words after the command.
fn invocations(line: &str) -> Vec<Vec<String>> {
    let ws = words(line);
    let mut out = Vec::new();
    for (i, w) in ws.iter().enumerate() {
        if is_iptables(w) {
            let rest: Vec<String> = ws[i + 1..]
                .iter()
                .take_while(|w| !matches!(**w, "&&" | "||" | ";" | "|"))
                .map(|w| w.to_ascii_uppercase())
                .collect();
            out.push(rest);
        }
    }
    out
}

/// Whether an invocation flushes rules or deletes chains, and does nothing else.
fn flushes(args: &[String]) -> bool {
    let flag = |f: &str| args.iter().any(|a| a == f);
    (flag("-F") || flag("-X") || flag("--FLUSH") || flag("--DELETE-CHAIN")) && !flag("-P")
}

/// The default policy an invocation sets for `INPUT`/`OUTPUT`/`FORWARD`, if any: `(chain, target)`.
fn policy(args: &[String]) -> Option<(&str, &str)> {
    let at = args.iter().position(|a| a == "-P" || a == "--POLICY")?;
    Some((args.get(at + 1)?.as_str(), args.get(at + 2)?.as_str()))
}

/// Whether an invocation accepts new inbound traffic on a destination port.
fn opens_inbound_port(args: &[String]) -> bool {
    let adds_input = args
        .windows(2)
        .any(|w| matches!(w[0].as_str(), "-A" | "-I" | "--APPEND" | "--INSERT") && w[1] == "INPUT");
    adds_input
        && args.iter().any(|a| a == "--DPORT" || a == "--DPORTS")
        && args.windows(2).any(|w| w[0] == "-J" && w[1] == "ACCEPT")
}

/// Whether line `n` (1-based) of `lines` flushes rules in a file that then locks the machine down.
fn flush_before_lockdown(lines: &[&str], n: usize) -> bool {
    let Some(line) = lines.get(n.wrapping_sub(1)) else {
        return false;
    };
    let own = invocations(line);
    if own.is_empty() || !own.iter().all(|a| flushes(a)) {
        return false;
    }
    let mut closes_after = false;
    for (k, l) in lines.iter().enumerate() {
        let lower = crate::ascii_lowered(l);
        if lower.contains("ufw disable") {
            return false;
        }
        for args in invocations(l) {
            if opens_inbound_port(&args) {
                return false;
            }
            if let Some((chain, target)) = policy(&args) {
                if target == "ACCEPT" {
                    return false;
                }
                if k + 1 > n
                    && matches!(chain, "INPUT" | "OUTPUT")
                    && matches!(target, "DROP" | "REJECT")
                {
                    closes_after = true;
                }
            }
        }
    }
    closes_after
}

/// Lower rule flushes of lockdown scripts (see the module documentation).
pub(super) fn demote_lockdown_flushes(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals {
        return;
    }
    for (f, content) in bundle.lone_findings(RULE, out) {
        let lines: Vec<&str> = content.lines().collect();
        if flush_before_lockdown(&lines, f.line) {
            f.severity = Severity::Medium;
            f.description.push_str(" (Informational: the same file then sets a default DROP/REJECT policy and opens no inbound port or ACCEPT policy, so the flush clears old rules before a stricter set: a lockdown, not the firewall switched off.)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::flush_before_lockdown;

    fn check(script: &str, line: usize) -> bool {
        let lines: Vec<&str> = script.lines().collect();
        flush_before_lockdown(&lines, line)
    }

    #[test]
    fn flush_then_default_drop_is_a_lockdown() {
        let s = "set -e\niptables -F\niptables -X\niptables -A OUTPUT -o lo -j ACCEPT\niptables -P OUTPUT DROP\niptables -P INPUT DROP\n";
        assert!(check(s, 2));
        assert!(check(s, 3));
        let s = "sudo /usr/sbin/ip6tables --flush\nsudo ip6tables -P INPUT REJECT\n";
        assert!(check(s, 1));
    }

    #[test]
    fn flush_that_opens_the_machine_is_not() {
        // Nothing stricter afterwards.
        assert!(!check("iptables -F\necho done\n", 1));
        // An open default policy anywhere.
        assert!(!check(
            "iptables -F\niptables -P INPUT DROP\niptables -P FORWARD ACCEPT\n",
            1
        ));
        // A listening port opened inbound.
        assert!(!check(
            "iptables -F\niptables -A INPUT -p tcp --dport 4444 -j ACCEPT\niptables -P INPUT DROP\n",
            1
        ));
        // The policy set before the flush only.
        assert!(!check("iptables -P INPUT DROP\niptables -F\n", 2));
        // The flushing line also sets a policy.
        assert!(!check(
            "iptables -F; iptables -P INPUT ACCEPT\niptables -P OUTPUT DROP\n",
            1
        ));
        // ufw switched off in the same file.
        assert!(!check(
            "iptables -F\nufw disable\niptables -P INPUT DROP\n",
            1
        ));
    }
}
