//! Environment reads by a name held in a variable, whose names can be read (round 42b, sets42b).
//!
//! `os.environ.get(name)` with a variable for the name is taken as the whole environment walked
//! (`exfiltration.env-dump`), and reaching a request it is `critical`. Two shapes of it read only
//! named variables, and the names are in the bundle:
//!
//! - a helper whose parameter is the name (`def required_env(name): value = os.environ.get(name)`,
//!   `function env(name) { return process.env[name] }`) and whose every call passes a quoted name
//!   (`required_env("FEISHU_APP_SECRET")`): it reads exactly those variables;
//! - a loop or comprehension over a declared list of names (`{k: os.environ.get(k) for k in
//!   ENV_KEYS}`): it reads the variables of that list; when the list is written in the bundle as
//!   quoted names, those; when it is defined outside the bundle, an unseen list of names, still not
//!   the environment.
//!
//! Such a read is judged as the named reads it is ([`super::decide`]): each credential-named
//! variable like `os.environ.get("X_KEY")` (a key named for its vendor or for the destination host
//! goes there as its job; a vendor's key sent elsewhere, or any secret sent to a suspicious host,
//! stays `critical`). A helper called once with a variable (`env(k) for k in os.environ`), a list
//! built from the environment (`KEYS = list(os.environ)`), or a list holding anything but quoted
//! names keeps the whole-environment verdict. One pass over the file's text per such source, only
//! for an environment read that reaches a request.

use crate::scan::judge::{At, Bundle};

/// What an environment read by a variable name reads.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Named {
    /// The variables named by the callers of its helper, or by the list it walks.
    Keys(Vec<String>),
    /// The variables of a declared list defined outside the bundle (its name).
    Listed(String),
}

/// Openers of an environment read by name.
const READS: &[&str] = &[
    "os.environ.get(",
    "os.getenv(",
    "os.environ[",
    "process.env[",
    "getenv(",
    "environ.get(",
];

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The variable holding the name in an environment read on `line` (`name` of `os.environ.get(name,
/// "")`), if the read takes a bare identifier.
fn read_ident(line: &str) -> Option<&str> {
    for r in READS {
        if let Some(i) = line.find(r) {
            let rest = line[i + r.len()..].trim_start();
            let end = rest.find(|c: char| !ident_char(c)).unwrap_or(rest.len());
            let id = &rest[..end];
            let after = rest[end..].trim_start();
            if !id.is_empty()
                && !id.starts_with(|c: char| c.is_ascii_digit())
                && (after.starts_with(',') || after.starts_with(')') || after.starts_with(']'))
            {
                return Some(id);
            }
        }
    }
    None
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

/// The helper around line `idx` (0-based) whose parameters include `id`: a Python `def` or a
/// JavaScript `function` opening above it at a smaller indentation. Its name.
fn enclosing_helper<'a>(lines: &[&'a str], idx: usize, id: &str) -> Option<&'a str> {
    let own = indent(lines.get(idx)?);
    for l in lines[..idx].iter().rev() {
        let t = l.trim_start();
        if t.is_empty() || indent(l) >= own {
            continue;
        }
        let head = t
            .strip_prefix("async ")
            .unwrap_or(t)
            .strip_prefix("def ")
            .or_else(|| t.strip_prefix("function "))
            .or_else(|| t.strip_prefix("export function "))?;
        let open = head.find('(')?;
        let name = head[..open].trim();
        let close = head[open..].find(')')? + open;
        let params = &head[open + 1..close];
        let takes = params.split(',').any(|p| {
            let p = p.trim();
            let end = p.find(|c: char| !ident_char(c)).unwrap_or(p.len());
            &p[..end] == id
        });
        return (takes && !name.is_empty() && name.chars().all(ident_char)).then_some(name);
    }
    None
}

/// The quoted first argument of every call of `name` in `text` (not its definition); `None` when a
/// call passes anything else, or there is no call.
fn call_names(text: &str, name: &str) -> Option<Vec<String>> {
    let pat = format!("{name}(");
    let mut out = Vec::new();
    for (i, _) in text.match_indices(&pat) {
        let before = &text[..i];
        if before.ends_with(|c: char| ident_char(c) || c == '.') {
            continue;
        }
        let word = before.trim_end();
        if word.ends_with("def") || word.ends_with("function") {
            continue;
        }
        let rest = text[i + pat.len()..].trim_start();
        let q = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let inner = &rest[1..];
        let end = inner.find(q)?;
        let key = &inner[..end];
        if key.is_empty() || !key.chars().all(ident_char) {
            return None;
        }
        out.push(key.to_owned());
    }
    (!out.is_empty()).then_some(out)
}

/// The list walked by `for <id> in <LIST>` on a line: its dotted name, when its last part is an
/// upper-case constant (a declared list of names, not `os.environ`).
fn walked_list<'a>(line: &'a str, id: &str) -> Option<&'a str> {
    let pat = format!("for {id} in ");
    let i = line.find(&pat)?;
    let rest = &line[i + pat.len()..];
    let end = rest
        .find(|c: char| !(ident_char(c) || c == '.'))
        .unwrap_or(rest.len());
    let list = &rest[..end];
    let last = list.rsplit('.').next().unwrap_or("");
    (last.len() >= 3
        && last.chars().any(|c| c.is_ascii_uppercase())
        && last
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
    .then_some(list)
}

/// The definition of constant `last` in `text` (`LAST = (…)`, `LAST: tuple = […]`, `const LAST =
/// […]`): `Some(Some(names))` when it is a bracketed list of quoted names only, `Some(None)` when
/// it is anything else, `None` when the text does not define it.
fn list_definition(text: &str, last: &str) -> Option<Option<Vec<String>>> {
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let t = t
            .strip_prefix("const ")
            .or_else(|| t.strip_prefix("export const "))
            .unwrap_or(t);
        let Some(rest) = t.strip_prefix(last) else {
            continue;
        };
        let rest = rest.trim_start();
        let rest = match rest.strip_prefix(':') {
            Some(r) => match r.find('=') {
                Some(e) => &r[e..],
                None => continue,
            },
            None => rest,
        };
        let Some(value) = rest.strip_prefix('=').filter(|r| !r.starts_with('=')) else {
            continue;
        };
        // The value up to its closing bracket, over at most 40 lines.
        let mut body = value.trim().to_owned();
        let mut k = i + 1;
        let opens = |s: &str| s.matches(['[', '(', '{']).count();
        let closes = |s: &str| s.matches([']', ')', '}']).count();
        while opens(&body) > closes(&body) && k < lines.len() && k <= i + 40 {
            body.push(' ');
            body.push_str(lines[k].trim());
            k += 1;
        }
        let Some(inner) = body
            .strip_prefix(['[', '(', '{'])
            .and_then(|b| b.trim_end().strip_suffix([']', ')', '}']))
        else {
            return Some(None);
        };
        let mut names = Vec::new();
        for item in inner.split(',') {
            let item = item.trim();
            if item.is_empty() || item.starts_with('#') {
                continue;
            }
            let q = item.chars().next().filter(|c| *c == '"' || *c == '\'');
            let Some(q) = q else { return Some(None) };
            let Some(name) = item[1..].strip_suffix(q) else {
                return Some(None);
            };
            if name.is_empty() || !name.chars().all(ident_char) {
                return Some(None);
            }
            names.push(name.to_owned());
        }
        return Some((!names.is_empty()).then_some(names));
    }
    None
}

/// Words that make an upper-case variable name a credential (`FEISHU_APP_SECRET`, `DB_PASSWORD`);
/// ids, table names and URLs are not secrets.
const CREDENTIAL_WORDS: &[&str] = &[
    "KEY",
    "KEYS",
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "PASS",
    "PWD",
    "APIKEY",
    "CREDENTIAL",
    "CREDENTIALS",
    "AUTH",
    "PAT",
    "PRIVATE",
    "COOKIE",
    "SESSION",
    "DSN",
];

/// Whether a variable name names a credential.
pub(crate) fn credential(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    super::is_connection_string(&upper) || upper.split('_').any(|w| CREDENTIAL_WORDS.contains(&w))
}

/// What an environment-dump source reads, when it reads by a variable name whose names the bundle
/// shows ([`Named`]); `None` when it is (or may be) the whole environment.
pub(crate) fn resolve(b: &Bundle<'_>, src: &At<'_>) -> Option<Named> {
    let text = src.text();
    let id = read_ident(&text)?;
    let content = src.file.content;
    let lines: Vec<&str> = content.lines().collect();
    let idx = (src.fact.line as usize).checked_sub(1)?;
    if let Some(list) = walked_list(&text, id) {
        let last = list.rsplit('.').next().unwrap_or(list);
        // This file first, then the bundle's other files.
        let defs = std::iter::once(content).chain(
            b.files
                .iter()
                .filter(|f| !std::ptr::eq(f.content, content))
                .map(|f| f.content),
        );
        for t in defs {
            if let Some(def) = list_definition(t, last) {
                return def.map(Named::Keys);
            }
        }
        return Some(Named::Listed(list.to_owned()));
    }
    let helper = enclosing_helper(&lines, idx, id)?;
    call_names(content, helper).map(Named::Keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_parameter_and_its_quoted_callers() {
        let py = "def need(name):\n    v = os.environ.get(name, \"\")\n    return v\n\na = need(\"ACME_KEY\")\nb = need('ACME_ID')\n";
        let lines: Vec<&str> = py.lines().collect();
        assert_eq!(read_ident(lines[1]), Some("name"));
        assert_eq!(enclosing_helper(&lines, 1, "name"), Some("need"));
        assert_eq!(
            call_names(py, "need"),
            Some(vec!["ACME_KEY".to_string(), "ACME_ID".to_string()])
        );
        // One call with a variable: the names are not known.
        assert_eq!(
            call_names("need(\"A_KEY\")\nfor k in os.environ: need(k)\n", "need"),
            None
        );
    }

    #[test]
    fn a_declared_list_walked() {
        assert_eq!(
            walked_list(
                "env = {k: os.environ.get(k, \"\") for k in hfx.ENV_KEYS}",
                "k"
            ),
            Some("hfx.ENV_KEYS")
        );
        assert_eq!(walked_list("for k in os.environ:", "k"), None);
        assert_eq!(
            list_definition(
                "ENV_KEYS = (\n  \"HF_TOKEN\",\n  'HF_HOME',\n)\n",
                "ENV_KEYS"
            ),
            Some(Some(vec!["HF_TOKEN".to_string(), "HF_HOME".to_string()]))
        );
        assert_eq!(
            list_definition("ENV_KEYS = list(os.environ)\n", "ENV_KEYS"),
            Some(None)
        );
        assert_eq!(list_definition("X = 1\n", "ENV_KEYS"), None);
    }
}
