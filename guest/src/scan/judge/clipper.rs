//! `exfiltration.clipboard-hijack`: a program that reads the clipboard, tests whether it holds a
//! crypto address, and writes an address of its own back (a "clipper": the user pastes the
//! attacker's address into a payment). Language-neutral: the clipboard read is a fact
//! (`source.clipboard`); the address test, the constant address and the write back are looked up
//! in that file's text only when the read is there.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

use super::{Bundle, finding};
use crate::scan::content::Finding;
use crate::scan::facts::FactKind;
use crate::scan::rules::Severity;

/// Calls that put text on the clipboard (Python, JS, PowerShell, macOS, Linux, .NET, Win32).
const WRITES: &[&str] = &[
    "pyperclip.copy(",
    "clipboard.writetext(",
    "clipboardy.write",
    "set-clipboard",
    "| pbcopy",
    "|pbcopy",
    "wl-copy",
    "clipboard.settext(",
    "setclipboarddata(",
    "clipboard_append(",
    "clipboard.copy(",
    "xclip -selection clipboard -i",
    "xsel --clipboard --input",
    "xsel -bi",
];

/// Whether `text` holds an address written out: `0x` and 40 hex digits, or a bech32 `bc1` one.
fn constant_address(text: &str) -> bool {
    let b = text.as_bytes();
    let run = |from: usize, ok: fn(u8) -> bool| b[from..].iter().take_while(|&&c| ok(c)).count();
    let mut i = 0;
    while i + 2 < b.len() {
        let word_start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        if word_start
            && b[i] == b'0'
            && b[i + 1] == b'x'
            && run(i + 2, |c| c.is_ascii_alphanumeric()) == 40
        {
            return true;
        }
        if word_start
            && b[i..].starts_with(b"bc1")
            && run(i + 3, |c| c.is_ascii_alphanumeric()) >= 25
        {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether `text` tests a value's shape as a crypto address: a pattern of 40 hex digits or a
/// bech32/base58 address, or a prefix test for `0x` / `bc1`.
fn address_test(text: &str) -> bool {
    static SHAPES: OnceLock<AhoCorasick> = OnceLock::new();
    let shapes = SHAPES.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build([
                "0x[a-f",
                "0x[0-9",
                "[0-9a-f]{40}",
                "[a-f0-9]{40}",
                "[a-fa-f0-9]{40}",
                "[0-9a-fa-f]{40}",
                "bc1[",
                "bc1|",
                "(bc1",
                "[13][a-km-z",
                "startswith(\"0x\")",
                "startswith('0x')",
                "startswith(\"bc1\")",
                "startswith('bc1')",
            ])
            .expect("literals")
    });
    shapes.is_match(text)
}

pub fn judge(b: &Bundle<'_>, out: &mut Vec<Finding>) {
    static WRITE: OnceLock<AhoCorasick> = OnceLock::new();
    let write = WRITE.get_or_init(|| {
        AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(WRITES)
            .expect("literals")
    });
    for file in &b.files {
        let Some(read) = b
            .in_file(file, FactKind::SecretCommand)
            .find(|a| !a.fact.prose && b.tag(a.fact) == "clipboard")
        else {
            continue;
        };
        let text = file.content;
        if !(write.is_match(text) && address_test(text) && constant_address(text)) {
            continue;
        }
        out.push(finding(
            "exfiltration.clipboard-hijack",
            "exfiltration",
            Severity::Critical,
            read,
            "Reads the clipboard, tests whether it holds a crypto address, and writes an address of its own back: whoever pastes a payment address pays the address hard-coded here. Do not install this skill.".into(),
            Vec::new(),
        ));
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn address_shapes() {
        assert!(super::constant_address(&format!(
            "DEST = \"0x{}\"",
            "ab12".repeat(10)
        )));
        assert!(super::constant_address(&format!(
            "a='bc1q{}'",
            "x0".repeat(15)
        )));
        assert!(!super::constant_address("color = 0xff00ff; id = 0x1234"));
        assert!(super::address_test("re.compile(r\"^0x[a-fA-F0-9]{40}$\")"));
        assert!(super::address_test(
            "if (s.startsWith('0x') && s.length === 42)"
        ));
        assert!(!super::address_test(
            "if (s.startsWith('#') && s.length === 7)"
        ));
        assert!(super::address_test(
            "if v.startswith(\"0x\") and len(v) == 42:"
        ));
    }
}
