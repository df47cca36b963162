//! The guest's view of persistence: load and stage whole JSON documents.
//!
//! In the component this is the WIT `state-store` import; natively (tests, benchmarks) it is
//! [`MemoryStore`]. Either way the domain code sees only this trait.

use crate::error::{Error, Result};

/// The two persisted documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Document {
    State,
    History,
}

impl Document {
    /// The file name the original uses for this document.
    pub fn file_name(self) -> &'static str {
        match self {
            Document::State => "state.json",
            Document::History => "history.json",
        }
    }
}

/// Load and stage documents. `save` stages: the host commits only if the whole call succeeds.
pub trait DocumentStore {
    /// The current text of `doc`, or `None` when it does not exist yet.
    fn load(&mut self, doc: Document) -> Result<Option<String>>;
    /// Stage the complete new text of `doc`.
    fn save(&mut self, doc: Document, json: String) -> Result<()>;
}

/// An in-memory store: what the tests and native benchmarks use.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MemoryStore {
    pub state: Option<String>,
    pub history: Option<String>,
    /// How many times `save` was called (tests assert that read-only commands never save).
    pub saves: usize,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with(state: Option<&str>, history: Option<&str>) -> Self {
        MemoryStore {
            state: state.map(str::to_owned),
            history: history.map(str::to_owned),
            saves: 0,
        }
    }

    fn slot(&mut self, doc: Document) -> &mut Option<String> {
        match doc {
            Document::State => &mut self.state,
            Document::History => &mut self.history,
        }
    }
}

impl DocumentStore for MemoryStore {
    fn load(&mut self, doc: Document) -> Result<Option<String>> {
        Ok(self.slot(doc).clone())
    }

    fn save(&mut self, doc: Document, json: String) -> Result<()> {
        if json.is_empty() {
            return Err(Error::Store("refusing to save an empty document".into()));
        }
        self.saves += 1;
        *self.slot(doc) = Some(json);
        Ok(())
    }
}
