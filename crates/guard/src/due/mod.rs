//! When is a promise due? (the promise ledger, SPEC D1)
//!
//! When a message promising human follow-up passes the guardrail, the case records the promise
//! and, if the text says when, the moment it falls due, so case detail and the inbox can show
//! "Promised to the customer: … · due in 2 h / overdue 1 h". This module does the *when*:
//! [`find`] reads every time expression in a message (Brazilian Portuguese and English, any case,
//! with or without accents, chat spelling included: "amanha", "2moro", "hj", "seg", "eod",
//! "asap", "até as 12h", "by 5pm", "in 2 hrs", "daqui a pouco", "semana que vem"…), and
//! [`resolve`] turns one into the latest moment the promise is still kept, on the workspace's
//! [`Calendar`] (time zone, working days, opening hours, holidays).
//!
//! # Conventions
//!
//! The latest moment the promise is still kept, with the calendar's defaults (Monday to Friday,
//! 09:00–18:00, "close" below means the closing time):
//!
//! | said | due |
//! |---|---|
//! | "amanhã", "tomorrow" | tomorrow's close |
//! | "amanhã cedo", "tomorrow morning", "first thing tomorrow" | tomorrow 12:00 |
//! | "hoje à tarde", "this afternoon", "after lunch" | today 18:00, or the close when it is between noon and 18:00 |
//! | "hoje à noite", "tonight", "this evening" | today 22:00 |
//! | "até as 12h", "by noon", "by 5pm" | that time today, or tomorrow if it has already gone by |
//! | "between 10 and 12", "entre 14h e 18h" | the end of the range |
//! | "a partir das 14h", "after 2pm" | that day's close (an hour after that time when it is later than the close) |
//! | "in 2 hours", "em 30 min", "within 48 hours" | now plus that much wall-clock time |
//! | "within 3 business days", "em até 3 dias úteis" | the close of the 3rd business day after today |
//! | "em até 10 dias", "within 2 weeks" | the close of the 10th (14th) calendar day after today |
//! | "segunda", "on Monday", "até sexta", "5ª-feira", "sxta", "na próxima sexta", "the coming Friday" | the next such day (a week ahead when said on that day), at its close |
//! | "this Friday", "nesta sexta" | this week's (Monday to Sunday), today when said on that day, the next one once it has gone by |
//! | "next Tuesday", "sexta que vem", "Friday next week", "sexta da semana que vem" | the Tuesday (Friday) of next week, at its close |
//! | "dia 15", "15/12", "Dec 15", "on the 15th" | the next such date, at its close; "2/3" is day first, month first on a calendar of the United States; a date beside a weekday wins |
//! | "depois de amanhã", "the day after tomorrow" | the close two days ahead |
//! | "no próximo dia útil", "on the next business day" | the close of the first business day after today |
//! | "antes do Natal", "before Christmas", "até o Ano Novo" / "no Natal" / "depois do Carnaval" | the close of the last business day before it / of the day itself / of the first business day after it |
//! | "até o fim do ano", "by the end of the year" | the close of the last business day of the year |
//! | "by end of day", "EOD", "no fim do dia", "today", "hoje", "ainda hoje" | today's close; the next business day's close when asked after the close or on a day off |
//! | "later", "later today", "mais tarde" | the same as end of day |
//! | "this week", "ainda essa semana" | the close of the last business day of this week (Monday to Sunday) |
//! | "next week", "semana que vem" | the close of the last business day of next week |
//! | "early next week" | the close of the second business day of next week |
//! | "by the end of the month", "mês que vem" | the close of the last business day of this (next) month |
//! | "asap", "daqui a pouco", "shortly", "já já", "em breve" | now plus one business hour (opening hours only: from 17:30 on a Friday, Monday 09:30) |
//! | "first thing" (no day) | noon of the next morning the business is open |
//!
//! A named day is taken at its word: "tomorrow" said on a Friday is Saturday at the closing time,
//! even when Saturday is not a working day — that is what the customer was told. Only the
//! open-ended phrases (end of day, this week, this month) move to a business day when their
//! moment has passed. A bare hour is read in working hours ("by 4" is 16:00, "at 10" is 10:00).
//! "Before Friday" is read as "by Friday", but "before Christmas" as the last business day before
//! it: a business does not work on the holiday. Expressions tied to an event ("when you arrive",
//! "na véspera") are not found: they have no clock time. [`due_for`] picks, among several times,
//! the one beside the promise's verb, leaving out opening hours and days something already
//! happened. Measured on held-out promise sentences by `eval-due` (figures in docs/due-times.md).
//!
//! # Measured on the labelled corpus
//!
//! On `tests/data/guard/corpus/` (promise rows whose `due` column holds the expression, copied
//! from the text), see `corpus_tests.rs`; the floors there are these figures rounded down:
//!
//! | | en | pt-BR |
//! |---|---|---|
//! | promises with a time | 574 | 609 |
//! | a found span equals the annotated one | 522 (0.909) | 589 (0.967) |
//! | a found span overlaps it | 543 (0.946) | 594 (0.975) |
//! | [`due_near`] picks exactly it (the `actor` column standing in for the detector's evidence) | 501 (0.873) | 562 (0.923) |
//! | [`due`] (the first expression) picks exactly it | 467 (0.814) | 538 (0.883) |
//! | promises without a time | 506 | 471 |
//! | something is found anyway (false finds) | 71 (0.140) | 48 (0.102) |
//!
//! Most misses are times tied to an event, which this module does not read ("before you
//! arrive", "the night before", "na véspera", "na próxima visita"); most false finds are real
//! times that are not the promise's (when the order shipped, "this month"'s bill, "hoje" in a
//! greeting) or ones the annotators left out ("straight away"). The corpus was used to tune the
//! rules, so these are development figures; the blind split was not read.
//!
//! # Words that are also other words
//!
//! Portuguese weekdays double as ordinals ("segunda via", "quinta parcela"), some abbreviations
//! are words ("sat", "sun", "sex", "ter"), a bare number is only an hour after "by", "at",
//! "até"…, parts of the day are not times in greetings ("boa tarde", "good morning"), and
//! "tarde" alone is "late". The rules for each are in `parse.rs`.

mod calendar;
pub mod holidays;
mod meaning;
mod named;
mod parse;
mod resolve;
mod text;

#[cfg(test)]
mod business_time_tests;
#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod expressions_tests;
#[cfg(test)]
mod find_tests;
#[cfg(test)]
mod resolve_tests;

use jiff::ZonedDateTime;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use calendar::{Calendar, CalendarError, CalendarSettings};
pub use meaning::{
    Day, DayTime, Meaning, NamedDay, Relation, Relative, TimeExpression, Unit, WeekOf, Weekday,
};

/// Every time expression in `message`, in the order written, none overlapping; each with its
/// span in characters of `message` and its text as written, so the ledger can quote it.
pub fn find(message: &str) -> Vec<TimeExpression> {
    parse::find(message)
}

/// The latest moment the promise `expression` is still kept, said at `now`, in the calendar's
/// zone; `None` when it cannot be placed on this calendar (a date that never comes, a calendar
/// with no business day within three years).
pub fn resolve(
    expression: &TimeExpression,
    now: &ZonedDateTime,
    calendar: &Calendar,
) -> Option<ZonedDateTime> {
    expression.meaning.resolve(now, calendar)
}

impl Meaning {
    /// The latest moment a promise with this meaning is still kept, said at `now` (see the
    /// module doc for the conventions).
    pub fn resolve(&self, now: &ZonedDateTime, calendar: &Calendar) -> Option<ZonedDateTime> {
        resolve::resolve_meaning(self, now, calendar)
    }
}

/// When a promise is due: what the message said and the moment it means.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export, rename = "GuardDue")]
pub struct Due {
    /// The expression, as written and as understood.
    pub expression: TimeExpression,
    /// The latest moment the promise is still kept, in the workspace zone; serialised as RFC 9557
    /// (`2025-03-14T18:00:00-03:00[America/Sao_Paulo]`: an RFC 3339 time, then the zone).
    #[ts(type = "string")]
    pub at: ZonedDateTime,
}

impl Due {
    /// How the due time stands at `now`, for "due in 2 h" / "overdue 1 h".
    pub fn countdown(&self, now: &ZonedDateTime) -> Countdown {
        countdown(&self.at, now)
    }
}

/// The due time of the promise in `message` when nothing says where the promise is: the first
/// time expression that resolves. Prefer [`due_near`] with the detector's evidence, which picks
/// the promise's own time more often (figures in the module doc).
pub fn due(message: &str, now: &ZonedDateTime, calendar: &Calendar) -> Option<Due> {
    resolved(message, now, calendar).into_iter().next().map(|(expression, at)| Due { expression, at })
}

/// The due time of the promise in `message` whose words are `evidence` (the detector's
/// [`crate::Detection::evidence`]): the time expression in the same sentence as those words and
/// nearest to them, else the first that resolves. A message often holds other times too — when
/// the order shipped, the opening hours, the appointment — and the promise's own is the one
/// beside it (see `corpus_tests.rs` for how often each choice is right).
pub fn due_near(message: &str, evidence: &str, now: &ZonedDateTime, calendar: &Calendar) -> Option<Due> {
    let found = resolved(message, now, calendar);
    let expressions: Vec<TimeExpression> = found.iter().map(|(e, _)| e.clone()).collect();
    let chosen = nearest(&expressions, message, evidence).or(expressions.first())?;
    found.into_iter().find(|(e, _)| e == chosen).map(|(expression, at)| Due { expression, at })
}

/// The due time of the promise the detector found in `message`: the time expression in the same
/// sentence as the promise's action ("te liga", "will mail") and nearest to it, else the one
/// nearest its evidence ([`due_near`]). A sentence often holds two times — "the office closes at
/// noon today, so an adjuster will call you after Thanksgiving" — and the promise's own is the one
/// beside its verb.
pub fn due_for(
    message: &str,
    found: &crate::Detection,
    now: &ZonedDateTime,
    calendar: &Calendar,
) -> Option<Due> {
    let evidence = found.evidence.clone().unwrap_or_else(|| message.trim().to_string());
    let in_evidence = |span: &&crate::Span| {
        message.find(evidence.as_str()).is_some_and(|byte| {
            let start = message[..byte].chars().count();
            span.start >= start && span.end <= start + evidence.chars().count()
        })
    };
    let action = found.spans.iter().filter(|s| s.role == crate::SpanRole::Action).find(in_evidence);
    let Some(action) = action else { return due_near(message, &evidence, now, calendar) };
    let found = resolved(message, now, calendar);
    let expressions: Vec<TimeExpression> = found.iter().map(|(e, _)| e.clone()).collect();
    let chosen = nearest_span(&expressions, message, action.start, action.end)
        .or_else(|| nearest(&expressions, message, &evidence))
        .or(expressions.first())?;
    found.into_iter().find(|(e, _)| e == chosen).map(|(expression, at)| Due { expression, at })
}

/// The expressions that resolve, without the dates that have just gone by when anything else is
/// left: "venceu dia 25 de novembro" said on 1 December resolves to next November, and is the
/// context of the promise, not its time.
fn resolved(message: &str, now: &ZonedDateTime, calendar: &Calendar) -> Vec<(TimeExpression, ZonedDateTime)> {
    let all: Vec<(TimeExpression, ZonedDateTime)> =
        find(message).into_iter().filter_map(|e| resolve(&e, now, calendar).map(|at| (e, at))).collect();
    let gone_by = |(e, at): &(TimeExpression, ZonedDateTime)| {
        let dated = matches!(
            e.meaning,
            Meaning::Day { day: Day::Date { year: None, .. } | Day::NumericDate { year: None, .. }, .. }
        );
        (dated && now.duration_until(at).as_hours() > 300 * 24) || opening_hours(message, e)
    };
    if all.iter().any(|f| !gone_by(f)) {
        all.into_iter().filter(|f| !gone_by(f)).collect()
    } else {
        all
    }
}

/// A time that is the context of a promise rather than its time: when the business opens or
/// closes, or someone is away ("a loja fecha às 18h", "open until 9pm", "out till Monday"), or
/// when something already happened ("foi postada no sábado", "Recebemos as fotos às 18h32",
/// "was generated this morning").
fn opening_hours(message: &str, expression: &TimeExpression) -> bool {
    const HOURS: &[&str] = &[
        "open",
        "opens",
        "reopen",
        "reopens",
        "closes",
        "close",
        "closed",
        "cutoff",
        "fecha",
        "fechamos",
        "abre",
        "abrimos",
        "reabre",
        "reabrimos",
        "funciona",
        "funcionamos",
        "atende",
        "atendemos",
        "plantao",
        "expediente",
        "out",
        "off",
        "recesso",
        "ferias",
        "folga",
        "expires",
        "expired",
        "vence",
        "venceu",
        "quase",
        "almost",
        "aberta",
        "aberto",
        "feriado",
        "holiday",
    ];
    const PAST: &[&str] = &[
        "foi",
        "foram",
        "fomos",
        "deu",
        "chegou",
        "chegaram",
        "esteve",
        "estiveram",
        "comprou",
        "compramos",
        "recebemos",
        "recebeu",
        "recebi",
        "entrou",
        "fez",
        "fizemos",
        "fiz",
        "registrada",
        "registrado",
        "solicitada",
        "solicitado",
        "postada",
        "postado",
        "combinamos",
        "vi",
        "aconteceu",
        "era",
        "eram",
        "ontem",
        "anteontem",
        "desde",
        "was",
        "were",
        "had",
        "did",
        "received",
        "arrived",
        "shipped",
        "posted",
        "placed",
        "ordered",
        "generated",
        "happened",
        "yesterday",
        "since",
        "ago",
    ];
    const FUTURE: &[&str] = &[
        "vai", "vou", "vamos", "vao", "sera", "serao", "ira", "irao", "will", "ll", "going", "gonna", "shall",
    ];
    let before: String = message.chars().take(expression.start).collect();
    let tokens = text::tokenize(&before);
    let words = || tokens.iter().rev().filter(|t| t.kind == text::Kind::Word);
    if words().take(3).any(|t| HOURS.contains(&t.text.as_str())) {
        return true;
    }
    let clause: Vec<&str> = tokens
        .iter()
        .rev()
        .take_while(|t| {
            !matches!(
                t.text.as_str(),
                "." | "!"
                    | "?"
                    | ";"
                    | ":"
                    | ","
                    | "e"
                    | "mas"
                    | "and"
                    | "but"
                    | "so"
                    | "porem"
                    | "entao"
                    | "porque"
                    | "because"
                    | "while"
                    | "enquanto"
            )
        })
        .filter(|t| t.kind == text::Kind::Word)
        .map(|t| t.text.as_str())
        .collect();
    clause.iter().any(|w| PAST.contains(w)) && !clause.iter().any(|w| FUTURE.contains(w))
}

/// The expression in the same sentence as `evidence` and nearest to it, if `evidence` occurs in
/// `message` and its sentence has one.
pub(crate) fn nearest<'a>(
    expressions: &'a [TimeExpression],
    message: &str,
    evidence: &str,
) -> Option<&'a TimeExpression> {
    if evidence.trim().is_empty() {
        return None;
    }
    let byte = message.find(evidence)?;
    let start = message[..byte].chars().count();
    let end = start + evidence.chars().count();
    nearest_span(expressions, message, start, end)
}

/// The expression in the same sentence as the characters `start..end` of `message` and nearest
/// to them.
fn nearest_span<'a>(
    expressions: &'a [TimeExpression],
    message: &str,
    start: usize,
    end: usize,
) -> Option<&'a TimeExpression> {
    let breaks = sentence_breaks(message);
    let sentence = |at: usize| breaks.iter().filter(|&&b| b < at).count();
    let own = sentence(start);
    // A promise's time usually follows its verb ("te liga amanhã", "will mail it on the 15th"); one
    // before it at the same distance is more often the context ("venceu dia 25, mas … até as 14h").
    expressions.iter().filter(|e| sentence(e.start) == own).min_by_key(|e| {
        if e.start >= end {
            2 * (e.start - end)
        } else {
            3 * start.saturating_sub(e.end) + 1
        }
    })
}

/// Where the sentences of `message` end, in characters: at `.`, `!`, `?`, `;` and line breaks,
/// but not at the dot of a title ("Dr. Marcos", "Sra. Lúcia") or inside a number or a time.
fn sentence_breaks(message: &str) -> Vec<usize> {
    const TITLES: &[&str] =
        &["dr", "dra", "sr", "sra", "srta", "mr", "mrs", "ms", "prof", "profa", "st", "av", "eng", "no", "n"];
    let chars: Vec<char> = message.chars().collect();
    let mut out = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        let is_break = match c {
            '!' | '?' | ';' | '\n' => true,
            '.' => {
                let word: String = chars[..i]
                    .iter()
                    .rev()
                    .take_while(|c| c.is_alphanumeric())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect::<String>()
                    .to_lowercase();
                let next_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
                !next_digit && !TITLES.contains(&word.as_str())
            }
            _ => false,
        };
        if is_break {
            out.push(i);
        }
    }
    out
}

/// How far a due time is, rounded to whole minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export, rename = "GuardCountdown")]
pub enum Countdown {
    /// Still ahead (zero when due this very minute).
    DueIn {
        /// Minutes left.
        minutes: i64,
    },
    /// Gone by.
    Overdue {
        /// Minutes since it fell due.
        minutes: i64,
    },
}

/// How `due` stands at `now`.
pub fn countdown(due: &ZonedDateTime, now: &ZonedDateTime) -> Countdown {
    let seconds = now.duration_until(due).as_secs();
    if seconds >= 0 {
        Countdown::DueIn { minutes: seconds / 60 }
    } else {
        Countdown::Overdue { minutes: (-seconds + 59) / 60 }
    }
}

impl std::fmt::Display for Countdown {
    /// "due in 45 min", "due in 2 h", "due in 3 d", "overdue 1 h": the largest whole unit.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (prefix, minutes) = match *self {
            Countdown::DueIn { minutes } => ("due in", minutes),
            Countdown::Overdue { minutes } => ("overdue", minutes),
        };
        if minutes < 60 {
            write!(f, "{prefix} {minutes} min")
        } else if minutes < 48 * 60 {
            write!(f, "{prefix} {} h", minutes / 60)
        } else {
            write!(f, "{prefix} {} d", minutes / (24 * 60))
        }
    }
}
