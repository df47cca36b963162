//! `exfiltration.wallet-drain` (`critical`): code that hands the user's tokens to an address
//! written into the code — an unlimited token approval (`approve(X, MaxUint256)`,
//! `2**256 - 1`, `type(uint256).max`) or an operator approval for every NFT
//! (`setApprovalForAll(X, true)`) whose spender is a fixed address literal, or a transfer to a
//! fixed address (a literal, or a name bound to one) whose amount is the wallet's balance (read a
//! few lines above). Not judged: a
//! spender or recipient the user supplies (an argument, a prompt), an approval of an exact
//! amount, and an approval in a skill that says it trades (swap, stake, bridge…) and asks the
//! user to confirm before it signs.

use super::super::shapes::{found, has_word, is_code, rel};
use super::super::{Bundle, File};
use super::sample_file;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const RULE: &str = "exfiltration.wallet-drain";
/// Lines after a balance read within which a sweep of it is looked for.
const WINDOW: usize = 25;

const UNLIMITED: &[&str] = &[
    "maxuint256",
    "max_uint256",
    "max_uint",
    "2**256-1",
    "2**256)-1",
    "2n**256n-1n",
    "type(uint256).max",
    "uint256(-1)",
    "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "maxint256",
    "u256::max",
];
const BALANCE: &[&str] = &["get_balance(", "getbalance(", "balanceof(", ".balance("];
/// What a skill that trades on the user's order says it does.
const TRADES: &[&str] = &[
    "swap",
    "trade",
    "stake",
    "staking",
    "bridge",
    "liquidity",
    "lend",
    "deposit",
    "approve",
    "allowance",
    "marketplace",
    "listing",
];
const CONFIRMS: &[&str] = &[
    "input(",
    "question(",
    "confirm",
    "[y/n]",
    "read -p",
    "read-host",
    "prompt(",
];

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &[
    "approve",
    "setapprovalforall",
    "get_balance",
    "getbalance",
    "balanceof",
    ".balance(",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let declared = b.skill_md().is_some_and(|m| {
        let d = crate::validate::frontmatter_string(m.content, "description")
            .unwrap_or_default()
            .to_ascii_lowercase();
        TRADES.iter().any(|w| d.contains(w))
    });
    for f in &b.files {
        if sample_file(f) || !is_code(f) {
            continue;
        }
        if let Some(x) = drain(f, declared) {
            out.push(x);
        }
    }
}

/// The 40-hex-digit address literals of a line (`0x` + 40 hex digits, not part of a longer run).
fn addresses(l: &str) -> Vec<&str> {
    let b = l.as_bytes();
    let mut out = vec![];
    let mut from = 0;
    while let Some(i) = l[from..].find("0x").map(|i| i + from) {
        let s = i + 2;
        let mut e = s;
        while e < b.len() && b[e].is_ascii_hexdigit() {
            e += 1;
        }
        if e - s == 40 && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            out.push(&l[i..e]);
        }
        from = e.max(i + 2);
    }
    out
}

/// The name a line assigns to (`SPENDER = …`, `const op: string = …`, `bal := …`), if any.
fn assigned_name(l: &str) -> Option<String> {
    let eq = l.find('=')?;
    let name = l[..eq]
        .trim_end_matches([':', ' '])
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("");
    (name.len() >= 2).then(|| name.to_owned())
}

/// Names bound to an address literal in the file (`SPENDER = "0x…"`, `const op = '0x…'`).
fn bound_names(low: &[String]) -> Vec<String> {
    low.iter()
        .filter(|l| !addresses(l).is_empty())
        .filter_map(|l| assigned_name(l))
        .collect()
}

/// The first argument of the call starting at `open` (the index just past `(`).
fn first_arg(l: &str, open: usize) -> &str {
    let rest = &l[open..];
    let end = rest.find([',', ')']).unwrap_or(rest.len());
    rest[..end].trim()
}

fn fixed(arg: &str, names: &[String]) -> bool {
    !addresses(arg).is_empty()
        || names
            .iter()
            .any(|n| arg.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) == n)
}

fn drain(f: &File<'_>, declared: bool) -> Option<Finding> {
    let all = f.lower_all();
    if !RAW.iter().any(|w| all.contains(w)) || !all.contains("0x") {
        return None;
    }
    let low = &f.lowered().lower;
    let names = bound_names(low);
    let confirms = CONFIRMS.iter().any(|w| all.contains(w));
    // Approvals.
    for (i, l) in low.iter().enumerate() {
        let squeezed: String = l.chars().filter(|c| !c.is_whitespace()).collect();
        let (call, all_tokens) = if let Some(p) = squeezed.find("setapprovalforall") {
            (p, true)
        } else if let Some(p) = squeezed.find("approve(") {
            (p, false)
        } else {
            continue;
        };
        // The arguments: `approve(X, …)` or viem's `args: [X, …]`.
        let open = squeezed[call..]
            .find(['(', '['])
            .map(|o| call + o + 1)
            .unwrap_or(squeezed.len());
        let mut arg = first_arg(&squeezed, open);
        if let Some(a) = squeezed.find("args:[") {
            arg = first_arg(&squeezed, a + 6);
        }
        if !fixed(arg, &names) {
            continue;
        }
        let unlimited = if all_tokens {
            squeezed[call..].contains("true")
        } else {
            UNLIMITED.iter().any(|u| squeezed.contains(u))
        };
        if !unlimited || (declared && confirms) {
            continue;
        }
        return Some(found(
            RULE,
            "exfiltration",
            Severity::Critical,
            f,
            i,
            format!(
                "The code grants {} to an address written into the code ({}): whoever holds that address can move the user's tokens at any time, without another signature.",
                if all_tokens {
                    "operator rights over every NFT of a collection"
                } else {
                    "an unlimited token allowance"
                },
                arg
            ),
            vec![],
        ));
    }
    // A sweep: a balance read, then a transfer of it to a fixed address.
    for (s, l) in low.iter().enumerate() {
        if !BALANCE.iter().any(|w| l.contains(w)) {
            continue;
        }
        let Some(var) = assigned_name(l) else {
            continue;
        };
        let end = (s + WINDOW).min(low.len());
        for k in s + 1..end {
            let t = &low[k];
            // The recipient: an address literal on the line, or a name bound to one (round 43m).
            let to_fixed = ["\"to\"", "'to'", "to:", "to=", "transfer(", "send("]
                .iter()
                .any(|w| t.contains(w))
                && (!addresses(t).is_empty() || names.iter().any(|n| has_word(t, n)));
            if !to_fixed {
                continue;
            }
            // The amount is the balance itself (or the balance less the fee).
            let moved = (k.saturating_sub(2)..(k + 3).min(low.len())).find(|&j| {
                let u = &low[j];
                (u.contains("value") || u.contains("transfer(") || u.contains("amount"))
                    && has_word(u, &var)
            });
            let Some(j) = moved else { continue };
            return Some(found(
                RULE,
                "exfiltration",
                Severity::Critical,
                f,
                k,
                format!(
                    "The code reads the wallet's balance (line {}) and sends it (line {}) to an address written into the code: the user's funds leave for a recipient the user never named.",
                    s + 1,
                    j + 1
                ),
                vec![rel("balance", f, s), rel("amount", f, j)],
            ));
        }
    }
    None
}
