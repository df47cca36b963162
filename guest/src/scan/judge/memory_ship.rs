//! Round 34t: `exfiltration.agent-memory-staged` — the agent's memory or identity files (MEMORY.md,
//! SOUL.md, CLAUDE.md, session logs) copied into a hidden or temporary place that then leaves the
//! machine: sent by a later command that names that place, or sitting inside a synced or shared
//! folder. Memory skills edit and back up these files in plain sight; staging them out of view
//! before they go elsewhere is the covert copy the issue names. Both ends are in the finding.
//!
//! One pass over the file's facts; each copy line is tokenised once (linear in bytes).

use super::flow::{names_key, path_key};
use super::{At, Bundle, finding};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// Where a copy command on `line` puts its files: the last operand of `cp`/`rsync`/`ditto`/
/// `Copy-Item`/`install`, or the second argument of `shutil.copy*(…)`.
fn copy_destination(line: &str) -> Option<String> {
    if let Some(i) = line.find("shutil.copy") {
        let args = line[i..].split_once('(')?.1;
        let second = args.split(',').nth(1)?;
        let d = second.split(')').next()?.trim();
        return (!d.is_empty()).then(|| d.to_owned());
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    if let Some(archive) = archive_destination(&words) {
        return Some(archive);
    }
    let start = words.iter().position(|w| {
        matches!(
            w.rsplit('/').next().unwrap_or(w),
            "cp" | "rsync" | "ditto" | "Copy-Item" | "copy" | "install"
        )
    })?;
    let mut operands = Vec::new();
    for w in &words[start + 1..] {
        if matches!(*w, ";" | "&&" | "||" | "|") || w.ends_with(';') && operands.len() >= 2 {
            break;
        }
        if w.starts_with('-') || w.contains('>') || w.starts_with('<') {
            continue;
        }
        operands.push(w.trim_end_matches(';'));
    }
    (operands.len() >= 2).then(|| operands[operands.len() - 1].to_owned())
}

/// Round 36t: where an archiver puts the files it packs — `tar -czf ARCHIVE …` / `tar czf ARCHIVE`
/// / `tar --file=ARCHIVE`, `zip [-r] ARCHIVE …`, `7z a ARCHIVE …`: packing the memory files into an
/// archive is copying them into that archive.
fn archive_destination(words: &[&str]) -> Option<String> {
    let at = words.iter().position(|w| {
        matches!(
            w.rsplit('/').next().unwrap_or(w),
            "tar" | "zip" | "7z" | "7za"
        )
    })?;
    let tool = words[at].rsplit('/').next().unwrap_or(words[at]);
    let rest = &words[at + 1..];
    let clean = |w: &str| w.trim_end_matches(';').to_owned();
    match tool {
        "tar" => {
            for (i, w) in rest.iter().enumerate() {
                if let Some(f) = w.strip_prefix("--file=") {
                    return Some(clean(f));
                }
                // The bundled short options (`czf`, `-cvzf`): `f` takes the next word; only a
                // create (`c`) packs files.
                let opts = w.trim_start_matches('-');
                let bundled = i == 0 || w.starts_with('-') && !w.starts_with("--");
                if bundled
                    && !opts.is_empty()
                    && opts.chars().all(|c| c.is_ascii_alphabetic())
                    && opts.contains('c')
                    && opts.ends_with('f')
                {
                    return rest.get(i + 1).map(|d| clean(d));
                }
            }
            None
        }
        "7z" | "7za" => (rest.first() == Some(&"a"))
            .then(|| {
                rest.iter()
                    .skip(1)
                    .find(|w| !w.starts_with('-'))
                    .map(|d| clean(d))
            })
            .flatten(),
        _ => rest.iter().find(|w| !w.starts_with('-')).map(|d| clean(d)),
    }
}

/// Whether a destination path is out of the user's view: a hidden folder (`.cache`, `.sync`) or a
/// temporary one.
fn out_of_view(dest: &str) -> bool {
    let d = dest.trim_matches(['"', '\'']);
    d.split(['/', '\\']).any(|c| {
        let c = c.to_ascii_lowercase().replace(['{', '}'], "");
        matches!(
            c.as_str(),
            "tmp" | "temp" | "$tmpdir" | "$tmp" | "$temp" | "%temp%" | "$env:temp"
        ) || c.len() > 1 && c.starts_with('.') && c != ".."
    })
}

/// Whether a destination sits in a folder other machines or people read (cloud sync, public share).
fn shared_folder(dest: &str) -> bool {
    let d = crate::ascii_lowered(dest);
    [
        "dropbox",
        "/public",
        "icloud",
        "mobile documents",
        "google drive",
        "googledrive",
        "onedrive",
        "nextcloud",
        "syncthing",
    ]
    .iter()
    .any(|w| d.contains(w))
}

pub(super) fn agent_memory_staged(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        for src in b.in_file(file, FactKind::SecretFile) {
            if src.fact.prose || b.tag(src.fact) != "agent-memory" {
                continue;
            }
            let text = src.text();
            let Some(dest) = copy_destination(&text) else {
                continue;
            };
            if !out_of_view(&dest) {
                continue;
            }
            // A folder written with its trailing slash (`cp f ~/drop/`) is named without it later.
            let key = path_key(dest.trim_end_matches(['/', '\\'])).unwrap_or_default();
            let send: Option<At<'_>> = b.in_file(file, FactKind::NetSend).find(|s| {
                s.fact.line > src.fact.line && !key.is_empty() && names_key(&s.text(), &key)
            });
            let shared = shared_folder(&dest);
            if send.is_none() && !shared {
                continue;
            }
            let why = match &send {
                Some(s) => format!(
                    "The agent's memory or identity files are copied into {dest}, a hidden or temporary place, at {}, and that place is sent off the machine at {}: a covert copy of what the agent knows about the user. Do not install this skill.",
                    src.place(),
                    s.place()
                ),
                None => format!(
                    "The agent's memory or identity files are copied into {dest} at {}, a hidden folder inside a synced or shared one: a covert copy of what the agent knows about the user. Do not install this skill.",
                    src.place()
                ),
            };
            let (at, related) = match send {
                Some(s) => (s, vec![src.related("source")]),
                None => (src, Vec::new()),
            };
            out.push(finding(
                "exfiltration.agent-memory-staged",
                "exfiltration",
                Severity::Critical,
                at,
                why,
                related,
            ));
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archive_destinations() {
        let d = |l: &str| copy_destination(l);
        assert_eq!(
            d("tar czf /tmp/.m.tgz -C \"$HOME\" .claude/CLAUDE.md").as_deref(),
            Some("/tmp/.m.tgz")
        );
        assert_eq!(
            d("tar -cvzf \"$OUT\" MEMORY.md").as_deref(),
            Some("\"$OUT\"")
        );
        assert_eq!(
            d("zip -r ~/.cache/m.zip MEMORY.md").as_deref(),
            Some("~/.cache/m.zip")
        );
        // Listing or unpacking an archive packs nothing.
        assert_eq!(d("tar -tzf notes.tgz"), None);
        assert_eq!(d("tar xzf /tmp/a.tgz -C ."), None);
    }

    #[test]
    fn copy_destinations_and_views() {
        assert_eq!(
            copy_destination("cp a/MEMORY.md b/SOUL.md ~/x/.stage/ 2>/dev/null").as_deref(),
            Some("~/x/.stage/")
        );
        assert_eq!(
            copy_destination("shutil.copy(mem, \"/tmp/m.md\")").as_deref(),
            Some("\"/tmp/m.md\"")
        );
        assert_eq!(copy_destination("cat MEMORY.md"), None);
        assert!(out_of_view("/tmp/m.md") && out_of_view("~/Public/.cache/"));
        assert!(!out_of_view("~/backups/memory/") && !out_of_view("../notes"));
        assert!(shared_folder("~/Dropbox/x") && !shared_folder("~/backups"));
    }
}
