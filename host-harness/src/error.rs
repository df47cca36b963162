//! Host-side errors: each has a stable `code`, a process exit code and a JSON form for agents.

use std::path::PathBuf;

use serde_json::{Value, json};

pub use crate::store::StoreError;

/// Which limit ended a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitKind {
    /// The wall-clock deadline (epoch interruption).
    Deadline,
    /// The instruction budget (fuel).
    Fuel,
    /// The memory cap.
    Memory,
}

impl std::fmt::Display for LimitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LimitKind::Deadline => "the call ran past its time limit",
            LimitKind::Fuel => "the call used up its instruction budget",
            LimitKind::Memory => "the call tried to use more memory than allowed",
        })
    }
}

/// Why a call failed. In every case the state files are as they were before the call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An argument is invalid (exit 3).
    #[error("invalid {field}: {message}")]
    InvalidInput { field: String, message: String },

    /// A state file cannot be used; it was left untouched (exit 4).
    #[error("{} is unusable: {message}; it was left as it is — repair it or move it aside, then retry", path_or_name(.path, .file))]
    CorruptDocument {
        file: &'static str,
        path: Option<PathBuf>,
        message: String,
    },

    /// The command is not allowed in the current daily state (exit 6).
    #[error("{command} is not allowed while daily_rec_status is {current} (allowed from: {}); {hint}", .allowed_from.join(", "))]
    Refused {
        command: String,
        current: String,
        allowed_from: Vec<String>,
        hint: String,
    },

    /// The state store failed (exit 4).
    #[error(transparent)]
    Store(#[from] StoreError),

    /// The guest hit a sandbox limit (exit 5).
    #[error("sandbox limit: {0}")]
    Limit(LimitKind),

    /// The guest trapped: a bug in the component (exit 1).
    #[error("the component trapped: {message}")]
    Trap {
        message: String,
        guest_stderr: String,
    },

    /// The component could not be loaded (wrong contract version, compile failure) (exit 1).
    #[error("cannot load the component: {0}")]
    Component(String),

    /// Reading or writing a skills folder failed; whatever was being written was rolled back, or is
    /// finished by the next command on that folder (exit 11).
    #[error("cannot {op} {}: {message}", .path.display())]
    Disk {
        op: &'static str,
        path: PathBuf,
        message: String,
    },

    /// Another process holds the skills folder (an install, an uninstall or an agent write) (exit 10).
    #[error("{} is busy: another skill-recommender process is changing it; gave up after {waited_ms} ms — retry", .path.display())]
    Busy { path: PathBuf, waited_ms: u64 },
}

fn path_or_name(path: &Option<PathBuf>, file: &str) -> String {
    match path {
        Some(p) => p.display().to_string(),
        None => file.to_owned(),
    }
}

impl Error {
    /// A stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidInput { .. } => "invalid_input",
            Error::CorruptDocument { .. } => "corrupt_state",
            Error::Refused { .. } => "refused_transition",
            Error::Store(_) => "state_store",
            Error::Limit(_) => "sandbox_limit",
            Error::Trap { .. } => "component_trap",
            Error::Component(_) => "component_load",
            Error::Disk { .. } => "skills_io",
            Error::Busy { .. } => "busy",
        }
    }

    /// The process exit code the CLI uses (documented in the README and `--help`).
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::InvalidInput { .. } => 3,
            Error::CorruptDocument { .. } | Error::Store(_) => 4,
            Error::Limit(_) => 5,
            Error::Refused { .. } => 6,
            Error::Trap { .. } | Error::Component(_) => 1,
            Error::Busy { .. } => 10,
            Error::Disk { .. } => 11,
        }
    }

    /// The error as agents see it: `{"error": {"code", "message", "exit_code", ...details}}`.
    pub fn to_json(&self) -> Value {
        let mut e = json!({
            "code": self.code(),
            "message": self.to_string(),
            "exit_code": self.exit_code(),
        });
        let details = match self {
            Error::InvalidInput { field, .. } => json!({ "field": field }),
            Error::CorruptDocument { file, path, .. } => json!({ "file": file, "path": path }),
            Error::Refused {
                command,
                current,
                allowed_from,
                hint,
            } => {
                json!({ "command": command, "current": current, "allowed_from": allowed_from, "hint": hint })
            }
            Error::Store(s) => json!({ "path": s.path() }),
            Error::Limit(kind) => json!({ "limit": format!("{kind:?}").to_lowercase() }),
            Error::Trap { guest_stderr, .. } => json!({ "guest_stderr": guest_stderr }),
            Error::Component(_) => json!({}),
            Error::Disk { op, path, .. } => json!({ "op": op, "path": path }),
            Error::Busy { path, waited_ms } => json!({ "path": path, "waited_ms": waited_ms }),
        };
        if let (Value::Object(e), Value::Object(d)) = (&mut e, details) {
            e.extend(d);
        }
        json!({ "error": e })
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
