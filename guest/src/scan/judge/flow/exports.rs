//! Names one module of a bundle gives another: a settings module that reads a secret into
//! `DATABASE_URL` (or an object property `url: process.env.X`, an `export const key = …`), a helper
//! whose function returns a downloaded file's path. Each code file's followed names (see
//! [`super::analyze`]) are its exports; a statement of another file that imports that module
//! (`from .config import DATABASE_URL`, `import helpers` … `helpers.payload_path()`,
//! `const {url} = require('./cfg')`, `import { key } from './env.js'`) and names one of them carries
//! the value across the file boundary. Built once per bundle from the per-file flows, so the cost
//! is one pass over the followed names and each importing file's import lines.

use super::{FileFlow, is_secret_source, names_key};
use crate::scan::content::FileKind;
use crate::scan::facts::FactKind;
use crate::scan::judge::code::Definitions;
use crate::scan::judge::{At, Bundle};

/// Exports kept per file (a module defines only so many followed names).
const MAX_EXPORTS: usize = 32;

/// A name a code file defines from a source fact.
#[derive(Debug, Clone)]
pub struct Export {
    /// The file (index into the bundle's files) and the source fact (index into its facts).
    pub file: usize,
    pub origin: usize,
    pub name: String,
    /// The file's module name (`config` for `pkg/config.py`).
    pub stem: String,
}

/// What kind of value an export carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carried {
    /// A secret (an environment key, a credential file's contents).
    Secret,
    /// Fetched or downloaded content (or the path it was saved to).
    Code,
}

/// A code file's module name: its file name without the extension (`lib/collect.js` → `collect`).
pub fn module_stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split('.').next().unwrap_or(name)
}

/// The lines of a file that import something (`require(…)`, `import …`, `from … import`,
/// `source …`, `. …`, `import(…)`).
pub fn import_lines(text: &str) -> Vec<&str> {
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

/// Whether an import line names a module `stem` (`require('./lib/collect')`, `from .collect import`,
/// `import collect`, `from './collect.js'`, `. ./collect.sh`, `source lib/collect.sh`).
pub fn imports_module(line: &str, stem: &str) -> bool {
    stem.len() >= 3
        && names_key(line, stem)
        && ["/", ".", " ", "'", "\""]
            .iter()
            .any(|p| line.contains(&format!("{p}{stem}")))
}

/// The name a source line assigns at its start: `NAME = …`, `NAME: …` (an object property),
/// `export const NAME = …`, `const NAME = …`.
fn leading_name(line: &str) -> Option<&str> {
    let mut t = line.trim_start();
    for kw in ["export ", "const ", "let ", "var "] {
        t = t.strip_prefix(kw).unwrap_or(t).trim_start();
    }
    let n = t
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$')
        .count();
    let rest = t[n..].trim_start();
    (n >= 1
        && (rest.starts_with(':') && !rest.starts_with("::")
            || rest.starts_with('=') && !rest.starts_with("==")))
    .then(|| &t[..n])
}

/// The exports of every code file of the bundle that carry `what`.
pub fn exports(b: &Bundle<'_>, flows: &[FileFlow], what: Carried) -> Vec<Export> {
    let mut out = Vec::new();
    for (i, (file, flow)) in b.files.iter().zip(flows).enumerate() {
        if file.kind != FileKind::Code {
            continue;
        }
        let stem = module_stem(file.path);
        if stem.len() < 3 {
            continue;
        }
        let mut mine: Vec<Export> = Vec::new();
        let mut add = |name: &str, origin: usize| {
            // Names of any length (round 30c: `s`, `ok`): an importing file still has to name
            // the module and the name on one import line, or write `module.name`.
            if !name.is_empty() && mine.len() < MAX_EXPORTS && !mine.iter().any(|e| e.name == name)
            {
                mine.push(Export {
                    file: i,
                    origin,
                    name: name.to_owned(),
                    stem: stem.to_owned(),
                });
            }
        };
        let facts = &file.facts.facts;
        let names = match what {
            Carried::Secret => &flow.tainted_names,
            Carried::Code => &flow.code_names,
        };
        for (name, origins) in names {
            let wanted = |o: &usize| match what {
                Carried::Secret => is_secret_source(facts[*o].kind),
                Carried::Code => {
                    matches!(facts[*o].kind, FactKind::FetchToValue | FactKind::Download)
                }
            };
            if let Some(&o) = origins.iter().find(|o| wanted(o)) {
                add(name, o);
            }
        }
        // A secret read straight into an object property or an exported constant.
        if what == Carried::Secret {
            for (o, fact) in facts.iter().enumerate() {
                if fact.prose || !is_secret_source(fact.kind) || fact.kind == FactKind::EnvCopy {
                    continue;
                }
                let text = At { file, fact }.text();
                if let Some(name) = leading_name(&text) {
                    add(name, o);
                }
            }
        }
        out.extend(mine);
    }
    out
}

/// The export of another module that a statement of file `j` names, where `j` imports that module:
/// the name itself from an import line naming it (`from .config import DATABASE_URL`,
/// `const { url } = require('./cfg')`), or `module.name` (`settings.TOKEN`,
/// `helpers.payload_path()`); directly or through one local name defined from it
/// (`p = staged_patch()` … `exec(compile(open(p).read(), …))`).
pub fn imported<'e>(
    exports: &'e [Export],
    imports: &[&str],
    j: usize,
    text: &str,
    defs: &Definitions,
) -> Option<&'e Export> {
    let named = |t: &str, e: &Export| {
        names_key(t, &e.name)
            && (t.contains(&format!("{}.{}", e.stem, e.name))
                || imports
                    .iter()
                    .any(|l| imports_module(l, &e.stem) && names_key(l, &e.name)))
    };
    let here: Vec<&Export> = exports
        .iter()
        .filter(|e| e.file != j && imports.iter().any(|l| imports_module(l, &e.stem)))
        .collect();
    if here.is_empty() {
        return None;
    }
    if let Some(e) = here.iter().find(|e| named(text, e)) {
        return Some(e);
    }
    for r in crate::scan::judge::code::refs(text) {
        if let Some(def) = defs.get(r)
            && let Some(e) = here.iter().find(|e| named(&def.text, e))
        {
            return Some(e);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_names_of_source_lines() {
        assert_eq!(
            leading_name("  url: process.env.DATABASE_URL,"),
            Some("url")
        );
        assert_eq!(
            leading_name("export const key = process.env.OPENAI_API_KEY;"),
            Some("key")
        );
        assert_eq!(
            leading_name("DATABASE_URL = os.environ[\"DATABASE_URL\"]"),
            Some("DATABASE_URL")
        );
        assert_eq!(leading_name("if os.environ.get(\"X_TOKEN\") == y:"), None);
        assert_eq!(leading_name("requests.post(u, json={\"t\": TOKEN})"), None);
        assert_eq!(leading_name("std::env::var(\"X\")"), None);
    }

    fn export(name: &str, stem: &str) -> Export {
        Export {
            file: 0,
            origin: 0,
            name: name.into(),
            stem: stem.into(),
        }
    }

    #[test]
    fn imported_names_are_found() {
        let ex = vec![
            export("DATABASE_URL", "config"),
            export("payload_path", "helpers"),
        ];
        let d = Definitions::default();
        let imp = ["from .config import DATABASE_URL"];
        assert!(imported(&ex, &imp, 1, "post(u, json={\"dsn\": DATABASE_URL})", &d).is_some());
        let imp = ["import helpers"];
        assert!(
            imported(
                &ex,
                &imp,
                1,
                "subprocess.run([\"bash\", helpers.payload_path()])",
                &d
            )
            .is_some()
        );
        let mut d = Definitions::default();
        d.record(&["p"], 4, "p = helpers.payload_path()");
        assert!(
            imported(
                &ex,
                &imp,
                1,
                "exec(compile(open(p).read(), p, \"exec\"))",
                &d
            )
            .is_some()
        );
    }

    #[test]
    fn unimported_or_own_names_are_not() {
        let ex = vec![export("DATABASE_URL", "config")];
        let d = Definitions::default();
        // The module is not imported.
        let imp = ["import requests"];
        assert!(imported(&ex, &imp, 1, "post(u, json={\"dsn\": DATABASE_URL})", &d).is_none());
        // The module is imported, but not this name, and it is not read as `config.NAME`.
        let imp = ["from .config import POOL"];
        assert!(imported(&ex, &imp, 1, "post(u, json={\"dsn\": DATABASE_URL})", &d).is_none());
        // The exporting file itself.
        let imp = ["from .config import DATABASE_URL"];
        assert!(imported(&ex, &imp, 0, "post(u, json={\"dsn\": DATABASE_URL})", &d).is_none());
    }
}
