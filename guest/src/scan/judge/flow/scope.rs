//! Function scopes for following values: the names a function assigns are its own (Python; JS/TS,
//! shell and Go declarations), so a name one function reads a secret into is not the name another
//! function sends.

use std::collections::BTreeMap;

/// Languages whose functions have local names that this pass keeps apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ScopeLang {
    /// Every name a function assigns is its own unless it says `global`/`nonlocal`.
    Python,
    /// Names a function declares (`const`, `let`, `var`) are its own.
    Script,
    /// Shell: names a function declares `local` (or `declare`/`typeset` without `-g`) are its own.
    Shell,
    /// Go: names a function declares (`:=`, `var`) are its own.
    Go,
    /// PowerShell, Ruby, …: names are followed across functions.
    None,
}

impl ScopeLang {
    pub(super) fn of(lower_path: &str) -> Self {
        if lower_path.ends_with(".py") {
            ScopeLang::Python
        } else if [".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"]
            .iter()
            .any(|e| lower_path.ends_with(e))
        {
            ScopeLang::Script
        } else if [".sh", ".bash", ".zsh", ".ksh"]
            .iter()
            .any(|e| lower_path.ends_with(e))
        {
            ScopeLang::Shell
        } else if lower_path.ends_with(".go") {
            ScopeLang::Go
        } else {
            ScopeLang::None
        }
    }

    /// Whether `name`, assigned by the statement starting with `line` inside a function, is that
    /// function's own.
    pub(super) fn is_local(self, line: &str, name: &str, scope: &Scope) -> bool {
        let t = line.trim_start();
        match self {
            ScopeLang::Python => {
                line.len() - t.len() > scope.indent && !scope.globals.iter().any(|g| g == name)
            }
            ScopeLang::Script | ScopeLang::Shell | ScopeLang::Go => self.declares(t, name),
            ScopeLang::None => false,
        }
    }

    /// Whether the statement `t` (trimmed) declares `name` as its block's or function's own.
    pub(super) fn declares(self, t: &str, name: &str) -> bool {
        match self {
            ScopeLang::Script => ["const ", "let ", "var "].iter().any(|k| t.starts_with(k)),
            ScopeLang::Shell => {
                let declared = ["local ", "declare ", "typeset "]
                    .iter()
                    .find_map(|k| t.strip_prefix(k));
                // `declare -g` assigns the global name.
                declared.is_some_and(|rest| {
                    !rest
                        .split_ascii_whitespace()
                        .take_while(|w| w.starts_with('-'))
                        .any(|w| w.contains('g'))
                })
            }
            ScopeLang::Go => {
                t.starts_with("var ")
                    || t.split_once(":=")
                        .is_some_and(|(lhs, _)| lhs.split(',').any(|n| n.trim() == name))
            }
            ScopeLang::Python | ScopeLang::None => false,
        }
    }
}

/// The local names of the function being read, with what each name carried before the function
/// assigned it (restored when the function ends: a name one function assigns is not the name
/// another reads, as in `key = os.environ["A_KEY"]` in one provider's function and `key =
/// os.environ["B_KEY"]` in the next).
pub(super) struct Scope {
    /// Indentation of the function's definition line.
    pub(super) indent: usize,
    /// Names the function declares `global` or `nonlocal` (Python): not its own.
    pub(super) globals: Vec<String>,
    pub(super) saved: Vec<Saved>,
}

/// A name's taint and way before a function assigned it.
type Saved = (String, Option<Vec<usize>>, Option<(u32, String)>);

impl Scope {
    pub(super) fn note_globals(&mut self, line: &str) {
        let t = line.trim_start();
        if let Some(rest) = t
            .strip_prefix("global ")
            .or_else(|| t.strip_prefix("nonlocal "))
        {
            self.globals
                .extend(rest.split(',').map(|n| n.trim().to_owned()));
        }
    }

    pub(super) fn save(
        &mut self,
        name: &str,
        tainted: &BTreeMap<String, Vec<usize>>,
        via: &BTreeMap<String, (u32, String)>,
    ) {
        if !self.saved.iter().any(|(n, _, _)| n == name) {
            self.saved.push((
                name.to_owned(),
                tainted.get(name).cloned(),
                via.get(name).cloned(),
            ));
        }
    }
}

/// End the function being read: its local names carry again what they carried before it.
pub(super) fn close(
    scope: &mut Option<Scope>,
    tainted: &mut BTreeMap<String, Vec<usize>>,
    via: &mut BTreeMap<String, (u32, String)>,
) {
    let Some(sc) = scope.take() else { return };
    for (name, t, v) in sc.saved {
        match t {
            Some(list) => tainted.insert(name.clone(), list),
            None => tainted.remove(&name),
        };
        match v {
            Some(w) => via.insert(name, w),
            None => via.remove(&name),
        };
    }
}
