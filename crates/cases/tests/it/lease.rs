//! "Ana is replying" on the embedded database: the same lease rules as the team's (the desktop's
//! window and its CLI are two writers on one inbox): someone else's running lease refuses a Send
//! and writes nothing, a take-over or the holder's own Send ends it.

mod support;

use skillcase_cases::model::HumanAction;
use skillcase_cases::store::get_case;
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;
use support::{cases_at, new_db, refund_case};

#[test]
fn another_persons_send_is_refused_while_the_lease_runs_and_nothing_is_written() {
    let (_dir, path, conn) = new_db();
    let cases = cases_at(&path);
    let id = cases.open_case(refund_case("conv-1")).unwrap().case.id;
    assert_eq!(cases.hold_reply(&id, "Ana").unwrap().person, "Ana");
    let err = cases.reply(&id, HumanAction::Resolved, "Refund issued.", "Bruno").unwrap_err();
    assert_eq!(err.code(), "case_being_replied");
    let case = get_case(&conn, &id).unwrap();
    assert_eq!((case.events.len(), case.deliveries.len()), (1, 0));
    assert_eq!(case.replying.unwrap().person, "Ana");
}

#[test]
fn a_take_over_ends_the_other_lease_and_lets_the_send_through() {
    let (_dir, path, conn) = new_db();
    let cases = cases_at(&path);
    let id = cases.open_case(refund_case("conv-1")).unwrap().case.id;
    cases.hold_reply(&id, "Ana").unwrap();
    cases.assign(std::slice::from_ref(&id), Some("Bruno"), "Bruno").unwrap();
    assert_eq!(get_case(&conn, &id).unwrap().replying, None);
    cases.reply(&id, HumanAction::Resolved, "Refund issued.", "Bruno").unwrap();
}

#[test]
fn the_holders_own_send_ends_the_lease() {
    let (_dir, path, conn) = new_db();
    let cases = cases_at(&path);
    let id = cases.open_case(refund_case("conv-1")).unwrap().case.id;
    cases.hold_reply(&id, "Ana").unwrap();
    cases.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
    assert_eq!(get_case(&conn, &id).unwrap().replying, None);
}

#[test]
fn asking_while_someone_else_holds_the_lease_gives_theirs() {
    let (_dir, path, _conn) = new_db();
    let cases = cases_at(&path);
    let id = cases.open_case(refund_case("conv-1")).unwrap().case.id;
    cases.hold_reply(&id, "Ana").unwrap();
    assert_eq!(cases.hold_reply(&id, "Bruno").unwrap().person, "Ana");
}
