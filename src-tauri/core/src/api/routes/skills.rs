//! The skills endpoints (SPEC A6–A7): level 1 (the index), matching a customer message, level 2
//! (activation) and level 3 (one file of an active skill). Reading folders blocks, so each
//! handler does its work on the blocking pool.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use serde::{Deserialize, Serialize};

use crate::api::error::ApiError;
use crate::api::extract::{JsonBody, Query};
use crate::api::skills::SkillsSource;
use crate::api::state::ApiState;
use crate::skill::disclosure::{self, dir_reader, Index, IndexFormat};
use crate::skill::matcher::{self, SkillMatch, Trigger};

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

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|_| Err(ApiError::new("internal", "reading the skills stopped unexpectedly")))
}

/// `GET /v1/skills/index?format=skillcase|agentskills`: level 1.
pub async fn index(
    State(state): State<ApiState>,
    Query(query): Query<IndexQuery>,
) -> Result<Json<Index>, ApiError> {
    let format: IndexFormat = query.format.as_deref().unwrap_or("skillcase").parse()?;
    let skills = Arc::clone(&state.skills);
    let skills = blocking(move || Ok(skills.index_skills()?)).await?;
    Ok(Json(disclosure::index(&skills, format, disclosure::DEFAULT_BUDGET)))
}

/// `POST /v1/skills/match`: hard and probe matches; hard ones become active in the conversation.
pub async fn match_message(
    State(state): State<ApiState>,
    JsonBody(body): JsonBody<MatchBody>,
) -> Result<Json<MatchReply>, ApiError> {
    let source: Arc<SkillsSource> = Arc::clone(&state.skills);
    let skills = blocking(move || Ok(source.index_skills()?)).await?;
    let (hard, probe): (Vec<_>, Vec<_>) =
        matcher::match_message(&skills, &body.message).into_iter().partition(|m| m.trigger == Trigger::Hard);
    state.skills.activate(&body.conversation_id, hard.iter().map(|m| m.name.clone()));
    Ok(Json(MatchReply { hard, probe }))
}

/// `GET /v1/skills/{name}?task=…&conversation_id=…`: level 2; activates the skill in the
/// conversation when one is given.
pub async fn read(
    State(state): State<ApiState>,
    Path(name): Path<String>,
    Query(query): Query<ReadQuery>,
) -> Result<Json<TextReply>, ApiError> {
    let source = Arc::clone(&state.skills);
    let wanted = name.clone();
    let text = blocking(move || {
        let skill = source.skill(&wanted)?;
        Ok(disclosure::activation(&skill, query.task.as_deref(), &dir_reader(&skill))?)
    })
    .await?;
    if let Some(conversation_id) = query.conversation_id {
        state.skills.activate(&conversation_id, [name.clone()]);
    }
    Ok(Json(TextReply { name, path: None, text }))
}

/// `GET /v1/skills/{name}/files/{path}?conversation_id=…`: level 3, for active skills only.
pub async fn read_file(
    State(state): State<ApiState>,
    Path((name, path)): Path<(String, String)>,
    Query(query): Query<FileQuery>,
) -> Result<Json<TextReply>, ApiError> {
    state.skills.require_active(&query.conversation_id, &name)?;
    let source = Arc::clone(&state.skills);
    let (wanted, file) = (name.clone(), path.clone());
    let text = blocking(move || {
        let skill = source.skill(&wanted)?;
        Ok(disclosure::file(&skill, &file, &dir_reader(&skill))?)
    })
    .await?;
    Ok(Json(TextReply { name, path: Some(path), text }))
}
