//! Assignment: a person takes a case, gives it to someone or leaves it to anyone; each change is
//! an event by that person, nothing else about the case moves, a closed case refuses, a bulk
//! assignment is all or none, and the Mine and Unassigned views show whose cases are whose.

mod support;

use skillcase_cases::assign::assign_many;
use skillcase_cases::model::{Actor, EventKind};
use skillcase_cases::store::{get_case, list_cases, CaseFilter, CaseTab, CaseView};
use skillcase_cases::transition::{cancel, open_case};
use skillcase_common::error::Coded;
use support::{new_db, refund_case};

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn taking_a_case_sets_the_assignee_and_records_who_did_it() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    let cases = assign_many(&conn, &ids(&[&id]), Some("  Ana  "), "Ana").unwrap();
    assert_eq!(cases[0].assignee.as_deref(), Some("Ana"));
    let last = get_case(&conn, &id).unwrap().events.pop().unwrap();
    assert_eq!((last.kind, last.actor_name.as_deref()), (EventKind::Assigned, Some("Ana")));
    assert_eq!(last.payload, serde_json::json!({ "assignee": "Ana", "previous": null }));
}

#[test]
fn giving_a_case_to_someone_else_records_who_had_it() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    assign_many(&conn, &ids(&[&id]), Some("Ana"), "Ana").unwrap();
    assign_many(&conn, &ids(&[&id]), Some("Bruno"), "Ana").unwrap();
    let last = get_case(&conn, &id).unwrap().events.pop().unwrap();
    assert_eq!(last.payload, serde_json::json!({ "assignee": "Bruno", "previous": "Ana" }));
}

#[test]
fn unassigning_leaves_the_case_to_anyone_with_an_unassigned_event() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    assign_many(&conn, &ids(&[&id]), Some("Ana"), "Ana").unwrap();
    let cases = assign_many(&conn, &ids(&[&id]), None, "Ana").unwrap();
    assert_eq!(cases[0].assignee, None);
    let last = get_case(&conn, &id).unwrap().events.pop().unwrap();
    assert_eq!((last.kind, last.payload), (EventKind::Unassigned, serde_json::json!({ "previous": "Ana" })));
}

#[test]
fn assigning_to_the_same_person_again_adds_no_event() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    assign_many(&conn, &ids(&[&id]), Some("Ana"), "Ana").unwrap();
    let before = get_case(&conn, &id).unwrap().events.len();
    assign_many(&conn, &ids(&[&id]), Some("Ana"), "Ana").unwrap();
    assert_eq!(get_case(&conn, &id).unwrap().events.len(), before);
}

#[test]
fn assignment_leaves_status_and_waiting_time_as_they_were() {
    let (_dir, _path, conn) = new_db();
    let before = open_case(&conn, refund_case("conv-1")).unwrap().case;
    let after = assign_many(&conn, &ids(&[&before.id]), Some("Ana"), "Ana").unwrap().remove(0);
    assert_eq!((after.status, &after.waiting_since), (before.status, &before.waiting_since));
}

#[test]
fn a_closed_case_refuses_assignment_and_nothing_changes() {
    let (_dir, _path, conn) = new_db();
    let open = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    let closed = open_case(&conn, refund_case("conv-2")).unwrap().case;
    cancel(&conn, &closed.id, Actor::Human, Some("Ana"), Some("duplicate")).unwrap();
    let err = assign_many(&conn, &ids(&[&open, &closed.id]), Some("Ana"), "Ana").unwrap_err();
    assert_eq!(err.code(), "invalid_transition");
    assert!(err.to_string().contains(&format!("#{}", closed.number)), "{err}");
    assert_eq!(get_case(&conn, &open).unwrap().case.assignee, None, "all or none");
}

#[test]
fn a_blank_assignee_is_refused_with_its_code() {
    let (_dir, _path, conn) = new_db();
    let id = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    let err = assign_many(&conn, &ids(&[&id]), Some("   "), "Ana").unwrap_err();
    assert_eq!(err.code(), "invalid_case_input");
}

#[test]
fn the_mine_and_unassigned_views_split_the_tab_by_assignee() {
    let (_dir, _path, conn) = new_db();
    let anas = open_case(&conn, refund_case("conv-1")).unwrap().case.id;
    let brunos = open_case(&conn, refund_case("conv-2")).unwrap().case.id;
    let nobodys = open_case(&conn, refund_case("conv-3")).unwrap().case.id;
    assign_many(&conn, &ids(&[&anas]), Some("Ana"), "Ana").unwrap();
    assign_many(&conn, &ids(&[&brunos]), Some("Bruno"), "Bruno").unwrap();
    let page = |view, me: Option<&str>| {
        let filter = CaseFilter {
            tab: Some(CaseTab::WaitingOnYou),
            view: Some(view),
            me: me.map(str::to_string),
            ..CaseFilter::default()
        };
        list_cases(&conn, &filter).unwrap().items.into_iter().map(|i| i.case.id).collect::<Vec<_>>()
    };
    assert_eq!(page(CaseView::Mine, Some("Ana")), vec![anas.clone()]);
    assert_eq!(page(CaseView::Unassigned, None), vec![nobodys.clone()]);
    assert_eq!(page(CaseView::All, None), vec![anas, brunos, nobodys]);
}
