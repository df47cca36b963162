//! Single directives to the agent: secrets into output, ranking the skill above the user,
//! instructions fetched at run time, hidden markup carrying instructions, sabotage.

use super::super::{At, Bundle, finding, hosts_in};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::hosts::HostClass;
use crate::scan::rules::Severity;

pub(super) fn singles(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    if let Some(s) = b.all(FactKind::SecretToOutput).next() {
        let foreign = b
            .in_file(s.file, FactKind::Url)
            .any(|u| hosts_in(&u.text()).iter().any(|h| h.class.is_outside()))
            || s.text().contains('@');
        // The output that holds the secrets is then sent (posted, mailed) within a few lines.
        let sent = b
            .in_file(s.file, FactKind::NetSend)
            .any(|n| n.fact.prose && (s.fact.line..=s.fact.line + 5).contains(&n.fact.line));
        let sev = if foreign || sent || b.any(FactKind::Conceal) {
            Severity::Critical
        } else {
            Severity::High
        };
        let why = format!(
            "{}: secrets placed in output, reports or messages end up where others can read them.{}",
            b.title(s.fact),
            if sev == Severity::Critical {
                " Here they would go to a place outside the user's control: do not install this skill."
            } else {
                ""
            }
        );
        out.push(finding(
            "prompt_injection.secret-to-output",
            "prompt_injection",
            sev,
            s,
            why,
            Vec::new(),
        ));
    }
    if let Some(o) = b.all(FactKind::OverrideUser).next() {
        let why = format!(
            "{}: a skill must not rank its instructions above the user's.",
            b.title(o.fact)
        );
        out.push(finding(
            "prompt_injection.override-user",
            "prompt_injection",
            Severity::High,
            o,
            why,
            Vec::new(),
        ));
    }
    // Round 42c: a vendor's own page (its API reference, its docs) is read for reference; only a
    // line whose every URL is a vendor's is left out.
    if let Some(r) = b.all(FactKind::RemoteInstructions).find(|r| {
        let hosts = hosts_in(&r.text());
        hosts.is_empty() || hosts.iter().any(|h| h.class != HostClass::Vendor)
    }) {
        let why = format!(
            "{}: instructions fetched at run time can change after review, so what was checked is not what runs.",
            b.title(r.fact)
        );
        out.push(finding(
            "prompt_injection.remote-instructions",
            "prompt_injection",
            Severity::High,
            r,
            why,
            Vec::new(),
        ));
    }
}
/// Hidden text (HTML comments, `display:none`, zero-size or transparent text) that carries
/// instructions: words addressed to the agent, concealment, approvals, sends or writes within a few
/// lines.
pub(super) fn hidden_instructions(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    // A comment holding a command is judged by what the command does (`hidden_payloads`).
    for h in b
        .all(FactKind::HiddenMarkup)
        .filter(|h| b.tag(h.fact) != "comment-command")
    {
        // `<!--` inside a quoted string on a code line of a script the bundle ships (a grep
        // pattern, a template string) is a literal, not text hidden from the reader (round 30).
        if !h.fact.prose
            && crate::scan::judge::exec::shipped_script(h.file)
            && h.matched().starts_with("<!--")
            && crate::scan::judge::disclosed::quoted_comment_opener(&h.text(), h.fact.at as usize)
        {
            continue;
        }
        let near = |k: FactKind| {
            b.in_file(h.file, k)
                .find(|a| (h.fact.line..=h.fact.line + 12).contains(&a.fact.line))
        };
        let carried = [
            FactKind::AddressAgent,
            FactKind::Conceal,
            FactKind::ApproveAll,
            FactKind::RemoteInstructions,
            FactKind::Sabotage,
            FactKind::SecretToOutput,
            FactKind::SecretProse,
            FactKind::MemoryEdit,
            FactKind::NetSend,
            FactKind::PipeExec,
        ]
        .iter()
        .find_map(|k| near(*k));
        if let Some(c) = carried {
            let why = format!(
                "{} at {}, and the hidden text carries {} ({}): instructions the user cannot see but the agent reads. Do not install this skill.",
                b.title(h.fact),
                h.place(),
                b.title(c.fact).to_lowercase(),
                c.place()
            );
            out.push(finding(
                "prompt_injection.hidden-instructions",
                "prompt_injection",
                Severity::Critical,
                h,
                why,
                vec![c.related("signal")],
            ));
            return;
        }
        // Round 45t: hidden text on a prose line that names a command (`curl`, `wget`, a shell)
        // and a host that is not a vendor's, whatever language the words around them are in: a
        // download-and-run told where the user cannot see it.
        if h.fact.prose
            && let Some(x) = hidden_command(b, h)
        {
            out.push(x);
            return;
        }
    }
}

/// Command words a hidden download-and-run names in any language.
const HIDDEN_COMMANDS: &[&str] = &["curl ", "wget ", "bash", "powershell", "iwr ", "iex"];

/// A hidden element's line holding a command word and a stranger's URL.
fn hidden_command(b: &Bundle<'_>, h: At<'_>) -> Option<Finding> {
    let text = h.text();
    let low = crate::ascii_lowered(&text);
    let cmd = HIDDEN_COMMANDS.iter().find(|w| low.contains(*w))?;
    let host = hosts_in(&text).into_iter().find(|x| x.class.is_outside())?;
    let why = format!(
        "{} at {}, and the hidden text names a command (`{}`) and {} ({}): a download-and-run the user cannot see but the agent reads. Do not install this skill.",
        b.title(h.fact),
        h.place(),
        cmd.trim(),
        host.host,
        host.class.phrase()
    );
    Some(finding(
        "prompt_injection.hidden-instructions",
        "prompt_injection",
        Severity::Critical,
        h,
        why,
        Vec::new(),
    ))
}

/// Instructions that weaken what the agent builds.
pub(super) fn sabotage(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    // Funds sent to the skill's wallet are judged on their own (`funds`).
    let Some(s) = b.all(FactKind::Sabotage).find(|a| b.tag(a.fact) != "funds") else {
        return;
    };
    let text = s.text();
    let wallet = text.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        (w.starts_with("bc1") && w.len() >= 25)
            || (w.starts_with("0x")
                && w.len() == 42
                && w[2..].bytes().all(|c| c.is_ascii_hexdigit()))
    }) || b
        .in_file(s.file, FactKind::Sabotage)
        .any(|o| o.text().contains("bc1") || o.text().contains("0x"));
    // A wiper's instructions (delete the user's files, reset the system, delete the cloud
    // resources the user's profiles reach) are dangerous with the agent's checks switched off or
    // every prompt pre-approved: nobody is asked before each deletion.
    let wipe = b.tag(s.fact) == "wipe";
    let partner = b
        .all(FactKind::Conceal)
        .next()
        .or_else(|| b.all(FactKind::HiddenMarkup).next())
        .or_else(|| {
            if wipe {
                b.all(FactKind::PermissionBypass)
                    .next()
                    .or_else(|| b.all(FactKind::ApproveAll).next())
            } else {
                None
            }
        });
    let payment = !wipe
        && [
            "recipient",
            "wallet",
            "payment",
            "address",
            "iban",
            "bank account",
            "account number",
            "beneficiary",
            "creditor",
            "payee",
        ]
        .iter()
        .any(|w| text.to_lowercase().contains(w));
    let (sev, why) = if partner.is_some() || !wipe && wallet || payment {
        (
            Severity::Critical,
            format!(
                "{}{}: {} Do not install this skill.",
                b.title(s.fact),
                partner
                    .map(|p| format!(", and {} ({})", b.title(p.fact).to_lowercase(), p.place()))
                    .unwrap_or_default(),
                if wipe {
                    "the agent would destroy the user's files or cloud resources with nobody asked first."
                } else {
                    "the agent would plant something against the user in what it builds."
                }
            ),
        )
    } else if wipe {
        (
            Severity::High,
            format!(
                "{}: check what the agent is told to delete and whose it is.",
                b.title(s.fact)
            ),
        )
    } else {
        (
            Severity::High,
            format!(
                "{}: check what the agent is told to add to its work.",
                b.title(s.fact)
            ),
        )
    };
    let related = partner
        .map(|p| vec![p.related("concealment")])
        .unwrap_or_default();
    out.push(finding(
        "prompt_injection.sabotage",
        "prompt_injection",
        sev,
        s,
        why,
        related,
    ));
}

/// Whether a line holds a wallet address written out: `bc1…`, `0x` and 40 hex digits, or a
/// base58 string of 32 to 44 characters with digits and both cases (Solana and the like).
fn address_literal(line: &str) -> bool {
    line.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
        let base58 = (32..=44).contains(&w.len())
            && w.bytes()
                .all(|c| c.is_ascii_alphanumeric() && !b"0OIl".contains(&c) || c == b'0')
            && w.bytes().any(|c| c.is_ascii_digit())
            && w.bytes().any(|c| c.is_ascii_uppercase())
            && w.bytes().any(|c| c.is_ascii_lowercase());
        (w.starts_with("bc1") && w.len() >= 25)
            || (w.starts_with("0x")
                && w.len() == 42
                && w[2..].bytes().all(|c| c.is_ascii_hexdigit()))
            || base58
    })
}

/// The user's funds sent to a wallet, vault or treasury the skill names (`sabotage` facts tagged
/// `funds`). `critical` when the skill supplies the destination ("our", "the following", an
/// address written in the file) or hides the transfer; otherwise `high` (a vault may be one the
/// user picked in a sentence the rule did not read).
pub(super) fn funds(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let Some(s) = b.all(FactKind::Sabotage).find(|a| b.tag(a.fact) == "funds") else {
        return;
    };
    let text = s.text().to_ascii_lowercase();
    let named = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| matches!(w, "our" | "my" | "following" | "below" | "above"));
    let literal = s.file.content.lines().any(address_literal);
    let covert = b.all(FactKind::Conceal).next();
    let sev = if named || literal || covert.is_some() {
        Severity::Critical
    } else {
        Severity::High
    };
    let why = format!(
        "{} ({}){}: the user's money would go to a destination the skill chose, not one the user picked. {}",
        b.title(s.fact),
        s.place(),
        covert
            .map(|c| format!(", and {} ({})", b.title(c.fact).to_lowercase(), c.place()))
            .unwrap_or_default(),
        if sev == Severity::Critical {
            "Do not install this skill."
        } else {
            "Check whose wallet this is before following these steps."
        }
    );
    let related = covert
        .map(|c| vec![c.related("concealment")])
        .unwrap_or_default();
    out.push(finding(
        "prompt_injection.funds-diversion",
        "prompt_injection",
        sev,
        s,
        why,
        related,
    ));
}

/// Lines after a secret read within which a request to put "them" into the reply counts.
const READ_WINDOW: u32 = 15;

/// A request to put what was read into the agent's reply (`output-request`), a few lines after
/// the same file reads a credential store, an agent's secrets or a dotenv file: the steps hand the
/// secrets to whoever reads the conversation. Alone the request is nothing.
pub(super) fn read_into_reply(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    if b.any(FactKind::SecretToOutput) {
        // `secret-to-output` already speaks for the bundle.
        return;
    }
    for ask in b.all(FactKind::OutputRequest) {
        let line = ask.fact.line;
        let Some(read) = b
            .in_file(ask.file, FactKind::SecretFile)
            .filter(|r| r.fact.line <= line && line - r.fact.line <= READ_WINDOW)
            .last()
        else {
            continue;
        };
        let why = format!(
            "{} ({}), after {} ({}): the secrets read end up in the conversation, where others can read them. Do not install this skill.",
            b.title(ask.fact),
            ask.place(),
            b.title(read.fact).to_lowercase(),
            read.place()
        );
        out.push(finding(
            "prompt_injection.secret-to-output",
            "prompt_injection",
            Severity::Critical,
            ask,
            why,
            vec![read.related("source")],
        ));
        return;
    }
}
