//! The route table of SPEC B4: one entry per endpoint, from which both the router and the
//! OpenAPI document are built, so the two cannot drift apart.

use axum::http::Method;
use axum::routing::{on, MethodFilter, MethodRouter};
use axum::Router;

use super::state::ApiState;

mod meta;

/// Where a parameter is read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamIn {
    Path,
    Query,
}

/// A path or query parameter of an endpoint, for the OpenAPI document.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub location: ParamIn,
    pub required: bool,
    pub description: &'static str,
}

/// One endpoint: how it is routed and how it is documented.
#[derive(Debug, Clone)]
pub struct Endpoint {
    pub method: Method,
    /// The path in axum's and OpenAPI's shared syntax (`/v1/cases/{id}`).
    pub path: &'static str,
    pub operation_id: &'static str,
    pub summary: &'static str,
    pub params: &'static [Param],
    /// The component schema of the JSON request body, if the endpoint takes one.
    pub body: Option<&'static str>,
    /// Success statuses and the component schema each answers with.
    pub ok: &'static [(u16, &'static str)],
    /// The error codes this endpoint answers with beyond those every request can get.
    pub errors: &'static [&'static str],
    /// Attaches the handler for `method`.
    pub route: fn(MethodFilter) -> MethodRouter<ApiState>,
}

/// Every endpoint of the API.
pub const ENDPOINTS: &[Endpoint] = &[Endpoint {
    method: Method::GET,
    path: "/v1/openapi.json",
    operation_id: "openapi",
    summary: "This API's OpenAPI 3.1 document",
    params: &[],
    body: None,
    ok: &[(200, "OpenApiDocument")],
    errors: &[],
    route: |m| on(m, meta::openapi),
}];

/// The router of every endpoint in [`ENDPOINTS`].
pub fn router() -> Router<ApiState> {
    ENDPOINTS.iter().fold(Router::new(), |router, endpoint| {
        let filter = MethodFilter::try_from(endpoint.method.clone())
            .expect("the table only uses methods axum can route");
        router.route(endpoint.path, (endpoint.route)(filter))
    })
}
