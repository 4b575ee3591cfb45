//! Every way a case operation can be refused, each with a stable code (`docs/error-codes.md`).

use serde_json::json;

use super::model::{CaseStatus, DeliveryState};
use super::reason::HandoverReason;
use skillcase_common::error::Coded;

/// Why a case, delivery or endpoint operation was refused. A refused operation changed nothing.
#[derive(Debug, thiserror::Error)]
pub enum CasesError {
    #[error("no case with id {id}")]
    CaseNotFound { id: String },
    /// No case has the number a person typed (`#1042`); the same code as an unknown id.
    #[error("no case #{number}")]
    CaseNumberNotFound { number: i64 },
    #[error("a case that is {} cannot take the action {action}", from.as_str())]
    InvalidTransition { from: CaseStatus, action: &'static str },
    #[error("{field} is required and must not be blank")]
    TextRequired { field: &'static str },
    #[error("{field} {reason}")]
    InvalidInput { field: &'static str, reason: String },
    /// A handover reason that is not one an agent may send (SPEC D5).
    #[error("reason {given:?} is not one of {}", HandoverReason::agent_choice_names().join(", "))]
    InvalidReason { given: String },
    #[error("no delivery with id {id}")]
    DeliveryNotFound { id: String },
    #[error("a delivery that is {} cannot be retried; only failed or dead ones can", state.as_str())]
    DeliveryNotRetryable { state: DeliveryState },
    #[error("the agent endpoint URL {url:?} is not valid: {reason}")]
    InvalidEndpointUrl { url: String, reason: String },
    #[error(
        "the agent endpoint URL {url:?} carries a user name or password; remove it (the signing secret has its own field)"
    )]
    EndpointUrlCredentials { url: String },
    #[error("the agent endpoint {field} is not valid: {reason}")]
    InvalidEndpointSetting { field: &'static str, reason: String },
    #[error("no agent endpoint is configured")]
    EndpointNotConfigured,
    #[error("agent id {agent_id:?} {reason}")]
    InvalidAgentId { agent_id: String, reason: String },
    #[error("no settings are saved for agent {agent_id:?}")]
    AgentNotFound { agent_id: String },
    /// A person switched off cases for this agent in Settings.
    #[error("agent {agent_id:?} may not open cases: its cases are switched off in Settings")]
    AgentCasesDisabled { agent_id: String },
    #[error("cannot build the HTTP client: {0}")]
    HttpClient(String),
    #[error("the stored {what} {value:?} is not one this build knows")]
    Corrupt { what: &'static str, value: String },
    /// One case of several refused an action on all of them (bulk actions): the refusal, and
    /// the number a person knows the case by.
    #[error("case #{number}: {source}")]
    InCase { number: i64, source: Box<CasesError> },
    /// A saved reply's title or body is blank or too long.
    #[error("the saved reply's {field} {reason}")]
    InvalidSavedReply { field: &'static str, reason: String },
    /// A saved reply uses a variable Skillcase does not know.
    #[error("{{{{{name}}}}} is not a variable Skillcase knows; use one of {}", crate::replies::template::VARIABLES.join(", "))]
    UnknownVariable { name: String },
    #[error("no saved reply with id {id}")]
    SavedReplyNotFound { id: String },
    #[error("no guardrail mark with id {id}")]
    GuardMarkNotFound { id: i64 },
    /// A saved-replies file that cannot be imported; `entry` counts from 1.
    #[error("{}{reason}", entry.map(|n| format!("entry {n}: ")).unwrap_or_else(|| "the file cannot be imported: ".into()))]
    InvalidSavedRepliesFile { entry: Option<usize>, reason: String },
    /// Someone else is writing a reply on the case right now (their lease runs), and the case is
    /// not assigned to the person sending.
    #[error("{person} is replying to this case; take it over to send your reply")]
    BeingReplied { person: String, until: String },
    /// The database failed (not a refusal of the step): its own stable code (`db_error`,
    /// `db_closed`, `team_db_unreachable`, `team_db_error`, …) and words, and whether trying the
    /// transaction again may succeed (another instance's transaction got in the way).
    #[error("{message}")]
    Storage { code: &'static str, message: String, retryable: bool },
}

impl CasesError {
    /// The blocking task that ran a storage step ended without an answer (the runtime is
    /// shutting down).
    pub fn stopped() -> CasesError {
        CasesError::Storage {
            code: "task_failed",
            message: "the storage task stopped".into(),
            retryable: false,
        }
    }

    /// Whether trying the whole transaction again may succeed.
    pub fn is_retryable(&self) -> bool {
        matches!(self, CasesError::Storage { retryable: true, .. })
    }
}

impl Coded for CasesError {
    fn code(&self) -> &'static str {
        match self {
            CasesError::CaseNotFound { .. } | CasesError::CaseNumberNotFound { .. } => "case_not_found",
            CasesError::InvalidTransition { .. } => "invalid_transition",
            CasesError::TextRequired { .. } => "text_required",
            CasesError::InvalidInput { .. } => "invalid_case_input",
            CasesError::InvalidReason { .. } => "invalid_reason",
            CasesError::DeliveryNotFound { .. } => "delivery_not_found",
            CasesError::DeliveryNotRetryable { .. } => "delivery_not_retryable",
            CasesError::InvalidEndpointUrl { .. } => "invalid_endpoint_url",
            CasesError::EndpointUrlCredentials { .. } => "endpoint_url_has_credentials",
            CasesError::InvalidEndpointSetting { .. } => "invalid_endpoint_setting",
            CasesError::EndpointNotConfigured => "endpoint_not_configured",
            CasesError::InvalidAgentId { .. } => "invalid_agent_id",
            CasesError::AgentNotFound { .. } => "agent_not_found",
            CasesError::AgentCasesDisabled { .. } => "agent_cases_disabled",
            CasesError::HttpClient(_) => "http_client_failed",
            CasesError::Corrupt { .. } => "db_corrupt",
            CasesError::InvalidSavedReply { .. } => "invalid_saved_reply",
            CasesError::UnknownVariable { .. } => "unknown_variable",
            CasesError::SavedReplyNotFound { .. } => "saved_reply_not_found",
            CasesError::GuardMarkNotFound { .. } => "guard_mark_not_found",
            CasesError::InvalidSavedRepliesFile { .. } => "invalid_saved_replies_file",
            CasesError::InCase { source, .. } => source.code(),
            CasesError::Storage { code, .. } => code,
            CasesError::BeingReplied { .. } => "case_being_replied",
        }
    }

    fn details(&self) -> Option<serde_json::Value> {
        match self {
            CasesError::CaseNotFound { id }
            | CasesError::DeliveryNotFound { id }
            | CasesError::SavedReplyNotFound { id } => Some(json!({ "id": id })),
            CasesError::CaseNumberNotFound { number } => Some(json!({ "number": number })),
            CasesError::GuardMarkNotFound { id } => Some(json!({ "id": id })),
            CasesError::InvalidTransition { from, action } => {
                Some(json!({ "from": from.as_str(), "action": action }))
            }
            CasesError::TextRequired { field } | CasesError::InvalidSavedReply { field, .. } => {
                Some(json!({ "field": field }))
            }
            CasesError::UnknownVariable { name } => Some(json!({ "field": "body", "variable": name })),
            CasesError::InvalidSavedRepliesFile { entry, .. } => Some(json!({ "entry": entry })),
            CasesError::InvalidInput { field, .. } | CasesError::InvalidEndpointSetting { field, .. } => {
                Some(json!({ "field": field }))
            }
            CasesError::InvalidReason { given } => Some(json!({
                "field": "reason",
                "given": given,
                "allowed": HandoverReason::agent_choice_names(),
            })),
            CasesError::InvalidAgentId { agent_id, .. }
            | CasesError::AgentNotFound { agent_id }
            | CasesError::AgentCasesDisabled { agent_id } => Some(json!({ "agent_id": agent_id })),
            CasesError::DeliveryNotRetryable { state } => Some(json!({ "state": state.as_str() })),
            CasesError::BeingReplied { person, until } => Some(json!({ "person": person, "until": until })),
            CasesError::InvalidEndpointUrl { url, .. } => Some(json!({ "url": url })),
            CasesError::EndpointUrlCredentials { url } => Some(json!({ "field": "url", "url": url })),
            CasesError::InCase { number, source } => {
                let mut details = source.details().unwrap_or_else(|| json!({}));
                details["number"] = json!(number);
                Some(details)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillcase_common::ErrorBody;

    #[test]
    fn a_refusal_in_a_bulk_action_keeps_its_code_and_names_the_case_by_number() {
        let inner = CasesError::InvalidTransition { from: CaseStatus::Resolved, action: "cancel" };
        let err = CasesError::InCase { number: 1042, source: Box::new(inner) };
        assert_eq!(
            serde_json::to_value(ErrorBody::from(err)).unwrap(),
            json!({
                "code": "invalid_transition",
                "message": "case #1042: a case that is resolved cannot take the action cancel",
                "details": { "from": "resolved", "action": "cancel", "number": 1042 }
            })
        );
    }

    #[test]
    fn an_invalid_transition_crosses_the_boundary_with_from_and_action() {
        let err = CasesError::InvalidTransition { from: CaseStatus::Resolved, action: "escalate" };
        assert_eq!(
            serde_json::to_value(ErrorBody::from(err)).unwrap(),
            json!({
                "code": "invalid_transition",
                "message": "a case that is resolved cannot take the action escalate",
                "details": { "from": "resolved", "action": "escalate" }
            })
        );
    }
}
