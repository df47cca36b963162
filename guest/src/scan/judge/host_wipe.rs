//! The host's root folder mounted into a container and deleted there (round 41m,
//! `destructive.host-root-wipe`).
//!
//! A container cannot reach the host's files unless the host's folder is mounted into it: a
//! Kubernetes `hostPath` of `/`, or `docker run -v /:/host`. A wiper mounts the host's root and
//! deletes what is under the mount point (`find /mnt/host -maxdepth 1 -exec rm -rf {} +`), which
//! is deleting every file of the node. A log shipper mounts `/var/log` and deletes nothing; a cleanup
//! job that deletes its own scratch folder does not mount the host's root.
//!
//! Facts, in one file: the host's root mounted (a `hostPath:` whose `path:` within three lines is
//! `/`, or a `-v /:<dir>` / `--volume /:<dir>`); the mount points the file names (`mountPath:`
//! values, the `<dir>` of `-v`); and a deletion (`rm -rf`, `rm -fr`, `-exec rm`, `-delete`,
//! `shred`) of one of those mount points or what is under it. Judged `critical` at the deletion.
//! One pass over the lowered lines to collect, one to find the deletion.

use super::Bundle;
use super::shapes::{found, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const DELETES: &[&str] = &[
    "rm -rf", "rm -fr", "rm -r -f", "-exec rm", "-delete", "shred ",
];

/// Words for this rule to read a file at all (`prose::reads_raw_text`).
pub(super) const RAW: &[&str] = &["hostpath", "-v /:", "--volume /:"];

fn value_of<'l>(l: &'l str, key: &str) -> Option<&'l str> {
    let rest = l.trim_start_matches("- ").strip_prefix(key)?;
    Some(rest.trim().trim_matches(['"', '\'']))
}

pub(super) fn host_root_wipe(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in b
        .files
        .iter()
        .filter(|f| !f.place.test && !f.place.signature)
    {
        let all = file.lower_all();
        if !RAW.iter().any(|w| all.contains(w)) || !DELETES.iter().any(|w| all.contains(w)) {
            continue;
        }
        let lw = file.lowered();
        let n = lw.lower.len();
        let mut root_at: Option<usize> = None;
        let mut mounts: Vec<String> = Vec::new();
        for i in 0..n {
            let l = &lw.lower[i];
            if (l.starts_with("hostpath:") || l.starts_with("- hostpath:"))
                && (i..(i + 4).min(n)).any(|k| value_of(&lw.lower[k], "path:") == Some("/"))
            {
                root_at.get_or_insert(i);
            }
            if let Some(m) = value_of(l, "mountpath:").filter(|m| m.len() > 1 && m.starts_with('/'))
            {
                mounts.push(m.trim_end_matches('/').to_string());
            }
            for flag in ["-v /:", "--volume /:", "--volume=/:"] {
                if let Some(p) = l.find(flag) {
                    let dir: String = l[p + flag.len()..]
                        .chars()
                        .take_while(|c| !c.is_whitespace() && !matches!(c, ':' | '"' | '\''))
                        .collect();
                    if dir.len() > 1 {
                        root_at.get_or_insert(i);
                        mounts.push(dir.trim_end_matches('/').to_string());
                    }
                }
            }
        }
        let Some(root) = root_at else {
            continue;
        };
        if mounts.is_empty() {
            continue;
        }
        // A line another rule already judges a critical deletion (system parts named) keeps that finding.
        let judged = |i: usize| {
            b.prior.iter().chain(out.iter()).any(|f| {
                f.file == file.path
                    && f.line == i + 1
                    && f.category == "destructive"
                    && f.severity == Severity::Critical
            })
        };
        let hit = (0..n).find(|&i| {
            let l = &lw.lower[i];
            !judged(i)
                && DELETES.iter().any(|d| l.contains(d))
                && mounts.iter().any(|m| {
                    l.match_indices(m.as_str()).any(|(p, _)| {
                        l[p + m.len()..].chars().next().is_none_or(|c| {
                            c.is_whitespace() || matches!(c, '/' | '*' | '"' | '\'')
                        })
                    })
                })
        });
        let Some(i) = hit else {
            continue;
        };
        out.push(found(
            "destructive.host-root-wipe",
            "destructive",
            Severity::Critical,
            file,
            i,
            format!(
                "{}:{}: the host's root folder is mounted into a container (line {}) and the command deletes what is under the mount point: every file of the host machine or node. Do not install this skill.",
                file.path,
                i + 1,
                root + 1
            ),
            vec![rel("host root mounted", file, root)],
        ));
    }
}
