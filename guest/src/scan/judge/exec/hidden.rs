//! Where code comes from when the file does not spell its address out: a host pasted together at
//! run time behind a plain `http://` scheme (`"http://" + ip`, `"http://$h/x"`, `"http://" & h &`),
//! or an address kept in an encoding (`\x68\x74\x74\x70…`, `bytes.fromhex("68747470…")`, char codes
//! `104,116,116,112`, base64 `aHR0c…`). Neither is how an honest installer names its host: a vendor
//! writes its https address out, so a reader (and a checksum) can follow it.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

use crate::scan::hosts::HostClass;

use super::Host;

/// A host that stands for an address the text hides; `grade` reads an empty `url` as hidden.
fn hidden(what: &str) -> Host {
    Host {
        host: what.to_owned(),
        class: HostClass::Unknown,
        url: String::new(),
        path: String::new(),
    }
}

/// Whether `text` has a plain-http scheme followed by a host filled in at run time: a variable
/// (`$h`, `${H}`, `%S%`), the end of a string literal that is then concatenated (`"http://" + h`,
/// `'http://' & h`), or a template slot (`{host}`). A `<placeholder>` in documentation is not one.
pub fn runtime_http(text: &str) -> bool {
    static HTTP: OnceLock<AhoCorasick> = OnceLock::new();
    let http = HTTP.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(["http://"])
            .expect("one literal")
    });
    let b = text.as_bytes();
    for m in http.find_iter(text) {
        let i = m.start();
        // `https://` never matches `http://`; the scheme must not be part of a longer word.
        let word_start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        let next = b.get(i + 7).copied();
        if word_start && matches!(next, Some(b'$' | b'%' | b'{' | b'"' | b'\'' | b'`')) {
            // `"http://"` closing a literal must be followed by a concatenation, not be a whole
            // value on its own (`scheme = "http://"` in a URL builder that names the host later is
            // the same thing, but a lone constant compared against is not).
            if matches!(next, Some(b'"' | b'\'' | b'`')) {
                let rest = text[i + 8..].trim_start();
                if rest.starts_with(['+', '&', '.']) {
                    return true;
                }
            } else {
                return true;
            }
        }
    }
    scheme_element(text)
}

/// Whether `text` holds `"http:"` as one element of a list that is joined into an address at run
/// time (`['http:', '', host, 'x.js'].join('/')`): the scheme alone, then a comma. A list of the
/// schemes a check accepts (`("http:", "https:")`) is not one.
fn scheme_element(text: &str) -> bool {
    static SCHEME: OnceLock<AhoCorasick> = OnceLock::new();
    let scheme = SCHEME.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(["\"http:\"", "'http:'", "`http:`"])
            .expect("literals")
    });
    scheme.find_iter(text).any(|m| {
        let Some(rest) = text[m.end()..].trim_start().strip_prefix(',') else {
            return false;
        };
        let next = rest.trim_start().trim_start_matches(['"', '\'', '`']);
        !next
            .get(..6)
            .is_some_and(|w| w.eq_ignore_ascii_case("https:"))
    })
}

/// Whether `text` holds the start of a URL in an encoding: hex escapes or a hex string of "http",
/// its char codes, or its base64.
pub fn encoded_url(text: &str) -> bool {
    static HEX: OnceLock<AhoCorasick> = OnceLock::new();
    static BASE64: OnceLock<AhoCorasick> = OnceLock::new();
    let hex = HEX.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build([
                "\\x68\\x74\\x74\\x70",
                "68747470",
                "104,116,116,112",
                "104, 116, 116, 112",
            ])
            .expect("literals")
    });
    // base64 is case-sensitive.
    let base64 =
        BASE64.get_or_init(|| AhoCorasick::new(["aHR0cDovL", "aHR0cHM6Ly"]).expect("literals"));
    hex.is_match(text) || base64.is_match(text)
}

/// What a whole file says about hidden addresses, computed once per file (a file with many runs
/// whose host is unresolved would otherwise be rescanned for each of them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileHidden {
    pub runtime_http: bool,
    pub encoded_url: bool,
}

impl FileHidden {
    pub fn of(file: &str) -> FileHidden {
        FileHidden {
            runtime_http: runtime_http(file),
            encoded_url: encoded_url(file),
        }
    }
}

/// The hidden source of code run on a line whose address is not written out: first the line,
/// then the whole file (the address is usually assembled in a constant or variable above), whose
/// answer `file` holds.
pub fn hidden_source(line: &str, file: &FileHidden) -> Option<Host> {
    if runtime_http(line) || file.runtime_http {
        return Some(hidden("an address assembled at run time behind plain http"));
    }
    if encoded_url(line) || file.encoded_url {
        return Some(hidden("an address the file keeps encoded"));
    }
    None
}
