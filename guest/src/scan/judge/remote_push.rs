//! Round 36t: an `scp`/`rsync` that pushes a local file to another machine (`scp FILE
//! user@host:dir/`) sends that file's bytes: the secret judges read it as a send with a body, like a
//! `curl --upload-file`. A copy from a remote machine to here (`scp host:f .`) sends nothing.

/// Options of `scp`/`rsync` that take the next word as their value.
const VALUED: &[&str] = &["-i", "-P", "-p", "-o", "-F", "-c", "-l", "-S", "-J", "-e"];

/// Whether a (shell) line pushes a local file to a remote `host:path` with `scp` or `rsync`.
pub(super) fn pushes_local_file(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(at) = words.iter().position(|w| {
        matches!(
            w.trim_start_matches(['(', '`'])
                .rsplit('/')
                .next()
                .unwrap_or(w),
            "scp" | "rsync"
        )
    }) else {
        return false;
    };
    let mut operands: Vec<&str> = Vec::new();
    let mut skip = false;
    for w in &words[at + 1..] {
        if matches!(*w, ";" | "&&" | "||" | "|") {
            break;
        }
        if skip {
            skip = false;
            continue;
        }
        if w.starts_with('-') {
            skip = VALUED.contains(w);
            continue;
        }
        operands.push(w.trim_matches(['"', '\'', ';', ')']));
    }
    let remote = |w: &str| {
        !w.contains("://")
            && w.split_once(':').is_some_and(|(h, _)| {
                h.len() > 1 && !h.starts_with('$') && !h.contains('/') && !h.is_empty()
            })
    };
    match operands.split_last() {
        Some((last, sources)) => {
            remote(last) && !sources.is_empty() && sources.iter().all(|s| !remote(s))
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::pushes_local_file;

    #[test]
    fn pushes_and_pulls() {
        assert!(pushes_local_file(
            "scp -q \"$ARCHIVE\" drop@backup.example.org:/in/"
        ));
        assert!(pushes_local_file(
            "rsync -az -e ssh out.tgz host.example.net:backups/"
        ));
        assert!(!pushes_local_file(
            "scp deploy@host.example.net:/var/log/app.log ./logs/"
        ));
        assert!(!pushes_local_file("rsync -a ./src/ ./dist/"));
        assert!(!pushes_local_file("echo done"));
    }
}
