//! Domain errors. Each maps one-to-one onto the WIT `error` variant.

use crate::store::Document;

/// Why a call failed. In every case nothing has been saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A caller-supplied argument is invalid.
    InvalidInput { field: String, message: String },
    /// A stored document cannot be used; it is left as it is.
    CorruptDocument { document: Document, message: String },
    /// The command is not allowed from the current daily status.
    Refused {
        command: String,
        current: String,
        allowed_from: Vec<String>,
        hint: String,
    },
    /// The host's store failed.
    Store(String),
}

impl Error {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::InvalidInput {
            field: field.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::InvalidInput { field, message } => write!(f, "invalid {field}: {message}"),
            Error::CorruptDocument { document, message } => {
                write!(f, "{} is unusable: {message}", document.file_name())
            }
            Error::Refused {
                command,
                current,
                allowed_from,
                hint,
            } => write!(
                f,
                "{command} is not allowed while daily_rec_status is {current} (allowed from: {}); {hint}",
                allowed_from.join(", ")
            ),
            Error::Store(message) => write!(f, "state store: {message}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;
