//! Quiet customers (SPEC D5): how long a case waits on the customer before the agent is asked
//! to nudge them, and how long after that it closes as `lead_unresponsive`. Each can be switched
//! off and keeps its delay while off.
//!
//! Both are off until a person turns them on: an update must not start messaging customers or
//! closing cases nobody asked to close. The delays offered then are a day for the reminder and
//! three more days before closing.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use skillcase_cases::quiet::QuietDelays;
use skillcase_store::settings::SettingsRepository;
use ts_rs::TS;

use super::error::SettingsError;
use super::store;

const KEY: &str = "quiet_customers";

/// The shortest delay accepted, in minutes.
pub const MIN_MINUTES: u32 = 1;
/// The longest delay accepted, in minutes: 90 days.
pub const MAX_MINUTES: u32 = 90 * 24 * 60;

/// The saved delays, in whole minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct QuietSettings {
    /// Send the agent a `case.reminder` after `remind_after_minutes` waiting on the customer.
    pub remind: bool,
    pub remind_after_minutes: u32,
    /// Close the case `close_after_minutes` after the reminder (after the wait began, when
    /// reminders are off), unless a person acted on it since.
    pub close: bool,
    pub close_after_minutes: u32,
}

impl Default for QuietSettings {
    fn default() -> Self {
        QuietSettings {
            remind: false,
            remind_after_minutes: 24 * 60,
            close: false,
            close_after_minutes: 72 * 60,
        }
    }
}

impl QuietSettings {
    /// The delays the job runs with: `None` for what is switched off.
    pub fn delays(&self) -> QuietDelays {
        let minutes = |on: bool, m: u32| on.then(|| Duration::from_secs(u64::from(m) * 60));
        QuietDelays {
            remind_after: minutes(self.remind, self.remind_after_minutes),
            close_after: minutes(self.close, self.close_after_minutes),
        }
    }
}

/// The saved settings, the defaults (both off) until some are saved.
pub fn quiet_settings(settings: &dyn SettingsRepository) -> Result<QuietSettings, SettingsError> {
    Ok(store::get(settings, KEY)?.unwrap_or_default())
}

/// Checks and saves the settings; nothing is saved when a delay is out of range (even one
/// switched off, so turning it on later cannot bring back a bad value).
pub fn set_quiet_settings(
    settings: &dyn SettingsRepository,
    value: QuietSettings,
) -> Result<QuietSettings, SettingsError> {
    checked(value)?;
    store::put(settings, KEY, &value)?;
    Ok(value)
}

fn checked(value: QuietSettings) -> Result<(), SettingsError> {
    for (field, minutes) in [
        ("remind_after_minutes", value.remind_after_minutes),
        ("close_after_minutes", value.close_after_minutes),
    ] {
        if !(MIN_MINUTES..=MAX_MINUTES).contains(&minutes) {
            return Err(SettingsError::InvalidQuietDelay {
                field,
                reason: format!("is {minutes} minutes; choose from {MIN_MINUTES} to {MAX_MINUTES} (90 days)"),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillcase_common::Coded;

    #[test]
    fn a_zero_delay_is_refused_naming_its_field() {
        let value = QuietSettings { close_after_minutes: 0, ..QuietSettings::default() };
        let err = checked(value).unwrap_err();
        assert_eq!(err.code(), "invalid_quiet_delay");
        assert_eq!(err.details(), Some(serde_json::json!({ "field": "close_after_minutes" })));
    }

    #[test]
    fn a_delay_beyond_ninety_days_is_refused() {
        let value = QuietSettings { remind_after_minutes: MAX_MINUTES + 1, ..QuietSettings::default() };
        assert_eq!(checked(value).unwrap_err().code(), "invalid_quiet_delay");
    }

    #[test]
    fn what_is_switched_off_has_no_delay() {
        let value = QuietSettings { remind: true, remind_after_minutes: 90, ..QuietSettings::default() };
        let delays = value.delays();
        assert_eq!((delays.remind_after, delays.close_after), (Some(Duration::from_secs(90 * 60)), None));
    }
}
