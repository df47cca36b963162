//! A command's result: the guest's JSON object (kept as the text it returned when nothing needs to look
//! inside it), the fields the host adds, and the verdict that sets the CLI's exit code.

use serde_json::Value;

use crate::Error;

/// A successful result that may still say "no" (the CLI's exit codes 7, 8, 9 and 10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing to flag (exit 0).
    Done,
    /// Some input items were skipped; the rest is usable (`normalize`, `rank`; exit 7).
    Partial,
    /// A gate said no: a bundle's install policy is `block`, or validation found errors (exit 8).
    Blocked,
    /// A bundle's install policy is `ask`: confirm with the user first (exit 9).
    Ask,
    /// Refused because of what is on disk: a name taken, a skill not found, a malformed AGENTS.md
    /// block (exit 10).
    Conflict,
    /// Refused because an argument cannot apply (a patch whose `old` text is not found, or is found
    /// more than once) (exit 3, like invalid input).
    Invalid,
    /// Nothing usable: every candidate was dropped or blocked, or none was given (`recommend`'s
    /// `no_usable_candidates`, `filter` keeping nothing; exit 10).
    NothingUsable,
}

impl Verdict {
    /// The CLI's exit code for this verdict.
    pub fn exit_code(self) -> u8 {
        match self {
            Verdict::Done => 0,
            Verdict::Partial => 7,
            Verdict::Blocked => 8,
            Verdict::Ask => 9,
            Verdict::Conflict => 10,
            Verdict::Invalid => 3,
            Verdict::NothingUsable => 10,
        }
    }

    /// `"done"`, `"partial"`, `"blocked"`, `"ask"` or `"nothing_usable"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Done => "done",
            Verdict::Partial => "partial",
            Verdict::Blocked => "blocked",
            Verdict::Ask => "ask",
            Verdict::Conflict => "conflict",
            Verdict::Invalid => "invalid",
            Verdict::NothingUsable => "nothing_usable",
        }
    }
}

#[derive(Debug, Clone)]
enum Body {
    /// The guest's JSON text, untouched: large results (`filter`, `recommend` on 100,000 candidates)
    /// need not become a `Value` tree only to be written out again.
    Text(String),
    /// A result the host had to read (to decide the verdict).
    Value(Value),
}

/// The result of one command: the guest's JSON object plus top-level fields the host adds
/// (`discovery`, and for `status` where things live). Build a tree with [`Output::to_value`] when you
/// need one; [`Output::guest_text`] and [`Output::extra`] give the parts without parsing.
#[derive(Debug, Clone)]
pub struct Output {
    body: Body,
    extra: Vec<(&'static str, Value)>,
    verdict: Verdict,
}

fn invalid_json(e: serde_json::Error) -> Error {
    Error::Component(format!("the component returned invalid JSON: {e}"))
}

impl Output {
    /// The guest's JSON text as it returned it.
    pub(crate) fn from_text(text: String) -> Output {
        Output {
            body: Body::Text(text),
            extra: Vec::new(),
            verdict: Verdict::Done,
        }
    }

    /// The guest's text parsed, with the verdict `decide` reads from it.
    pub(crate) fn parsed(
        text: &str,
        decide: impl FnOnce(&Value) -> Verdict,
    ) -> Result<Output, Error> {
        let value: Value = serde_json::from_str(text).map_err(invalid_json)?;
        Ok(Output {
            verdict: decide(&value),
            body: Body::Value(value),
            extra: Vec::new(),
        })
    }

    /// The guest's JSON text kept as text, with the verdict read from its top-level `skipped` list
    /// alone (non-empty: [`Verdict::Partial`]). For `rank`, whose 100,000 entries (~120 MB of text)
    /// would otherwise become a `Value` tree of several times that only to be printed again.
    pub(crate) fn text_skipped_is_partial(text: String) -> Result<Output, Error> {
        #[derive(serde::Deserialize)]
        struct Head {
            #[serde(default)]
            skipped: Option<Vec<serde::de::IgnoredAny>>,
        }
        let head: Head = serde_json::from_str(&text).map_err(invalid_json)?;
        let verdict = match head.skipped {
            Some(s) if !s.is_empty() => Verdict::Partial,
            _ => Verdict::Done,
        };
        Ok(Output::from_text(text).with_verdict(verdict))
    }

    /// A result the host built as a tree (the skills-on-disk commands), with its verdict.
    pub(crate) fn value(value: Value, verdict: Verdict) -> Output {
        Output {
            body: Body::Value(value),
            extra: Vec::new(),
            verdict,
        }
    }

    /// The same output with `verdict`.
    pub(crate) fn with_verdict(mut self, verdict: Verdict) -> Output {
        self.verdict = verdict;
        self
    }

    /// Add a top-level field (it replaces a field of the same name in the guest's object).
    pub(crate) fn with(mut self, key: &'static str, value: Value) -> Output {
        self.extra.retain(|(k, _)| *k != key);
        self.extra.push((key, value));
        self
    }

    pub fn verdict(&self) -> Verdict {
        self.verdict
    }

    /// The guest's JSON text, when the host did not need to parse it (then [`Output::extra`] holds
    /// everything the host adds; the two together are the result).
    pub fn guest_text(&self) -> Option<&str> {
        match &self.body {
            Body::Text(t) => Some(t),
            Body::Value(_) => None,
        }
    }

    /// The top-level fields the host adds to the guest's object, in the order added.
    pub fn extra(&self) -> &[(&'static str, Value)] {
        &self.extra
    }

    /// The whole result as a JSON tree.
    pub fn to_value(&self) -> Result<Value, Error> {
        self.clone().into_value()
    }

    /// The whole result as a JSON tree, without copying the guest's part.
    pub fn into_value(self) -> Result<Value, Error> {
        let mut value = match self.body {
            Body::Text(t) => serde_json::from_str(&t).map_err(invalid_json)?,
            Body::Value(v) => v,
        };
        if let Value::Object(map) = &mut value {
            for (k, v) in self.extra {
                map.insert(k.to_owned(), v);
            }
        }
        Ok(value)
    }

    /// Write the result as JSON, pretty (two-space indent) or on one line, without a trailing newline.
    ///
    /// This is the one place that turns a result into output text. The guest's text is written through
    /// as it is (reformatted, no tree: [`crate::json_text::write`]), with the host's fields spliced in
    /// at the top level in key order; members below the top level keep the order the component wrote
    /// them in. A result the host parsed is printed from its tree, keys sorted.
    ///
    /// An `InvalidData` error means the component's text was not JSON ([`Output::to_json_text`] turns
    /// it into [`Error::Component`]); any other error is the writer's.
    pub fn write_json(&self, out: &mut dyn std::io::Write, compact: bool) -> std::io::Result<()> {
        match &self.body {
            Body::Text(t) => {
                let extra: Vec<(&str, &Value)> = self.extra.iter().map(|(k, v)| (*k, v)).collect();
                crate::json_text::write(out, t, &extra, !compact)
            }
            Body::Value(_) => {
                let value = self.to_value().map_err(|e| {
                    std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string())
                })?;
                if compact {
                    serde_json::to_writer(&mut *out, &value)
                } else {
                    serde_json::to_writer_pretty(&mut *out, &value)
                }
                .map_err(std::io::Error::from)
            }
        }
    }

    /// [`Output::write_json`] into a string.
    pub fn to_json_text(&self, compact: bool) -> Result<String, Error> {
        let mut buf = Vec::new();
        self.write_json(&mut buf, compact)
            .map_err(|e| Error::Component(format!("the component returned invalid JSON: {e}")))?;
        Ok(String::from_utf8(buf).expect("JSON text is UTF-8"))
    }
}
