//! The two ways this server refuses, each with a stable code:
//!
//! - [`ProtocolError`]: a protocol request the server cannot answer — an unknown skill, resource
//!   or directory, or bad params — is a JSON-RPC error `-32602` (the Skills extension's and the
//!   base Resources specification's code), its own failures `-32603`; `data.code` carries the
//!   stable code.
//! - [`tool_error`]: a tool whose action the application refused answers with an MCP tool error
//!   (`isError: true`) carrying the same `{code, message}` as the HTTP API, in the structured
//!   content, so an agent reads the refusal and can act on it.
//! - [`LimitError`]: a message refused by one of the server's caps ([`crate::limits`]), or one
//!   that is not JSON-RPC at all.

use std::time::Duration;

use rmcp::model::{CallToolResult, ContentBlock, ErrorCode};
use rmcp::ErrorData;
use serde_json::json;
use skillcase_common::error::Coded;
use skillcase_common::ErrorBody;

/// A refused protocol request.
#[derive(Debug, thiserror::Error)]
pub enum ProtocolError {
    #[error("no skill is served at {uri}")]
    UnknownSkill { uri: String },
    #[error("no resource is served at {uri}")]
    UnknownResource { uri: String },
    #[error("{uri} is not a directory resource")]
    NotADirectory { uri: String },
    #[error("invalid params: {0}")]
    BadParams(String),
    #[error("{}", .0.message)]
    Internal(ErrorBody),
}

impl Coded for ProtocolError {
    fn code(&self) -> &'static str {
        match self {
            ProtocolError::UnknownSkill { .. } => "skill_not_found",
            ProtocolError::UnknownResource { .. } => "resource_not_found",
            ProtocolError::NotADirectory { .. } => "not_a_directory",
            ProtocolError::BadParams(_) => "bad_request",
            ProtocolError::Internal(_) => "internal",
        }
    }
}

impl From<ProtocolError> for ErrorData {
    fn from(error: ProtocolError) -> Self {
        let (code, stable) = match &error {
            ProtocolError::Internal(body) => (ErrorCode::INTERNAL_ERROR, body.code.clone()),
            other => (ErrorCode::INVALID_PARAMS, other.code().to_string()),
        };
        ErrorData::new(code, error.to_string(), Some(json!({ "code": stable })))
    }
}

/// A message refused by a cap of the server, or not a JSON-RPC message at all.
#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    #[error("the request body is not JSON: {0}")]
    NotJson(String),
    #[error("the request body is not a JSON-RPC message: {0}")]
    NotJsonRpc(String),
    #[error("a message is at most {max} bytes, one per line; this line was longer and was skipped")]
    LineTooLong { max: usize },
    #[error(
        "this Skillcase keeps at most {max} MCP sessions at once; end one (DELETE /mcp) or retry shortly"
    )]
    TooManySessions { max: usize },
    #[error("this Skillcase keeps at most {max} MCP notification streams open at once; retry shortly")]
    TooManyStreams { max: usize },
    #[error("a connection may subscribe to at most {max} resources; unsubscribe from some first")]
    TooManySubscriptions { max: usize },
    #[error("the URI is {chars} characters long; at most {max} are accepted")]
    UriTooLong { chars: usize, max: usize },
    #[error("the tool call did not finish within {} ms", .after.as_millis())]
    Timeout { after: Duration },
}

impl Coded for LimitError {
    fn code(&self) -> &'static str {
        match self {
            LimitError::NotJson(_) => "bad_request",
            LimitError::NotJsonRpc(_) => "bad_request",
            LimitError::LineTooLong { .. } => "mcp_line_too_long",
            LimitError::TooManySessions { .. } => "mcp_too_many_sessions",
            LimitError::TooManyStreams { .. } => "mcp_too_many_streams",
            LimitError::TooManySubscriptions { .. } => "mcp_too_many_subscriptions",
            LimitError::UriTooLong { .. } => "mcp_uri_too_long",
            LimitError::Timeout { .. } => "request_timeout",
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            LimitError::NotJson(_) | LimitError::NotJsonRpc(_) | LimitError::Timeout { .. } => None,
            LimitError::LineTooLong { max }
            | LimitError::TooManySessions { max }
            | LimitError::TooManyStreams { max }
            | LimitError::TooManySubscriptions { max } => Some(json!({ "limit": max })),
            LimitError::UriTooLong { chars, max } => Some(json!({ "chars": chars, "limit": max })),
        }
    }
}

impl From<LimitError> for ErrorData {
    fn from(error: LimitError) -> Self {
        let code = match &error {
            LimitError::NotJson(_) => ErrorCode::PARSE_ERROR,
            LimitError::NotJsonRpc(_) | LimitError::LineTooLong { .. } => ErrorCode::INVALID_REQUEST,
            LimitError::TooManySessions { .. }
            | LimitError::TooManyStreams { .. }
            | LimitError::Timeout { .. } => ErrorCode::INTERNAL_ERROR,
            LimitError::TooManySubscriptions { .. } | LimitError::UriTooLong { .. } => {
                ErrorCode::INVALID_PARAMS
            }
        };
        let mut data = json!({ "code": error.code() });
        if let Some(details) = error.details() {
            data["details"] = details;
        }
        ErrorData::new(code, error.to_string(), Some(data))
    }
}

/// A tool call the application refused: `isError: true`, the text `code: message` for the
/// model, and `{code, message, details?}` as structured content.
pub fn tool_error(body: ErrorBody) -> CallToolResult {
    let text = format!("{}: {}", body.code, body.message);
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content =
        Some(serde_json::to_value(&body).unwrap_or_else(|_| json!({ "code": body.code })));
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_skill_is_invalid_params_with_its_stable_code() {
        let error: ErrorData = ProtocolError::UnknownSkill { uri: "skill://nope/SKILL.md".into() }.into();
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(error.message, "no skill is served at skill://nope/SKILL.md");
        assert_eq!(error.data, Some(json!({ "code": "skill_not_found" })));
    }

    #[test]
    fn a_refused_action_is_a_tool_error_carrying_code_and_message() {
        let result = tool_error(ErrorBody::new("case_not_found", "no case with id x"));
        assert_eq!(result.is_error, Some(true));
        assert_eq!(
            result.structured_content,
            Some(json!({ "code": "case_not_found", "message": "no case with id x" }))
        );
    }
}
