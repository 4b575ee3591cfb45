//! The dates of the days people name instead of dating ("Christmas", "Carnaval", "Thanksgiving").

use jiff::civil::{Date, Weekday};
use jiff::ToSpan;

use super::meaning::NamedDay;

/// The first and last day of `day` in `year` (Carnival is its Monday and Tuesday; every other
/// named day is one day).
pub(crate) fn dates(day: NamedDay, year: i16) -> Option<(Date, Date)> {
    let one = |date: Date| Some((date, date));
    match day {
        NamedDay::ChristmasEve => one(Date::new(year, 12, 24).ok()?),
        NamedDay::Christmas => one(Date::new(year, 12, 25).ok()?),
        NamedDay::NewYearsEve | NamedDay::YearEnd => one(Date::new(year, 12, 31).ok()?),
        NamedDay::NewYear => one(Date::new(year, 1, 1).ok()?),
        NamedDay::Thanksgiving => one(thanksgiving(year)?),
        NamedDay::BlackFriday => one(thanksgiving(year)?.tomorrow().ok()?),
        NamedDay::Easter => one(easter(year)?),
        NamedDay::GoodFriday => one(easter(year)?.checked_sub(2.days()).ok()?),
        NamedDay::Carnival => {
            let easter = easter(year)?;
            Some((easter.checked_sub(48.days()).ok()?, easter.checked_sub(47.days()).ok()?))
        }
    }
}

/// The fourth Thursday of November.
fn thanksgiving(year: i16) -> Option<Date> {
    Date::new(year, 11, 1).ok()?.nth_weekday_of_month(4, Weekday::Thursday).ok()
}

/// Easter Sunday in the Gregorian calendar (the anonymous algorithm of 1876, exact for every year
/// jiff represents).
fn easter(year: i16) -> Option<Date> {
    let y = i32::from(year);
    let a = y % 19;
    let b = y / 100;
    let c = y % 100;
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    Date::new(year, i8::try_from(month).ok()?, i8::try_from(day).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn easter_falls_on_its_known_sundays() {
        assert_eq!(easter(2026), Some(date(2026, 4, 5)));
        assert_eq!(easter(2027), Some(date(2027, 3, 28)));
        assert_eq!(easter(2038), Some(date(2038, 4, 25)));
    }

    #[test]
    fn carnival_2027_is_the_monday_and_tuesday_47_days_before_easter() {
        assert_eq!(dates(NamedDay::Carnival, 2027), Some((date(2027, 2, 8), date(2027, 2, 9))));
    }

    #[test]
    fn thanksgiving_is_the_fourth_thursday_of_november_and_black_friday_the_day_after() {
        assert_eq!(dates(NamedDay::Thanksgiving, 2026), Some((date(2026, 11, 26), date(2026, 11, 26))));
        assert_eq!(dates(NamedDay::BlackFriday, 2027), Some((date(2027, 11, 26), date(2027, 11, 26))));
    }
}
