//! Round 40t (sets40t): the code judges of this module read a document's fenced code blocks too.
//!
//! A skill's SKILL.md often carries its scripts as fenced blocks (a CI config, a build task, a
//! script in a language the line facts do not read as a flow) rather than as files of their own.
//! The download-then-run, store-then-send, socket-shell and wipe judges read only code files, so the
//! same script pasted into a fence went unread. Each Markdown or text file of the bundle that is not
//! a test or signature file is read here a second time as code: a copy of its text in which every
//! byte outside the fences' inner lines is a space (so byte offsets, line numbers and the evidence
//! of every finding stay the file's own), judged by those judges with the findings so far (a fence
//! already judged by a line rule is not judged twice). A skill that teaches security keeps its
//! documentation cap (applied after the judges). One pass per file to build the copy; the judges'
//! own windows are bounded.

use super::{Bundle, File};
use crate::scan::content::{FileKind, Finding};
use crate::scan::markdown::{FencePlace, fence_places};

/// A copy of `text` in which only the inner lines of fenced blocks keep their bytes (the rest are
/// spaces, line breaks kept); `None` when the text has no fenced line with a letter in it.
pub(in crate::scan::judge) fn fenced_only(text: &str) -> Option<String> {
    let places = fence_places(text.lines());
    let mut out = String::with_capacity(text.len());
    let mut any = false;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let (body, cr) = match body.strip_suffix('\r') {
            Some(b) => (b, "\r"),
            None => (body, ""),
        };
        if places.get(i) == Some(&FencePlace::Inside) {
            any |= body.bytes().any(|c| c.is_ascii_alphabetic());
            out.push_str(body);
        } else {
            out.extend(std::iter::repeat_n(' ', body.len()));
        }
        out.push_str(cr);
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    any.then_some(out)
}

pub(super) fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let copies: Vec<(usize, String)> = b
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind != FileKind::Code && !f.place.test && !f.place.signature)
        .filter_map(|(i, f)| fenced_only(f.content).map(|t| (i, t)))
        .collect();
    if copies.is_empty() {
        return;
    }
    let files = copies
        .iter()
        .map(|(i, t)| {
            let f = &b.files[*i];
            File::new(f.path, t, FileKind::Code, f.place, f.facts)
        })
        .collect();
    let fenced = Bundle {
        rules: b.rules,
        files,
        prior: b.prior,
    };
    let mut seen = out.clone();
    let before = seen.len();
    super::staged_run::judge(&fenced, &mut seen);
    super::store_send::judge(&fenced, &mut seen);
    super::socket_run::judge(&fenced, &mut seen);
    super::wipe::judge(&fenced, &mut seen);
    super::system_wipe::judge(&fenced, &mut seen);
    super::env_send::judge(&fenced, &mut seen);
    super::tree_delete::judge(&fenced, &mut seen);
    out.extend(seen.drain(before..));
}

/// [`fenced_only`], for the judge tests.
#[cfg(test)]
pub(in crate::scan::judge) fn fenced_only_for_tests(text: &str) -> Option<String> {
    fenced_only(text)
}
