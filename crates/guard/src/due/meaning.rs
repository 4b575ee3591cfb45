//! What a time expression says, before it is pinned to a clock: the part of the ledger that can
//! be read from the words alone, so it can be shown, stored and tested without a "now".

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A time expression found in a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardTimeExpression")]
pub struct TimeExpression {
    /// Offset of the first character, counted in Unicode scalar values (what JavaScript's
    /// `Array.from(text)` indexes), so the UI can highlight it in the original message.
    pub start: usize,
    /// Offset just past the last character, in the same unit.
    pub end: usize,
    /// The words as the agent wrote them ("amanhã cedo", "by 5 p.m."), for quoting.
    pub text: String,
    /// What the words mean.
    pub meaning: Meaning,
}

/// What a time expression means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export, rename = "GuardTimeMeaning")]
pub enum Meaning {
    /// A stretch of time from now: "in 2 hours", "within 3 business days", "em até 48 horas".
    Within {
        /// How many units.
        amount: u32,
        /// Which unit.
        unit: Unit,
    },
    /// Soon, with no number: "asap", "shortly", "daqui a pouco", "já já".
    Soon,
    /// A day and a moment in it: "tomorrow morning", "segunda às 10h", "by 5pm" (today
    /// implied), "no fim do dia" (today's close).
    Day {
        /// Which day.
        day: Day,
        /// When in that day.
        time: DayTime,
    },
    /// A week: "this week", "semana que vem", "early next week".
    Week {
        /// This week or the next.
        week: Relative,
        /// "early next week", "no começo da semana que vem": its start rather than its end.
        early: bool,
    },
    /// A month: "by the end of the month", "mês que vem".
    Month {
        /// This month or the next.
        month: Relative,
    },
    /// A named day of the year: "antes do Natal", "after Thanksgiving", "no Réveillon", "by the
    /// end of the year".
    Named {
        /// Which day.
        day: NamedDay,
        /// On it, before it or after it.
        relation: Relation,
    },
}

/// A day of the year people name instead of dating: holidays, their eves, the end of the year.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "GuardNamedDay")]
pub enum NamedDay {
    /// 24 December: "Christmas Eve", "véspera de Natal".
    ChristmasEve,
    /// 25 December: "Christmas", "Natal"; also "the holidays", "as festas de fim de ano".
    Christmas,
    /// 31 December: "New Year's Eve", "Réveillon".
    NewYearsEve,
    /// 1 January: "New Year", "Ano Novo".
    NewYear,
    /// The last day of the year: "the end of the year", "o fim do ano".
    YearEnd,
    /// The fourth Thursday of November (United States).
    Thanksgiving,
    /// The Friday after Thanksgiving.
    BlackFriday,
    /// Carnival's Monday and Tuesday, 48 and 47 days before Easter.
    Carnival,
    /// Easter Sunday, "Páscoa".
    Easter,
    /// The Friday before Easter, "Sexta-feira Santa".
    GoodFriday,
}

/// How a promise stands to a named day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "GuardRelation")]
pub enum Relation {
    /// "on Christmas", "no Natal": that day, taken at its word.
    On,
    /// "before Christmas", "até o Ano Novo", "by the end of the year": the last business day before
    /// it (the end of the year itself being a day to work).
    Before,
    /// "after Christmas", "depois do Carnaval": the first business day after it.
    After,
}

/// The unit of a [`Meaning::Within`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "GuardTimeUnit")]
pub enum Unit {
    /// Wall-clock minutes.
    Minutes,
    /// Wall-clock hours ("within 48 hours" is two days and nights, not business hours).
    Hours,
    /// Calendar days ("em até 10 dias", "dias corridos").
    Days,
    /// Business days of the workspace calendar ("dias úteis", "working days").
    BusinessDays,
    /// Calendar weeks.
    Weeks,
    /// Calendar months.
    Months,
}

/// This one or the next one (of weeks and months).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "GuardTimeRelative")]
pub enum Relative {
    /// "this week", "esse mês".
    This,
    /// "next week", "mês que vem".
    Next,
}

/// A day named by a time expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export, rename = "GuardTimeDay")]
pub enum Day {
    /// "today", "hoje", "hj", or no day at all ("by 5pm", "this afternoon").
    Today,
    /// "tomorrow", "amanhã", "2moro", "tmrw".
    Tomorrow,
    /// "the day after tomorrow", "depois de amanhã".
    DayAfterTomorrow,
    /// The next morning the business is open: "first thing".
    NextBusinessDay,
    /// A day of the week: "segunda", "on Monday", "até sexta", "next tuesday", "5ª-feira".
    Weekday {
        /// Which day.
        weekday: Weekday,
        /// Which week it falls in.
        week: WeekOf,
    },
    /// A day of the month without a month: "dia 15", "by the 28th".
    DayOfMonth {
        /// 1 to 31.
        day: u8,
    },
    /// A numeric date whose parts could be either day or month ("2/3", "10/12"): day first, but
    /// month first in a calendar of the United States.
    NumericDate {
        /// The first number written, 1 to 12.
        first: u8,
        /// The second number written, 1 to 12.
        second: u8,
        /// When written ("2/3/2027").
        year: Option<i16>,
    },
    /// A calendar date: "15/12", "Dec 15", "14 de novembro".
    Date {
        /// 1 to 12.
        month: u8,
        /// 1 to 31.
        day: u8,
        /// When written ("15/12/2025").
        year: Option<i16>,
    },
}

/// Which week a named weekday falls in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "GuardWeekOf")]
pub enum WeekOf {
    /// "on Friday", "na sexta", "the coming Friday", "na próxima sexta": the next such day, a week
    /// ahead when said on that day.
    Coming,
    /// "this Friday", "nesta sexta": this week's (Monday to Sunday); today when said on that day;
    /// the next such day once this week's has gone by.
    This,
    /// "next Friday", "sexta que vem", "Friday next week", "sexta da semana que vem": next week's.
    Next,
}

/// When in a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export, rename = "GuardTimeOfDay")]
pub enum DayTime {
    /// The close of business: the default when only a day is named, and "end of day", "EOD",
    /// "close of business", "fim do expediente".
    Close,
    /// "morning", "cedo", "first thing": until noon.
    Morning,
    /// "afternoon", "à tarde", "after lunch": until 18:00, or the close when that is earlier.
    Afternoon,
    /// "evening", "tonight", "à noite": until 22:00.
    Evening,
    /// A clock time: "at 5pm", "até as 12h", "by noon"; for a range ("between 10 and 12") its end.
    At {
        /// 0 to 23.
        hour: u8,
        /// 0 to 59.
        minute: u8,
    },
    /// From a clock time on: "a partir das 14h", "after 2pm"; kept until the close, or an hour
    /// after that time when it is later than the close.
    After {
        /// 0 to 23.
        hour: u8,
        /// 0 to 59.
        minute: u8,
    },
}

/// A day of the week (its own type so it serialises for the UI).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "GuardWeekday")]
pub enum Weekday {
    /// Segunda-feira.
    Monday,
    /// Terça-feira.
    Tuesday,
    /// Quarta-feira.
    Wednesday,
    /// Quinta-feira.
    Thursday,
    /// Sexta-feira.
    Friday,
    /// Sábado.
    Saturday,
    /// Domingo.
    Sunday,
}

impl From<Weekday> for jiff::civil::Weekday {
    fn from(day: Weekday) -> Self {
        match day {
            Weekday::Monday => jiff::civil::Weekday::Monday,
            Weekday::Tuesday => jiff::civil::Weekday::Tuesday,
            Weekday::Wednesday => jiff::civil::Weekday::Wednesday,
            Weekday::Thursday => jiff::civil::Weekday::Thursday,
            Weekday::Friday => jiff::civil::Weekday::Friday,
            Weekday::Saturday => jiff::civil::Weekday::Saturday,
            Weekday::Sunday => jiff::civil::Weekday::Sunday,
        }
    }
}

impl From<jiff::civil::Weekday> for Weekday {
    fn from(day: jiff::civil::Weekday) -> Self {
        match day {
            jiff::civil::Weekday::Monday => Weekday::Monday,
            jiff::civil::Weekday::Tuesday => Weekday::Tuesday,
            jiff::civil::Weekday::Wednesday => Weekday::Wednesday,
            jiff::civil::Weekday::Thursday => Weekday::Thursday,
            jiff::civil::Weekday::Friday => Weekday::Friday,
            jiff::civil::Weekday::Saturday => Weekday::Saturday,
            jiff::civil::Weekday::Sunday => Weekday::Sunday,
        }
    }
}
