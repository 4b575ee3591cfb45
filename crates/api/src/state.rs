//! What the API's handlers share: the application, whose functions they call.

use skillcase_application::App;

/// The state every handler receives. Cheap to clone.
#[derive(Debug, Clone)]
pub struct ApiState {
    /// The running Skillcase: every route is one call into it.
    pub app: App,
}
