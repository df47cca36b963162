//! The quality signals as data (`guest/rules/quality-signals.json`), compiled once per instance.

use std::sync::OnceLock;

use regex_automata::meta::Regex;
use serde::Deserialize;

/// The bundled signal file.
pub const SIGNALS_JSON: &str = include_str!("../../rules/quality-signals.json");

/// Level thresholds (on the 0–100 score).
#[derive(Debug, Clone, Deserialize)]
pub struct Levels {
    pub strong_at: u32,
    pub prompt_only_below: u32,
    /// At least one of these must be found for more than `prompt-only`: what makes a skill more than
    /// instructions (gotchas, a check, files, examples).
    pub strength_signals: Vec<String>,
}

/// The body's size guidance.
#[derive(Debug, Clone, Deserialize)]
pub struct BodyGuidance {
    pub min_words: usize,
    pub max_words: usize,
    pub max_lines: usize,
}

/// The description detector.
#[derive(Debug, Clone, Deserialize)]
pub struct DescriptionSpec {
    pub min_chars: usize,
    pub when: Vec<String>,
}

/// One signal as written in the data file.
#[derive(Debug, Clone, Deserialize)]
pub struct SignalSpec {
    pub id: String,
    pub weight: u32,
    pub title: String,
    pub title_zh: String,
    pub hint: String,
    #[serde(default)]
    pub headings: Vec<String>,
    #[serde(default)]
    pub lines: Vec<String>,
    #[serde(default = "one")]
    pub min_lines: usize,
    #[serde(default)]
    pub dirs: Vec<String>,
    #[serde(default)]
    pub markdown_links: bool,
    #[serde(default)]
    pub description: Option<DescriptionSpec>,
    #[serde(default)]
    pub length: bool,
    #[serde(default, rename = "match")]
    pub examples_match: Vec<String>,
    #[serde(default)]
    pub no_match: Vec<String>,
}

fn one() -> usize {
    1
}

#[derive(Deserialize)]
struct SignalFile {
    levels: Levels,
    body: BodyGuidance,
    signals: Vec<SignalSpec>,
}

/// A compiled signal.
pub struct Signal {
    pub spec: SignalSpec,
    pub headings: Vec<Regex>,
    pub lines: Vec<Regex>,
    /// Paths under `dirs`, anywhere in the body (`None` without dirs).
    pub dirs: Option<Regex>,
    pub when: Vec<Regex>,
}

/// The compiled signal set.
pub struct Signals {
    pub levels: Levels,
    pub body: BodyGuidance,
    pub signals: Vec<Signal>,
    /// Relative Markdown link targets: `](target)`.
    pub link: Regex,
}

fn regex(pattern: &str, id: &str) -> Result<Regex, String> {
    Regex::new(pattern).map_err(|e| format!("signal {id}: pattern {pattern:?}: {e}"))
}

impl Signals {
    /// The bundled signals.
    pub fn builtin() -> &'static Signals {
        static SET: OnceLock<Signals> = OnceLock::new();
        SET.get_or_init(|| {
            Signals::from_json(SIGNALS_JSON).expect("the bundled signals are valid (tested)")
        })
    }

    /// Parse and compile a signal file. Errors name the signal.
    pub fn from_json(text: &str) -> Result<Signals, String> {
        let file: SignalFile =
            serde_json::from_str(text).map_err(|e| format!("signal file: {e}"))?;
        let total: u32 = file.signals.iter().map(|s| s.weight).sum();
        if total != 100 {
            return Err(format!("signal file: the weights sum to {total}, not 100"));
        }
        let mut signals = Vec::new();
        for spec in file.signals {
            let id = spec.id.clone();
            let compile = |list: &[String]| -> Result<Vec<Regex>, String> {
                list.iter().map(|p| regex(p, &id)).collect()
            };
            let dirs = if spec.dirs.is_empty() {
                None
            } else {
                let alternatives: Vec<String> =
                    spec.dirs.iter().map(|d| regex_syntax_escape(d)).collect();
                Some(regex(
                    &format!(r"(?i)\b(?:{})/[A-Za-z0-9._/\-]*", alternatives.join("|")),
                    &id,
                )?)
            };
            signals.push(Signal {
                headings: compile(&spec.headings)?,
                lines: compile(&spec.lines)?,
                when: compile(
                    spec.description
                        .as_ref()
                        .map(|d| d.when.as_slice())
                        .unwrap_or(&[]),
                )?,
                dirs,
                spec,
            });
        }
        for s in &file.levels.strength_signals {
            if !signals.iter().any(|x| &x.spec.id == s) {
                return Err(format!("levels: strength signal {s} is not a signal"));
            }
        }
        Ok(Signals {
            levels: file.levels,
            body: file.body,
            signals,
            link: regex(r"\]\(\s*<?([^)\s>]+)", "markdown links")?,
        })
    }
}

/// Escape a folder name for a regex (they are plain words; anything else is escaped).
fn regex_syntax_escape(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c.to_string()
            } else {
                format!("\\{c}")
            }
        })
        .collect()
}
