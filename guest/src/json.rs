//! Writing large results without building them as one JSON tree: each list item is serialized as
//! soon as it is made, and the lists are spliced into the small head object. A result of 100,000
//! candidates then needs about its own size in memory, not the four to five times a `Value` tree
//! takes, which is what lets it fit the sandbox's memory cap.

use serde::Serialize;
use serde_json::Value;

/// A JSON array written item by item.
#[derive(Debug)]
pub struct ListWriter {
    buf: Vec<u8>,
    len: usize,
    /// How many items are coming, when known: after the first, room for all is reserved at once.
    expected: usize,
}

impl Default for ListWriter {
    fn default() -> Self {
        ListWriter {
            buf: vec![b'['],
            len: 0,
            expected: 0,
        }
    }
}

/// The most [`ListWriter::for_items`] reserves ahead; past it the buffer grows as usual.
pub const RESERVE_CAP: usize = 64 << 20;

impl ListWriter {
    /// A writer for `n` items. Growing a 40 MB buffer by doubling copies it again and again (and in
    /// the component, where memory is never given back, keeps every old copy's pages): once the first
    /// item is written, room for all `n` at its size plus a quarter is reserved in one step (at most
    /// [`RESERVE_CAP`], so one outsized first item cannot claim memory the rest will not use).
    pub fn for_items(n: usize) -> Self {
        ListWriter {
            expected: n,
            ..ListWriter::default()
        }
    }

    pub fn push(&mut self, item: &impl Serialize) {
        if self.len > 0 {
            self.buf.push(b',');
        }
        serde_json::to_writer(&mut self.buf, item).expect("results always serialize");
        self.len += 1;
        if self.len == 1 && self.expected > 1 {
            let each = self.buf.len();
            let want = each.saturating_mul(self.expected - 1).saturating_mul(5) / 4;
            self.buf.reserve(want.min(RESERVE_CAP));
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn finish(mut self) -> String {
        self.buf.push(b']');
        String::from_utf8(self.buf).expect("serde_json writes UTF-8")
    }
}

/// Serialize the object `head` with the `lists` as further members, keys in sorted order (as a
/// `Value` object would print). A list's key must not also be in `head`.
pub fn object(head: Value, lists: Vec<(&str, ListWriter)>) -> String {
    let Value::Object(map) = head else {
        panic!("the head of a result is an object")
    };
    enum Member {
        Value(Value),
        List(ListWriter),
    }
    let mut members: Vec<(String, Member)> = map
        .into_iter()
        .map(|(k, v)| (k, Member::Value(v)))
        .collect();
    for (k, l) in lists {
        assert!(
            members.iter().all(|(m, _)| m != k),
            "{k} is in the head too"
        );
        members.push((k.to_owned(), Member::List(l)));
    }
    members.sort_by(|a, b| a.0.cmp(&b.0));
    // Room for the lists at once (the head's members are short).
    let lists: usize = members
        .iter()
        .map(|(_, m)| match m {
            Member::List(l) => l.buf.len() + 1,
            Member::Value(_) => 0,
        })
        .sum();
    let mut out = String::with_capacity(lists + 1024);
    out.push('{');
    for (i, (k, m)) in members.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&Value::String(k).to_string());
        out.push(':');
        match m {
            Member::Value(v) => out.push_str(&v.to_string()),
            Member::List(l) => out.push_str(&l.finish()),
        }
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn spliced_lists_read_back_as_the_tree_would() {
        let mut a = ListWriter::default();
        for i in 0..3 {
            a.push(&json!({"i": i, "s": "\u{0}x"}));
        }
        let b = ListWriter::default();
        let head = json!({"n": 3, "c": "\u{0}a\u{0}"});
        let text = object(head, vec![("b", b), ("a", a)]);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v,
            json!({"a": [{"i": 0, "s": "\u{0}x"}, {"i": 1, "s": "\u{0}x"}, {"i": 2, "s": "\u{0}x"}], "b": [], "c": "\u{0}a\u{0}", "n": 3})
        );
        // Byte for byte what the tree would print.
        assert_eq!(text, v.to_string());
    }
}
