//! Attached shortcut, script and disk-image files the user is told to open (round 29p): "open the
//! attached Setup.lnk", "double-click the attached portal.hta", "mount the attached tools.iso",
//! "打开附件中的 助手.scr".
//!
//! Windows shortcuts, screensavers, HTML applications, script files and disk images are how
//! malware is delivered by attachment: opening one runs whatever it points to, and a disk image
//! carries its contents past the download warning. A skill has no reason to ship one for the user
//! to open; an order to open, run or mount one that comes with the skill is an install lure
//! (`supply_chain.install-lure`, `critical`). A sentence that tells people never to open such
//! files, and a disk image named with its vendor (an OS installer attached to a virtual machine), is
//! not an order to open an attachment. One pass over the lines of documents that say "attached".

use super::super::Bundle;
use crate::scan::content::{Finding, evidence};
use crate::scan::rules::Severity;

/// Words that say the file comes with the skill or the message.
pub(super) const ATTACHED: &[&str] = &["attached", "attachment", "附件", "随附"];

/// Orders to open or run a file.
const OPENS: &[&str] = &[
    "open",
    "double-click",
    "double click",
    "run ",
    "launch",
    "mount",
    "execute",
    "start ",
    "打开",
    "双击",
    "运行",
    "执行",
];

/// Refusals ("never open attached .lnk files").
const REFUSALS: &[&str] = &[
    "never", "do not", "don't", "not open", "avoid", "不要", "切勿", "禁止",
];

/// Files that run what they hold or point to when opened.
const RUNNABLE: &[&str] = &[
    ".lnk", ".scr", ".hta", ".iso", ".img", ".vhd", ".vhdx", ".exe", ".msi", ".bat", ".cmd",
    ".vbs", ".vbe", ".jse", ".wsf", ".ps1", ".cpl", ".chm", ".pif",
];

/// Whether a line names a file of a runnable kind (`Setup.lnk`, `「助手.scr」`).
fn names_runnable(l: &str) -> Option<&'static str> {
    RUNNABLE.iter().copied().find(|ext| {
        l.match_indices(ext).any(|(i, _)| {
            let after = l[i + ext.len()..].chars().next();
            let before = l[..i].chars().next_back();
            // A file name: something before the dot, and the extension ends there.
            before.is_some_and(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ')'))
                && !after.is_some_and(|c| c.is_ascii_alphanumeric())
        })
    })
}

/// A line without its double-quoted spans (`"…"`, `“…”`).
fn unquoted(l: &str) -> String {
    let mut out = String::with_capacity(l.len());
    let mut open: Option<char> = None;
    for c in l.chars() {
        match (open, c) {
            (None, '"') => open = Some('"'),
            (None, '“') => open = Some('”'),
            (Some(close), c) if c == close => open = None,
            (Some(_), _) => {}
            (None, c) => out.push(c),
        }
    }
    out
}

pub(super) fn attached_runnable(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static GATE: std::sync::OnceLock<aho_corasick::AhoCorasick> = std::sync::OnceLock::new();
    let gate = super::gate(&GATE, ATTACHED);
    for (file, lines, prose) in super::gated_prose(b, gate) {
        for (n, line) in lines.iter().enumerate() {
            if !prose[n] || !gate.is_match(line) {
                continue;
            }
            // Quoted wording ("Open the attached Setup.lnk") is an example being discussed.
            let l = unquoted(&crate::ascii_lowered(line));
            if REFUSALS.iter().any(|w| l.contains(w)) || !OPENS.iter().any(|w| l.contains(w)) {
                continue;
            }
            let Some(ext) = names_runnable(&l) else {
                continue;
            };
            out.push(Finding {
                rule_id: "supply_chain.install-lure".into(),
                category: "supply_chain".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: n + 1,
                evidence: evidence(line, 0, line.len()),
                description: format!(
                    "The user is told to open or run an attached `{ext}` file: shortcuts, screensavers, HTML applications, scripts and disk images run what they hold or point to, and are how malware is delivered by attachment. Do not open it."
                ),
                related: Vec::new(),
            });
            break;
        }
    }
}
