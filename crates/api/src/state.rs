//! What the API's handlers share: the database, the token and the skills.

use std::sync::Arc;

use super::connections::Connections;
use skillcase_application::token::TokenStore;
use skillcase_common::events::EventBus;
use skillcase_library::Library;

/// The state every handler receives. Cheap to clone (reference-counted parts).
#[derive(Debug, Clone)]
pub struct ApiState {
    /// The connections to the one Skillcase database.
    pub db: Arc<Connections>,
    /// The bearer token, shared with Settings so a rotation there takes effect at once.
    pub tokens: Arc<TokenStore>,
    /// The skill library: what is served, and which skills are active in each conversation.
    pub skills: Arc<Library>,
    /// Where handlers announce what they changed (a new case, a reply) to the window.
    pub events: EventBus,
}
