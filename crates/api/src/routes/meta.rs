//! Endpoints about the API itself.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;

use crate::openapi;

static DOCUMENT: LazyLock<Vec<u8>> = LazyLock::new(|| {
    serde_json::to_vec_pretty(&openapi::document()).expect("a JSON value always serialises")
});

/// `GET /v1/openapi.json`: the document, built once from the route table.
pub async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], DOCUMENT.as_slice())
}
