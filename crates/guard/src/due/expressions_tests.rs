//! The expressions people use for a promise's time beyond the everyday ones — next week's
//! weekday, dates with and without the month, Portuguese weekday ordinals, the day after
//! tomorrow, the next business day, named holidays, chat spellings — one per test, resolved on the
//! workspace default calendar (Monday to Friday, 09:00–18:00, the country's national holidays).
//! Unless a test says otherwise "now" is Tuesday 1 December 2026 at 10:00.

use super::*;

const TUESDAY: &str = "2026-12-01 10:00";

fn calendar(zone: &str) -> Calendar {
    Calendar::from_settings(&CalendarSettings { time_zone: Some(zone.into()), ..CalendarSettings::default() })
        .expect("a known zone")
}

/// When the promise in `message`, said at `now` in São Paulo (Portuguese) or New York (English),
/// falls due: `Thu 2026-12-03 18:00`; the first expression found, as [`due`] reads it.
fn due_in(zone: &str, message: &str, now: &str) -> String {
    let calendar = calendar(zone);
    let civil: jiff::civil::DateTime = now.parse().expect("a test date-time");
    let now = civil.to_zoned_datetime(calendar.time_zone().clone()).expect("a time that exists");
    let found = due(message, &now, &calendar).unwrap_or_else(|| panic!("no due time in {message:?}"));
    found.at.strftime("%a %Y-%m-%d %H:%M").to_string()
}

fn pt(message: &str, now: &str) -> String {
    due_in("America/Sao_Paulo", message, now)
}

fn en(message: &str, now: &str) -> String {
    due_in("America/New_York", message, now)
}

// ---- next week's weekday, this week's, the coming one ----

#[test]
fn na_sexta_da_semana_que_vem_is_next_weeks_friday() {
    assert_eq!(pt("te ligo na sexta da semana que vem", TUESDAY), "Fri 2026-12-11 18:00");
}

#[test]
fn thursday_next_week_is_next_weeks_thursday() {
    assert_eq!(en("The engineer will call you Thursday next week.", TUESDAY), "Thu 2026-12-10 18:00");
}

#[test]
fn sexta_que_vem_is_next_weeks_friday() {
    assert_eq!(pt("o reembolso cai na sexta que vem", TUESDAY), "Fri 2026-12-11 18:00");
}

#[test]
fn na_sexta_feira_da_proxima_semana_is_next_weeks_friday() {
    assert_eq!(pt("a Ana te retorna na sexta-feira da próxima semana", TUESDAY), "Fri 2026-12-11 18:00");
}

#[test]
fn next_friday_said_on_a_thursday_is_eight_days_later() {
    assert_eq!(en("We'll call you next Friday.", "2026-12-03 10:00"), "Fri 2026-12-11 18:00");
}

#[test]
fn next_monday_said_on_a_sunday_is_the_next_day() {
    assert_eq!(en("We'll call you next Monday.", "2026-12-06 20:00"), "Mon 2026-12-07 18:00");
}

#[test]
fn this_friday_said_on_a_friday_is_today() {
    assert_eq!(en("I'll send it this Friday.", "2026-12-04 11:00"), "Fri 2026-12-04 18:00");
}

#[test]
fn nesta_sexta_said_on_a_friday_is_today() {
    assert_eq!(pt("confirmo o pagamento nesta sexta", "2026-12-04 11:00"), "Fri 2026-12-04 18:00");
}

#[test]
fn this_monday_said_on_a_wednesday_is_the_coming_monday() {
    assert_eq!(en("She'll call you this Monday.", "2026-12-02 10:00"), "Mon 2026-12-07 18:00");
}

#[test]
fn a_weekday_said_on_that_day_is_a_week_ahead() {
    assert_eq!(pt("o técnico volta na sexta", "2026-12-04 11:00"), "Fri 2026-12-11 18:00");
}

#[test]
fn the_coming_friday_is_the_next_friday() {
    assert_eq!(en("We'll follow up the coming Friday.", TUESDAY), "Fri 2026-12-04 18:00");
}

#[test]
fn na_proxima_sexta_is_the_next_friday_not_next_weeks() {
    assert_eq!(pt("te ligo na próxima sexta", TUESDAY), "Fri 2026-12-04 18:00");
}

#[test]
fn last_tuesday_is_no_due_time() {
    assert!(find("Sorry we missed you last Tuesday.").is_empty());
}

// ---- explicit dates ----

#[test]
fn dia_10_is_the_10th_of_this_month() {
    assert_eq!(pt("o boleto novo chega dia 10", TUESDAY), "Thu 2026-12-10 18:00");
}

#[test]
fn on_the_15th_is_the_15th_of_this_month() {
    assert_eq!(en("Your card will be mailed on the 15th.", TUESDAY), "Tue 2026-12-15 18:00");
}

#[test]
fn a_day_of_the_month_gone_by_is_next_months() {
    assert_eq!(pt("te mando o extrato no dia 1", "2026-12-02 10:00"), "Fri 2027-01-01 18:00");
}

#[test]
fn day_slash_month_is_day_first_in_portuguese() {
    assert_eq!(pt("a entrega fica para 15/12", TUESDAY), "Tue 2026-12-15 18:00");
}

#[test]
fn an_ambiguous_numeric_date_is_day_first_in_brazil() {
    assert_eq!(pt("o cartão chega 2/3", TUESDAY), "Tue 2027-03-02 18:00");
}

#[test]
fn an_ambiguous_numeric_date_is_month_first_in_the_united_states() {
    assert_eq!(en("ur new card ships 2/3", TUESDAY), "Wed 2027-02-03 18:00");
}

#[test]
fn december_15_is_that_date() {
    assert_eq!(en("The refund will post by December 15.", TUESDAY), "Tue 2026-12-15 18:00");
}

#[test]
fn a_date_beside_a_weekday_wins_when_they_disagree() {
    assert_eq!(pt("a instalação fica para segunda, dia 8", TUESDAY), "Tue 2026-12-08 18:00");
}

#[test]
fn quinta_que_vem_dia_10_is_the_10th() {
    assert_eq!(pt("a Dra. Patrícia te liga na quinta que vem, dia 10", TUESDAY), "Thu 2026-12-10 18:00");
}

#[test]
fn friday_the_11th_is_the_11th() {
    assert_eq!(en("Our installer will be with you on Friday the 11th.", TUESDAY), "Fri 2026-12-11 18:00");
}

// ---- Portuguese weekday ordinals ----

#[test]
fn na_5a_de_manha_is_thursday_at_noon() {
    assert_eq!(pt("te dou um retorno na 5ª de manhã", TUESDAY), "Thu 2026-12-03 12:00");
}

#[test]
fn quinta_feira_written_5a_feira_is_thursday() {
    assert_eq!(pt("o orçamento fica pronto na 5ª-feira", TUESDAY), "Thu 2026-12-03 18:00");
}

#[test]
fn na_2a_is_monday() {
    assert_eq!(pt("ok! na 2ª te mando a proposta", TUESDAY), "Mon 2026-12-07 18:00");
}

#[test]
fn a_6a_feira_a_tarde_is_friday_afternoon() {
    assert_eq!(pt("o laudo fica pronto na 6ª feira à tarde", TUESDAY), "Fri 2026-12-04 18:00");
}

#[test]
fn an_ordinal_before_a_noun_is_not_a_weekday() {
    assert!(find("a 5ª parcela foi paga").is_empty());
}

// ---- the day after tomorrow, the next business day ----

#[test]
fn depois_de_amanha_is_two_days_ahead() {
    assert_eq!(pt("te ligo depois de amanhã", TUESDAY), "Thu 2026-12-03 18:00");
}

#[test]
fn the_day_after_tomorrow_is_two_days_ahead() {
    assert_eq!(en("We'll call you the day after tomorrow.", TUESDAY), "Thu 2026-12-03 18:00");
}

#[test]
fn the_next_business_day_is_the_next_one_not_three() {
    assert_eq!(en("A technician will call you on the next business day.", TUESDAY), "Wed 2026-12-02 18:00");
}

#[test]
fn the_next_business_day_skips_thanksgiving() {
    assert_eq!(
        en("Your transfer will post on the next business day.", "2026-11-25 10:00"),
        "Fri 2026-11-27 18:00"
    );
}

#[test]
fn o_proximo_dia_util_skips_christmas_and_the_weekend() {
    assert_eq!(pt("a Renata te liga no próximo dia útil", "2026-12-24 19:30"), "Mon 2026-12-28 18:00");
}

#[test]
fn proximo_dia_util_without_a_lead_is_read() {
    assert_eq!(pt("Retorno previsto: próximo dia útil.", "2026-12-18 16:00"), "Mon 2026-12-21 18:00");
}

// ---- named holidays and the end of the year ----

#[test]
fn antes_do_natal_is_the_last_business_day_before_christmas() {
    assert_eq!(pt("a apólice será enviada antes do Natal", TUESDAY), "Thu 2026-12-24 18:00");
}

#[test]
fn before_christmas_is_the_last_business_day_before_christmas() {
    assert_eq!(en("The installer will be out before Christmas.", TUESDAY), "Thu 2026-12-24 18:00");
}

#[test]
fn ate_o_ano_novo_is_the_last_business_day_of_the_year() {
    assert_eq!(pt("o sinal vai estar ativado até o Ano Novo", TUESDAY), "Thu 2026-12-31 18:00");
}

#[test]
fn no_natal_is_christmas_day_taken_at_its_word() {
    assert_eq!(pt("a floricultura entrega o arranjo no Natal", TUESDAY), "Fri 2026-12-25 18:00");
}

#[test]
fn no_reveillon_is_new_years_eve() {
    assert_eq!(pt("o maître te liga no Réveillon", TUESDAY), "Thu 2026-12-31 18:00");
}

#[test]
fn by_the_end_of_the_year_is_its_last_business_day() {
    assert_eq!(en("The export will be switched on by the end of the year.", TUESDAY), "Thu 2026-12-31 18:00");
}

#[test]
fn before_the_holidays_is_before_christmas() {
    assert_eq!(
        en("Our IT team will migrate your mailbox before the holidays.", TUESDAY),
        "Thu 2026-12-24 18:00"
    );
}

#[test]
fn after_thanksgiving_is_the_first_business_day_after_it() {
    assert_eq!(
        en("An adjuster will call you after Thanksgiving.", "2026-11-25 10:00"),
        "Fri 2026-11-27 18:00"
    );
}

#[test]
fn depois_do_carnaval_is_the_wednesday_after_it() {
    assert_eq!(pt("o consultor te visita depois do Carnaval", "2027-02-01 10:00"), "Wed 2027-02-10 18:00");
}

#[test]
fn depois_da_sexta_feira_santa_skips_the_weekend_after_it() {
    assert_eq!(
        pt("te envio o calendário depois da Sexta-feira Santa", "2027-02-01 10:00"),
        "Mon 2027-03-29 18:00"
    );
}

#[test]
fn christmas_said_after_it_is_next_years_and_skips_its_observed_holiday() {
    // 25 December 2027 is a Saturday: the United States observe it on Friday the 24th.
    assert_eq!(en("We'll ship it before Christmas.", "2026-12-28 10:00"), "Thu 2027-12-23 18:00");
}

#[test]
fn black_friday_last_year_is_no_due_time() {
    assert!(
        find("O produto que você comprou na Black Friday do ano passado ainda está na garantia").is_empty()
    );
}

// ---- chat spellings ----

#[test]
fn na_sxta_is_friday() {
    assert_eq!(pt("na sxta te passo o código", TUESDAY), "Fri 2026-12-04 18:00");
}

#[test]
fn sxt_at_the_start_is_friday() {
    assert_eq!(pt("sxt te passo o rastreio", TUESDAY), "Fri 2026-12-04 18:00");
}

#[test]
fn qui_is_thursday() {
    assert_eq!(pt("qui eu te mando o contrato", TUESDAY), "Thu 2026-12-03 18:00");
}

#[test]
fn amnh_is_tomorrow() {
    assert_eq!(pt("amnh te ligo", TUESDAY), "Wed 2026-12-02 18:00");
}

#[test]
fn tmrw_eve_is_tomorrow_evening() {
    assert_eq!(en("I'll call you tmrw eve", TUESDAY), "Wed 2026-12-02 22:00");
}

#[test]
fn prox_semana_is_next_week() {
    assert_eq!(pt("o pessoal volta prox semana", TUESDAY), "Fri 2026-12-11 18:00");
}

#[test]
fn nxt_wk_is_next_week() {
    assert_eq!(en("finance will push it thru nxt wk", TUESDAY), "Fri 2026-12-11 18:00");
}

// ---- business days and the national holidays ----

#[test]
fn em_18_dias_uteis_skips_christmas_on_the_default_calendar() {
    assert_eq!(pt("o estorno sai em 18 dias úteis", TUESDAY), "Mon 2026-12-28 18:00");
}

#[test]
fn within_19_business_days_skips_christmas_on_the_default_calendar() {
    assert_eq!(en("You'll get it within 19 business days.", TUESDAY), "Tue 2026-12-29 18:00");
}

#[test]
fn allow_up_to_5_business_days_is_five_business_days() {
    assert_eq!(en("Please allow up to 5 business days for the refund.", TUESDAY), "Tue 2026-12-08 18:00");
}

#[test]
fn a_worked_national_holiday_counts_as_a_business_day() {
    let settings = CalendarSettings {
        time_zone: Some("America/Sao_Paulo".into()),
        working_holidays: vec!["2026-12-25".into()],
        ..CalendarSettings::default()
    };
    let calendar = Calendar::from_settings(&settings).unwrap();
    assert!(calendar.is_business_day(jiff::civil::date(2026, 12, 25)));
}

#[test]
fn national_holidays_turned_off_leave_christmas_a_business_day() {
    let settings = CalendarSettings {
        time_zone: Some("America/Sao_Paulo".into()),
        national_holidays: false,
        ..CalendarSettings::default()
    };
    assert!(Calendar::from_settings(&settings).unwrap().is_business_day(jiff::civil::date(2026, 12, 25)));
}

#[test]
fn a_chosen_country_replaces_the_zones() {
    let settings = CalendarSettings {
        time_zone: Some("America/Sao_Paulo".into()),
        country: Some("US".into()),
        ..CalendarSettings::default()
    };
    let calendar = Calendar::from_settings(&settings).unwrap();
    assert!(!calendar.is_business_day(jiff::civil::date(2026, 11, 26)), "Thanksgiving");
    assert!(calendar.is_business_day(jiff::civil::date(2026, 11, 20)), "not Brazil's Consciência Negra");
}

#[test]
fn an_unknown_country_is_refused() {
    let settings = CalendarSettings { country: Some("XX".into()), ..CalendarSettings::default() };
    assert_eq!(Calendar::from_settings(&settings), Err(CalendarError::UnknownCountry("XX".into())));
}

// ---- which time is the promise's ----

#[test]
fn the_time_beside_the_promises_verb_wins_over_the_context() {
    let calendar = calendar("America/New_York");
    let now = jiff::civil::date(2026, 12, 4)
        .at(17, 30, 0, 0)
        .to_zoned_datetime(calendar.time_zone().clone())
        .unwrap();
    let message =
        "Our installer is fully booked today, so he'll come back on Friday to finish the fiber connection.";
    let found = due_for(message, &crate::detect(message), &now, &calendar).unwrap();
    assert_eq!(found.expression.text, "on Friday");
}

#[test]
fn a_date_just_gone_by_is_context_not_the_promise() {
    let calendar = calendar("America/Sao_Paulo");
    let now = jiff::civil::date(2026, 11, 25)
        .at(10, 0, 0, 0)
        .to_zoned_datetime(calendar.time_zone().clone())
        .unwrap();
    let message = "A leitura foi feita em 18/11; se houver acerto, a concessionária te avisa antes do dia 4.";
    assert_eq!(due(message, &now, &calendar).unwrap().expression.text, "antes do dia 4");
}

#[test]
fn the_opening_hours_are_context_not_the_promise() {
    let calendar = calendar("America/Sao_Paulo");
    let now = jiff::civil::date(2026, 12, 4)
        .at(17, 30, 0, 0)
        .to_zoned_datetime(calendar.time_zone().clone())
        .unwrap();
    let message = "Nossa loja fecha às 18h hoje, mas o gerente te liga amanhã às 9h pra resolver a troca.";
    assert_eq!(due(message, &now, &calendar).unwrap().expression.text, "amanhã às 9h");
}

#[test]
fn a_day_something_already_happened_is_context_not_the_promise() {
    let calendar = calendar("America/Sao_Paulo");
    let now = jiff::civil::date(2026, 12, 14)
        .at(9, 15, 0, 0)
        .to_zoned_datetime(calendar.time_zone().clone())
        .unwrap();
    let message = "Sua encomenda foi postada no sábado e a transportadora entrega no dia 18.";
    assert_eq!(due(message, &now, &calendar).unwrap().expression.text, "no dia 18");
}

#[test]
fn btwn_8_and_10_tomorrow_is_tomorrow_at_10() {
    assert_eq!(en("tech will b there tmr btwn 8 and 10, ok?", TUESDAY), "Wed 2026-12-02 10:00");
}

#[test]
fn next_biz_day_is_the_next_business_day() {
    assert_eq!(en("they reply next biz day", TUESDAY), "Wed 2026-12-02 18:00");
}

#[test]
fn a_month_abbreviated_with_a_dot_is_read() {
    assert_eq!(en("The office will mail it on Wednesday, Dec. 10.", TUESDAY), "Thu 2026-12-10 18:00");
}

#[test]
fn by_month_end_is_the_last_business_day_of_the_month() {
    assert_eq!(en("Our specialist will apply the discount by month end.", TUESDAY), "Thu 2026-12-31 18:00");
}

#[test]
fn a_range_of_bare_hours_after_a_weekday_ends_at_its_written_time() {
    assert_eq!(en("tech window is Thu 2-4pm", TUESDAY), "Thu 2026-12-03 16:00");
}

#[test]
fn dia_1o_is_the_first_of_the_month() {
    assert_eq!(pt("no dia 1º eu confirmo com a senhora", "2026-11-25 10:00"), "Tue 2026-12-01 18:00");
}

#[test]
fn a_weekday_naming_a_thing_is_no_due_time() {
    assert!(find("Como combinamos na reunião de sexta, já ajustei os valores.").is_empty());
}

#[test]
fn na_ultima_quinta_feira_is_no_due_time() {
    assert!(find("A vistoria foi aprovada na última quinta-feira.").is_empty());
}

#[test]
fn a_time_in_a_clause_about_the_past_is_context() {
    let calendar = calendar("America/Sao_Paulo");
    let now = jiff::civil::date(2027, 2, 1)
        .at(10, 0, 0, 0)
        .to_zoned_datetime(calendar.time_zone().clone())
        .unwrap();
    let message =
        "A sua solicitação foi aprovada hoje de manhã. O cartão é produzido e entregue em até 10 dias úteis.";
    assert_eq!(due(message, &now, &calendar).unwrap().expression.text, "em até 10 dias úteis");
}

#[test]
fn tmrw_10ish_is_tomorrow_at_10() {
    assert_eq!(
        en("ill be back in the office tmrw 10ish and ur my first call", TUESDAY),
        "Wed 2026-12-02 10:00"
    );
}

#[test]
fn segunda_feira_proxima_is_the_coming_monday() {
    assert_eq!(
        pt("o reparo ficou pra segunda-feira próxima, entre 13h e 17h", "2026-12-04 17:30"),
        "Mon 2026-12-07 17:00"
    );
}

#[test]
fn today_naming_a_thing_is_no_due_time() {
    assert!(find("a compensação de hoje já fechou").is_empty());
}

#[test]
fn a_day_and_a_months_abbreviation_is_a_date() {
    assert_eq!(pt("confirmamos pelo whats dia 23/dez de manhã", TUESDAY), "Wed 2026-12-23 12:00");
}

#[test]
fn a_dotted_date_after_a_lead_is_a_date() {
    assert_eq!(pt("a carta de quitação te mando até 30.11", "2026-11-25 10:00"), "Mon 2026-11-30 18:00");
}

#[test]
fn a_bare_hour_before_a_name_is_that_hour() {
    assert_eq!(pt("amanhã às 10 a Luana te liga", TUESDAY), "Wed 2026-12-02 10:00");
}

#[test]
fn business_days_counted_from_today_are_one_expression() {
    let found = find("o prazo para resposta é de 7 dias úteis, contados a partir de hoje.");
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].meaning, Meaning::Within { amount: 7, unit: Unit::BusinessDays });
}

#[test]
fn ate_a_6a_is_by_friday() {
    assert_eq!(pt("a clínica confirma seu encaixe até a 6ª.", TUESDAY), "Fri 2026-12-04 18:00");
}

#[test]
fn no_dia_util_seguinte_is_the_next_business_day() {
    assert_eq!(
        pt("o comprovante será enviado no dia útil seguinte", "2026-12-24 10:00"),
        "Mon 2026-12-28 18:00"
    );
}

#[test]
fn between_noon_and_2_is_2pm() {
    assert_eq!(en("the driver will drop them off between noon and 2.", TUESDAY), "Tue 2026-12-01 14:00");
}

#[test]
fn before_the_month_is_out_is_the_last_business_day_of_the_month() {
    assert_eq!(
        en("You'll get a call from Priya in billing before the month is out.", "2026-11-25 10:00"),
        "Mon 2026-11-30 18:00"
    );
}

#[test]
fn a_day_of_the_month_naming_a_thing_is_no_due_time() {
    assert!(find("Nota fiscal do pedido do dia 2?").is_empty());
}

#[test]
fn a_holiday_and_the_hours_a_shop_is_open_are_context() {
    let calendar = calendar("America/Sao_Paulo");
    let now = jiff::civil::date(2026, 12, 4)
        .at(17, 30, 0, 0)
        .to_zoned_datetime(calendar.time_zone().clone())
        .unwrap();
    let message = "A loja fica aberta até as 22h, mas a troca só é aprovada pela central: te dou a resposta amanhã à tarde.";
    assert_eq!(due(message, &now, &calendar).unwrap().expression.text, "amanhã à tarde");
}
