//! Part B of the SPEC: the cases the AI opens, the people who answer them, and the durable
//! relay of each answer to the agent endpoint.
//!
//! - [`model`]: the case, its events and its deliveries (B1).
//! - [`transition`]: every state change, each one transaction (B2).
//! - [`notes`]: a person's internal notes, on the timeline and never sent to the agent.
//! - [`lease`]: "Ana is replying", the short lease that holds off another person's Send.
//! - [`promises`]: the promise ledger, what the agent promised on each case (D1).
//! - [`reason`]: why the AI handed over (D5); [`report`]: cases per reason per week, time to
//!   the first human reply, reopened cases.
//! - [`replies`]: saved replies with their variables, the picker's matching and the JSON file.
//! - [`sla`]: response-time targets (first reply, resolution) in business hours, paused while
//!   the case waits on the customer.
//! - [`quiet`]: the reminder and the auto-close when the customer goes quiet.
//! - [`store`]: reading cases, timelines and inbox pages; [`reads`]: which ones a person opened.
//! - [`outbox`], [`delivery`], [`endpoint`], [`signature`]: the reply message, the worker that
//!   delivers it with Standard Webhooks signatures and retries, and its settings (B3).
//! - [`agents`]: several agents on one inbox, each with its endpoint and switches (D5).
//! - [`guard`]: the before-send decision of the guardrail (B5) over the promise detector;
//!   [`veto`]: its counts per turn.
//! - [`repository`]: the traits every caller reaches cases through, implemented once over
//!   [`sql::Storage`]; [`sql`]: the storage steps each database implements; [`rows`]: rows as
//!   values and the reads every step builds on.

pub mod agents;
pub mod assign;
pub mod delivery;
pub mod endpoint;
pub mod error;
pub mod guard;
pub mod lease;
pub mod marks;
pub mod model;
pub mod notes;
pub mod outbox;
pub mod promises;
pub mod quiet;
pub mod reads;
pub mod reason;
pub mod replies;
mod reply_body;
pub mod report;
pub mod repository;
pub mod rows;
pub mod signature;
pub mod sla;
pub mod sql;
pub mod store;
pub mod transition;
pub mod veto;

pub use error::CasesError;
pub use replies::SavedRepliesRepository;
pub use repository::{CasesRepository, GuardRepository, OutboxRepository};
/// The clock every case time comes from (re-exported so callers need not know it is shared).
pub use skillcase_common::clock;
