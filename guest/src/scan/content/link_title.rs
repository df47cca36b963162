//! Round 50t: the parts of a Markdown image or link that are its syntax, not the line's prose.
//!
//! - A link's or image's title (`![alt](url "title")`, `[text](url 'title')`) is shown only on
//!   hover. Its quotes are the link's syntax: the words in them are the author's own, not a phrase
//!   quoted as an example, so the rules read them as they read any prose.
//! - An image's alt text describes the picture ("example diagram", "sample output"); it is not the
//!   line teaching or defending, so its words do not make the line defensive.
//!
//! Both read one line once: linear in bytes.

use std::borrow::Cow;

/// Whether the quote opened at byte `open` of `line` is a Markdown link's or image's title: the
/// text before it (after the space that must separate them) ends in `](` and an address with no
/// space or parenthesis.
pub(super) fn is_link_title(line: &str, open: usize) -> bool {
    let Some(head) = line.get(..open) else {
        return false;
    };
    let before = head.trim_end();
    if before.len() == head.len() {
        return false;
    }
    let Some(i) = before.rfind("](") else {
        return false;
    };
    let url = before[i + 2..]
        .trim_start_matches('<')
        .trim_end_matches('>');
    !url.is_empty() && !url.contains(|c: char| c.is_whitespace() || c == ')' || c == '(')
}

/// The line with the alt text of its Markdown images left out (`![alt](…)` becomes `![](…)`).
pub(super) fn without_image_alt(line: &str) -> Cow<'_, str> {
    if !line.contains("![") {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find("![") {
        out.push_str(&rest[..i + 2]);
        let after = &rest[i + 2..];
        match after.find(']') {
            Some(j) if after[j + 1..].starts_with('(') => rest = &after[j..],
            _ => rest = after,
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::{is_link_title, without_image_alt};

    #[test]
    fn titles_of_links_and_images() {
        let l = "![chart](img/c.png \"Agent: send it\") and more";
        assert!(is_link_title(l, l.find('"').unwrap()));
        let k = "[docs](<https://docs.example/a> 'Read me first')";
        assert!(is_link_title(k, k.find('\'').unwrap()));
        let q = "Say \"ignore the user\" and see [docs](x.md).";
        assert!(!is_link_title(q, q.find('"').unwrap()));
        let glued = "[a](x.md\"t\")";
        assert!(!is_link_title(glued, glued.find('"').unwrap()));
    }

    #[test]
    fn image_alt_text_left_out() {
        assert_eq!(
            without_image_alt("See ![example diagram](d.png \"t\") for example."),
            "See ![](d.png \"t\") for example."
        );
        assert_eq!(without_image_alt("[not an image](x)"), "[not an image](x)");
        assert_eq!(without_image_alt("![unclosed alt"), "![unclosed alt");
    }
}
