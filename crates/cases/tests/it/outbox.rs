//! The outbox (SPEC B3): every due delivery is claimed by exactly one worker at a time under its
//! one id — also across instances — a lease that ran out hands it to another, attempts settle
//! with their timeline event, the banner says why replies wait, and the endpoint's settings are
//! checked before anything is stored.

use std::time::Duration;

use skillcase_cases::clock;
use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::model::{DeliveryState, EventKind, HumanAction, NewCase};
use skillcase_cases::outbox::{Attempt, Backoff, EndpointHealth};
use skillcase_cases::{CasesRepository, OutboxRepository};
use skillcase_common::error::Coded;

use crate::support::{at_once, endpoint_input, plus_secs, refund_case, Db, SECRET};

const MARGIN: Duration = Duration::from_secs(5);
const DEFAULT_URL: &str = "http://127.0.0.1:9/default";
/// Long past: a lease that ended then has run out.
const LONG_AGO: &str = "2000-01-01T00:00:00.000Z";

/// A case resolved by a person and the delivery of that reply.
struct Reply {
    case_id: String,
    delivery_id: String,
}

/// `count` cases of conversations `prefix-1`, `prefix-2`, …, each resolved by Ana, their
/// replies' deliveries pending and due since early 2000, one second apart, in order.
fn replied(db: &Db, prefix: &str, count: i64) -> Vec<Reply> {
    (1..=count)
        .map(|n| {
            let new = NewCase { agent_id: None, ..refund_case(&format!("{prefix}-{n}")) };
            let case_id = db.open_case(new).unwrap().case.id;
            let (_, delivery) = db.reply(&case_id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
            let at = plus_secs(LONG_AGO, n);
            db.exec(&format!(
                "UPDATE deliveries SET next_attempt_at = '{at}', created_at = '{at}', updated_at = '{at}' \
                 WHERE id = '{}'",
                delivery.id
            ));
            Reply { case_id, delivery_id: delivery.id }
        })
        .collect()
}

fn one_reply(db: &Db, prefix: &str) -> Reply {
    replied(db, prefix, 1).remove(0)
}

/// A column of one delivery (NULL is `None`).
fn column(db: &Db, id: &str, column: &str) -> Option<String> {
    db.text(&format!("SELECT {column} FROM deliveries WHERE id = '{id}'"))
}

/// The delivery events on a case's timeline, oldest first.
fn delivery_events(db: &Db, case_id: &str) -> Vec<(EventKind, serde_json::Value)> {
    db.events(case_id)
        .into_iter()
        .filter(|e| matches!(e.kind, EventKind::AgentNotified | EventKind::DeliveryFailed))
        .map(|e| (e.kind, e.payload))
        .collect()
}

/// Claims on `instance` until nothing is left for it; the ids it got.
fn claim_all(instance: &Db) -> Vec<String> {
    std::iter::from_fn(|| instance.claim_next(MARGIN).unwrap()).map(|claimed| claimed.id).collect()
}

fn retryable(error: &str) -> Attempt {
    Attempt::Retryable { status: Some(503), error: error.into(), retry_after: None }
}

// Claims.

on_both! {
    fn four_workers_on_two_instances_claiming_fifty_due_deliveries_at_once_get_each_exactly_once(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let mut due: Vec<String> = replied(db, "burst", 50).into_iter().map(|r| r.delivery_id).collect();
        let per_worker = at_once(db, 4, |instance, _| claim_all(instance));
        let mut claimed = per_worker.concat();
        claimed.sort();
        due.sort();
        assert_eq!(claimed, due, "each of the 50 once: {per_worker:?}");
    }
}

on_both! {
    fn a_claimed_delivery_is_not_claimable_by_another_instance_before_its_lease_ends(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let reply = one_reply(db, "leased");
        assert_eq!(db.claim_next(MARGIN).unwrap().unwrap().id, reply.delivery_id);
        assert_eq!(db.another_instance().claim_next(MARGIN).unwrap(), None);
        assert_eq!(db.claim_next(MARGIN).unwrap(), None, "not even by the one holding it");
    }
}

on_both! {
    fn a_delivery_whose_lease_expired_is_claimed_again_by_another_instance_under_the_same_id(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let reply = one_reply(db, "crashed");
        let first = db.claim_next(MARGIN).unwrap().unwrap();
        db.exec(&format!("UPDATE deliveries SET claimed_until = '{LONG_AGO}' WHERE id = '{}'", first.id));
        let again = db.another_instance().claim_next(MARGIN).unwrap().unwrap();
        assert_eq!((again.id, again.body), (reply.delivery_id, first.body));
    }
}

on_both! {
    fn the_lease_lasts_the_endpoint_timeout_plus_the_margin(db) {
        db.set_endpoint(EndpointInput { timeout_secs: Some(20), ..endpoint_input(DEFAULT_URL) }).unwrap();
        let reply = one_reply(db, "lease");
        let earliest = clock::after(Duration::from_secs(25));
        db.claim_next(MARGIN).unwrap().unwrap();
        let latest = clock::after(Duration::from_secs(25));
        let until = column(db, &reply.delivery_id, "claimed_until").unwrap();
        assert!(earliest <= until && until <= latest, "{earliest} <= {until} <= {latest}");
    }
}

on_both! {
    fn a_released_delivery_is_claimable_by_another_instance_at_once(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let reply = one_reply(db, "released");
        db.claim_next(MARGIN).unwrap().unwrap();
        db.release(&reply.delivery_id).unwrap();
        assert_eq!(column(db, &reply.delivery_id, "claimed_until"), None);
        assert_eq!(db.another_instance().claim_next(MARGIN).unwrap().unwrap().id, reply.delivery_id);
    }
}

on_both! {
    fn the_delivery_due_the_longest_is_claimed_first(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let replies = replied(db, "order", 3);
        db.exec(&format!(
            "UPDATE deliveries SET next_attempt_at = '1999-12-31T00:00:00.000Z' WHERE id = '{}'",
            replies[2].delivery_id
        ));
        let expected: Vec<&str> = [2, 0, 1].iter().map(|&i| replies[i].delivery_id.as_str()).collect();
        assert_eq!(claim_all(db), expected);
    }
}

on_both! {
    fn a_delivery_not_yet_due_is_not_claimed_and_next_due_at_says_when_it_is(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let reply = one_reply(db, "later");
        let later = "2999-01-01T00:00:00.000Z";
        db.exec(&format!(
            "UPDATE deliveries SET next_attempt_at = '{later}' WHERE id = '{}'",
            reply.delivery_id
        ));
        assert_eq!(db.claim_next(MARGIN).unwrap(), None);
        assert_eq!(db.next_due_at().unwrap().as_deref(), Some(later));
    }
}

on_both! {
    fn next_due_at_of_a_claimed_delivery_is_when_its_lease_ends(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let reply = one_reply(db, "claimed");
        db.claim_next(MARGIN).unwrap().unwrap();
        let until = column(db, &reply.delivery_id, "claimed_until");
        assert_eq!(db.another_instance().next_due_at().unwrap(), until);
    }
}

on_both! {
    fn replies_wait_until_an_enabled_endpoint_is_configured(db) {
        let reply = one_reply(db, "waiting");
        assert_eq!((db.claim_next(MARGIN).unwrap(), db.next_due_at().unwrap()), (None, None));
        db.set_endpoint(EndpointInput { enabled: false, ..endpoint_input(DEFAULT_URL) }).unwrap();
        assert_eq!((db.claim_next(MARGIN).unwrap(), db.next_due_at().unwrap()), (None, None));
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let claimed = db.claim_next(MARGIN).unwrap().unwrap();
        assert_eq!((claimed.id, claimed.endpoint.url.as_str()), (reply.delivery_id, DEFAULT_URL));
    }
}

// Settling attempts.

on_both! {
    fn a_delivered_attempt_settles_the_delivery_and_notes_agent_notified_on_the_timeline(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let reply = one_reply(db, "ok");
        db.claim_next(MARGIN).unwrap().unwrap();
        let done = db
            .record_attempt(&reply.delivery_id, &Attempt::Delivered { status: 200 }, 15, &Backoff::default())
            .unwrap();
        assert_eq!(
            (done.state, done.attempts, done.last_status, done.last_error),
            (DeliveryState::Delivered, 1, Some(200), None)
        );
        assert!(done.delivered_at.is_some() && done.next_attempt_at.is_none());
        assert_eq!(column(db, &reply.delivery_id, "claimed_until"), None);
        assert_eq!(
            delivery_events(db, &reply.case_id),
            vec![(
                EventKind::AgentNotified,
                serde_json::json!({ "delivery_id": reply.delivery_id, "attempt": 1, "status": 200 })
            )]
        );
    }
}

on_both! {
    fn a_retryable_failure_stays_pending_no_sooner_than_retry_after_and_notes_why(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let reply = one_reply(db, "busy");
        db.claim_next(MARGIN).unwrap().unwrap();
        let busy = Attempt::Retryable {
            status: Some(429),
            error: "the endpoint answered 429 Too Many Requests".into(),
            retry_after: Some(Duration::from_secs(30)),
        };
        let earliest = clock::after(Duration::from_secs(30));
        let after = db.record_attempt(&reply.delivery_id, &busy, 15, &Backoff::default()).unwrap();
        let next = after.next_attempt_at.clone().unwrap();
        assert_eq!((after.state, after.attempts, after.last_status), (DeliveryState::Pending, 1, Some(429)));
        assert!(next >= earliest, "{next} >= {earliest}");
        assert_eq!(column(db, &reply.delivery_id, "claimed_until"), None, "the lease is over");
        let (kind, payload) = delivery_events(db, &reply.case_id).remove(0);
        assert_eq!(
            (kind, &payload["state"], &payload["next_attempt_at"]),
            (EventKind::DeliveryFailed, &"pending".into(), &next.into())
        );
        assert_eq!(payload["error"], "the endpoint answered 429 Too Many Requests");
    }
}

on_both! {
    fn a_refused_attempt_fails_at_once(db) {
        let reply = one_reply(db, "refused");
        let refused = Attempt::Refused { status: 400, error: "the endpoint answered 400 Bad Request".into() };
        let failed = db.record_attempt(&reply.delivery_id, &refused, 15, &Backoff::default()).unwrap();
        assert_eq!(
            (failed.state, failed.attempts, failed.last_status),
            (DeliveryState::Failed, 1, Some(400))
        );
        assert_eq!(failed.next_attempt_at, None);
        assert_eq!(delivery_events(db, &reply.case_id)[0].1["state"], "failed");
    }
}

on_both! {
    fn a_delivery_that_keeps_failing_is_dead_after_the_attempt_limit(db) {
        let reply = one_reply(db, "down");
        db.record_attempt(&reply.delivery_id, &retryable("connection refused"), 2, &Backoff::default())
            .unwrap();
        let dead = db
            .record_attempt(&reply.delivery_id, &retryable("connection refused"), 2, &Backoff::default())
            .unwrap();
        assert_eq!((dead.state, dead.attempts, dead.next_attempt_at), (DeliveryState::Dead, 2, None));
        let states: Vec<serde_json::Value> = delivery_events(db, &reply.case_id)
            .into_iter()
            .map(|(_, payload)| payload["state"].clone())
            .collect();
        assert_eq!(states, vec![serde_json::json!("pending"), serde_json::json!("dead")]);
    }
}

on_both! {
    fn an_attempt_on_a_delivery_another_instance_already_settled_changes_nothing(db) {
        let reply = one_reply(db, "twice");
        let delivered = db
            .record_attempt(&reply.delivery_id, &Attempt::Delivered { status: 200 }, 15, &Backoff::default())
            .unwrap();
        let late = db
            .another_instance()
            .record_attempt(&reply.delivery_id, &retryable("timed out"), 15, &Backoff::default())
            .unwrap();
        assert_eq!(late, delivered);
        assert_eq!(delivery_events(db, &reply.case_id).len(), 1);
    }
}

on_both! {
    fn an_attempt_on_an_unknown_delivery_is_delivery_not_found(db) {
        let err = db.record_attempt(
            "no-such-delivery",
            &Attempt::Delivered { status: 200 },
            15,
            &Backoff::default(),
        );
        assert_eq!(err.unwrap_err().code(), "delivery_not_found");
    }
}

on_both! {
    fn retry_puts_a_failed_delivery_back_due_now_with_a_fresh_budget_under_the_same_id(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let reply = one_reply(db, "gone");
        let refused = Attempt::Refused { status: 410, error: "the endpoint answered 410 Gone".into() };
        db.record_attempt(&reply.delivery_id, &refused, 15, &Backoff::default()).unwrap();
        let again = db.another_instance().retry(&reply.delivery_id).unwrap();
        assert_eq!((again.state, again.attempts), (DeliveryState::Pending, 0));
        assert_eq!(db.claim_next(MARGIN).unwrap().unwrap().id, reply.delivery_id);
    }
}

on_both! {
    fn retry_of_a_delivery_that_has_not_given_up_is_refused_and_an_unknown_one_is_not_found(db) {
        let reply = one_reply(db, "pending");
        let err = db.retry(&reply.delivery_id).unwrap_err();
        assert_eq!(
            (err.code(), err.details().unwrap()["state"].clone()),
            ("delivery_not_retryable", "pending".into())
        );
        let said = "a delivery that is pending cannot be retried; only failed or dead ones can";
        assert_eq!(err.to_string(), said);
        assert_eq!(db.retry("no-such-delivery").unwrap_err().code(), "delivery_not_found");
    }
}

// What the banner and diagnostics read.

on_both! {
    fn the_outbox_status_tells_the_banner_why_replies_wait(db) {
        let reply = one_reply(db, "banner");
        let status = db.status().unwrap();
        assert_eq!((status.health, status.pending, status.stuck), (EndpointHealth::NotConfigured, 1, 0));
        assert_eq!(status.oldest_pending_since.as_deref(), Some("2000-01-01T00:00:01.000Z"));
        let mut input =
            EndpointInput { max_attempts: Some(2), enabled: false, ..endpoint_input(DEFAULT_URL) };
        db.set_endpoint(input.clone()).unwrap();
        assert_eq!(db.status().unwrap().health, EndpointHealth::Disabled);
        input.enabled = true;
        input.secret = None;
        db.set_endpoint(input).unwrap();
        assert_eq!(db.status().unwrap().health, EndpointHealth::Ok);
        db.record_attempt(&reply.delivery_id, &retryable("cannot connect: refused"), 2, &Backoff::default())
            .unwrap();
        let status = db.status().unwrap();
        assert_eq!(
            (status.health, status.last_error.as_deref()),
            (EndpointHealth::Unreachable, Some("cannot connect: refused"))
        );
        db.record_attempt(&reply.delivery_id, &retryable("cannot connect: refused"), 2, &Backoff::default())
            .unwrap();
        let status = db.status().unwrap();
        assert_eq!((status.pending, status.stuck, status.oldest_pending_since), (0, 1, None));
    }
}

on_both! {
    fn deliveries_in_one_state_are_listed_oldest_first(db) {
        let replies = replied(db, "listed", 3);
        let refused = Attempt::Refused { status: 400, error: "bad request".into() };
        db.record_attempt(&replies[1].delivery_id, &refused, 15, &Backoff::default()).unwrap();
        let ids = |state| -> Vec<String> {
            db.deliveries_in_state(state).unwrap().into_iter().map(|d| d.id).collect()
        };
        assert_eq!(
            ids(DeliveryState::Pending),
            vec![replies[0].delivery_id.clone(), replies[2].delivery_id.clone()]
        );
        assert_eq!(ids(DeliveryState::Failed), vec![replies[1].delivery_id.clone()]);
    }
}

#[test]
fn backoff_doubles_from_the_base_up_to_the_cap_with_jitter_below_the_ceiling() {
    let backoff = Backoff::default();
    let ceilings: Vec<u64> = (1..=11).map(|n| backoff.ceiling(n).as_secs()).collect();
    assert_eq!(ceilings, vec![1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]);
    assert_eq!(backoff.ceiling(64), Duration::from_secs(300));
    for _ in 0..100 {
        assert!(backoff.delay(3, None) <= Duration::from_secs(4));
        assert!(backoff.delay(1, Some(Duration::from_secs(30))) == Duration::from_secs(30));
    }
}

// The default endpoint's settings.

on_both! {
    fn endpoint_urls_must_be_absolute_http_or_https_and_nothing_is_stored(db) {
        for url in ["ftp://agent.local/hook", "/hooks/skillcase", "not a url", "http://", "file:///tmp/x"] {
            assert_eq!(
                db.set_endpoint(endpoint_input(url)).unwrap_err().code(),
                "invalid_endpoint_url",
                "{url}"
            );
        }
        assert_eq!(db.endpoint().unwrap(), None);
    }
}

on_both! {
    fn an_endpoint_url_with_credentials_is_refused_without_repeating_the_password(db) {
        let err = db.set_endpoint(endpoint_input("http://agent:hunter2@127.0.0.1:9/hooks")).unwrap_err();
        assert_eq!(err.code(), "endpoint_url_has_credentials");
        assert!(!err.to_string().contains("hunter2"), "{err}");
        assert_eq!(db.endpoint_view().unwrap(), None);
    }
}

on_both! {
    fn the_first_endpoint_needs_a_secret_and_a_later_save_without_one_keeps_it(db) {
        let err = db.set_endpoint(EndpointInput { secret: None, ..endpoint_input(DEFAULT_URL) }).unwrap_err();
        assert_eq!(
            (err.code(), err.details().unwrap()["field"].clone()),
            ("invalid_endpoint_setting", "secret".into())
        );
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let again = EndpointInput {
            secret: None,
            max_attempts: Some(3),
            ..endpoint_input("http://127.0.0.1:9/other")
        };
        db.another_instance().set_endpoint(again).unwrap();
        let stored = db.endpoint().unwrap().unwrap();
        assert_eq!(
            (stored.url.as_str(), stored.secret.as_str(), stored.max_attempts),
            ("http://127.0.0.1:9/other", SECRET, 3)
        );
    }
}

on_both! {
    fn a_bad_field_stores_nothing_and_keeps_the_endpoint_saved_before(db) {
        let saved = db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let err = db
            .set_endpoint(EndpointInput { timeout_secs: Some(0), ..endpoint_input("http://127.0.0.1:9/new") })
            .unwrap_err();
        assert_eq!(err.to_string(), "the agent endpoint timeout_secs is not valid: 0 is outside 1..=120");
        let short = db.set_endpoint(EndpointInput {
            secret: Some("short".into()),
            ..endpoint_input("http://127.0.0.1:9/new")
        });
        assert_eq!(short.unwrap_err().code(), "invalid_endpoint_setting");
        assert_eq!(db.endpoint_view().unwrap(), Some(saved));
    }
}

on_both! {
    fn the_endpoint_is_shown_with_its_defaults_and_never_with_its_secret(db) {
        let view = db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        assert_eq!(
            (view.url.as_str(), view.has_secret, view.timeout_secs, view.max_attempts, view.enabled),
            (DEFAULT_URL, true, 10, 15, true)
        );
        let shown = serde_json::to_string(&db.another_instance().endpoint_view().unwrap()).unwrap();
        assert!(!shown.contains("MfKQ9"), "{shown}");
        assert_eq!(db.endpoint().unwrap().unwrap().secret, SECRET, "the worker still gets it");
    }
}

on_both! {
    fn an_endpoint_url_stored_with_credentials_is_shown_masked(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        db.exec("UPDATE agent_endpoint SET url = 'http://u:hunter2@127.0.0.1:9/default'");
        assert_eq!(db.endpoint_view().unwrap().unwrap().url, "http://***@127.0.0.1:9/default");
    }
}

on_both! {
    fn a_checked_endpoint_uses_the_stored_secret_and_stores_nothing(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let before = db.endpoint_view().unwrap();
        let input = EndpointInput {
            secret: None,
            timeout_secs: Some(2),
            ..endpoint_input("http://127.0.0.1:9/test")
        };
        let checked = db.checked_endpoint(&input).unwrap();
        assert_eq!(
            (checked.url.as_str(), checked.secret.as_str(), checked.timeout_secs),
            ("http://127.0.0.1:9/test", SECRET, 2)
        );
        assert_eq!(db.endpoint_view().unwrap(), before);
    }
}

// A body is signed only when it says what its reply says.

on_both! {
    fn a_delivery_whose_body_was_edited_after_the_reply_is_failed_unsigned_and_the_next_is_claimed(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let replies = replied(db, "edited", 2);
        db.exec(&format!(
            "UPDATE deliveries SET body = replace(body, 'Refunded.', 'FORGED: the refund of R$ 9000 is approved') \
             WHERE id = '{}'",
            replies[0].delivery_id
        ));

        assert_eq!(claim_all(db), [replies[1].delivery_id.as_str()]);
        let forged = &replies[0];
        assert_eq!(column(db, &forged.delivery_id, "state").as_deref(), Some("failed"));
        let (kind, payload) = delivery_events(db, &forged.case_id).pop().unwrap();
        assert_eq!((kind, payload["attempt"].as_i64()), (EventKind::DeliveryFailed, Some(0)));
        assert!(payload["error"].as_str().unwrap().contains("does not match the reply"), "{payload}");
    }
}

on_both! {
    fn a_delivery_written_beside_another_persons_reply_is_never_claimed(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let reply = one_reply(db, "beside");
        db.exec(&format!(
            "INSERT INTO deliveries (id, case_id, event_seq, action, body, state, next_attempt_at, created_at, updated_at) \
             SELECT 'forged-1', case_id, event_seq, action, replace(replace(body, 'Refunded.', 'Approved: R$ 9000'), \
                    '{id}', 'forged-1'), 'pending', next_attempt_at, created_at, updated_at \
             FROM deliveries WHERE id = '{id}'",
            id = reply.delivery_id
        ));

        assert_eq!(claim_all(db), [reply.delivery_id.as_str()]);
        assert_eq!(column(db, "forged-1", "state").as_deref(), Some("failed"));
    }
}

on_both! {
    fn a_delivery_claiming_a_different_action_than_its_reply_is_never_claimed(db) {
        db.set_endpoint(endpoint_input(DEFAULT_URL)).unwrap();
        let reply = one_reply(db, "action");
        db.exec(&format!(
            "UPDATE deliveries SET action = 'escalate', body = replace(body, '\"resolved\"', '\"escalate\"') \
             WHERE id = '{}'",
            reply.delivery_id
        ));

        assert_eq!(claim_all(db), Vec::<String>::new());
        assert_eq!(column(db, &reply.delivery_id, "state").as_deref(), Some("failed"));
    }
}
