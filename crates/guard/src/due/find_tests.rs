//! What [`find`] reads in a message: one expression per test, in Portuguese and English.

use super::*;

use Day::{Date, DayAfterTomorrow, DayOfMonth, Today, Tomorrow};
use DayTime::*;

/// The one expression found in `message`: its text as written and its meaning.
fn one(message: &str) -> (String, Meaning) {
    let found = find(message);
    assert_eq!(found.len(), 1, "{message:?}: {found:#?}");
    (found[0].text.clone(), found[0].meaning)
}

fn day(day: Day, time: DayTime) -> Meaning {
    Meaning::Day { day, time }
}

fn weekday(weekday: Weekday) -> Day {
    Day::Weekday { weekday, week: WeekOf::Coming }
}

fn within(amount: u32, unit: Unit) -> Meaning {
    Meaning::Within { amount, unit }
}

// ---- spans ----

#[test]
fn spans_are_character_offsets_into_the_original_text() {
    let message = "Olá! A Letícia te liga amanhã cedo.";
    let found = find(message);
    assert_eq!(found.len(), 1);
    let chars: Vec<char> = message.chars().collect();
    let quoted: String = chars[found[0].start..found[0].end].iter().collect();
    assert_eq!((found[0].start, found[0].end, quoted.as_str()), (23, 34, "amanhã cedo"));
}

#[test]
fn the_text_is_quoted_as_written_with_its_case_and_accents() {
    assert_eq!(one("Retorno ATÉ SEXTA, combinado?").0, "ATÉ SEXTA");
}

#[test]
fn every_expression_of_a_message_is_found_in_order() {
    let found = find("Recebemos hoje seu pedido; o técnico liga amanhã às 9h.");
    let texts: Vec<&str> = found.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(texts, ["hoje", "amanhã às 9h"]);
}

#[test]
fn a_message_without_a_time_finds_nothing() {
    assert!(find("Nossa equipe vai analisar o seu pedido e te retorna.").is_empty());
}

#[test]
fn empty_and_odd_input_finds_nothing_and_does_not_panic() {
    for message in ["", " ", "🙏🙏", "24/7", "99:99", "R$ 15/mês", "1/2", "at", "dia", "em até"] {
        let _ = find(message);
    }
    assert!(find("").is_empty());
}

// ---- tomorrow and today ----

#[test]
fn amanha_with_accent_is_tomorrow() {
    assert_eq!(one("a Tati te liga amanhã"), ("amanhã".into(), day(Tomorrow, Close)));
}

#[test]
fn amanha_without_accent_is_tomorrow() {
    assert_eq!(one("te ligo amanha blz"), ("amanha".into(), day(Tomorrow, Close)));
}

#[test]
fn two_moro_is_tomorrow() {
    assert_eq!(one("will call u 2moro"), ("2moro".into(), day(Tomorrow, Close)));
}

#[test]
fn tmrw_is_tomorrow() {
    assert_eq!(one("she'll text u tmrw"), ("tmrw".into(), day(Tomorrow, Close)));
}

#[test]
fn amanha_cedo_is_tomorrow_morning() {
    assert_eq!(one("te ligo amanhã cedo"), ("amanhã cedo".into(), day(Tomorrow, Morning)));
}

#[test]
fn tomorrow_morning_is_tomorrow_morning() {
    assert_eq!(one("We'll call you tomorrow morning."), ("tomorrow morning".into(), day(Tomorrow, Morning)));
}

#[test]
fn first_thing_tomorrow_is_tomorrow_morning() {
    assert_eq!(
        one("I'll chase it first thing tomorrow."),
        ("first thing tomorrow".into(), day(Tomorrow, Morning))
    );
}

#[test]
fn amanha_de_manha_is_tomorrow_morning() {
    assert_eq!(one("vou ver amanha de manha"), ("amanha de manha".into(), day(Tomorrow, Morning)));
}

#[test]
fn hj_is_today() {
    assert_eq!(one("te retorno hj"), ("hj".into(), day(Today, Close)));
}

#[test]
fn ainda_hoje_is_today() {
    assert_eq!(one("Te retorno ainda hoje."), ("ainda hoje".into(), day(Today, Close)));
}

#[test]
fn hoje_ainda_keeps_the_trailing_ainda() {
    assert_eq!(one("te chamo hoje ainda"), ("hoje ainda".into(), day(Today, Close)));
}

#[test]
fn hoje_a_tarde_is_this_afternoon() {
    assert_eq!(one("A equipe liga hoje à tarde."), ("hoje à tarde".into(), day(Today, Afternoon)));
}

#[test]
fn this_afternoon_is_this_afternoon() {
    assert_eq!(
        one("Billing will call you this afternoon."),
        ("this afternoon".into(), day(Today, Afternoon))
    );
}

#[test]
fn this_arvo_is_this_afternoon() {
    assert_eq!(one("gonna ring u this arvo"), ("this arvo".into(), day(Today, Afternoon)));
}

#[test]
fn tonight_is_this_evening() {
    assert_eq!(one("I'll message you tonight"), ("tonight".into(), day(Today, Evening)));
}

#[test]
fn hj_a_noite_is_this_evening() {
    assert_eq!(one("falo com vc hj a noite"), ("hj a noite".into(), day(Today, Evening)));
}

#[test]
fn the_day_after_tomorrow_is_found() {
    assert_eq!(one("retorno depois de amanhã"), ("depois de amanhã".into(), day(DayAfterTomorrow, Close)));
}

// ---- end of day, later ----

#[test]
fn eod_is_the_close_of_today() {
    assert_eq!(one("will send it by EOD"), ("by EOD".into(), day(Today, Close)));
}

#[test]
fn end_of_day_is_the_close_of_today() {
    assert_eq!(one("We'll confirm by end of day."), ("by end of day".into(), day(Today, Close)));
}

#[test]
fn close_of_business_is_the_close_of_today() {
    assert_eq!(
        one("Finance will reply by close of business."),
        ("by close of business".into(), day(Today, Close))
    );
}

#[test]
fn no_fim_do_dia_is_the_close_of_today() {
    assert_eq!(one("te mando no fim do dia"), ("no fim do dia".into(), day(Today, Close)));
}

#[test]
fn ate_o_final_do_expediente_is_the_close_of_today() {
    assert_eq!(
        one("retornamos até o final do expediente"),
        ("até o final do expediente".into(), day(Today, Close))
    );
}

#[test]
fn mais_tarde_is_later_today() {
    assert_eq!(one("te ligo mais tarde"), ("mais tarde".into(), day(Today, Close)));
}

#[test]
fn later_today_is_later_today() {
    assert_eq!(one("priya will text u later today"), ("later today".into(), day(Today, Close)));
}

#[test]
fn l8r_is_later_today() {
    assert_eq!(one("will get back 2 u l8r"), ("l8r".into(), day(Today, Close)));
}

#[test]
fn a_later_date_is_not_a_time() {
    assert!(find("we can look at it at a later date").is_empty());
}

// ---- clock times ----

#[test]
fn ate_as_12h_is_noon() {
    assert_eq!(one("te respondo até as 12h"), ("até as 12h".into(), day(Today, At { hour: 12, minute: 0 })));
}

#[test]
fn ate_12_00_without_accent_is_noon() {
    assert_eq!(one("retorno ate 12:00"), ("ate 12:00".into(), day(Today, At { hour: 12, minute: 0 })));
}

#[test]
fn as_7h30_reads_hours_and_minutes() {
    assert_eq!(one("o motorista chega às 7h30"), ("às 7h30".into(), day(Today, At { hour: 7, minute: 30 })));
}

#[test]
fn by_5pm_is_17_00() {
    assert_eq!(one("I'll confirm by 5pm"), ("by 5pm".into(), day(Today, At { hour: 17, minute: 0 })));
}

#[test]
fn by_5_p_m_with_dots_is_17_00() {
    assert_eq!(one("We'll call by 5 p.m."), ("by 5 p.m.".into(), day(Today, At { hour: 17, minute: 0 })));
}

#[test]
fn by_noon_is_12_00() {
    assert_eq!(
        one("You'll hear from us by noon."),
        ("by noon".into(), day(Today, At { hour: 12, minute: 0 }))
    );
}

#[test]
fn a_bare_hour_after_by_is_read_in_working_hours() {
    assert_eq!(one("will ring u by 4"), ("by 4".into(), day(Today, At { hour: 16, minute: 0 })));
}

#[test]
fn a_bare_number_without_a_lead_is_not_a_time() {
    assert!(find("we have 4 technicians on call").is_empty());
}

#[test]
fn a_range_is_due_at_its_end() {
    assert_eq!(
        one("he'll visit tomorrow between 10 and 12"),
        ("tomorrow between 10 and 12".into(), day(Tomorrow, At { hour: 12, minute: 0 }))
    );
}

#[test]
fn entre_14h_e_18h_is_due_at_18h() {
    assert_eq!(
        one("o técnico vai amanhã, entre 14h e 18h"),
        ("amanhã, entre 14h e 18h".into(), day(Tomorrow, At { hour: 18, minute: 0 }))
    );
}

#[test]
fn a_time_before_its_day_joins_it() {
    assert_eq!(
        one("We'll send it by 5 p.m. tomorrow."),
        ("by 5 p.m. tomorrow".into(), day(Tomorrow, At { hour: 17, minute: 0 }))
    );
}

#[test]
fn a_partir_das_14h_is_from_14h() {
    assert_eq!(
        one("ele passa a partir das 14h"),
        ("a partir das 14h".into(), day(Today, After { hour: 14, minute: 0 }))
    );
}

#[test]
fn round_the_clock_service_is_not_a_time() {
    assert!(find("atendimento 24h e suporte 24/7").is_empty());
}

// ---- stretches of time ----

#[test]
fn in_2_hrs_is_two_hours() {
    assert_eq!(one("they'll call u in 2 hrs"), ("in 2 hrs".into(), within(2, Unit::Hours)));
}

#[test]
fn within_48_hours_is_forty_eight_hours() {
    assert_eq!(
        one("You will hear back within 48 hours."),
        ("within 48 hours".into(), within(48, Unit::Hours))
    );
}

#[test]
fn within_3_business_days_counts_business_days() {
    assert_eq!(
        one("Claims will decide within 3 business days."),
        ("within 3 business days".into(), within(3, Unit::BusinessDays))
    );
}

#[test]
fn within_five_working_days_reads_the_spelled_number() {
    assert_eq!(
        one("We will reply within five working days."),
        ("within five working days".into(), within(5, Unit::BusinessDays))
    );
}

#[test]
fn em_ate_3_dias_uteis_counts_business_days() {
    assert_eq!(
        one("O financeiro responde em até 3 dias úteis."),
        ("em até 3 dias úteis".into(), within(3, Unit::BusinessDays))
    );
}

#[test]
fn em_ate_10_dias_counts_calendar_days() {
    assert_eq!(one("o reembolso sai em até 10 dias"), ("em até 10 dias".into(), within(10, Unit::Days)));
}

#[test]
fn em_10_min_is_ten_minutes() {
    assert_eq!(one("te chamo em 10 min"), ("em 10 min".into(), within(10, Unit::Minutes)));
}

#[test]
fn daqui_a_1h_is_one_hour() {
    assert_eq!(one("a gente te liga daqui a 1h"), ("daqui a 1h".into(), within(1, Unit::Hours)));
}

#[test]
fn em_meia_hora_is_thirty_minutes() {
    assert_eq!(one("ele chega em meia hora"), ("em meia hora".into(), within(30, Unit::Minutes)));
}

#[test]
fn in_10_alone_is_ten_minutes() {
    assert_eq!(one("maintenance is coming up in 10"), ("in 10".into(), within(10, Unit::Minutes)));
}

#[test]
fn within_the_hour_is_one_hour() {
    assert_eq!(
        one("A nurse will call you within the hour."),
        ("within the hour".into(), within(1, Unit::Hours))
    );
}

#[test]
fn a_day_or_two_is_up_to_two_days() {
    assert_eq!(one("we'll sort it in a day or two"), ("in a day or two".into(), within(2, Unit::Days)));
}

#[test]
fn nos_proximos_dias_is_a_few_days() {
    assert_eq!(one("a equipe revisa nos próximos dias"), ("nos próximos dias".into(), within(3, Unit::Days)));
}

// ---- soon ----

#[test]
fn asap_is_soon() {
    assert_eq!(one("will call u asap"), ("asap".into(), Meaning::Soon));
}

#[test]
fn daqui_a_pouco_is_soon() {
    assert_eq!(one("te ligo daqui a pouco"), ("daqui a pouco".into(), Meaning::Soon));
}

#[test]
fn shortly_is_soon() {
    assert_eq!(one("A colleague will contact you shortly."), ("shortly".into(), Meaning::Soon));
}

#[test]
fn ja_ja_is_soon() {
    assert_eq!(one("jaja te mando"), ("jaja".into(), Meaning::Soon));
}

// ---- weekdays ----

#[test]
fn segunda_alone_is_monday() {
    assert_eq!(
        one("ele t chama segunda pra conversar"),
        ("segunda".into(), day(weekday(Weekday::Monday), Close))
    );
}

#[test]
fn seg_is_monday() {
    assert_eq!(one("te ligo seg"), ("seg".into(), day(weekday(Weekday::Monday), Close)));
}

#[test]
fn ate_sexta_is_friday() {
    assert_eq!(one("te respondo até sexta"), ("até sexta".into(), day(weekday(Weekday::Friday), Close)));
}

#[test]
fn na_quinta_feira_is_thursday() {
    assert_eq!(
        one("a vistoria é na quinta-feira"),
        ("na quinta-feira".into(), day(weekday(Weekday::Thursday), Close))
    );
}

#[test]
fn on_monday_is_monday() {
    assert_eq!(
        one("Our engineer will visit on Monday."),
        ("on Monday".into(), day(weekday(Weekday::Monday), Close))
    );
}

#[test]
fn by_fri_is_friday() {
    assert_eq!(one("will have it sorted by fri"), ("by fri".into(), day(weekday(Weekday::Friday), Close)));
}

#[test]
fn next_tuesday_is_the_tuesday_of_next_week() {
    assert_eq!(
        one("We'll call next tuesday."),
        ("next tuesday".into(), day(Day::Weekday { weekday: Weekday::Tuesday, week: WeekOf::Next }, Close))
    );
}

#[test]
fn a_weekday_with_a_part_of_the_day() {
    assert_eq!(
        one("She'll call on Thursday afternoon."),
        ("on Thursday afternoon".into(), day(weekday(Weekday::Thursday), Afternoon))
    );
}

#[test]
fn a_weekday_with_a_time() {
    assert_eq!(
        one("o técnico vai no sábado às 10h"),
        ("no sábado às 10h".into(), day(weekday(Weekday::Saturday), At { hour: 10, minute: 0 }))
    );
}

#[test]
fn segunda_via_is_a_second_copy_not_monday() {
    assert!(find("vou te mandar a segunda via do boleto").is_empty());
}

#[test]
fn quinta_parcela_is_an_ordinal_not_thursday() {
    assert!(find("a quinta parcela vence em breve").iter().all(|e| e.text != "quinta"));
}

#[test]
fn sat_as_a_verb_is_not_saturday() {
    assert!(find("the parcel sat in the depot").is_empty());
}

#[test]
fn on_sat_is_saturday() {
    assert_eq!(one("he'll come by on sat"), ("on sat".into(), day(weekday(Weekday::Saturday), Close)));
}

// ---- dates ----

#[test]
fn dia_15_is_a_day_of_the_month() {
    assert_eq!(one("o boleto novo chega dia 15"), ("dia 15".into(), day(DayOfMonth { day: 15 }, Close)));
}

#[test]
fn day_slash_month_is_a_date() {
    assert_eq!(
        one("entrego até 15/12"),
        ("até 15/12".into(), day(Date { month: 12, day: 15, year: None }, Close))
    );
}

#[test]
fn month_day_in_english_is_a_date() {
    assert_eq!(
        one("We'll confirm by Dec 15."),
        ("by Dec 15".into(), day(Date { month: 12, day: 15, year: None }, Close))
    );
}

#[test]
fn day_month_in_english_is_a_date() {
    assert_eq!(
        one("A decision by 20 May."),
        ("by 20 May".into(), day(Date { month: 5, day: 20, year: None }, Close))
    );
}

#[test]
fn dia_de_mes_in_portuguese_is_a_date() {
    assert_eq!(
        one("a vistoria fica para o dia 14 de novembro"),
        ("dia 14 de novembro".into(), day(Date { month: 11, day: 14, year: None }, Close))
    );
}

#[test]
fn the_28th_is_a_day_of_the_month() {
    assert_eq!(
        one("we'll refund it by the 28th"),
        ("by the 28th".into(), day(DayOfMonth { day: 28 }, Close))
    );
}

#[test]
fn an_impossible_date_is_not_a_date() {
    assert!(find("até 31/02").is_empty());
}

// ---- weeks and months ----

#[test]
fn this_week_is_this_week() {
    assert_eq!(
        one("we'll review it this week"),
        ("this week".into(), Meaning::Week { week: Relative::This, early: false })
    );
}

#[test]
fn semana_que_vem_is_next_week() {
    assert_eq!(
        one("o gerente te chama semana que vem"),
        ("semana que vem".into(), Meaning::Week { week: Relative::Next, early: false })
    );
}

#[test]
fn na_proxima_semana_is_next_week() {
    assert_eq!(
        one("retornamos na próxima semana"),
        ("na próxima semana".into(), Meaning::Week { week: Relative::Next, early: false })
    );
}

#[test]
fn early_next_week_is_the_start_of_next_week() {
    assert_eq!(
        one("expect a call early next week"),
        ("early next week".into(), Meaning::Week { week: Relative::Next, early: true })
    );
}

#[test]
fn fim_de_semana_is_the_weekend_not_the_end_of_the_week() {
    assert!(find("no fim de semana a loja fecha").is_empty());
}

#[test]
fn by_the_end_of_the_month_is_this_month() {
    assert_eq!(
        one("You'll have it by the end of the month."),
        ("by the end of the month".into(), Meaning::Month { month: Relative::This })
    );
}

// ---- greetings and "late" ----

#[test]
fn boa_tarde_is_a_greeting_not_the_afternoon() {
    assert!(find("Boa tarde, Maria! Tudo bem?").is_empty());
}

#[test]
fn good_morning_is_a_greeting_not_the_morning() {
    assert!(find("Good morning Sam, thanks for waiting").is_empty());
}

#[test]
fn tarde_demais_is_too_late_not_the_afternoon() {
    assert!(find("já é tarde demais para cancelar").is_empty());
}
