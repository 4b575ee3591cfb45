//! Assignment: a person takes a case, gives it to someone or leaves it to anyone; each change is
//! an event by that person, nothing else about the case moves, a closed case refuses, and a bulk
//! assignment is all or none. (The Mine and Unassigned views are the inbox's.)

use serde_json::json;
use skillcase_cases::model::{CaseStatus, EventKind};
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;

use crate::support::{ids, refund_case};

on_both! {
    fn taking_a_case_sets_the_assignee_and_records_who_did_it(db) {
        let id = db.open("conv-1");
        let cases = db.assign(&ids(&[&id]), Some("  Ana  "), "Ana").unwrap();
        assert_eq!(cases[0].assignee.as_deref(), Some("Ana"));
        let last = db.events(&id).pop().unwrap();
        assert_eq!((last.kind, last.actor_name.as_deref()), (EventKind::Assigned, Some("Ana")));
        assert_eq!(last.payload, json!({ "assignee": "Ana", "previous": null }));
    }
}

on_both! {
    fn giving_a_case_to_someone_else_records_who_had_it(db) {
        let id = db.open("conv-1");
        db.assign(&ids(&[&id]), Some("Ana"), "Ana").unwrap();
        db.assign(&ids(&[&id]), Some("Bruno"), "Ana").unwrap();
        let last = db.events(&id).pop().unwrap();
        assert_eq!(last.payload, json!({ "assignee": "Bruno", "previous": "Ana" }));
    }
}

on_both! {
    fn unassigning_leaves_the_case_to_anyone_with_an_unassigned_event(db) {
        let id = db.open("conv-1");
        db.assign(&ids(&[&id]), Some("Ana"), "Ana").unwrap();
        let cases = db.assign(&ids(&[&id]), None, "Ana").unwrap();
        assert_eq!(cases[0].assignee, None);
        let last = db.events(&id).pop().unwrap();
        assert_eq!((last.kind, last.payload), (EventKind::Unassigned, json!({ "previous": "Ana" })));
    }
}

on_both! {
    fn assigning_to_the_same_person_again_adds_no_event(db) {
        let id = db.open("conv-1");
        db.assign(&ids(&[&id]), Some("Ana"), "Ana").unwrap();
        let before = db.events(&id).len();
        db.assign(&ids(&[&id]), Some("Ana"), "Ana").unwrap();
        assert_eq!(db.events(&id).len(), before);
    }
}

on_both! {
    fn assignment_leaves_status_and_waiting_time_as_they_were(db) {
        let before = db.open_case(refund_case("conv-1")).unwrap().case;
        let after = db.assign(&ids(&[&before.id]), Some("Ana"), "Ana").unwrap().remove(0);
        assert_eq!((after.status, &after.waiting_since), (before.status, &before.waiting_since));
    }
}

on_both! {
    fn a_closed_case_refuses_assignment_and_nothing_changes(db) {
        let open_one = db.open("conv-1");
        let closed = db.case_in("conv-2", CaseStatus::Cancelled);
        let err = db.assign(&ids(&[&open_one, &closed]), Some("Ana"), "Ana").unwrap_err();
        assert_eq!(err.code(), "invalid_transition");
        assert_eq!(err.to_string(), "case #1002: a case that is cancelled cannot take the action assign");
        assert_eq!(db.case(&open_one).assignee, None, "all or none");
    }
}

on_both! {
    fn a_blank_assignee_is_refused_with_its_code(db) {
        let id = db.open("conv-1");
        assert_eq!(db.assign(&ids(&[&id]), Some("   "), "Ana").unwrap_err().code(), "invalid_case_input");
    }
}
