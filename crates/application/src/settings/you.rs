//! You (SPEC D5): the name and e-mail of the person at this desktop, which saved replies fill
//! in as `{{person.name}}` and `{{person.email}}`. Both empty until saved; an empty name falls
//! back to the name replies are recorded under (the system user).

use serde::{Deserialize, Serialize};
use skillcase_store::settings::SettingsRepository;
use ts_rs::TS;

use super::error::SettingsError;
use super::store;

const KEY: &str = "you";

/// The longest name or e-mail accepted, in characters.
pub const MAX_CHARS: usize = 200;

/// The person at this desktop, as typed in Settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct YouSettings {
    pub name: String,
    pub email: String,
    /// Which new cases raise a desktop notification for this person (a team shares one inbox).
    #[serde(default)]
    #[ts(optional)]
    pub alerts: Option<CaseAlerts>,
}

/// Which cases notify this person (SPEC D4): on a team's inbox nobody wants every colleague's
/// case to pop up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CaseAlerts {
    /// Every new case.
    #[default]
    All,
    /// New cases nobody has taken yet.
    Unassigned,
    /// Only cases assigned to me (when someone assigns one to me).
    Mine,
}

impl CaseAlerts {
    /// Whether a case just opened, assigned to `assignee`, notifies a person called `me`.
    pub fn on_opened(self, assignee: Option<&str>, me: &str) -> bool {
        match self {
            CaseAlerts::All => true,
            CaseAlerts::Unassigned => assignee.is_none(),
            CaseAlerts::Mine => assignee == Some(me),
        }
    }

    /// Whether an assignment to `assignee` made by `by` notifies `me`: only with [`CaseAlerts::Mine`],
    /// only when someone else gave `me` the case.
    pub fn on_assigned(self, assignee: Option<&str>, by: Option<&str>, me: &str) -> bool {
        self == CaseAlerts::Mine && assignee == Some(me) && by != Some(me)
    }
}

/// The saved name and e-mail, both empty until saved.
pub fn you(settings: &dyn SettingsRepository) -> Result<YouSettings, SettingsError> {
    Ok(store::get(settings, KEY)?.unwrap_or_default())
}

/// Trims, checks and saves the name and e-mail: an e-mail without an `@` between two parts, or a
/// value too long, is refused (`invalid_person`) and nothing is saved.
pub fn set_you(settings: &dyn SettingsRepository, value: YouSettings) -> Result<YouSettings, SettingsError> {
    let value = YouSettings {
        name: value.name.trim().to_string(),
        email: value.email.trim().to_string(),
        alerts: value.alerts,
    };
    for (field, text) in [("name", &value.name), ("email", &value.email)] {
        if text.chars().count() > MAX_CHARS {
            return Err(SettingsError::InvalidPerson {
                field,
                reason: format!("must be at most {MAX_CHARS} characters"),
            });
        }
    }
    if !value.email.is_empty() && !looks_like_email(&value.email) {
        return Err(SettingsError::InvalidPerson {
            field: "email",
            reason: "must look like name@example.com".into(),
        });
    }
    store::put(settings, KEY, &value)?;
    Ok(value)
}

fn looks_like_email(text: &str) -> bool {
    match text.split_once('@') {
        Some((user, domain)) => !user.is_empty() && !domain.is_empty() && !text.contains(char::is_whitespace),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::CaseAlerts;

    #[test]
    fn everyone_who_wants_all_cases_hears_of_a_new_one() {
        assert!(CaseAlerts::All.on_opened(None, "Ana"));
    }

    #[test]
    fn unassigned_hears_of_new_cases_nobody_took() {
        assert!(CaseAlerts::Unassigned.on_opened(None, "Ana"));
        assert!(!CaseAlerts::Unassigned.on_opened(Some("Bruno"), "Ana"));
    }

    #[test]
    fn mine_hears_only_of_cases_someone_else_gave_me() {
        assert!(!CaseAlerts::Mine.on_opened(None, "Ana"));
        assert!(CaseAlerts::Mine.on_assigned(Some("Ana"), Some("Bruno"), "Ana"));
        assert!(!CaseAlerts::Mine.on_assigned(Some("Ana"), Some("Ana"), "Ana"));
        assert!(!CaseAlerts::All.on_assigned(Some("Ana"), Some("Bruno"), "Ana"));
    }
}
