//! The pretty layout: two-space indentation, as `serde_json::to_string_pretty` prints a value, but
//! written into the middle of a larger document at any depth. A host that prints a result pretty
//! takes the component's text as it is (`filter-text`) instead of re-indenting 62 MB of it
//! (BENCHMARKS.md, perf23).

use std::io;

use serde::Serialize;
use serde_json::ser::Formatter;

use crate::model::write::extend;

/// A newline and the indentation of the deepest level written in one copy.
const NEWLINE_AND_SPACES: &[u8; 65] =
    b"\n                                                                ";

/// Start a new line at `depth` (two spaces a level), as the pretty printer does before a member or
/// an item.
#[inline]
pub fn newline(out: &mut Vec<u8>, depth: usize) {
    let spaces = 2 * depth;
    if spaces < NEWLINE_AND_SPACES.len() {
        extend(out, &NEWLINE_AND_SPACES[..1 + spaces]);
    } else {
        out.push(b'\n');
        out.resize(out.len() + spaces, b' ');
    }
}

/// `serde_json::ser::PrettyFormatter` (two-space indent) starting at `depth`: a value written as a
/// member or item at that depth prints as it would inside the whole document printed pretty.
struct Indented {
    depth: usize,
    has_value: bool,
}

impl Indented {
    fn line<W: ?Sized + io::Write>(&self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn end<W: ?Sized + io::Write>(&mut self, w: &mut W, close: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            for _ in 0..self.depth {
                w.write_all(b"  ")?;
            }
        }
        w.write_all(close)
    }
}

impl Formatter for Indented {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.line(w, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.line(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Append `value` as JSON: compact (`None`), or pretty as a member or item at `depth`.
pub fn to_writer_at(out: &mut Vec<u8>, value: &impl Serialize, depth: Option<usize>) {
    match depth {
        None => serde_json::to_writer(out, value).expect("results always serialize"),
        Some(depth) => {
            let formatter = Indented {
                depth,
                has_value: false,
            };
            let mut ser = serde_json::Serializer::with_formatter(out, formatter);
            value.serialize(&mut ser).expect("results always serialize");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// At depth 0 the text is `to_string_pretty`'s; at depth d, every line after the first is
    /// indented 2·d spaces more (what the printer writes for the value nested d levels down).
    #[test]
    fn writes_what_the_pretty_printer_writes_at_any_depth() {
        let values = [
            json!(null),
            json!("é\"\u{1}"),
            json!([]),
            json!({}),
            json!([[], {}, [1, [2, {}]], {"a": {"b": []}}]),
            json!({"x": [1.5, -2, true], "y": {"z": "w", "e": []}, "": {}}),
        ];
        for v in values {
            for depth in 0..4 {
                let pad = " ".repeat(2 * depth);
                let pretty = serde_json::to_string_pretty(&v).unwrap();
                let want = pretty.replace('\n', &format!("\n{pad}"));
                let mut out = Vec::new();
                to_writer_at(&mut out, &v, Some(depth));
                assert_eq!(String::from_utf8(out).unwrap(), want, "{v} at {depth}");
                // Nested in a whole document printed pretty, it is that text.
                let mut nested = v.clone();
                for _ in 0..depth {
                    nested = json!([nested]);
                }
                let whole = serde_json::to_string_pretty(&nested).unwrap();
                assert!(whole.contains(&want), "{v} at {depth}");
                let mut flat = Vec::new();
                to_writer_at(&mut flat, &v, None);
                assert_eq!(String::from_utf8(flat).unwrap(), v.to_string());
            }
        }
    }

    #[test]
    fn a_newline_indents_two_spaces_a_level_at_any_depth() {
        for depth in [0, 1, 5, 32, 40] {
            let mut out = Vec::new();
            newline(&mut out, depth);
            assert_eq!(out.len(), 1 + 2 * depth);
            assert!(out[0] == b'\n' && out[1..].iter().all(|&b| b == b' '));
        }
    }
}
