//! SPEC B3 "nothing is lost across crashes": 100 replies wait in the outbox, the real
//! `skillcase serve` process starts delivering them and is killed with SIGKILL mid-way, a new
//! process resumes, and every reply reaches the agent — none lost, none under a second id.

use crate::support;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::model::{DeliveryState, EventKind, HumanAction};
use skillcase_cases::{CasesRepository, OutboxRepository};
use skillcase_cases_sqlite::SqliteCases;
use skillcase_store::Database;
use skillcase_testkit::fake_endpoint::{Answer, FakeEndpoint};
use support::refund_case;

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

fn serve(data_dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_skillcase"))
        .args(["serve", "--port", "0"])
        .env("SKILLCASE_DATA_DIR", data_dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn count(cases: &SqliteCases, state: DeliveryState) -> usize {
    cases.deliveries_in_state(state).unwrap().len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_serve_process_killed_mid_delivery_loses_no_reply_and_repeats_only_under_the_same_id() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(skillcase_store::db::DATABASE_FILE);
    let cases = SqliteCases::new(Database::open(&path).unwrap());
    let endpoint = FakeEndpoint::start(SECRET).await;
    endpoint.otherwise(Answer::Slow(Duration::from_millis(25)));
    let input = EndpointInput {
        url: endpoint.url(),
        secret: Some(SECRET.into()),
        timeout_secs: Some(1),
        max_attempts: Some(100),
        enabled: true,
    };
    cases.set_endpoint(input).unwrap();
    let mut sent = HashMap::new();
    for n in 0..100 {
        let id = cases.open_case(refund_case(&format!("conv-{n}"))).unwrap().case.id;
        let delivery = cases.reply(&id, HumanAction::Resolved, "Refund issued.", "Ana").unwrap().1;
        sent.insert(delivery.id, id);
    }

    let mut first = serve(dir.path());
    endpoint.wait_for_requests(30, Duration::from_secs(30)).await;
    first.kill().unwrap();
    first.wait().unwrap();
    let pending_after_kill = count(&cases, DeliveryState::Pending);
    assert!(pending_after_kill > 0, "the kill came after every delivery was done");

    let mut second = serve(dir.path());
    let deadline = Instant::now() + Duration::from_secs(60);
    while count(&cases, DeliveryState::Delivered) < 100 {
        assert!(
            Instant::now() < deadline,
            "{} deliveries still pending",
            count(&cases, DeliveryState::Pending)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    second.kill().unwrap();
    second.wait().unwrap();

    let received = endpoint.received();
    for request in &received {
        assert!(sent.contains_key(&request.webhook_id), "unknown webhook id {}", request.webhook_id);
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body["id"], request.webhook_id.as_str());
        assert!(request.signature_ok);
    }
    let ids: HashSet<&str> = received.iter().map(|r| r.webhook_id.as_str()).collect();
    assert_eq!(ids.len(), 100, "every reply reached the agent");
    let repeats = received.len() - ids.len();
    assert!(repeats <= 1, "only the request in flight at the kill may repeat, {repeats} did");
    for (delivery_id, case_id) in &sent {
        let events = cases.get_case(case_id).unwrap().events;
        let notified: Vec<_> = events
            .iter()
            .filter(|e| {
                e.kind == EventKind::AgentNotified && e.payload["delivery_id"] == delivery_id.as_str()
            })
            .collect();
        assert_eq!(notified.len(), 1, "delivery {delivery_id} settled once");
    }
}
