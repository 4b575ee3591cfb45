//! Part B of the SPEC: the cases the AI opens, the people who answer them, and the durable
//! relay of each answer to the agent endpoint.
//!
//! - [`model`]: the case, its events and its deliveries (B1).
//! - [`transition`]: every state change, each one transaction (B2).
//! - [`store`]: reading cases, timelines and inbox pages; [`reads`]: which ones a person opened.
//! - [`outbox`], [`delivery`], [`endpoint`], [`signature`]: the reply message, the worker that
//!   delivers it with Standard Webhooks signatures and retries, and its settings (B3).

pub mod clock;
pub mod delivery;
pub mod endpoint;
pub mod error;
pub mod model;
pub mod outbox;
pub mod reads;
pub mod signature;
pub mod store;
pub mod transition;

pub use error::CasesError;
