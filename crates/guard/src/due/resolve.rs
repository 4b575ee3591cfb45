//! From what an expression means to the latest moment its promise is still kept, on the
//! workspace calendar. The conventions are listed in the module doc of [`super`].

use jiff::civil::{Date, Time};
use jiff::{SignedDuration, ToSpan, ZonedDateTime};

use super::calendar::Calendar;
use super::meaning::{Day, DayTime, Meaning, NamedDay, Relation, Relative, Unit, WeekOf};
use super::named;

/// The latest moment a promise with this meaning is still kept, said at `now`.
pub(crate) fn resolve_meaning(
    meaning: &Meaning,
    now: &ZonedDateTime,
    calendar: &Calendar,
) -> Option<ZonedDateTime> {
    let now = now.with_time_zone(calendar.time_zone().clone());
    let today = now.date();
    match *meaning {
        Meaning::Within { amount, unit } => {
            let amount = i64::from(amount);
            match unit {
                Unit::Minutes => now.checked_add(SignedDuration::from_mins(amount)).ok(),
                Unit::Hours => now.checked_add(SignedDuration::from_hours(amount)).ok(),
                Unit::Days => calendar.close_on(today.checked_add(amount.days()).ok()?),
                Unit::Weeks => calendar.close_on(today.checked_add((amount * 7).days()).ok()?),
                Unit::Months => calendar.close_on(today.checked_add(amount.months()).ok()?),
                Unit::BusinessDays => {
                    calendar.close_on(calendar.nth_business_day_after(today, u32::try_from(amount).ok()?)?)
                }
            }
        }
        Meaning::Soon => calendar.add_business_time(&now, SignedDuration::from_hours(1)),
        Meaning::Day { day, time } => resolve_day(day, time, &now, calendar),
        Meaning::Week { week, early } => {
            let monday = today.checked_sub(i64::from(today.weekday().to_monday_zero_offset()).days()).ok()?;
            let monday = match week {
                Relative::This => monday,
                Relative::Next => monday.checked_add(7.days()).ok()?,
            };
            let sunday = monday.checked_add(6.days()).ok()?;
            let day = if early {
                calendar.nth_business_day_in(monday, sunday, 2)
            } else {
                calendar.last_business_day_in(monday, sunday)
            };
            not_past(day.and_then(|d| calendar.close_on(d)), &now, calendar)
        }
        Meaning::Month { month } => {
            let first = today.first_of_month();
            let first = match month {
                Relative::This => first,
                Relative::Next => first.checked_add(1.month()).ok()?,
            };
            let day = calendar.last_business_day_in(first, first.last_of_month());
            not_past(day.and_then(|d| calendar.close_on(d)), &now, calendar)
        }
        Meaning::Named { day, relation } => resolve_named(day, relation, &now, calendar),
    }
}

/// The close of the day a promise about a named day falls due: the day itself ("no Natal"), the
/// last business day before it ("antes do Natal"; the end of the year is itself a day to work) or
/// the first business day after it; this year's, or next year's once this year's has gone by.
fn resolve_named(
    day: NamedDay,
    relation: Relation,
    now: &ZonedDateTime,
    calendar: &Calendar,
) -> Option<ZonedDateTime> {
    let today = now.date();
    for year in today.year()..=today.year().saturating_add(1) {
        let (first, last) = named::dates(day, year)?;
        let date = match relation {
            Relation::On => Some(first),
            Relation::Before if day == NamedDay::YearEnd => {
                calendar.last_business_day_in(first.checked_sub(31.days()).ok()?, first)
            }
            Relation::Before => {
                calendar.last_business_day_in(first.checked_sub(31.days()).ok()?, first.yesterday().ok()?)
            }
            Relation::After => calendar.next_business_day(last),
        };
        if let Some(moment) = date.and_then(|d| calendar.close_on(d)).filter(|m| m > now) {
            return Some(moment);
        }
    }
    None
}

/// A moment that has already gone by moves to the next business day's close (asked on a
/// Saturday, "this week" is kept until Monday's close).
fn not_past(
    moment: Option<ZonedDateTime>,
    now: &ZonedDateTime,
    calendar: &Calendar,
) -> Option<ZonedDateTime> {
    match moment {
        Some(m) if m > *now => Some(m),
        _ => calendar.close_on(calendar.next_business_day(now.date())?),
    }
}

fn resolve_day(day: Day, time: DayTime, now: &ZonedDateTime, calendar: &Calendar) -> Option<ZonedDateTime> {
    let today = now.date();
    match day {
        Day::Today => {
            if time == DayTime::Close {
                // End of day: today's close, or the next business day's when today is closed or
                // over.
                let close = calendar.close_on(today)?;
                if calendar.is_business_day(today) && close > *now {
                    return Some(close);
                }
                return calendar.close_on(calendar.next_business_day(today)?);
            }
            let at = at(calendar, today, time)?;
            if at > *now {
                Some(at)
            } else {
                self::at(calendar, today.tomorrow().ok()?, time)
            }
        }
        Day::Tomorrow => at(calendar, today.tomorrow().ok()?, time),
        Day::DayAfterTomorrow => at(calendar, today.checked_add(2.days()).ok()?, time),
        Day::NextBusinessDay => {
            let opens = calendar.moment(today, calendar.opens())?;
            let date = if calendar.is_business_day(today) && *now < opens {
                today
            } else {
                calendar.next_business_day(today)?
            };
            at(calendar, date, time)
        }
        Day::Weekday { weekday, week } => {
            let target: jiff::civil::Weekday = weekday.into();
            let monday = today.checked_sub(i64::from(today.weekday().to_monday_zero_offset()).days()).ok()?;
            let this_weeks = monday.checked_add(i64::from(target.to_monday_zero_offset()).days()).ok()?;
            let coming = || {
                let ahead = match today.weekday().until(target) {
                    0 => 7,
                    n => n,
                };
                today.checked_add(i64::from(ahead).days()).ok()
            };
            let date = match week {
                WeekOf::Next => this_weeks.checked_add(7.days()).ok()?,
                WeekOf::This if this_weeks >= today => this_weeks,
                WeekOf::This | WeekOf::Coming => coming()?,
            };
            at(calendar, date, time)
        }
        Day::DayOfMonth { day } => {
            // This month's, or the next month that has that day, once it has gone by.
            let mut first = today.first_of_month();
            for _ in 0..13 {
                if let Ok(date) = Date::new(first.year(), first.month(), i8::try_from(day).ok()?) {
                    if let Some(moment) = at(calendar, date, time).filter(|m| m > now) {
                        return Some(moment);
                    }
                }
                first = first.checked_add(1.month()).ok()?;
            }
            None
        }
        Day::NumericDate { first, second, year } => {
            let (month, day) =
                if calendar.country() == Some("US") { (first, second) } else { (second, first) };
            resolve_day(Day::Date { month, day, year }, time, now, calendar)
        }
        Day::Date { month, day, year } => {
            let (month, day) = (i8::try_from(month).ok()?, i8::try_from(day).ok()?);
            if let Some(year) = year {
                return at(calendar, Date::new(year, month, day).ok()?, time);
            }
            // This year's, or the next year that has it (29 February), once it has gone by.
            for year in today.year()..today.year().saturating_add(9) {
                if let Ok(date) = Date::new(year, month, day) {
                    if let Some(moment) = at(calendar, date, time).filter(|m| m > now) {
                        return Some(moment);
                    }
                }
            }
            None
        }
    }
}

/// The moment of `time` on `date`.
fn at(calendar: &Calendar, date: Date, time: DayTime) -> Option<ZonedDateTime> {
    let clock =
        |hour: u8, minute: u8| Time::new(i8::try_from(hour).ok()?, i8::try_from(minute).ok()?, 0, 0).ok();
    let noon = Time::constant(12, 0, 0, 0);
    let six = Time::constant(18, 0, 0, 0);
    let when = match time {
        DayTime::Close => calendar.closes(),
        DayTime::Morning => noon,
        DayTime::Afternoon => {
            let closes = calendar.closes();
            if closes > noon && closes < six {
                closes
            } else {
                six
            }
        }
        DayTime::Evening => Time::constant(22, 0, 0, 0),
        DayTime::At { hour, minute } => clock(hour, minute)?,
        DayTime::After { hour, minute } => {
            let from = clock(hour, minute)?;
            let hour_later = from.checked_add(SignedDuration::from_hours(1)).unwrap_or(Time::MAX);
            let hour_later = if hour_later < from { Time::MAX } else { hour_later };
            if calendar.closes() > from {
                calendar.closes()
            } else {
                hour_later
            }
        }
    };
    calendar.moment(date, when)
}
