//! Business time counted between two moments ([`Calendar::business_time_between`]), the way a
//! response-time clock paused while the case waits on the customer gets its time back. The
//! calendar is the default one (Monday to Friday, 09:00–18:00) in São Paulo.

use jiff::civil::date;
use jiff::{SignedDuration, ZonedDateTime};

use super::*;

fn sao_paulo() -> Calendar {
    Calendar::named("America/Sao_Paulo").expect("the time zone database has America/Sao_Paulo")
}

fn local(calendar: &Calendar, when: &str) -> ZonedDateTime {
    let civil: jiff::civil::DateTime = when.parse().expect("a test date-time");
    civil.to_zoned_datetime(calendar.time_zone().clone()).expect("a time that exists")
}

fn between(calendar: &Calendar, from: &str, to: &str) -> SignedDuration {
    calendar.business_time_between(&local(calendar, from), &local(calendar, to))
}

#[test]
fn within_one_working_day_it_is_the_plain_difference() {
    assert_eq!(between(&sao_paulo(), "2025-03-12 10:00", "2025-03-12 12:30"), SignedDuration::from_mins(150));
}

#[test]
fn from_friday_afternoon_to_monday_morning_the_weekend_does_not_count() {
    let friday_17h_to_monday_10h = between(&sao_paulo(), "2025-03-14 17:00", "2025-03-17 10:00");
    assert_eq!(friday_17h_to_monday_10h, SignedDuration::from_hours(2));
}

#[test]
fn a_holiday_does_not_count() {
    let calendar = sao_paulo().with_holidays([date(2025, 3, 13)]);
    let wednesday_17h_to_friday_10h = between(&calendar, "2025-03-12 17:00", "2025-03-14 10:00");
    assert_eq!(wednesday_17h_to_friday_10h, SignedDuration::from_hours(2));
}

#[test]
fn a_night_outside_opening_hours_counts_nothing() {
    assert_eq!(between(&sao_paulo(), "2025-03-12 19:00", "2025-03-13 08:00"), SignedDuration::ZERO);
}

#[test]
fn an_end_before_the_start_counts_nothing() {
    assert_eq!(between(&sao_paulo(), "2025-03-12 12:00", "2025-03-12 10:00"), SignedDuration::ZERO);
}

#[test]
fn it_undoes_adding_business_time() {
    let calendar = sao_paulo();
    let start = local(&calendar, "2025-03-14 16:00");
    let later = calendar.add_business_time(&start, SignedDuration::from_hours(5)).unwrap();
    assert_eq!(calendar.business_time_between(&start, &later), SignedDuration::from_hours(5));
}
