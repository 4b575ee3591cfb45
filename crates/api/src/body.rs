//! Reading a request's whole body before the request takes one of the bounded request slots.
//!
//! If handlers read their own bodies, a client that sends its body a byte at a time holds a slot
//! for as long as it likes, and a few dozen such clients keep everyone else waiting. Here the
//! body is read first, within the body-read timeout (`408 request_timeout` past it) and at most
//! [`BODY_LIMIT`] bytes (`413 body_too_large`: at once when `Content-Length` says so, otherwise as
//! soon as the count passes it); only a complete body goes on, so a slow upload costs its own
//! connection and nothing else.

use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};

use super::error::ApiError;

/// The largest request body accepted (SPEC B4).
pub const BODY_LIMIT: usize = 256 * 1024;

/// Middleware: replaces the streaming body with the bytes read, or answers why it could not.
pub async fn read_first(State(timeout): State<Duration>, request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    if body.is_end_stream() {
        return next.run(Request::from_parts(parts, body)).await;
    }
    let declared = parts.headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok());
    if declared.and_then(|len| len.trim().parse::<u64>().ok()).is_some_and(|len| len > BODY_LIMIT as u64) {
        return too_large().into_response();
    }
    match tokio::time::timeout(timeout, read(body)).await {
        Ok(Ok(bytes)) => next.run(Request::from_parts(parts, Body::from(bytes))).await,
        Ok(Err(refusal)) => refusal.into_response(),
        Err(_) => ApiError::new(
            "request_timeout",
            format!("the request body did not arrive within {} ms", timeout.as_millis()),
        )
        .into_response(),
    }
}

async fn read(body: Body) -> Result<Bytes, ApiError> {
    match Limited::new(body, BODY_LIMIT).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(err) if err.is::<LengthLimitError>() => Err(too_large()),
        Err(err) => Err(ApiError::new("bad_request", format!("the request body could not be read: {err}"))),
    }
}

fn too_large() -> ApiError {
    ApiError::new("body_too_large", "the request body is over 256 KB")
}
