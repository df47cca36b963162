//! Printing a result or an error, and the exit code that goes with it.

use std::io::Write;
use std::process::ExitCode;

use host_harness::Error;
use host_harness::commands::{Output, Verdict};
use serde_json::Value;

/// How a successful result is printed.
pub enum Style {
    /// The JSON object (pretty, or on one line).
    Json,
    /// `scan-bundle --text`: a readable report.
    ScanReport,
    /// `recommend` and `render` without --json: the card text (nothing when silent, except why nothing
    /// was usable).
    Card,
}

/// Print a result; the exit code follows its verdict (0, or 7 partial, 8 blocked, 9 ask, 10 nothing
/// usable).
pub fn result(out: &Output, style: Style, compact: bool) -> ExitCode {
    let printed = match style {
        Style::Json => json(out, compact),
        Style::ScanReport => out.to_value().map(|v| text(&report_text(&v))),
        Style::Card => out.to_value().map(|v| match v["card"].as_str() {
            Some(card) => text(card),
            // Nothing left: say why on stdout too, one line per reason (exit 10).
            None if out.verdict() == Verdict::NothingUsable => line(
                v["message"]
                    .as_str()
                    .unwrap_or("no candidate is left to recommend"),
            ),
            None => eprintln!(
                "skill-recommender: nothing to show ({}): {}",
                v["reason"].as_str().unwrap_or("silent"),
                v["message"].as_str().unwrap_or("")
            ),
        }),
    };
    if let Err(e) = printed {
        return fail(&e, compact);
    }
    if out.verdict() == Verdict::Partial {
        eprintln!("skill-recommender: some items were skipped; see \"skipped\" in the output");
    }
    ExitCode::from(out.verdict().exit_code())
}

/// Print the error object on stdout and one line on stderr; exit with the error's code.
pub fn fail(e: &Error, compact: bool) -> ExitCode {
    let value = e.to_json();
    let text = if compact {
        serde_json::to_string(&value)
    } else {
        serde_json::to_string_pretty(&value)
    };
    line(&text.expect("JSON values always serialize"));
    eprintln!("skill-recommender: error: {e}");
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1))
}

/// Write the result and a newline to stdout, streamed (a `filter` of 100,000 candidates is ~60 MB).
fn json(out: &Output, compact: bool) -> Result<(), Error> {
    let mut w = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let written = out
        .write_json(&mut w, compact)
        .and_then(|()| writeln!(w))
        .and_then(|()| w.flush());
    written_out(written)
}

/// What writing a result to stdout gave, as the CLI reports it.
pub fn written_out(written: std::io::Result<()>) -> Result<(), Error> {
    use std::io::ErrorKind;
    match written {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::InvalidData => Err(Error::Component(format!(
            "the component returned invalid JSON: {e}"
        ))),
        // A reader that closed the pipe early (`| head`) is not an error worth a message.
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        Err(e) => {
            eprintln!("skill-recommender: cannot write the output: {e}");
            Ok(())
        }
    }
}

/// Write `text` and a newline to stdout.
fn line(text: &str) {
    // A reader that closed the pipe early (`| head`) is not an error worth a panic.
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("skill-recommender: cannot write the output: {e}");
    }
}

/// Write `text` as it is to stdout.
fn text(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// The readable `scan-bundle --text` report.
fn report_text(v: &Value) -> String {
    let s = |k: &str| v[k].as_str().unwrap_or("").to_owned();
    let mut out = format!(
        "skill:   {}\ntrust:   {}\nverdict: {}\npolicy:  {}  ({})\nfiles:   {} ({} bytes), {} rules\n",
        s("skill"),
        s("trust"),
        s("verdict").to_uppercase(),
        s("policy").to_uppercase(),
        s("reason"),
        v["stats"]["files"],
        v["stats"]["bytes"],
        v["stats"]["rules"]
    );
    if let Some(q) = v["quality"]["summary"].as_str() {
        out.push_str(&format!("quality: {q}\n"));
    }
    let findings = v["findings"].as_array().cloned().unwrap_or_default();
    if findings.is_empty() {
        out.push_str("\nNo findings.\n");
    }
    for f in findings {
        let fs = |k: &str| f[k].as_str().unwrap_or("").to_owned();
        let place = match f["line"].as_u64() {
            Some(0) | None => fs("file"),
            Some(l) => format!("{}:{l}", fs("file")),
        };
        out.push_str(&format!(
            "\n[{}] {}  {}\n    {}\n    {}\n",
            fs("severity").to_uppercase(),
            fs("rule_id"),
            place,
            fs("evidence"),
            fs("description")
        ));
        for r in f["related"].as_array().into_iter().flatten() {
            let rs = |k: &str| r[k].as_str().unwrap_or("").to_owned();
            out.push_str(&format!(
                "    {} {}:{}  {}\n",
                rs("role"),
                rs("file"),
                r["line"],
                rs("evidence")
            ));
        }
    }
    out
}

/// The one-line progress of a catalog scan on stderr, drawn only when stderr is a terminal (never in
/// a pipe, a log or a test), at most ten times a second, and erased at the end.
pub struct Progress {
    on: bool,
    drawn: Option<std::time::Instant>,
}

impl Progress {
    pub fn for_stderr() -> Progress {
        use std::io::IsTerminal;
        Progress {
            on: std::io::stderr().is_terminal(),
            drawn: None,
        }
    }

    pub fn update(&mut self, s: &host_harness::catalog::Summary) {
        if !self.on
            || self
                .drawn
                .is_some_and(|t| t.elapsed() < std::time::Duration::from_millis(100))
        {
            return;
        }
        let n = |k: &str| s.by_policy.get(k).copied().unwrap_or(0);
        eprint!(
            "\r\x1b[2Kscanned {} bundles: {} allow, {} ask, {} block, {} unreadable ({:.1} s)",
            s.bundles,
            n("allow"),
            n("ask"),
            n("block"),
            s.errors,
            s.elapsed_ms as f64 / 1000.0
        );
        self.drawn = Some(std::time::Instant::now());
    }

    pub fn finish(&mut self) {
        if self.drawn.is_some() {
            eprint!("\r\x1b[2K");
        }
    }
}
