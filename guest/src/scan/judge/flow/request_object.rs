//! A request object made on one statement and given its body on a later one: Node's
//! `const req = https.request({…}); req.write(data); req.end()` (or `req.end(payload)`), a socket
//! from `net.connect(…)` written to. The request fact sits where the object is made; the data
//! joins it where it is written, so the write is read as that request's sink.

use super::code::Definitions;

/// Constructors whose result is a request (or connection) that a later `.write(x)`/`.end(x)` sends.
const MAKERS: [&str; 5] = [
    "http.request(",
    "https.request(",
    "net.connect(",
    "tls.connect(",
    "net.createConnection(",
];

/// The line where the request object written to by this statement was made
/// (`NAME.write(value)` or `NAME.end(value)` with `NAME` defined by a request constructor), if any.
pub(super) fn written_request(text: &str, defs: &Definitions) -> Option<u32> {
    let t = text.trim_start();
    for method in [".write(", ".end("] {
        let Some(i) = t.find(method) else { continue };
        let name = &t[..i];
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
        {
            continue;
        }
        let arg = t[i + method.len()..].trim_start();
        if arg.is_empty() || arg.starts_with(')') {
            continue;
        }
        let def = defs.get(name)?;
        if MAKERS.iter().any(|m| def.text.contains(m)) {
            return Some(def.line);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defs(name: &str, text: &str) -> Definitions {
        let mut d = Definitions::default();
        d.record(&[name], 3, text);
        d
    }

    #[test]
    fn writes_to_a_request_object_are_its_body() {
        let d = defs(
            "req",
            "const req = https.request({ hostname: h, method: \"POST\" });",
        );
        assert_eq!(written_request("req.write(data);", &d), Some(3));
        assert_eq!(written_request("  req.end(payload);", &d), Some(3));
        let s = defs("sock", "const sock = net.connect(4444, host);");
        assert_eq!(written_request("sock.write(buf)", &s), Some(3));
    }

    #[test]
    fn other_writes_are_not() {
        let d = defs("req", "const req = https.request({ hostname: h });");
        assert_eq!(written_request("req.end();", &d), None);
        assert_eq!(written_request("res.end(body);", &d), None);
        let f = defs("out", "const out = fs.createWriteStream(p);");
        assert_eq!(written_request("out.write(data);", &f), None);
    }
}
