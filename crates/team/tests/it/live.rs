//! Live updates: a change committed by any instance reaches every listener within a second, and a
//! rolled-back one reaches none.

use std::sync::mpsc;
use std::time::Duration;

use skillcase_cases::CasesRepository;
use skillcase_team::live::{Listener, TeamChange};

use crate::support::{psql, team};

const INSERT_CASE: &str = "INSERT INTO cases (id, number, conversation_id, status, title, summary, source, \
     opened_at, updated_at) VALUES ('c-live', 1, 'conv', 'awaiting_human', 't', 's', 'agent', 'x', 'x')";

fn listening(team: &skillcase_team::PgCases) -> (Listener, mpsc::Receiver<TeamChange>) {
    let (send, changes) = mpsc::channel();
    let listener = team.listen(move |change| {
        let _ = send.send(change);
    });
    // LISTEN is in place once a first notification gets through.
    loop {
        psql(team.url(), "SELECT pg_notify('skillcase_cases', 'changed:ping')");
        if let Ok(TeamChange::Changed { case_id }) = changes.recv_timeout(Duration::from_millis(200)) {
            if case_id == "ping" {
                return (listener, changes);
            }
        }
    }
}

#[test]
fn a_case_opened_elsewhere_is_heard_within_a_second() {
    let team = team();
    let (_listener, changes) = listening(&team);
    psql(team.url(), INSERT_CASE);
    let change = changes.recv_timeout(Duration::from_secs(1)).unwrap();
    assert_eq!(change, TeamChange::Opened { case_id: "c-live".into() });
}

#[test]
fn a_change_to_a_case_is_heard_as_changed() {
    let team = team();
    psql(team.url(), INSERT_CASE);
    let (_listener, changes) = listening(&team);
    psql(team.url(), "UPDATE cases SET assignee = 'Ana' WHERE id = 'c-live'");
    let change = changes.recv_timeout(Duration::from_secs(1)).unwrap();
    assert_eq!(change, TeamChange::Changed { case_id: "c-live".into() });
}

#[test]
fn a_rolled_back_change_is_never_heard() {
    let team = team();
    let (_listener, changes) = listening(&team);
    psql(team.url(), &format!("BEGIN; {INSERT_CASE}; ROLLBACK"));
    psql(team.url(), "SELECT pg_notify('skillcase_cases', 'changed:after')");
    let change = changes.recv_timeout(Duration::from_secs(1)).unwrap();
    assert_eq!(change, TeamChange::Changed { case_id: "after".into() });
}

#[test]
fn an_instance_does_not_hear_its_own_changes_but_hears_the_others() {
    let team = team();
    let other = crate::support::another_instance(&team);
    let (_listener, changes) = listening(&team);
    psql(team.url(), INSERT_CASE);
    team.set_read("c-live", true).unwrap();
    other.set_read("c-live", false).unwrap();
    let heard: Vec<TeamChange> =
        std::iter::from_fn(|| changes.recv_timeout(Duration::from_millis(500)).ok()).collect();
    let changed = TeamChange::Changed { case_id: "c-live".into() };
    assert_eq!(heard, vec![TeamChange::Opened { case_id: "c-live".into() }, changed]);
}
