//! The `skills_index` prompt: level 1 (SPEC A6), the index of visible skills exactly as the
//! agent's prompt receives it, in the `skillcase` format (default) or `agentskills`.

use rmcp::model::{GetPromptResult, Prompt, PromptArgument, PromptMessage, Role};
use skillcase_application::domain::skill::disclosure::{IndexFormat, UnknownIndexFormat};
use skillcase_application::App;
use skillcase_common::error::Coded;

use crate::error::ProtocolError;

/// The prompt's name.
pub const SKILLS_INDEX: &str = "skills_index";

/// Every prompt this server offers.
pub fn all() -> Vec<Prompt> {
    vec![Prompt::new(
        SKILLS_INDEX,
        Some("Level 1: the index of the skills available to you, to put in your system prompt; read one with read_skill when it fits the request."),
        Some(vec![PromptArgument::new("format")
            .with_description("skillcase (default: with types, categories and the reading instructions) or agentskills")
            .with_required(false)]),
    )]
}

/// Renders the prompt `name` with its arguments; `None` when there is no such prompt.
pub async fn get(
    app: &App,
    name: &str,
    arguments: Option<&rmcp::model::JsonObject>,
) -> Option<Result<GetPromptResult, ProtocolError>> {
    if name != SKILLS_INDEX {
        return None;
    }
    let format = arguments.and_then(|a| a.get("format")).and_then(|f| f.as_str()).unwrap_or("skillcase");
    Some(index(app, format).await)
}

async fn index(app: &App, format: &str) -> Result<GetPromptResult, ProtocolError> {
    let format: IndexFormat = format
        .parse()
        .map_err(|e: UnknownIndexFormat| ProtocolError::BadParams(format!("{e} ({})", e.code())))?;
    let index = app.skills_index(format).await.map_err(ProtocolError::Internal)?;
    let kept = index.entries.iter().filter(|e| e.included).count();
    let description = format!(
        "{kept} of {} skills, {} of {} characters",
        index.entries.len(),
        index.used_chars,
        index.budget_chars
    );
    Ok(GetPromptResult::new(vec![PromptMessage::new_text(Role::User, index.text)])
        .with_description(description))
}
