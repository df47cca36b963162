//! A candidates file read straight into the component's memory.
//!
//! Handed over as text ([`super::handover`]), a 44 MB candidates file (100,000 candidates) costs the
//! host a 44 MB buffer (its pages faulted in and zeroed by the kernel, then filled by the file's
//! read), a UTF-8 check of it, and a copy of it into the component's linear memory. An
//! [`InputFile`] is lowered as the same `string` parameter, through the same `realloc`, but the
//! file is read into the bytes the component allocated and checked there: no host buffer, no copy.
//! The component sees exactly the bytes the text path would have given it.
//!
//! Only a regular, non-empty file within the input limit is read this way ([`InputFile::open`]);
//! anything else (standard input, a pipe, a directory, an empty or too large file) is read as text,
//! which gives the usual errors. A file that is not UTF-8 is refused with the text path's error
//! (`InvalidInput`, "… is not UTF-8 text"), before the component's function runs (its allocator
//! has run: the bytes it allocated are never read).

use std::fs::File;
use std::io::{ErrorKind, Read};
use std::path::Path;

use wasmtime::Result;
use wasmtime::component::__internal::LowerContext;
use wasmtime::component::__internal::wasmtime_environ::component::StringEncoding;

use crate::error::Error;

/// The largest `string` the canonical ABI lowers (wasmtime's own bound for `str`).
const MAX_STRING_BYTES: usize = (1 << 31) - 1;

/// An input file to be read into the component's memory when the call starts.
#[derive(Debug)]
pub struct InputFile {
    file: File,
    len: usize,
    /// The flag it was given for (`candidates`), for errors.
    field: String,
    /// The file's name as the user gave it, for errors.
    name: String,
}

impl InputFile {
    /// `path` as an input file for `field`, when it is a regular file of 1 to `limit` bytes that
    /// can be opened; `None` otherwise (`-`, a pipe, a directory, an empty or too large file, an
    /// open error): read it as text then, which reports what is wrong with it.
    pub fn open(field: &str, path: &Path, limit: usize) -> Option<InputFile> {
        if path.as_os_str() == "-" {
            return None;
        }
        let file = File::open(path).ok()?;
        let meta = file.metadata().ok()?;
        let len = usize::try_from(meta.len()).ok()?;
        (meta.is_file() && len > 0 && len <= limit.min(MAX_STRING_BYTES)).then(|| InputFile {
            file,
            len,
            field: field.into(),
            name: path.display().to_string(),
        })
    }

    /// Its length in bytes when it was opened.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Never true: an empty file is read as text ([`InputFile::open`]).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The whole file as text (when it cannot be read into the component: a non-UTF-8 string
    /// encoding, or a command that wraps its input), with the text path's errors.
    pub fn into_text(mut self) -> std::result::Result<String, Error> {
        let mut bytes = Vec::with_capacity(self.len);
        self.file
            .read_to_end(&mut bytes)
            .map_err(|e| self.error(format!("cannot read {}: {e}", self.name)))?;
        if bytes.len() > self.len {
            return Err(self.changed());
        }
        String::from_utf8(bytes).map_err(|_| self.not_utf8())
    }

    /// Read into memory the component allocates with its `realloc`, as wasmtime lowers a `str`
    /// into a UTF-8 component: the (pointer, length) the `string` parameter is lowered as.
    pub(super) fn lower<T>(mut self, cx: &mut LowerContext<'_, T>) -> Result<(usize, usize)> {
        debug_assert!(matches!(cx.options().string_encoding, StringEncoding::Utf8));
        let len = self.len;
        let ptr = cx.realloc(0, 0, 1, len)?;
        let into = cx
            .as_slice_mut()
            .get_mut(ptr..)
            .and_then(|b| b.get_mut(..len))
            .ok_or_else(|| wasmtime::Error::msg("string pointer/length out of bounds of memory"))?;
        let read = self.file.read_exact(into).and_then(|()| {
            // Nothing may follow: a file that grew since it was opened is not read in part.
            let mut more = [0u8; 1];
            self.file.read(&mut more)
        });
        match read {
            Ok(0) => {}
            Ok(_) => return Err(InputError(self.changed()).into()),
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => {
                return Err(InputError(self.changed()).into());
            }
            Err(e) => {
                let message = format!("cannot read {}: {e}", self.name);
                return Err(InputError(self.error(message)).into());
            }
        }
        if std::str::from_utf8(into).is_err() {
            return Err(InputError(self.not_utf8()).into());
        }
        Ok((ptr, len))
    }

    /// Whether lowering into `cx` can read the file in place (the component takes UTF-8).
    pub(super) fn fits<T>(cx: &LowerContext<'_, T>) -> bool {
        matches!(cx.options().string_encoding, StringEncoding::Utf8)
    }

    fn error(&self, message: String) -> Error {
        Error::InvalidInput {
            field: self.field.clone(),
            message,
        }
    }

    fn not_utf8(&self) -> Error {
        self.error(format!("{} is not UTF-8 text", self.name))
    }

    fn changed(&self) -> Error {
        self.error(format!("{} changed while it was read", self.name))
    }
}

/// Why an [`InputFile`] could not be lowered: the error the caller reports instead of a trap.
#[derive(Debug)]
pub(super) struct InputError(pub(super) Error);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for InputError {}

/// The input error a call failed with, taken out of `err`, if that is why it failed.
pub(super) fn input_error(err: wasmtime::Error) -> std::result::Result<Error, wasmtime::Error> {
    err.downcast::<InputError>().map(|e| e.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(bytes).unwrap();
        f
    }

    #[test]
    fn only_a_regular_nonempty_file_within_the_limit_is_opened() {
        let f = file(b"[1, 2]");
        let input = InputFile::open("candidates", f.path(), 6).unwrap();
        assert_eq!(input.len(), 6);
        assert!(
            InputFile::open("candidates", f.path(), 5).is_none(),
            "over the limit"
        );
        assert!(
            InputFile::open("candidates", file(b"").path(), 10).is_none(),
            "empty"
        );
        assert!(
            InputFile::open("candidates", Path::new("-"), 10).is_none(),
            "stdin"
        );
        let dir = tempfile::tempdir().unwrap();
        assert!(
            InputFile::open("candidates", dir.path(), 10).is_none(),
            "a directory"
        );
        assert!(InputFile::open("candidates", &dir.path().join("none"), 10).is_none());
    }

    #[test]
    fn as_text_it_gives_the_text_paths_errors() {
        let f = file("[\"é\"]".as_bytes());
        let text = InputFile::open("candidates", f.path(), 100)
            .unwrap()
            .into_text();
        assert_eq!(text.unwrap(), "[\"é\"]");

        let f = file(b"[\"\xff\"]");
        let err = InputFile::open("candidates", f.path(), 100)
            .unwrap()
            .into_text();
        match err.unwrap_err() {
            Error::InvalidInput { field, message } => {
                assert_eq!(field, "candidates");
                assert_eq!(message, format!("{} is not UTF-8 text", f.path().display()));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_input_error_is_recognised_and_any_other_is_not() {
        let e: wasmtime::Error = InputError(Error::InvalidInput {
            field: "candidates".into(),
            message: "x is not UTF-8 text".into(),
        })
        .into();
        assert!(matches!(input_error(e), Ok(Error::InvalidInput { .. })));
        assert!(input_error(wasmtime::Error::msg("a trap")).is_err());
    }
}
