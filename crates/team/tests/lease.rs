//! "Ana is replying" across instances: the person typing holds the case's short lease, another
//! desktop sees who, and that desktop's Send is refused — nothing written — unless its person
//! takes the case over.

mod support;

use std::time::Duration;

use skillcase_cases::clock;
use skillcase_cases::lease::REPLY_LEASE;
use skillcase_cases::model::HumanAction;
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;
use support::{another_instance, psql, refund_case, team};

#[test]
fn a_person_writing_a_reply_is_shown_to_every_other_desktop() {
    let ana = team();
    let bruno = another_instance(&ana);
    let id = ana.open_case(refund_case("conv-1")).unwrap().case.id;
    ana.hold_reply(&id, "Ana").unwrap();
    let replying = bruno.get_case(&id).unwrap().replying.unwrap();
    assert_eq!(replying.person, "Ana");
}

#[test]
fn asking_for_the_lease_while_someone_else_holds_it_gives_theirs() {
    let ana = team();
    let bruno = another_instance(&ana);
    let id = ana.open_case(refund_case("conv-1")).unwrap().case.id;
    ana.hold_reply(&id, "Ana").unwrap();
    assert_eq!(bruno.hold_reply(&id, "Bruno").unwrap().person, "Ana");
}

#[test]
fn another_persons_send_is_refused_while_the_lease_runs_and_nothing_is_written() {
    let ana = team();
    let bruno = another_instance(&ana);
    let id = ana.open_case(refund_case("conv-1")).unwrap().case.id;
    ana.hold_reply(&id, "Ana").unwrap();
    let err = bruno.reply(&id, HumanAction::Resolved, "Refund issued.", "Bruno").unwrap_err();
    assert_eq!(err.code(), "case_being_replied");
    assert!(err.to_string().contains("Ana is replying"), "{err}");
    let events = psql(ana.url(), &format!("SELECT count(*) FROM case_events WHERE case_id = '{id}'"));
    let deliveries = psql(ana.url(), "SELECT count(*) FROM deliveries");
    assert_eq!((events.as_str(), deliveries.as_str()), ("1", "0"));
}

#[test]
fn taking_the_case_over_lets_the_send_through_and_ends_the_other_lease() {
    let ana = team();
    let bruno = another_instance(&ana);
    let id = ana.open_case(refund_case("conv-1")).unwrap().case.id;
    ana.hold_reply(&id, "Ana").unwrap();
    bruno.assign(std::slice::from_ref(&id), Some("Bruno"), "Bruno").unwrap();
    assert_eq!(ana.get_case(&id).unwrap().replying, None);
    bruno.reply(&id, HumanAction::Resolved, "Refund issued.", "Bruno").unwrap();
}

#[test]
fn the_lease_holders_own_send_goes_through_and_ends_the_lease() {
    let ana = team();
    let id = ana.open_case(refund_case("conv-1")).unwrap().case.id;
    ana.hold_reply(&id, "Ana").unwrap();
    ana.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
    assert_eq!(ana.get_case(&id).unwrap().replying, None);
}

#[test]
fn a_lease_that_ran_out_holds_nothing_off() {
    let ana = team();
    let bruno = another_instance(&ana);
    let id = ana.open_case(refund_case("conv-1")).unwrap().case.id;
    ana.hold_reply(&id, "Ana").unwrap();
    psql(ana.url(), "UPDATE reply_leases SET until = '2000-01-01T00:00:00.000Z'");
    assert_eq!(bruno.get_case(&id).unwrap().replying, None);
    bruno.reply(&id, HumanAction::Resolved, "Refund issued.", "Bruno").unwrap();
}

#[test]
fn a_lease_runs_for_its_length_from_the_last_keystroke() {
    let ana = team();
    let id = ana.open_case(refund_case("conv-1")).unwrap().case.id;
    let soonest = clock::after(REPLY_LEASE - Duration::from_secs(5));
    let lease = ana.hold_reply(&id, "Ana").unwrap();
    let latest = clock::after(REPLY_LEASE);
    assert!(soonest <= lease.until && lease.until <= latest, "{} not in {soonest}..{latest}", lease.until);
}

#[test]
fn holding_the_lease_of_a_case_that_does_not_exist_is_case_not_found() {
    let ana = team();
    assert_eq!(ana.hold_reply("no-such-case", "Ana").unwrap_err().code(), "case_not_found");
}
