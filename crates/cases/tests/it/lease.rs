//! "Ana is replying": the person typing holds the case's short lease, every other desktop (or
//! the desktop's CLI, a second writer on the same file) sees who, and another person's Send is
//! refused — nothing written — unless that person takes the case over.

use std::time::Duration;

use skillcase_cases::clock;
use skillcase_cases::lease::REPLY_LEASE;
use skillcase_cases::model::HumanAction;
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;

on_both! {
    fn a_person_writing_a_reply_is_shown_to_every_other_desktop(db) {
        let bruno = db.another_instance();
        let id = db.open("conv-1");
        db.hold_reply(&id, "Ana").unwrap();
        assert_eq!(bruno.get_case(&id).unwrap().replying.unwrap().person, "Ana");
    }
}

on_both! {
    fn asking_for_the_lease_while_someone_else_holds_it_gives_theirs(db) {
        let bruno = db.another_instance();
        let id = db.open("conv-1");
        assert_eq!(db.hold_reply(&id, "Ana").unwrap().person, "Ana");
        assert_eq!(bruno.hold_reply(&id, "Bruno").unwrap().person, "Ana");
    }
}

on_both! {
    fn another_persons_send_is_refused_while_the_lease_runs_and_nothing_is_written(db) {
        let bruno = db.another_instance();
        let id = db.open("conv-1");
        db.hold_reply(&id, "Ana").unwrap();
        let err = bruno.reply(&id, HumanAction::Resolved, "Refund issued.", "Bruno").unwrap_err();
        assert_eq!(err.code(), "case_being_replied");
        assert!(err.to_string().contains("Ana is replying"), "{err}");
        let case = db.get_case(&id).unwrap();
        assert_eq!((case.events.len(), case.deliveries.len()), (1, 0));
        assert_eq!(case.replying.unwrap().person, "Ana");
    }
}

on_both! {
    fn taking_the_case_over_lets_the_send_through_and_ends_the_other_lease(db) {
        let bruno = db.another_instance();
        let id = db.open("conv-1");
        db.hold_reply(&id, "Ana").unwrap();
        bruno.assign(std::slice::from_ref(&id), Some("Bruno"), "Bruno").unwrap();
        assert_eq!(db.get_case(&id).unwrap().replying, None);
        bruno.reply(&id, HumanAction::Resolved, "Refund issued.", "Bruno").unwrap();
    }
}

on_both! {
    fn the_lease_holders_own_send_goes_through_and_ends_the_lease(db) {
        let id = db.open("conv-1");
        db.hold_reply(&id, "Ana").unwrap();
        db.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        assert_eq!(db.get_case(&id).unwrap().replying, None);
    }
}

on_both! {
    fn a_lease_that_ran_out_holds_nothing_off(db) {
        let bruno = db.another_instance();
        let id = db.open("conv-1");
        db.hold_reply(&id, "Ana").unwrap();
        db.exec("UPDATE reply_leases SET until = '2000-01-01T00:00:00.000Z'");
        assert_eq!(bruno.get_case(&id).unwrap().replying, None);
        bruno.reply(&id, HumanAction::Resolved, "Refund issued.", "Bruno").unwrap();
    }
}

on_both! {
    fn a_lease_runs_for_its_length_from_the_last_keystroke(db) {
        let id = db.open("conv-1");
        let soonest = clock::after(REPLY_LEASE - Duration::from_secs(5));
        let lease = db.hold_reply(&id, "Ana").unwrap();
        let latest = clock::after(REPLY_LEASE);
        assert!(
            soonest <= lease.until && lease.until <= latest,
            "{} not in {soonest}..{latest}",
            lease.until
        );
    }
}

on_both! {
    fn holding_the_lease_of_a_case_that_does_not_exist_is_case_not_found(db) {
        assert_eq!(db.hold_reply("no-such-case", "Ana").unwrap_err().code(), "case_not_found");
    }
}
