//! Part B of the SPEC: the cases the AI opens, the people who answer them, and the durable
//! relay of each answer to the agent endpoint.
//!
//! - [`model`]: the case, its events and its deliveries (B1).
//! - [`transition`]: every state change, each one transaction (B2).
//! - [`promises`]: the promise ledger, what the agent promised on each case (D1).
//! - [`store`]: reading cases, timelines and inbox pages; [`reads`]: which ones a person opened.
//! - [`outbox`], [`delivery`], [`endpoint`], [`signature`]: the reply message, the worker that
//!   delivers it with Standard Webhooks signatures and retries, and its settings (B3).
//! - [`guard`]: the before-send decision of the guardrail (B5) over the promise detector;
//!   [`veto`]: its counts per turn.
//! - [`repository`]: the traits every caller reaches cases through; [`sqlite`]: their embedded
//!   implementation on the database's single writer.

pub mod delivery;
pub mod endpoint;
pub mod error;
pub mod guard;
pub mod model;
pub mod outbox;
pub mod promises;
pub mod reads;
pub mod repository;
pub mod signature;
pub mod sqlite;
pub mod store;
pub mod transition;
pub mod veto;

pub use error::CasesError;
pub use repository::{CasesRepository, OutboxRepository};
/// The clock every case time comes from (re-exported so callers need not know it is shared).
pub use skillcase_common::clock;
pub use sqlite::SqliteCases;
