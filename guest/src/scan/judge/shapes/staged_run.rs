//! `supply_chain.download-execute` for a download saved under a name and run by that name in
//! build and config languages the line facts do not read as a flow: a Nix `builtins.fetchurl`
//! bound to a name that a `shellHook` runs, an Ansible `get_url` task's `dest:` run by a later
//! `command:` task, CMake `file(DOWNLOAD URL P)` then `execute_process(COMMAND sh P)`, R
//! `download.file(URL, f)` then `source(f)`, Julia `download(URL, p)` then `include(p)`, a Gradle
//! stream copied into a `File` that is then `.execute()`d, two `//go:generate` lines, a dev
//! container's create commands.
//!
//! The saved name is what the download's statement names besides the URL: a path (`/tmp/x.sh`,
//! `${DIR}/x.sh`), the name the line assigns (`p = download(…)`, `x <- …`), the first bare name
//! among the call's later arguments, a `dest:` / `-o` / `-O` value on the lines around it, or a name
//! defined on the lines just above that the statement uses. A later line (within a bounded window)
//! that runs something (`sh`, `bash`, `source(`, `include(`, `load`, `command:`, `.execute()`,
//! `execute_process`) and names it is the run. From a host that is not a vendor's, installer's or
//! registry's; a checksum check between the two makes it a verified install (not this rule's).

use super::{found, has, is_code, rel};
use crate::scan::content::Finding;
use crate::scan::judge::find::Has;
use crate::scan::judge::{Bundle, File, Host, hosts_in};
use crate::scan::rules::Severity;

const RULE: &str = "supply_chain.download-execute";
/// Lines after a download within which its run is looked for.
const WINDOW: usize = 30;

/// Words that run the name that follows (or a name on the line).
const RUNS: &[&str] = &[
    "sh ",
    "bash ",
    "zsh ",
    // Round 46b: shells the bare `sh ` used to match inside their names, now that a run word
    // counts at a word's start only (`head_has`).
    "dash ",
    "ksh ",
    "mksh ",
    "ash ",
    "fish ",
    "source(",
    "source ",
    "include(",
    ".execute()",
    "execute_process(",
    "command:",
    "command=",
    "shell:",
    "exec(",
    "system(",
    "run(",
    "popen(",
    "spawn(",
    "start-process",
    "invoke-expression",
    "node ",
    "python ",
    "python3 ",
    "ruby ",
    "perl ",
    "pwsh ",
    // Round 39t: Groovy `evaluate(src)`, Lisp `(load f)`, PHP, Haskell's `callProcess f`, other
    // interpreters, and an interpreter named as the first item of an argument list
    // (`addSystemCommand(&.{ "sh", f })`, `run_command('python3', f)`).
    "evaluate(",
    "eval(",
    "(load ",
    "php ",
    "callprocess ",
    "lua ",
    "tclsh ",
    "deno run",
    "bun ",
    "runghc ",
    "\"sh\",",
    "'sh',",
    "\"bash\",",
    "'bash',",
    "\"python3\",",
    "'python3',",
    "\"python\",",
    "'python',",
    "\"node\",",
    "'node',",
    "\"php\",",
    "'php',",
    // Round 40t: Clojure's `(load-file f)`, PowerShell's `-File f`, .NET's `Process.Start`, Nim,
    // Erlang, Raku, Babashka and F# runners, and more interpreters as an argument list's first item.
    "(load-file ",
    "-file ",
    "process.start(",
    "nim e ",
    "nim r ",
    "escript ",
    "raku ",
    "bb ",
    "dotnet fsi ",
    "'raku',",
    "\"raku\",",
    "'ruby',",
    "\"ruby\",",
    "'perl',",
    "\"perl\",",
    "'pwsh',",
    "\"pwsh\",",
    // Round 41t: NSIS installers' `ExecWait '"$TEMP\x.exe"'` and `nsExec::Exec`.
    "execwait ",
    "nsexec::exec",
    // Round 43t: Free Pascal's `TProcess` (`p.Executable := f` then `p.Execute`).
    "executable :=",
];
/// Words of a download on the statement's line or the two above it (a task's module name).
const FETCHES: &[&str] = &[
    "fetchurl",
    "download",
    "get_url",
    "curl ",
    "wget ",
    "urlopen",
    "urlretrieve",
    "uri.open",
    "uri(",
    "url(",
    "invoke-webrequest",
    "iwr ",
    "invoke-restmethod",
    "irm ",
    "webclient",
    "http.get",
    "requests.get",
    "fetch(",
    "openstream",
    "withinputstream",
    // Round 39t: Emacs Lisp, PHP's `copy(URL, f)`, Nushell.
    "url-copy-file",
    "url-retrieve",
    "copy('http",
    "copy(\"http",
    "http get ",
    "\"curl\",",
    "'curl',",
    "\"wget\",",
    "'wget',",
    // Round 40t: Clojure's `(slurp "http…")`, .NET's `GetStringAsync`/`DownloadFile`.
    "(slurp \"http",
    "getstringasync(",
    "wget,",
    "curl,",
    "getbytearrayasync(",
    "downloadfile(",
    // Round 43t: Perl's `LWP::Simple::getstore(URL, file)`, an HTTP client's `.Get(URL, file)`
    // (Free Pascal's `TFPHTTPClient`).
    "getstore(",
    ".get('http",
    ".get(\"http",
];
/// A check of what was downloaded (a verified install).
const CHECKS: &[&str] = &[
    "sha256",
    "sha512",
    "checksum",
    "gpg --verify",
    "minisign",
    "cosign",
];
/// Names that say nothing on their own (language words, common arguments).
const COMMON: &[&str] = &[
    "url",
    "uri",
    "new",
    "file",
    "path",
    "the",
    "let",
    "const",
    "var",
    "val",
    "def",
    "local",
    "in",
    "true",
    "false",
    "quiet",
    "mode",
    "dest",
    "src",
    "with",
    "then",
    "open",
    "read",
    "write",
    "get",
    "http",
    "https",
    "tmp",
    "temp",
    "sh",
    "bash",
    "curl",
    "wget",
    "download",
    "fetchurl",
    "it",
    "builtins",
    "downloads",
    "and",
    "not",
    "null",
    "none",
    "nil",
];

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    for f in &b.files {
        if !is_code(f) || has(out, f, RULE, Severity::High) {
            continue;
        }
        out.extend(staged(f));
    }
}

fn staged(f: &File<'_>) -> Option<Finding> {
    let lines = &f.lowered().lines;
    let low = &f.lowered().lower;
    for (i, l) in low.iter().enumerate() {
        if !l.has("://") {
            continue;
        }
        let hosts = hosts_in(lines[i]);
        let Some(host) = hosts
            .iter()
            .filter(|h| h.url.has("://") && super::suspicious(h.class))
            .max_by_key(|h| h.class)
        else {
            continue;
        };
        if !low[i.saturating_sub(2)..=i]
            .iter()
            .any(|t| FETCHES.iter().any(|w| t.has(w)))
        {
            continue;
        }
        let mut names = saved_names(low, i, &hosts);
        // Round 40t: a data file (`rates.csv`, `page.pdf`) is read, not run; a name the download
        // line itself runs before the URL (`node scripts/render.mjs https://…`) is the runner, not
        // what is saved.
        let url_at = hosts
            .iter()
            .filter_map(|h| l.find(&crate::ascii_lowered(&h.url).into_owned()))
            .min()
            .unwrap_or(l.len());
        names.retain(|n| !data_file(n) && !runs_it(&l[..url_at], n));
        if names.is_empty() {
            continue;
        }
        let end = (i + WINDOW).min(low.len());
        let Some((k, name)) = (i + 1..end).find_map(|k| {
            let t = &low[k];
            names.iter().find(|n| runs_it(t, n)).map(|n| (k, n.clone()))
        }) else {
            continue;
        };
        if (i..=k).any(|j| CHECKS.iter().any(|c| low[j].has(c))) {
            continue;
        }
        return Some(finding(f, i, k, host, &name));
    }
    None
}

fn finding(f: &File<'_>, i: usize, k: usize, host: &Host, name: &str) -> Finding {
    found(
        RULE,
        "supply_chain",
        Severity::Critical,
        f,
        k,
        format!(
            "A file is downloaded from {} ({}) at line {} and saved as `{name}`, which line {} runs: code from that host runs on this machine, unchecked.",
            host.host,
            host.class.phrase(),
            i + 1,
            k + 1
        ),
        vec![rel("download", f, i)],
    )
}

/// Whether line `t` runs `n`: a run word, then `n` (a path as a substring, a bare name as a whole
/// word) within a few dozen bytes after it; or Ruby's `load n` opening the line.
fn runs_it(t: &str, n: &str) -> bool {
    let at = if n.contains('/') {
        t.find(n)
    } else {
        t.match_indices(n)
            .map(|(p, _)| p)
            .find(|&p| word_start(t, p) && word_end(t, p + n.len()))
    };
    let Some(at) = at else {
        return false;
    };
    if t.starts_with("load ") {
        return true;
    }
    // Round 40t: a command that opens with the name (`./tool/install`, a cloud-init list item
    // `- [/opt/x.bin, …]`, PowerShell's call operator `& $dir/x.ps1`) runs it.
    let head = command_head(t);
    let head = head.strip_prefix("./").unwrap_or(head);
    if let Some(after) = head.strip_prefix(n)
        && (n.ends_with('/') || after.is_empty() || after.starts_with([' ', ',', ']', '"', '\'']))
        && !after.trim_start().starts_with(['=', ':', '<'])
    {
        return true;
    }
    // A plain file name (`data.csv`) is run only as the run word's own argument: it may be any
    // argument of a command that runs something else (`python3 report.py data.csv`).
    let plain = !(n.chars().all(ident) || (n.contains('/') && n.len() >= 6));
    if plain {
        return RUNS.iter().any(|r| {
            t[..at]
                .rfind(r)
                .is_some_and(|p| t[p + r.len()..at].chars().all(|c| " \"'`({,".contains(c)))
        });
    }
    // A command list run by a call after it (Groovy `['sh', f].execute()`).
    RUNS.iter().any(|r| head_has(t, at, r)) || t[at..].has("].execute()")
}

/// A file name with an extension (`prepare.sh`, `gen_config.py`): a stem with a letter, a dot, and
/// an alphabetic extension of one to four letters.
fn file_name(n: &str) -> bool {
    let base = n.rsplit('/').next().unwrap_or(n);
    let Some((stem, ext)) = base.rsplit_once('.') else {
        return false;
    };
    n.len() >= 4
        && stem.chars().any(|c| c.is_ascii_alphabetic())
        && stem.chars().all(|c| ident(c) || c == '-' || c == '.')
        && (1..=4).contains(&ext.len())
        && ext.chars().all(|c| c.is_ascii_alphanumeric())
        // Round 40t: a digit may follow the first letter (`setup.ps1`, `run.py3`).
        && ext.starts_with(|c: char| c.is_ascii_alphabetic())
}

/// Extensions of data and documents, which a program reads but nothing runs.
const DATA_EXTS: &[&str] = &[
    "csv", "tsv", "json", "jsonl", "ndjson", "txt", "md", "pdf", "png", "jpg", "jpeg", "gif",
    "webp", "svg", "html", "htm", "xml", "parquet", "xlsx", "xls", "docx", "pptx", "mp3", "mp4",
    "wav",
];

/// Whether `n` names a data file or document by its extension (`data/rates.csv`).
fn data_file(n: &str) -> bool {
    n.rsplit_once('.')
        .is_some_and(|(_, ext)| DATA_EXTS.contains(&ext))
}

/// The command a line opens with: a list item's dash and bracket, a CI key (`run:`, `script:`,
/// `command:`), PowerShell's call operator and quotes stripped.
fn command_head(t: &str) -> &str {
    let mut h = t.trim_start();
    loop {
        let next = h
            .strip_prefix("- ")
            .or_else(|| h.strip_prefix('['))
            .or_else(|| h.strip_prefix("run:"))
            .or_else(|| h.strip_prefix("script:"))
            .or_else(|| h.strip_prefix("command:"))
            .or_else(|| h.strip_prefix("& "))
            .or_else(|| h.strip_prefix(['"', '\'']))
            .map(str::trim_start);
        match next {
            Some(n) if n.len() < h.len() => h = n,
            _ => return h,
        }
    }
}

/// Extensions of scripts and programs a download line may save (`gen.sh`, `plugin.clj`).
const CODE_EXTS: &[&str] = &[
    "sh", "bash", "py", "ps1", "psm1", "rb", "pl", "js", "mjs", "ts", "php", "lua", "clj", "nims",
    "nim", "raku", "fsx", "bat", "cmd", "exe", "bin", "escript", "groovy", "kts", "scala", "jar",
];

/// Whether `n` is a file name with a script's or program's extension.
fn code_file(n: &str) -> bool {
    file_name(n)
        && n.rsplit_once('.')
            .is_some_and(|(_, ext)| CODE_EXTS.contains(&ext))
}

/// Archive extensions, whose folder (the name without them) is what an unpacked download leaves.
const ARCHIVES: &[&str] = &[".tar.gz", ".tgz", ".tar.xz", ".tar.bz2", ".zip", ".tar"];

fn word_start(t: &str, p: usize) -> bool {
    p == 0 || !ident(t.as_bytes()[p - 1] as char)
}

fn word_end(t: &str, e: usize) -> bool {
    e >= t.len() || !ident(t.as_bytes()[e] as char)
}

/// Whether run word `r` occurs in the 60 bytes before `at` on `t`.
fn head_has(t: &str, at: usize, r: &str) -> bool {
    let mut from = at.saturating_sub(60);
    while !t.is_char_boundary(from) {
        from += 1;
    }
    // Round 46b: a command word (a letter first, a space last) counts at a word's start only:
    // `sh ` inside `fresh one` or `publish ` is no shell. A call (`system(`) keeps any prefix
    // (`fpSystem(`, `os.system(`).
    let w = &t[from..at];
    if !(r.starts_with(|c: char| c.is_ascii_alphabetic()) && r.ends_with(' ')) {
        return w.has(r);
    }
    w.match_indices(r).any(|(p, _)| {
        w[..p]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
    })
}

fn ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// What the download statement at line `i` saves its file as.
fn saved_names(low: &[String], i: usize, hosts: &[Host]) -> Vec<String> {
    let l = &low[i];
    let mut names: Vec<String> = Vec::new();
    let push = |n: &str, names: &mut Vec<String>| {
        let n = n.trim_matches(|c: char| "\"'`,;(){}[]".contains(c));
        let bare = n.chars().all(ident);
        let ok = if bare {
            n.len() >= 3 && !COMMON.contains(&n) && !n.chars().all(|c| c.is_ascii_digit())
        } else {
            (n.contains('/') && n.len() >= 6 && !n.has("://")) || file_name(n)
        };
        if ok && !names.iter().any(|x| x == n) {
            names.push(n.to_owned());
        }
    };
    // Paths on the line besides the URL.
    let mut rest = l.clone();
    for h in hosts {
        rest = rest.replace(&crate::ascii_lowered(&h.url).into_owned(), " ");
    }
    for tok in rest.split(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == ',') {
        let t = tok.trim_matches(|c: char| "()[];".contains(c));
        if t.starts_with(['/', '~', '$', '.']) && !t.starts_with("//") && t.contains('/') {
            push(t, &mut names);
        }
        // A relative path with a file extension (`zig-out/setup.sh`, `storage/boot.php`).
        if t.contains('/') && !t.has("://") && !t.starts_with('-') && file_name(t) {
            push(t, &mut names);
        }
    }
    // The name the line assigns.
    let assigned = l.split_once("<-").map(|(a, _)| a).or_else(|| {
        l.split_once('=')
            .map(|(a, _)| a)
            .filter(|a| !a.contains('('))
    });
    if let Some(a) = assigned
        && let Some(n) = a.split_whitespace().last()
    {
        push(n.trim_start_matches(['$', '@']), &mut names);
    }
    // The first bare name among the arguments after the URL's literal (`download.file(URL, f)`).
    if let Some(at) = hosts.first().and_then(|h| {
        l.find(&crate::ascii_lowered(&h.url).into_owned())
            .map(|p| p + h.url.len())
    }) {
        let after = l[at..].trim_start_matches(['"', '\'', ')']);
        // Lisp arguments follow a space (`(url-copy-file "URL" f t)`).
        if after.starts_with(' ')
            && let Some(arg) = after.split_whitespace().next()
            && arg.chars().all(ident)
        {
            push(arg, &mut names);
        }
        if let Some(args) = after.strip_prefix(',') {
            let arg = args.split(',').next().unwrap_or("").trim();
            // Round 43t: a statement's `);` and a Perl scalar's sigil (`getstore(URL, $f);`).
            let arg = arg.trim_end_matches(';').trim_end();
            let arg = arg.strip_suffix(')').unwrap_or(arg).trim();
            let arg = arg.strip_prefix('$').unwrap_or(arg);
            if arg.chars().all(ident) && !arg.contains('=') {
                push(arg, &mut names);
            }
        }
    }
    // Round 40t: a quoted script or program name on the download line besides the URL
    // (`#> new File("gen.sh")`, `(spit "plugin.clj" …)`).
    for tok in rest.split(['"', '\'']) {
        if code_file(tok.trim()) {
            push(tok.trim(), &mut names);
        }
    }
    // Round 40t: a short-flag cluster that ends in `o` (`-sSLo f`) names the output too.
    for w in rest.split_whitespace().collect::<Vec<_>>().windows(2) {
        if w[0].len() > 2
            && w[0].starts_with('-')
            && !w[0].starts_with("--")
            && w[0].ends_with('o')
            && w[0][1..].chars().all(|c| c.is_ascii_alphabetic())
        {
            push(w[1], &mut names);
        }
    }
    // `dest:` / `-o` / `-O` / `--output` values on the lines around it (a task's keys).
    let from = i.saturating_sub(2);
    let to = (i + 4).min(low.len());
    for t in &low[from..to] {
        for key in [
            "dest:",
            "dest=",
            " -o ",
            "--output ",
            "-outfile ",
            // Round 39t: the flag as an item of an argument list (`'-o', 'f'`, `"-o", "f"`).
            "'-o', ",
            "\"-o\", ",
        ] {
            if let Some(p) = t.find(key) {
                let v = t[p + key.len()..].trim_start();
                if let Some(v) = v.split_whitespace().next() {
                    push(v, &mut names);
                }
            }
        }
    }
    // Round 39t: a name defined on the lines just above that a download line with an output flag
    // names (`let tool = …` then `curl -o " ++ tool ++ " URL`).
    if [" -o ", "-o \"", "--output", "-outfile"]
        .iter()
        .any(|k| l.has(k))
    {
        for t in &low[i.saturating_sub(3)..i] {
            if let Some((a, _)) = t.split_once('=')
                && !a.contains('(')
                && let Some(n) = a.split_whitespace().last()
                && n.chars().all(ident)
                && n.len() >= 3
                && l.match_indices(n)
                    .any(|(p, _)| word_start(l, p) && word_end(l, p + n.len()))
            {
                push(n, &mut names);
            }
        }
    }
    // A file value defined on the lines just above that the statement writes into (`target = new
    // File(…)` … `target.withOutputStream`, `f << stream`).
    for t in &low[i.saturating_sub(3)..i] {
        if let Some((a, _)) = t.split_once('=')
            && let Some(n) = a.split_whitespace().last()
            && n.chars().all(ident)
            && n.len() >= 3
            && l.match_indices(n).any(|(p, _)| {
                let after = &l[p + n.len()..];
                word_start(l, p)
                    && [
                        ".with",
                        ".write",
                        ".newoutputstream",
                        ".outputstream",
                        " <<",
                    ]
                    .iter()
                    .any(|w| after.starts_with(w))
            })
        {
            push(n, &mut names);
        }
    }
    // Round 40t: an archive's folder (`deployer.tgz` unpacks into `deployer/`), and a file a later
    // line writes a saved name into (`File.WriteAllText("setup.ps1", script)`).
    for n in names.clone() {
        if let Some(stem) = ARCHIVES.iter().find_map(|a| n.strip_suffix(a))
            && stem.len() >= 3
            && stem
                .chars()
                .all(|c| ident(c) || c == '-' || c == '.' || c == '/')
        {
            let dir = format!("{stem}/");
            if !names.contains(&dir) {
                names.push(dir);
            }
        }
    }
    for t in &low[i + 1..(i + 6).min(low.len())] {
        if WRITES.iter().any(|w| t.contains(w))
            && names.iter().any(|n| {
                n.chars().all(ident)
                    && t.match_indices(n.as_str())
                        .any(|(p, _)| word_start(t, p) && word_end(t, p + n.len()))
            })
        {
            for tok in t.split(['"', '\'']) {
                if code_file(tok.trim()) {
                    push(tok.trim(), &mut names);
                }
            }
        }
    }
    names
}

/// Calls that write a value into a named file.
const WRITES: &[&str] = &[
    "writealltext(",
    "writefile(",
    "write_text(",
    "writetextfile(",
    "(spit ",
    "spurt ",
    "file_put_contents(",
    "writefilesync(",
];
