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
            let Some(e) = imported(&table, &imports, j, &text, &flow.defs).or_else(|| {
                bound_nearby(
                    &table,
                    &imports,
                    j,
                    file.content,
                    fact.line,
                    &text,
                    &flow.defs,
                )
            }) else {
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

/// Lines looked back from a run for the line that bound its argument.
const NEARBY: usize = 6;

/// The export a run's argument was bound from on one of the few lines before it, where the file's
/// definitions do not reach (inside a JS function body, which is one statement): a callback
/// parameter (`getPath().then((p) => { … require(p) })`) or a local (`const p = await getPath();`)
/// on a line that names an imported export and the argument (round 30c). Only the names inside the
/// run's parentheses are looked for, never the runner itself or a name its own line assigns.
fn bound_nearby<'e>(
    table: &'e [crate::scan::judge::flow::exports::Export],
    imports: &[&str],
    j: usize,
    content: &str,
    line: u32,
    text: &str,
    defs: &crate::scan::judge::code::Definitions,
) -> Option<&'e crate::scan::judge::flow::exports::Export> {
    let open = text.find('(')?;
    let args = &text[open + 1..];
    let assigned = crate::scan::judge::code::assigned(text);
    let names: Vec<&str> = crate::scan::judge::code::refs(args)
        .into_iter()
        .filter(|r| !assigned.contains(r) && !matches!(*r, "await" | "require" | "import"))
        .collect();
    if names.is_empty() {
        return None;
    }
    let upto = (line as usize).saturating_sub(1);
    let lines: Vec<&str> = content.lines().take(upto).collect();
    lines.iter().rev().take(NEARBY).find_map(|l| {
        if !names
            .iter()
            .any(|n| crate::scan::judge::flow::names_key(l, n))
        {
            return None;
        }
        imported(table, imports, j, l, defs)
    })
}
