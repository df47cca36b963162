//! Private keys and cloud credentials piped into an upload, to any address (round 36m,
//! `exfiltration.key-material-upload`).
//!
//! One shell command that reads key material — an SSH private key (`~/.ssh/id_*`, not `.pub`), the
//! system's password hashes (`/etc/shadow`, round 40m), a plain-text token store (`.npmrc`,
//! `.pypirc`, `.git-credentials`), a cloud or cluster credential file (`~/.aws/credentials`, gcloud's application-default
//! credentials, `~/.kube/config`, `~/.docker/config.json`, `~/.netrc`, a GnuPG private-key
//! folder) — and hands it to an upload: piped into `curl` with a body, form or upload flag
//! (`--data-binary @-`, `-F f=@-`, `-T -`), substituted into a `curl` address (`?d=$(cat …)`),
//! named as a file to post (`-d @~/.ssh/id_rsa`, `wget --post-file`), or piped into `nc` /
//! `socat`. A service that needs a key reads it where it lives; no tool sends its bytes in a
//! request, not even to this machine (a local address is where a proof of concept points what a
//! real one sends away, and a local forwarder can pass it on). The flow judges leave local
//! addresses alone; this rule does not, and it reads the line as the shell does
//! ([`super::disguise::plain_line`]: `cur\l`, `cu'r'l`, look-alike letters) with a command held in
//! a variable (`C=curl; … | $C …`) put back.
//!
//! Not judged: test files and detection signatures (their strings are specimens), a line that refuses or detects ("never", "do not", "detect", a pattern list's
//! `rule:`), a public key, `ssh -i key` (ssh reads the key to sign, the key does not leave), and a
//! line an earlier judge already found `critical`. Markdown is read in fenced blocks and in prose
//! lines alike (a command in prose is still an order). One pass over each file's lines: linear in
//! bytes.

use super::disguise::{Trick, command_words, plain_line};
use super::{Bundle, hosts_in, worst};
use crate::scan::content::{FileKind, Finding, evidence};
use crate::scan::rules::Severity;

/// Key material a line may read (lower-case path parts).
const KEYS: &[&str] = &[
    ".ssh/id_",
    ".ssh/identity",
    ".aws/credentials",
    "application_default_credentials",
    ".kube/config",
    ".docker/config.json",
    ".netrc",
    ".gnupg/private-keys",
    ".azure/accesstokens",
    // Round 40m: the system's password hashes and the stores that hold package-registry and git
    // tokens in plain text.
    "/etc/shadow",
    "/etc/gshadow",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    // Round 41m: the system's account list, sent whole to a computed host by install hooks.
    "/etc/passwd",
];

/// Words for this rule to read a file at all (`prose::reads_raw_text`).
pub(super) const RAW: &[&str] = &[
    ".ssh/",
    ".aws/",
    ".kube/",
    ".docker/",
    ".netrc",
    ".gnupg/",
    "/etc/shadow",
    "/etc/gshadow",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    "/etc/passwd",
];

/// Words that make a line a refusal, a check or a pattern list.
const NOT_ORDERS: &[&str] = &[
    "never",
    "do not",
    "don't",
    "must not",
    "should not",
    "avoid",
    "detect",
    "block",
    "flag",
    "rule:",
    "pattern",
    "regex",
    "example of",
];

/// Readers that put a file's bytes on a pipe or into a substitution.
const READERS: &[&str] = &[
    "cat ", "base64 ", "xxd", "tar ", "zip ", "gzip", "openssl ", "head ", "tail ", "< ", "$(<",
];

/// Where the key material is read on the (lowered, plain) line, and the path part it matched.
fn key_read(l: &str) -> Option<(usize, &'static str, bool)> {
    for k in KEYS {
        let mut from = 0;
        while let Some(p) = l[from..].find(k).map(|p| p + from) {
            from = p + k.len();
            let tail = &l[from..];
            let word_end = tail
                .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ')' | '|' | ';'))
                .unwrap_or(tail.len());
            if tail[..word_end].ends_with(".pub") {
                continue;
            }
            // The start of the path word: `@` before it names a file to post.
            let start = l[..p]
                .rfind(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | '='))
                .map_or(0, |s| s + 1);
            let word = &l[start..p];
            let before = l[..start].trim_end();
            let posted = word.starts_with('@')
                || before.ends_with("-file=")
                || before.ends_with("-file")
                || before.ends_with(" -t");
            let read = READERS.iter().any(|r| {
                l[..start]
                    .rfind(r)
                    .is_some_and(|q| !l[q..start].contains(['|', ';']))
            });
            let ssh_identity = l[..start].trim_end().ends_with(" -i") || l.contains("identityfile");
            if (posted || read) && !ssh_identity {
                return Some((p, k, posted));
            }
        }
    }
    None
}

/// Where an upload of the line's data starts, and the tool.
fn upload(plain: &str, l: &str) -> Option<(usize, &'static str)> {
    let mut words = command_words(plain);
    // Round 40m: a command opening a string literal of another language
    // (`subprocess.call("curl …", shell=True)`, `os.system('nc …')`) is still the command.
    for (p, _) in plain.match_indices(['"', '\'']) {
        let rest = &plain[p + 1..];
        let w: String = rest
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        if matches!(
            w.as_str(),
            "curl" | "wget" | "nc" | "ncat" | "netcat" | "socat" | "telnet"
        ) && rest[w.len()..].starts_with(' ')
        {
            words.push((p + 1, w));
        }
    }
    // Round 41m: a tool named by its full path (`sudo /usr/bin/curl --data @…`).
    for (path, tool) in [
        ("/curl ", "curl"),
        ("/wget ", "wget"),
        ("/nc ", "nc"),
        ("/ncat ", "ncat"),
        ("/socat ", "socat"),
    ] {
        for (p, _) in plain.match_indices(path) {
            if plain[..p]
                .rsplit([' ', '"', '\'', '(', '='])
                .next()
                .is_some_and(|w| w.is_empty() || w.starts_with('/'))
            {
                words.push((p + 1, tool.to_string()));
            }
        }
    }
    for (at, w) in words {
        let args_end = plain[at..].find(['|', ';']).map_or(plain.len(), |e| e + at);
        let args = &plain[at..args_end];
        let largs = &l[at..args_end];
        match w.as_str() {
            "curl" => {
                let flagged = args.split_whitespace().skip(1).any(|t| {
                    matches!(
                        t,
                        "--data"
                            | "--data-binary"
                            | "--data-raw"
                            | "--data-urlencode"
                            | "--form"
                            | "--upload-file"
                            | "--json"
                    ) || t.starts_with("--data")
                        || t.starts_with("--form")
                        || (t.starts_with('-')
                            && !t.starts_with("--")
                            && t[1..].chars().all(|c| c.is_ascii_alphabetic())
                            && t.contains(['d', 'F', 'T']))
                });
                let method = largs.contains("-x post") || largs.contains("-x put");
                if flagged || method || args.contains("$(") || args.contains('`') {
                    return Some((at, "curl"));
                }
            }
            "wget"
                if largs.contains("--post-")
                    || largs.contains("--body-")
                    || largs.contains("--method=p") =>
            {
                return Some((at, "wget"));
            }
            "nc" | "ncat" | "netcat" | "socat" | "telnet" => return Some((at, "nc")),
            _ => {}
        }
    }
    l.find("/dev/tcp/").map(|p| (p, "/dev/tcp"))
}

/// Simple assignments of a command to a variable (`C=curl`, `NC="nc"`), in file order.
fn command_vars(content: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if !content.contains('=') {
        return out;
    }
    for l in content.lines() {
        let l = l
            .trim()
            .trim_start_matches("export ")
            .trim_start_matches("local ");
        let Some((name, value)) = l.split_once('=') else {
            continue;
        };
        let value = value.trim_matches(|c| c == '"' || c == '\'');
        if !name.is_empty()
            && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
            && !name.as_bytes()[0].is_ascii_digit()
            && super::disguise::TOOLS.contains(&value)
        {
            out.push((name.to_string(), value.to_string()));
        }
    }
    out
}

/// The line with `$NAME` / `${NAME}` of a command variable put back.
fn put_back(line: &str, vars: &[(String, String)]) -> (String, bool) {
    let mut s = line.to_string();
    let mut changed = false;
    for (n, v) in vars {
        for form in [format!("${{{n}}}"), format!("${n}")] {
            let mut from = 0;
            while let Some(p) = s[from..].find(&form).map(|p| p + from) {
                let after = s.as_bytes().get(p + form.len());
                if form.ends_with('}')
                    || !after.is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                {
                    s.replace_range(p..p + form.len(), v);
                    changed = true;
                    from = p + v.len();
                } else {
                    from = p + form.len();
                }
            }
        }
    }
    (s, changed)
}

pub(super) fn key_material_upload(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for file in &b.files {
        if file.kind == FileKind::Text
            || file.place.test
            || file.place.signature
            || !RAW.iter().any(|w| file.lower_all().contains(w))
        {
            continue;
        }
        let vars = command_vars(file.content);
        for (i, raw) in file.content.lines().enumerate() {
            let (plain, tricks) = plain_line(raw);
            let lplain = crate::ascii_lowered(&plain).into_owned();
            if !KEYS.iter().any(|k| lplain.contains(k))
                || NOT_ORDERS.iter().any(|w| lplain.contains(w))
            {
                continue;
            }
            let (plain, via_var) = put_back(&plain, &vars);
            let l = crate::ascii_lowered(&plain).into_owned();
            let Some((key_at, key, posted)) = key_read(&l) else {
                continue;
            };
            let Some((up_at, tool)) = upload(&plain, &l) else {
                continue;
            };
            // The key's bytes reach the upload: piped into it, or read inside its arguments.
            let joined = if key_at < up_at {
                l[key_at..up_at].contains('|')
            } else {
                let between = &l[up_at..key_at];
                posted
                    || between.contains("$(")
                    || between.contains('`')
                    || between.ends_with('@')
                    || between.contains(" @")
                    || between.contains("=@")
            };
            if !joined {
                continue;
            }
            if out.iter().any(|f| {
                f.file == file.path
                    && f.line == i + 1
                    && f.severity == Severity::Critical
                    && f.category == "exfiltration"
            }) {
                continue;
            }
            let hosts = hosts_in(&plain);
            let to = worst(&hosts).map_or("an address the line does not show".to_string(), |h| {
                format!("{} ({})", h.host, h.class.phrase())
            });
            let mut how: Vec<&str> = tricks.iter().map(|t: &Trick| t.phrase()).collect();
            if via_var {
                how.push("the command held in a variable");
            }
            out.push(Finding {
                rule_id: "exfiltration.key-material-upload".into(),
                category: "exfiltration".into(),
                severity: Severity::Critical,
                file: file.path.into(),
                line: i + 1,
                evidence: evidence(raw, 0, raw.len()),
                description: format!(
                    "{}:{} reads key material (`{key}…`) and hands it to `{tool}`, which sends it to {to}{}. No tool needs a private key or a credential file sent in a request, not even to a local address: whoever receives it can sign in as the user. Do not install this skill.",
                    file.path,
                    i + 1,
                    if how.is_empty() {
                        String::new()
                    } else {
                        format!(" (the line is disguised: {})", how.join("; "))
                    }
                ),
                related: Vec::new(),
            });
        }
    }
}
