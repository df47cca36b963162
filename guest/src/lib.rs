//! The skill-recommender guest.
//!
//! Domain modules are plain Rust and build and test natively (`cargo test -p guest`). On `wasm32` the
//! [`adapter`] module binds them to the WIT world `skill-recommender:core/recommender`; it converts types
//! and forwards, nothing more.

pub mod clock;
pub mod error;
pub mod filter;
pub mod fit;
pub mod input;
pub mod json;
pub mod lifecycle;
pub mod model;
pub mod normalize;
pub mod ondisk;
pub mod quality;
pub mod rank;
pub mod recommend;
pub mod render;
pub mod scan;
pub mod skill_md;
pub mod state;
pub mod store;
pub mod strmap;
pub mod text;
pub mod validate;
pub mod yaml;

#[cfg(target_arch = "wasm32")]
mod adapter;

pub use error::{Error, Result};

/// Let go of a call's large result data (100,000 parsed candidates) without freeing it piece by
/// piece. In the component every export call runs in a fresh instance whose memory is thrown away
/// when the call returns (all three hosts instantiate per call; `wit/recommender.wit` states it), so
/// freeing a million strings one by one is pure cost (6% of `filter` at 100,000 candidates, measured
/// natively). Natively (tests, the profile helpers) the value is dropped as usual.
pub(crate) fn discard<T>(value: T) {
    #[cfg(target_arch = "wasm32")]
    std::mem::forget(value);
    #[cfg(not(target_arch = "wasm32"))]
    drop(value);
}

/// `s.is_ascii()`, 16 bytes per step on every target: core's checks a machine word at a time, which in
/// WebAssembly is 4 bytes (natively 8, or SSE2).
pub fn is_ascii(s: &str) -> bool {
    const HIGH: u128 = u128::from_ne_bytes([0x80; 16]);
    let (chunks, rest) = s.as_bytes().as_chunks::<16>();
    chunks.iter().all(|c| u128::from_ne_bytes(*c) & HIGH == 0) && rest.is_ascii()
}

/// `s.to_ascii_lowercase()`, borrowed when `s` has no ASCII capital (per-candidate checks of a
/// source or a label, paths in the risk scan: most are lower-case already, and were copied each time).
pub fn ascii_lowered(s: &str) -> std::borrow::Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(s.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// `s.to_lowercase()`, faster on ASCII text: a byte map the compiler vectorizes, also for
/// WebAssembly, where std's ASCII fast path works on 32-bit words.
pub fn lowercase(s: &str) -> String {
    if is_ascii(s) {
        s.to_ascii_lowercase()
    } else {
        s.to_lowercase()
    }
}

/// Build every built-in table the exports otherwise build lazily on first use (WIT `initialize`):
/// content rules with every regex compiled, the scanner's helper patterns, the lexicon and the stemmer.
/// Idempotent, and it changes no result: only when the work is done.
pub fn initialize() {
    scan::initialize();
    fit::initialize();
    quality::initialize();
    rank::text::initialize();
    #[cfg(target_arch = "wasm32")]
    retire_free_memory();
}

/// After [`initialize`], take every free block the allocator holds inside the current linear memory
/// (the holes the build's temporaries left, and the rest of its top chunk) and keep them.
///
/// Why: a host snapshots the instance right after `initialize` (pre-initialization), and each call
/// starts from that snapshot mapped copy-on-write. Left alone, the allocator would serve a call's
/// first allocations from those holes, scattered over the snapshot's pages, and every page it writes
/// would be copied (a page fault and 4 KiB copied per page, every call). Retired, the holes stay
/// untouched and calls allocate from memory grown after the snapshot: fresh zero pages, as in a plain
/// instance. The cost is the holes' size (measured: under 1 MiB) of address space, once.
#[cfg(target_arch = "wasm32")]
fn retire_free_memory() {
    use core::arch::wasm32::memory_size;
    use std::alloc::{Layout, alloc, dealloc};
    // Largest first, so big holes are not nibbled into many small blocks.
    for size in [1 << 16, 1 << 12, 1 << 8, 1 << 4, 1] {
        let layout = Layout::from_size_align(size, 1).expect("valid layout");
        loop {
            let pages = memory_size(0);
            // SAFETY: `layout` has a non-zero size; the block is either kept forever (never used, never
            // freed) or freed right away with the same layout.
            // (`black_box`: an allocation nobody reads may otherwise be optimized away.)
            let block = std::hint::black_box(unsafe { alloc(layout) });
            if block.is_null() {
                break;
            }
            if memory_size(0) != pages {
                // No free block of this size was left: this one came from newly grown memory. Give it
                // back (it is fresh) and go on with the next smaller size.
                unsafe { dealloc(block, layout) };
                break;
            }
        }
    }
}
pub use store::{Document, DocumentStore, MemoryStore};

/// Language of user-facing text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    Zh,
    En,
}

impl Lang {
    pub fn as_str(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    /// `zh`/`en` (also a locale such as `zh_CN.UTF-8` or `en-US`); `None` for anything else.
    pub fn parse(text: &str) -> Option<Lang> {
        let t = text.trim().to_ascii_lowercase();
        if t.starts_with("zh") {
            Some(Lang::Zh)
        } else if t.starts_with("en") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The language a POSIX locale value asks for (`LC_ALL`, `LC_MESSAGES` or `LANG`): `zh*` is Chinese,
    /// any other locale (`en_US.UTF-8`, `de_DE`, `C`, `POSIX`) English; no locale at all (`None` or
    /// empty) is Chinese, the protocol's language.
    pub fn from_locale(locale: Option<&str>) -> Lang {
        match locale.map(str::trim).filter(|l| !l.is_empty()) {
            None => Lang::Zh,
            Some(l) if l.to_ascii_lowercase().starts_with("zh") => Lang::Zh,
            Some(_) => Lang::En,
        }
    }
}

/// What the host passes with every call (WIT `context`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ctx {
    /// RFC 3339 with an offset.
    pub now: String,
    /// The host's IANA zone, if known.
    pub host_timezone: Option<String>,
    /// The language for user-facing text: chosen for this call, or the host's guess from the locale.
    pub lang: Lang,
    /// `lang` was chosen for this call (`--lang`). When false, a `lang` saved in the state wins.
    pub lang_explicit: bool,
}

impl Ctx {
    /// A context for tests and examples: `now`, no host zone, Chinese (not chosen explicitly).
    pub fn at(now: &str) -> Ctx {
        Ctx {
            now: now.to_owned(),
            host_timezone: None,
            lang: Lang::Zh,
            lang_explicit: false,
        }
    }

    /// The language of this call once the state is known: an explicit choice, else the state's
    /// `lang`, else the host's guess.
    pub fn lang_with(&self, state: &state::State) -> Lang {
        if self.lang_explicit {
            return self.lang;
        }
        state
            .lang
            .as_deref()
            .and_then(Lang::parse)
            .unwrap_or(self.lang)
    }

    /// The language of a card made for `task`: as [`Ctx::lang_with`], except that when nothing
    /// chose one (no `--lang`, none saved in the state) a task written in Chinese gets a Chinese
    /// card whatever the locale says. Agents often run under `C.UTF-8` or an English locale while
    /// their user writes in Chinese, and the task is the user's own words. A task in other words
    /// follows the locale (a user of a Chinese locale may well type an English tool name).
    pub fn lang_for_task(&self, state: &state::State, task: Option<&str>) -> Lang {
        if self.lang_source(state) == "locale"
            && task.is_some_and(|t| t.chars().any(rank::lexicon::is_han))
        {
            return Lang::Zh;
        }
        self.lang_with(state)
    }

    /// Where [`Ctx::lang_with`] took the language from: `explicit`, `state` or `locale`.
    pub fn lang_source(&self, state: &state::State) -> &'static str {
        if self.lang_explicit {
            "explicit"
        } else if state.lang.as_deref().and_then(Lang::parse).is_some() {
            "state"
        } else {
            "locale"
        }
    }

    /// This context with its language resolved against the state (see [`Ctx::lang_with`]).
    pub fn resolved(&self, state: &state::State) -> Ctx {
        Ctx {
            lang: self.lang_with(state),
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn lowercase_is_to_lowercase(s in "\\PC{0,40}", ascii in "[ -~]{0,40}") {
            prop_assert_eq!(super::lowercase(&s), s.to_lowercase());
            prop_assert_eq!(super::lowercase(&ascii), ascii.to_lowercase());
        }

        /// Borrowed exactly when lower-casing the ASCII capitals changes nothing.
        #[test]
        fn ascii_lowered_is_to_ascii_lowercase(s in "\\PC{0,40}", ascii in "[ -~]{0,40}") {
            for t in [&s, &ascii] {
                let lowered = super::ascii_lowered(t);
                prop_assert_eq!(&*lowered, t.to_ascii_lowercase());
                let borrowed = matches!(lowered, std::borrow::Cow::Borrowed(_));
                prop_assert_eq!(borrowed, !t.bytes().any(|b| b.is_ascii_uppercase()));
            }
        }

        #[test]
        fn is_ascii_is_core_is_ascii(ascii in "[\\x00-\\x7f]{0,80}", s in "\\PC{0,40}", at in 0usize..80) {
            prop_assert!(super::is_ascii(&ascii));
            prop_assert_eq!(super::is_ascii(&s), s.is_ascii());
            // One non-ASCII character anywhere in an otherwise ASCII line: in a full chunk or the tail.
            let at = at.min(ascii.len());
            let mixed = format!("{}é{}", &ascii[..at], &ascii[at..]);
            prop_assert!(!super::is_ascii(&mixed));
        }
    }
}
