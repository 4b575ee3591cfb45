//! The team outbox across instances: every due delivery is claimed by exactly one instance at a
//! time under its one id, a lease that ran out hands it to another, attempts settle with their
//! timeline event, and the endpoint and agent settings are checked before anything is stored.

mod support;

use std::sync::Barrier;
use std::time::Duration;

use skillcase_cases::agents::AgentInput;
use skillcase_cases::endpoint::EndpointInput;
use skillcase_cases::model::DeliveryState;
use skillcase_cases::outbox::{Attempt, Backoff, EndpointHealth};
use skillcase_cases::{clock, OutboxRepository};
use skillcase_common::error::Coded;
use skillcase_team::PgCases;
use support::{another_instance, psql, team};

const MARGIN: Duration = Duration::from_secs(5);
const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const DEFAULT_URL: &str = "http://127.0.0.1:9/default";
const BILLING_URL: &str = "http://127.0.0.1:9/billing";
/// Long past: a lease that ended then has run out.
const LONG_AGO: &str = "2000-01-01T00:00:00.000Z";

/// A case resolved by a person and the delivery of that reply.
struct Reply {
    case_id: String,
    delivery_id: String,
}

/// Writes `count` cases opened by `agent`, each resolved by Ana with its reply's delivery pending
/// and due since early 2000 (one second apart, in order), as `reply` writes them — with SQL here,
/// so these tests do not wait for the transitions.
fn replied(team: &PgCases, prefix: &str, count: usize, agent: Option<&str>) -> Vec<Reply> {
    let agent = agent.map_or("NULL".to_string(), |id| format!("'{id}'"));
    psql(
        team.url(),
        &format!(
            "INSERT INTO cases (id, number, conversation_id, agent_id, status, title, summary, source, \
             opened_at, updated_at, closed_at) \
             SELECT '{prefix}-' || n, (SELECT coalesce(max(number), 1000) FROM cases) + n, 'conv-{prefix}-' || n, \
             {agent}, 'resolved', 'Refund for a double charge', 'Charged twice for order 5512.', 'agent', \
             '{LONG_AGO}', '{LONG_AGO}', '{LONG_AGO}' FROM generate_series(1, {count}) n; \
             INSERT INTO case_events (case_id, kind, actor, actor_name, at, payload) \
             SELECT '{prefix}-' || n, 'human_replied', 'human', 'Ana', \
             to_char(timestamp '2000-01-01' + n * interval '1 second', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), \
             '{{\"action\":\"resolved\",\"text\":\"Refunded.\"}}' FROM generate_series(1, {count}) n; \
             INSERT INTO deliveries (id, case_id, event_seq, action, body, state, next_attempt_at, created_at, \
             updated_at) SELECT 'delivery-' || case_id, case_id, seq, 'resolved', \
             '{{\"type\":\"case.replied\",\"id\":\"delivery-' || case_id || '\"}}', 'pending', at, at, at \
             FROM case_events WHERE case_id LIKE '{prefix}-%'"
        ),
    );
    (1..=count)
        .map(|n| Reply { case_id: format!("{prefix}-{n}"), delivery_id: format!("delivery-{prefix}-{n}") })
        .collect()
}

/// One reply on a case of `agent`.
fn one_reply(team: &PgCases, prefix: &str, agent: Option<&str>) -> Reply {
    replied(team, prefix, 1, agent).remove(0)
}

/// The default endpoint at `url`, switched on, signing with [`SECRET`], default limits.
fn endpoint_at(url: &str) -> EndpointInput {
    EndpointInput {
        url: url.into(),
        secret: Some(SECRET.into()),
        timeout_secs: None,
        max_attempts: None,
        enabled: true,
    }
}

/// An agent with every switch on and, with a `url`, its own endpoint signing with [`SECRET`].
fn agent(id: &str, url: Option<&str>) -> AgentInput {
    AgentInput {
        agent_id: id.into(),
        url: url.map(Into::into),
        secret: url.map(|_| SECRET.into()),
        cases_enabled: true,
        guardrail_enabled: true,
    }
}

/// The outbox columns of one delivery as psql prints them (NULL is empty).
fn column(team: &PgCases, id: &str, column: &str) -> String {
    psql(team.url(), &format!("SELECT {column} FROM deliveries WHERE id = '{id}'"))
}

/// The delivery events on a case's timeline, oldest first.
fn delivery_events(team: &PgCases, case_id: &str) -> Vec<(String, serde_json::Value)> {
    let out = psql(
        team.url(),
        &format!(
            "SELECT kind, payload FROM case_events WHERE case_id = '{case_id}' \
             AND kind IN ('agent_notified', 'delivery_failed') ORDER BY seq"
        ),
    );
    out.lines()
        .filter_map(|line| line.split_once('|'))
        .map(|(kind, payload)| (kind.to_string(), serde_json::from_str(payload).unwrap()))
        .collect()
}

/// Claims on `instance` until nothing is left for it; the ids it got.
fn claim_all(instance: &PgCases) -> Vec<String> {
    std::iter::from_fn(|| instance.claim_next(MARGIN).unwrap()).map(|claimed| claimed.id).collect()
}

fn retryable(error: &str) -> Attempt {
    Attempt::Retryable { status: Some(503), error: error.into(), retry_after: None }
}

// Claims across instances.

#[test]
fn three_instances_claiming_fifty_due_deliveries_at_once_get_each_exactly_once_and_all_of_them() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let mut due: Vec<String> = replied(&team, "burst", 50, None).into_iter().map(|r| r.delivery_id).collect();
    let instances = [team.clone(), another_instance(&team), another_instance(&team)];
    let start = Barrier::new(instances.len());
    let per_instance: Vec<Vec<String>> = std::thread::scope(|scope| {
        let threads: Vec<_> = instances
            .iter()
            .map(|instance| {
                let start = &start;
                scope.spawn(move || {
                    start.wait();
                    claim_all(instance)
                })
            })
            .collect();
        threads.into_iter().map(|thread| thread.join().unwrap()).collect()
    });
    let mut claimed = per_instance.concat();
    claimed.sort();
    due.sort();
    assert_eq!(claimed, due, "each of the 50 once: {per_instance:?}");
}

#[test]
fn a_claimed_delivery_is_not_claimable_by_another_instance_before_its_lease_ends() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let reply = one_reply(&team, "leased", None);
    assert_eq!(team.claim_next(MARGIN).unwrap().unwrap().id, reply.delivery_id);
    assert_eq!(another_instance(&team).claim_next(MARGIN).unwrap(), None);
    assert_eq!(team.claim_next(MARGIN).unwrap(), None, "not even by the one holding it");
}

#[test]
fn a_delivery_whose_lease_expired_is_claimed_again_by_another_instance_under_the_same_id() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let reply = one_reply(&team, "crashed", None);
    let first = team.claim_next(MARGIN).unwrap().unwrap();
    psql(
        team.url(),
        &format!("UPDATE deliveries SET claimed_until = '{LONG_AGO}' WHERE id = '{}'", first.id),
    );
    let again = another_instance(&team).claim_next(MARGIN).unwrap().unwrap();
    assert_eq!((again.id.as_str(), again.body.as_str()), (reply.delivery_id.as_str(), first.body.as_str()));
}

#[test]
fn a_delivery_another_instance_is_claiming_right_now_is_passed_by_without_waiting() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let replies = replied(&team, "locked", 2, None);
    let mut other = postgres::Client::connect(team.url().secret(), postgres::NoTls).unwrap();
    let mut claiming = other.transaction().unwrap();
    claiming
        .execute("SELECT 1 FROM deliveries WHERE id = $1 FOR UPDATE", &[&replies[0].delivery_id])
        .unwrap();
    let claimed = team.claim_next(MARGIN).unwrap().unwrap();
    assert_eq!(claimed.id, replies[1].delivery_id, "the older one is locked, so the next one is taken");
    claiming.rollback().unwrap();
}

#[test]
fn the_lease_lasts_the_endpoint_timeout_plus_the_margin() {
    let team = team();
    team.set_endpoint(EndpointInput { timeout_secs: Some(20), ..endpoint_at(DEFAULT_URL) }).unwrap();
    let reply = one_reply(&team, "lease", None);
    let earliest = clock::after(Duration::from_secs(25));
    team.claim_next(MARGIN).unwrap().unwrap();
    let latest = clock::after(Duration::from_secs(25));
    let until = column(&team, &reply.delivery_id, "claimed_until");
    assert!(earliest <= until && until <= latest, "{earliest} <= {until} <= {latest}");
}

#[test]
fn a_released_delivery_is_claimable_by_another_instance_at_once() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let reply = one_reply(&team, "released", None);
    team.claim_next(MARGIN).unwrap().unwrap();
    team.release(&reply.delivery_id).unwrap();
    assert_eq!(column(&team, &reply.delivery_id, "claimed_until"), "");
    assert_eq!(another_instance(&team).claim_next(MARGIN).unwrap().unwrap().id, reply.delivery_id);
}

#[test]
fn the_delivery_due_the_longest_is_claimed_first() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let replies = replied(&team, "order", 3, None);
    psql(
        team.url(),
        "UPDATE deliveries SET next_attempt_at = '1999-12-31T00:00:00.000Z' WHERE id = 'delivery-order-3'",
    );
    let order = claim_all(&team);
    let expected: Vec<&str> = [2, 0, 1].iter().map(|&i| replies[i].delivery_id.as_str()).collect();
    assert_eq!(order, expected);
}

#[test]
fn a_delivery_not_yet_due_is_not_claimed_and_next_due_at_says_when_it_is() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let reply = one_reply(&team, "later", None);
    let later = "2999-01-01T00:00:00.000Z";
    psql(
        team.url(),
        &format!("UPDATE deliveries SET next_attempt_at = '{later}' WHERE id = '{}'", reply.delivery_id),
    );
    assert_eq!(team.claim_next(MARGIN).unwrap(), None);
    assert_eq!(team.next_due_at().unwrap().as_deref(), Some(later));
}

#[test]
fn next_due_at_of_a_claimed_delivery_is_when_its_lease_ends() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let reply = one_reply(&team, "claimed", None);
    team.claim_next(MARGIN).unwrap().unwrap();
    let until = column(&team, &reply.delivery_id, "claimed_until");
    assert_eq!(another_instance(&team).next_due_at().unwrap(), Some(until));
}

#[test]
fn replies_wait_until_an_enabled_endpoint_is_configured() {
    let team = team();
    let reply = one_reply(&team, "waiting", None);
    assert_eq!((team.claim_next(MARGIN).unwrap(), team.next_due_at().unwrap()), (None, None));
    team.set_endpoint(EndpointInput { enabled: false, ..endpoint_at(DEFAULT_URL) }).unwrap();
    assert_eq!((team.claim_next(MARGIN).unwrap(), team.next_due_at().unwrap()), (None, None));
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let claimed = team.claim_next(MARGIN).unwrap().unwrap();
    assert_eq!((claimed.id, claimed.endpoint.url.as_str()), (reply.delivery_id, DEFAULT_URL));
}

// Where deliveries go.

#[test]
fn a_reply_on_a_case_of_an_agent_with_its_own_endpoint_goes_there_with_its_secret() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    team.set_agent(agent("billing-bot", Some(BILLING_URL))).unwrap();
    one_reply(&team, "billing", Some("billing-bot"));
    let claimed = team.claim_next(MARGIN).unwrap().unwrap();
    assert_eq!((claimed.endpoint.url.as_str(), claimed.endpoint.secret.as_str()), (BILLING_URL, SECRET));
    assert_eq!((claimed.endpoint.timeout_secs, claimed.endpoint.max_attempts), (10, 15));
}

#[test]
fn a_reply_on_a_case_of_an_agent_without_its_own_endpoint_goes_to_the_default_one() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    team.set_agent(agent("sales-bot", None)).unwrap();
    one_reply(&team, "sales", Some("sales-bot"));
    assert_eq!(team.claim_next(MARGIN).unwrap().unwrap().endpoint.url, DEFAULT_URL);
}

#[test]
fn with_the_default_endpoint_off_only_agents_with_their_own_endpoint_are_sent_and_the_rest_wait() {
    let team = team();
    team.set_endpoint(EndpointInput { enabled: false, ..endpoint_at(DEFAULT_URL) }).unwrap();
    team.set_agent(agent("billing-bot", Some(BILLING_URL))).unwrap();
    one_reply(&team, "sales", Some("sales-bot"));
    assert_eq!(team.next_due_at().unwrap(), None, "a delivery with nowhere to go does not wake the worker");
    let routed = one_reply(&team, "billing", Some("billing-bot"));
    assert_eq!(team.claim_next(MARGIN).unwrap().unwrap().case_id, routed.case_id);
    assert_eq!(team.claim_next(MARGIN).unwrap(), None);
}

#[test]
fn removing_an_agent_sends_its_replies_to_the_default_endpoint_again() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    team.set_agent(agent("billing-bot", Some(BILLING_URL))).unwrap();
    team.remove_agent("billing-bot").unwrap();
    one_reply(&team, "billing", Some("billing-bot"));
    assert_eq!(team.claim_next(MARGIN).unwrap().unwrap().endpoint.url, DEFAULT_URL);
    assert_eq!(team.remove_agent("billing-bot").unwrap_err().code(), "agent_not_found");
}

// Settling attempts.

#[test]
fn a_delivered_attempt_settles_the_delivery_and_notes_agent_notified_on_the_timeline() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let reply = one_reply(&team, "ok", None);
    team.claim_next(MARGIN).unwrap().unwrap();
    let done = team
        .record_attempt(&reply.delivery_id, &Attempt::Delivered { status: 200 }, 15, &Backoff::default())
        .unwrap();
    assert_eq!(
        (done.state, done.attempts, done.last_status, done.last_error),
        (DeliveryState::Delivered, 1, Some(200), None)
    );
    assert!(done.delivered_at.is_some() && done.next_attempt_at.is_none());
    assert_eq!(column(&team, &reply.delivery_id, "claimed_until"), "");
    assert_eq!(
        delivery_events(&team, &reply.case_id),
        vec![(
            "agent_notified".to_string(),
            serde_json::json!({ "delivery_id": reply.delivery_id, "attempt": 1, "status": 200 })
        )]
    );
}

#[test]
fn a_retryable_failure_stays_pending_no_sooner_than_retry_after_and_notes_why() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let reply = one_reply(&team, "busy", None);
    team.claim_next(MARGIN).unwrap().unwrap();
    let busy = Attempt::Retryable {
        status: Some(429),
        error: "the endpoint answered 429 Too Many Requests".into(),
        retry_after: Some(Duration::from_secs(30)),
    };
    let earliest = clock::after(Duration::from_secs(30));
    let after = team.record_attempt(&reply.delivery_id, &busy, 15, &Backoff::default()).unwrap();
    let next = after.next_attempt_at.clone().unwrap();
    assert_eq!((after.state, after.attempts, after.last_status), (DeliveryState::Pending, 1, Some(429)));
    assert!(next >= earliest, "{next} >= {earliest}");
    assert_eq!(column(&team, &reply.delivery_id, "claimed_until"), "", "the lease is over");
    let (kind, payload) = delivery_events(&team, &reply.case_id).remove(0);
    assert_eq!(
        (kind.as_str(), &payload["state"], &payload["next_attempt_at"]),
        ("delivery_failed", &"pending".into(), &next.into())
    );
    assert_eq!(payload["error"], "the endpoint answered 429 Too Many Requests");
}

#[test]
fn a_refused_attempt_fails_at_once() {
    let team = team();
    let reply = one_reply(&team, "refused", None);
    let refused = Attempt::Refused { status: 400, error: "the endpoint answered 400 Bad Request".into() };
    let failed = team.record_attempt(&reply.delivery_id, &refused, 15, &Backoff::default()).unwrap();
    assert_eq!((failed.state, failed.attempts, failed.last_status), (DeliveryState::Failed, 1, Some(400)));
    assert_eq!(failed.next_attempt_at, None);
    assert_eq!(delivery_events(&team, &reply.case_id)[0].1["state"], "failed");
}

#[test]
fn a_delivery_that_keeps_failing_is_dead_after_the_attempt_limit() {
    let team = team();
    let reply = one_reply(&team, "down", None);
    team.record_attempt(&reply.delivery_id, &retryable("connection refused"), 2, &Backoff::default())
        .unwrap();
    let dead = team
        .record_attempt(&reply.delivery_id, &retryable("connection refused"), 2, &Backoff::default())
        .unwrap();
    assert_eq!((dead.state, dead.attempts, dead.next_attempt_at), (DeliveryState::Dead, 2, None));
    let states: Vec<serde_json::Value> = delivery_events(&team, &reply.case_id)
        .into_iter()
        .map(|(_, payload)| payload["state"].clone())
        .collect();
    assert_eq!(states, vec![serde_json::json!("pending"), serde_json::json!("dead")]);
}

#[test]
fn an_attempt_on_a_delivery_another_instance_already_settled_changes_nothing() {
    let team = team();
    let reply = one_reply(&team, "twice", None);
    let delivered = team
        .record_attempt(&reply.delivery_id, &Attempt::Delivered { status: 200 }, 15, &Backoff::default())
        .unwrap();
    let late = another_instance(&team)
        .record_attempt(&reply.delivery_id, &retryable("timed out"), 15, &Backoff::default())
        .unwrap();
    assert_eq!(late, delivered);
    assert_eq!(delivery_events(&team, &reply.case_id).len(), 1);
}

#[test]
fn an_attempt_on_an_unknown_delivery_is_delivery_not_found() {
    let team = team();
    let err =
        team.record_attempt("no-such-delivery", &Attempt::Delivered { status: 200 }, 15, &Backoff::default());
    assert_eq!(err.unwrap_err().code(), "delivery_not_found");
}

#[test]
fn retry_puts_a_failed_delivery_back_due_now_with_a_fresh_budget_under_the_same_id() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let reply = one_reply(&team, "gone", None);
    let refused = Attempt::Refused { status: 410, error: "the endpoint answered 410 Gone".into() };
    team.record_attempt(&reply.delivery_id, &refused, 15, &Backoff::default()).unwrap();
    let again = another_instance(&team).retry(&reply.delivery_id).unwrap();
    assert_eq!((again.state, again.attempts), (DeliveryState::Pending, 0));
    assert_eq!(team.claim_next(MARGIN).unwrap().unwrap().id, reply.delivery_id);
}

#[test]
fn retry_of_a_delivery_that_has_not_given_up_is_refused_and_an_unknown_one_is_not_found() {
    let team = team();
    let reply = one_reply(&team, "pending", None);
    let err = team.retry(&reply.delivery_id).unwrap_err();
    assert_eq!(
        (err.code(), err.details().unwrap()["state"].clone()),
        ("delivery_not_retryable", "pending".into())
    );
    assert_eq!(team.retry("no-such-delivery").unwrap_err().code(), "delivery_not_found");
}

// What the banner and diagnostics read.

#[test]
fn the_outbox_status_tells_the_banner_why_replies_wait() {
    let team = team();
    let reply = one_reply(&team, "banner", None);
    let status = team.status().unwrap();
    assert_eq!((status.health, status.pending, status.stuck), (EndpointHealth::NotConfigured, 1, 0));
    assert_eq!(status.oldest_pending_since.as_deref(), Some("2000-01-01T00:00:01.000Z"));
    let mut input = EndpointInput { max_attempts: Some(2), enabled: false, ..endpoint_at(DEFAULT_URL) };
    team.set_endpoint(input.clone()).unwrap();
    assert_eq!(team.status().unwrap().health, EndpointHealth::Disabled);
    input.enabled = true;
    team.set_endpoint(input).unwrap();
    assert_eq!(team.status().unwrap().health, EndpointHealth::Ok);
    team.record_attempt(&reply.delivery_id, &retryable("cannot connect: refused"), 2, &Backoff::default())
        .unwrap();
    let status = team.status().unwrap();
    assert_eq!(
        (status.health, status.last_error.as_deref()),
        (EndpointHealth::Unreachable, Some("cannot connect: refused"))
    );
    team.record_attempt(&reply.delivery_id, &retryable("cannot connect: refused"), 2, &Backoff::default())
        .unwrap();
    let status = team.status().unwrap();
    assert_eq!((status.pending, status.stuck, status.oldest_pending_since), (0, 1, None));
}

#[test]
fn deliveries_in_one_state_are_listed_oldest_first() {
    let team = team();
    let replies = replied(&team, "listed", 3, None);
    let refused = Attempt::Refused { status: 400, error: "bad request".into() };
    team.record_attempt(&replies[1].delivery_id, &refused, 15, &Backoff::default()).unwrap();
    let ids = |state| -> Vec<String> {
        team.deliveries_in_state(state).unwrap().into_iter().map(|d| d.id).collect()
    };
    assert_eq!(
        ids(DeliveryState::Pending),
        vec![replies[0].delivery_id.clone(), replies[2].delivery_id.clone()]
    );
    assert_eq!(ids(DeliveryState::Failed), vec![replies[1].delivery_id.clone()]);
}

// The default endpoint's settings.

#[test]
fn endpoint_urls_must_be_absolute_http_or_https_and_nothing_is_stored() {
    let team = team();
    for url in ["ftp://agent.local/hook", "/hooks/skillcase", "not a url", "http://", "file:///tmp/x"] {
        let err = team.set_endpoint(endpoint_at(url)).unwrap_err();
        assert_eq!(err.code(), "invalid_endpoint_url", "{url}");
    }
    assert_eq!(team.endpoint().unwrap(), None);
}

#[test]
fn an_endpoint_url_with_credentials_is_refused_without_repeating_the_password() {
    let team = team();
    let err = team.set_endpoint(endpoint_at("http://agent:hunter2@127.0.0.1:9/hooks")).unwrap_err();
    assert_eq!(err.code(), "endpoint_url_has_credentials");
    assert!(!err.to_string().contains("hunter2"), "{err}");
    assert_eq!(team.endpoint_view().unwrap(), None);
}

#[test]
fn the_first_endpoint_needs_a_secret_and_a_later_save_without_one_keeps_it() {
    let team = team();
    let err = team.set_endpoint(EndpointInput { secret: None, ..endpoint_at(DEFAULT_URL) }).unwrap_err();
    assert_eq!(
        (err.code(), err.details().unwrap()["field"].clone()),
        ("invalid_endpoint_setting", "secret".into())
    );
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let again =
        EndpointInput { secret: None, max_attempts: Some(3), ..endpoint_at("http://127.0.0.1:9/other") };
    another_instance(&team).set_endpoint(again).unwrap();
    let stored = team.endpoint().unwrap().unwrap();
    assert_eq!(
        (stored.url.as_str(), stored.secret.as_str(), stored.max_attempts),
        ("http://127.0.0.1:9/other", SECRET, 3)
    );
}

#[test]
fn a_bad_field_stores_nothing_and_keeps_the_endpoint_saved_before() {
    let team = team();
    let saved = team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let err = team
        .set_endpoint(EndpointInput { timeout_secs: Some(0), ..endpoint_at("http://127.0.0.1:9/new") })
        .unwrap_err();
    assert_eq!(err.to_string(), "the agent endpoint timeout_secs is not valid: 0 is outside 1..=120");
    let short = team.set_endpoint(EndpointInput {
        secret: Some("short".into()),
        ..endpoint_at("http://127.0.0.1:9/new")
    });
    assert_eq!(short.unwrap_err().code(), "invalid_endpoint_setting");
    assert_eq!(team.endpoint_view().unwrap(), Some(saved));
}

#[test]
fn the_endpoint_is_shown_with_its_defaults_and_never_with_its_secret() {
    let team = team();
    let view = team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    assert_eq!(
        (view.url.as_str(), view.has_secret, view.timeout_secs, view.max_attempts, view.enabled),
        (DEFAULT_URL, true, 10, 15, true)
    );
    let shown = serde_json::to_string(&another_instance(&team).endpoint_view().unwrap()).unwrap();
    assert!(!shown.contains("MfKQ9"), "{shown}");
    assert_eq!(team.endpoint().unwrap().unwrap().secret, SECRET, "the worker still gets it");
}

#[test]
fn an_endpoint_url_stored_with_credentials_is_shown_masked() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    psql(team.url(), "UPDATE agent_endpoint SET url = 'http://u:hunter2@127.0.0.1:9/default'");
    assert_eq!(team.endpoint_view().unwrap().unwrap().url, "http://***@127.0.0.1:9/default");
}

#[test]
fn a_checked_endpoint_uses_the_stored_secret_and_stores_nothing() {
    let team = team();
    team.set_endpoint(endpoint_at(DEFAULT_URL)).unwrap();
    let before = team.endpoint_view().unwrap();
    let input =
        EndpointInput { secret: None, timeout_secs: Some(2), ..endpoint_at("http://127.0.0.1:9/test") };
    let checked = team.checked_endpoint(&input).unwrap();
    assert_eq!(
        (checked.url.as_str(), checked.secret.as_str(), checked.timeout_secs),
        ("http://127.0.0.1:9/test", SECRET, 2)
    );
    assert_eq!(team.endpoint_view().unwrap(), before);
}

// Agents' settings.

#[test]
fn an_agent_with_its_own_endpoint_needs_a_secret_and_nothing_is_stored() {
    let team = team();
    let err =
        team.set_agent(AgentInput { secret: None, ..agent("billing-bot", Some(BILLING_URL)) }).unwrap_err();
    assert_eq!(err.code(), "invalid_endpoint_setting");
    assert!(team.agents().unwrap().is_empty(), "nothing was stored");
}

#[test]
fn a_saved_agent_secret_is_kept_when_the_agent_is_saved_again_without_one() {
    let team = team();
    team.set_agent(agent("billing-bot", Some(BILLING_URL))).unwrap();
    let again = AgentInput {
        secret: None,
        guardrail_enabled: false,
        ..agent("billing-bot", Some("http://127.0.0.1:9/b2"))
    };
    another_instance(&team).set_agent(again).unwrap();
    one_reply(&team, "billing", Some("billing-bot"));
    let endpoint = team.claim_next(MARGIN).unwrap().unwrap().endpoint;
    assert_eq!((endpoint.url.as_str(), endpoint.secret.as_str()), ("http://127.0.0.1:9/b2", SECRET));
}

#[test]
fn an_agent_url_that_is_invalid_or_has_credentials_is_refused_and_nothing_is_stored() {
    let team = team();
    let err = team.set_agent(agent("billing-bot", Some("http://u:hunter2@127.0.0.1:9/b"))).unwrap_err();
    assert_eq!(err.code(), "endpoint_url_has_credentials");
    assert_eq!(
        team.set_agent(agent("billing-bot", Some("ftp://x/b"))).unwrap_err().code(),
        "invalid_endpoint_url"
    );
    assert!(team.agents().unwrap().is_empty());
}

#[test]
fn a_blank_agent_id_is_refused() {
    let team = team();
    assert_eq!(team.set_agent(agent("   ", None)).unwrap_err().code(), "invalid_agent_id");
}

#[test]
fn an_agent_url_stored_with_credentials_is_shown_masked_and_its_secret_never() {
    let team = team();
    team.set_agent(agent("billing-bot", Some(BILLING_URL))).unwrap();
    psql(
        team.url(),
        "UPDATE agents SET url = 'http://u:hunter2@127.0.0.1:9/billing' WHERE agent_id = 'billing-bot'",
    );
    let view = team.agents().unwrap().remove(0);
    assert_eq!(
        (view.url.as_deref(), view.configured, view.cases),
        (Some("http://***@127.0.0.1:9/billing"), true, 0)
    );
    let shown = serde_json::to_string(&view).unwrap();
    assert!(!shown.contains("hunter2") && !shown.contains("MfKQ9"), "{shown}");
}

#[test]
fn settings_list_agents_seen_on_cases_beside_the_configured_ones_with_their_case_counts() {
    let team = team();
    replied(&team, "sales", 2, Some("sales-bot"));
    team.set_agent(AgentInput { guardrail_enabled: false, ..agent("billing-bot", None) }).unwrap();
    let listed: Vec<(String, bool, bool, i64)> = another_instance(&team)
        .agents()
        .unwrap()
        .into_iter()
        .map(|a| (a.agent_id, a.configured, a.guardrail_enabled, a.cases))
        .collect();
    assert_eq!(listed, vec![("billing-bot".into(), true, false, 0), ("sales-bot".into(), false, true, 2)]);
}
