//! The promise ledger: a promise that passed the guardrail goes on its case's timeline once per
//! turn, the soonest one is what the case owes, one that falls due with nobody's reply is
//! announced once (however many instances poll), a closed case or a promise still ahead is not,
//! and Waiting on you puts overdue promises first.

use skillcase_cases::model::{Actor, EventKind};
use skillcase_cases::promises::NewPromise;
use skillcase_cases::store::{CaseFilter, CaseTab};
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;

use crate::support::{at_once, Db};

const NOW: &str = "2026-12-01T12:00:00.000Z";

fn promise(quote: &str, due_at: Option<&str>, turn: &str) -> NewPromise {
    NewPromise {
        quote: quote.into(),
        actor: Some("A equipe financeira".into()),
        action: Some("te retorna".into()),
        due_text: Some("ainda hoje".into()),
        due_at: due_at.map(str::to_string),
        turn_id: turn.into(),
        spans: vec![],
    }
}

fn numbers_told(db: &Db, now: &str) -> Vec<i64> {
    db.take_overdue_promises(now).unwrap().into_iter().map(|p| p.number).collect()
}

/// The `promise_made` events of a case, oldest first.
fn promise_events(db: &Db, case_id: &str) -> Vec<serde_json::Value> {
    db.events(case_id).into_iter().filter(|e| e.kind == EventKind::PromiseMade).map(|e| e.payload).collect()
}

/// The promise the case owes: its words and when it falls due.
fn pending_promise(db: &Db, case_id: &str) -> (Option<String>, Option<String>) {
    let row = &db.rows(&format!("SELECT promise_quote, promise_due_at FROM cases WHERE id = '{case_id}'"))[0];
    (row.opt_text(0).unwrap(), row.opt_text(1).unwrap())
}

fn owed(quote: &str, due_at: &str) -> (Option<String>, Option<String>) {
    (Some(quote.into()), Some(due_at.into()))
}

// The ledger.

on_both! {
    fn a_promise_goes_on_the_ledger_as_the_agents_promise_made_event(db) {
        let id = db.open("conv-1");
        let made = promise("Te retorno ainda hoje.", Some("2026-12-01T18:00:00.000Z"), "turn-1");
        assert!(db.record_promise(&id, &made).unwrap());
        assert_eq!(promise_events(db, &id), vec![made.event_payload()]);
        let event = db.events(&id).pop().unwrap();
        assert_eq!((event.actor, event.actor_name.as_deref()), (Actor::Agent, Some("support-bot")));
        assert_eq!(pending_promise(db, &id), owed("Te retorno ainda hoje.", "2026-12-01T18:00:00.000Z"));
    }
}

on_both! {
    fn the_same_promise_checked_again_in_a_turn_is_recorded_once(db) {
        let id = db.open("conv-1");
        let made = promise("Te retorno ainda hoje.", None, "turn-1");
        assert!(db.record_promise(&id, &made).unwrap());
        assert!(!db.record_promise(&id, &made).unwrap());
        assert!(db.record_promise(&id, &promise("Te retorno ainda hoje.", None, "turn-2")).unwrap());
        assert_eq!(promise_events(db, &id).len(), 2);
    }
}

on_both! {
    fn a_promise_on_an_unknown_case_is_refused_with_case_not_found(db) {
        let err = db.record_promise("no-such-case", &promise("Te retorno.", None, "turn-1")).unwrap_err();
        assert_eq!(err.code(), "case_not_found");
    }
}

on_both! {
    fn a_sooner_promise_becomes_the_pending_one_and_a_later_one_does_not(db) {
        let id = db.open("conv-1");
        db.record_promise(&id, &promise("Hoje às 18h.", Some("2026-12-01T18:00:00.000Z"), "t1")).unwrap();
        db.record_promise(&id, &promise("Amanhã.", Some("2026-12-02T12:00:00.000Z"), "t2")).unwrap();
        db.record_promise(&id, &promise("Sem prazo.", None, "t3")).unwrap();
        assert_eq!(pending_promise(db, &id), owed("Hoje às 18h.", "2026-12-01T18:00:00.000Z"));
        db.record_promise(&id, &promise("Em uma hora.", Some("2026-12-01T13:00:00.000Z"), "t4")).unwrap();
        assert_eq!(pending_promise(db, &id), owed("Em uma hora.", "2026-12-01T13:00:00.000Z"));
    }
}

on_both! {
    fn two_instances_recording_the_same_promise_at_once_record_it_once(db) {
        let id = db.open("conv-1");
        let recorded = at_once(db, 10, |instance, _| {
            instance.record_promise(&id, &promise("Te retorno ainda hoje.", None, "turn-1")).unwrap()
        });
        assert_eq!(recorded.iter().filter(|r| **r).count(), 1, "{recorded:?}");
        assert_eq!(promise_events(db, &id).len(), 1);
    }
}

// Overdue promises.

on_both! {
    fn a_promise_past_its_due_time_is_announced_once_with_its_words(db) {
        let case = db.open_case(crate::support::refund_case("c1")).unwrap().case;
        db.record_promise(
            &case.id,
            &promise("Te retorno ainda hoje.", Some("2026-12-01T11:00:00.000Z"), "t1"),
        )
        .unwrap();
        let told = db.take_overdue_promises(NOW).unwrap();
        assert_eq!(told.len(), 1);
        assert_eq!((told[0].case_id.as_str(), told[0].number), (case.id.as_str(), case.number));
        assert_eq!(told[0].quote, "Te retorno ainda hoje.");
        assert_eq!(numbers_told(db, NOW), Vec::<i64>::new());
    }
}

on_both! {
    fn a_promise_still_ahead_is_not_announced_until_it_falls_due(db) {
        let id = db.open("c1");
        db.record_promise(&id, &promise("Amanhã cedo te ligamos.", Some("2026-12-02T12:00:00.000Z"), "t1"))
            .unwrap();
        assert_eq!(numbers_told(db, NOW), Vec::<i64>::new());
        assert_eq!(numbers_told(db, "2026-12-02T12:00:00.000Z"), vec![1001]);
    }
}

on_both! {
    fn a_cancelled_case_announces_no_overdue_promise(db) {
        let id = db.open("c1");
        db.record_promise(&id, &promise("Te retorno ainda hoje.", Some("2026-12-01T11:00:00.000Z"), "t1"))
            .unwrap();
        db.cancel(&id, Actor::Agent, None, None).unwrap();
        assert_eq!(numbers_told(db, NOW), Vec::<i64>::new());
    }
}

on_both! {
    fn a_sooner_promise_after_an_announced_one_is_announced_again(db) {
        let id = db.open("c1");
        db.record_promise(&id, &promise("Te retorno ainda hoje.", Some("2026-12-01T11:00:00.000Z"), "t1"))
            .unwrap();
        assert_eq!(numbers_told(db, NOW), vec![1001]);
        db.record_promise(&id, &promise("Em uma hora te ligamos.", Some("2026-12-01T10:00:00.000Z"), "t2"))
            .unwrap();
        let told = db.take_overdue_promises(NOW).unwrap();
        assert_eq!(told.iter().map(|p| p.quote.as_str()).collect::<Vec<_>>(), ["Em uma hora te ligamos."]);
    }
}

on_both! {
    fn two_instances_polling_overdue_promises_at_once_take_each_once(db) {
        for n in 0..30 {
            let id = db.open(&format!("conv-{n}"));
            db.set(&id, "promise_quote = 'Hoje.', promise_due_at = '2026-12-01T11:00:00.000Z'");
        }
        let told: Vec<i64> =
            at_once(db, 6, |instance, _| numbers_told(instance, NOW)).into_iter().flatten().collect();
        let mut sorted = told.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (1001..1031).collect::<Vec<i64>>(), "every case once: {told:?}");
    }
}

// Waiting on you.

on_both! {
    fn waiting_on_you_lists_the_most_overdue_promise_first_with_the_promise(db) {
        db.open("c1");
        let later = db.open("c2");
        let sooner = db.open("c3");
        db.record_promise(&later, &promise("Ligamos às 11h.", Some("2020-01-01T11:00:00.000Z"), "t1"))
            .unwrap();
        db.record_promise(&sooner, &promise("Ligamos às 10h.", Some("2020-01-01T10:00:00.000Z"), "t1"))
            .unwrap();
        let filter = CaseFilter { tab: Some(CaseTab::WaitingOnYou), ..CaseFilter::default() };
        let page = db.list_cases(&filter).unwrap();
        assert_eq!(page.items.iter().map(|i| i.case.number).collect::<Vec<_>>(), [1003, 1002, 1001]);
        let first = page.items[0].promise.as_ref().unwrap();
        assert_eq!(
            (first.quote.as_str(), first.due_at.as_deref()),
            ("Ligamos às 10h.", Some("2020-01-01T10:00:00.000Z"))
        );
        assert_eq!(page.items[2].promise, None);
    }
}

on_both! {
    fn pages_of_waiting_on_you_run_on_across_the_overdue_promises_without_a_gap_or_a_repeat(db) {
        let opened: Vec<String> = (1..=5).map(|n| db.open(&format!("c{n}"))).collect();
        db.record_promise(&opened[3], &promise("Ligamos às 10h.", Some("2020-01-01T10:00:00.000Z"), "t1"))
            .unwrap();
        db.record_promise(&opened[4], &promise("Ligamos às 11h.", Some("2020-01-01T11:00:00.000Z"), "t1"))
            .unwrap();
        db.record_promise(&opened[0], &promise("Ligamos em 2099.", Some("2099-01-01T10:00:00.000Z"), "t1"))
            .unwrap();
        let page = |offset: u32| -> Vec<i64> {
            let filter =
                CaseFilter { tab: Some(CaseTab::WaitingOnYou), offset, limit: 2, ..CaseFilter::default() };
            db.list_cases(&filter).unwrap().items.iter().map(|i| i.case.number).collect()
        };
        assert_eq!(page(0), [1004, 1005]);
        assert_eq!(page(1), [1005, 1001]);
        assert_eq!(page(2), [1001, 1002]);
        assert_eq!(page(4), [1003]);
    }
}

// When the overdue watch next wakes.

on_both! {
    fn the_watch_next_wakes_at_the_earliest_promise_not_yet_announced(db) {
        let (first, second) = (db.open("c1"), db.open("c2"));
        assert_eq!(db.next_overdue_at().unwrap(), None, "nothing owed");
        db.record_promise(&first, &promise("Amanhã cedo te ligamos.", Some("2026-12-02T12:00:00.000Z"), "t1"))
            .unwrap();
        db.record_promise(&second, &promise("Te retorno ainda hoje.", Some("2026-12-01T11:00:00.000Z"), "t1"))
            .unwrap();
        assert_eq!(db.next_overdue_at().unwrap().as_deref(), Some("2026-12-01T11:00:00.000Z"));
        assert_eq!(numbers_told(db, NOW), vec![1002]);
        assert_eq!(db.next_overdue_at().unwrap().as_deref(), Some("2026-12-02T12:00:00.000Z"), "announced once");
        db.cancel(&first, Actor::Agent, None, None).unwrap();
        assert_eq!(db.next_overdue_at().unwrap(), None, "a closed case owes nothing");
    }
}
