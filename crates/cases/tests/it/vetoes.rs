//! The guardrail's vetoes, the promise ledger and the overdue watches on the team database: the
//! same behaviour as on SQLite, and each overdue promise or target taken once however many
//! instances poll at the same moment.
//!
//! The cases these tests start from are written with SQL as `open_case` leaves them (open,
//! waiting on a person, with the clocks a test names), so each test shows the state it needs.

mod support;

use std::collections::HashSet;
use std::sync::{Arc, Barrier};

use skillcase_cases::model::EventKind;
use skillcase_cases::promises::NewPromise;
use skillcase_cases::repository::{Veto, VetoCount};
use skillcase_cases::sla::SlaTarget;
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;
use skillcase_team::{rows, PgCases};
use support::{another_instance, psql, team};

const NOW: &str = "2026-12-01T12:00:00.000Z";
const OPENED: &str = "2026-12-01T09:00:00.000Z";

/// Writes an open case `id` (#`number`) of conversation `conversation`, waiting on a person
/// since [`OPENED`], opened by the agent `support-bot`.
fn open_case(team: &PgCases, id: &str, number: i64, conversation: &str) {
    psql(
        team.url(),
        &format!(
            "INSERT INTO cases (id, number, conversation_id, agent_id, status, title, summary, source, \
             waiting_since, opened_at, updated_at) VALUES ('{id}', {number}, '{conversation}', 'support-bot', \
             'awaiting_human', 'Refund for a double charge', 'Charged twice.', 'agent', '{OPENED}', '{OPENED}', \
             '{OPENED}')"
        ),
    );
}

/// Runs `sql` on case `id` (to give it clocks, close it or pause it).
fn update_case(team: &PgCases, id: &str, set: &str) {
    psql(team.url(), &format!("UPDATE cases SET {set} WHERE id = '{id}'"));
}

fn veto(conversation: &str, turn: &str) -> Veto {
    Veto {
        conversation_id: conversation.into(),
        turn_id: turn.into(),
        rule: Some("promise_without_case".into()),
        evidence: Some("Te retorno ainda hoje.".into()),
    }
}

fn vetoes(team: &PgCases, conversation: &str, turn: &str) -> i64 {
    match team.record_veto(&veto(conversation, turn)).unwrap() {
        VetoCount::Vetoes(n) => n,
        VetoCount::Covered(case) => panic!("covered by case {}", case.id),
    }
}

fn promise(quote: &str, due_at: Option<&str>, turn: &str) -> NewPromise {
    NewPromise {
        quote: quote.into(),
        actor: Some("A equipe financeira".into()),
        action: Some("te retorna".into()),
        due_text: Some("ainda hoje".into()),
        due_at: due_at.map(str::to_string),
        turn_id: turn.into(),
        spans: vec![],
    }
}

/// The `promise_made` events of a case, through the crate's own timeline read.
fn promise_events(team: &PgCases, case_id: &str) -> Vec<serde_json::Value> {
    let mut conn = team.pg().connection().unwrap();
    let events = rows::events_for_case(&mut *conn, case_id).unwrap();
    events.into_iter().filter(|e| e.kind == EventKind::PromiseMade).map(|e| e.payload).collect()
}

/// The events of one kind on a case, oldest first.
fn events_of(team: &PgCases, case_id: &str, kind: EventKind) -> Vec<serde_json::Value> {
    let mut conn = team.pg().connection().unwrap();
    let events = rows::events_for_case(&mut *conn, case_id).unwrap();
    events.into_iter().filter(|e| e.kind == kind).map(|e| e.payload).collect()
}

fn pending_promise(team: &PgCases, case_id: &str) -> String {
    psql(team.url(), &format!("SELECT promise_quote || ' | ' || coalesce(promise_due_at, '-') FROM cases WHERE id = '{case_id}'"))
}

fn numbers_told(team: &PgCases, now: &str) -> Vec<i64> {
    team.take_overdue_promises(now).unwrap().into_iter().map(|p| p.number).collect()
}

/// Runs `job` on two instances of the same database at the same moment, each `rounds` times,
/// and returns everything both took.
fn on_two_instances_at_once<T: Send + 'static>(
    team: &PgCases,
    rounds: usize,
    job: impl Fn(&PgCases) -> Vec<T> + Send + Sync + 'static,
) -> Vec<T> {
    let job = Arc::new(job);
    let start = Arc::new(Barrier::new(2));
    let instances = [team.clone(), another_instance(team)];
    let threads: Vec<_> = instances
        .into_iter()
        .map(|instance| {
            let (job, start) = (Arc::clone(&job), Arc::clone(&start));
            std::thread::spawn(move || {
                start.wait();
                (0..rounds).flat_map(|_| job(&instance)).collect::<Vec<T>>()
            })
        })
        .collect();
    threads.into_iter().flat_map(|t| t.join().unwrap()).collect()
}

// The guardrail's vetoes.

#[test]
fn each_veto_in_a_turn_counts_one_more() {
    let team = team();
    assert_eq!(vetoes(&team, "conv-1", "turn-1"), 1);
    assert_eq!(vetoes(&team, "conv-1", "turn-1"), 2);
}

#[test]
fn vetoes_in_different_turns_or_conversations_do_not_add_up() {
    let team = team();
    vetoes(&team, "conv-1", "turn-1");
    assert_eq!(vetoes(&team, "conv-1", "turn-2"), 1);
    assert_eq!(vetoes(&team, "conv-2", "turn-1"), 1);
}

#[test]
fn a_veto_keeps_the_last_rule_and_evidence_of_its_turn() {
    let team = team();
    vetoes(&team, "conv-1", "turn-1");
    let last = Veto {
        rule: Some("second_rule".into()),
        evidence: Some("Amanhã ligamos.".into()),
        ..veto("conv-1", "turn-1")
    };
    team.record_veto(&last).unwrap();

    let stored =
        psql(team.url(), "SELECT vetoes || ' ' || last_rule || ' ' || last_evidence FROM guard_vetoes");
    assert_eq!(stored.trim(), "2 second_rule Amanhã ligamos.");
}

#[test]
fn a_conversation_with_an_open_case_is_covered_and_counts_nothing() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");

    let VetoCount::Covered(case) = team.record_veto(&veto("conv-1", "turn-1")).unwrap() else {
        panic!("the open case covers the promise")
    };
    assert_eq!((case.id.as_str(), case.number), ("case-1", 1001));
    assert_eq!(psql(team.url(), "SELECT count(*) FROM guard_vetoes").trim(), "0");
}

#[test]
fn a_closed_case_does_not_cover_a_new_promise() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    update_case(&team, "case-1", &format!("status = 'resolved', closed_at = '{NOW}'"));

    assert_eq!(vetoes(&team, "conv-1", "turn-1"), 1);
}

#[test]
fn two_instances_vetoing_one_turn_at_once_count_every_veto_once() {
    let team = team();
    let counts = on_two_instances_at_once(&team, 10, |instance| vec![vetoes(instance, "conv-1", "turn-1")]);

    let distinct: HashSet<i64> = counts.iter().copied().collect();
    assert_eq!(distinct, (1..=20).collect::<HashSet<i64>>(), "each veto saw its own count: {counts:?}");
}

#[test]
fn the_case_the_guardrail_opened_is_remembered_for_its_turn() {
    let team = team();
    vetoes(&team, "conv-1", "turn-1");
    vetoes(&team, "conv-1", "turn-2");
    open_case(&team, "case-1", 1001, "conv-1");

    team.note_auto_case("conv-1", "turn-2", "case-1").unwrap();

    let stored = psql(
        team.url(),
        "SELECT turn_id || '=' || coalesce(auto_case_id, '-') FROM guard_vetoes ORDER BY turn_id",
    );
    assert_eq!(stored.split_whitespace().collect::<Vec<_>>(), ["turn-1=-", "turn-2=case-1"]);
}

// The promise ledger.

#[test]
fn a_promise_goes_on_the_ledger_as_the_agents_promise_made_event() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    let made = promise("Te retorno ainda hoje.", Some("2026-12-01T18:00:00.000Z"), "turn-1");

    assert!(team.record_promise("case-1", &made).unwrap());

    assert_eq!(promise_events(&team, "case-1"), vec![made.event_payload()]);
    let actor =
        psql(team.url(), "SELECT actor || ' ' || actor_name FROM case_events WHERE kind = 'promise_made'");
    assert_eq!(actor.trim(), "agent support-bot");
    assert_eq!(pending_promise(&team, "case-1").trim(), "Te retorno ainda hoje. | 2026-12-01T18:00:00.000Z");
}

#[test]
fn the_same_promise_checked_again_in_a_turn_is_recorded_once() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    let made = promise("Te retorno ainda hoje.", None, "turn-1");

    assert!(team.record_promise("case-1", &made).unwrap());
    assert!(!team.record_promise("case-1", &made).unwrap());
    assert!(team.record_promise("case-1", &promise("Te retorno ainda hoje.", None, "turn-2")).unwrap());

    assert_eq!(promise_events(&team, "case-1").len(), 2);
}

#[test]
fn a_promise_on_an_unknown_case_is_refused_with_case_not_found() {
    let team = team();
    let err = team.record_promise("no-such-case", &promise("Te retorno.", None, "turn-1")).unwrap_err();
    assert_eq!(err.code(), "case_not_found");
}

#[test]
fn a_sooner_promise_becomes_the_pending_one_and_a_later_one_does_not() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    team.record_promise("case-1", &promise("Hoje às 18h.", Some("2026-12-01T18:00:00.000Z"), "t1")).unwrap();
    team.record_promise("case-1", &promise("Amanhã.", Some("2026-12-02T12:00:00.000Z"), "t2")).unwrap();
    team.record_promise("case-1", &promise("Sem prazo.", None, "t3")).unwrap();
    assert_eq!(pending_promise(&team, "case-1").trim(), "Hoje às 18h. | 2026-12-01T18:00:00.000Z");

    team.record_promise("case-1", &promise("Em uma hora.", Some("2026-12-01T13:00:00.000Z"), "t4")).unwrap();
    assert_eq!(pending_promise(&team, "case-1").trim(), "Em uma hora. | 2026-12-01T13:00:00.000Z");
}

#[test]
fn two_instances_recording_the_same_promise_at_once_record_it_once() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    let recorded = on_two_instances_at_once(&team, 5, |instance| {
        vec![instance.record_promise("case-1", &promise("Te retorno ainda hoje.", None, "turn-1")).unwrap()]
    });

    assert_eq!(recorded.iter().filter(|r| **r).count(), 1, "{recorded:?}");
    assert_eq!(promise_events(&team, "case-1").len(), 1);
}

#[test]
fn a_promise_past_its_due_time_is_announced_once_with_its_words() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    team.record_promise("case-1", &promise("Te retorno ainda hoje.", Some("2026-12-01T11:00:00.000Z"), "t1"))
        .unwrap();

    let told = team.take_overdue_promises(NOW).unwrap();
    assert_eq!(told.len(), 1);
    assert_eq!((told[0].case_id.as_str(), told[0].number), ("case-1", 1001));
    assert_eq!(told[0].quote, "Te retorno ainda hoje.");
    assert_eq!(numbers_told(&team, NOW), Vec::<i64>::new());
}

#[test]
fn a_promise_still_ahead_is_not_announced_until_it_falls_due() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    team.record_promise(
        "case-1",
        &promise("Amanhã cedo te ligamos.", Some("2026-12-02T12:00:00.000Z"), "t1"),
    )
    .unwrap();

    assert_eq!(numbers_told(&team, NOW), Vec::<i64>::new());
    assert_eq!(numbers_told(&team, "2026-12-02T12:00:00.000Z"), vec![1001]);
}

#[test]
fn a_cancelled_case_announces_no_overdue_promise() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    team.record_promise("case-1", &promise("Te retorno ainda hoje.", Some("2026-12-01T11:00:00.000Z"), "t1"))
        .unwrap();
    update_case(&team, "case-1", &format!("status = 'cancelled', closed_at = '{NOW}'"));

    assert_eq!(numbers_told(&team, NOW), Vec::<i64>::new());
}

#[test]
fn a_sooner_promise_after_an_announced_one_is_announced_again() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    team.record_promise("case-1", &promise("Te retorno ainda hoje.", Some("2026-12-01T11:00:00.000Z"), "t1"))
        .unwrap();
    assert_eq!(numbers_told(&team, NOW), vec![1001]);

    team.record_promise(
        "case-1",
        &promise("Em uma hora te ligamos.", Some("2026-12-01T10:00:00.000Z"), "t2"),
    )
    .unwrap();
    let told = team.take_overdue_promises(NOW).unwrap();
    assert_eq!(told.iter().map(|p| p.quote.as_str()).collect::<Vec<_>>(), ["Em uma hora te ligamos."]);
}

#[test]
fn two_instances_polling_overdue_promises_at_once_take_each_once() {
    let team = team();
    for n in 0..30 {
        open_case(&team, &format!("case-{n}"), 1001 + n, &format!("conv-{n}"));
        update_case(
            &team,
            &format!("case-{n}"),
            "promise_quote = 'Hoje.', promise_due_at = '2026-12-01T11:00:00.000Z'",
        );
    }

    let told = on_two_instances_at_once(&team, 3, |instance| numbers_told(instance, NOW));

    let mut sorted = told.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (1001..1031).collect::<Vec<i64>>(), "every case once: {told:?}");
}

// The response-time targets.

#[test]
fn a_target_that_falls_due_is_announced_once_with_a_system_event() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    update_case(&team, "case-1", "first_reply_target = 30, first_reply_due_at = '2026-12-01T09:30:00.000Z'");

    let told = team.take_overdue_targets(NOW).unwrap();
    assert_eq!(told.len(), 1);
    assert_eq!(
        (told[0].number, told[0].target, told[0].due_at.as_str()),
        (1001, SlaTarget::FirstReply, "2026-12-01T09:30:00.000Z")
    );
    assert!(team.take_overdue_targets("2026-12-01T13:00:00.000Z").unwrap().is_empty(), "told once");

    let events = events_of(&team, "case-1", EventKind::SlaOverdue);
    assert_eq!(
        events,
        vec![serde_json::json!({ "target": "first_reply", "due_at": "2026-12-01T09:30:00.000Z" })]
    );
    let actor = psql(team.url(), "SELECT actor || ' ' || at FROM case_events WHERE kind = 'sla_overdue'");
    assert_eq!(actor.trim(), format!("system {NOW}"));
}

#[test]
fn both_targets_due_are_announced_first_reply_first() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    update_case(
        &team,
        "case-1",
        "first_reply_target = 30, first_reply_due_at = '2026-12-01T09:30:00.000Z', \
         resolution_target = 60, resolution_due_at = '2026-12-01T10:00:00.000Z'",
    );

    let told = team.take_overdue_targets(NOW).unwrap();
    assert_eq!(
        told.iter().map(|t| t.target).collect::<Vec<_>>(),
        [SlaTarget::FirstReply, SlaTarget::Resolution]
    );
}

#[test]
fn a_target_not_yet_due_or_paused_is_not_announced() {
    let team = team();
    open_case(&team, "ahead", 1001, "conv-1");
    update_case(&team, "ahead", "resolution_target = 600, resolution_due_at = '2026-12-01T19:00:00.000Z'");
    open_case(&team, "paused", 1002, "conv-2");
    update_case(
        &team,
        "paused",
        "status = 'awaiting_lead', resolution_target = 60, resolution_due_at = '2026-12-01T10:00:00.000Z', \
         sla_paused_at = '2026-12-01T09:10:00.000Z'",
    );

    assert!(team.take_overdue_targets(NOW).unwrap().is_empty());
}

#[test]
fn a_first_reply_already_given_leaves_only_the_resolution_to_announce() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    update_case(
        &team,
        "case-1",
        "first_reply_target = 30, first_reply_due_at = '2026-12-01T09:30:00.000Z', \
         first_reply_at = '2026-12-01T09:40:00.000Z', \
         resolution_target = 60, resolution_due_at = '2026-12-01T10:00:00.000Z'",
    );

    let told = team.take_overdue_targets(NOW).unwrap();
    assert_eq!(told.iter().map(|t| t.target).collect::<Vec<_>>(), [SlaTarget::Resolution]);
}

#[test]
fn a_case_closed_before_its_first_reply_is_never_announced() {
    let team = team();
    open_case(&team, "case-1", 1001, "conv-1");
    update_case(
        &team,
        "case-1",
        &format!(
            "first_reply_target = 30, first_reply_due_at = '2026-12-01T09:30:00.000Z', status = 'cancelled', \
             closed_at = '{OPENED}'"
        ),
    );

    assert!(team.take_overdue_targets(NOW).unwrap().is_empty());
}

#[test]
fn two_instances_polling_overdue_targets_at_once_take_each_once_with_one_event_each() {
    let team = team();
    for n in 0..30 {
        open_case(&team, &format!("case-{n}"), 1001 + n, &format!("conv-{n}"));
        update_case(
            &team,
            &format!("case-{n}"),
            "first_reply_target = 30, first_reply_due_at = '2026-12-01T09:30:00.000Z', \
             resolution_target = 60, resolution_due_at = '2026-12-01T10:00:00.000Z'",
        );
    }

    let told = on_two_instances_at_once(&team, 3, |instance| {
        instance
            .take_overdue_targets(NOW)
            .unwrap()
            .into_iter()
            .map(|t| (t.number, t.target.as_str()))
            .collect()
    });

    let distinct: HashSet<(i64, &str)> = told.iter().copied().collect();
    assert_eq!((told.len(), distinct.len()), (60, 60), "30 cases × 2 targets, each once: {told:?}");
    let events = psql(team.url(), "SELECT count(*) FROM case_events WHERE kind = 'sla_overdue'");
    assert_eq!(events.trim(), "60");
}
