//! The one pass that `catalogue` and `stand_in` share: findings of some categories, at `high` or
//! above, on chosen lines of a documentation file (Markdown or text, never a script), made
//! informational (`medium`) with a note saying why.

use crate::scan::bundle::{Bundle, EntryKind};
use crate::scan::content::{FileKind, Finding, kind_of};
use crate::scan::rules::Severity;

/// Demotes to `medium` each finding of `categories` at `high` or above whose line in a
/// documentation file `picks(path, content, line)` chooses, appending `note` to its description.
/// One pass over the findings; `picks` is asked only for such findings.
pub(super) fn demote_doc_lines(
    bundle: &Bundle,
    out: &mut [Finding],
    categories: &[&str],
    note: &str,
    mut picks: impl FnMut(&str, &str, usize) -> bool,
) {
    for f in out.iter_mut() {
        if f.severity < Severity::High || f.line == 0 || !categories.contains(&f.category.as_str())
        {
            continue;
        }
        let Some(content) = bundle
            .files
            .iter()
            .find(|b| b.path == f.file && b.kind == EntryKind::Text)
            .and_then(|b| b.content.as_deref())
        else {
            continue;
        };
        if kind_of(&f.file, content) == FileKind::Code {
            continue;
        }
        if picks(&f.file, content, f.line) {
            f.severity = Severity::Medium;
            f.description.push_str(note);
        }
    }
}
