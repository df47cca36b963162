//! Objects filled through a method call (round 30c): `msg.set_content(body)`,
//! `msg.add_attachment(data, …)`, `msg.attach(part)`, `zf.writestr(name, data)`, `buf.write(data)`.
//!
//! A mail message, an archive or a buffer takes its content through a method rather than an
//! assignment, so the statement assigns no name and a followed value would stop there; the
//! object is what is then sent (`s.send_message(msg)`, `requests.post(u, files={"f": buf})`). A
//! statement that is one such call on a plain name, with a followed value in its arguments,
//! carries the value into that name.

/// Methods that put content into the object they are called on.
const FILLERS: &[&str] = &[
    "set_content",
    "add_attachment",
    "add_alternative",
    "set_payload",
    "attach",
    "writestr",
    "write",
];

/// Functions that configure the request handle given as their first argument (stop 58): PHP's
/// `curl_setopt($ch, CURLOPT_POSTFIELDS, $body)`, libcurl's `curl_easy_setopt(h, …)`, R's
/// `handle_setopt(h, postfields = body)`; the handle is then run (`curl_exec($ch)`).
const HANDLE_SETTERS: &[&str] = &[
    "curl_setopt(",
    "curl_setopt_array(",
    "curl_easy_setopt(",
    "handle_setopt(",
    "curl::handle_setopt(",
];

/// The object a statement fills: `NAME.method(` at the start of the line, `NAME` a plain
/// identifier (not `self.x`, not a module call like `sys.stdout.write`); or the handle a
/// [`HANDLE_SETTERS`] call configures.
pub(super) fn filled_object(first_line: &str) -> Option<&str> {
    let t = first_line.trim_start();
    if let Some(args) = HANDLE_SETTERS.iter().find_map(|f| t.strip_prefix(f)) {
        let handle = args
            .split(',')
            .next()?
            .trim()
            .trim_start_matches(['$', '&']);
        let plain = !handle.is_empty()
            && handle
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_')
            && !handle.as_bytes()[0].is_ascii_digit();
        return (plain && args.contains(',')).then_some(handle);
    }
    let dot = t.find('.')?;
    let name = &t[..dot];
    if name.is_empty()
        || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        || name.as_bytes()[0].is_ascii_digit()
        || matches!(
            name,
            "self" | "this" | "sys" | "os" | "console" | "process" | "document"
        )
    {
        return None;
    }
    let rest = &t[dot + 1..];
    let method = rest.split('(').next()?;
    (rest.len() > method.len() && FILLERS.contains(&method)).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::filled_object;

    #[test]
    fn filled_objects() {
        assert_eq!(filled_object("    msg.set_content(body)"), Some("msg"));
        assert_eq!(
            filled_object("msg.add_attachment(fh.read(), maintype='a')"),
            Some("msg")
        );
        assert_eq!(filled_object("z.writestr('env.txt', data)"), Some("z"));
        assert_eq!(filled_object("sys.stdout.write(data)"), None);
        assert_eq!(filled_object("self.buf.write(data)"), None);
        assert_eq!(filled_object("msg.set_content"), None);
        assert_eq!(filled_object("x = msg.set_content(body)"), None);
        assert_eq!(
            filled_object("curl_setopt($ch, CURLOPT_POSTFIELDS, 'k=' . $k);"),
            Some("ch")
        );
        assert_eq!(
            filled_object("  curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);"),
            Some("h")
        );
        assert_eq!(filled_object("curl_setopt($opts[0], X, $k);"), None);
        assert_eq!(filled_object("curl_setopt($ch);"), None);
    }
}
