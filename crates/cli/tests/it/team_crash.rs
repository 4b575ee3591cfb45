//! The team inbox's crash test (SPEC D4): three real `skillcase serve` processes on one team
//! PostgreSQL deliver 200 replies while one of them is killed with SIGKILL again and again (and
//! started again). No reply is lost, and each reply reaches the agent under exactly one
//! `webhook-id`.

use crate::support;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::model::{DeliveryState, EventKind, HumanAction};
use skillcase_cases::{CasesRepository, OutboxRepository};
use skillcase_team::{PgCases, TeamUrl};
use skillcase_testkit::fake_endpoint::{Answer, FakeEndpoint};
use skillcase_testkit::postgres::Cluster;
use support::refund_case;

const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const REPLIES: usize = 200;
const INSTANCES: usize = 3;

fn serve(data_dir: &Path, database: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_skillcase"))
        .args(["serve", "--port", "0", "--database", database])
        .env("SKILLCASE_DATA_DIR", data_dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn delivered(team: &PgCases) -> usize {
    team.deliveries_in_state(DeliveryState::Delivered).unwrap().len()
}

/// 200 replies waiting in the team outbox, each with the case it answers.
fn replies_waiting(team: &PgCases, endpoint: &FakeEndpoint) -> HashMap<String, String> {
    let input = EndpointInput {
        url: endpoint.url(),
        secret: Some(SECRET.into()),
        timeout_secs: Some(1),
        max_attempts: Some(100),
        enabled: true,
    };
    team.set_endpoint(input).unwrap();
    (0..REPLIES)
        .map(|n| {
            let id = team.open_case(refund_case(&format!("conv-{n}"))).unwrap().case.id;
            let delivery = team.reply(&id, HumanAction::Resolved, "Refund issued.", "Ana").unwrap().1;
            (delivery.id, id)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_serve_instances_with_one_killed_again_and_again_lose_no_reply_and_use_one_id_each() {
    let database = Cluster::shared().fresh_database();
    let url = TeamUrl::parse(&database).unwrap();
    let setup = url.clone();
    let team = tokio::task::spawn_blocking(move || PgCases::open(&setup).unwrap()).await.unwrap();
    let endpoint = FakeEndpoint::start(SECRET).await;
    endpoint.otherwise(Answer::Slow(Duration::from_millis(20)));
    let sent = tokio::task::block_in_place(|| replies_waiting(&team, &endpoint));

    let dirs: Vec<_> = (0..INSTANCES).map(|_| tempfile::tempdir().unwrap()).collect();
    let mut instances: Vec<Child> = dirs.iter().map(|dir| serve(dir.path(), &database)).collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut kills = 0;
    loop {
        let done = tokio::task::block_in_place(|| delivered(&team));
        if done == REPLIES {
            break;
        }
        assert!(Instant::now() < deadline, "{done} of {REPLIES} delivered after {kills} kills");
        tokio::time::sleep(Duration::from_millis(300)).await;
        if kills < 20 && done < REPLIES * 9 / 10 {
            let victim = kills % INSTANCES;
            instances[victim].kill().unwrap();
            instances[victim].wait().unwrap();
            instances[victim] = serve(dirs[victim].path(), &database);
            kills += 1;
        }
    }
    for mut instance in instances {
        instance.kill().unwrap();
        instance.wait().unwrap();
    }
    assert!(kills >= 3, "the deliveries finished before the instances were killed ({kills} kills)");

    let received = endpoint.received();
    eprintln!("{kills} kills; {} requests reached the agent for {REPLIES} replies", received.len());
    let mut ids_per_case: HashMap<String, HashSet<String>> = HashMap::new();
    for request in &received {
        let case_id =
            sent.get(&request.webhook_id).unwrap_or_else(|| panic!("unknown id {}", request.webhook_id));
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(body["id"], request.webhook_id.as_str());
        assert!(request.signature_ok);
        ids_per_case.entry(case_id.clone()).or_default().insert(request.webhook_id.clone());
    }
    assert_eq!(ids_per_case.len(), REPLIES, "every reply reached the agent");
    assert!(ids_per_case.values().all(|ids| ids.len() == 1), "a reply arrived under two webhook ids");
    let settled = tokio::task::block_in_place(|| {
        sent.values()
            .map(|case_id| {
                let events = team.get_case(case_id).unwrap().events;
                events.iter().filter(|e| e.kind == EventKind::AgentNotified).count()
            })
            .collect::<Vec<_>>()
    });
    assert!(settled.iter().all(|&n| n == 1), "each delivery settled exactly once");
}
