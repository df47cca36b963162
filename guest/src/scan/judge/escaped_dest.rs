//! A request whose destination is spelled in `\xNN` escapes (round 43m's open item, taken up in
//! round 47m: `exfiltration.escaped-destination`).
//!
//! `obfuscation.hex-escapes` (`high`) notes a long run of `\x` escapes on a line. Written-out bytes
//! have honest uses (a binary header, a terminal colour, a test vector); a network address has
//! none: a program that spells where it sends data one byte at a time is hiding the destination
//! from whoever reads it. Facts, in one code file: a line whose `\xNN` escapes (all of them on the
//! line, joined, so an address split over an array's pieces counts) decode to an address
//! ([`address_like`]: `://`, or a host name with a dot and a known ending), and a send call
//! ([`SENDS`]) anywhere in the file. Judged `critical` at the escaped line, the send related.
//!
//! Not judged: escapes that decode to bytes, colours or text that is no address; an escaped
//! address in a file that sends nothing (the line rule's `high` note stands). Gated on `\x`; one
//! pass over the lowered lines, each decoded once.

use super::Bundle;
use super::shapes::{found, is_code, judged, rel};
use crate::scan::content::Finding;
use crate::scan::rules::Severity;

/// The gate word (lower-case).
pub(super) const GATE: &[&str] = &["\\x"];
/// Escapes a line must hold before it is decoded.
const MIN_ESCAPES: usize = 8;
/// Calls that send data over the network (lower-case).
const SENDS: &[&str] = &[
    "requests.post(",
    "requests.get(",
    "requests.put(",
    "httpx.",
    "urlopen(",
    "urllib.request",
    "fetch(",
    "axios.",
    "axios(",
    "https.request(",
    "http.request(",
    "senddocument",
    "sendmessage",
    "invoke-webrequest",
    "invoke-restmethod",
    "webclient",
    "curl ",
    ".connect((",
    "net.connect(",
    "socket.create_connection(",
];
/// Endings of a host name (lower-case, with the dot).
const ENDINGS: &[&str] = &[
    ".com", ".org", ".net", ".io", ".ru", ".xyz", ".top", ".me", ".app", ".dev", ".cc", ".su",
];

/// The bytes the `\xNN` escapes of a line decode to, joined, and how many there were.
fn decoded(l: &str) -> (Vec<u8>, usize) {
    let b = l.as_bytes();
    let (mut out, mut n, mut i) = (Vec::new(), 0, 0);
    while i + 3 < b.len() {
        if b[i] == b'\\'
            && b[i + 1] == b'x'
            && b[i + 2].is_ascii_hexdigit()
            && b[i + 3].is_ascii_hexdigit()
        {
            let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            out.push(hex(b[i + 2]) * 16 + hex(b[i + 3]));
            n += 1;
            i += 4;
        } else {
            i += 1;
        }
    }
    (out, n)
}

/// Whether decoded bytes spell a network address: a scheme, or a host name with a dot and a
/// known ending.
fn address_like(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes).to_ascii_lowercase();
    if text.contains("://") {
        return true;
    }
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
        .any(|t| {
            t.contains('.')
                && t.bytes().any(|c| c.is_ascii_alphabetic())
                && ENDINGS.iter().any(|e| t.ends_with(e))
        })
}

pub(super) fn escaped_destination(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    let mut new = Vec::new();
    for file in b.files.iter().filter(|f| is_code(f)) {
        if !file.words().any(GATE) {
            continue;
        }
        let low = &file.lowered().lower;
        let Some(send) = low.iter().position(|l| SENDS.iter().any(|s| l.contains(s))) else {
            continue;
        };
        let hit = low.iter().enumerate().find(|(_, l)| {
            let (bytes, n) = decoded(l);
            n >= MIN_ESCAPES && address_like(&bytes)
        });
        let Some((i, l)) = hit else { continue };
        if judged(b, out, file, i) {
            continue;
        }
        let shown = String::from_utf8_lossy(&decoded(l).0).into_owned();
        new.push(found(
            "exfiltration.escaped-destination",
            "exfiltration",
            Severity::Critical,
            file,
            i,
            format!(
                "{}:{}: a network address is spelled in `\\x` escapes (they decode to `{}`), and the file sends data ({}:{}). Honest code writes where it connects in plain text; spelling it byte by byte hides the destination from a reader. Do not install this skill.",
                file.path,
                i + 1,
                shown.chars().take(80).collect::<String>(),
                file.path,
                send + 1
            ),
            vec![rel("send", file, send)],
        ));
    }
    out.extend(new);
}
