//! Why the AI handed a conversation over to a person (SPEC D5): the `reason` an agent gives when
//! it opens a case, from a fixed list, so the inbox can be filtered by it and the report can show
//! which kinds of handover grow and how fast people answer each.
//!
//! The agent may leave `reason` out (agents written before it existed keep working); such a case,
//! and every case opened before reasons were recorded, is `not_stated`. Only the guardrail opens a
//! case as `guardrail_autofallback` (its source says so too), so an agent sending it is refused
//! like any unknown reason: the report must be able to trust that figure.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::error::CasesError;

/// Why the AI could not carry on alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum HandoverReason {
    /// The customer asked for a person.
    CustomerRequest,
    /// The agent does not know the answer (no skill or document covers it).
    MissingKnowledge,
    /// The customer wants something the agent cannot do at all.
    UnsupportedRequest,
    /// A rule forbids the agent from doing it (a refund over its limit, an exception).
    PolicyRestriction,
    /// A tool the agent needs failed or is down.
    ToolFailure,
    /// The request is unclear and a person must decide what the customer means.
    PendingClarification,
    /// The guardrail opened the case after the agent's second unbacked promise (SPEC B5).
    GuardrailAutofallback,
    /// The agent gave no reason (it predates reasons, or left the field out).
    #[default]
    NotStated,
}

impl HandoverReason {
    /// Every reason, in the SPEC's order, `not_stated` last.
    pub const ALL: [HandoverReason; 8] = [
        HandoverReason::CustomerRequest,
        HandoverReason::MissingKnowledge,
        HandoverReason::UnsupportedRequest,
        HandoverReason::PolicyRestriction,
        HandoverReason::ToolFailure,
        HandoverReason::PendingClarification,
        HandoverReason::GuardrailAutofallback,
        HandoverReason::NotStated,
    ];

    /// The reasons an agent may send when it opens a case (the HTTP API's and MCP's `enum`).
    pub const AGENT_CHOICES: [HandoverReason; 6] = [
        HandoverReason::CustomerRequest,
        HandoverReason::MissingKnowledge,
        HandoverReason::UnsupportedRequest,
        HandoverReason::PolicyRestriction,
        HandoverReason::ToolFailure,
        HandoverReason::PendingClarification,
    ];

    /// The snake_case name stored in the database and sent over the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            HandoverReason::CustomerRequest => "customer_request",
            HandoverReason::MissingKnowledge => "missing_knowledge",
            HandoverReason::UnsupportedRequest => "unsupported_request",
            HandoverReason::PolicyRestriction => "policy_restriction",
            HandoverReason::ToolFailure => "tool_failure",
            HandoverReason::PendingClarification => "pending_clarification",
            HandoverReason::GuardrailAutofallback => "guardrail_autofallback",
            HandoverReason::NotStated => "not_stated",
        }
    }

    /// Parses a stored name; `None` for anything else.
    pub fn parse(name: &str) -> Option<HandoverReason> {
        HandoverReason::ALL.into_iter().find(|r| r.as_str() == name)
    }

    /// The names an agent may send, for schemas and error messages.
    pub fn agent_choice_names() -> Vec<&'static str> {
        HandoverReason::AGENT_CHOICES.iter().map(|r| r.as_str()).collect()
    }

    /// The reason an agent sent, as the API and MCP receive it: absent means `not_stated`; one of
    /// [`Self::AGENT_CHOICES`] is taken; anything else (a typo, `guardrail_autofallback`,
    /// `not_stated` spelt out) is `invalid_reason` listing the allowed names.
    pub fn from_agent(given: Option<&str>) -> Result<HandoverReason, CasesError> {
        let Some(given) = given else { return Ok(HandoverReason::NotStated) };
        HandoverReason::AGENT_CHOICES
            .into_iter()
            .find(|r| r.as_str() == given.trim())
            .ok_or_else(|| CasesError::InvalidReason { given: given.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillcase_common::error::Coded;

    #[test]
    fn every_reason_round_trips_through_its_stored_name() {
        for reason in HandoverReason::ALL {
            assert_eq!(HandoverReason::parse(reason.as_str()), Some(reason));
            assert_eq!(serde_json::to_value(reason).unwrap(), serde_json::json!(reason.as_str()));
        }
    }

    #[test]
    fn an_agent_that_sends_no_reason_gets_not_stated() {
        assert_eq!(HandoverReason::from_agent(None).unwrap(), HandoverReason::NotStated);
    }

    #[test]
    fn an_agent_reason_from_the_list_is_taken() {
        assert_eq!(HandoverReason::from_agent(Some("tool_failure")).unwrap(), HandoverReason::ToolFailure);
    }

    #[test]
    fn an_agent_may_not_claim_the_guardrails_reason() {
        let err = HandoverReason::from_agent(Some("guardrail_autofallback")).unwrap_err();
        assert_eq!(err.code(), "invalid_reason");
    }

    #[test]
    fn an_unknown_reason_is_refused_naming_every_allowed_one() {
        let err = HandoverReason::from_agent(Some("angry_customer")).unwrap_err();
        assert_eq!(err.code(), "invalid_reason");
        assert_eq!(
            err.details().unwrap(),
            serde_json::json!({
                "field": "reason",
                "given": "angry_customer",
                "allowed": ["customer_request", "missing_knowledge", "unsupported_request",
                            "policy_restriction", "tool_failure", "pending_clarification"]
            })
        );
        assert_eq!(
            err.to_string(),
            "reason \"angry_customer\" is not one of customer_request, missing_knowledge, unsupported_request, \
             policy_restriction, tool_failure, pending_clarification"
        );
    }
}
