//! The case endpoints (SPEC B4): open, hand back the lead's information, record what happened
//! with the lead or cancel, and read a case with its timeline. Each handler parses, calls the
//! application's one function for the action, and answers.
//!
//! The request types mirror [`NewCase`] and its parts with `deny_unknown_fields`, so a misspelt
//! field is refused by name instead of silently dropped; the agent cannot choose the `source`
//! (only the guardrail opens `guardrail_autofallback` cases). The handover `reason` is optional,
//! so agents written before it keep working (their cases are `not_stated`); a reason not in the
//! list is `invalid_reason`, and nothing is written.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::extract::JsonBody;
use crate::state::ApiState;
use skillcase_application::cases::CaseEvent;
use skillcase_cases::model::{Case, CaseSource, ContextMessage, Lead, NewCase};
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::store::CaseWithTimeline;
use skillcase_cases::transition::OpenOutcome;

/// `POST /v1/cases` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenCaseBody {
    conversation_id: String,
    title: String,
    summary: String,
    #[serde(default)]
    lead: LeadBody,
    agent_id: Option<String>,
    blocker: Option<String>,
    #[serde(default)]
    context: Vec<ContextBody>,
    /// Why the agent hands over, one of [`HandoverReason::AGENT_CHOICES`]; checked by the domain.
    reason: Option<String>,
}

/// The lead as the agent describes it; every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeadBody {
    id: Option<String>,
    name: Option<String>,
    channel: Option<String>,
    contact: Option<String>,
}

/// One recent message of the conversation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextBody {
    role: String,
    text: String,
    at: Option<String>,
}

impl TryFrom<OpenCaseBody> for NewCase {
    type Error = ApiError;

    fn try_from(body: OpenCaseBody) -> Result<Self, ApiError> {
        let reason = HandoverReason::from_agent(body.reason.as_deref()).map_err(ApiError::coded)?;
        let LeadBody { id, name, channel, contact } = body.lead;
        Ok(NewCase {
            conversation_id: body.conversation_id,
            lead: Lead { id, name, channel, contact },
            agent_id: body.agent_id,
            title: body.title,
            summary: body.summary,
            blocker: body.blocker,
            context: body
                .context
                .into_iter()
                .map(|c| ContextMessage { role: c.role, text: c.text, at: c.at })
                .collect(),
            source: CaseSource::Agent,
            reason,
        })
    }
}

/// `POST /v1/cases/{id}/updates` body: what the lead answered.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpdateBody {
    info: String,
}

/// `POST /v1/cases/{id}/events` body, told apart by `type`.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum EventBody {
    /// The agent asked the lead (optionally saying what).
    LeadAsked { text: Option<String> },
    /// The lead stopped answering.
    LeadUnresponsive { note: Option<String> },
    /// The agent cancels the case (the lead gave up, it was opened by mistake).
    Cancel { reason: Option<String> },
}

/// The answer of every endpoint that changes one case.
#[derive(Debug, Serialize)]
pub struct CaseReply {
    case: Case,
}

/// `POST /v1/cases`: 201 with the new case, or 200 with the conversation's open one.
pub async fn open(
    State(state): State<ApiState>,
    JsonBody(body): JsonBody<OpenCaseBody>,
) -> Result<(StatusCode, Json<OpenOutcome>), ApiError> {
    let outcome = state.app.open_case(body.try_into()?).await?;
    let status = if outcome.already_open { StatusCode::OK } else { StatusCode::CREATED };
    Ok((status, Json(outcome)))
}

/// `POST /v1/cases/{id}/updates`: `awaiting_lead` → `awaiting_human`.
pub async fn update(
    State(state): State<ApiState>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<UpdateBody>,
) -> Result<Json<CaseReply>, ApiError> {
    let case = state.app.provide_case_update(id, body.info).await?;
    Ok(Json(CaseReply { case }))
}

/// `POST /v1/cases/{id}/events`: `lead_asked`, `lead_unresponsive` or `cancel`.
pub async fn event(
    State(state): State<ApiState>,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<EventBody>,
) -> Result<Json<CaseReply>, ApiError> {
    let event = match body {
        EventBody::LeadAsked { text } => CaseEvent::LeadAsked { text },
        EventBody::LeadUnresponsive { note } => CaseEvent::LeadUnresponsive { note },
        EventBody::Cancel { reason } => CaseEvent::Cancel { reason },
    };
    let case = state.app.record_case_event(id, event).await?;
    Ok(Json(CaseReply { case }))
}

/// `GET /v1/cases/{id}`: the case, its events and its deliveries.
pub async fn get(
    State(state): State<ApiState>,
    Path(id): Path<String>,
) -> Result<Json<CaseWithTimeline>, ApiError> {
    Ok(Json(state.app.get_case_for_agent(id).await?))
}
