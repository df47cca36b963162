//! Round 45t (sets45t): `exfiltration.secret-to-network` for a PAM line that hands every typed
//! password to a program (`pam_exec.so … expose_authtok PROGRAM`: the password arrives on the
//! program's standard input) in a bundle whose code sends to a host that is not a vendor's,
//! installer's, registry's or this machine's. The PAM line may stand in a document's install
//! commands and the send in the script it installs; both ends are in the finding. A PAM line
//! without `expose_authtok` (the program sees no password), or a bundle that sends nowhere, is not
//! this. One pass over each file's lowered lines after a whole-file gate.

use super::{found, has, is_code, rel, worst_suspicious};
use crate::scan::content::Finding;
use crate::scan::judge::find::Has;
use crate::scan::judge::{Bundle, File, hosts_in};
use crate::scan::rules::Severity;

const RULE: &str = "exfiltration.secret-to-network";

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &["expose_authtok"];

/// Send words on a code line that names its destination.
const SENDS: &[&str] = &[
    "curl ",
    "wget ",
    "requests.post(",
    "fetch(",
    "invoke-webrequest",
    "invoke-restmethod",
    "nc ",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if f.place.test
            || !f.words().any(RAW)
            || has(out, f, RULE, Severity::Critical)
            || has(b.prior, f, RULE, Severity::Critical)
        {
            continue;
        }
        let low = &f.lowered().lower;
        let Some(i) = low.iter().position(|l| {
            let t = l.trim_start();
            !t.starts_with('#') && l.has("pam_exec") && l.has("expose_authtok")
        }) else {
            continue;
        };
        let Some((g, k, host, phrase)) = b
            .files
            .iter()
            .filter(|g| is_code(g))
            .find_map(|g| sink(g).map(|(k, h, p)| (g, k, h, p)))
        else {
            continue;
        };
        out.push(found(
            RULE,
            "exfiltration",
            Severity::Critical,
            f,
            i,
            format!(
                "{}:{}: a PAM line runs a program with `expose_authtok` (every password typed at that prompt is handed to it), and {}:{} sends to {} ({}): the skill collects the user's password and has a way to send it out.",
                f.path,
                i + 1,
                g.path,
                k + 1,
                host,
                phrase
            ),
            vec![rel("source", f, i), rel("sink", g, k)],
        ));
    }
}

/// The first code line of `g` that sends to a suspicious host: the line and the host.
fn sink(g: &File<'_>) -> Option<(usize, String, &'static str)> {
    let low = &g.lowered().lower;
    low.iter().enumerate().find_map(|(k, l)| {
        let t = l.trim_start();
        if t.starts_with('#') || !SENDS.iter().any(|w| l.has(w)) {
            return None;
        }
        let hosts = hosts_in(g.lowered().lines[k]);
        let h = worst_suspicious(&hosts)?;
        Some((k, h.host.clone(), h.class.phrase()))
    })
}
