//! Part B of the SPEC: the cases the AI opens, the people who answer them, and the durable
//! relay of each answer to the agent endpoint.
//!
//! - [`model`]: the case, its events and its deliveries (B1).
//! - [`transition`]: every state change, each one transaction (B2).
//! - [`store`]: reading cases, timelines and inbox pages; [`reads`]: which ones a person opened.
//! - [`outbox`], [`delivery`], [`endpoint`], [`signature`]: the reply message, the worker that
//!   delivers it with Standard Webhooks signatures and retries, and its settings (B3).
//! - [`guard`]: the before-send decision of the guardrail (B5) over the promise detector.

pub mod delivery;
pub mod endpoint;
pub mod error;
pub mod guard;
pub mod model;
pub mod outbox;
pub mod reads;
pub mod signature;
pub mod store;
pub mod transition;

pub use error::CasesError;
/// The clock every case time comes from (re-exported so callers need not know it is shared).
pub use skillcase_common::clock;
