//! The skill-recommender guest.
//!
//! Domain modules are plain Rust and build and test natively (`cargo test -p guest`). On `wasm32` the
//! [`adapter`] module binds them to the WIT world `skill-recommender:core/recommender`; it converts types
//! and forwards, nothing more.

pub mod clock;
pub mod error;
pub mod filter;
pub mod json;
pub mod lifecycle;
pub mod model;
pub mod normalize;
pub mod rank;
pub mod recommend;
pub mod render;
pub mod scan;
pub mod state;
pub mod store;
pub mod text;
pub mod validate;
pub mod yaml;

#[cfg(target_arch = "wasm32")]
mod adapter;

pub use error::{Error, Result};
pub use store::{Document, DocumentStore, MemoryStore};

/// Language of user-facing text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    Zh,
    En,
}

/// What the host passes with every call (WIT `context`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ctx {
    /// RFC 3339 with an offset.
    pub now: String,
    /// The host's IANA zone, if known.
    pub host_timezone: Option<String>,
    pub lang: Lang,
}

impl Ctx {
    /// A context for tests and examples: `now`, no host zone, Chinese.
    pub fn at(now: &str) -> Ctx {
        Ctx {
            now: now.to_owned(),
            host_timezone: None,
            lang: Lang::Zh,
        }
    }
}
