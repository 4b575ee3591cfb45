//! The skills endpoints (SPEC A6–A7): level 1 (the index), matching a customer message, level 2
//! (activation) and level 3 (one file of an active skill), all served by the skill library.
//! Matching records activations and the active set in the database, so a level-3 read is allowed
//! by what the conversation activated, across restarts. Each handler parses and calls the
//! application's function for the action.

use axum::extract::{Path, State};
use axum::Json;
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::extract::{JsonBody, Query};
use crate::state::ApiState;
use skillcase_skill::disclosure::{Index, IndexFormat};
use skillcase_skill::matcher::SkillMatch;

/// `GET /v1/skills/index` query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexQuery {
    format: Option<String>,
}

/// `POST /v1/skills/match` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchBody {
    conversation_id: String,
    message: String,
}

/// Which skills a message activates (`hard`) and nearly activates (`probe`).
#[derive(Debug, Serialize)]
pub struct MatchReply {
    hard: Vec<SkillMatch>,
    probe: Vec<SkillMatch>,
}

/// `GET /v1/skills/{name}` query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadQuery {
    task: Option<String>,
    conversation_id: Option<String>,
}

/// `GET /v1/skills/{name}/files/{path}` query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileQuery {
    conversation_id: String,
}

/// The text of level 2 or 3.
#[derive(Debug, Serialize)]
pub struct TextReply {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    text: String,
}

/// `GET /v1/skills/index?format=skillcase|agentskills`: level 1.
pub async fn index(
    State(state): State<ApiState>,
    Query(query): Query<IndexQuery>,
) -> Result<Json<Index>, ApiError> {
    let format: IndexFormat =
        query.format.as_deref().unwrap_or("skillcase").parse().map_err(ApiError::coded)?;
    Ok(Json(state.app.skills_index(format).await?))
}

/// `POST /v1/skills/match`: hard and probe matches, recorded as activations; hard ones become
/// active in the conversation.
pub async fn match_message(
    State(state): State<ApiState>,
    JsonBody(body): JsonBody<MatchBody>,
) -> Result<Json<MatchReply>, ApiError> {
    let outcome = state.app.match_skills(body.conversation_id, body.message).await?;
    Ok(Json(MatchReply { hard: outcome.hard, probe: outcome.probe }))
}

/// `GET /v1/skills/{name}?task=…&conversation_id=…`: level 2; activates the skill in the
/// conversation when one is given.
pub async fn read(
    State(state): State<ApiState>,
    Path(name): Path<String>,
    Query(query): Query<ReadQuery>,
) -> Result<Json<TextReply>, ApiError> {
    let text = state.app.read_skill(name.clone(), query.task, query.conversation_id).await?;
    Ok(Json(TextReply { name, path: None, text }))
}

/// `GET /v1/skills/{name}/files/{path}?conversation_id=…`: level 3, for active skills only.
pub async fn read_file(
    State(state): State<ApiState>,
    Path((name, path)): Path<(String, String)>,
    Query(query): Query<FileQuery>,
) -> Result<Json<TextReply>, ApiError> {
    let text = state.app.read_skill_file(name.clone(), path.clone(), query.conversation_id).await?;
    Ok(Json(TextReply { name, path: Some(path), text }))
}
