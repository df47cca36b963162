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

use serde_json::{Value, json};

use crate::error::{Error, Result};

/// WIT `resolve-layout`: the layout, and with `all` every known folder of every agent as `search`.
pub fn resolve_layout(target: &layout::Target, roots: &layout::Roots, all: bool) -> Result<Value> {
    let mut l = layout::resolve(target, roots)?;
    if all {
        l.search = layout::all_dirs(roots);
    }
    Ok(json!(l))
}

/// WIT `apply-patch`: `{text, matches, strategy, lines}`; a refusal is `invalid-input` on `old` whose
/// message starts with the patch code.
pub fn apply_patch(text: &str, old: &str, new: &str, replace_all: bool) -> Result<Value> {
    match patch::apply(text, old, new, replace_all) {
        Ok(p) => {
            let mut v = json!(p);
            v["text"] = json!(p.text);
            Ok(v)
        }
        Err(e) => Err(Error::invalid("old", format!("{}: {e}", e.code()))),
    }
}

/// WIT `agents-md-update`: `{text, changed, section_added, listed, warnings}`; a block that cannot be
/// edited safely is `invalid-input` on `agents-md`, naming the line.
pub fn agents_md_update(
    text: Option<&str>,
    upsert: &[agents_md::Entry],
    remove: &[String],
) -> Result<Value> {
    agents_md::update(text, upsert, remove)
        .map(|u| json!(u))
        .map_err(|m| Error::invalid("agents-md", m.to_string()))
}
