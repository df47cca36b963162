//! Temporary places a program builds with a call (round 50k): the words the download-and-run
//! shapes read as "saved in a temporary place" besides a literal `/tmp/` or `%TEMP%`.
//!
//! A build or task file rarely writes `/tmp/x` literally: it asks its language for the temporary
//! folder (`os.TempDir()` in Go, `Path.GetTempPath()` in .NET, `tempfile.gettempdir()` in Python,
//! `os.tmpdir()` in Node, `sys_get_temp_dir()` in PHP, `File.createTempFile` in Java,
//! `FileManager.default.temporaryDirectory` in Swift, `$env:TEMP` in PowerShell, `mktemp` in a
//! shell) and joins a name to it. A fetched file saved there and run is the dropper's shape
//! whichever way the folder was named.

use super::find::Has;

/// Lower-case words of a temporary folder or file made or named by the program.
pub(super) const TEMP_CALLS: &[&str] = &[
    "/tmp/",
    "%temp%",
    "$env:temp",
    "$env:tmp",
    "$tmpdir",
    "tmpdir",
    "tempdir",
    "temp_dir",
    "gettempdir",
    "gettemppath",
    "gettempfilename",
    "mkdtemp",
    "mkstemp",
    "mktemp",
    "sys_get_temp_dir",
    "createtempfile",
    "temporarydirectory",
    "runner_temp",
];

/// Whether a lower-case text names a temporary place by one of [`TEMP_CALLS`].
pub(super) fn names_temp(lower: &str) -> bool {
    TEMP_CALLS.iter().any(|w| lower.has(w))
}

#[cfg(test)]
mod tests {
    use super::names_temp;

    #[test]
    fn temp_folders_asked_of_the_language_are_temporary_places() {
        for t in [
            "tool := filepath.join(os.tempdir(), \"x\")",
            "var exe = system.io.path.gettemppath() + \"x.exe\";",
            "$p = join-path $env:temp 'x.ps1'",
            "$f = [system.io.path]::gettempfilename()",
            "let dir = fs.mkdtempsync(path.join(os.tmpdir(), 'x-'));",
            "$path = sys_get_temp_dir() . '/x.phar';",
        ] {
            assert!(names_temp(t), "{t}");
        }
        for t in [
            "tool := filepath.join(cachedir, \"x\")",
            "var exe = path.combine(appcontext.basedirectory, \"x.exe\");",
            "$p = join-path $psscriptroot 'build.ps1'",
            "template_dir = \"templates\"",
        ] {
            assert!(!names_temp(t), "{t}");
        }
    }
}
