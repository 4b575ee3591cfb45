//! When a promise falls due ([`resolve`]): one convention per test. Unless a test says
//! otherwise the calendar is the default one (Monday to Friday, 09:00–18:00) in São Paulo and
//! "now" is Wednesday 12 March 2025 at 10:00 there.

use jiff::civil::{date, time};
use jiff::ZonedDateTime;

use super::*;

const WEDNESDAY_10H: &str = "2025-03-12 10:00";

fn sao_paulo() -> Calendar {
    Calendar::named("America/Sao_Paulo").expect("the time zone database has America/Sao_Paulo")
}

/// `YYYY-MM-DD HH:MM` in the calendar's zone.
fn local(calendar: &Calendar, when: &str) -> ZonedDateTime {
    let civil: jiff::civil::DateTime = when.parse().expect("a test date-time");
    civil.to_zoned_datetime(calendar.time_zone().clone()).expect("a time that exists")
}

/// When the one expression in `message`, said at `now`, falls due: `Thu 2025-03-13 18:00`.
fn due_on(calendar: &Calendar, message: &str, now: &str) -> String {
    let found = find(message);
    assert_eq!(found.len(), 1, "{message:?}: {found:#?}");
    let due = resolve(&found[0], &local(calendar, now), calendar).expect("a due time");
    due.strftime("%a %Y-%m-%d %H:%M").to_string()
}

fn due(message: &str, now: &str) -> String {
    due_on(&sao_paulo(), message, now)
}

// ---- days ----

#[test]
fn amanha_is_the_close_of_tomorrow() {
    assert_eq!(due("a Letícia te liga amanhã", WEDNESDAY_10H), "Thu 2025-03-13 18:00");
}

#[test]
fn tomorrow_is_the_close_of_tomorrow() {
    assert_eq!(due("Billing will call you tomorrow.", WEDNESDAY_10H), "Thu 2025-03-13 18:00");
}

#[test]
fn tomorrow_said_on_a_friday_is_saturday_as_the_customer_heard_it() {
    assert_eq!(due("te ligo amanhã", "2025-03-14 15:00"), "Sat 2025-03-15 18:00");
}

#[test]
fn amanha_cedo_is_tomorrow_at_noon() {
    assert_eq!(due("te ligo amanhã cedo", WEDNESDAY_10H), "Thu 2025-03-13 12:00");
}

#[test]
fn tomorrow_morning_is_tomorrow_at_noon() {
    assert_eq!(due("We'll call you tomorrow morning.", WEDNESDAY_10H), "Thu 2025-03-13 12:00");
}

#[test]
fn first_thing_tomorrow_is_tomorrow_at_noon() {
    assert_eq!(due("I'll chase it first thing tomorrow.", WEDNESDAY_10H), "Thu 2025-03-13 12:00");
}

#[test]
fn first_thing_alone_is_noon_of_the_next_business_morning() {
    assert_eq!(due("I'll chase it first thing.", "2025-03-14 15:00"), "Mon 2025-03-17 12:00");
}

#[test]
fn hoje_a_tarde_is_today_at_18h() {
    assert_eq!(due("A equipe liga hoje à tarde.", WEDNESDAY_10H), "Wed 2025-03-12 18:00");
}

#[test]
fn this_afternoon_ends_at_an_earlier_close() {
    let calendar = sao_paulo().with_hours(time(8, 0, 0, 0), time(17, 0, 0, 0)).expect("valid hours");
    assert_eq!(
        due_on(&calendar, "Billing will call you this afternoon.", WEDNESDAY_10H),
        "Wed 2025-03-12 17:00"
    );
}

#[test]
fn this_afternoon_said_in_the_evening_is_tomorrow_afternoon() {
    assert_eq!(due("we'll ring this afternoon", "2025-03-12 19:00"), "Thu 2025-03-13 18:00");
}

#[test]
fn tonight_is_today_at_22h() {
    assert_eq!(due("I'll message you tonight", WEDNESDAY_10H), "Wed 2025-03-12 22:00");
}

// ---- clock times ----

#[test]
fn ate_as_12h_before_noon_is_today_at_noon() {
    assert_eq!(due("te respondo até as 12h", WEDNESDAY_10H), "Wed 2025-03-12 12:00");
}

#[test]
fn by_noon_after_noon_is_tomorrow_at_noon() {
    assert_eq!(due("You'll hear from us by noon.", "2025-03-12 13:00"), "Thu 2025-03-13 12:00");
}

#[test]
fn by_5pm_tomorrow_is_tomorrow_at_17h() {
    assert_eq!(due("We'll send it by 5 p.m. tomorrow.", WEDNESDAY_10H), "Thu 2025-03-13 17:00");
}

#[test]
fn a_range_is_due_at_its_end() {
    assert_eq!(due("o técnico vai amanhã, entre 14h e 18h", WEDNESDAY_10H), "Thu 2025-03-13 18:00");
}

#[test]
fn a_start_time_is_kept_until_the_close() {
    assert_eq!(due("ele passa a partir das 14h", WEDNESDAY_10H), "Wed 2025-03-12 18:00");
}

// ---- stretches of time ----

#[test]
fn in_2_hours_is_now_plus_two_hours() {
    assert_eq!(due("they'll call u in 2 hrs", WEDNESDAY_10H), "Wed 2025-03-12 12:00");
}

#[test]
fn within_48_hours_is_wall_clock_time_not_business_hours() {
    assert_eq!(due("You will hear back within 48 hours.", "2025-03-14 10:00"), "Sun 2025-03-16 10:00");
}

#[test]
fn within_3_business_days_is_the_close_of_the_third_business_day_after_today() {
    assert_eq!(due("Claims will decide within 3 business days.", WEDNESDAY_10H), "Mon 2025-03-17 18:00");
}

#[test]
fn em_ate_3_dias_uteis_skips_holidays() {
    let calendar = sao_paulo().with_holidays([date(2025, 3, 14)]);
    assert_eq!(
        due_on(&calendar, "O financeiro responde em até 3 dias úteis.", WEDNESDAY_10H),
        "Tue 2025-03-18 18:00"
    );
}

#[test]
fn em_ate_10_dias_counts_calendar_days() {
    assert_eq!(due("o reembolso sai em até 10 dias", WEDNESDAY_10H), "Sat 2025-03-22 18:00");
}

// ---- weekdays ----

#[test]
fn segunda_is_the_close_of_the_coming_monday() {
    assert_eq!(due("ele t chama segunda pra conversar", WEDNESDAY_10H), "Mon 2025-03-17 18:00");
}

#[test]
fn on_monday_said_on_a_monday_is_a_week_later() {
    assert_eq!(due("Our engineer will visit on Monday.", "2025-03-17 10:00"), "Mon 2025-03-24 18:00");
}

#[test]
fn tuesday_said_on_a_monday_is_tomorrow() {
    assert_eq!(due("we'll call on Tuesday", "2025-03-10 10:00"), "Tue 2025-03-11 18:00");
}

#[test]
fn next_tuesday_said_on_a_monday_is_the_tuesday_of_next_week() {
    assert_eq!(due("We'll call next tuesday.", "2025-03-10 10:00"), "Tue 2025-03-18 18:00");
}

#[test]
fn ate_sexta_is_the_close_of_friday() {
    assert_eq!(due("te respondo até sexta", WEDNESDAY_10H), "Fri 2025-03-14 18:00");
}

// ---- end of day and later ----

#[test]
fn by_end_of_day_is_todays_close() {
    assert_eq!(due("We'll confirm by end of day.", WEDNESDAY_10H), "Wed 2025-03-12 18:00");
}

#[test]
fn eod_asked_after_hours_is_the_next_business_days_close() {
    assert_eq!(due("will send it by EOD", "2025-03-14 19:00"), "Mon 2025-03-17 18:00");
}

#[test]
fn no_fim_do_dia_on_a_saturday_is_mondays_close() {
    assert_eq!(due("te mando no fim do dia", "2025-03-15 10:00"), "Mon 2025-03-17 18:00");
}

#[test]
fn later_today_is_todays_close() {
    assert_eq!(due("priya will text u later today", WEDNESDAY_10H), "Wed 2025-03-12 18:00");
}

#[test]
fn mais_tarde_is_todays_close() {
    assert_eq!(due("te ligo mais tarde", WEDNESDAY_10H), "Wed 2025-03-12 18:00");
}

// ---- weeks and months ----

#[test]
fn this_week_is_the_close_of_its_last_business_day() {
    assert_eq!(due("we'll review it this week", WEDNESDAY_10H), "Fri 2025-03-14 18:00");
}

#[test]
fn this_week_said_on_a_saturday_is_the_next_business_days_close() {
    assert_eq!(due("we'll review it this week", "2025-03-15 10:00"), "Mon 2025-03-17 18:00");
}

#[test]
fn next_week_is_the_close_of_its_last_business_day() {
    assert_eq!(due("Expect our call next week.", WEDNESDAY_10H), "Fri 2025-03-21 18:00");
}

#[test]
fn semana_que_vem_is_the_close_of_its_last_business_day() {
    assert_eq!(due("o gerente te chama semana que vem", WEDNESDAY_10H), "Fri 2025-03-21 18:00");
}

#[test]
fn early_next_week_is_the_close_of_its_second_business_day() {
    assert_eq!(due("expect a call early next week", WEDNESDAY_10H), "Tue 2025-03-18 18:00");
}

#[test]
fn by_the_end_of_the_month_is_the_close_of_its_last_business_day() {
    assert_eq!(due("You'll have it by the end of the month.", WEDNESDAY_10H), "Mon 2025-03-31 18:00");
}

// ---- soon ----

#[test]
fn asap_is_one_business_hour_from_now() {
    assert_eq!(due("will call u asap", WEDNESDAY_10H), "Wed 2025-03-12 11:00");
}

#[test]
fn daqui_a_pouco_late_on_a_friday_is_kept_until_monday_morning() {
    assert_eq!(due("te ligo daqui a pouco", "2025-03-14 17:30"), "Mon 2025-03-17 09:30");
}

#[test]
fn shortly_before_opening_counts_from_the_opening() {
    assert_eq!(due("A colleague will contact you shortly.", "2025-03-12 07:00"), "Wed 2025-03-12 10:00");
}

// ---- dates ----

#[test]
fn dia_15_is_the_close_of_the_coming_15th() {
    assert_eq!(due("o boleto novo chega dia 15", WEDNESDAY_10H), "Sat 2025-03-15 18:00");
}

#[test]
fn dia_10_once_past_is_next_months_10th() {
    assert_eq!(due("o boleto novo chega dia 10", WEDNESDAY_10H), "Thu 2025-04-10 18:00");
}

#[test]
fn day_slash_month_is_that_date_this_year() {
    assert_eq!(due("entrego até 15/12", WEDNESDAY_10H), "Mon 2025-12-15 18:00");
}

#[test]
fn a_date_gone_by_this_year_is_next_years() {
    assert_eq!(due("We'll confirm by Jan 15.", WEDNESDAY_10H), "Thu 2026-01-15 18:00");
}

// ---- zones ----

#[test]
fn now_in_another_zone_is_resolved_in_the_calendars_zone() {
    let calendar = sao_paulo();
    let now_utc: ZonedDateTime = "2025-03-12T13:00:00+00:00[UTC]".parse().expect("a test instant");
    let found = find("te ligo amanhã");
    let due = resolve(&found[0], &now_utc, &calendar).expect("a due time");
    assert_eq!(due.to_string(), "2025-03-13T18:00:00-03:00[America/Sao_Paulo]");
}

#[test]
fn the_offset_is_the_one_in_force_on_the_due_day() {
    // New York moves its clocks forward on Sunday 9 March 2025.
    let calendar = Calendar::named("America/New_York").expect("the time zone database has America/New_York");
    let found = find("we'll call you tomorrow");
    let due = resolve(&found[0], &local(&calendar, "2025-03-08 10:00"), &calendar).expect("a due time");
    assert_eq!(due.to_string(), "2025-03-09T18:00:00-04:00[America/New_York]");
}

#[test]
fn the_system_zone_is_a_calendar_too() {
    let calendar = Calendar::system();
    let now = ZonedDateTime::now();
    let found = find("in 2 hours");
    let due = resolve(&found[0], &now, &calendar).expect("a due time");
    assert_eq!(now.duration_until(&due), jiff::SignedDuration::from_hours(2));
}

// ---- the calendar setting ----

#[test]
fn default_settings_are_monday_to_friday_nine_to_six_in_the_system_zone() {
    let calendar = Calendar::from_settings(&CalendarSettings::default()).expect("the defaults are valid");
    assert_eq!((calendar.opens(), calendar.closes()), (time(9, 0, 0, 0), time(18, 0, 0, 0)));
    assert!(calendar.is_business_day(date(2025, 3, 14)) && !calendar.is_business_day(date(2025, 3, 15)));
}

#[test]
fn settings_with_an_unknown_zone_are_refused() {
    let settings =
        CalendarSettings { time_zone: Some("Mars/Olympus_Mons".into()), ..CalendarSettings::default() };
    assert_eq!(
        Calendar::from_settings(&settings),
        Err(CalendarError::UnknownTimeZone("Mars/Olympus_Mons".into()))
    );
}

#[test]
fn settings_that_close_before_opening_are_refused() {
    let settings =
        CalendarSettings { opens: "18:00".into(), closes: "09:00".into(), ..CalendarSettings::default() };
    assert_eq!(Calendar::from_settings(&settings), Err(CalendarError::ClosesBeforeOpening));
}

#[test]
fn settings_with_a_bad_holiday_are_refused() {
    let settings = CalendarSettings { holidays: vec!["25/12".into()], ..CalendarSettings::default() };
    assert_eq!(Calendar::from_settings(&settings), Err(CalendarError::BadDate("25/12".into())));
}

#[test]
fn settings_without_working_days_are_refused() {
    let settings = CalendarSettings { working_days: vec![], ..CalendarSettings::default() };
    assert_eq!(Calendar::from_settings(&settings), Err(CalendarError::NoWorkingDays));
}

#[test]
fn a_saturday_shop_counts_saturday_as_a_business_day() {
    let settings = CalendarSettings {
        time_zone: Some("America/Sao_Paulo".into()),
        working_days: vec![
            Weekday::Monday,
            Weekday::Tuesday,
            Weekday::Wednesday,
            Weekday::Thursday,
            Weekday::Friday,
            Weekday::Saturday,
        ],
        ..CalendarSettings::default()
    };
    let calendar = Calendar::from_settings(&settings).expect("valid settings");
    assert_eq!(due_on(&calendar, "retorno em até 3 dias úteis", WEDNESDAY_10H), "Sat 2025-03-15 18:00");
}

// ---- the ledger's view ----

#[test]
fn due_takes_the_first_expression_of_the_message() {
    let calendar = sao_paulo();
    let found = super::due(
        "Recebi seu pedido. O técnico liga amanhã cedo.",
        &local(&calendar, WEDNESDAY_10H),
        &calendar,
    )
    .expect("a due time");
    assert_eq!((found.expression.text.as_str(), found.at.hour()), ("amanhã cedo", 12));
}

#[test]
fn due_near_takes_the_time_beside_the_promise() {
    let calendar = sao_paulo();
    let message = "Seu pedido saiu hoje do depósito. A Letícia da contabilidade te liga amanhã cedo.";
    let found =
        due_near(message, "A Letícia da contabilidade te liga", &local(&calendar, WEDNESDAY_10H), &calendar)
            .expect("a due time");
    assert_eq!(found.expression.text, "amanhã cedo");
}

#[test]
fn due_near_without_its_evidence_in_the_message_takes_the_first_time() {
    let calendar = sao_paulo();
    let message = "Seu pedido saiu hoje. Te ligo amanhã.";
    let found =
        due_near(message, "someone else", &local(&calendar, WEDNESDAY_10H), &calendar).expect("a due time");
    assert_eq!(found.expression.text, "hoje");
}

#[test]
fn a_message_without_a_time_has_no_due_time() {
    let calendar = sao_paulo();
    assert_eq!(
        super::due("Nossa equipe vai te retornar.", &local(&calendar, WEDNESDAY_10H), &calendar),
        None
    );
}

#[test]
fn the_countdown_reads_due_in_hours() {
    let calendar = sao_paulo();
    let due = local(&calendar, "2025-03-12 12:00");
    let shown = countdown(&due, &local(&calendar, WEDNESDAY_10H));
    assert_eq!((shown, shown.to_string()), (Countdown::DueIn { minutes: 120 }, "due in 2 h".to_string()));
}

#[test]
fn the_countdown_reads_overdue_once_past() {
    let calendar = sao_paulo();
    let due = local(&calendar, "2025-03-12 09:00");
    assert_eq!(countdown(&due, &local(&calendar, WEDNESDAY_10H)).to_string(), "overdue 1 h");
}

#[test]
fn a_due_time_serialises_with_its_zone() {
    let calendar = sao_paulo();
    let due = super::due("te ligo amanhã", &local(&calendar, WEDNESDAY_10H), &calendar).expect("a due time");
    let json = serde_json::to_value(&due).expect("serialisable");
    assert_eq!(json["at"], "2025-03-13T18:00:00-03:00[America/Sao_Paulo]");
    assert_eq!(json["expression"]["meaning"]["day"]["kind"], "tomorrow");
}
