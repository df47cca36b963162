//! Secrets that leave through more than one file: the reader in one module and the sender in
//! another (tied by imports), a file of secrets written by one script and uploaded by another,
//! credentials read anywhere in the bundle with a send to a suspicious host elsewhere, and uploads
//! of any file to a place no vendor runs.

use super::{bulk_file_tag, capitalize, credential_store, destination, sends_body, what};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::hosts::HostClass;
use crate::scan::judge::flow::{FileFlow, names_key};
use crate::scan::judge::{At, Bundle, File, Host, finding, hosts_in};
use crate::scan::rules::Severity;

/// A file that holds secrets (written in one script) uploaded by another script.
pub(super) fn staged(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    for (i, file) in b.files.iter().enumerate() {
        for sink in b.in_file(file, FactKind::NetSend).filter(|s| !s.fact.prose) {
            let text = sink.text();
            for (j, (wfile, wflow)) in b.files.iter().zip(flows).enumerate() {
                if i == j {
                    continue;
                }
                for w in &wflow.secret_files {
                    if w.key.starts_with('$') || !w.key.contains('.') && w.key.len() < 5 {
                        continue;
                    }
                    if !names_key(&text, &w.key) {
                        continue;
                    }
                    let src = At {
                        file: wfile,
                        fact: &wfile.facts.facts[w.origin],
                    };
                    let idx = file.facts.index_of(sink.fact);
                    let (dest, _) = destination(b, file, &flows[i], idx);
                    if dest.as_ref().is_some_and(|d| d.class == HostClass::Local) {
                        continue;
                    }
                    let to = dest.map_or("a remote host".to_owned(), |d| {
                        format!("{} ({})", d.host, d.class.phrase())
                    });
                    let why = format!(
                        "{} (read at {}) is written to `{}` at {}:{}, and {} uploads `{}` to {to}. Splitting the read and the upload across scripts does not change what it does: do not install this skill.",
                        capitalize(&what(b, &src)),
                        src.place(),
                        w.key,
                        wfile.path,
                        w.line,
                        sink.place(),
                        w.key
                    );
                    out.push(finding(
                        "exfiltration.staged-upload",
                        "exfiltration",
                        Severity::Critical,
                        sink,
                        why,
                        vec![src.related("source")],
                    ));
                    return;
                }
            }
        }
    }
}

/// Credentials in bulk read (or, in prose, the agent told to read them) in one place, and data sent
/// to a suspicious host in another.
pub(super) fn bundle_wide(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    if out
        .iter()
        .any(|f| f.category == "exfiltration" && f.severity == Severity::Critical)
    {
        return;
    }
    let sources: Vec<At<'_>> = b
        .files
        .iter()
        .flat_map(|file| {
            file.facts
                .facts
                .iter()
                .filter(|f| {
                    (!f.prose || f.kind == FactKind::SecretFile)
                        && match f.kind {
                            FactKind::SecretHarvest | FactKind::SecretCommand => true,
                            FactKind::SecretFile => bulk_file_tag(b.tag(f)),
                            _ => false,
                        }
                })
                .map(move |fact| At { file, fact })
        })
        .collect();
    if sources.is_empty() {
        return;
    }
    for (file, flow) in b.files.iter().zip(flows) {
        for sink in b.in_file(file, FactKind::NetSend) {
            let idx = file.facts.index_of(sink.fact);
            let (dest, _) = destination(b, file, flow, idx);
            let Some(d) = dest.filter(|d| d.class.is_suspicious()) else {
                continue;
            };
            let Some(src) = sources
                .iter()
                .find(|s| !(std::ptr::eq(s.file, file) && s.fact.line == sink.fact.line))
            else {
                continue;
            };
            let why = format!(
                "{} {} {} (at {}), and {} sends data to {} ({}). Together they are the shape of a stealer, even where no single line shows the flow: do not install this skill.",
                src.file.path,
                if src.fact.prose {
                    "tells the agent to read"
                } else {
                    "reads"
                },
                what(b, src),
                src.place(),
                sink.place(),
                d.host,
                d.class.phrase()
            );
            out.push(finding(
                "exfiltration.read-and-send",
                "exfiltration",
                Severity::Critical,
                sink,
                why,
                vec![src.related("source")],
            ));
            return;
        }
    }
}

/// A module of the bundle's code that reads credential stores (SSH keys, cloud or CLI tokens,
/// browser data, wallets) and another module that sends a body to a host no vendor list knows,
/// tied together by imports (one imports the other, or a third imports both): the value passes
/// between files through function results the per-file flow cannot follow. A client that only
/// used the credentials would talk to the service they belong to.
pub(super) fn linked_modules(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    use crate::scan::content::FileKind;
    if out
        .iter()
        .any(|f| f.category == "exfiltration" && f.severity == Severity::Critical)
    {
        return;
    }
    let code = |f: &File<'_>| f.kind == FileKind::Code;
    // Facts first (cheap): the readers, then the senders; only then the imports.
    let readers: Vec<(usize, At<'_>)> = b
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| code(f))
        .filter_map(|(i, file)| {
            file.facts
                .facts
                .iter()
                .find(|f| !f.prose && credential_store(b, f))
                .map(|fact| (i, At { file, fact }))
        })
        .take(MAX_LINKED)
        .collect();
    if readers.is_empty() {
        return;
    }
    let mut senders: Vec<(usize, At<'_>, Host)> = Vec::new();
    for (si, (sender, flow)) in b.files.iter().zip(flows).enumerate() {
        if !code(sender) || senders.len() >= MAX_LINKED {
            continue;
        }
        let found = b
            .in_file(sender, FactKind::NetSend)
            .filter(|s| !s.fact.prose)
            .take(MAX_LINKED)
            .find_map(|sink| {
                let idx = sender.facts.index_of(sink.fact);
                let d = destination(b, sender, flow, idx).0.filter(|d| {
                    d.class.is_suspicious()
                        || d.class == HostClass::Unknown
                            && crate::scan::hosts::vendor_of_host(&d.host).is_none()
                })?;
                // The request's options often follow on the next lines (`fetch(url, {` … `body:`).
                let options: String = sender
                    .content
                    .lines()
                    .skip(sink.fact.line.saturating_sub(1) as usize)
                    .take(REQUEST_LINES)
                    .collect::<Vec<_>>()
                    .join("\n");
                sends_body(&options).then_some((sink, d))
            });
        if let Some((sink, d)) = found {
            senders.push((si, sink, d));
        }
    }
    if senders.is_empty() {
        return;
    }
    // Each file's import lines, read once.
    let imports: Vec<Vec<&str>> = b.files.iter().map(|f| import_lines(f.content)).collect();
    let imports_stem = |i: usize, stem: &str| imports[i].iter().any(|l| imports_module(l, stem));
    for (ri, src) in &readers {
        let rs = module_stem(src.file.path);
        for (si, sink, d) in &senders {
            if si == ri {
                continue;
            }
            let ss = module_stem(sink.file.path);
            let linked = imports_stem(*si, rs)
                || imports_stem(*ri, ss)
                || (0..b.files.len())
                    .any(|g| g != *ri && g != *si && imports_stem(g, rs) && imports_stem(g, ss));
            if !linked {
                continue;
            }
            let why = format!(
                "{} reads {} (at {}) and {}, which the same code imports, sends a body to {} ({}) at {}. Credentials read in one module and posted by another to a host that is not their service's are the shape of a stealer: do not install this skill.",
                src.file.path,
                what(b, src),
                src.place(),
                sink.file.path,
                d.host,
                d.class.phrase(),
                sink.place()
            );
            out.push(finding(
                "exfiltration.read-and-send",
                "exfiltration",
                Severity::Critical,
                *sink,
                why,
                vec![src.related("source")],
            ));
            return;
        }
    }
}

/// Readers and senders [`linked_modules`] pairs at most (each side).
const MAX_LINKED: usize = 16;

/// The lines of a file that import something (`require(…)`, `import …`, `from … import`,
/// `source …`, `. …`, `import(…)`).
fn import_lines(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim_start)
        .filter(|t| {
            t.contains("require(")
                || t.starts_with("import ")
                || t.starts_with("from ")
                || t.contains(" from ")
                || t.starts_with("source ")
                || t.starts_with(". ")
                || t.contains("import(")
        })
        .take(256)
        .collect()
}

/// Lines of a request (its first and the options that follow) searched for a body.
const REQUEST_LINES: usize = 6;

/// A code file's module name: its file name without the extension (`lib/collect.js` → `collect`).
fn module_stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split('.').next().unwrap_or(name)
}

/// Whether an import line names a module `stem` (`require('./lib/collect')`, `from .collect import`,
/// `import collect`, `from './collect.js'`, `. ./collect.sh`, `source lib/collect.sh`).
fn imports_module(line: &str, stem: &str) -> bool {
    stem.len() >= 3
        && names_key(line, stem)
        && ["/", ".", " ", "'", "\""]
            .iter()
            .any(|p| line.contains(&format!("{p}{stem}")))
}

/// Files uploaded (`curl -F x=@file`, `-T file`, `--data-binary @file`, `files={…}`) to a raw IP,
/// a collector, a paste site or a tunnel: whatever the file is, it leaves for a place no vendor runs.
pub(super) fn uploads(b: &Bundle<'_>, flows: &[FileFlow], out: &mut Vec<Finding>) {
    if out
        .iter()
        .any(|f| f.category == "exfiltration" && f.severity == Severity::Critical)
    {
        return;
    }
    for (file, flow) in b.files.iter().zip(flows) {
        for sink in b.in_file(file, FactKind::NetSend).filter(|s| !s.fact.prose) {
            let text = sink.text();
            let upload = [
                "=@",
                " -T ",
                "--upload-file",
                "--data-binary @",
                "--data @",
                "-d @",
                "files=",
                "-InFile",
                "UploadFile(",
            ]
            .iter()
            .any(|m| text.contains(m));
            // Or a body posted by a script the bundle ships to an address written on the
            // request's own line: a fixed drop the skill reports to whenever it runs (a request
            // catcher, a tunnel to someone's machine, a paste site, a raw address). A user's own
            // tunnel or webhook comes from their configuration, not from the script's text.
            let posted =
                !upload && crate::scan::judge::exec::shipped_script(file) && sends_body(&text);
            if !upload && !posted {
                continue;
            }
            let idx = file.facts.index_of(sink.fact);
            if let (Some(d), _) = destination(b, file, flow, idx)
                && d.class.is_suspicious()
                && (upload || hosts_in(&text).iter().any(|h| h.host == d.host))
            {
                let (rule, why) = if upload {
                    (
                        "exfiltration.upload-to-suspicious-host",
                        format!(
                            "A file is uploaded to {} ({}) at {}: whatever it holds leaves for a place no vendor runs. Do not install this skill.",
                            d.host,
                            d.class.phrase(),
                            sink.place()
                        ),
                    )
                } else {
                    (
                        "exfiltration.send-to-suspicious-host",
                        format!(
                            "{}, a script the bundle ships, posts data to {} ({}) at {}, an address fixed in its text: whatever it sends leaves for a place no vendor runs each time the skill runs. Do not install this skill.",
                            file.path,
                            d.host,
                            d.class.phrase(),
                            sink.place()
                        ),
                    )
                };
                out.push(finding(
                    rule,
                    "exfiltration",
                    Severity::Critical,
                    sink,
                    why,
                    Vec::new(),
                ));
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn modules_import_each_other() {
        use super::{import_lines, imports_module, module_stem};
        let imports = |t: &str, stem: &str| import_lines(t).iter().any(|l| imports_module(l, stem));
        assert_eq!(module_stem("lib/collect.js"), "collect");
        assert!(imports(
            "const { collect } = require('./lib/collect');",
            "collect"
        ));
        assert!(imports("from .upload import send", "upload"));
        assert!(imports("import { upload } from \"./upload.js\";", "upload"));
        assert!(!imports("// collect the results", "collect"));
        assert!(!imports("const x = require('fs');", "index"));
    }
}
