//! Sample cases for the cases tests; the fresh database comes from the shared test kit.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::model::{CaseSource, ContextMessage, Lead, NewCase};
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::{OutboxRepository, SqliteCases};
use skillcase_store::Database;
pub use skillcase_testkit::new_db;

/// The cases of the database at `path`, through a database writer of their own (as another
/// process would write them while the one under test runs).
pub fn cases_at(path: &Path) -> SqliteCases {
    SqliteCases::new(Database::open(path).unwrap())
}

/// The outbox of the database at `path`, for a delivery worker.
pub fn outbox_at(path: &Path) -> Arc<dyn OutboxRepository> {
    Arc::new(cases_at(path))
}

/// The case an agent opens when a lead asks for a refund it cannot grant.
pub fn refund_case(conversation_id: &str) -> NewCase {
    NewCase {
        conversation_id: conversation_id.to_string(),
        lead: Lead {
            id: Some("lead-77".into()),
            name: Some("Maria Souza".into()),
            channel: Some("whatsapp".into()),
            contact: Some("+55 11 91234-5678".into()),
        },
        agent_id: Some("support-bot".into()),
        title: "Refund for a double charge".into(),
        summary: "The lead was charged twice for order 5512 and wants one charge refunded.".into(),
        blocker: Some("Refunds need a person's approval.".into()),
        context: vec![ContextMessage {
            role: "lead".into(),
            text: "I was charged twice!".into(),
            at: Some("2026-11-30T10:00:00.000Z".into()),
        }],
        source: CaseSource::Agent,
        reason: HandoverReason::PolicyRestriction,
    }
}

/// A signing secret the endpoint and agent settings accept.
pub const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/// Settings for a default endpoint at `url`, switched on, with [`SECRET`].
pub fn endpoint_input(url: &str) -> EndpointInput {
    EndpointInput {
        url: url.into(),
        secret: Some(SECRET.into()),
        timeout_secs: None,
        max_attempts: None,
        enabled: true,
    }
}
