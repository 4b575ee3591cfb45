//! Internal notes: a person's private note is on the case's timeline, changes nothing about the
//! case, and never reaches the agent (no delivery, not in the webhook, not in the agent's view).

mod support;

use std::time::Duration;

use skillcase_cases::endpoint::set_endpoint;
use skillcase_cases::model::{CaseStatus, EventKind, HumanAction};
use skillcase_cases::notes::add_note;
use skillcase_cases::outbox::claim_next;
use skillcase_cases::store::get_case;
use skillcase_cases::transition::{open_case, reply};
use skillcase_common::error::Coded;
use support::{endpoint_input, new_db, refund_case};

#[test]
fn a_note_is_on_the_timeline_as_an_internal_note_by_the_person() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    let note = add_note(&conn, &id, "  Customer is a reseller; check the contract.  ", "Ana").unwrap();
    let events = get_case(&conn, &id).unwrap().events;
    let last = events.last().unwrap();
    assert_eq!(last, &note);
    assert_eq!(last.kind, EventKind::InternalNote);
    assert_eq!(last.actor_name.as_deref(), Some("Ana"));
    assert_eq!(last.payload["text"], "Customer is a reseller; check the contract.");
}

#[test]
fn a_note_leaves_the_case_as_it_was() {
    let (_dir, _path, conn) = new_db();
    let before = open_case(&conn, refund_case("conv-1")).unwrap().case;
    add_note(&conn, &before.id, "Waiting for finance.", "Ana").unwrap();
    let after = get_case(&conn, &before.id).unwrap().case;
    assert_eq!(after, before);
    assert_eq!(after.status, CaseStatus::AwaitingHuman);
}

#[test]
fn a_note_writes_no_delivery_for_the_agent() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    add_note(&conn, &id, "Do not refund before Friday.", "Ana").unwrap();
    assert!(get_case(&conn, &id).unwrap().deliveries.is_empty());
    assert!(claim_next(&conn, Duration::from_secs(30)).unwrap().is_none());
}

#[test]
fn the_webhook_of_a_later_reply_does_not_carry_the_note() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    add_note(&conn, &id, "Secret: manager approved offline.", "Ana").unwrap();
    reply(&conn, &id, HumanAction::Resolved, "Refunded the second charge.", "Ana").unwrap();
    set_endpoint(&conn, endpoint_input("http://127.0.0.1:9/hooks")).unwrap();
    let claimed = claim_next(&conn, Duration::from_secs(30)).unwrap().unwrap();
    assert!(claimed.body.contains("Refunded the second charge."));
    assert!(!claimed.body.contains("manager approved"), "{}", claimed.body);
    assert!(!claimed.body.contains("internal_note"), "{}", claimed.body);
}

#[test]
fn the_agent_s_view_of_a_case_leaves_the_notes_out() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    add_note(&conn, &id, "Manager approved offline.", "Ana").unwrap();
    let full = get_case(&conn, &id).unwrap();
    let seen = full.clone().for_agent();
    assert_eq!(full.events.len(), 2);
    assert_eq!(seen.events.iter().map(|e| e.kind).collect::<Vec<_>>(), [EventKind::Opened]);
    assert_eq!(seen.case, full.case);
}

#[test]
fn a_closed_case_still_takes_a_note() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    reply(&conn, &id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
    add_note(&conn, &id, "Customer thanked us by phone.", "Ana").unwrap();
    let case = get_case(&conn, &id).unwrap();
    assert_eq!(case.case.status, CaseStatus::Resolved);
    assert_eq!(case.events.last().unwrap().kind, EventKind::InternalNote);
}

#[test]
fn a_blank_note_is_text_required_and_writes_nothing() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    let err = add_note(&conn, &id, "  \n ", "Ana").unwrap_err();
    assert_eq!(err.code(), "text_required");
    assert_eq!(err.details().unwrap()["field"], "note");
    assert_eq!(get_case(&conn, &id).unwrap().events.len(), 1);
}

#[test]
fn a_note_on_a_case_that_does_not_exist_is_case_not_found() {
    let (_dir, _path, conn) = new_db();
    assert_eq!(add_note(&conn, "no-such-case", "Hello", "Ana").unwrap_err().code(), "case_not_found");
}
