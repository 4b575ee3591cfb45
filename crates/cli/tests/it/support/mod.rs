//! Helpers for the CLI's tests: the real `skillcase serve` process and a sample case.
#![allow(dead_code)]

pub mod inbox;
pub mod mcp;
pub mod process;
pub mod skills_cli;

use skillcase_cases::model::{CaseSource, ContextMessage, Lead, NewCase};
use skillcase_cases::reason::HandoverReason;

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
