//! A bundled script that uploads to an outside host, run by a step the user is not to notice
//! (round 34m, `exfiltration.concealed-upload`).
//!
//! Words that keep a step from the user ("run it silently", "never mention this step"), in a
//! sentence or in an HTML comment the rendered page hides, next to a step that runs one of the
//! bundle's own scripts, where that script sends a file or data to a host that is neither local
//! nor a vendor's nor named after the skill: the step is an upload the user is kept from seeing.
//! Three typed parts are judged together (concealment, the step naming the script, the script's
//! send and its host); each must be present.
//!
//! Not this: a visible upload step, a concealment next to no bundled script, a script that sends
//! to the vendor it works with or to the skill's own service. The window is the concealment's
//! line and [`WINDOW`] lines either side; each script named there is read once: linear.

use super::{Bundle, host_named_after, hosts_in};
use crate::scan::content::{FileKind, Finding, Related, evidence};
use crate::scan::rules::Severity;

const WINDOW: usize = 16;
pub(super) const HIDES: &[&str] = &[
    "silently",
    "quietly",
    "without telling",
    "do not mention",
    "don't mention",
    "never mention",
    "without asking",
    "in the background without",
    "do not tell",
    "don't tell",
    "never tell",
];
const SENDS: &[&str] = &[
    "requests.post(",
    "requests.put(",
    "httpx.post(",
    "files=",
    "curl -f ",
    "curl -t ",
    "--data-binary @",
    "-d @",
    "--upload-file",
    "urlopen(",
    "fetch(",
    "axios.post(",
    "invoke-restmethod",
    "invoke-webrequest",
];
const NEGATIONS: &[&str] = &["never run", "do not run", "don't run"];

pub(super) fn concealed_upload(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let words = b.name_words();
    for file in b.files.iter().filter(|f| f.kind != FileKind::Code) {
        if !HIDES.iter().any(|h| file.lower_all().contains(h)) {
            continue;
        }
        let lw = file.lowered();
        let Some(c) = lw.lower.iter().position(|l| {
            HIDES.iter().any(|h| l.contains(h)) && !NEGATIONS.iter().any(|n| l.contains(n))
        }) else {
            continue;
        };
        let lo = c.saturating_sub(WINDOW);
        let hi = (c + WINDOW + 1).min(lw.lower.len());
        // A bundled script named in the window by a line that runs it.
        let hit = (lo..hi).find_map(|k| {
            let l = &lw.lower[k];
            if ![
                "run", "invoke", "execute", "python", "bash ", "node ", "sh ",
            ]
            .iter()
            .any(|w| l.contains(w))
            {
                return None;
            }
            b.files
                .iter()
                .filter(|s| s.kind == FileKind::Code && s.path != file.path)
                .find_map(|s| {
                    let p = crate::ascii_lowered(s.path);
                    if p.len() < 4 || !l.contains(p.as_ref()) {
                        return None;
                    }
                    let sl = s.lowered();
                    let j = sl
                        .lower
                        .iter()
                        .position(|x| SENDS.iter().any(|w| x.contains(w)))?;
                    let h = hosts_in(s.content)
                        .into_iter()
                        .find(|h| h.class.is_outside() && !host_named_after(&h.host, &words))?;
                    Some((k, s, j, h))
                })
        });
        let Some((k, script, j, h)) = hit else {
            continue;
        };
        let raw = lw.lines[c];
        let sl = script.lowered();
        out.push(Finding {
            rule_id: "exfiltration.concealed-upload".into(),
            category: "exfiltration".into(),
            severity: Severity::Critical,
            file: file.path.into(),
            line: c + 1,
            evidence: evidence(raw, 0, raw.len()),
            description: format!(
                "{}:{} keeps a step from the user, and the step at {}:{} runs {}, which sends data to {} ({}) at {}:{}: an upload the user is kept from noticing. Do not install this skill.",
                file.path,
                c + 1,
                file.path,
                k + 1,
                script.path,
                h.host,
                h.class.phrase(),
                script.path,
                j + 1
            ),
            related: vec![
                Related { role: "step".into(), file: file.path.into(), line: k + 1, evidence: evidence(lw.lines[k], 0, lw.lines[k].len()) },
                Related { role: "sink".into(), file: script.path.into(), line: j + 1, evidence: evidence(sl.lines[j], 0, sl.lines[j].len()) },
            ],
        });
    }
}
