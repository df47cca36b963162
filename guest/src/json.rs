//! Writing large results without building them as one JSON tree: each list item is serialized as
//! soon as it is made, and the lists are spliced into the small head object. A result of 100,000
//! candidates then needs about its own size in memory, not the four to five times a `Value` tree
//! takes, which is what lets it fit the sandbox's memory cap.

use serde::Serialize;
use serde_json::Value;

mod pretty;

pub use pretty::{newline, to_writer_at};

/// How a result's text is laid out: compact (the default), or pretty as the CLI prints it, with
/// the host's own top-level members added (`filter-text` in the WIT contract).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layout {
    /// Two-space indented, as `serde_json::to_string_pretty` prints the same value.
    pub pretty: bool,
    /// Members added at the top level in key order, replacing the result's own of the same name.
    pub extra: Vec<(String, Value)>,
    /// Written in pieces of about this many bytes (see [`ObjectWriter::in_pieces`]), or in one.
    pub piece: Option<usize>,
}

/// The size of a piece of `filter-text`'s text (about: a piece ends after the list item that
/// reaches it). Small enough to fit in memory freed before the text is written (the input text's,
/// once parsed); large enough that the host writes the text out in a few hundred writes at 100,000
/// candidates (62 MB pretty).
pub const TEXT_PIECE_BYTES: usize = 256 << 10;

/// A JSON array written item by item.
#[derive(Debug)]
pub struct ListWriter {
    buf: Vec<u8>,
    len: usize,
    /// How many items are coming, when known: after the first, room for all is reserved at once.
    expected: usize,
    /// Where this list's `[` is in `buf` (after what an [`ObjectWriter`] wrote before it).
    start: usize,
    /// The list's own depth when it is written pretty (its items one deeper).
    depth: Option<usize>,
    /// Written in pieces (see [`ObjectWriter::in_pieces`]): no room reserved for all items.
    pieces: Option<Pieces>,
}

/// The finished pieces of a text written in pieces, and the size at which a piece is closed.
#[derive(Debug)]
struct Pieces {
    done: Vec<String>,
    size: usize,
}

impl Pieces {
    /// Close `buf` as a piece when it has reached the piece size (it ends after a whole item, so on
    /// a character boundary), and start the next one.
    fn close_full(&mut self, buf: &mut Vec<u8>) {
        if buf.len() >= self.size {
            let next = Vec::with_capacity(self.size + self.size / 4);
            let piece = std::mem::replace(buf, next);
            (self.done).push(String::from_utf8(piece).expect("serde_json writes UTF-8"));
        }
    }
}

impl Default for ListWriter {
    fn default() -> Self {
        ListWriter {
            buf: vec![b'['],
            len: 0,
            expected: 0,
            start: 0,
            depth: None,
            pieces: None,
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

    /// A writer whose buffer already holds `bytes` (the caller measured what comes: the list, and
    /// whatever [`object`] will put around it), so it never grows, and never copies, on the way.
    pub fn with_capacity(bytes: usize) -> Self {
        let mut buf = Vec::with_capacity(bytes.max(1));
        buf.push(b'[');
        ListWriter {
            buf,
            len: 0,
            expected: 0,
            start: 0,
            depth: None,
            pieces: None,
        }
    }

    pub fn push(&mut self, item: &impl Serialize) {
        let depth = self.item_depth();
        self.push_with(|buf| to_writer_at(buf, item, depth));
    }

    /// The depth an item is written at when the list is pretty (`None`: compact), for
    /// [`ListWriter::push_with`]'s writer.
    pub fn item_depth(&self) -> Option<usize> {
        self.depth.map(|d| d + 1)
    }

    /// Append one item that `write` writes as JSON onto the buffer (e.g.
    /// [`crate::model::Candidate::write_json`]: the same bytes as [`ListWriter::push`], faster).
    pub fn push_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        if self.len > 0 {
            self.buf.push(b',');
        }
        if let Some(depth) = self.item_depth() {
            newline(&mut self.buf, depth);
        }
        write(&mut self.buf);
        self.len += 1;
        if let Some(pieces) = &mut self.pieces {
            pieces.close_full(&mut self.buf);
        } else if self.len == 1 && self.expected > 1 {
            let each = self.buf.len() - self.start;
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

    fn finish(self) -> Vec<u8> {
        self.finish_parts().0
    }

    fn finish_parts(mut self) -> (Vec<u8>, Option<Pieces>) {
        if let (Some(depth), true) = (self.depth, self.len > 0) {
            newline(&mut self.buf, depth);
        }
        self.buf.push(b']');
        (self.buf, self.pieces)
    }
}

/// An object written member by member in key order into one buffer, its lists streamed item by item
/// where they stand: nothing is copied after it is written (a 46 MB `filter` result was moved once
/// more by [`object`] to put the members before its largest list in front of it).
///
/// The head's members are written as the lists' keys pass them; the lists must come in key order and
/// their keys must not be in the head. The text is what the tree would print (keys sorted).
pub struct ObjectWriter {
    buf: Vec<u8>,
    head: std::iter::Peekable<serde_json::map::IntoIter>,
    members: usize,
    last: Option<String>,
    pretty: bool,
    pieces: Option<Pieces>,
}

impl ObjectWriter {
    pub fn new(head: Value) -> Self {
        ObjectWriter::laid_out(head, false)
    }

    /// [`ObjectWriter::new`] writing pretty (two-space indent, as `serde_json::to_string_pretty`)
    /// when `pretty`.
    pub fn laid_out(head: Value, pretty: bool) -> Self {
        let Value::Object(map) = head else {
            panic!("the head of a result is an object")
        };
        ObjectWriter {
            buf: Vec::new(),
            head: map.into_iter().peekable(),
            members: 0,
            last: None,
            pretty,
            pieces: None,
        }
    }

    /// Write the text in pieces of about `size` bytes, each closed after the list item that
    /// reaches `size` (so a piece is never cut inside a character; [`ObjectWriter::finish_pieces`]
    /// gives them), instead of one buffer holding the whole text: the pieces fill memory freed
    /// earlier (in the component, the candidates' input text, freed once parsed; memory once grown
    /// is never given back) where one buffer of the whole text would not fit.
    pub fn in_pieces(mut self, size: usize) -> Self {
        assert!(self.members == 0, "pieces are chosen before writing");
        self.pieces = Some(Pieces {
            done: Vec::new(),
            size: size.max(1),
        });
        if self.buf.capacity() == 0 {
            self.buf = Vec::with_capacity(size + size / 4);
        }
        self
    }

    fn key(&mut self, k: &str) {
        self.buf.push(if self.members == 0 { b'{' } else { b',' });
        if self.pretty {
            newline(&mut self.buf, 1);
        }
        serde_json::to_writer(&mut self.buf, k).expect("a key serializes");
        if self.pretty {
            self.buf.extend_from_slice(b": ");
        } else {
            self.buf.push(b':');
        }
        self.members += 1;
    }

    /// Write the head's members whose keys sort before `key` (all of them without one).
    fn head_until(&mut self, key: Option<&str>) {
        while let Some((k, v)) = self
            .head
            .next_if(|(k, _)| key.is_none_or(|key| k.as_str() < key))
        {
            self.key(&k);
            to_writer_at(&mut self.buf, &v, self.pretty.then_some(1));
        }
    }

    /// The list member `key` of `n` items (0 when not known), written by `items`.
    pub fn list(&mut self, key: &str, n: usize, items: impl FnOnce(&mut ListWriter)) {
        assert!(
            self.last.as_deref().is_none_or(|last| last < key),
            "lists come in key order: {key} after {:?}",
            self.last
        );
        self.head_until(Some(key));
        assert!(
            self.head.peek().is_none_or(|(k, _)| k != key),
            "{key} is in the head too"
        );
        self.key(key);
        let start = self.buf.len();
        self.buf.push(b'[');
        let mut list = ListWriter {
            buf: std::mem::take(&mut self.buf),
            len: 0,
            expected: n,
            start,
            depth: self.pretty.then_some(1),
            pieces: self.pieces.take(),
        };
        items(&mut list);
        (self.buf, self.pieces) = list.finish_parts();
        self.last = Some(key.to_owned());
    }

    /// The whole text, in one piece (for a writer not written [`ObjectWriter::in_pieces`]).
    pub fn finish(self) -> String {
        let mut text = self.finish_pieces();
        assert!(
            text.len() == 1,
            "a text written in pieces is finished with finish_pieces"
        );
        text.pop().expect("one piece")
    }

    /// The text's pieces in order (one, unless written [`ObjectWriter::in_pieces`]); none is
    /// empty, and together they are what [`ObjectWriter::finish`] would return.
    pub fn finish_pieces(mut self) -> Vec<String> {
        self.head_until(None);
        if self.members == 0 {
            self.buf.push(b'{');
        } else if self.pretty {
            newline(&mut self.buf, 0);
        }
        self.buf.push(b'}');
        match self.pieces {
            Some(mut pieces) => {
                (pieces.done).push(String::from_utf8(self.buf).expect("serde_json writes UTF-8"));
                pieces.done
            }
            None => vec![String::from_utf8(self.buf).expect("serde_json writes UTF-8")],
        }
    }
}

/// Serialize the object `head` with the `lists` as further members, keys in sorted order (as a
/// `Value` object would print). A list's key must not also be in `head`.
///
/// The largest list's buffer becomes the result: the members before it are moved in front of it
/// and the rest appended, so a 200 MB ranking is not copied into a second 200 MB string (at
/// 100,000 candidates that copy was what took `rank` past the component's memory limit).
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
    let size = |m: &Member| match m {
        Member::List(l) => l.buf.len(),
        Member::Value(_) => 0,
    };
    let largest = (0..members.len()).max_by_key(|&i| (size(&members[i].1), std::cmp::Reverse(i)));
    let key = |out: &mut Vec<u8>, i: usize, k: String| {
        out.push(if i == 0 { b'{' } else { b',' });
        out.extend_from_slice(Value::String(k).to_string().as_bytes());
        out.push(b':');
    };
    let write = |out: &mut Vec<u8>, i: usize, k: String, m: Member| {
        key(out, i, k);
        match m {
            Member::Value(v) => out.extend_from_slice(v.to_string().as_bytes()),
            Member::List(l) => out.extend_from_slice(&l.finish()),
        }
    };
    let mut before = Vec::new();
    let mut base: Option<Vec<u8>> = None;
    for (i, (k, m)) in members.into_iter().enumerate() {
        match (Some(i) == largest, m, base.as_mut()) {
            (true, Member::List(l), _) => {
                key(&mut before, i, k);
                let mut buf = l.finish();
                let n = buf.len();
                buf.resize(n + before.len(), 0);
                buf.copy_within(0..n, before.len());
                buf[..before.len()].copy_from_slice(&before);
                base = Some(buf);
            }
            (_, m, Some(out)) => write(out, i, k, m),
            (_, m, None) => write(&mut before, i, k, m),
        }
    }
    let mut out = base.unwrap_or(before);
    if out.is_empty() {
        out.push(b'{');
    }
    out.push(b'}');
    String::from_utf8(out).expect("serde_json writes UTF-8")
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

    /// Wherever the largest list falls among the keys (first, between, last, or no list at all),
    /// the spliced text is what the tree prints.
    #[test]
    fn the_largest_list_can_sit_anywhere() {
        let list = |n: usize| {
            let mut l = ListWriter::for_items(n);
            for i in 0..n {
                l.push(&json!({"i": i, "t": "é\"\u{1}"}));
            }
            l
        };
        for (big, small) in [("a", "m"), ("m", "a"), ("z", "m"), ("m", "z")] {
            let head = json!({"k": [1, 2], "b": null, "y": "v"});
            let text = object(head, vec![(big, list(5)), (small, list(1))]);
            let v: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(text, v.to_string(), "{big} {small}");
            assert_eq!(v[big].as_array().map(Vec::len), Some(5));
            assert_eq!(v[small].as_array().map(Vec::len), Some(1));
        }
        let text = object(json!({"a": 1, "b": [true]}), Vec::new());
        assert_eq!(text, r#"{"a":1,"b":[true]}"#);
        assert_eq!(object(json!({}), Vec::new()), "{}");
        assert_eq!(object(json!({}), vec![("x", list(0))]), r#"{"x":[]}"#);
    }

    /// Lists streamed by an [`ObjectWriter`] before, between and after the head's members, or
    /// without any list, print what the tree prints; each list reserves for its own items only.
    #[test]
    fn an_object_writer_prints_what_the_tree_prints() {
        let fill = |l: &mut ListWriter, n: usize| {
            for i in 0..n {
                l.push(&json!({"i": i, "t": "é\"\u{1}"}));
            }
        };
        for keys in [["a", "b"], ["a", "m"], ["m", "n"], ["c", "z"], ["y", "z"]] {
            let mut w = ObjectWriter::new(json!({"k": [1, 2], "b0": null, "x": "v"}));
            w.list(keys[0], 1, |l| fill(l, 1));
            w.list(keys[1], 40, |l| fill(l, 40));
            let text = w.finish();
            let v: Value = serde_json::from_str(&text).unwrap();
            assert_eq!(text, v.to_string(), "{keys:?}");
            assert_eq!(v[keys[0]].as_array().map(Vec::len), Some(1));
            assert_eq!(v[keys[1]].as_array().map(Vec::len), Some(40));
        }
        assert_eq!(ObjectWriter::new(json!({})).finish(), "{}");
        let mut w = ObjectWriter::new(json!({}));
        w.list("x", 0, |_| {});
        assert_eq!(w.finish(), r#"{"x":[]}"#);
        assert_eq!(ObjectWriter::new(json!({"a": 1})).finish(), r#"{"a":1}"#);
    }

    /// Written pretty, an object writer's text is `to_string_pretty`'s for the same tree, lists
    /// empty, short and long, before, between and after the head's members.
    #[test]
    fn an_object_writer_prints_pretty_what_the_pretty_printer_prints() {
        let fill = |l: &mut ListWriter, n: usize| {
            for i in 0..n {
                l.push(&json!({"i": i, "t": "é\"\u{1}", "e": [], "o": {"p": [1, {}]}}));
            }
        };
        for keys in [["a", "b"], ["a", "m"], ["m", "n"], ["c", "z"], ["y", "z"]] {
            for (n0, n1) in [(0, 0), (1, 40), (3, 0)] {
                let head = json!({"k": [1, 2], "b0": null, "x": "v", "h": {}, "g": {"q": [[]]}});
                let mut w = ObjectWriter::laid_out(head, true);
                w.list(keys[0], n0, |l| fill(l, n0));
                w.list(keys[1], n1, |l| fill(l, n1));
                let text = w.finish();
                let v: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(text, serde_json::to_string_pretty(&v).unwrap(), "{keys:?}");
                assert_eq!(v[keys[1]].as_array().map(Vec::len), Some(n1));
            }
        }
        assert_eq!(ObjectWriter::laid_out(json!({}), true).finish(), "{}");
        let one = ObjectWriter::laid_out(json!({"a": 1}), true).finish();
        assert_eq!(one, "{\n  \"a\": 1\n}");
    }

    #[test]
    #[should_panic(expected = "key order")]
    fn an_object_writer_refuses_lists_out_of_order() {
        let mut w = ObjectWriter::new(json!({}));
        w.list("b", 0, |_| {});
        w.list("a", 0, |_| {});
    }

    #[test]
    #[should_panic(expected = "in the head too")]
    fn an_object_writer_refuses_a_list_named_like_a_head_member() {
        ObjectWriter::new(json!({"a": 1})).list("a", 0, |_| {});
    }
}
