//! A fixed recipient hidden on the mail a skill sends: `msg["Bcc"] = "records@vault.example"`
//! (or `add_header("Bcc", …)`, nodemailer's `bcc:`, `Send-MailMessage -Bcc`) in a script that
//! sends the message. Every mail the user sends through the skill is copied to an address they
//! never chose and cannot see on the message. Recipients the user passes (`", ".join(args.bcc)`)
//! are not literals; a vendor's logging address or one named after the skill is its job.

use super::capitalize;
use crate::scan::content::{FileKind, Finding, Related};
use crate::scan::facts::FactKind;
use crate::scan::hosts::{HostClass, classify};
use crate::scan::judge::flow::FileFlow;
use crate::scan::judge::{At, Bundle, finding, host_named_after};
use crate::scan::rules::Severity;

/// What a script calls to send a message it built.
const SENDS: [&str; 5] = [
    "send_message(",
    "sendmail(",
    "sendMail(",
    "Send-MailMessage",
    ".Send(",
];

/// The value a line gives the Bcc header, if it sets one.
fn bcc_value(line: &str) -> Option<&str> {
    for key in [
        "[\"Bcc\"]",
        "['Bcc']",
        "[\"bcc\"]",
        "['bcc']",
        "[\"BCC\"]",
        "['BCC']",
    ] {
        if let Some(i) = line.find(key) {
            let rest = line[i + key.len()..].trim_start();
            return rest
                .strip_prefix('=')
                .filter(|r| !r.starts_with('='))
                .map(str::trim);
        }
    }
    for key in [
        "add_header(\"Bcc\",",
        "add_header('Bcc',",
        "bcc:",
        "-Bcc ",
        "Bcc.Add(",
    ] {
        if let Some(i) = line.find(key) {
            return Some(line[i + key.len()..].trim());
        }
    }
    None
}

/// The first e-mail address in a quoted literal at the start of `expr`, with its domain.
fn literal_address(expr: &str) -> Option<(&str, &str)> {
    let q = expr
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let inner = &expr[1..];
    let inner = &inner[..inner.find(q)?];
    let addr = inner.split([',', ';', ' ']).find(|a| a.contains('@'))?;
    let addr = addr.trim_matches(['<', '>']);
    let (user, domain) = addr.split_once('@')?;
    (!user.is_empty() && domain.contains('.') && !domain.contains(['{', '$', '%']))
        .then_some((addr, domain))
}

pub(super) fn fixed_bcc(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    for (file, flow) in b.files.iter().zip(flows) {
        if file.kind != FileKind::Code
            || !(file.content.contains("Bcc")
                || file.content.contains("bcc")
                || file.content.contains("BCC"))
            || !SENDS.iter().any(|s| file.content.contains(s))
        {
            continue;
        }
        let Some(send) = b
            .in_file(file, FactKind::NetSend)
            .find(|s| !s.fact.prose)
            .or_else(|| b.in_file(file, FactKind::Url).find(|s| !s.fact.prose))
        else {
            continue;
        };
        for (n, line) in file.content.lines().enumerate() {
            let Some(expr) = bcc_value(line) else {
                continue;
            };
            // A literal, or a name defined as one (`ARCHIVE = "records@vault.example"`).
            let def;
            let found = match literal_address(expr) {
                Some(a) => Some(a),
                None => {
                    let name: &str = expr
                        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                        .next()
                        .unwrap_or("");
                    def = flow.defs.get(name).map(|d| d.text.clone());
                    def.as_deref().and_then(|t| {
                        t.split_once('=')
                            .and_then(|(_, rhs)| literal_address(rhs.trim()))
                    })
                }
            };
            let Some((addr, domain)) = found else {
                continue;
            };
            let class = classify(domain, "");
            if class == HostClass::Local
                || class.is_known_good()
                || host_named_after(domain, &b.name_words())
            {
                continue;
            }
            let line_no = n + 1;
            let why = format!(
                "every message {} sends is blind-copied to `{addr}` (set at {}:{line_no}), an address fixed in the code that the user never chose and cannot see on the mail ({} at {}). {}",
                file.path,
                file.path,
                if send.fact.kind == FactKind::NetSend {
                    "sent"
                } else {
                    "mail server"
                },
                send.place(),
                "Copying the user's mail to a hidden outside recipient is exfiltration: do not install this skill."
            );
            out.push(finding(
                "exfiltration.hidden-recipient",
                "exfiltration",
                Severity::Critical,
                At {
                    file,
                    fact: send.fact,
                },
                capitalize(&why),
                vec![Related {
                    role: "source".into(),
                    file: file.path.into(),
                    line: line_no,
                    evidence: line.trim().chars().take(160).collect(),
                }],
            ));
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bcc_values_and_literal_addresses() {
        assert_eq!(bcc_value("    msg[\"Bcc\"] = ARCHIVE"), Some("ARCHIVE"));
        assert_eq!(
            bcc_value("msg.add_header('Bcc', 'a@b.example')"),
            Some("'a@b.example')")
        );
        assert_eq!(bcc_value("if msg[\"Bcc\"] == x:"), None);
        assert_eq!(
            literal_address("\"records@vault.example\""),
            Some(("records@vault.example", "vault.example"))
        );
        assert_eq!(literal_address("\", \".join(a.bcc)"), None);
        assert_eq!(literal_address("f\"{user}@corp.example\""), None);
    }
}
