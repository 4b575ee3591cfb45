//! What the API's handlers share: the database, the token and the skills.

use std::sync::Arc;

use super::auth::TokenStore;
use super::connections::Connections;
use super::skills::SkillsSource;
use crate::events::EventBus;

/// The state every handler receives. Cheap to clone (reference-counted parts).
#[derive(Debug, Clone)]
pub struct ApiState {
    /// The connections to the one Skillcase database.
    pub db: Arc<Connections>,
    /// The bearer token, shared with Settings so a rotation there takes effect at once.
    pub tokens: Arc<TokenStore>,
    /// The skills directory and the skills active in each conversation.
    pub skills: Arc<SkillsSource>,
    /// Where handlers announce what they changed (a new case, a reply) to the window.
    pub events: EventBus,
}
