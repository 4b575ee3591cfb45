//! What the API's handlers share: the database and the token.

use std::sync::Arc;

use super::auth::TokenStore;
use super::connections::Connections;

/// The state every handler receives. Cheap to clone (reference-counted parts).
#[derive(Debug, Clone)]
pub struct ApiState {
    /// The connections to the one Skillcase database.
    pub db: Arc<Connections>,
    /// The bearer token, shared with Settings so a rotation there takes effect at once.
    pub tokens: Arc<TokenStore>,
}
