//! Bulk actions on the inbox list: several cases marked read or unread, or cancelled with one
//! reason — all of them in one step, or none.

mod support;

use skillcase_cases::model::{CaseStatus, EventKind, HumanAction};
use skillcase_cases::reads::{is_unread, mark_read, set_read_many};
use skillcase_cases::store::get_case;
use skillcase_cases::transition::{cancel_many, open_case, reply, MAX_BULK_CASES};
use skillcase_common::error::Coded;
use support::{new_db, refund_case};

fn open(conn: &rusqlite::Connection, conversation: &str) -> String {
    open_case(conn, refund_case(conversation)).unwrap().case.id
}

#[test]
fn several_cases_are_marked_read_and_unread_again_at_once() {
    let (_dir, _path, conn) = new_db();
    let ids = vec![open(&conn, "conv-1"), open(&conn, "conv-2")];
    set_read_many(&conn, &ids, true).unwrap();
    assert!(!is_unread(&conn, &ids[0]).unwrap() && !is_unread(&conn, &ids[1]).unwrap());
    set_read_many(&conn, &ids, false).unwrap();
    assert!(is_unread(&conn, &ids[0]).unwrap() && is_unread(&conn, &ids[1]).unwrap());
}

#[test]
fn marking_several_read_changes_none_when_one_does_not_exist() {
    let (_dir, _path, conn) = new_db();
    let id = open(&conn, "conv-1");
    let err = set_read_many(&conn, &[id.clone(), "no-such-case".into()], true).unwrap_err();
    assert_eq!(err.code(), "case_not_found");
    assert!(is_unread(&conn, &id).unwrap());
}

#[test]
fn several_open_cases_are_cancelled_with_one_reason_by_the_person() {
    let (_dir, _path, conn) = new_db();
    let first = open(&conn, "conv-1");
    let second = open(&conn, "conv-2");
    reply(&conn, &second, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
    let cancelled =
        cancel_many(&conn, &[first.clone(), second.clone()], "Ana", "Duplicate of #1000").unwrap();
    assert_eq!(cancelled.iter().map(|c| c.status).collect::<Vec<_>>(), [CaseStatus::Cancelled; 2]);
    let timeline = get_case(&conn, &first).unwrap();
    let last = timeline.events.last().unwrap();
    assert_eq!((last.kind, last.actor_name.as_deref()), (EventKind::Cancelled, Some("Ana")));
    assert_eq!(last.payload["reason"], "Duplicate of #1000");
    assert!(timeline.deliveries.is_empty(), "a cancel is not sent to the agent");
}

#[test]
fn cancelling_several_changes_none_when_one_is_already_closed_and_names_it_by_number() {
    let (_dir, _path, conn) = new_db();
    let open_one = open(&conn, "conv-1");
    let closed = open(&conn, "conv-2");
    reply(&conn, &closed, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
    let err = cancel_many(&conn, &[open_one.clone(), closed], "Ana", "Spam").unwrap_err();
    assert_eq!(err.code(), "invalid_transition");
    assert_eq!(err.to_string(), "case #1002: a case that is resolved cannot take the action cancel");
    assert_eq!(get_case(&conn, &open_one).unwrap().case.status, CaseStatus::AwaitingHuman);
}

#[test]
fn cancelling_several_needs_a_reason() {
    let (_dir, _path, conn) = new_db();
    let id = open(&conn, "conv-1");
    assert_eq!(
        cancel_many(&conn, std::slice::from_ref(&id), "Ana", "  ").unwrap_err().code(),
        "text_required"
    );
    assert_eq!(get_case(&conn, &id).unwrap().case.status, CaseStatus::AwaitingHuman);
}

#[test]
fn a_bulk_action_names_at_least_one_case_and_at_most_the_limit() {
    let (_dir, _path, conn) = new_db();
    assert_eq!(set_read_many(&conn, &[], true).unwrap_err().code(), "invalid_case_input");
    let too_many: Vec<String> = (0..=MAX_BULK_CASES).map(|n| format!("case-{n}")).collect();
    let err = cancel_many(&conn, &too_many, "Ana", "Spam").unwrap_err();
    assert_eq!(err.to_string(), "ids names 501 cases; at most 500 are taken at once");
}

#[test]
fn a_case_named_twice_in_a_bulk_action_is_taken_once() {
    let (_dir, _path, conn) = new_db();
    let id = open(&conn, "conv-1");
    mark_read(&conn, &id).unwrap();
    let cancelled = cancel_many(&conn, &[id.clone(), id.clone()], "Ana", "Spam").unwrap();
    assert_eq!(cancelled.len(), 1);
}
