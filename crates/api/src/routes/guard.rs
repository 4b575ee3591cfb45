//! `POST /v1/guard/before-send` (SPEC B5): may the agent send this message?

use axum::extract::State;
use axum::Json;
use serde::Deserialize;

use crate::error::ApiError;
use crate::extract::JsonBody;
use crate::state::ApiState;
use skillcase_cases::guard::{BeforeSend, Verdict};

/// The request body; [`BeforeSend`] with unknown fields refused.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeforeSendBody {
    conversation_id: String,
    turn_id: String,
    message: String,
    #[serde(default)]
    agent_id: Option<String>,
}

/// Answers `pass` or `veto`; the second veto in a turn opens a case and passes.
pub async fn before_send(
    State(state): State<ApiState>,
    JsonBody(body): JsonBody<BeforeSendBody>,
) -> Result<Json<Verdict>, ApiError> {
    let request = BeforeSend {
        conversation_id: body.conversation_id,
        turn_id: body.turn_id,
        message: body.message,
        agent_id: body.agent_id,
    };
    Ok(Json(state.app.before_send(request).await?))
}
