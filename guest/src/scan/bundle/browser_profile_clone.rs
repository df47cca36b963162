//! A browser profile cloned into a local working folder, with nothing sent (round 48b, sets48b).
//!
//! Recording and browser-automation helpers copy the user's signed-in browser profile into a
//! private working folder so a driven browser starts logged in: `Copy-Item "$src\Local State"
//! "$dst\Local State"` with `$src = "$env:LOCALAPPDATA\Microsoft\Edge\User Data"` and `$dst =
//! "$env:USERPROFILE\.copilot\video-work\edge-tenant"` (round 45b's vendor clone). The
//! browser-data rule matches the read of the profile's key store; profile theft does the same
//! copy and then packs and uploads it.
//!
//! An `exfiltration.browser-data` finding above `medium` drops to `medium` when its line is one
//! copy command (`cp`, `copy`, `xcopy`, `robocopy`, `Copy-Item`, `ditto`) whose source — as
//! written or through a variable the same file assigns a quoted literal once — is a browser's
//! profile folder (Chrome, Edge, Brave, Chromium, Vivaldi, Opera, Firefox) and whose destination
//! is a folder under the user's home (`$env:USERPROFILE`, `%USERPROFILE%`, `$env:LOCALAPPDATA`,
//! `~/`, `$HOME`), neither a temporary, shared, mounted or removable place nor an address; the
//! finding pairs with nothing; no file of the bundle names an outside host or runs a network
//! command (the list round 47b's second-profile copy uses), packs files into an archive
//! (`Compress-Archive`, `zip`, `tar`, `7z`) or hides anything. A copy to `%TEMP%`, to a share, or
//! a bundle that also packs or sends keeps the grade.

use crate::scan::bundle::Bundle;
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const RULE: &str = "exfiltration.browser-data";

/// Copy commands, as the first word of a line (lower-cased, without a path).
const COPIES: &[&str] = &["cp", "copy", "xcopy", "robocopy", "copy-item", "ditto"];

/// Path parts that name a browser's profile folder (lower-cased, `/` for `\`).
const BROWSER_DIRS: &[&str] = &[
    "/user data",
    "google/chrome",
    "google-chrome",
    "microsoft/edge",
    "microsoft-edge",
    "bravesoftware",
    "/chromium",
    "/vivaldi",
    "opera software",
    "mozilla/firefox",
    ".mozilla/firefox",
];

/// Roots of the user's own home (lower-cased).
const HOME_ROOTS: &[&str] = &[
    "$env:userprofile",
    "%userprofile%",
    "$env:localappdata",
    "%localappdata%",
    "$home",
    "${home}",
    "~/",
];

/// Places a clone may not go to.
const AWAY: &[&str] = &[
    "temp",
    "/tmp",
    "/mnt/",
    "/media/",
    "/volumes/",
    "onedrive",
    "dropbox",
    "google drive",
    "//",
    "http",
    "@",
];

/// Words that pack files into an archive (lower-cased, whole words).
const PACKS: &[&str] = &[
    "compress-archive",
    "zip",
    "zipfile",
    "tar",
    "7z",
    "rar",
    "make_archive",
];

/// The arguments of a command line, quotes honoured (`"$src\Profile 1"` is one argument).
fn args(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() || c == '`' => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            None => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether an argument is an option (`-Force`, `/E`, `/XD`) rather than a path.
fn option(arg: &str) -> bool {
    arg.starts_with('-')
        || (arg.starts_with('/') && arg.len() <= 8 && !arg[1..].contains(['/', '\\', '.']))
}

/// The quoted literal a file assigns to variable `name` once (`$src = "…"`, `src="…"`, `set
/// "src=…"`), if exactly one assignment of it is found.
fn assigned(text: &str, name: &str) -> Option<String> {
    let mut found: Option<String> = None;
    for l in text.lines() {
        let t = l.trim().trim_start_matches("set ").trim_start_matches('"');
        let t = t.strip_prefix('$').unwrap_or(t);
        let Some(rest) = t.strip_prefix(name) else {
            continue;
        };
        let Some(value) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        let value = value.trim().trim_matches(['"', '\'']);
        if found.is_some() || value.is_empty() {
            return None;
        }
        found = Some(value.to_string());
    }
    found
}

/// The path an argument names, a leading variable replaced by the literal the file assigns it.
fn resolved(arg: &str, text: &str) -> String {
    let lower = crate::ascii_lowered(arg).replace('\\', "/");
    for (open, close) in [("${", "}"), ("$", ""), ("%", "%")] {
        let Some(rest) = arg.strip_prefix(open) else {
            continue;
        };
        let end = if close.is_empty() {
            rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())
        } else {
            match rest.find(close) {
                Some(e) => e,
                None => continue,
            }
        };
        let name = &rest[..end];
        if name.is_empty() || name.eq_ignore_ascii_case("env") {
            continue;
        }
        if let Some(value) = assigned(text, name) {
            let tail = &rest[end + close.len()..];
            return crate::ascii_lowered(&format!("{value}{tail}")).replace('\\', "/");
        }
    }
    lower
}

/// Whether `line` of `text` copies a browser profile into a folder under the user's home.
fn clones_profile_home(line: &str, text: &str) -> bool {
    let a = args(line.trim());
    let Some(first) = a.first() else {
        return false;
    };
    let cmd = crate::ascii_lowered(first.rsplit(['/', '\\']).next().unwrap_or(first));
    if !COPIES.contains(&&*cmd) {
        return false;
    }
    if a[1..]
        .iter()
        .any(|w| matches!(w.as_str(), "|" | "&&" | ";" | "||"))
    {
        return false;
    }
    let paths: Vec<&String> = a[1..]
        .iter()
        .filter(|w| !option(w) && !w.starts_with('>') && !w.starts_with("2>"))
        .take(2)
        .collect();
    if paths.len() != 2 {
        return false;
    }
    let src = resolved(paths[0], text);
    let dst = resolved(paths[1], text);
    BROWSER_DIRS.iter().any(|b| src.contains(b))
        && HOME_ROOTS.iter().any(|h| dst.starts_with(h))
        && !AWAY.iter().any(|w| dst.contains(w))
}

/// Whether a file packs files into an archive.
fn packs(text: &str) -> bool {
    text.lines().any(|l| {
        l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .any(|w| PACKS.iter().any(|p| w.eq_ignore_ascii_case(p)))
    })
}

/// Lower the browser-data findings of profile clones kept at home (see the module documentation).
pub(super) fn demote_profile_clones(bundle: &Bundle, conceals: bool, out: &mut [Finding]) {
    if conceals {
        return;
    }
    let mut bundle_quiet: Option<bool> = None;
    for (f, text) in bundle.lone_findings(RULE, out) {
        let Some(line) = text.lines().nth(f.line - 1) else {
            continue;
        };
        if !clones_profile_home(line, text) {
            continue;
        }
        let quiet = *bundle_quiet.get_or_insert_with(|| {
            !bundle
                .files
                .iter()
                .filter_map(|file| file.content.as_deref())
                .any(|t| super::own_profile_copy::sends_anywhere(t) || packs(t))
        });
        if quiet {
            f.severity = Severity::Medium;
            f.description.push_str(" (This line clones the browser profile into a folder under the user's own home, and no file of the skill names an outside host, runs a network command or packs an archive, so it reads as a local working copy for a driven browser; a copy to a temporary or shared place, or a skill that also packs or sends, would keep the grade.)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{args, clones_profile_home, packs};

    const VARS: &str = "$from = \"$env:LOCALAPPDATA\\Google\\Chrome\\User Data\"\n$to = \"$env:USERPROFILE\\.recorder\\chrome-copy\"\n";

    #[test]
    fn a_profile_cloned_under_home_through_variables() {
        assert_eq!(
            args(r#"Copy-Item "$a\Local State" "$b\Local State" -Force"#),
            vec!["Copy-Item", "$a\\Local State", "$b\\Local State", "-Force"]
        );
        assert!(clones_profile_home(
            r#"Copy-Item "$from\Local State" "$to\Local State" -Force"#,
            VARS
        ));
        assert!(clones_profile_home(
            r#"robocopy "$from\Default" "$to\Default" /E /XD "Cache" "GPUCache""#,
            VARS
        ));
        assert!(clones_profile_home(
            "cp -R ~/.config/google-chrome/Default ~/.cache/recorder/Default",
            ""
        ));
    }

    #[test]
    fn clones_elsewhere_or_packed_are_not() {
        assert!(!clones_profile_home(
            r#"Copy-Item "$from\Local State" "$env:TEMP\x\Local State" -Force"#,
            VARS
        ));
        assert!(!clones_profile_home(
            r#"copy "%LOCALAPPDATA%\Microsoft\Edge\User Data\Default\Cookies" "\\nas\drop\c""#,
            ""
        ));
        assert!(!clones_profile_home(
            "cp -R ~/.config/google-chrome/Default /tmp/c",
            ""
        ));
        // A variable assigned twice is not resolved.
        let twice = format!("{VARS}$to = \"\\\\nas\\drop\"\n");
        assert!(!clones_profile_home(
            r#"Copy-Item "$from\Local State" "$to\Local State""#,
            &twice
        ));
        assert!(!clones_profile_home(
            "cat ~/.config/google-chrome/Default/Cookies ~/x",
            ""
        ));
        assert!(packs("Compress-Archive -Path $to -DestinationPath $out"));
        assert!(packs("tar czf c.tgz ~/.cache/recorder"));
        assert!(!packs("robocopy a b /E\nStart-Sleep 3\n"));
    }
}
