//! A delivery another instance is claiming right now (its row locked in a transaction still
//! open) is passed over at once: `FOR UPDATE SKIP LOCKED`, which only PostgreSQL has (SQLite's
//! single writer never has a second transaction in flight).

use std::time::Duration;

use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::model::{HumanAction, NewCase};
use skillcase_cases::{CasesRepository, OutboxRepository};

use crate::support::{psql, refund_case, team};

#[test]
fn a_delivery_another_instance_is_claiming_right_now_is_passed_by_without_waiting() {
    let team = team();
    team.set_endpoint(EndpointInput {
        url: "http://127.0.0.1:9/default".into(),
        secret: Some("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".into()),
        timeout_secs: None,
        max_attempts: None,
        enabled: true,
    })
    .unwrap();
    let deliveries: Vec<String> = ["conv-1", "conv-2"]
        .iter()
        .map(|conversation| {
            let id = team.open_case(NewCase { agent_id: None, ..refund_case(conversation) }).unwrap().case.id;
            team.reply(&id, HumanAction::Resolved, "Refunded.", "Ana").unwrap().1.id
        })
        .collect();
    psql(
        team.url(),
        &format!(
            "UPDATE deliveries SET next_attempt_at = '2000-01-01T00:00:00.000Z' WHERE id = '{}'",
            deliveries[0]
        ),
    );
    let mut other = postgres::Client::connect(team.url().secret(), postgres::NoTls).unwrap();
    let mut claiming = other.transaction().unwrap();
    claiming.execute("SELECT 1 FROM deliveries WHERE id = $1 FOR UPDATE", &[&deliveries[0]]).unwrap();
    let claimed = team.claim_next(Duration::from_secs(5)).unwrap().unwrap();
    assert_eq!(claimed.id, deliveries[1], "the older one is locked, so the next one is taken");
    claiming.rollback().unwrap();
}
