//! The workspace's business calendar: the time zone, working days, opening hours and holidays a
//! promise's due time is resolved in ("amanhã cedo", "within 3 business days"). Default: the
//! system's zone, Monday to Friday, 09:00–18:00, and the national holidays of the zone's country.

use jiff::{ToSpan, ZonedDateTime};
use serde::{Deserialize, Serialize};
use skillcase_guard::due::holidays::{self, Country, Holiday};
use skillcase_guard::due::{Calendar, CalendarError, CalendarSettings};
use skillcase_store::settings::SettingsRepository;
use ts_rs::TS;

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
        .unwrap_or_else(Calendar::workspace_default)
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
        CalendarError::UnknownCountry(_) => "country",
    };
    SettingsError::InvalidCalendar { field, reason: err.to_string() }
}

/// The national holidays a calendar in `time_zone` (`None`: the system's) following `country`
/// (`None`: the zone's country) starts with, for Settings to show with their names before they are
/// saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct NationalHolidays {
    /// The country whose holidays count, when there is one.
    pub country: Option<Country>,
    /// Whether that country came from the time zone rather than being chosen.
    pub from_zone: bool,
    /// Its holidays from today to a year from today, in date order.
    pub holidays: Vec<Holiday>,
    /// Every country Skillcase knows the holidays of, for the choice.
    pub countries: Vec<Country>,
}

/// What [`NationalHolidays`] says for this zone and country; an unknown zone or country is
/// refused naming its field, as saving them would be.
pub fn national_holidays(
    time_zone: Option<&str>,
    country: Option<&str>,
) -> Result<NationalHolidays, SettingsError> {
    let settings = CalendarSettings {
        time_zone: time_zone.map(str::trim).filter(|z| !z.is_empty()).map(str::to_string),
        country: country.map(str::trim).filter(|c| !c.is_empty()).map(str::to_string),
        ..CalendarSettings::default()
    };
    let calendar = Calendar::from_settings(&settings).map_err(refusal)?;
    let countries = holidays::countries();
    let code = calendar.country().map(str::to_string);
    let today = ZonedDateTime::now().with_time_zone(calendar.time_zone().clone()).date();
    let year_on = today.checked_add(1.year()).unwrap_or(today);
    Ok(NationalHolidays {
        holidays: code.as_deref().map(|c| holidays::national_holidays(c, today, year_on)).unwrap_or_default(),
        country: code.and_then(|c| countries.iter().find(|k| k.code == c).cloned()),
        from_zone: settings.country.is_none(),
        countries,
    })
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

    #[test]
    fn sao_paulo_starts_with_brazils_holidays_named_in_both_languages() {
        let view = national_holidays(Some("America/Sao_Paulo"), None).unwrap();
        assert_eq!(view.country.as_ref().map(|c| c.code.as_str()), Some("BR"));
        assert!(view.from_zone);
        let christmas =
            view.holidays.iter().find(|h| h.date.ends_with("-12-25")).expect("Christmas within a year");
        assert_eq!(
            (christmas.name_en.as_str(), christmas.name_pt.as_deref()),
            ("Christmas Day", Some("Natal"))
        );
    }

    #[test]
    fn a_chosen_country_overrides_the_zones() {
        let view = national_holidays(Some("America/Sao_Paulo"), Some("us")).unwrap();
        assert_eq!(view.country.map(|c| c.code), Some("US".to_string()));
        assert!(!view.from_zone);
        assert!(view.holidays.iter().any(|h| h.name_en == "Thanksgiving Day"));
    }

    #[test]
    fn an_unknown_country_is_refused_naming_its_field() {
        let err = national_holidays(Some("America/Sao_Paulo"), Some("XX")).unwrap_err();
        assert_eq!(skillcase_common::Coded::details(&err), Some(serde_json::json!({ "field": "country" })));
    }

    #[test]
    fn a_zone_of_no_known_country_has_no_national_holidays() {
        let view = national_holidays(Some("Etc/UTC"), None).unwrap();
        assert_eq!((view.country, view.holidays.len()), (None, 0));
    }
}
