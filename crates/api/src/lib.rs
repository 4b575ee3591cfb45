//! The local agent API (SPEC B4): the loopback HTTP server the AI agent calls for skills, cases
//! and the guardrail.
//!
//! - [`server`]: the configuration, the layers, start and stop.
//! - [`connections`]: the accept loop — the connection cap, header-read and idle timeouts, the
//!   bounded graceful stop.
//! - [`body`]: every request body read whole, within its timeout and limit, before a slot.
//! - [`gate`]: the checks every request passes (host, origin, token, content type).
//! - [`auth`]: the bearer token file, its creation and rotation.
//! - [`routes`]: the route table; [`openapi`]: the document built from it.
//! - [`error`]: the JSON error shape and the one code-to-status table.
//! - [`extract`]: typed bodies and queries whose errors name the field.
//! - [`state`]: what handlers share — the application, whose functions every route calls.

pub mod body;
pub mod connections;
pub mod error;
pub mod extract;
pub mod gate;
pub mod openapi;
pub mod routes;
pub mod server;
pub mod state;

pub use server::{serve, ApiConfig, RunningServer};
pub use state::ApiState;
