//! Writing a result as the component returned it: its JSON text goes straight to the output,
//! pretty-printed (or as is), with the host's own top-level fields spliced in, without building a
//! `serde_json::Value` tree.
//!
//! A `filter` of 100,000 candidates returns ~46 MB of JSON. Parsing that into a tree (B-tree maps, a
//! string per key and value) and serializing it again took about half of the whole process's time and
//! more memory than the rest together; reformatting the text takes one pass and no memory beyond an
//! output buffer.
//!
//! The output is what `serde_json::to_string_pretty` (or `to_string`) prints for the same value, except
//! that members keep the order the component wrote them in (object keys are not re-sorted; JSON does
//! not order them, and every host of the component compares results as values). Strings and numbers
//! are copied byte for byte. The host's fields go in at the top level in key order among the
//! component's (whose top-level keys are sorted), and replace a member of the same name.

use std::io::{self, Write};

use serde_json::Value;

/// Flush the output buffer to the writer at this size.
const CHUNK: usize = 256 << 10;

/// Write `guest` (one JSON value, normally an object) with `extra` members added at its top level,
/// pretty (two-space indent, as `serde_json::to_string_pretty`) or compact, and no trailing newline.
///
/// The text is checked as it is copied: malformed JSON (the component never returns it) is an
/// `InvalidData` error, and nothing is written for it beyond what came before the fault.
pub fn write(
    out: &mut dyn Write,
    guest: &str,
    extra: &[(&str, &Value)],
    pretty: bool,
) -> io::Result<()> {
    write_seeing(out, guest, extra, pretty, &mut |_, _| {})
}

/// [`write`], giving `seen` each top-level member of `guest` (when it is an object) as it passes:
/// its key and the raw text of its value (a member the host replaces too). A caller that needs one
/// small field of a large result (`filter`'s `summary`) gets it from the pass that writes the
/// result, where [`top_member`] would scan the whole text once more.
pub fn write_seeing<'g>(
    out: &mut dyn Write,
    guest: &'g str,
    extra: &[(&str, &Value)],
    pretty: bool,
    seen: &mut dyn FnMut(&str, &'g str),
) -> io::Result<()> {
    let mut extra: Vec<(&str, String)> = extra.iter().map(|(k, v)| (*k, v.to_string())).collect();
    extra.sort_by(|a, b| a.0.cmp(b.0));
    let mut w = Writer {
        out,
        buf: Vec::with_capacity(CHUNK + 4096),
        pretty,
    };
    let bytes = guest.as_bytes();
    let start = skip_ws(bytes, 0);
    if bytes.get(start) != Some(&b'{') {
        if !extra.is_empty() {
            return Err(invalid(
                "the result is not a JSON object; cannot add fields to it",
            ));
        }
        let end = w.value(bytes, start, 0)?;
        ensure_end(bytes, end)?;
        return w.finish();
    }
    // The top-level object, member by member, with the host's members merged in by key.
    w.push(b"{");
    let mut first = true;
    let mut pending = extra.iter().peekable();
    let mut pos = skip_ws(bytes, start + 1);
    if bytes.get(pos) == Some(&b'}') {
        pos += 1;
    } else {
        loop {
            let key_start = pos;
            let key_end = string_end(bytes, key_start)?;
            let key = key_text(&guest[key_start..key_end])?;
            pos = skip_ws(bytes, key_end);
            expect(bytes, pos, b':')?;
            let value_start = skip_ws(bytes, pos + 1);
            while let Some((k, v)) = pending.next_if(|(k, _)| **k < *key) {
                w.member(&mut first, k, v)?;
            }
            if extra.iter().any(|(k, _)| *k == key) {
                pos = skip_value(bytes, value_start)?;
            } else {
                w.separator(&mut first, 1)?;
                w.push(&bytes[key_start..key_end]);
                w.push(if pretty { b": " } else { b":" });
                pos = w.value(bytes, value_start, 1)?;
            }
            seen(&key, &guest[value_start..pos]);
            pos = skip_ws(bytes, pos);
            match bytes.get(pos) {
                Some(b',') => pos = skip_ws(bytes, pos + 1),
                Some(b'}') => {
                    pos += 1;
                    break;
                }
                _ => return Err(invalid("expected , or } after an object member")),
            }
        }
    }
    for (k, v) in pending {
        w.member(&mut first, k, v)?;
    }
    if !first {
        w.newline(0);
    }
    w.push(b"}");
    ensure_end(bytes, pos)?;
    w.finish()
}

/// The raw text of the top-level member `key` of the JSON object `text` (the last one, if repeated),
/// found by skipping over the other members' values without parsing them: reading a small field
/// of a 46 MB result this way costs a scan for quotes, not a parse of every string and number.
/// `None` if `text` is not an object or has no such member (malformed text gives `None` too).
pub fn top_member<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let bytes = text.as_bytes();
    let mut pos = skip_ws(bytes, 0);
    if bytes.get(pos) != Some(&b'{') {
        return None;
    }
    pos = skip_ws(bytes, pos + 1);
    let mut found = None;
    if bytes.get(pos) == Some(&b'}') {
        return None;
    }
    loop {
        let key_end = string_end(bytes, pos).ok()?;
        let this = key_text(&text[pos..key_end]).ok()?;
        pos = skip_ws(bytes, key_end);
        expect(bytes, pos, b':').ok()?;
        let value_start = skip_ws(bytes, pos + 1);
        pos = skip_value(bytes, value_start).ok()?;
        if this == key {
            found = Some(&text[value_start..pos]);
        }
        pos = skip_ws(bytes, pos);
        match bytes.get(pos) {
            Some(b',') => pos = skip_ws(bytes, pos + 1),
            Some(b'}') => return found,
            _ => return None,
        }
    }
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("malformed JSON result: {what}"),
    )
}

fn expect(bytes: &[u8], pos: usize, c: u8) -> io::Result<()> {
    if bytes.get(pos) == Some(&c) {
        Ok(())
    } else {
        Err(invalid(&format!("expected {:?}", c as char)))
    }
}

fn ensure_end(bytes: &[u8], pos: usize) -> io::Result<()> {
    if skip_ws(bytes, pos) == bytes.len() {
        Ok(())
    } else {
        Err(invalid("text after the value"))
    }
}

fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = bytes.get(pos) {
        pos += 1;
    }
    pos
}

/// The position just past the string that starts at `pos` (which must be a `"`).
#[inline]
fn string_end(bytes: &[u8], pos: usize) -> io::Result<usize> {
    expect(bytes, pos, b'"')?;
    let mut i = pos + 1;
    loop {
        match quote_or_backslash(&bytes[i..]) {
            Some(n) if bytes[i + n] == b'"' => return Ok(i + n + 1),
            // An escape: skip the backslash and the byte it escapes (`\"`, `\\`, `\u…` all work).
            Some(n) if i + n + 1 < bytes.len() => i += n + 2,
            _ => return Err(invalid("unterminated string")),
        }
    }
}

/// Bytes scanned in place before [`quote_or_backslash`] hands a long string to `memchr2`.
const SHORT_STRING: usize = 64;

/// The first `"` or `\` in `s`. Most strings of a result are short (keys, names, URLs): a scan of
/// their first [`SHORT_STRING`] bytes in place costs less than `memchr2`'s set-up per call, which
/// took ~7% of a 100,000-candidate `filter` process; longer strings go to `memchr2`. On x86-64 the
/// scan takes sixteen bytes at a time (SSE2, part of every x86-64 CPU), elsewhere eight.
#[inline]
fn quote_or_backslash(s: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
            _mm_set1_epi8,
        };
        let mut i = 0;
        while i + 16 <= s.len() && i < SHORT_STRING {
            // SAFETY: SSE2 is part of the x86-64 baseline; the unaligned load reads
            // `s[i..i + 16]`, in bounds by the loop condition.
            let hits = unsafe {
                let v = _mm_loadu_si128(s.as_ptr().add(i).cast::<__m128i>());
                let quotes = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
                let backslashes = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
                _mm_movemask_epi8(_mm_or_si128(quotes, backslashes))
            };
            if hits != 0 {
                return Some(i + hits.trailing_zeros() as usize);
            }
            i += 16;
        }
        if i >= SHORT_STRING {
            return memchr::memchr2(b'"', b'\\', &s[i..]).map(|n| i + n);
        }
        // Fewer than sixteen bytes left in all (the end of the text).
        quote_or_backslash_words(&s[i..]).map(|n| i + n)
    }
    #[cfg(not(target_arch = "x86_64"))]
    quote_or_backslash_words(s)
}

/// [`quote_or_backslash`] eight bytes at a time.
fn quote_or_backslash_words(s: &[u8]) -> Option<usize> {
    const LO: u64 = u64::from_ne_bytes([0x01; 8]);
    const HI: u64 = u64::from_ne_bytes([0x80; 8]);
    const QUOTES: u64 = u64::from_ne_bytes([b'"'; 8]);
    const BACKSLASHES: u64 = u64::from_ne_bytes([b'\\'; 8]);
    // A byte of `x` is zero where the word matched; the lowest flagged byte is always a true zero
    // (borrows only flag bytes above one).
    let zero = |x: u64| x.wrapping_sub(LO) & !x & HI;
    let mut i = 0;
    while i + 8 <= s.len().min(SHORT_STRING) {
        let w = u64::from_le_bytes(s[i..i + 8].try_into().expect("eight bytes"));
        let hits = zero(w ^ QUOTES) | zero(w ^ BACKSLASHES);
        if hits != 0 {
            return Some(i + (hits.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    if i < SHORT_STRING {
        // Fewer than eight bytes left in all.
        return s[i..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\')
            .map(|n| i + n);
    }
    memchr::memchr2(b'"', b'\\', &s[i..]).map(|n| i + n)
}

/// A member's key as text (the raw string between the quotes, decoded only if it has escapes).
fn key_text(raw: &str) -> io::Result<std::borrow::Cow<'_, str>> {
    let inner = &raw[1..raw.len() - 1];
    if inner.contains('\\') {
        serde_json::from_str::<String>(raw)
            .map(std::borrow::Cow::Owned)
            .map_err(|_| invalid("bad escape in a key"))
    } else {
        Ok(std::borrow::Cow::Borrowed(inner))
    }
}

/// The position just past the value that starts at `pos`, without writing it.
fn skip_value(bytes: &[u8], pos: usize) -> io::Result<usize> {
    match bytes.get(pos) {
        None => Err(invalid("unexpected end")),
        Some(b'"') => string_end(bytes, pos),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut i = pos;
            loop {
                match bytes.get(i) {
                    None => return Err(invalid("unexpected end")),
                    Some(b'"') => i = string_end(bytes, i)?,
                    Some(b'{' | b'[') => {
                        depth += 1;
                        i += 1;
                    }
                    Some(b'}' | b']') => {
                        depth -= 1;
                        i += 1;
                        if depth == 0 {
                            return Ok(i);
                        }
                    }
                    Some(_) => i += 1,
                }
            }
        }
        Some(_) => scalar_end(bytes, pos),
    }
}

/// The end of a number, `true`, `false` or `null`: the next structural byte or white space.
fn scalar_end(bytes: &[u8], pos: usize) -> io::Result<usize> {
    let len = bytes[pos..]
        .iter()
        .position(|b| matches!(b, b',' | b'}' | b']' | b':' | b' ' | b'\n' | b'\r' | b'\t'))
        .unwrap_or(bytes.len() - pos);
    if len == 0 {
        return Err(invalid("expected a value"));
    }
    Ok(pos + len)
}

/// Deeper nesting than this is refused (the component's results nest a few levels; its inputs are
/// parsed with serde_json's limit of 128), so a hostile component cannot exhaust the host's stack.
const MAX_DEPTH: usize = 512;

struct Writer<'a> {
    out: &'a mut dyn Write,
    buf: Vec<u8>,
    pretty: bool,
}

const SPACES: &[u8; 64] = b"                                                                ";

impl Writer<'_> {
    fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    fn flush_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= CHUNK {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn finish(mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        Ok(())
    }

    /// A line break and the indent of `depth` (pretty only).
    fn newline(&mut self, depth: usize) {
        if self.pretty {
            self.buf.push(b'\n');
            let mut n = depth * 2;
            while n > 0 {
                let k = n.min(SPACES.len());
                self.buf.extend_from_slice(&SPACES[..k]);
                n -= k;
            }
        }
    }

    /// What goes before a member or element at `depth`: a comma unless it is the first, then the
    /// line break.
    fn separator(&mut self, first: &mut bool, depth: usize) -> io::Result<()> {
        self.flush_if_full()?;
        if !*first {
            self.buf.push(b',');
        }
        *first = false;
        self.newline(depth);
        Ok(())
    }

    /// One of the host's members at the top level.
    fn member(&mut self, first: &mut bool, key: &str, compact_value: &str) -> io::Result<()> {
        self.separator(first, 1)?;
        self.push(Value::String(key.to_owned()).to_string().as_bytes());
        self.push(if self.pretty { b": " } else { b":" });
        let bytes = compact_value.as_bytes();
        self.value(bytes, 0, 1).map(drop)
    }

    /// Copy the value starting at `pos` (re-indented at `depth` when pretty); returns the position
    /// just past it.
    fn value(&mut self, bytes: &[u8], pos: usize, depth: usize) -> io::Result<usize> {
        match bytes.get(pos) {
            None => Err(invalid("unexpected end")),
            Some(b'"') => {
                let end = string_end(bytes, pos)?;
                self.push(&bytes[pos..end]);
                Ok(end)
            }
            Some(&open @ (b'{' | b'[')) => {
                if depth >= MAX_DEPTH {
                    return Err(invalid("nested too deeply"));
                }
                let close = if open == b'{' { b'}' } else { b']' };
                let mut i = skip_ws(bytes, pos + 1);
                self.buf.push(open);
                if bytes.get(i) == Some(&close) {
                    self.buf.push(close);
                    return Ok(i + 1);
                }
                let mut first = true;
                loop {
                    self.separator(&mut first, depth + 1)?;
                    if open == b'{' {
                        let key_end = string_end(bytes, i)?;
                        self.push(&bytes[i..key_end]);
                        i = skip_ws(bytes, key_end);
                        expect(bytes, i, b':')?;
                        self.push(if self.pretty { b": " } else { b":" });
                        i = skip_ws(bytes, i + 1);
                    }
                    i = skip_ws(bytes, self.value(bytes, i, depth + 1)?);
                    match bytes.get(i) {
                        Some(b',') => i = skip_ws(bytes, i + 1),
                        Some(&c) if c == close => break,
                        _ => return Err(invalid("expected , or a closing bracket")),
                    }
                }
                self.newline(depth);
                self.buf.push(close);
                Ok(i + 1)
            }
            Some(_) => {
                let end = scalar_end(bytes, pos)?;
                self.push(&bytes[pos..end]);
                Ok(end)
            }
        }
    }
}

#[cfg(test)]
mod tests;
