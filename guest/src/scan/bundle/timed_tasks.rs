//! A Windows scheduled task on a clock that runs a plain local program (round 45b, sets45b).
//!
//! `persistence.run-key-write` (`high`) fires on `schtasks /create` and `Register-ScheduledTask`
//! as on a Run key: a program that starts again on every login. A backup guide's nightly
//! `robocopy` to a second drive or a repository's ten-minute `git push` timer is a scheduled job
//! the user sets up on purpose, not a foothold. Such a finding drops to `medium` when, within the
//! few lines the task is built from (the line and up to eight before it; for `schtasks /xml`, the
//! task file the bundle ships):
//! - the trigger is a clock (`/sc minute|hourly|daily|weekly|monthly|once`,
//!   `New-ScheduledTaskTrigger -Daily|-Weekly|-Once`, a `CalendarTrigger`/`TimeTrigger`), never
//!   a logon, a boot, an idle or an event (`/sc onlogon|onstart|onidle|onevent`, `-AtLogOn`,
//!   `-AtStartup`, `LogonTrigger`, `BootTrigger`);
//! - and what runs is named in the open: no hidden window (`-w hidden`, `-WindowStyle Hidden`,
//!   `<Hidden>true`), no encoded or downloaded command (`-enc`, `FromBase64String`, `iex`,
//!   `DownloadString`, `Invoke-WebRequest`, `curl`, `http://`, `https://`, `mshta`, `regsvr32`,
//!   `rundll32`, `wscript`, `cscript`), nothing run from a temp or roaming-profile folder
//!   (`%TEMP%`, `$env:TEMP`, `AppData`, `%APPDATA%`, `ProgramData`, `\Public\`).
//!
//! A login or boot task, a hidden or encoded one, or one that runs a download keeps `high`.

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const RULE: &str = "persistence.run-key-write";

/// Clock triggers (lower-cased).
const CLOCK: &[&str] = &[
    "/sc minute",
    "/sc hourly",
    "/sc daily",
    "/sc weekly",
    "/sc monthly",
    "/sc once",
    "-daily",
    "-weekly",
    "-once",
    "<calendartrigger",
    "<timetrigger",
];

/// Triggers that start it with the machine or the user (lower-cased).
const STARTS_WITH: &[&str] = &[
    "onlogon",
    "onstart",
    "onidle",
    "onevent",
    "-atlogon",
    "-atstartup",
    "<logontrigger",
    "<boottrigger",
    "<idletrigger",
    "<eventtrigger",
    "<sessionstatechangetrigger",
];

/// Marks of a hidden, encoded, downloaded or dropped payload (lower-cased).
const HIDDEN: &[&str] = &[
    "hidden",
    "-enc",
    "frombase64string",
    "iex",
    "invoke-expression",
    "downloadstring",
    "downloadfile",
    "invoke-webrequest",
    "iwr ",
    "curl",
    "wget",
    "bitsadmin",
    "certutil",
    "http://",
    "https://",
    "mshta",
    "regsvr32",
    "rundll32",
    "wscript",
    "cscript",
    "%temp%",
    "$env:temp",
    "\\temp\\",
    "appdata",
    "%appdata%",
    "programdata",
    "\\public\\",
];

/// How many lines before the finding a task's trigger and action may be built.
const BACK: usize = 8;

/// The task file a `schtasks /create /xml <file>` line imports, when the bundle ships it.
fn xml_of<'a>(bundle: &'a Bundle, line: &str) -> Option<&'a str> {
    let l = line.to_ascii_lowercase();
    let at = l.find("/xml")? + 4;
    let name = line[at..]
        .trim_start()
        .trim_start_matches(['"', '\''])
        .split(['"', '\'', ' '])
        .next()?
        .rsplit(['\\', '/'])
        .next()?
        .to_ascii_lowercase();
    if name.is_empty() {
        return None;
    }
    bundle
        .files
        .iter()
        .find(|f| f.path.to_ascii_lowercase().rsplit('/').next() == Some(name.as_str()))
        .and_then(|f| f.content.as_deref())
}

/// Whether the text a task is built from runs a plain local program on a clock.
fn timed_plain(text: &str) -> bool {
    // A task file's namespace declaration (`xmlns="http://schemas.microsoft.com/…"`) is no address
    // the task fetches.
    let t: String = text
        .to_ascii_lowercase()
        .lines()
        .filter(|l| !l.contains("xmlns"))
        .collect::<Vec<_>>()
        .join("\n");
    CLOCK.iter().any(|w| t.contains(w))
        && !STARTS_WITH.iter().any(|w| t.contains(w))
        && !HIDDEN.iter().any(|w| t.contains(w))
}

/// Lower scheduled-task findings of clock-triggered plain local programs to `medium`.
pub(super) fn demote_timed_tasks(bundle: &Bundle, out: &mut [Finding]) {
    for f in out
        .iter_mut()
        .filter(|f| f.rule_id == RULE && f.severity > Severity::Medium && f.line > 0)
    {
        let Some(content) = bundle.text_of(&f.file) else {
            continue;
        };
        let lines: Vec<&str> = content.lines().collect();
        let Some(line) = lines.get(f.line - 1) else {
            continue;
        };
        let lower = line.to_ascii_lowercase();
        if !(lower.contains("schtasks") || lower.contains("register-scheduledtask")) {
            continue;
        }
        let window = lines[(f.line - 1).saturating_sub(BACK)..f.line].join("\n");
        let text = match xml_of(bundle, line) {
            Some(xml) => format!("{window}\n{xml}"),
            None => window,
        };
        if timed_plain(&text) {
            f.severity = Severity::Medium;
            f.description.push_str(" (Here the task runs on a clock, not at login or boot, and what it runs is a plain local program named in the open: a scheduled job the user sets up, worth knowing about.)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::timed_plain;

    #[test]
    fn clock_tasks_of_plain_programs() {
        assert!(timed_plain(
            "schtasks /create /tn \"Sync\" /tr \"python C:\\work\\sync.py\" /sc hourly /f"
        ));
        assert!(timed_plain(
            "$a = New-ScheduledTaskAction -Execute \"robocopy.exe\" -Argument \"C:\\Data E:\\Copy /MIR\"\n$t = New-ScheduledTaskTrigger -Weekly -DaysOfWeek Sunday -At 1am\nRegister-ScheduledTask -TaskName \"Copy\" -Action $a -Trigger $t"
        ));
    }

    #[test]
    fn login_hidden_or_fetched_tasks_keep_their_grade() {
        assert!(!timed_plain(
            "schtasks /create /tn Upd /tr C:\\tools\\agent.exe /sc onlogon"
        ));
        assert!(!timed_plain(
            "schtasks /create /tn Upd /sc daily /tr \"powershell -w hidden -enc SQBFAFgA\""
        ));
        assert!(!timed_plain(
            "schtasks /create /tn Upd /sc daily /tr \"%APPDATA%\\u\\svc.exe\""
        ));
    }
}
