//! A SKILL.md read for its facts: the frontmatter as a JSON map and the body, leniently (the spec's
//! client guidance: an unquoted `key: value: with colon` is retried as a plain string). Validation
//! proper, with errors and warnings, is [`crate::validate`]'s job; this is for the parts of the guest
//! that read what a skill declares ([`crate::fit`]) and how it is written ([`crate::quality`]).

use serde_json::{Map, Value};

/// A SKILL.md's parts.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillMd<'a> {
    /// The frontmatter, when the file has one that parses to a mapping.
    pub frontmatter: Option<Map<String, Value>>,
    /// The text after the frontmatter (the whole text when there is none).
    pub body: &'a str,
    /// The 1-based line of the file on which the body starts.
    pub body_line: usize,
}

impl SkillMd<'_> {
    /// A frontmatter string field, trimmed, if present and not empty.
    pub fn field(&self, key: &str) -> Option<&str> {
        self.frontmatter
            .as_ref()?
            .get(key)?
            .as_str()
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }
}

/// Read a SKILL.md (or any Markdown text). Never fails: a file without a readable frontmatter is all
/// body (when the `---` block is there but not YAML, the body still starts after it).
pub fn read(text: &str) -> SkillMd<'_> {
    let Ok((yaml, body)) = crate::validate::split(text) else {
        return SkillMd {
            frontmatter: None,
            body: text,
            body_line: 1,
        };
    };
    // `body` is a suffix of `text`: its line is one more than the newlines before it.
    let before = &text[..text.len() - body.len()];
    let body_line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let parsed = crate::yaml::parse(yaml).or_else(|first| {
        let (fixed, keys) = crate::validate::quote_colons(yaml);
        if keys.is_empty() {
            Err(first)
        } else {
            crate::yaml::parse(&fixed)
        }
    });
    let frontmatter = match parsed {
        Ok(Value::Object(m)) => Some(m),
        _ => None,
    };
    SkillMd {
        frontmatter,
        body,
        body_line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontmatter_and_body_with_its_line() {
        let md = read("---\nname: x\ndescription: Does x: use when y\n---\n# X\nbody\n");
        assert_eq!(md.field("name"), Some("x"));
        assert_eq!(
            md.field("description"),
            Some("Does x: use when y"),
            "an unquoted colon is read as text"
        );
        assert_eq!(md.body, "# X\nbody\n");
        assert_eq!(md.body_line, 5);
    }

    #[test]
    fn text_without_frontmatter_is_all_body() {
        let md = read("# Just markdown\n");
        assert!(md.frontmatter.is_none());
        assert_eq!((md.body, md.body_line), ("# Just markdown\n", 1));
        let md = read("---\n[not: a map\n---\nbody\n");
        assert!(md.frontmatter.is_none());
        assert_eq!((md.body, md.body_line), ("body\n", 4));
    }
}
