//! The promise ledger over time: a promise that falls due with nobody's reply is announced once,
//! a closed case or a promise still ahead is not, and Waiting on you puts overdue promises first.

mod support;

use skillcase_cases::model::Actor;
use skillcase_cases::promises::NewPromise;
use skillcase_cases::store::{CaseFilter, CaseTab};
use skillcase_cases::CasesRepository;
use support::{cases_at, new_db, refund_case};

const NOW: &str = "2026-12-01T12:00:00.000Z";

fn promise(quote: &str, due_at: &str, turn: &str) -> NewPromise {
    NewPromise {
        quote: quote.into(),
        actor: Some("A equipe financeira".into()),
        action: Some("te retorna".into()),
        due_text: Some("ainda hoje".into()),
        due_at: Some(due_at.into()),
        turn_id: turn.into(),
        spans: vec![],
    }
}

fn numbers_told(cases: &dyn CasesRepository, now: &str) -> Vec<i64> {
    cases.take_overdue_promises(now).unwrap().into_iter().map(|p| p.number).collect()
}

#[test]
fn a_promise_past_its_due_time_is_announced_once_with_its_words() {
    let (_dir, path, _conn) = new_db();
    let cases = cases_at(&path);
    let case = cases.open_case(refund_case("c1")).unwrap().case;
    cases
        .record_promise(&case.id, &promise("Te retorno ainda hoje.", "2026-12-01T11:00:00.000Z", "t1"))
        .unwrap();

    let told = cases.take_overdue_promises(NOW).unwrap();
    assert_eq!(told.len(), 1);
    assert_eq!((told[0].case_id.as_str(), told[0].number), (case.id.as_str(), case.number));
    assert_eq!(told[0].quote, "Te retorno ainda hoje.");
    assert_eq!(numbers_told(&cases, NOW), Vec::<i64>::new());
}

#[test]
fn a_promise_still_ahead_is_not_announced_until_it_falls_due() {
    let (_dir, path, _conn) = new_db();
    let cases = cases_at(&path);
    let case = cases.open_case(refund_case("c1")).unwrap().case;
    cases
        .record_promise(&case.id, &promise("Amanhã cedo te ligamos.", "2026-12-02T12:00:00.000Z", "t1"))
        .unwrap();

    assert_eq!(numbers_told(&cases, NOW), Vec::<i64>::new());
    assert_eq!(numbers_told(&cases, "2026-12-02T12:00:00.000Z"), vec![case.number]);
}

#[test]
fn a_cancelled_case_announces_no_overdue_promise() {
    let (_dir, path, _conn) = new_db();
    let cases = cases_at(&path);
    let case = cases.open_case(refund_case("c1")).unwrap().case;
    cases
        .record_promise(&case.id, &promise("Te retorno ainda hoje.", "2026-12-01T11:00:00.000Z", "t1"))
        .unwrap();
    cases.cancel(&case.id, Actor::Agent, None, None).unwrap();

    assert_eq!(numbers_told(&cases, NOW), Vec::<i64>::new());
}

#[test]
fn a_sooner_promise_after_an_announced_one_is_announced_again() {
    let (_dir, path, _conn) = new_db();
    let cases = cases_at(&path);
    let case = cases.open_case(refund_case("c1")).unwrap().case;
    cases
        .record_promise(&case.id, &promise("Te retorno ainda hoje.", "2026-12-01T11:00:00.000Z", "t1"))
        .unwrap();
    assert_eq!(numbers_told(&cases, NOW), vec![case.number]);

    cases
        .record_promise(&case.id, &promise("Em uma hora te ligamos.", "2026-12-01T10:00:00.000Z", "t2"))
        .unwrap();
    let told = cases.take_overdue_promises(NOW).unwrap();
    assert_eq!(told.iter().map(|p| p.quote.as_str()).collect::<Vec<_>>(), vec!["Em uma hora te ligamos."]);
}

#[test]
fn waiting_on_you_lists_the_most_overdue_promise_first() {
    let (_dir, path, _conn) = new_db();
    let cases = cases_at(&path);
    let plain = cases.open_case(refund_case("c1")).unwrap().case;
    let later = cases.open_case(refund_case("c2")).unwrap().case;
    let sooner = cases.open_case(refund_case("c3")).unwrap().case;
    cases.record_promise(&later.id, &promise("Ligamos às 11h.", "2020-01-01T11:00:00.000Z", "t1")).unwrap();
    cases.record_promise(&sooner.id, &promise("Ligamos às 10h.", "2020-01-01T10:00:00.000Z", "t1")).unwrap();

    let filter = CaseFilter { tab: Some(CaseTab::WaitingOnYou), ..CaseFilter::default() };
    let order: Vec<i64> = cases.list_cases(&filter).unwrap().items.iter().map(|i| i.case.number).collect();
    assert_eq!(order, vec![sooner.number, later.number, plain.number]);
}

#[test]
fn pages_of_waiting_on_you_run_on_across_the_overdue_promises_without_a_gap_or_a_repeat() {
    let (_dir, path, _conn) = new_db();
    let cases = cases_at(&path);
    let opened: Vec<_> =
        (1..=5).map(|n| cases.open_case(refund_case(&format!("c{n}"))).unwrap().case).collect();
    cases
        .record_promise(&opened[3].id, &promise("Ligamos às 10h.", "2020-01-01T10:00:00.000Z", "t1"))
        .unwrap();
    cases
        .record_promise(&opened[4].id, &promise("Ligamos às 11h.", "2020-01-01T11:00:00.000Z", "t1"))
        .unwrap();
    cases
        .record_promise(&opened[0].id, &promise("Ligamos em 2099.", "2099-01-01T10:00:00.000Z", "t1"))
        .unwrap();

    let page = |offset: u32| -> Vec<i64> {
        let filter =
            CaseFilter { tab: Some(CaseTab::WaitingOnYou), offset, limit: 2, ..CaseFilter::default() };
        cases.list_cases(&filter).unwrap().items.iter().map(|i| i.case.number).collect()
    };
    let n = |i: usize| opened[i].number;
    assert_eq!(page(0), vec![n(3), n(4)]);
    assert_eq!(page(1), vec![n(4), n(0)]);
    assert_eq!(page(2), vec![n(0), n(1)]);
    assert_eq!(page(4), vec![n(2)]);
}
