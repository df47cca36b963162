//! The compiled, pre-initialized component, made when this crate is built and embedded in it, so that
//! no run compiles anything: not the first one, not one with an empty or read-only home, not one with
//! `--no-cache`.
//!
//! `build.rs` pre-initializes the component ([`crate::preinit`]) and compiles the snapshot with
//! [`engine_config`] for the default [`Limits`] (a wall-clock deadline, no fuel), on the machine that
//! builds it. Loading it at run time is `Component::deserialize`: wasmtime checks that the artifact was
//! made by this wasmtime version, for this target, with these engine settings and only CPU features
//! this machine has, and refuses it otherwise. The harness then compiles the component as before (or
//! loads it from the on-disk cache) and says why in one line ([`Embedded::Rejected`]): a binary built on
//! a newer CPU and copied to an older one is slower to start, never wrong.
//!
//! Self-contained (it names only [`crate::preinit`] and [`crate::limits`]) so the build script can use
//! the same settings it is checked against.

use wasmtime::{Config, Engine, OptLevel};

use crate::limits::Limits;
use crate::preinit::{INIT_FUEL, InitLimits, SnapshotError, snapshot};

/// The engine settings that decide the compiled code. Everything else about an engine (the instance
/// pool, the memory cap) is applied at run time and does not change it.
pub fn engine_config(limits: &Limits) -> Config {
    let mut config = Config::new();
    config
        .wasm_component_model(true)
        .cranelift_opt_level(OptLevel::Speed)
        .consume_fuel(limits.fuel.is_some())
        .epoch_interruption(limits.deadline.is_some());
    config
}

/// Whether code compiled for `limits` is the code the embedded artifact holds: the same metering (a
/// deadline, no fuel) as [`Limits::default`]. Other limits (the test suites' fuel) compile for
/// themselves, through the on-disk cache.
pub fn fits(limits: &Limits) -> bool {
    let default = Limits::default();
    limits.fuel.is_some() == default.fuel.is_some()
        && limits.deadline.is_some() == default.deadline.is_some()
}

/// What `build.rs` makes from the component: the pre-initialized snapshot (a component, for other
/// hosts to ship) and the snapshot compiled for the default limits on this machine (embedded here).
pub struct Built {
    pub snapshot: Vec<u8>,
    pub artifact: Vec<u8>,
}

/// Pre-initialize `wasm` and compile the snapshot for the default limits on this machine.
pub fn build(wasm: &[u8]) -> Result<Built, String> {
    let limits = Limits::default();
    let init = InitLimits {
        max_memory_bytes: limits.max_memory_bytes,
        fuel: INIT_FUEL,
    };
    let snapshot = snapshot(wasm, init).map_err(|e| match e {
        SnapshotError::Unsupported => "the component has no `initialize` export".to_owned(),
        SnapshotError::Failed(why) => why,
    })?;
    let engine = Engine::new(&engine_config(&limits)).map_err(|e| format!("{e:#}"))?;
    let artifact = engine
        .precompile_component(&snapshot)
        .map_err(|e| format!("compiling the snapshot: {e:#}"))?;
    Ok(Built { snapshot, artifact })
}

/// Whether the embedded artifact was used, and if not, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Embedded {
    /// Loaded: nothing was compiled.
    Used,
    /// Not tried: another component was given, the limits need other code, or this build embeds none.
    Unused(String),
    /// wasmtime refused it (another CPU, engine or wasmtime version): compiled instead.
    Rejected(String),
}

impl Embedded {
    /// `"used" | "unused: …" | "rejected: …"` for `status`.
    pub fn describe(&self) -> String {
        match self {
            Embedded::Used => "used".into(),
            Embedded::Unused(why) => format!("unused: {why}"),
            Embedded::Rejected(why) => format!("rejected: {why}"),
        }
    }

    /// The one line a front-end prints on stderr when the artifact was refused.
    pub fn note(&self) -> Option<String> {
        match self {
            Embedded::Rejected(why) => Some(format!(
                "the precompiled component in this binary does not fit this machine ({why}); compiling it instead"
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    /// The lines of one `[section]` of this crate's Cargo.toml, without comments and blank lines.
    fn section<'a>(toml: &'a str, name: &str) -> Vec<&'a str> {
        let header = format!("[{name}]");
        toml.lines()
            .skip_while(|l| l.trim() != header)
            .skip(1)
            .take_while(|l| !l.starts_with('['))
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect()
    }

    /// build.rs compiles the component with wasmtime; cargo builds wasmtime once for both uses only
    /// if the build-dependencies resolve to the same features as the dependencies.
    #[test]
    fn build_dependencies_repeat_the_dependencies() {
        let toml = include_str!("../Cargo.toml");
        let deps: Vec<&str> = section(toml, "dependencies")
            .into_iter()
            .filter(|l| !l.starts_with("guest-wasm "))
            .collect();
        assert!(deps.iter().any(|l| l.starts_with("wasmtime.")));
        assert_eq!(section(toml, "build-dependencies"), deps);
    }
}
