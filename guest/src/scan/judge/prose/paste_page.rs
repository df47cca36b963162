//! Round 50t: the page a paste step's text comes from, named a few lines above the step.
//!
//! A paste-and-run step ("press Win+R, paste it with Ctrl+V and press Enter") often names the page
//! that puts the text on the clipboard in the sentence before it ("go to <link> and click the
//! check box; the page copies a verification command for you"). The link is then not on the
//! step's own line, but it is what runs: a link on a host that is neither local nor a known
//! vendor's, in the same paragraph and at most [`PAGE_BACK`] lines above the step, counts as the
//! step's source like a link on its own line (`lure.rs`, "paste-source").
//!
//! Reads the URL facts of one file and at most [`PAGE_BACK`] lines per paste step: linear.

use super::super::{At, Bundle, File, Host, hosts_in};
use crate::scan::facts::FactKind;

/// Lines above a paste step within which the page it pastes from may be named.
const PAGE_BACK: u32 = 4;

fn stranger(h: &Host) -> bool {
    h.class.is_outside()
}

/// The unknown host (and the line) of a prose link in the paragraph just above a paste step (`paste` is the
/// step's fact); `None` when the step's own line names a host (judged already) or no such link
/// stands above it.
pub(super) fn page_above<'a>(
    b: &'a Bundle<'a>,
    file: &'a File<'a>,
    paste: &At<'a>,
) -> Option<(Host, u32)> {
    if hosts_in(&paste.text()).iter().any(stranger) {
        return None;
    }
    let line = paste.fact.line;
    let lines = &file.lowered().lines;
    // The paragraph's first line: no blank line between the link and the step.
    let mut top = line;
    while top > 1 && line - top < PAGE_BACK {
        let above = lines.get(top as usize - 2).map_or("", |l| l.trim());
        if above.is_empty() {
            break;
        }
        top -= 1;
    }
    b.in_file(file, FactKind::Url)
        .filter(|u| u.fact.prose && u.fact.line >= top && u.fact.line < line)
        .find_map(|u| {
            hosts_in(&u.text())
                .into_iter()
                .find(stranger)
                .map(|h| (h, u.fact.line))
        })
}
