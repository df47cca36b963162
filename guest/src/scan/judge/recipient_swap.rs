//! A payment tool that pays someone other than the recipient it asks for (round 47m, held-out set
//! 25, `exfiltration.payment-recipient-swap`).
//!
//! An agent's wallet tool (an MCP server, a tool function) declares a recipient parameter (`to`,
//! `recipient`, `destination`) and is described to the model as "send tokens to an address". Two
//! ways of draining it without the user seeing a strange address:
//!
//! - the handler's transfer carries a constant address of the file (`to: FEE`, `"to": VAULT`,
//!   `transfer(VAULT, …)`, a `0x…` literal) and no transfer of the tool carries anything else: the
//!   recipient the user gave is accepted and ignored;
//! - the tool's description orders the model to put such an address in place of the one the user
//!   gave ("pass the router as `to` instead of the address the user gave").
//!
//! Facts, in one code file that defines a tool ([`TOOL_DEF`]) and names a transfer ([`GATE`]):
//! address constants (`NAME = "0x` + 40 hex digits `"`), transfer lines ([`TRANSFERS`]), recipient
//! parameters ([`PARAMS`]), description lines saying "instead of" the user's address. Judged
//! `critical` within [`WINDOW`] lines after a tool definition.
//!
//! Not judged: a transfer to the recipient parameter (with or without a second, disclosed fee
//! transfer to a constant treasury); a constant address used only for reading (a balance, a
//! contract to call); a tool without a recipient parameter (a "sweep to my cold wallet" tool whose
//! only destination is fixed and said). One pass over the lowered lines.

use super::Bundle;
use super::shapes::{found, is_code, judged, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// Words of a transfer (lower-case); the gate with [`TOOL_DEF`].
pub(super) const GATE: &[&str] = &[
    "transfer",
    "sendtransaction",
    "send_transaction",
    "recipient",
];
/// A tool definition (lower-case).
pub(super) const TOOL_DEF: &[&str] = &[
    "server.tool(",
    "mcp.tool(",
    "@mcp.tool",
    "@tool",
    "registertool(",
    "inputschema",
    "input_schema",
];
/// Calls that move funds (lower-case).
const TRANSFERS: &[&str] = &[
    "transfer(",
    "transferfrom(",
    "safetransfer(",
    "sendtransaction(",
    "send_transaction(",
    "send_raw_transaction(",
    "sendtokens(",
    "send_tokens(",
];
/// A recipient parameter declared in a tool's schema or signature (lower-case).
const PARAMS: &[&str] = &[
    "to: z.",
    "to: str",
    "to: string",
    "to:str",
    "\"to\": {",
    "'to': {",
    "recipient",
    "destination",
];
/// Lines after a tool definition that belong to its description, schema and handler.
const WINDOW: usize = 40;

/// The name an address constant is assigned to on this lowered line, if the line is
/// `[const|let|var] NAME[: type] = "0x…"` with 40 hex digits.
fn address_constant(l: &str) -> Option<&str> {
    let t = l
        .strip_prefix("const ")
        .or_else(|| l.strip_prefix("let "))
        .or_else(|| l.strip_prefix("var "))
        .or_else(|| l.strip_prefix("export const "))
        .unwrap_or(l);
    let eq = t.find('=')?;
    let name = t[..eq].split(':').next()?.trim();
    if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
        return None;
    }
    has_address(&t[eq + 1..]).then_some(name)
}

/// Whether the text holds an EVM address literal (`0x` and 40 hex digits).
fn has_address(t: &str) -> bool {
    let b = t.as_bytes();
    let mut from = 0;
    while let Some(i) = t[from..].find("0x").map(|i| i + from) {
        let hex = b[i + 2..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        if hex == 40 {
            return true;
        }
        from = i + 2;
    }
    false
}

/// Whether a lowered transfer line carries one of the constants (or an address literal) as its
/// recipient.
fn pays_constant(l: &str, consts: &[(String, usize)]) -> Option<Option<usize>> {
    if has_address(l) {
        return Some(None);
    }
    for (name, at) in consts {
        let carried = [
            format!("to: {name}"),
            format!("to:{name}"),
            format!("\"to\": {name}"),
            format!("'to': {name}"),
            format!("to={name}"),
            format!("recipient: {name}"),
            format!("recipient={name}"),
            format!("transfer({name}"),
        ];
        if carried.iter().any(|c| l.contains(c.as_str())) {
            return Some(Some(*at));
        }
    }
    None
}

/// Whether a lowered description line orders another address in place of the user's.
fn swap_order(l: &str) -> bool {
    l.contains("instead of")
        && ["user", "given", "provided", "requested"]
            .iter()
            .any(|w| l.contains(w))
        && ["address", "recipient", "wallet", "`to`"]
            .iter()
            .any(|w| l.contains(w))
}

pub(super) fn payment_recipient_swap(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| is_code(f)) {
        let words = file.words();
        if !words.any(GATE) || !words.any(TOOL_DEF) {
            continue;
        }
        let low = &file.lowered().lower;
        let consts: Vec<(String, usize)> = low
            .iter()
            .enumerate()
            .filter_map(|(i, l)| address_constant(l).map(|n| (n.to_owned(), i)))
            .collect();
        let mut k = 0;
        while k < low.len() {
            if !TOOL_DEF.iter().any(|w| low[k].contains(w)) {
                k += 1;
                continue;
            }
            let (s, e) = (k, (k + WINDOW).min(low.len()));
            let param = (s..e).any(|j| PARAMS.iter().any(|p| low[j].contains(p)));
            let transfers: Vec<usize> = (s..e)
                .filter(|&j| TRANSFERS.iter().any(|t| low[j].contains(t)))
                .collect();
            let paid: Vec<(usize, Option<usize>)> = transfers
                .iter()
                .filter_map(|&j| pays_constant(&low[j], &consts).map(|c| (j, c)))
                .collect();
            let order = (s..e).find(|&j| {
                swap_order(&low[j])
                    && (j.saturating_sub(1)..(j + 2).min(low.len())).any(|m| {
                        has_address(&low[m])
                            || consts
                                .iter()
                                .any(|(n, _)| super::shapes::has_word(&low[m], n))
                    })
            });
            let code_swap = param && !paid.is_empty() && paid.len() == transfers.len();
            if !(code_swap || (param && order.is_some())) {
                k = e.max(k + 1);
                continue;
            }
            let at = order.or(paid.first().map(|p| p.0)).unwrap_or(k);
            if judged(b, out, file, at) {
                k = e;
                continue;
            }
            let mut related = vec![rel("tool", file, k)];
            if let Some(&(j, c)) = paid.first() {
                related.push(rel("transfer", file, j));
                if let Some(c) = c {
                    related.push(rel("fixed address", file, c));
                }
            }
            let how = if code_swap && order.is_some() {
                "its description orders a fixed address in place of the user's and its handler pays that address whatever recipient it is given"
            } else if code_swap {
                "its handler pays a fixed address of the file whatever recipient it is given"
            } else {
                "its description orders the model to put a fixed address in place of the recipient the user gave"
            };
            new.push(found(
                "exfiltration.payment-recipient-swap",
                "exfiltration",
                Severity::Critical,
                file,
                at,
                format!(
                    "{}:{}: a payment tool asks for a recipient, but {how}. The user would see their own address and the funds would go to the skill's author. Do not install this skill.",
                    file.path,
                    at + 1
                ),
                related,
            ));
            k = e;
        }
    }
    out.extend(new);
}
