//! The API's error responses: `{"error": {"code", "message"}}`, and the one table that says which
//! HTTP status every error code gets.
//!
//! Domain errors arrive as [`ErrorBody`] (any [`Coded`] enum converts), so a handler only writes
//! `?`; the status comes from [`status_of`]. Responses that tower or axum produce on their own
//! (a bare 405, a 408 from the timeout layer, a 500 from a caught panic) are rewritten into the
//! same shape by [`json_errors`], so a client never has to parse anything else.

use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use skillcase_common::error::{Coded, ErrorBody};

/// Every error code the API answers with and its HTTP status. Codes not listed are internal
/// failures (500): a new domain code must be added here to get a client-error status.
const STATUS_OF_CODE: &[(&str, StatusCode)] = &[
    // The request itself.
    ("bad_request", StatusCode::BAD_REQUEST),
    ("unauthorized", StatusCode::UNAUTHORIZED),
    ("host_not_allowed", StatusCode::FORBIDDEN),
    ("origin_not_allowed", StatusCode::FORBIDDEN),
    ("not_found", StatusCode::NOT_FOUND),
    ("method_not_allowed", StatusCode::METHOD_NOT_ALLOWED),
    ("request_timeout", StatusCode::REQUEST_TIMEOUT),
    ("body_too_large", StatusCode::PAYLOAD_TOO_LARGE),
    ("unsupported_media_type", StatusCode::UNSUPPORTED_MEDIA_TYPE),
    ("too_many_connections", StatusCode::SERVICE_UNAVAILABLE),
    // Cases (SPEC B1–B2).
    ("case_not_found", StatusCode::NOT_FOUND),
    ("invalid_transition", StatusCode::CONFLICT),
    ("text_required", StatusCode::UNPROCESSABLE_ENTITY),
    ("invalid_case_input", StatusCode::UNPROCESSABLE_ENTITY),
    ("invalid_reason", StatusCode::UNPROCESSABLE_ENTITY),
    ("invalid_agent_id", StatusCode::UNPROCESSABLE_ENTITY),
    ("agent_cases_disabled", StatusCode::FORBIDDEN),
    // The guardrail (SPEC B5).
    ("invalid_input", StatusCode::UNPROCESSABLE_ENTITY),
    // Skills (SPEC A6–A7).
    ("skill_not_found", StatusCode::NOT_FOUND),
    ("skill_invalid", StatusCode::CONFLICT),
    ("skill_not_active", StatusCode::FORBIDDEN),
    ("unknown_index_format", StatusCode::BAD_REQUEST),
    ("path_empty", StatusCode::BAD_REQUEST),
    ("path_backslash", StatusCode::BAD_REQUEST),
    ("path_not_relative", StatusCode::BAD_REQUEST),
    ("path_empty_segment", StatusCode::BAD_REQUEST),
    ("path_dot_segment", StatusCode::BAD_REQUEST),
    ("path_not_support_folder", StatusCode::BAD_REQUEST),
    ("file_is_infrastructure", StatusCode::FORBIDDEN),
    ("file_not_in_skill", StatusCode::NOT_FOUND),
    ("file_not_text", StatusCode::UNPROCESSABLE_ENTITY),
    // The server's own failures.
    ("internal", StatusCode::INTERNAL_SERVER_ERROR),
];

/// The HTTP status for an error code; unlisted codes are the server's fault (500).
pub fn status_of(code: &str) -> StatusCode {
    STATUS_OF_CODE
        .iter()
        .find(|(known, _)| *known == code)
        .map_or(StatusCode::INTERNAL_SERVER_ERROR, |(_, status)| *status)
}

/// Every code in the table with its status, for the OpenAPI document and the docs.
pub fn known_codes() -> impl Iterator<Item = (&'static str, StatusCode)> {
    STATUS_OF_CODE.iter().copied()
}

/// An error on its way out: the body, whose code decides the status.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError(pub ErrorBody);

impl ApiError {
    /// An error with one of the codes of the table above.
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        ApiError(ErrorBody::new(code, message))
    }

    /// The status this error is answered with.
    pub fn status(&self) -> StatusCode {
        status_of(&self.0.code)
    }

    /// The response body: `{"error": {"code", "message"}}`.
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(&Envelope { error: &self.0 })
            .expect("an error body of strings and JSON values always serialises")
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ApiError {}

impl From<ErrorBody> for ApiError {
    fn from(body: ErrorBody) -> Self {
        ApiError(body)
    }
}

impl ApiError {
    /// The error of a domain refusal (anything with a stable code).
    pub fn coded(err: impl Coded) -> Self {
        ApiError(err.into())
    }
}

#[derive(Serialize)]
struct Envelope<'a> {
    error: &'a ErrorBody,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let mut response = (status, self.to_json()).into_response();
        response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// The code and message for an error response some layer produced without a JSON body.
fn generic_error(status: StatusCode) -> ApiError {
    let (code, message) = match status {
        StatusCode::NOT_FOUND => ("not_found", "no such endpoint; see GET /v1/openapi.json"),
        StatusCode::METHOD_NOT_ALLOWED => ("method_not_allowed", "this endpoint does not accept that method"),
        StatusCode::REQUEST_TIMEOUT => ("request_timeout", "the request did not complete in time"),
        StatusCode::PAYLOAD_TOO_LARGE => ("body_too_large", "the request body is over 256 KB"),
        s if s.is_server_error() => ("internal", "the server failed while answering; see its log"),
        _ => ("bad_request", "the request could not be understood"),
    };
    ApiError::new(code, message)
}

/// Middleware: rewrites every error response that is not already JSON into the API's error
/// shape, keeping its status.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    if status.is_client_error() || status.is_server_error() {
        let is_json = response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v == "application/json");
        if !is_json {
            let mut rewritten = generic_error(status).into_response();
            *rewritten.status_mut() = status;
            return rewritten;
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_maps_to_one_client_or_server_error_status() {
        for (code, status) in known_codes() {
            assert!(status.is_client_error() || status.is_server_error(), "{code}");
            assert_eq!(known_codes().filter(|(c, _)| *c == code).count(), 1, "{code} listed twice");
        }
    }

    #[test]
    fn domain_codes_get_their_statuses_and_unknown_codes_are_internal() {
        assert_eq!(status_of("invalid_transition"), StatusCode::CONFLICT);
        assert_eq!(status_of("case_not_found"), StatusCode::NOT_FOUND);
        assert_eq!(status_of("db_error"), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[tokio::test]
    async fn an_error_serialises_under_an_error_key() {
        let response =
            ApiError::new("invalid_transition", "a resolved case cannot be cancelled").into_response();
        assert_eq!(response.status(), StatusCode::CONFLICT);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
        let bytes = axum::body::to_bytes(response.into_body(), 1024).await.unwrap();
        assert_eq!(
            std::str::from_utf8(&bytes).unwrap(),
            r#"{"error":{"code":"invalid_transition","message":"a resolved case cannot be cancelled"}}"#
        );
    }
}
