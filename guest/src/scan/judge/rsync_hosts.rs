//! rsync daemon destinations written `host::module/path` (round 50k): the host of such an operand
//! is a destination like a URL's, for [`super::hosts_in`]. (`rsync://host/module` is a URL and
//! read as one already.)

use super::Host;
use crate::scan::hosts::classify;

/// Push the hosts of `host::module` operands on lines that run `rsync` in `text` onto `out`
/// (once each). A host needs a dot, so `std::fs` and `Foo::Bar` are never read as one.
pub(super) fn rsync_module_hosts(text: &str, out: &mut Vec<Host>) {
    if memchr::memmem::find(text.as_bytes(), b"::").is_none() {
        return;
    }
    for line in text.lines().filter(|l| l.contains("rsync")) {
        for word in line.split_whitespace() {
            let word = word.trim_matches(['"', '\'']);
            let Some((host, module)) = word.split_once("::") else {
                continue;
            };
            let host = host.rsplit('@').next().unwrap_or(host);
            let plain = !host.is_empty()
                && host
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-'));
            if !plain
                || !host.contains('.')
                || host.starts_with(['.', '-'])
                || !module.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '/')
            {
                continue;
            }
            let host = host.to_ascii_lowercase();
            if !out.iter().any(|h| h.host == host) {
                out.push(Host {
                    class: classify(&host, ""),
                    url: word.to_owned(),
                    host,
                    path: String::new(),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::rsync_module_hosts;

    #[test]
    fn daemon_module_operands_name_their_host() {
        let mut out = Vec::new();
        rsync_module_hosts("rsync -a ./out/ files.example.net::share/site/", &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].host, "files.example.net");
        let mut none = Vec::new();
        rsync_module_hosts(
            "use std::fs::File; // rsync helper\nlet p = self.cfg::<T>();\nrsync -a a/ b/",
            &mut none,
        );
        rsync_module_hosts("cargo build -p a::b.c", &mut none);
        assert!(none.is_empty(), "{none:?}");
    }
}
