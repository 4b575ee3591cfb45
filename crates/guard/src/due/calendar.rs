//! The workspace's business calendar: its time zone, working days, opening hours and holidays.
//! A promise's due time depends on it — "tomorrow" ends at tomorrow's close, "3 business days"
//! skips the weekend and the holidays — so it is a setting, not a constant. It starts with the
//! national holidays of the country its time zone belongs to (see [`super::holidays`]).

use std::collections::BTreeSet;

use jiff::civil::{Date, DateTime, Time};
use jiff::tz::TimeZone;
use jiff::{SignedDuration, ZonedDateTime};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::holidays::{country_of_zone, is_known_country, national_dates};
use super::meaning::Weekday;

/// How far ahead the calendar looks for a business day before it gives up (a calendar whose
/// every day is a holiday or that has no working days never finds one).
const SEARCH_DAYS: i32 = 3 * 366;

/// The calendar as the settings screen edits it: plain strings, checked by
/// [`Calendar::from_settings`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardCalendarSettings")]
pub struct CalendarSettings {
    /// An IANA time zone id such as `America/Sao_Paulo`; `None` for the system zone.
    pub time_zone: Option<String>,
    /// The days the business works (default Monday to Friday).
    pub working_days: Vec<Weekday>,
    /// Opening time, `HH:MM` (default `09:00`).
    pub opens: String,
    /// Closing time, `HH:MM` (default `18:00`).
    pub closes: String,
    /// The business's own days off besides the national holidays, `YYYY-MM-DD`.
    pub holidays: Vec<String>,
    /// Whether the national public holidays are days off (default yes).
    #[serde(default = "yes")]
    pub national_holidays: bool,
    /// The ISO 3166 code of the country whose national holidays count (`BR`); `None` for the
    /// country of the time zone.
    #[serde(default)]
    pub country: Option<String>,
    /// National holidays the business works anyway, `YYYY-MM-DD`.
    #[serde(default)]
    pub working_holidays: Vec<String>,
}

fn yes() -> bool {
    true
}

impl Default for CalendarSettings {
    fn default() -> Self {
        CalendarSettings {
            time_zone: None,
            working_days: DEFAULT_WORKING_DAYS.to_vec(),
            opens: "09:00".into(),
            closes: "18:00".into(),
            holidays: Vec::new(),
            national_holidays: true,
            country: None,
            working_holidays: Vec::new(),
        }
    }
}

const DEFAULT_WORKING_DAYS: [Weekday; 5] =
    [Weekday::Monday, Weekday::Tuesday, Weekday::Wednesday, Weekday::Thursday, Weekday::Friday];

/// Why calendar settings were refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CalendarError {
    /// The time zone id is not in the time zone database.
    UnknownTimeZone(String),
    /// A time is not `HH:MM`.
    BadTime(String),
    /// A holiday is not `YYYY-MM-DD`.
    BadDate(String),
    /// The business would close before (or when) it opens.
    ClosesBeforeOpening,
    /// No working days: no promise could ever be kept on a business day.
    NoWorkingDays,
    /// The country code is not one whose holidays Skillcase knows.
    UnknownCountry(String),
}

impl std::fmt::Display for CalendarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CalendarError::UnknownTimeZone(id) => write!(f, "unknown time zone {id:?}"),
            CalendarError::BadTime(t) => write!(f, "{t:?} is not a time of day (HH:MM)"),
            CalendarError::BadDate(d) => write!(f, "{d:?} is not a date (YYYY-MM-DD)"),
            CalendarError::ClosesBeforeOpening => {
                write!(f, "the closing time must be after the opening time")
            }
            CalendarError::NoWorkingDays => write!(f, "at least one working day is needed"),
            CalendarError::UnknownCountry(code) => {
                write!(f, "{code:?} is not a country whose national holidays Skillcase knows")
            }
        }
    }
}

impl std::error::Error for CalendarError {}

/// A business calendar: where "tomorrow", "end of day" and "3 business days" are resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Calendar {
    time_zone: TimeZone,
    working_days: [bool; 7],
    opens: Time,
    closes: Time,
    holidays: BTreeSet<Date>,
    country: Option<String>,
}

impl Calendar {
    /// Monday to Friday, 09:00 to 18:00, no holidays, in `time_zone`.
    pub fn new(time_zone: TimeZone) -> Calendar {
        let mut working_days = [false; 7];
        for day in DEFAULT_WORKING_DAYS {
            working_days[index(day)] = true;
        }
        Calendar {
            time_zone,
            working_days,
            opens: Time::constant(9, 0, 0, 0),
            closes: Time::constant(18, 0, 0, 0),
            holidays: BTreeSet::new(),
            country: None,
        }
    }

    /// The workspace default: the system's zone, Monday to Friday, 09:00 to 18:00, and the national
    /// holidays of the zone's country (none when the zone belongs to no known country).
    pub fn workspace_default() -> Calendar {
        Calendar::from_settings(&CalendarSettings::default()).unwrap_or_else(|_| Calendar::system())
    }

    /// The default calendar in the system's time zone, without holidays.
    pub fn system() -> Calendar {
        Calendar::new(TimeZone::system())
    }

    /// The default calendar in the zone named by an IANA id (`America/Sao_Paulo`), without holidays.
    pub fn named(iana_id: &str) -> Result<Calendar, CalendarError> {
        let zone = TimeZone::get(iana_id).map_err(|_| CalendarError::UnknownTimeZone(iana_id.to_string()))?;
        Ok(Calendar::new(zone))
    }

    /// The calendar the settings describe, or why they cannot be used.
    pub fn from_settings(settings: &CalendarSettings) -> Result<Calendar, CalendarError> {
        let calendar = match &settings.time_zone {
            Some(id) => Calendar::named(id)?,
            None => Calendar::system(),
        };
        let holidays = parse_dates(&settings.holidays)?;
        let working = parse_dates(&settings.working_holidays)?;
        let country = match settings.country.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
            Some(code) => {
                let code = code.to_ascii_uppercase();
                if !is_known_country(&code) {
                    return Err(CalendarError::UnknownCountry(code));
                }
                Some(code)
            }
            None => calendar.time_zone.iana_name().and_then(country_of_zone).map(str::to_string),
        };
        let national = match (&country, settings.national_holidays) {
            (Some(code), true) => national_dates(code),
            _ => &[],
        };
        let mut calendar = calendar
            .with_working_days(&settings.working_days)?
            .with_hours(parse_time(&settings.opens)?, parse_time(&settings.closes)?)?
            .with_holidays(national.iter().copied().filter(|d| !working.contains(d)))
            .with_holidays(holidays);
        calendar.country = country;
        Ok(calendar)
    }

    /// The country whose conventions the calendar follows (its national holidays, and the order of
    /// a numeric date's parts: month first in the United States), when known.
    pub fn country(&self) -> Option<&str> {
        self.country.as_deref()
    }

    /// The same calendar working on `days` instead.
    pub fn with_working_days(mut self, days: &[Weekday]) -> Result<Calendar, CalendarError> {
        if days.is_empty() {
            return Err(CalendarError::NoWorkingDays);
        }
        self.working_days = [false; 7];
        for &day in days {
            self.working_days[index(day)] = true;
        }
        Ok(self)
    }

    /// The same calendar open from `opens` to `closes`.
    pub fn with_hours(mut self, opens: Time, closes: Time) -> Result<Calendar, CalendarError> {
        if closes <= opens {
            return Err(CalendarError::ClosesBeforeOpening);
        }
        self.opens = opens;
        self.closes = closes;
        Ok(self)
    }

    /// The same calendar with these days off as well.
    pub fn with_holidays(mut self, holidays: impl IntoIterator<Item = Date>) -> Calendar {
        self.holidays.extend(holidays);
        self
    }

    /// The zone every due time is expressed in.
    pub fn time_zone(&self) -> &TimeZone {
        &self.time_zone
    }

    /// When the business opens.
    pub fn opens(&self) -> Time {
        self.opens
    }

    /// When the business closes.
    pub fn closes(&self) -> Time {
        self.closes
    }

    /// A working day that is not a holiday.
    pub fn is_business_day(&self, date: Date) -> bool {
        self.working_days[index(date.weekday().into())] && !self.holidays.contains(&date)
    }

    /// The first business day strictly after `date`.
    pub fn next_business_day(&self, date: Date) -> Option<Date> {
        self.nth_business_day_after(date, 1)
    }

    /// The `n`th business day strictly after `date` (`n = 0` is `date` itself).
    pub fn nth_business_day_after(&self, date: Date, n: u32) -> Option<Date> {
        let mut day = date;
        let mut left = n;
        let mut steps = 0;
        while left > 0 {
            day = day.tomorrow().ok()?;
            steps += 1;
            if steps > SEARCH_DAYS + i32::try_from(n).ok()?.saturating_mul(7) {
                return None;
            }
            if self.is_business_day(day) {
                left -= 1;
            }
        }
        Some(day)
    }

    /// The last business day in `from..=to`, if any.
    pub fn last_business_day_in(&self, from: Date, to: Date) -> Option<Date> {
        let mut day = to;
        while day >= from {
            if self.is_business_day(day) {
                return Some(day);
            }
            day = day.yesterday().ok()?;
        }
        None
    }

    /// The `n`th (from 1) business day in `from..=to`, or the last one when there are fewer.
    pub fn nth_business_day_in(&self, from: Date, to: Date, n: u32) -> Option<Date> {
        let mut day = from;
        let mut seen = 0;
        let mut last = None;
        while day <= to {
            if self.is_business_day(day) {
                seen += 1;
                last = Some(day);
                if seen == n {
                    return last;
                }
            }
            day = day.tomorrow().ok()?;
        }
        last
    }

    /// `time` on `date` in the calendar's zone (a time skipped by a clock change moves forward).
    pub fn moment(&self, date: Date, time: Time) -> Option<ZonedDateTime> {
        DateTime::from_parts(date, time).to_zoned_datetime(self.time_zone.clone()).ok()
    }

    /// The close of business on `date`.
    pub fn close_on(&self, date: Date) -> Option<ZonedDateTime> {
        self.moment(date, self.closes)
    }

    /// `now` plus `duration` of business hours: time outside opening hours, on weekends and on
    /// holidays does not count. From 17:30 on a Friday, one business hour is Monday 09:30.
    pub fn add_business_time(&self, now: &ZonedDateTime, duration: SignedDuration) -> Option<ZonedDateTime> {
        let now = now.with_time_zone(self.time_zone.clone());
        let mut left = duration;
        let mut date = now.date();
        for _ in 0..SEARCH_DAYS {
            if self.is_business_day(date) {
                let open = self.moment(date, self.opens)?;
                let close = self.moment(date, self.closes)?;
                let start = if now > open { now.clone() } else { open };
                if start < close {
                    let available = start.duration_until(&close);
                    if available >= left {
                        return start.checked_add(left).ok();
                    }
                    left -= available;
                }
            }
            date = date.tomorrow().ok()?;
        }
        None
    }

    /// The business hours between `from` and `to` (zero when `to` is not later): the inverse of
    /// [`Calendar::add_business_time`], so a clock paused over a weekend resumes with the
    /// business time it lost, and no more.
    pub fn business_time_between(&self, from: &ZonedDateTime, to: &ZonedDateTime) -> SignedDuration {
        let from = from.with_time_zone(self.time_zone.clone());
        let to = to.with_time_zone(self.time_zone.clone());
        let mut total = SignedDuration::ZERO;
        let mut date = from.date();
        while date <= to.date() {
            if self.is_business_day(date) {
                if let (Some(open), Some(close)) =
                    (self.moment(date, self.opens), self.moment(date, self.closes))
                {
                    let start = if from > open { from.clone() } else { open };
                    let end = if to < close { to.clone() } else { close };
                    if start < end {
                        total += start.duration_until(&end);
                    }
                }
            }
            let Ok(next) = date.tomorrow() else { break };
            date = next;
        }
        total
    }
}

fn index(day: Weekday) -> usize {
    match day {
        Weekday::Monday => 0,
        Weekday::Tuesday => 1,
        Weekday::Wednesday => 2,
        Weekday::Thursday => 3,
        Weekday::Friday => 4,
        Weekday::Saturday => 5,
        Weekday::Sunday => 6,
    }
}

fn parse_dates(dates: &[String]) -> Result<Vec<Date>, CalendarError> {
    dates.iter().map(|d| d.trim().parse::<Date>().map_err(|_| CalendarError::BadDate(d.clone()))).collect()
}

fn parse_time(text: &str) -> Result<Time, CalendarError> {
    let bad = || CalendarError::BadTime(text.to_string());
    let (h, m) = text.trim().split_once(':').ok_or_else(bad)?;
    let hour: i8 = h.parse().map_err(|_| bad())?;
    let minute: i8 = m.parse().map_err(|_| bad())?;
    Time::new(hour, minute, 0, 0).map_err(|_| bad())
}
