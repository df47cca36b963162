//! Commands on one skill bundle on disk: scan it (verdict and install policy), validate its SKILL.md.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Host, Output, Verdict};
use crate::bundle::{BundleLimits, read_bundle};
use crate::{Bundle, Command, Ctx, Error, NullStateStore, Trust, trust_of_source};

/// How far the source of a skill is trusted.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum TrustLevel {
    Builtin,
    Trusted,
    Community,
    #[value(name = "agent-created")]
    #[serde(alias = "agent_created")]
    AgentCreated,
}

impl From<TrustLevel> for Trust {
    fn from(t: TrustLevel) -> Trust {
        match t {
            TrustLevel::Builtin => Trust::Builtin,
            TrustLevel::Trusted => Trust::Trusted,
            TrustLevel::Community => Trust::Community,
            TrustLevel::AgentCreated => Trust::AgentCreated,
        }
    }
}

/// `scan-bundle`: scan a skill folder, `.zip`/`.skill` archive or SKILL.md and decide the install policy;
/// the result also carries the bundle's `quality` (as `validate` with `quality`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ScanBundleArgs {
    /// The skill folder, `.zip`/`.skill` archive or SKILL.md file, on this machine.
    pub path: PathBuf,
    /// How far the source is trusted: builtin, trusted (an official repository), community (every
    /// registry upload; the default), agent-created.
    #[serde(default)]
    pub trust: Option<TrustLevel>,
    /// Where the skill comes from (a repository URL), to derive `trust` when it is not given.
    #[serde(default)]
    pub source: Option<String>,
    /// Allow a blocked skill after the user reviewed it (never lifts `dangerous` on community or trusted).
    #[serde(default)]
    pub force: bool,
}

impl ScanBundleArgs {
    /// The trust to scan with: as given, else derived from `source`, else community.
    pub fn trust(&self) -> Trust {
        match (self.trust, &self.source) {
            (Some(t), _) => t.into(),
            (None, Some(url)) => trust_of_source(url),
            (None, None) => Trust::Community,
        }
    }
}

/// `validate`: SKILL.md against the agentskills.io specification and the bundle rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ValidateArgs {
    /// The skill folder, `.zip`/`.skill` archive or SKILL.md file, on this machine.
    pub path: PathBuf,
    /// Every rule is an error (default: the specification's lenient client guidance).
    #[serde(default)]
    pub strict: bool,
    /// Also assess how much of the skill is more than a prompt: `quality: {level: prompt-only|basic|
    /// strong, score, signals: [{id, found, evidence, note}]}`. Never changes validity.
    #[serde(default)]
    pub quality: bool,
}

/// Read a bundle; a missing or unreadable path is invalid input naming it.
fn read(path: &Path) -> Result<Bundle, Error> {
    read_bundle(path, &BundleLimits::default()).map_err(|e| Error::InvalidInput {
        field: "path".into(),
        message: e.to_string(),
    })
}

impl Host {
    /// `scan-bundle`: reads no state. Verdict: `block` → blocked, `ask` → ask.
    pub fn scan_bundle(&self, ctx: &Ctx, args: &ScanBundleArgs) -> Result<Output, Error> {
        let command = Command::ScanBundle {
            bundle: read(&args.path)?,
            trust: args.trust(),
            force: args.force,
        };
        let text = self.harness.run_text_owned(&NullStateStore, ctx, command)?;
        Output::parsed(&text, |v: &Value| match v["policy"].as_str() {
            Some("block") => Verdict::Blocked,
            Some("ask") => Verdict::Ask,
            _ => Verdict::Done,
        })
    }

    /// `validate`: reads no state. Verdict: invalid → blocked.
    pub fn validate(&self, ctx: &Ctx, args: &ValidateArgs) -> Result<Output, Error> {
        let command = Command::Validate {
            bundle: read(&args.path)?,
            strict: args.strict,
            quality: args.quality,
        };
        let text = self.harness.run_text_owned(&NullStateStore, ctx, command)?;
        Output::parsed(&text, |v: &Value| match v["valid"].as_bool() {
            Some(false) => Verdict::Blocked,
            _ => Verdict::Done,
        })
    }
}
