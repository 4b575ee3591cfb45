//! The one error shape that crosses every boundary (IPC and HTTP): `{ code, message, details? }`.
//!
//! Each domain area keeps its own `thiserror` enum; each enum says which stable `code` every
//! variant has by implementing [`Coded`], and converts into [`ErrorBody`] at the boundary.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A stable, machine-readable error: `code` is snake_case and never changes meaning, `message`
/// is for people, `details` carries structured context (a field name, a list of findings).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct ErrorBody {
    pub code: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub details: Option<serde_json::Value>,
}

impl ErrorBody {
    /// Builds an error without details.
    pub fn new(code: impl Into<String>, message: impl Into<String>) -> Self {
        Self { code: code.into(), message: message.into(), details: None }
    }

    /// Attaches structured details (for example the findings behind a refusal).
    pub fn with_details(mut self, details: serde_json::Value) -> Self {
        self.details = Some(details);
        self
    }
}

impl std::fmt::Display for ErrorBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ErrorBody {}

/// Implemented by every domain error enum: the stable code of each variant.
pub trait Coded: std::error::Error {
    /// The snake_case code, listed in `docs/error-codes.md`.
    fn code(&self) -> &'static str;

    /// Optional structured context; none by default.
    fn details(&self) -> Option<serde_json::Value> {
        None
    }
}

impl<E: Coded> From<E> for ErrorBody {
    fn from(err: E) -> Self {
        ErrorBody { code: err.code().to_string(), message: err.to_string(), details: err.details() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_body_serialises_as_code_message_and_optional_details() {
        let plain = ErrorBody::new("db_too_new", "written by a newer Skillcase");
        assert_eq!(
            serde_json::to_string(&plain).unwrap(),
            r#"{"code":"db_too_new","message":"written by a newer Skillcase"}"#
        );
        let detailed = plain.with_details(serde_json::json!({"found": 9, "supported": 1}));
        assert_eq!(
            serde_json::to_string(&detailed).unwrap(),
            r#"{"code":"db_too_new","message":"written by a newer Skillcase","details":{"found":9,"supported":1}}"#
        );
    }
}
