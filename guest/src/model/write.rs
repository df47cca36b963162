//! A [`Candidate`] written as compact JSON straight into a byte buffer: the same bytes as
//! `serde_json::to_writer(buf, candidate)` (the derived `Serialize`: fields in declaration order,
//! the same fields left out, `extra` flattened at the end), without the serializer's per-field map
//! machinery, and with strings escaped eight bytes at a time when nothing in them needs escaping.
//! `filter` writes 100,000 candidates this way. Nested records that are rare in candidates
//! (`prerequisites`, `trend`, `registry` and the values of `extra`) are still written by
//! `serde_json`. `tests::writes_what_serde_writes` compares the two on generated candidates.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::json::{newline, to_writer_at};

use super::{Candidate, Popularity};

/// Append `s` as a JSON string, escaped exactly as `serde_json` escapes it: `"` and `\` with a
/// backslash, the control characters below U+0020 as `\b \t \n \f \r` or `\u00xx` (lower-case hex),
/// everything else (U+007F and all non-ASCII included) as it is.
pub fn push_str(out: &mut Vec<u8>, s: &str) {
    out.reserve(s.len() + 2);
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Eight bytes at a time while none needs escaping.
        if let Some(chunk) = bytes.get(i..i + 8) {
            let w = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            if !needs_escape(w) {
                i += 8;
                continue;
            }
        }
        let b = bytes[i];
        let escape: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x08 => b"\\b",
            0x09 => b"\\t",
            0x0A => b"\\n",
            0x0C => b"\\f",
            0x0D => b"\\r",
            0x00..=0x1F => &[],
            _ => {
                i += 1;
                continue;
            }
        };
        extend(out, &bytes[start..i]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[(b >> 4) as usize]);
            out.push(HEX[(b & 0xF) as usize]);
        } else {
            out.extend_from_slice(escape);
        }
        i += 1;
        start = i;
    }
    extend(out, &bytes[start..]);
    out.push(b'"');
}

/// Append `s` to `out`. Slices of up to 32 bytes (most keys, names, ids, URLs) are copied with
/// overlapping word loads and stores: in the component a copy of a length known only at run time is a
/// `memory.copy`, which wasmtime runs as a call into the host (`memory_copy` → `memmove`), and
/// `filter` on 100,000 candidates makes millions of them (BENCHMARKS.md, perf22). Longer slices
/// are copied as usual.
#[inline(always)]
pub(crate) fn extend(out: &mut Vec<u8>, s: &[u8]) {
    let n = s.len();
    if n > 32 {
        out.extend_from_slice(s);
        return;
    }
    out.reserve(n);
    let len = out.len();
    // SAFETY: `n` bytes were reserved past `len`; the copy reads `s` and writes those bytes only.
    unsafe {
        copy_upto32(s.as_ptr(), out.as_mut_ptr().add(len), n);
        out.set_len(len + n);
    }
}

/// `s` as an owned `String` of capacity `s.len()` (as `to_owned` makes it), copied by [`extend`].
#[inline]
pub(crate) fn owned(s: &str) -> String {
    let mut v = Vec::with_capacity(s.len());
    extend(&mut v, s.as_bytes());
    // SAFETY: the bytes of a `str`.
    unsafe { String::from_utf8_unchecked(v) }
}

/// Copy `n <= 32` bytes from `src` to `dst` (not overlapping) without a `memcpy` call: two
/// overlapping halves of up to 16, each as two overlapping words.
#[inline(always)]
unsafe fn copy_upto32(src: *const u8, dst: *mut u8, n: usize) {
    debug_assert!(n <= 32);
    // SAFETY (all below): every offset is below `n`, within both ranges (the caller's contract).
    unsafe {
        if n > 16 {
            copy_upto16(src, dst, 16);
            copy_upto16(src.add(n - 16), dst.add(n - 16), 16);
        } else {
            copy_upto16(src, dst, n);
        }
    }
}

#[inline(always)]
unsafe fn copy_upto16(src: *const u8, dst: *mut u8, n: usize) {
    // SAFETY: as in `copy_upto32` (`n <= 16`).
    unsafe {
        if n >= 8 {
            let a = src.cast::<u64>().read_unaligned();
            let b = src.add(n - 8).cast::<u64>().read_unaligned();
            dst.cast::<u64>().write_unaligned(a);
            dst.add(n - 8).cast::<u64>().write_unaligned(b);
        } else if n >= 4 {
            let a = src.cast::<u32>().read_unaligned();
            let b = src.add(n - 4).cast::<u32>().read_unaligned();
            dst.cast::<u32>().write_unaligned(a);
            dst.add(n - 4).cast::<u32>().write_unaligned(b);
        } else if n > 0 {
            let (a, b, c) = (*src, *src.add(n / 2), *src.add(n - 1));
            *dst = a;
            *dst.add(n / 2) = b;
            *dst.add(n - 1) = c;
        }
    }
}

/// Whether any of the eight bytes of `w` is below 0x20, `"` or `\` (exact: no false answers either
/// way; which byte it is, the caller finds out one byte at a time).
fn needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    (below_space
        | zero_byte(w ^ (ONES * u64::from(b'"')))
        | zero_byte(w ^ (ONES * u64::from(b'\\'))))
        != 0
}

/// Appends members `"key":value` to an object being written, commas between; pretty (two-space
/// indent, as `serde_json::to_string_pretty`) when the object's `depth` is given.
struct Object<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
    depth: Option<usize>,
}

impl<'a> Object<'a> {
    fn open(out: &'a mut Vec<u8>, depth: Option<usize>) -> Self {
        out.push(b'{');
        Object {
            out,
            first: true,
            depth,
        }
    }

    /// The depth of this object's members (`None`: compact).
    fn inner(&self) -> Option<usize> {
        self.depth.map(|d| d + 1)
    }

    /// The separator before a member: a comma after the first, and a new line when pretty.
    fn separate(&mut self) {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        if let Some(d) = self.inner() {
            newline(self.out, d);
        }
    }

    /// Start a member whose key needs no escaping (the model's own field names).
    fn key(&mut self, key: &str) -> &mut Vec<u8> {
        self.separate();
        self.out.push(b'"');
        extend(self.out, key.as_bytes());
        if self.depth.is_some() {
            extend(self.out, b"\": ");
        } else {
            self.out.extend_from_slice(b"\":");
        }
        self.out
    }

    fn str(&mut self, key: &str, v: &str) {
        push_str(self.key(key), v);
    }

    fn opt_str(&mut self, key: &str, v: &Option<String>) {
        if let Some(v) = v {
            self.str(key, v);
        }
    }

    fn strings(&mut self, key: &str, v: &[String]) {
        let inner = self.inner();
        let out = self.key(key);
        out.push(b'[');
        for (i, s) in v.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            if let Some(d) = inner {
                newline(out, d + 1);
            }
            push_str(out, s);
        }
        if let (Some(d), false) = (inner, v.is_empty()) {
            newline(out, d);
        }
        out.push(b']');
    }

    fn bool(&mut self, key: &str, v: bool) {
        let text: &[u8] = if v { b"true" } else { b"false" };
        self.key(key).extend_from_slice(text);
    }

    fn u64(&mut self, key: &str, v: u64) {
        let mut digits = itoa::Buffer::new();
        self.key(key).extend_from_slice(digits.format(v).as_bytes());
    }

    fn serde(&mut self, key: &str, v: &impl Serialize) {
        let inner = self.inner();
        to_writer_at(self.key(key), v, inner);
    }

    /// The members of a flattened map (keys escaped, values by `serde_json`).
    fn flatten(&mut self, extra: &Map<String, Value>) {
        for (k, v) in extra {
            self.separate();
            push_str(self.out, k);
            self.out
                .extend_from_slice(if self.depth.is_some() { b": " } else { b":" });
            to_writer_at(self.out, v, self.inner());
        }
    }

    fn close(self) {
        if let (Some(d), false) = (self.depth, self.first) {
            newline(self.out, d);
        }
        self.out.push(b'}');
    }
}

fn popularity(out: &mut Vec<u8>, p: &Popularity, depth: Option<usize>) {
    let mut o = Object::open(out, depth);
    o.u64("downloads", p.downloads);
    o.u64("stars", p.stars);
    o.flatten(&p.extra);
    o.close();
}

impl Candidate {
    /// Append this candidate's JSON to `out`: byte for byte `serde_json::to_writer(out, self)`.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        self.write_json_at(out, None);
    }

    /// [`Candidate::write_json`], or pretty as an item or member at `depth`: byte for byte what
    /// `serde_json::to_string_pretty` prints for it there.
    pub fn write_json_at(&self, out: &mut Vec<u8>, depth: Option<usize>) {
        let c = self;
        let mut o = Object::open(out, depth);
        o.str("skill_id", &c.skill_id);
        o.str("name", &c.name);
        o.str("url", &c.url);
        o.opt_str("source_code_url", &c.source_code_url);
        o.opt_str("source_subpath", &c.source_subpath);
        o.str("description", &c.description);
        o.strings("categories", &c.categories);
        o.str("source", &c.source);
        o.opt_str("owner", &c.owner);
        o.opt_str("updated_at", &c.updated_at);
        if !c.popularity.is_unknown() {
            let inner = o.inner();
            popularity(o.key("popularity"), &c.popularity, inner);
        }
        o.strings("required_toolsets", &c.required_toolsets);
        if !c.platforms.is_empty() {
            o.strings("platforms", &c.platforms);
        }
        if !c.prerequisites.is_empty() {
            o.serde("prerequisites", &c.prerequisites);
        }
        o.opt_str("complexity", &c.complexity);
        if let Some(t) = &c.trend {
            o.serde("trend", t);
        }
        o.bool("has_install_docs", c.has_install_docs);
        o.bool("has_security_disclosure", c.has_security_disclosure);
        o.opt_str("risk_level", &c.risk_level);
        o.u64("cross_source_count", c.cross_source_count);
        if let Some(r) = &c.registry {
            o.serde("registry", r);
        }
        o.opt_str("tagline", &c.tagline);
        o.opt_str("pain_point", &c.pain_point);
        if !c.highlights.is_empty() {
            o.strings("highlights", &c.highlights);
        }
        o.opt_str("raw_content", &c.raw_content);
        if !c.bundle_files.is_empty() {
            o.strings("bundle_files", &c.bundle_files);
        }
        o.flatten(&c.extra);
        o.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Every ASCII character and a few others, alone and at every position of a 17-byte string
    /// (both sides of an eight-byte step), escaped as `serde_json` escapes them.
    #[test]
    fn strings_escape_as_serde_json_does() {
        let mut chars: Vec<char> = (0u8..0x80).map(char::from).collect();
        chars.extend(['é', '中', '\u{2028}', '😀', '\u{80}', '\u{ff}']);
        for ch in chars {
            for at in 0..17 {
                let mut s: String = "abcdefghijklmnopq".chars().take(at).collect();
                s.push(ch);
                s.push_str(&"rstuvwxyzABCDEFGH"[..16 - at]);
                let mut out = Vec::new();
                push_str(&mut out, &s);
                assert_eq!(out, serde_json::to_vec(&s).unwrap(), "{s:?}");
            }
        }
        for s in [
            "",
            "\"",
            "\\\\",
            "\u{0}\u{1f}\u{7f}",
            "a\"b\\c\nd\te\rf\u{8}g\u{c}h",
        ] {
            let mut out = Vec::new();
            push_str(&mut out, s);
            assert_eq!(out, serde_json::to_vec(s).unwrap(), "{s:?}");
        }
    }

    /// `extend` and `owned` copy every length as `extend_from_slice` and `to_owned` do: each length
    /// from 0 to 40 (the word copies up to 32, the usual copy past it), onto empty and non-empty
    /// buffers, and with a buffer that must grow.
    #[test]
    fn short_copies_copy_every_length_exactly() {
        let text: String = (0..40u8).map(|i| char::from(b'!' + i)).collect();
        for n in 0..=40 {
            let s = &text[..n];
            let shifted = &text[40 - n..];
            for prefix in [&b""[..], b"x", b"0123456789abcdef0"] {
                let (mut got, mut want) = (prefix.to_vec(), prefix.to_vec());
                extend(&mut got, s.as_bytes());
                extend(&mut got, shifted.as_bytes());
                want.extend_from_slice(s.as_bytes());
                want.extend_from_slice(shifted.as_bytes());
                assert_eq!(got, want, "n = {n}");
            }
            let o = owned(s);
            assert_eq!((o.as_str(), o.len()), (s, s.len()));
            assert!(o.capacity() >= n);
        }
        // A copy of the wrong bytes would show up here: multi-byte UTF-8 of every length.
        let wide = "é中😀".repeat(4);
        for end in (0..=wide.len()).filter(|&i| wide.is_char_boundary(i)) {
            assert_eq!(owned(&wide[..end]), wide[..end]);
        }
    }

    /// The eight-byte test says "needs escaping" exactly when one of the bytes does.
    #[test]
    fn the_word_test_is_exact() {
        let needs = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut w = [b'a'; 8];
                w[at] = b;
                assert_eq!(
                    needs_escape(u64::from_le_bytes(w)),
                    needs(b),
                    "{b:#x} at {at}"
                );
                // Next to bytes that borrow in the subtraction (0x00, 0x20, 0x80, 0xff).
                for other in [0x00u8, 0x20, 0x21, 0x80, 0xff] {
                    let mut w = [other; 8];
                    w[at] = b;
                    assert_eq!(
                        needs_escape(u64::from_le_bytes(w)),
                        needs(b) || needs(other),
                        "{b:#x} at {at} among {other:#x}"
                    );
                }
            }
        }
    }

    fn text() -> impl proptest::strategy::Strategy<Value = String> {
        "[a-z A-Z0-9:/.,\"\\\\\u{0}-\u{1f}\u{7f}é中😀-]{0,24}"
    }

    fn value() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        prop_oneof![
            text().prop_map(Value::String),
            (0u64..u64::MAX).prop_map(|n| json!(n)),
            any::<bool>().prop_map(Value::Bool),
            Just(Value::Null),
            Just(json!(-3.5)),
            proptest::collection::vec(text(), 0..3).prop_map(|v| json!(v)),
            (text(), text()).prop_map(|(k, v)| json!({k: v, "n": [1, null]})),
        ]
    }

    proptest::proptest! {
        /// A candidate as the input reader makes it (from members of every kind, each field given
        /// or not) and as code builds it (any strings, any extra keys) writes the bytes serde writes.
        #[test]
        fn writes_what_serde_writes(
            members in proptest::collection::vec(
                (
                    proptest::sample::select(
                        super::super::fast::FIELDS.iter().copied().chain(["extra_note", "é\"x"]).collect::<Vec<_>>(),
                    ),
                    value(),
                ),
                0..14,
            ),
            strings in proptest::collection::vec(text(), 9),
            lists in proptest::collection::vec(proptest::collection::vec(text(), 0..3), 5),
            counts in (0u64..u64::MAX, 0u64..1000, proptest::bool::ANY, proptest::bool::ANY),
            extra in proptest::collection::vec((text(), value()), 0..3),
        ) {
            let item: Map<String, Value> = members.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
            if let Ok(c) = super::super::parse_one(Value::Object(item)) {
                let mut out = Vec::new();
                c.write_json(&mut out);
                proptest::prop_assert_eq!(&out, &serde_json::to_vec(&c).unwrap());
                proptest::prop_assert_eq!(pretty_at(&c, 0), serde_json::to_string_pretty(&c).unwrap());
                proptest::prop_assert_eq!(pretty_at(&c, 2), nested_pretty(&c, 2));
            }
            let opt = |i: usize| Some(strings[i].clone()).filter(|_| i.is_multiple_of(2) || counts.2);
            let c = Candidate {
                skill_id: strings[0].clone(),
                name: strings[1].clone(),
                url: strings[2].clone(),
                description: strings[3].clone(),
                source: strings[4].clone(),
                source_code_url: opt(5),
                source_subpath: opt(6),
                owner: opt(7),
                updated_at: opt(8),
                complexity: opt(1),
                risk_level: opt(2),
                tagline: opt(3),
                pain_point: opt(4),
                raw_content: opt(0),
                categories: lists[0].clone(),
                required_toolsets: lists[1].clone(),
                platforms: lists[2].clone(),
                highlights: lists[3].clone(),
                bundle_files: lists[4].clone(),
                popularity: Popularity {
                    downloads: counts.0,
                    stars: counts.1,
                    unknown: counts.3,
                    extra: extra.iter().cloned().collect(),
                },
                prerequisites: super::super::Prerequisites {
                    commands: lists[0].clone(),
                    ..Default::default()
                },
                trend: counts.2.then(|| json!({"source_count": counts.1})),
                has_install_docs: counts.2,
                has_security_disclosure: counts.3,
                cross_source_count: counts.1,
                registry: counts.3.then(|| {
                    Box::new(super::super::RegistryEvidence {
                        verdict: opt(1),
                        flags: lists[1].clone(),
                        ..Default::default()
                    })
                }),
                extra: extra.into_iter().collect(),
            };
            let mut out = Vec::new();
            c.write_json(&mut out);
            proptest::prop_assert_eq!(&out, &serde_json::to_vec(&c).unwrap());
            proptest::prop_assert_eq!(pretty_at(&c, 0), serde_json::to_string_pretty(&c).unwrap());
            proptest::prop_assert_eq!(pretty_at(&c, 3), nested_pretty(&c, 3));
        }
    }

    /// The candidate written pretty at `depth`.
    fn pretty_at(c: &Candidate, depth: usize) -> String {
        let mut out = Vec::new();
        c.write_json_at(&mut out, Some(depth));
        String::from_utf8(out).unwrap()
    }

    /// What `to_string_pretty` prints for `c` as the only item `depth` arrays down, from the
    /// candidate's `{` to its `}`.
    fn nested_pretty(c: &Candidate, depth: usize) -> String {
        /// `c` as the only item `.1` arrays down (fields in their declared order: not a `Value`).
        struct Nest<'a>(&'a Candidate, usize);
        impl Serialize for Nest<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeSeq;
                if self.1 == 0 {
                    return self.0.serialize(s);
                }
                let mut seq = s.serialize_seq(Some(1))?;
                seq.serialize_element(&Nest(self.0, self.1 - 1))?;
                seq.end()
            }
        }
        let whole = serde_json::to_string_pretty(&Nest(c, depth)).unwrap();
        let start = whole.find('{').unwrap();
        let end = whole.len() - depth - 2 * (depth * (depth - 1) / 2) - depth;
        whole[start..end].to_owned()
    }
}
