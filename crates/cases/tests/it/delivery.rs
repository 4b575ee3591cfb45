//! SPEC B3 over real loopback HTTP: the worker relays each reply to the agent endpoint with
//! Standard Webhooks headers, retries what can succeed later, gives up on what cannot, and
//! loses nothing when it is stopped mid-request.

use std::time::{Duration, Instant};

use skillcase_cases::delivery::{test_endpoint, DeliveryWorker, WorkerOptions};
use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::model::{Delivery, DeliveryAction, DeliveryState, EventKind, HumanAction};
use skillcase_cases::outbox::{Backoff, EndpointHealth};
use skillcase_cases::quiet::QuietDelays;
use skillcase_cases::sql::Storage;
use skillcase_cases::{CasesRepository, OutboxRepository};
use skillcase_common::error::Coded;
use skillcase_common::events::{DomainEvent, EventBus};
use skillcase_testkit::fake_endpoint::{Answer, FakeEndpoint};
use tokio::sync::oneshot;

use crate::support::{Db, SECRET};

/// Fast pacing so retries happen in milliseconds; a long poll so only wakes and due times
/// move the worker unless a test says otherwise.
fn fast() -> WorkerOptions {
    WorkerOptions {
        poll_interval: Duration::from_secs(60),
        lease_margin: Duration::from_millis(300),
        backoff: Backoff { base: Duration::from_millis(20), cap: Duration::from_millis(100) },
    }
}

/// The agent endpoint at `url`, with these limits.
fn configure(db: &Db, url: &str, timeout_secs: u32, max_attempts: u32) {
    let input = EndpointInput {
        url: url.into(),
        secret: Some(SECRET.into()),
        timeout_secs: Some(timeout_secs),
        max_attempts: Some(max_attempts),
        enabled: true,
    };
    db.set_endpoint(input).unwrap();
}

/// A fake agent endpoint on loopback, configured with these limits: where every relay test
/// starts.
async fn with_endpoint(db: &Db, timeout_secs: u32, max_attempts: u32) -> FakeEndpoint {
    let endpoint = FakeEndpoint::start(SECRET).await;
    configure(db, &endpoint.url(), timeout_secs, max_attempts);
    endpoint
}

fn start(db: &Db, options: WorkerOptions) -> (DeliveryWorker, oneshot::Sender<()>) {
    let (stop, stopped) = oneshot::channel::<()>();
    let worker = DeliveryWorker::spawn(db.outbox(), options, EventBus::new(), async {
        let _ = stopped.await;
    })
    .unwrap();
    (worker, stop)
}

fn answered(db: &Db, conversation: &str, action: HumanAction) -> Delivery {
    let id = db.open(conversation);
    db.reply(&id, action, "Refund issued today.", "Ana").unwrap().1
}

fn delivery(db: &Db, id: &str) -> Delivery {
    let id = id.to_string();
    db.read(|sql| skillcase_cases::rows::get_delivery(sql, &id)).unwrap()
}

/// Polls the database until `done` holds for the delivery, failing after `limit`.
async fn wait_for(db: &Db, id: &str, limit: Duration, done: impl Fn(&Delivery) -> bool) -> Delivery {
    let deadline = Instant::now() + limit;
    loop {
        let current = delivery(db, id);
        if done(&current) {
            return current;
        }
        assert!(Instant::now() < deadline, "delivery never reached the expected state: {current:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the delivery is delivered (5 s at most).
async fn delivered(db: &Db, id: &str) -> Delivery {
    wait_for(db, id, Duration::from_secs(5), |d| d.state == DeliveryState::Delivered).await
}

fn delivery_events(db: &Db, case_id: &str) -> Vec<(EventKind, serde_json::Value)> {
    db.events(case_id)
        .into_iter()
        .filter(|e| matches!(e.kind, EventKind::AgentNotified | EventKind::DeliveryFailed))
        .map(|e| (e.kind, e.payload))
        .collect()
}

on_both! {
    async fn a_reply_is_posted_at_once_signed_and_keyed_by_its_delivery_id(db) {
        let endpoint = with_endpoint(db, 10, 5).await;
        let (worker, _stop) = start(db, fast());
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        worker.wake();
        let done = delivered(db, &sent.id).await;
        assert_eq!((done.attempts, done.last_status, done.last_error.as_deref()), (1, Some(200), None));
        assert!(done.delivered_at.is_some());
        let received = endpoint.received();
        assert_eq!(received.len(), 1);
        let request = &received[0];
        assert_eq!(request.webhook_id, sent.id);
        assert!(request.signature_ok);
        assert_eq!(request.content_type, "application/json");
        assert!((request.timestamp - time::OffsetDateTime::now_utc().unix_timestamp()).abs() < 60);
        let body = db.text(&format!("SELECT body FROM deliveries WHERE id = '{}'", sent.id)).unwrap();
        assert_eq!(request.body, body);
        assert_eq!(
            delivery_events(db, &sent.case_id),
            vec![(
                EventKind::AgentNotified,
                serde_json::json!({ "delivery_id": sent.id, "attempt": 1, "status": 200 })
            )]
        );
    }
}

on_both! {
    async fn a_reply_written_elsewhere_is_found_by_the_poll(db) {
        let endpoint = with_endpoint(db, 10, 5).await;
        let (_worker, _stop) =
            start(db, WorkerOptions { poll_interval: Duration::from_millis(200), ..fast() });
        let sent = answered(&db.another_instance(), "conv-1", HumanAction::NeedLeadInfo);
        delivered(db, &sent.id).await;
        assert_eq!(endpoint.accepted_ids(), vec![sent.id]);
    }
}

on_both! {
    async fn a_burst_of_server_errors_is_retried_under_the_same_id_until_accepted(db) {
        let endpoint = with_endpoint(db, 10, 5).await;
        endpoint.script([Answer::Status(500), Answer::Status(503), Answer::Status(502)]);
        let (worker, _stop) = start(db, fast());
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        worker.wake();
        let done = delivered(db, &sent.id).await;
        assert_eq!((done.attempts, done.last_status), (4, Some(200)));
        let received = endpoint.received();
        assert_eq!(received.len(), 4);
        assert!(received
            .iter()
            .all(|r| r.webhook_id == sent.id && r.signature_ok && r.body == received[0].body));
        let events = delivery_events(db, &sent.case_id);
        let kinds: Vec<EventKind> = events.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, [[EventKind::DeliveryFailed; 3].as_slice(), &[EventKind::AgentNotified]].concat());
        assert_eq!(events[0].1["error"], "the endpoint answered 500 Internal Server Error: scripted 500");
        assert_eq!(events[0].1["state"], "pending");
    }
}

on_both! {
    async fn too_many_requests_is_retried_no_sooner_than_retry_after(db) {
        let endpoint = with_endpoint(db, 10, 5).await;
        endpoint.script([Answer::TooMany { retry_after_secs: 1 }]);
        let options = WorkerOptions {
            backoff: Backoff { base: Duration::from_millis(20), cap: Duration::from_secs(5) },
            ..fast()
        };
        let (worker, _stop) = start(db, options);
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        worker.wake();
        assert_eq!(delivered(db, &sent.id).await.attempts, 2);
        let received = endpoint.received();
        let gap = received[1].at - received[0].at;
        assert!(gap >= Duration::from_millis(950), "{gap:?}");
        assert_eq!(delivery_events(db, &sent.case_id)[0].1["status"], 429);
    }
}

on_both! {
    async fn an_endpoint_that_hangs_past_the_timeout_is_retried(db) {
        let endpoint = with_endpoint(db, 1, 5).await;
        endpoint.script([Answer::Hang]);
        let (worker, _stop) = start(db, fast());
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        let started = Instant::now();
        worker.wake();
        let done = delivered(db, &sent.id).await;
        assert!(started.elapsed() >= Duration::from_secs(1));
        assert_eq!(done.attempts, 2);
        assert_eq!(delivery_events(db, &sent.case_id)[0].1["error"], "no answer within 1 s");
        assert_eq!(endpoint.accepted_ids(), vec![sent.id]);
    }
}

on_both! {
    async fn a_connection_closed_without_an_answer_is_retried(db) {
        let endpoint = with_endpoint(db, 10, 5).await;
        endpoint.script([Answer::Close]);
        let (worker, _stop) = start(db, fast());
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        worker.wake();
        assert_eq!(delivered(db, &sent.id).await.attempts, 2);
        assert_eq!(delivery_events(db, &sent.case_id)[0].1["status"], serde_json::Value::Null);
        assert_eq!(endpoint.received().len(), 2);
    }
}

on_both! {
    async fn a_client_error_fails_at_once_without_retrying(db) {
        let endpoint = with_endpoint(db, 10, 5).await;
        endpoint.otherwise(Answer::Status(400));
        let (worker, _stop) = start(db, WorkerOptions { poll_interval: Duration::from_millis(50), ..fast() });
        let sent = answered(db, "conv-1", HumanAction::Escalate);
        worker.wake();
        let done =
            wait_for(db, &sent.id, Duration::from_secs(5), |d| d.state != DeliveryState::Pending).await;
        assert_eq!((done.state, done.attempts, done.last_status), (DeliveryState::Failed, 1, Some(400)));
        assert_eq!(done.last_error.as_deref(), Some("the endpoint answered 400 Bad Request: scripted 400"));
        assert_eq!(done.next_attempt_at, None);
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(endpoint.received().len(), 1);
    }
}

on_both! {
    async fn a_delivery_that_keeps_failing_is_dead_after_the_attempt_limit(db) {
        let endpoint = with_endpoint(db, 10, 3).await;
        endpoint.otherwise(Answer::Status(500));
        let (worker, _stop) = start(db, WorkerOptions { poll_interval: Duration::from_millis(50), ..fast() });
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        worker.wake();
        let done =
            wait_for(db, &sent.id, Duration::from_secs(5), |d| d.state != DeliveryState::Pending).await;
        assert_eq!((done.state, done.attempts), (DeliveryState::Dead, 3));
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(endpoint.received().len(), 3);
        let last = delivery_events(db, &sent.case_id).pop().unwrap().1;
        assert_eq!((last["state"].as_str(), last["attempt"].as_i64()), (Some("dead"), Some(3)));
        let status = db.status().unwrap();
        assert_eq!((status.health, status.pending, status.stuck), (EndpointHealth::Unreachable, 0, 1));
    }
}

on_both! {
    async fn replies_wait_while_the_endpoint_is_down_and_go_out_when_it_is_back(db) {
        let mut endpoint = FakeEndpoint::start(SECRET).await;
        endpoint.stop().await;
        configure(db, &endpoint.url(), 10, 100);
        let (worker, _stop) = start(db, fast());
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        worker.wake();
        let waiting = wait_for(db, &sent.id, Duration::from_secs(5), |d| d.attempts >= 3).await;
        assert_eq!(waiting.state, DeliveryState::Pending);
        assert!(waiting.last_error.as_deref().unwrap().starts_with("cannot connect"), "{waiting:?}");
        let status = db.status().unwrap();
        assert_eq!((status.health, status.pending), (EndpointHealth::Unreachable, 1));
        endpoint.restart().await;
        delivered(db, &sent.id).await;
        assert_eq!(endpoint.accepted_ids(), vec![sent.id]);
        assert_eq!(db.status().unwrap().health, EndpointHealth::Ok);
    }
}

on_both! {
    async fn retry_sends_a_failed_delivery_again_under_the_same_id(db) {
        let endpoint = with_endpoint(db, 10, 5).await;
        endpoint.script([Answer::Status(410)]);
        let (worker, _stop) = start(db, fast());
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        worker.wake();
        wait_for(db, &sent.id, Duration::from_secs(5), |d| d.state == DeliveryState::Failed).await;
        let again = db.retry(&sent.id).unwrap();
        assert_eq!((again.state, again.attempts), (DeliveryState::Pending, 0));
        worker.wake();
        delivered(db, &sent.id).await;
        let ids: Vec<String> = endpoint.received().into_iter().map(|r| r.webhook_id).collect();
        assert_eq!(ids, vec![sent.id.clone(), sent.id.clone()]);
        let err = db.retry(&sent.id).unwrap_err();
        assert_eq!(
            (err.code(), err.to_string().as_str()),
            (
                "delivery_not_retryable",
                "a delivery that is delivered cannot be retried; only failed or dead ones can"
            )
        );
    }
}

on_both! {
    async fn replies_stay_pending_until_an_enabled_endpoint_is_configured(db) {
        let endpoint = FakeEndpoint::start(SECRET).await;
        let (worker, _stop) = start(db, WorkerOptions { poll_interval: Duration::from_millis(50), ..fast() });
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        worker.wake();
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(delivery(db, &sent.id).attempts, 0);
        let mut input = EndpointInput {
            url: endpoint.url(),
            secret: Some(SECRET.into()),
            timeout_secs: None,
            max_attempts: None,
            enabled: false,
        };
        db.set_endpoint(input.clone()).unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!((delivery(db, &sent.id).attempts, endpoint.received().len()), (0, 0));
        input.enabled = true;
        db.set_endpoint(input).unwrap();
        worker.wake();
        delivered(db, &sent.id).await;
    }
}

on_both! {
    async fn a_worker_killed_mid_request_is_replaced_and_the_reply_goes_out_once_under_its_id(db) {
        let endpoint = with_endpoint(db, 3, 5).await;
        endpoint.script([Answer::Hang]);
        let (first, _stop_first) = start(db, fast());
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        first.wake();
        endpoint.wait_for_requests(1, Duration::from_secs(5)).await;
        first.abort();
        assert_eq!(delivery(db, &sent.id).state, DeliveryState::Pending);
        let (_second, _stop_second) = start(db, fast());
        let done = delivered(db, &sent.id).await;
        assert_eq!(done.attempts, 1, "the interrupted attempt was never settled, so it does not count");
        let ids: Vec<String> = endpoint.received().into_iter().map(|r| r.webhook_id).collect();
        assert_eq!(ids, vec![sent.id.clone(), sent.id.clone()]);
        assert_eq!(endpoint.accepted_ids(), vec![sent.id.clone()]);
        let kinds: Vec<EventKind> = delivery_events(db, &sent.case_id).into_iter().map(|(k, _)| k).collect();
        assert_eq!(kinds, vec![EventKind::AgentNotified]);
    }
}

on_both! {
    async fn a_worker_shut_down_mid_request_gives_its_claim_back_at_once(db) {
        let endpoint = with_endpoint(db, 30, 5).await;
        endpoint.script([Answer::Hang]);
        let (first, stop_first) = start(db, fast());
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        first.wake();
        endpoint.wait_for_requests(1, Duration::from_secs(5)).await;
        stop_first.send(()).unwrap();
        first.join().await;
        assert_eq!(db.text(&format!("SELECT claimed_until FROM deliveries WHERE id = '{}'", sent.id)), None);
        let restarted = Instant::now();
        let (_second, _stop_second) = start(db, fast());
        delivered(db, &sent.id).await;
        assert!(restarted.elapsed() < Duration::from_secs(30), "the 30 s lease was not waited out");
        assert_eq!(endpoint.accepted_ids(), vec![sent.id]);
    }
}

on_both! {
    async fn many_replies_each_go_out_once_under_their_own_id(db) {
        let endpoint = with_endpoint(db, 10, 5).await;
        let (worker, _stop) = start(db, fast());
        let sent: Vec<Delivery> =
            (0..20).map(|n| answered(db, &format!("conv-{n}"), HumanAction::Resolved)).collect();
        worker.wake();
        for d in &sent {
            wait_for(db, &d.id, Duration::from_secs(10), |d| d.state == DeliveryState::Delivered).await;
        }
        let mut accepted = endpoint.accepted_ids();
        accepted.sort();
        let mut expected: Vec<String> = sent.into_iter().map(|d| d.id).collect();
        expected.sort();
        assert_eq!(accepted, expected);
    }
}

on_both! {
    async fn two_workers_on_two_instances_send_each_reply_once(db) {
        let endpoint = with_endpoint(db, 10, 5).await;
        let elsewhere = db.another_instance();
        let (here, _stop_here) = start(db, fast());
        let (there, _stop_there) = start(&elsewhere, fast());
        let sent: Vec<Delivery> =
            (0..20).map(|n| answered(db, &format!("conv-{n}"), HumanAction::Resolved)).collect();
        here.wake();
        there.wake();
        for d in &sent {
            wait_for(db, &d.id, Duration::from_secs(10), |d| d.state == DeliveryState::Delivered).await;
        }
        let mut received: Vec<String> = endpoint.received().into_iter().map(|r| r.webhook_id).collect();
        received.sort();
        let mut expected: Vec<String> = sent.into_iter().map(|d| d.id).collect();
        expected.sort();
        assert_eq!(received, expected, "no reply was posted twice");
    }
}

on_both! {
    async fn test_endpoint_sends_a_signed_ping_and_reports_the_answer(db) {
        let mut endpoint = with_endpoint(db, 2, 5).await;
        let settings = db.endpoint().unwrap().unwrap();
        let ok = test_endpoint(&settings).await.unwrap();
        assert_eq!((ok.ok, ok.status, ok.error), (true, Some(200), None));
        let ping = &endpoint.received()[0];
        let body: serde_json::Value = serde_json::from_str(&ping.body).unwrap();
        assert_eq!(
            (body["type"].as_str(), body["id"].as_str()),
            (Some("ping"), Some(ping.webhook_id.as_str()))
        );
        assert!(ping.signature_ok);
        endpoint.script([Answer::Status(401)]);
        let refused = test_endpoint(&settings).await.unwrap();
        assert_eq!((refused.ok, refused.status), (false, Some(401)));
        assert_eq!(refused.error.as_deref(), Some("the endpoint answered 401 Unauthorized: scripted 401"));
        endpoint.stop().await;
        let down = test_endpoint(&settings).await.unwrap();
        assert_eq!((down.ok, down.status), (false, None));
        assert!(down.error.as_deref().unwrap().starts_with("cannot connect"), "{down:?}");
    }
}

on_both! {
    async fn each_settled_attempt_announces_that_its_case_changed(db) {
        let _endpoint = with_endpoint(db, 10, 5).await;
        let events = EventBus::new();
        let mut heard = events.subscribe();
        let (stop, stopped) = oneshot::channel::<()>();
        let worker = DeliveryWorker::spawn(db.outbox(), fast(), events.clone(), async {
            let _ = stopped.await;
        })
        .unwrap();
        let sent = answered(db, "conv-1", HumanAction::Resolved);
        worker.wake();
        let event = tokio::time::timeout(Duration::from_secs(5), heard.recv()).await.unwrap().unwrap();
        assert_eq!(event, DomainEvent::CaseChanged { id: sent.case_id });
        let _ = stop.send(());
        worker.join().await;
    }
}

on_both! {
    async fn a_quiet_customer_reminder_is_posted_signed_under_its_own_delivery_id(db) {
        let endpoint = with_endpoint(db, 10, 5).await;
        let (worker, _stop) = start(db, fast());
        let asked = answered(db, "conv-1", HumanAction::NeedLeadInfo);
        db.set(&asked.case_id, "waiting_since = '2026-11-01T08:00:00.000Z'");
        let delays = QuietDelays { remind_after: Some(Duration::from_secs(3600)), close_after: None };
        let run = db.follow_up_quiet("2026-11-01T09:00:00.000Z", &delays).unwrap();
        assert_eq!(run.reminded, vec![asked.case_id.clone()]);
        worker.wake();
        endpoint.wait_for_requests(2, Duration::from_secs(5)).await;
        let reminder =
            db.deliveries(&asked.case_id).into_iter().find(|d| d.action == DeliveryAction::Reminder).unwrap();
        assert_eq!(delivered(db, &reminder.id).await.last_status, Some(200));
        let request = endpoint.received().into_iter().find(|r| r.webhook_id == reminder.id).unwrap();
        assert!(request.signature_ok);
        let body: serde_json::Value = serde_json::from_str(&request.body).unwrap();
        assert_eq!(
            (body["type"].as_str(), body["id"].as_str()),
            (Some("case.reminder"), Some(reminder.id.as_str()))
        );
        assert_eq!(body["asked"], "Refund issued today.");
    }
}
