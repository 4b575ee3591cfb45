//! Reading request bodies and query strings into typed values, with errors that name the field.
//!
//! axum's own `Json` rejection says little more than "failed to deserialize"; an agent fixing
//! its request needs to know which field was wrong. Bodies here are parsed through
//! `serde_path_to_error`, so the message and `details.field` carry the path (`lead.name`), and
//! request types use `#[serde(deny_unknown_fields)]` so a misspelt field is an error, not a
//! silently ignored value.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::error::ApiError;

/// A JSON request body of type `T`.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state).await.map_err(body_unreadable)?;
        parse_json(&bytes).map(JsonBody)
    }
}

/// Parses a JSON document into `T`, naming the offending field on failure.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner();
        let message = if inner.is_syntax() || inner.is_eof() {
            format!("the body is not valid JSON: {inner}")
        } else if field == "." {
            format!("the body does not fit this endpoint: {inner}")
        } else {
            format!("field `{field}`: {inner}")
        };
        bad_request(message, &field)
    })?;
    deserializer.end().map_err(|e| bad_request(format!("the body is not valid JSON: {e}"), "."))?;
    Ok(value)
}

/// A query string of type `T`; its fields are flat, so serde's message already names the one
/// that is wrong or missing.
#[derive(Debug)]
pub struct Query<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or("");
        serde_urlencoded::from_str(query).map(Query).map_err(|e| {
            ApiError::new("bad_request", format!("the query string does not fit this endpoint: {e}"))
        })
    }
}

fn bad_request(message: String, field: &str) -> ApiError {
    let mut error = ApiError::new("bad_request", message);
    error.0.details = Some(json!({ "field": field }));
    error
}

fn body_unreadable(rejection: BytesRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new("body_too_large", "the request body is over 256 KB")
    } else {
        ApiError::new("bad_request", format!("the request body could not be read: {}", rejection.body_text()))
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Open {
        conversation_id: String,
        lead: Lead,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Lead {
        name: String,
    }

    fn refusal(body: &str) -> (String, String) {
        let err = parse_json::<Open>(body.as_bytes()).unwrap_err();
        assert_eq!(err.0.code, "bad_request");
        (err.0.message, err.0.details.unwrap()["field"].as_str().unwrap().to_string())
    }

    #[test]
    fn an_unknown_field_is_refused_by_name() {
        let (message, field) = refusal(r#"{"conversation_id":"c1","lead":{"name":"Ana"},"priority":1}"#);
        assert!(
            message.starts_with(
                "field `priority`: unknown field `priority`, expected `conversation_id` or `lead`"
            ),
            "{message}"
        );
        assert_eq!(field, "priority");
    }

    #[test]
    fn a_wrong_type_in_a_nested_field_names_its_path() {
        let (message, field) = refusal(r#"{"conversation_id":"c1","lead":{"name":7}}"#);
        assert!(
            message.starts_with("field `lead.name`: invalid type: integer `7`, expected a string"),
            "{message}"
        );
        assert_eq!(field, "lead.name");
    }

    #[test]
    fn a_missing_field_is_named() {
        let (message, _) = refusal(r#"{"lead":{"name":"Ana"}}"#);
        assert!(message.contains("missing field `conversation_id`"), "{message}");
    }

    #[test]
    fn broken_json_says_where() {
        let (message, _) = refusal(r#"{"conversation_id": "#);
        assert!(
            message.starts_with("the body is not valid JSON: EOF while parsing a value at line 1 column 20"),
            "{message}"
        );
    }

    #[test]
    fn trailing_garbage_after_the_document_is_refused() {
        let (message, _) = refusal(r#"{"conversation_id":"c1","lead":{"name":"Ana"}} x"#);
        assert!(message.starts_with("the body is not valid JSON: trailing characters"), "{message}");
    }
}
