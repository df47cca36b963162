//! Round 39t (sets39t): deletions and disk overwrites in shapes the line rules do not read.
//!
//! - `destructive.rm-system-parts`: a recursive `rm` of a whole operating-system folder one level
//!   below a system root (`/usr/share`, `/usr/lib`, `/etc/ssl`, `/var/lib`…), outside a container
//!   image build; an install prefix (`/usr/local/…`, `/opt/…`) or anything deeper
//!   (`/var/lib/apt/lists/*`) is an uninstall or a cache cleanup, not this. Also the same folders
//!   deleted below the mount point of a pod volume that mounts the node's root (`hostPath` `path: /`).
//! - `destructive.dd-to-device`: `dd` writing zeros or random bytes (`if=/dev/zero`,
//!   `/dev/urandom`) to a device whose name is substituted at run time (`of=/dev/%k`,
//!   `of=/dev/$DEV`): whatever disk triggers it is erased.

use super::{found, has, is_code};
use crate::scan::content::Finding;
use crate::scan::judge::{Bundle, File};
use crate::scan::rules::Severity;

/// System folders whose whole deletion breaks the system (`/etc` and the roots themselves are the
/// older rules').
const PARTS: &[&str] = &[
    "/usr/share",
    "/usr/lib",
    "/usr/lib64",
    "/usr/bin",
    "/usr/sbin",
    "/usr/include",
    "/etc/ssl",
    "/etc/ssh",
    "/etc/pam.d",
    "/etc/systemd",
    "/etc/sudoers.d",
    "/etc/apt",
    "/var/lib",
    "/var/log",
    "/lib/modules",
    "/boot/efi",
];
/// Top-level system folders (deleted below a mounted node root).
const ROOTS: &[&str] = &[
    "etc", "usr", "var", "boot", "bin", "sbin", "lib", "root", "home",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if !is_code(f)
            || has(out, f, "destructive.", Severity::Critical)
            || has(b.prior, f, "destructive.", Severity::Critical)
        {
            continue;
        }
        out.extend(system_parts(f).or_else(|| device_wipe(f)));
    }
}

/// Whether `name` is a container image build file (its deletes happen inside the image).
fn image_build(f: &File<'_>) -> bool {
    let name = f
        .path
        .rsplit('/')
        .next()
        .unwrap_or(f.path)
        .to_ascii_lowercase();
    name == "dockerfile" || name == "containerfile" || name.ends_with(".dockerfile")
}

/// The paths a recursive `rm` line deletes.
fn rm_targets(l: &str) -> Option<Vec<&str>> {
    let at = l.find("rm ")?;
    let args = &l[at + 3..];
    let flags: Vec<&str> = args
        .split_whitespace()
        .take_while(|t| t.starts_with('-'))
        .collect();
    let recursive = flags.iter().any(|t| {
        (!t.starts_with("--") && (t.contains('r') || t.contains('R'))) || *t == "--recursive"
    });
    if !recursive {
        return None;
    }
    Some(
        args.split(|c: char| c.is_whitespace() || c == ';' || c == '&' || c == '|')
            .map(|t| t.trim_matches(|c| c == '"' || c == '\'' || c == ',' || c == ']'))
            .filter(|t| t.starts_with('/'))
            .collect(),
    )
}

fn system_parts(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    let mounts = root_mounts(low);
    let image = image_build(f);
    for (i, l) in low.iter().enumerate() {
        let Some(targets) = rm_targets(l) else {
            continue;
        };
        let hit = targets.iter().find(|t| {
            let t = t.trim_end_matches('/');
            let t = t.strip_suffix("/*").unwrap_or(t);
            (!image && PARTS.contains(&t))
                || mounts.iter().any(|m| {
                    t.strip_prefix(m.as_str())
                        .and_then(|r| r.strip_prefix('/'))
                        .is_some_and(|r| ROOTS.contains(&r.split('/').next().unwrap_or("")))
                })
        });
        if let Some(t) = hit {
            let what = if mounts.iter().any(|m| t.starts_with(m.as_str())) {
                format!("`{t}`, a system folder of the node whose root this pod mounts,")
            } else {
                format!("`{t}`, a whole folder of the operating system,")
            };
            return Some(found(
                "destructive.rm-system-parts",
                "destructive",
                Severity::Critical,
                f,
                i,
                format!(
                    "A recursive delete at line {} removes {what} which breaks the machine.",
                    i + 1
                ),
                vec![],
            ));
        }
    }
    None
}

/// Mount points of volumes that mount the node's root (`hostPath:` with `path: /`): the pod's
/// `mountPath:` values when the file holds such a volume.
fn root_mounts(low: &[String]) -> Vec<String> {
    let root = low.iter().enumerate().any(|(i, l)| {
        l.trim() == "hostpath:"
            && low[i + 1..(i + 3).min(low.len())].iter().any(|t| {
                let v = t.trim().strip_prefix("path:").map(str::trim);
                v.is_some_and(|v| v.trim_matches(['"', '\'']) == "/")
            })
    });
    if !root {
        return Vec::new();
    }
    low.iter()
        .filter_map(|l| l.trim().strip_prefix("mountpath:"))
        .map(|v| {
            v.trim()
                .trim_matches(['"', '\''])
                .trim_end_matches('/')
                .to_owned()
        })
        .filter(|v| v.len() > 1)
        .collect()
}

fn device_wipe(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        let Some(at) = l.find("dd ") else {
            continue;
        };
        let rest = &l[at..];
        let zeros = ["if=/dev/zero", "if=/dev/urandom", "if=/dev/random"]
            .iter()
            .any(|w| rest.contains(w));
        let Some(o) = rest.find("of=/dev/") else {
            continue;
        };
        let dev = &rest[o + 8..];
        let substituted = dev.starts_with(['%', '$', '{']);
        if zeros && substituted {
            return Some(found(
                "destructive.dd-to-device",
                "destructive",
                Severity::Critical,
                f,
                i,
                format!(
                    "Line {} writes zeros or random bytes with `dd` over a disk device named at run time: whatever disk it is given is erased.",
                    i + 1
                ),
                vec![],
            ));
        }
    }
    None
}
