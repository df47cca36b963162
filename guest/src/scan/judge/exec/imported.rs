//! Code one module fetches or downloads and another module, which imports it, runs: a helper whose
//! function saves a download and returns its path (`payload_path()`, `staged_patch()`,
//! `getPluginPath()`), run by the importer (`subprocess.run(["bash", helpers.payload_path()])`,
//! `exec(compile(open(p).read(), p, "exec"))`, `runpy.run_path(str(rules))`,
//! `require(await getPluginPath())`). Graded like a download run within one file, by the host the
//! code comes from, with both ends in the evidence.

use super::{advice, grade, shipped_script, source_host, unknown_named_host};
use crate::scan::content::{FileKind, Finding};
use crate::scan::facts::FactKind;
use crate::scan::judge::flow::exports::{Carried, exports, import_lines, imported};
use crate::scan::judge::flow::{FileFlow, fixed_program, sink_target};
use crate::scan::judge::{At, Bundle, finding};
use crate::scan::rules::Severity;

/// Runs per file looked at.
const MAX_RUNS: usize = 16;

pub(super) fn imported_code(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    let table = exports(b, flows, Carried::Code);
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
        let judged: Vec<usize> = flow.code_flows.iter().map(|f| f.sink).collect();
        let runs = file
            .facts
            .facts
            .iter()
            .filter(|f| !f.prose && matches!(f.kind, FactKind::RunFile | FactKind::EvalValue))
            .take(MAX_RUNS);
        for fact in runs {
            let idx = file.facts.index_of(fact);
            if judged.contains(&idx)
                || fact.kind == FactKind::RunFile && fixed_program(&sink_target(file, fact))
            {
                continue;
            }
            let sink = At { file, fact };
            let text = sink.text();
            let Some(e) = imported(&table, &imports, j, &text, &flow.defs) else {
                continue;
            };
            let src_file = &b.files[e.file];
            let src = At {
                file: src_file,
                fact: &src_file.facts.facts[e.origin],
            };
            let host = source_host(b, &src, &flows[e.file]);
            let Some((mut sev, from)) = grade(host.as_ref()) else {
                continue;
            };
            // Fetched by one script the bundle ships and run by another: what `download_execute`
            // grades `critical` within one file.
            if sev == Severity::High
                && shipped_script(file)
                && host.as_ref().is_some_and(unknown_named_host)
            {
                sev = Severity::Critical;
            }
            let why = format!(
                "Content downloaded {from} at {} (kept in `{}`, which {} imports from `{}`) is run at {}. {}",
                src.place(),
                e.name,
                file.path,
                src_file.path,
                sink.place(),
                advice(sev)
            );
            out.push(finding(
                "supply_chain.download-execute",
                "supply_chain",
                sev,
                sink,
                why,
                vec![src.related("download")],
            ));
            return;
        }
    }
}
