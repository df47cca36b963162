//! Skills on disk: installing, auditing and removing skill folders, and skills an agent writes itself.
//!
//! The component decides everything here — names, coordinates, the agent's folder, validation, the
//! scan and its policy, name conflicts, the AGENTS.md text, the patched text, the provenance document —
//! and returns a plan; the host reads what the plan needs and writes exactly what it says, atomically,
//! only after a yes. Nothing in this module touches a file.

pub mod agents_md;
pub mod audit;
pub mod coordinate;
pub mod digest;
pub mod install;
pub mod judge;
pub mod layout;
pub mod manage;
pub mod names;
pub mod patch;
