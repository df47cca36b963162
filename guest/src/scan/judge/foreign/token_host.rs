//! `exfiltration.token-to-unrelated-host` (`critical`): a request that carries an environment
//! variable holding a credential (a name ending in `TOKEN`, `KEY`, `SECRET`, `PASSWORD`, `PAT`)
//! to a fixed outside host that shares no word with the skill's name, its description's service
//! or the variable's own name. An API client sends its own token to its own service, and that
//! service is what the skill is named after, what its description names, or what the key is
//! named after (`STATUSBEAM_TOKEN` → `api.statusbeam…`); a token sent anywhere else is taken.
//! Not judged: local hosts, vendors, registries and installers (a vendor-named key sent to a
//! different vendor is the key-to-foreign-host rule's), and a line that only prints or compares.

use super::super::shapes::{found, has, is_code, rel};
use super::super::{Bundle, File, hosts_in};
use super::{foreign, own_host, own_words, sample_file};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

const RULE: &str = "exfiltration.token-to-unrelated-host";
/// Lines around the variable within which the request is looked for.
const NEAR: usize = 3;

/// How code reads an environment variable (lowered), each followed by the name.
const READS: &[&str] = &[
    "${",
    "$",
    "process.env.",
    "os.environ[\"",
    "os.environ['",
    "os.environ.get(\"",
    "os.environ.get('",
    "os.getenv(\"",
    "os.getenv('",
    "$env:",
    "env::var(\"",
    "system.getenv(\"",
    "deno.env.get(\"",
    // Round 41t: k6 (`__ENV.X`), Postman scripts (`pm.environment.get('X')`), Lisp/Racket
    // (`(getenv "X")`, `(sb-ext:posix-getenv "X")`), C, PHP and R (`getenv("X")`), Ruby/Crystal
    // (`ENV["X"]`), Erlang (`os:getenv("X")`).
    "__env.",
    "pm.environment.get('",
    "pm.environment.get(\"",
    "getenv \"",
    "getenv(\"",
    "getenv('",
    "env[\"",
    "env['",
];
const ENDS: &[&str] = &["token", "key", "secret", "password", "pat", "apikey"];
const SENDS: &[&str] = &[
    "curl ",
    "wget ",
    "fetch(",
    "requests.",
    "httpx.",
    "http.post",
    "http.get",
    "http.newrequest",
    "invoke-restmethod",
    "invoke-webrequest",
    "axios",
    "urlopen(",
    "urllib.request",
    // Round 41t: Postman's `pm.sendRequest`, Common Lisp's drakma `http-request`, Racket's
    // `string->url` / `get-pure-port`, Erlang's `httpc:request`.
    "sendrequest(",
    "http-request",
    "string->url",
    "pure-port",
    "httpc:request",
    // Round 48t: the JVM's `HttpRequest.newBuilder(URI.create(…))` (Java 11+, Kotlin), .NET's
    // `WebClient.UploadString` / `DownloadString`.
    "httprequest.newbuilder(",
    "uploadstring(",
    "downloadstring(",
];

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &["token", "_key", "secret", "password"];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = own_words(b);
    for f in &b.files {
        if sample_file(f) || !is_code(f) || has(out, f, "exfiltration.", Severity::Critical) {
            continue;
        }
        if let Some(x) = token_sent(f, &words) {
            out.push(x);
        }
    }
}

/// The credential variables a lowered line reads.
fn secret_vars(l: &str) -> Vec<String> {
    let mut out = Vec::new();
    for r in READS {
        let mut from = 0;
        while let Some(i) = l[from..].find(r).map(|i| i + from) {
            from = i + r.len();
            let name: String = l[from..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let last = name.rsplit('_').next().unwrap_or("");
            if name.len() >= 5
                && (ENDS.contains(&last) || name.ends_with("apikey") || name.ends_with("token"))
                && !out.contains(&name)
            {
                out.push(name);
            }
        }
    }
    out
}

fn token_sent(f: &File<'_>, words: &[String]) -> Option<Finding> {
    let all = f.lower_all();
    if !RAW.iter().any(|w| all.contains(w)) || !SENDS.iter().any(|w| all.contains(w)) {
        return None;
    }
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        if l.starts_with('#')
            || l.starts_with("//")
            || l.starts_with("echo ")
            || l.starts_with("print")
        {
            continue;
        }
        let vars = secret_vars(l);
        if vars.is_empty() {
            continue;
        }
        // The key's own words name its service too (`STATUSBEAM_TOKEN` → `statusbeam`), in any
        // label of the host (`PROFILE_SYNC_TOKEN` to `profile-sync.cloudsave.io`): a key named
        // after its destination.
        let key_words: Vec<&str> = vars
            .iter()
            .flat_map(|v| v.split('_'))
            .filter(|t| t.len() >= 4 && !matches!(*t, "token" | "secret" | "access" | "auth"))
            .collect();
        let from = i.saturating_sub(NEAR);
        let to = (i + NEAR + 1).min(low.len());
        for (k, near) in low.iter().enumerate().take(to).skip(from) {
            if !SENDS.iter().any(|s| near.contains(s)) {
                continue;
            }
            let line = f.lowered().lines[k];
            let Some(h) = hosts_in(line).into_iter().find(|h| h.url.contains("://")) else {
                continue;
            };
            // The request's own host decides: a vendor's or the skill's own service is the job.
            let named_by_key = h.host.split(['.', '-']).any(|l| key_words.contains(&l));
            // Round 46b: the host written from the key's own vendor's site (`api.<DD_SITE>`, or a
            // local alias of `$DD_SITE`) is no fixed outside host.
            let vendor_site = vars.iter().any(|v| {
                crate::scan::judge::secrets::site_alias::own_site(
                    &v.to_ascii_uppercase(),
                    line,
                    f.content,
                )
                .is_some()
            });
            if !foreign(&h) || own_host(&h, words) || named_by_key || vendor_site {
                continue;
            }
            let related = if k == i {
                vec![]
            } else {
                vec![rel("credential", f, i)]
            };
            return Some(found(
                RULE,
                "exfiltration",
                Severity::Critical,
                f,
                k,
                format!(
                    "A request carries the credential `{}` (line {}) to {} ({}), a host that shares no word with the skill's name, its description or the key's name: an API client sends its token to its own service, not to this one.",
                    vars[0].to_ascii_uppercase(),
                    i + 1,
                    h.host,
                    h.class.phrase()
                ),
                related,
            ));
        }
    }
    None
}
