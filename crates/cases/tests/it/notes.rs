//! Internal notes: a person's private note is on the case's timeline, changes nothing about the
//! case, and never reaches the agent (no delivery, not in the webhook, not in the agent's view).

use std::time::Duration;

use serde_json::json;
use skillcase_cases::model::{Actor, CaseStatus, EventKind, HumanAction};
use skillcase_cases::{CasesRepository, OutboxRepository};
use skillcase_common::error::Coded;

use crate::support::{endpoint_input, refund_case};

on_both! {
    fn a_note_is_on_the_timeline_as_an_internal_note_by_the_person(db) {
        let id = db.open("conv-1");
        let note = db.add_note(&id, "  Customer is a reseller; check the contract.  ", "Ana").unwrap();
        let last = db.events(&id).pop().unwrap();
        assert_eq!(last, note);
        assert_eq!(
            (last.kind, last.actor, last.actor_name.as_deref()),
            (EventKind::InternalNote, Actor::Human, Some("Ana"))
        );
        assert_eq!(last.payload, json!({ "text": "Customer is a reseller; check the contract." }));
    }
}

on_both! {
    fn a_note_leaves_the_case_as_it_was_and_writes_no_delivery_for_the_agent(db) {
        db.set_endpoint(endpoint_input("http://127.0.0.1:9/hooks")).unwrap();
        let before = db.open_case(refund_case("conv-1")).unwrap().case;
        db.add_note(&before.id, "Do not refund before Friday.", "Ana").unwrap();
        assert_eq!(db.case(&before.id), before);
        assert!(db.deliveries(&before.id).is_empty());
        assert!(db.claim_next(Duration::from_secs(30)).unwrap().is_none());
    }
}

on_both! {
    fn the_webhook_of_a_later_reply_does_not_carry_the_note(db) {
        let id = db.open("conv-1");
        db.add_note(&id, "Secret: manager approved offline.", "Ana").unwrap();
        db.reply(&id, HumanAction::Resolved, "Refunded the second charge.", "Ana").unwrap();
        db.set_endpoint(endpoint_input("http://127.0.0.1:9/hooks")).unwrap();
        let claimed = db.claim_next(Duration::from_secs(30)).unwrap().unwrap();
        assert!(claimed.body.contains("Refunded the second charge."));
        assert!(!claimed.body.contains("manager approved"), "{}", claimed.body);
        assert!(!claimed.body.contains("internal_note"), "{}", claimed.body);
    }
}

on_both! {
    fn the_agent_s_view_of_a_case_leaves_the_notes_out(db) {
        let id = db.open("conv-1");
        db.add_note(&id, "Manager approved offline.", "Ana").unwrap();
        let full = db.get_case(&id).unwrap();
        let seen = full.clone().for_agent();
        assert_eq!(full.events.len(), 2);
        assert_eq!(seen.events.iter().map(|e| e.kind).collect::<Vec<_>>(), [EventKind::Opened]);
        assert_eq!(seen.case, full.case);
    }
}

on_both! {
    fn a_closed_case_still_takes_a_note(db) {
        let id = db.case_in("conv-1", CaseStatus::Resolved);
        db.add_note(&id, "Customer thanked us by phone.", "Ana").unwrap();
        assert_eq!(db.case(&id).status, CaseStatus::Resolved);
        assert_eq!(db.kinds(&id).last(), Some(&EventKind::InternalNote));
    }
}

on_both! {
    fn a_blank_note_or_a_nameless_one_is_text_required_and_writes_nothing(db) {
        let id = db.open("conv-1");
        let err = db.add_note(&id, "  \n ", "Ana").unwrap_err();
        assert_eq!((err.code(), err.details().unwrap()["field"].as_str()), ("text_required", Some("note")));
        let err = db.add_note(&id, "Hello", " ").unwrap_err();
        assert_eq!(err.details().unwrap()["field"], "actor_name");
        assert_eq!(db.events(&id).len(), 1);
    }
}

on_both! {
    fn a_note_on_a_case_that_does_not_exist_is_case_not_found(db) {
        assert_eq!(db.add_note("no-such-case", "Hello", "Ana").unwrap_err().code(), "case_not_found");
    }
}
