//! The workspace's business calendar: the time zone, working days, opening hours and holidays a
//! promise's due time is resolved in ("amanhã cedo", "within 3 business days"). Default: the
//! system's zone, Monday to Friday, 09:00–18:00, no holidays.

use skillcase_guard::due::{Calendar, CalendarError, CalendarSettings};
use skillcase_store::settings::SettingsRepository;

use super::error::SettingsError;
use super::store;

/// Shared with the response-time clocks, which count in the same calendar.
const KEY: &str = skillcase_cases::sla::CALENDAR_SETTING;

/// The saved calendar settings, the defaults until some are saved.
pub fn calendar_settings(settings: &dyn SettingsRepository) -> Result<CalendarSettings, SettingsError> {
    Ok(store::get(settings, KEY)?.unwrap_or_default())
}

/// The calendar the saved settings describe; the default one when they no longer resolve (a
/// time zone the system's database lost), so a promise still gets a due time.
pub fn calendar(settings: &dyn SettingsRepository) -> Calendar {
    calendar_settings(settings)
        .ok()
        .and_then(|saved| Calendar::from_settings(&saved).ok())
        .unwrap_or_else(Calendar::system)
}

/// Checks and saves the calendar settings; nothing is saved when a field is wrong.
pub fn set_calendar(
    settings: &dyn SettingsRepository,
    value: CalendarSettings,
) -> Result<Calendar, SettingsError> {
    let calendar = Calendar::from_settings(&value).map_err(refusal)?;
    store::put(settings, KEY, &value)?;
    Ok(calendar)
}

fn refusal(err: CalendarError) -> SettingsError {
    let field = match err {
        CalendarError::UnknownTimeZone(_) => "time_zone",
        CalendarError::BadTime(_) | CalendarError::ClosesBeforeOpening => "hours",
        CalendarError::BadDate(_) => "holidays",
        CalendarError::NoWorkingDays => "working_days",
    };
    SettingsError::InvalidCalendar { field, reason: err.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_time_zone_is_refused_naming_its_field() {
        let value =
            CalendarSettings { time_zone: Some("Mars/Olympus".into()), ..CalendarSettings::default() };
        let err = Calendar::from_settings(&value).map_err(refusal).unwrap_err();
        assert_eq!(skillcase_common::Coded::code(&err), "invalid_calendar");
        assert_eq!(skillcase_common::Coded::details(&err), Some(serde_json::json!({ "field": "time_zone" })));
    }
}
