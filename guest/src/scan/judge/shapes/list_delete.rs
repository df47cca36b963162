//! Round 45t (sets45t): `destructive.rm-root-or-home` for recursive deletes of a system or home
//! folder written as configuration-management resources and library calls that the other delete
//! judges read only with a literal target:
//!
//! - a Puppet `file { '/var': … }` (or a list of titles) whose block says `ensure => absent` and
//!   `force => true`;
//! - a Chef `directory v do … action :delete` inside `LIST.each do |v|` whose list
//!   (`%w(/usr /home)`, `['/etc']`) holds such a folder;
//! - Dart's `Directory(x).deleteSync(recursive: true)` (or `.delete(recursive: true)`), `x` a
//!   literal folder or the variable of a `for (… x in [ … ])` a few lines above whose list holds
//!   one, or a name set from `Platform.environment['HOME']`;
//! - (round 46t) Perl's File::Path `remove_tree(…)` / `rmtree(…)` of such a folder or of
//!   `$ENV{HOME}`, written directly or as an array (`@list`) set a few lines above from a list
//!   holding one.
//!
//! A project's own folder (`'build'`, `'/srv/app/releases/old'`) is cleanup, not this. One pass
//! over a code file's lowered lines after a whole-file gate; windows are bounded.

use super::call_delete::hit;
use crate::scan::content::Finding;
use crate::scan::judge::{Bundle, File};

/// Words without one of which this rule cannot fire.
pub(super) const RAW: &[&str] = &[
    "action :delete",
    "absent",
    "recursive: true",
    // Round 46t: Perl's File::Path.
    "remove_tree(",
    "rmtree(",
    // Round 47t: CFEngine's `delete => tidy` body.
    "delete => tidy",
    "delete=>tidy",
];

/// Lines of a resource's block read for its attributes.
const BLOCK: usize = 12;

/// The home folder as the languages read here spell it.
const HOME: &[&str] = &[
    "platform.environment['home']",
    "platform.environment[\"home\"]",
    "platform.environment['userprofile']",
    "platform.environment[\"userprofile\"]",
    "$facts['identity']['home']",
    // Round 46t: Perl.
    "$env{home}",
    "$env{'home'}",
    "$env{\"home\"}",
    "$env{userprofile}",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    super::call_delete::each_code_file(b, out, RAW, scan);
}

/// A word with its quotes, brackets and a trailing slash taken off.
fn clean(w: &str) -> &str {
    let w = w.trim_matches(|c: char| "\"'[](){},;:!".contains(c));
    if w.len() > 1 {
        w.trim_end_matches('/')
    } else {
        w
    }
}

fn root(w: &str) -> bool {
    let w = clean(w);
    !w.is_empty() && super::tree_delete::ROOTS.contains(&w)
}

/// The first system folder among the words of `s` split at spaces and commas.
fn root_in(s: &str) -> Option<String> {
    s.split([' ', ',', '\t'])
        .find(|w| root(w))
        .map(|w| clean(w).to_owned())
}

fn scan(f: &File<'_>) -> Option<Finding> {
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        let t = l.trim_start();
        if t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        if let Some(x) = puppet(f, low, i, t).or_else(|| chef(f, low, i, t)) {
            return Some(x);
        }
        if let Some(x) = dart(f, low, i, t).or_else(|| perl(f, low, i, t)) {
            return Some(x);
        }
        if let Some(x) = cfengine(f, low, i, t) {
            return Some(x);
        }
    }
    None
}

/// The lines of the block that opens at `i`, up to its closing line (bounded).
fn block(low: &[String], i: usize) -> &[String] {
    let end = (i + BLOCK).min(low.len());
    let close = (i + 1..end)
        .find(|&k| {
            let t = low[k].trim();
            t == "}" || t == "end"
        })
        .unwrap_or(end);
    &low[i..close.min(low.len())]
}

/// Puppet: `file { '/var': ensure => absent, force => true }` (titles may be a list).
fn puppet(f: &File<'_>, low: &[String], i: usize, t: &str) -> Option<Finding> {
    let rest = t.strip_prefix("file")?.trim_start().strip_prefix('{')?;
    let title = rest.split(':').next().unwrap_or(rest);
    let what = root_in(title)?;
    let lines = block(low, i);
    let squeezed: Vec<String> = lines
        .iter()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    let absent = squeezed
        .iter()
        .any(|l| l.contains("ensure=>absent") || l.contains("ensure=>'absent'"));
    let force = squeezed.iter().any(|l| l.contains("force=>true"));
    if !(absent && force) {
        return None;
    }
    Some(hit(
        f,
        i,
        format!("Puppet `file {{ '{what}': ensure => absent, force => true }}`"),
        None,
    ))
}

/// Round 47t: CFEngine: a `files:` promise whose promiser is a system folder (`"/etc/."`) and whose
/// attributes, up to the promise's closing `;`, say `delete => tidy` and `depth_search =>
/// recurse(…)`: everything below the folder is deleted on every agent run.
fn cfengine(f: &File<'_>, low: &[String], i: usize, t: &str) -> Option<Finding> {
    let inner = t.strip_prefix('"')?;
    let (path, after) = inner.split_once('"')?;
    if !(after.trim().is_empty() || after.trim_start().starts_with("->")) {
        return None;
    }
    let target = path.strip_suffix("/.").unwrap_or(path);
    if !root(target) {
        return None;
    }
    let end = (i + 1 + BLOCK).min(low.len());
    let close = (i + 1..end)
        .find(|&k| low[k].trim_end().ends_with(';'))
        .unwrap_or(end.saturating_sub(1));
    let squeezed: String = low[i + 1..=close.min(low.len() - 1)]
        .iter()
        .flat_map(|l| l.chars().filter(|c| !c.is_whitespace()))
        .collect();
    if !(squeezed.contains("delete=>tidy") && squeezed.contains("depth_search=>recurse(")) {
        return None;
    }
    Some(hit(
        f,
        i,
        format!(
            "CFEngine promise `\"{path}\"` with `delete => tidy` and a recursive `depth_search`"
        ),
        None,
    ))
}

/// Chef: `%w(/usr /home).each do |d|` then `directory d do … action :delete`.
fn chef(f: &File<'_>, low: &[String], i: usize, t: &str) -> Option<Finding> {
    let at = t.find(".each do |").or_else(|| t.find(".each { |"))?;
    let what = root_in(&t[..at].replace("%w(", " ").replace("%w[", " "))?;
    let var = t[at..].split('|').nth(1)?.trim();
    if var.is_empty() || !var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let head = format!("directory {var} do");
    let k = (i + 1..(i + 4).min(low.len())).find(|&k| low[k].trim() == head)?;
    let lines = block(low, k);
    if !lines.iter().any(|l| l.trim() == "action :delete") {
        return None;
    }
    Some(hit(
        f,
        k,
        format!("Chef `directory {var}` with `action :delete` over a list holding `{what}`"),
        Some(i),
    ))
}

/// Dart: `Directory(x).deleteSync(recursive: true)` of a system or home folder.
fn dart(f: &File<'_>, low: &[String], i: usize, t: &str) -> Option<Finding> {
    let call = t
        .find(".deletesync(recursive: true)")
        .or_else(|| t.find(".delete(recursive: true)"))?;
    let before = &t[..call];
    // `Directory(x).deleteSync(…)` on this line, or `d.deleteSync(…)` with `d = Directory(x)` on
    // one of the three lines above.
    let arg = if let Some(p) = before.rfind("directory(") {
        before[p + "directory(".len()..]
            .split(')')
            .next()?
            .to_owned()
    } else {
        let name = before
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()?;
        let def = format!("{name} = directory(");
        let k = (i.saturating_sub(3)..i)
            .rev()
            .find(|&k| low[k].contains(&def))?;
        let s = &low[k][low[k].find(&def)? + def.len()..];
        s.split(')').next()?.to_owned()
    };
    let arg = arg.trim();
    if root(arg) {
        return Some(hit(
            f,
            i,
            format!("Dart `Directory({arg}).deleteSync(recursive: true)`"),
            None,
        ));
    }
    if !arg.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || arg.is_empty() {
        return None;
    }
    // `for (final x in [ … ])` up to 5 lines above.
    let head = format!("{arg} in [");
    let k = (i.saturating_sub(5)..=i)
        .rev()
        .find(|&k| low[k].contains("for (") && low[k].contains(&head))?;
    let list = low[k][low[k].find(&head)? + head.len()..]
        .split(']')
        .next()?
        .to_owned();
    let what = root_in(&list).or_else(|| {
        list.split([',', ' '])
            .map(str::trim)
            .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            .find(|w| home_name(low, k, w))
            .map(|w| format!("{w} (the home folder)"))
    })?;
    Some(hit(
        f,
        i,
        format!("Dart `Directory({arg}).deleteSync(recursive: true)` over a list holding `{what}`"),
        Some(k),
    ))
}

/// Whether `name` is set from the home folder on one of the ten lines above `at`.
fn home_name(low: &[String], at: usize, name: &str) -> bool {
    let set = format!("{name} = ");
    (at.saturating_sub(10)..at).any(|k| {
        low[k]
            .find(&set)
            .is_some_and(|p| HOME.iter().any(|h| low[k][p..].contains(h)))
    })
}

/// Lines above a Perl delete within which its array's list is looked for.
const PERL_ABOVE: usize = 10;

/// Whether a Perl word is the home folder (`$ENV{HOME}`).
fn perl_home(w: &str) -> bool {
    HOME.iter().any(|h| h.starts_with("$env{") && w.contains(h))
}

/// Perl: `remove_tree('/usr', $ENV{HOME})`, or `remove_tree(@list)` with `my @list = ('/etc', …);`
/// on one of the lines above.
fn perl(f: &File<'_>, low: &[String], i: usize, t: &str) -> Option<Finding> {
    let at = t.find("remove_tree(").or_else(|| {
        t.find("rmtree(")
            .filter(|&p| !t[..p].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '.'))
    })?;
    let args = t[at..].split_once('(')?.1.split(')').next()?;
    // The arguments up to an options hash (`, { safe => 0 }`).
    let args = args.split(", {").next()?;
    if let Some(what) = root_in(args).or_else(|| perl_home(args).then(|| "$ENV{HOME}".to_owned())) {
        return Some(hit(f, i, format!("Perl `remove_tree` of `{what}`"), None));
    }
    let arr = args.split([',', ' ']).map(str::trim).find(|w| {
        w.len() > 1
            && w.starts_with('@')
            && w[1..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
    })?;
    let def = format!("{arr} = (");
    let k = (i.saturating_sub(PERL_ABOVE)..i)
        .rev()
        .find(|&k| low[k].contains(&def))?;
    let list = low[k][low[k].find(&def)? + def.len()..].split(')').next()?;
    let what = root_in(list).or_else(|| perl_home(list).then(|| "$ENV{HOME}".to_owned()))?;
    Some(hit(
        f,
        i,
        format!("Perl `remove_tree({arr})` over a list holding `{what}`"),
        Some(k),
    ))
}
