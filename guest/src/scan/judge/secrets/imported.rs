//! A secret one module reads into a name and another module, which imports that name, sends: the
//! settings module's `DATABASE_URL = os.environ[…]` posted by the main module (`from .config import
//! DATABASE_URL`), `TOKEN = os.getenv(…)` read as `settings.TOKEN` into a request body, a config
//! object's `url: process.env.DATABASE_URL` destructured from `require('./cfg')`. Judged like a flow
//! within one file (the key's name against the destination), with both ends in the evidence.

use super::{capitalize, decide, destination};
use crate::scan::content::{FileKind, Finding};
use crate::scan::facts::FactKind;
use crate::scan::judge::flow::FileFlow;
use crate::scan::judge::flow::exports::{Carried, exports, import_lines, imported};
use crate::scan::judge::{At, Bundle, finding};
use crate::scan::rules::Severity;

/// Lines of a request (its first and the options that follow) searched for the imported name.
const REQUEST_LINES: usize = 6;
/// Requests per file looked at.
const MAX_SINKS: usize = 16;

pub(super) fn imported_secrets(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    if out
        .iter()
        .any(|f| f.category == "exfiltration" && f.severity == Severity::Critical)
    {
        return;
    }
    let table = exports(b, flows, Carried::Secret);
    if table.is_empty() {
        return;
    }
    for (j, (file, flow)) in b.files.iter().zip(flows).enumerate() {
        if file.kind != FileKind::Code {
            continue;
        }
        let imports = import_lines(file.content);
        if imports.is_empty() {
            continue;
        }
        let judged: Vec<usize> = flow.secret_flows.iter().map(|f| f.sink).collect();
        for sink in b
            .in_file(file, FactKind::NetSend)
            .filter(|s| !s.fact.prose)
            .take(MAX_SINKS)
        {
            let idx = file.facts.index_of(sink.fact);
            if judged.contains(&idx) {
                continue;
            }
            let window: String = file
                .content
                .lines()
                .skip(sink.fact.line.saturating_sub(1) as usize)
                .take(REQUEST_LINES)
                .collect::<Vec<_>>()
                .join("\n");
            let Some(e) = imported(&table, &imports, j, &window, &flow.defs) else {
                continue;
            };
            let src_file = &b.files[e.file];
            let src = At {
                file: src_file,
                fact: &src_file.facts.facts[e.origin],
            };
            let (dest, _) = destination(b, file, flow, idx);
            let Some(v) = decide(
                b,
                &src,
                &sink,
                dest.as_ref(),
                &window,
                std::slice::from_ref(&e.name),
            ) else {
                continue;
            };
            let why = format!(
                "{} (read at {} into `{}`, which {} imports from `{}`; sent at {}). {}",
                capitalize(&v.why),
                src.place(),
                e.name,
                file.path,
                src_file.path,
                sink.place(),
                if v.severity == Severity::Critical {
                    "Splitting the read and the send across modules does not change what it does: do not install this skill."
                } else {
                    "Review where this data goes before installing."
                }
            );
            out.push(finding(
                v.rule,
                "exfiltration",
                v.severity,
                sink,
                why,
                vec![src.related("source")],
            ));
            return;
        }
    }
}
