//! Bulk actions on the inbox list: several cases marked read or unread, or cancelled with one
//! reason — all of them in one step, or none — and two instances marking overlapping cases at
//! once taking turns instead of deadlocking.

use serde_json::json;
use skillcase_cases::model::{CaseStatus, EventKind};
use skillcase_cases::sql::Storage;
use skillcase_cases::transition::MAX_BULK_CASES;
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;

use crate::support::{ids, Db};

fn unread(db: &Db, id: &str) -> bool {
    let id = id.to_string();
    db.read(|sql| skillcase_cases::reads::is_unread(sql, &id)).unwrap()
}

on_both! {
    fn several_cases_are_marked_read_and_unread_again_at_once(db) {
        let (first, second) = (db.open("conv-1"), db.open("conv-2"));
        db.set_read_many(&ids(&[&first, &second]), true).unwrap();
        assert_eq!((unread(db, &first), unread(db, &second)), (false, false));
        db.set_read_many(&ids(&[&first, &second]), false).unwrap();
        assert_eq!((unread(db, &first), unread(db, &second)), (true, true));
    }
}

on_both! {
    fn marking_several_read_changes_none_when_one_does_not_exist(db) {
        let id = db.open("conv-1");
        let err = db.set_read_many(&ids(&[&id, "no-such-case"]), true).unwrap_err();
        assert_eq!(
            (err.code(), err.details().unwrap()["id"].as_str()),
            ("case_not_found", Some("no-such-case"))
        );
        assert!(unread(db, &id));
    }
}

on_both! {
    fn several_open_cases_are_cancelled_with_one_reason_by_the_person(db) {
        let first = db.case_in("conv-1", CaseStatus::AwaitingHuman);
        let second = db.case_in("conv-2", CaseStatus::AwaitingLead);
        let sent_before = db.deliveries(&second).len();
        let cancelled = db.cancel_many(&ids(&[&second, &first]), "Ana", "Duplicate of #1000").unwrap();
        assert_eq!(
            cancelled.iter().map(|c| (c.id.as_str(), c.status)).collect::<Vec<_>>(),
            [(second.as_str(), CaseStatus::Cancelled), (first.as_str(), CaseStatus::Cancelled)]
        );
        let last = db.events(&first).pop().unwrap();
        assert_eq!((last.kind, last.actor_name.as_deref()), (EventKind::Cancelled, Some("Ana")));
        assert_eq!(last.payload, json!({ "reason": "Duplicate of #1000" }));
        assert_eq!(db.deliveries(&second).len(), sent_before, "a cancel is not sent to the agent");
    }
}

on_both! {
    fn cancelling_several_changes_none_when_one_is_already_closed_and_names_it_by_number(db) {
        let open_one = db.case_in("conv-1", CaseStatus::AwaitingHuman);
        let closed = db.case_in("conv-2", CaseStatus::Resolved);
        let before = db.snapshot(&open_one);
        let err = db.cancel_many(&ids(&[&open_one, &closed]), "Ana", "Spam").unwrap_err();
        assert_eq!(err.code(), "invalid_transition");
        assert_eq!(err.to_string(), "case #1002: a case that is resolved cannot take the action cancel");
        assert_eq!(db.snapshot(&open_one), before);
    }
}

on_both! {
    fn cancelling_several_changes_none_when_one_does_not_exist(db) {
        let id = db.open("conv-1");
        let err = db.cancel_many(&ids(&[&id, "no-such-case"]), "Ana", "Spam").unwrap_err();
        assert_eq!(err.code(), "case_not_found");
        assert_eq!(db.case(&id).status, CaseStatus::AwaitingHuman);
    }
}

on_both! {
    fn cancelling_several_needs_a_reason(db) {
        let id = db.open("conv-1");
        assert_eq!(db.cancel_many(&ids(&[&id]), "Ana", "  ").unwrap_err().code(), "text_required");
        assert_eq!(db.case(&id).status, CaseStatus::AwaitingHuman);
    }
}

on_both! {
    fn a_bulk_action_names_at_least_one_case_and_at_most_the_limit(db) {
        assert_eq!(db.set_read_many(&[], true).unwrap_err().code(), "invalid_case_input");
        assert_eq!(db.cancel_many(&[], "Ana", "Spam").unwrap_err().code(), "invalid_case_input");
        let too_many: Vec<String> = (0..=MAX_BULK_CASES).map(|n| format!("case-{n}")).collect();
        for err in [
            db.set_read_many(&too_many, true).unwrap_err(),
            db.cancel_many(&too_many, "Ana", "Spam").unwrap_err(),
            db.assign(&too_many, Some("Ana"), "Ana").unwrap_err(),
        ] {
            assert_eq!(err.to_string(), "ids names 501 cases; at most 500 are taken at once");
        }
    }
}

on_both! {
    fn a_case_named_twice_in_a_bulk_action_is_taken_once(db) {
        let id = db.open("conv-1");
        db.set_read_many(&ids(&[&id, &id]), true).unwrap();
        assert_eq!(db.cancel_many(&ids(&[&id, &id]), "Ana", "Spam").unwrap().len(), 1);
        assert_eq!(db.kinds(&id), vec![EventKind::Opened, EventKind::Cancelled]);
    }
}

on_both! {
    fn two_instances_marking_the_same_cases_at_once_in_opposite_orders_both_succeed(db) {
        let forward: Vec<String> = (0..20).map(|n| db.open(&format!("conv-{n}"))).collect();
        let backward: Vec<String> = forward.iter().rev().cloned().collect();
        let done = crate::support::at_once(db, 2, |instance, n| {
            let (order, read) = if n == 0 { (&forward, true) } else { (&backward, false) };
            (0..20).try_for_each(|_| instance.set_read_many(order, read))
        });
        assert!(done.iter().all(Result::is_ok), "{done:?}");
        let unread = db.tab_counts().unwrap().unread;
        assert!(unread == 0 || unread == 20, "each bulk mark is all or none: {unread}");
    }
}
