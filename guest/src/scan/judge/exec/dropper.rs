//! What tells a dropper from an installer in `supply_chain.download-execute`: a program (not a
//! script or archive) run unverified from an unknown host, saved to a hidden or temporary place,
//! or run in the background, in-process or past antivirus. Separate from [`super`] because these
//! are the stealth and provenance tests [`super`]'s download-and-run pairing asks, not the pairing.

use crate::scan::facts::FactKind;
use crate::scan::hosts::HostClass;
use crate::scan::judge::flow::FileFlow;
use crate::scan::judge::{At, Bundle, Host};

/// Whether the download at `src` is saved to a file a variable names (`-o "$BOOT"`) whose value,
/// followed through the file's definitions, is a hidden or temporary place.
pub(super) fn saved_to_hidden_variable(src: &At<'_>, flow: &FileFlow) -> bool {
    let Some(target) = src.fact.capture.as_deref() else {
        return false;
    };
    let var = target
        .trim_matches(['"', '\''])
        .trim_start_matches('$')
        // `${BOOT}`, and a Makefile's `$(CACHE)`.
        .trim_start_matches(['{', '('])
        .split(['}', ')', '/', '"'])
        .next()
        .unwrap_or("");
    if var.is_empty() || !target.contains('$') {
        return false;
    }
    flow.defs
        .resolve(var, &|rhs: &str| hidden_place(rhs).then_some(()))
        .is_some()
}

/// Extensions of scripts (run by an interpreter, readable) and archives (unpacked first): a
/// downloaded file with none of these that is made executable and run is a program.
const SCRIPT_OR_ARCHIVE: &[&str] = &[
    ".sh", ".bash", ".zsh", ".py", ".rb", ".pl", ".js", ".mjs", ".cjs", ".ts", ".ps1", ".psm1",
    ".php", ".lua", ".zip", ".tar", ".gz", ".tgz", ".xz", ".bz2", ".zst", ".deb", ".rpm", ".whl",
    ".jar",
];

/// Words of a checksum or signature check: a download verified against a published hash or
/// signature is an installer doing its job.
const VERIFY_WORDS: &[&str] = &[
    "sha256sum",
    "sha512sum",
    "shasum",
    "Get-FileHash",
    "gpg --verify",
    "gpg2 --verify",
    "cosign verify",
    "minisign",
    "--checksum",
    "checksum",
    "hashlib.sha256",
    "CertUtil -hashfile",
];

/// A program (not a script or archive) downloaded from a host that is neither a vendor's (nor a
/// code forge's, which serve vendors' releases) and run with no checksum or signature check in
/// the file: a dropper. Vendor installers come from hosts the judge knows (rustup, uv, Homebrew,
/// Docker…) and are graded lower before this is asked.
pub(super) fn dropper(
    file: &crate::scan::judge::File<'_>,
    src: &At<'_>,
    sink: &At<'_>,
    host: Option<&Host>,
) -> Option<&'static str> {
    let h = host?;
    if h.class != HostClass::Unknown || crate::scan::hosts::vendor_of_host(&h.host).is_some() {
        return None;
    }
    let target = src
        .fact
        .capture
        .as_deref()
        .or(sink.fact.capture.as_deref())
        .unwrap_or(h.path.as_str());
    let name = target
        .trim_matches(['"', '\''])
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let url_name = h
        .path
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .rsplit('/')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    // In a script of the bundle (run when the skill runs, with nobody reading along), a script
    // fetched and loaded into the running program (sourced, `load`ed, evaluated) is as opaque as a
    // program; installers are run as programs of their own (`bash install.sh`), and only an
    // archive is unpacked first. In docs, a person runs an installer script they can read first.
    let in_code = file.kind == crate::scan::content::FileKind::Code && in_process(sink);
    let exempt = |n: &str| {
        let list: &[&str] = if in_code { ARCHIVES } else { SCRIPT_OR_ARCHIVE };
        list.iter().any(|e| n.ends_with(e))
    };
    if name.is_empty() && !in_code || exempt(&name) || exempt(&url_name) {
        return None;
    }
    if VERIFY_WORDS.iter().any(|w| file.content.contains(w)) {
        return None;
    }
    Some(if in_code && sink.fact.kind == FactKind::EvalValue {
        "fetched from a host that is neither a vendor's nor a code forge's and evaluated inside the running program, with no copy saved and no checksum or signature check (the shape of a dropper)"
    } else {
        "code from a host that is neither a vendor's nor a code forge's, run without any checksum or signature check (the shape of a dropper)"
    })
}

/// Whether a file checks a checksum or signature (anywhere in it), or the download is an archive
/// (by its saved name or the URL's): an installer verifying or unpacking a release, not code run
/// as fetched.
pub(super) fn verified_or_archive(
    file: &crate::scan::judge::File<'_>,
    src: &At<'_>,
    host: Option<&Host>,
) -> bool {
    if VERIFY_WORDS.iter().any(|w| file.content.contains(w)) {
        return true;
    }
    let saved = src
        .fact
        .capture
        .as_deref()
        .unwrap_or("")
        .trim_matches(['"', '\''])
        .to_ascii_lowercase();
    let url = host
        .map(|h| {
            h.path
                .split(['?', '#'])
                .next()
                .unwrap_or("")
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    ARCHIVES
        .iter()
        .any(|e| saved.ends_with(e) || url.ends_with(e))
}

/// Whether a run loads its code into the running program rather than starting a program: an
/// evaluation, a `load`/`require`/`Import-Module`, a shell's `source` / `.`, or `sh -c` given the
/// value as its command.
fn in_process(sink: &At<'_>) -> bool {
    if sink.fact.kind == FactKind::EvalValue {
        return true;
    }
    let text = sink.text();
    let m = sink.matched();
    let m = m.trim_start();
    let head = text.trim_start();
    m.starts_with("load")
        || m.starts_with("require")
        || m.starts_with("runpy")
        || m.starts_with("exec(")
        || m.starts_with("import(")
        || m.starts_with("Import-Module")
        || head.starts_with("source ")
        || head.starts_with(". ")
        // A shell handed the value as its command string (`spawn(["sh", "-c", script])`).
        || ["[\"sh\", \"-c\"", "['sh', '-c'", "[\"bash\", \"-c\"", "['bash', '-c'"]
            .iter()
            .any(|w| text.contains(w))
}

/// Configuration files of git-hook managers: the commands they name run on every commit.
const HOOK_MANAGER_FILES: &[&str] = &[
    ".pre-commit-config.yaml",
    ".pre-commit-config.yml",
    "lefthook.yml",
    "lefthook.yaml",
    ".lefthook.yml",
];

/// Archive extensions: what is fetched is unpacked before anything in it runs.
const ARCHIVES: &[&str] = &[
    ".zip", ".tar", ".gz", ".tgz", ".xz", ".bz2", ".zst", ".deb", ".rpm", ".whl", ".jar",
];

/// What makes a download-and-run look like a dropper rather than an installer: it is saved to a
/// hidden or temporary place, run in the background or with its output thrown away, or the bundle
/// also talks the user past antivirus or Gatekeeper.
pub(super) fn stealthy(b: &Bundle<'_>, src: &At<'_>, sink: &At<'_>) -> Option<&'static str> {
    let (st, kt) = (src.text(), sink.text());
    let hidden = hidden_place;
    if hidden(&st) || hidden(&kt) {
        return Some("from a hidden or temporary place");
    }
    stealthy_run(b, src, sink, &kt)
}

/// A temporary or hidden place (`/tmp/`, `%TEMP%`, a dot-folder other than the usual tool homes).
fn hidden_place(t: &str) -> bool {
    [
        "/tmp/",
        "/var/tmp/",
        "/dev/shm/",
        "$TMPDIR",
        "%TEMP%",
        "$env:TEMP",
        "AppData",
        "Public\\",
        "/Library/Caches/",
        // Temporary files and folders made by the program (`$(mktemp)`, `os.tmpdir()`,
        // `tempfile.mkdtemp()`, `[IO.Path]::GetTempPath()`).
        "mktemp",
        "tmpdir()",
        "tempfile.",
        "gettempdir(",
        "GetTempPath(",
        "GetTempFileName(",
        "os.TempDir(",
        // A CI runner's temporary folder (round 37t).
        "RUNNER_TEMP",
        "runner.temp",
    ]
    .iter()
    .any(|w| t.contains(w))
        || t.split(['/', '\\', ' ', '\t', '"', '\'', '=', '`'])
            .any(|c| {
                c.len() > 1
                    && c.starts_with('.')
                    && !c.starts_with("..")
                    && !matches!(
                        c,
                        ".local" | ".cargo" | ".config" | ".venv" | ".git" | ".github" | ".bin"
                    )
                    && c.as_bytes()[1].is_ascii_alphanumeric()
            })
}

/// The rest of [`stealthy`]: how the downloaded thing is run.
fn stealthy_run(b: &Bundle<'_>, src: &At<'_>, sink: &At<'_>, kt: &str) -> Option<&'static str> {
    let t = kt.trim_end();
    let kt = kt.replace('\'', "\"").replace("stdio:\"", "stdio: \"");
    if t.ends_with('&') && !t.ends_with("&&")
        || [
            "nohup ",
            "setsid ",
            "disown",
            ">/dev/null 2>&1",
            "> /dev/null 2>&1",
            "-WindowStyle Hidden",
            "stdio: \"ignore\"",
            "detached: true",
            "DEVNULL",
            "CREATE_NO_WINDOW",
            "start /b",
            "/silent",
            "/quiet",
            "/qn",
        ]
        .iter()
        .any(|w| kt.contains(w))
    {
        return Some("in the background with its output hidden");
    }
    // PowerShell told to skip its script-signing policy for the file (round 35t).
    let lk = crate::ascii_lowered(&kt);
    if [
        "-executionpolicy bypass",
        "-executionpolicy unrestricted",
        "-ep bypass",
        "-exec bypass",
    ]
    .iter()
    .any(|w| lk.contains(w))
    {
        return Some("with PowerShell's script policy bypassed");
    }
    if b.any(FactKind::AvBypass) {
        return Some("in a bundle that also talks the user past antivirus or Gatekeeper");
    }
    // npm runs these scripts by itself during `npm install`, before anyone runs the skill.
    if sink.file.path.rsplit('/').next() == Some("package.json")
        && [
            "\"preinstall\"",
            "\"install\"",
            "\"postinstall\"",
            "\"prepare\"",
        ]
        .iter()
        .any(|h| kt.trim_start().starts_with(h))
    {
        return Some("by an npm lifecycle script that runs on `npm install` without being asked");
    }
    // A git-hook manager's hook command (pre-commit's `entry:`, lefthook's and Husky's `run:`)
    // runs on every commit by itself, like an npm lifecycle script.
    let name = sink.file.path.rsplit('/').next().unwrap_or("");
    if HOOK_MANAGER_FILES.contains(&name) || sink.file.path.contains(".husky/") {
        return Some(
            "by a git-hook manager's hook, which runs on every commit without being asked",
        );
    }
    // A program that fetches text and evaluates it inside itself is remote control, not an
    // installer: what runs can change at any time after review, and nothing is saved to check.
    if src.fact.kind == FactKind::FetchToValue
        && sink.file.kind == crate::scan::content::FileKind::Code
        && (sink.fact.kind == FactKind::EvalValue
            || [
                "execSync(",
                "exec(",
                "eval(",
                "system(",
                "runInThisContext(",
                "Create(",
            ]
            .iter()
            .any(|w| kt.contains(w)))
    {
        return Some(
            "as code inside the program that fetched it (nothing is saved that could be checked)",
        );
    }
    None
}
