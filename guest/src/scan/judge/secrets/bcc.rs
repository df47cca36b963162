//! `exfiltration.hidden-recipient`: a fixed recipient hidden on the mail a skill sends:
//! `msg["Bcc"] = "records@vault.example"` (or `add_header("Bcc", …)`, nodemailer's or Postmark's
//! `bcc:` / `Bcc:`, a `bcc="…"` argument, `Send-MailMessage -Bcc`) in a script that sends the
//! message. Every mail the user sends through the skill is copied to an address they never chose
//! and cannot see on the message. Recipients the user passes (`", ".join(args.bcc)`,
//! `process.env.ARCHIVE_BCC`) are not literals; a vendor's logging address, one named after the
//! skill, and the reserved documentation domains (`example.com`, `.org`, `.net`: a placeholder the
//! user fills in) are not hidden recipients. Rounds 29m (`sets28m`) and 29c (`scan31`) wrote this
//! rule twice; this is the one left. One pass over each code file's lines: linear in bytes.

use super::capitalize;
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::facts::FactKind;
use crate::scan::hosts::{HostClass, classify};
use crate::scan::judge::flow::FileFlow;
use crate::scan::judge::{At, Bundle, finding, host_named_after};
use crate::scan::rules::Severity;

/// What a script calls to send a message it built.
const SENDS: [&str; 10] = [
    "send_message(",
    "sendmail(",
    "sendMail(",
    "Send-MailMessage",
    ".Send(",
    "sendEmail(",
    "send_email(",
    "send_mail(",
    "messages.send(",
    "smtplib",
];

/// The value a line gives the Bcc header, if it sets one. Keys are matched without regard to case
/// (`Bcc:`, `"bcc":`, `BCC=`); a key must not end a longer name (`has_bcc:`).
fn bcc_value(line: &str) -> Option<&str> {
    let lower = line.to_ascii_lowercase();
    let starts_word = |i: usize| {
        i == 0 || {
            let c = lower.as_bytes()[i - 1];
            !(c.is_ascii_alphanumeric() || c == b'_')
        }
    };
    // Subscripts and arguments take `=` after the key (`msg["Bcc"] = …`, `bcc="…"`); not `==`.
    for key in ["[\"bcc\"]", "['bcc']", "bcc"] {
        let Some(i) = lower.find(key) else { continue };
        if key == "bcc" && !starts_word(i) {
            continue;
        }
        let rest = line[i + key.len()..].trim_start();
        if let Some(r) = rest.strip_prefix('=').filter(|r| !r.starts_with('=')) {
            return Some(r.trim());
        }
        if key != "bcc" {
            return None;
        }
    }
    for key in [
        "add_header(\"bcc\",",
        "add_header('bcc',",
        "\"bcc\":",
        "'bcc':",
        "bcc:",
        "-bcc ",
        "bcc.add(",
    ] {
        if let Some(i) = lower.find(key) {
            if key.starts_with(|c: char| c.is_ascii_alphabetic()) && !starts_word(i) {
                continue;
            }
            return Some(line[i + key.len()..].trim());
        }
    }
    None
}

/// `example.com`, `example.org`, `example.net` and their subdomains (RFC 2606): a template's
/// placeholder, not somebody's mailbox.
fn documentation_domain(domain: &str) -> bool {
    let d = domain.to_ascii_lowercase();
    ["example.com", "example.org", "example.net"]
        .iter()
        .any(|r| d == *r || d.ends_with(&format!(".{r}")))
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
        // Where the mail leaves, when the file shows it (else the Bcc line itself is the place).
        let send = b
            .in_file(file, FactKind::NetSend)
            .find(|s| !s.fact.prose)
            .or_else(|| b.in_file(file, FactKind::Url).find(|s| !s.fact.prose));
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
                || documentation_domain(domain)
                || host_named_after(domain, &b.name_words())
            {
                continue;
            }
            let line_no = n + 1;
            let leaves = match &send {
                Some(s) if s.fact.kind == FactKind::NetSend => format!(" (sent at {})", s.place()),
                Some(s) => format!(" (mail server at {})", s.place()),
                None => String::new(),
            };
            let why = format!(
                "every message {} sends is blind-copied to `{addr}` (set at {}:{line_no}), an address fixed in the code that the user never chose and cannot see on the mail{leaves}. {}",
                file.path,
                file.path,
                "Copying the user's mail to a hidden outside recipient is exfiltration: do not install this skill."
            );
            let bcc_line = Related {
                role: "source".into(),
                file: file.path.into(),
                line: line_no,
                evidence: line.trim().chars().take(160).collect(),
            };
            out.push(match send {
                Some(s) => finding(
                    "exfiltration.hidden-recipient",
                    "exfiltration",
                    Severity::Critical,
                    At { file, fact: s.fact },
                    capitalize(&why),
                    vec![bcc_line],
                ),
                None => Finding {
                    rule_id: "exfiltration.hidden-recipient".into(),
                    category: "exfiltration".into(),
                    severity: Severity::Critical,
                    file: file.path.into(),
                    line: line_no,
                    evidence: evidence(line, 0, line.len()),
                    description: capitalize(&why),
                    related: Vec::new(),
                },
            });
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
            bcc_value("  Bcc: 'a@b.example' });"),
            Some("'a@b.example' });")
        );
        assert_eq!(
            bcc_value("{\"Bcc\": \"a@b.example\"}"),
            Some("\"a@b.example\"}")
        );
        assert_eq!(
            bcc_value("c.send_email(to=t, bcc='a@b.example')"),
            Some("'a@b.example')")
        );
        assert_eq!(bcc_value("ARCHIVE_BCC = 'a@b.example'"), None);
        assert_eq!(bcc_value("has_bcc: true"), None);
        assert!(documentation_domain("mail.example.com"));
        assert!(!documentation_domain("vault.example"));
        assert_eq!(
            literal_address("\"records@vault.example\""),
            Some(("records@vault.example", "vault.example"))
        );
        assert_eq!(literal_address("\", \".join(a.bcc)"), None);
        assert_eq!(literal_address("f\"{user}@corp.example\""), None);
    }
}
