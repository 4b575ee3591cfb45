//! SPEC B2 on the team database: every transition and every refused one, internal notes, bulk
//! cancels, assignment and the response-time clocks — and what must hold when several
//! instances share one database: one open case per conversation, numbers without gaps, racing
//! moves on one case taking turns, a reply's event and delivery written together or not at all.

mod support;

use std::sync::{Arc, Barrier};
use std::thread;

use serde_json::json;
use skillcase_cases::model::{
    Actor, Case, CaseEvent, CaseSource, CaseStatus, Delivery, DeliveryAction, DeliveryState, EventKind,
    HumanAction,
};
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::sla::{self, SlaState};
use skillcase_cases::transition::MAX_BULK_CASES;
use skillcase_cases::{clock, CasesRepository};
use skillcase_common::error::Coded;
use skillcase_team::{rows, PgCases};
use support::{another_instance, psql, refund_case, team};

fn open(team: &PgCases, conversation: &str) -> Case {
    team.open_case(refund_case(conversation)).unwrap().case
}

fn case(team: &PgCases, id: &str) -> Case {
    team.pg().read(|c| rows::find_case(c, id)).unwrap()
}

fn events(team: &PgCases, id: &str) -> Vec<CaseEvent> {
    team.pg().read(|c| rows::events_for_case(c, id)).unwrap()
}

fn kinds(team: &PgCases, id: &str) -> Vec<EventKind> {
    events(team, id).into_iter().map(|e| e.kind).collect()
}

fn deliveries(team: &PgCases, id: &str) -> Vec<Delivery> {
    team.pg().read(|c| rows::deliveries_for_case(c, id)).unwrap()
}

fn count(team: &PgCases, sql: &str) -> i64 {
    psql(team.url(), sql).parse().unwrap()
}

/// Everything a refused move must leave untouched: the case row, every event and every delivery.
fn snapshot(team: &PgCases, id: &str) -> String {
    let case = serde_json::to_string(&case(team, id)).unwrap();
    let events = count(team, "SELECT count(*) FROM case_events");
    let deliveries = count(team, "SELECT count(*) FROM deliveries");
    format!("{case}|{events}|{deliveries}")
}

/// Brings a fresh case to `status` through legal transitions.
fn case_in(team: &PgCases, conversation: &str, status: CaseStatus) -> String {
    let id = open(team, conversation).id;
    match status {
        CaseStatus::AwaitingHuman => {}
        CaseStatus::AwaitingLead => {
            team.reply(&id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap();
        }
        CaseStatus::Resolved => {
            team.reply(&id, HumanAction::Resolved, "Refund issued.", "Ana").unwrap();
        }
        CaseStatus::Escalated => {
            team.reply(&id, HumanAction::Escalate, "Legal threat.", "Ana").unwrap();
        }
        CaseStatus::Cancelled => {
            team.cancel(&id, Actor::Agent, None, Some("lead gave up")).unwrap();
        }
    }
    assert_eq!(case(team, &id).status, status);
    id
}

fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Every move a person, the agent or a bulk action can ask for, by the name it is refused under.
fn attempt(team: &PgCases, id: &str, action: &str) -> Result<(), skillcase_cases::CasesError> {
    match action {
        "resolved" => team.reply(id, HumanAction::Resolved, "done", "Ana").map(|_| ()),
        "need_lead_info" => team.reply(id, HumanAction::NeedLeadInfo, "ask", "Ana").map(|_| ()),
        "escalate" => team.reply(id, HumanAction::Escalate, "why", "Ana").map(|_| ()),
        "provide_update" => team.provide_update(id, "info").map(|_| ()),
        "lead_asked" => team.record_lead_asked(id, Some("q")).map(|_| ()),
        "lead_unresponsive" => team.record_lead_unresponsive(id, None).map(|_| ()),
        "cancel_many" => team.cancel_many(&ids(&[id]), "Ana", "Spam").map(|_| ()),
        "assign" => team.assign(&ids(&[id]), Some("Ana"), "Ana").map(|_| ()),
        _ => team.cancel(id, Actor::Human, Some("Ana"), None).map(|_| ()),
    }
}

// Opening.

#[test]
fn opening_a_case_starts_it_awaiting_human_with_number_1001_and_an_opened_event() {
    let team = team();
    let outcome = team.open_case(refund_case("conv-1")).unwrap();
    let case = outcome.case;
    assert!(!outcome.already_open);
    assert_eq!(case.number, 1001);
    assert_eq!(case.status, CaseStatus::AwaitingHuman);
    assert_eq!(case.title, "Refund for a double charge");
    assert_eq!(case.lead.name.as_deref(), Some("Maria Souza"));
    assert_eq!(case.context[0].text, "I was charged twice!");
    assert_eq!((case.source, case.reason), (CaseSource::Agent, HandoverReason::PolicyRestriction));
    assert_eq!(case.waiting_since.as_deref(), Some(case.opened_at.as_str()));
    assert_eq!(case.closed_at, None);
    let timeline = events(&team, &case.id);
    assert_eq!(timeline.len(), 1);
    assert_eq!((timeline[0].kind, timeline[0].actor), (EventKind::Opened, Actor::Agent));
    assert_eq!(timeline[0].actor_name.as_deref(), Some("support-bot"));
    assert_eq!(timeline[0].payload, json!({ "source": "agent", "reason": "policy_restriction" }));
}

#[test]
fn a_guardrail_case_is_opened_by_the_system() {
    let team = team();
    let mut new = refund_case("conv-1");
    new.source = CaseSource::GuardrailAutofallback;
    new.reason = HandoverReason::GuardrailAutofallback;
    let case = team.open_case(new).unwrap().case;
    assert_eq!(case.reason, HandoverReason::GuardrailAutofallback);
    assert_eq!(events(&team, &case.id)[0].actor, Actor::System);
}

#[test]
fn opening_again_for_the_same_conversation_returns_the_open_case() {
    let team = team();
    let first = open(&team, "conv-1");
    let mut other = refund_case("conv-1");
    other.title = "Something else".into();
    let second = team.open_case(other).unwrap();
    assert!(second.already_open);
    assert_eq!(second.case, first);
    assert_eq!(count(&team, "SELECT count(*) FROM cases"), 1);
    assert_eq!(kinds(&team, &first.id), vec![EventKind::Opened]);
}

#[test]
fn a_closed_case_lets_the_conversation_open_a_new_one_with_the_next_number() {
    let team = team();
    let first = case_in(&team, "conv-1", CaseStatus::Resolved);
    let second = team.open_case(refund_case("conv-1")).unwrap();
    assert!(!second.already_open);
    assert_ne!(second.case.id, first);
    assert_eq!(second.case.number, 1002);
}

#[test]
fn a_case_without_title_summary_or_conversation_is_refused_and_nothing_is_stored() {
    let team = team();
    for (field, blank) in [("conversation_id", 0), ("title", 1), ("summary", 2)] {
        let mut new = refund_case("conv-1");
        match blank {
            0 => new.conversation_id = "  ".into(),
            1 => new.title = "".into(),
            _ => new.summary = "\n".into(),
        }
        let err = team.open_case(new).unwrap_err();
        assert_eq!(err.code(), "text_required");
        assert_eq!(err.details().unwrap()["field"], field);
    }
    let mut long = refund_case("conv-1");
    long.title = "x".repeat(201);
    let err = team.open_case(long).unwrap_err();
    assert_eq!(err.to_string(), "title is 201 characters long; at most 200 are allowed");
    assert_eq!(count(&team, "SELECT count(*) FROM cases"), 0);
}

#[test]
fn a_reason_that_does_not_match_the_source_is_refused() {
    let team = team();
    let mut new = refund_case("conv-1");
    new.reason = HandoverReason::GuardrailAutofallback;
    assert_eq!(team.open_case(new).unwrap_err().code(), "invalid_reason");
}

#[test]
fn an_agent_whose_cases_are_switched_off_may_not_open_one() {
    let team = team();
    psql(
        team.url(),
        "INSERT INTO agents (agent_id, cases_enabled, updated_at) VALUES ('support-bot', false, '2026-11-30T10:00:00.000Z')",
    );
    let err = team.open_case(refund_case("conv-1")).unwrap_err();
    assert_eq!(err.code(), "agent_cases_disabled");
    assert_eq!(
        (count(&team, "SELECT count(*) FROM cases"), count(&team, "SELECT next FROM case_counter")),
        (0, 1001)
    );
}

// Replies and the agent's moves.

#[test]
fn resolving_closes_the_case_and_writes_reply_event_and_delivery_together() {
    let team = team();
    let id = case_in(&team, "conv-1", CaseStatus::AwaitingHuman);
    let (case, delivery) = team.reply(&id, HumanAction::Resolved, "  Refund issued today.  ", "Ana").unwrap();
    assert_eq!(case.status, CaseStatus::Resolved);
    assert_eq!(case.waiting_since, None);
    assert_eq!(case.closed_at.as_deref(), Some(case.updated_at.as_str()));
    let timeline = events(&team, &id);
    let replied = &timeline[1];
    assert_eq!((replied.kind, replied.actor), (EventKind::HumanReplied, Actor::Human));
    assert_eq!(replied.actor_name.as_deref(), Some("Ana"));
    assert_eq!(
        replied.payload,
        json!({ "action": "resolved", "text": "Refund issued today.", "status": "resolved" })
    );
    assert_eq!(
        (timeline[2].kind, &timeline[2].payload),
        (EventKind::Resolved, &json!({ "reply_seq": replied.seq }))
    );
    assert_eq!(delivery.event_seq, replied.seq);
    assert_eq!(
        (delivery.state, delivery.attempts, delivery.action),
        (DeliveryState::Pending, 0, DeliveryAction::Resolved)
    );
    assert_eq!(deliveries(&team, &id), vec![delivery]);
}

#[test]
fn the_reply_s_delivery_carries_the_case_and_the_text_for_the_agent() {
    let team = team();
    let id = case_in(&team, "conv-1", CaseStatus::AwaitingHuman);
    let (_, delivery) =
        team.reply(&id, HumanAction::NeedLeadInfo, "Ask for the last 4 digits.", "Ana").unwrap();
    let body = psql(team.url(), &format!("SELECT body FROM deliveries WHERE id = '{}'", delivery.id));
    let body: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        (body["type"].as_str(), body["id"].as_str()),
        (Some("case.replied"), Some(delivery.id.as_str()))
    );
    assert_eq!(
        (body["case"]["number"].as_i64(), body["case"]["status"].as_str()),
        (Some(1001), Some("awaiting_lead"))
    );
    assert_eq!(
        (body["action"].as_str(), body["text"].as_str()),
        (Some("need_lead_info"), Some("Ask for the last 4 digits."))
    );
}

#[test]
fn needing_lead_info_waits_on_the_lead_from_now() {
    let team = team();
    let opened = open(&team, "conv-1");
    thread::sleep(std::time::Duration::from_millis(5));
    let (case, delivery) =
        team.reply(&opened.id, HumanAction::NeedLeadInfo, "Ask for the last 4 digits.", "Ana").unwrap();
    assert_eq!(case.status, CaseStatus::AwaitingLead);
    assert_eq!(case.waiting_since.as_deref(), Some(case.updated_at.as_str()));
    assert!(case.waiting_since > opened.waiting_since);
    assert_eq!((case.closed_at, delivery.action), (None, DeliveryAction::NeedLeadInfo));
    assert_eq!(kinds(&team, &opened.id), vec![EventKind::Opened, EventKind::HumanReplied]);
}

#[test]
fn a_reply_keeps_every_promise_the_case_owed() {
    let team = team();
    let id = open(&team, "conv-1").id;
    psql(
        team.url(),
        &format!(
            "UPDATE cases SET promise_quote = 'I will call you tomorrow', promise_due_at = '2026-12-01T12:00:00.000Z', \
             promise_overdue_told = true WHERE id = '{id}'"
        ),
    );
    team.reply(&id, HumanAction::Escalate, "Finance decides.", "Ana").unwrap();
    let owed = psql(
        team.url(),
        &format!("SELECT coalesce(promise_quote, '-'), coalesce(promise_due_at, '-'), promise_overdue_told FROM cases WHERE id = '{id}'"),
    );
    assert_eq!(owed, "-|-|f");
}

#[test]
fn the_agent_providing_an_update_puts_the_case_back_with_the_person() {
    let team = team();
    let id = case_in(&team, "conv-1", CaseStatus::AwaitingLead);
    let before = case(&team, &id);
    thread::sleep(std::time::Duration::from_millis(5));
    let after = team.provide_update(&id, "Card ending 4242.").unwrap();
    assert_eq!(after.status, CaseStatus::AwaitingHuman);
    assert_eq!(after.waiting_since.as_deref(), Some(after.updated_at.as_str()));
    assert!(after.waiting_since > before.waiting_since);
    let last = events(&team, &id).pop().unwrap();
    assert_eq!(
        (last.kind, last.actor, last.actor_name.as_deref()),
        (EventKind::LeadProvided, Actor::Agent, Some("support-bot"))
    );
    assert_eq!(last.payload, json!({ "info": "Card ending 4242." }));
}

#[test]
fn a_blank_update_is_refused_and_changes_nothing() {
    let team = team();
    let id = case_in(&team, "conv-1", CaseStatus::AwaitingLead);
    let before = snapshot(&team, &id);
    assert_eq!(team.provide_update(&id, "   ").unwrap_err().code(), "text_required");
    assert_eq!(snapshot(&team, &id), before);
}

#[test]
fn asking_the_lead_and_losing_them_keep_the_case_waiting_on_the_lead_since_the_question() {
    let team = team();
    let id = case_in(&team, "conv-1", CaseStatus::AwaitingLead);
    let waiting = case(&team, &id).waiting_since;
    let asked = team.record_lead_asked(&id, Some("Which card?")).unwrap();
    let lost = team.record_lead_unresponsive(&id, None).unwrap();
    assert_eq!((asked.status, lost.status), (CaseStatus::AwaitingLead, CaseStatus::AwaitingLead));
    assert_eq!(lost.waiting_since, waiting);
    let timeline = events(&team, &id);
    assert_eq!(
        (timeline[2].kind, &timeline[2].payload),
        (EventKind::LeadAsked, &json!({ "text": "Which card?" }))
    );
    assert_eq!((timeline[3].kind, &timeline[3].payload), (EventKind::LeadUnresponsive, &json!({})));
}

#[test]
fn escalating_works_from_both_open_states() {
    let team = team();
    for (conversation, from) in [("a", CaseStatus::AwaitingHuman), ("b", CaseStatus::AwaitingLead)] {
        let id = case_in(&team, conversation, from);
        let (case, delivery) =
            team.reply(&id, HumanAction::Escalate, "Customer threatens legal action.", "Ana").unwrap();
        assert_eq!(case.status, CaseStatus::Escalated);
        assert!(case.closed_at.is_some());
        assert_eq!(delivery.action, DeliveryAction::Escalate);
        assert_eq!(kinds(&team, &id).last(), Some(&EventKind::Escalated));
    }
}

#[test]
fn the_agent_or_a_person_can_cancel_from_both_open_states_and_nothing_is_sent() {
    let team = team();
    let cases =
        [("a", CaseStatus::AwaitingHuman, Actor::Agent), ("b", CaseStatus::AwaitingLead, Actor::Human)];
    for (conversation, from, actor) in cases {
        let id = case_in(&team, conversation, from);
        let deliveries_before = deliveries(&team, &id);
        let case = team.cancel(&id, actor, Some("  someone "), Some("Opened by mistake")).unwrap();
        assert_eq!((case.status, case.waiting_since), (CaseStatus::Cancelled, None));
        let last = events(&team, &id).pop().unwrap();
        assert_eq!(
            (last.kind, last.actor, last.actor_name.as_deref()),
            (EventKind::Cancelled, actor, Some("someone"))
        );
        assert_eq!(last.payload, json!({ "reason": "Opened by mistake" }));
        assert_eq!(deliveries(&team, &id), deliveries_before, "a cancel sends nothing");
    }
}

#[test]
fn only_the_agent_or_a_person_may_cancel() {
    let team = team();
    let id = case_in(&team, "conv-1", CaseStatus::AwaitingHuman);
    let before = snapshot(&team, &id);
    assert_eq!(team.cancel(&id, Actor::Lead, None, None).unwrap_err().code(), "invalid_case_input");
    assert_eq!(snapshot(&team, &id), before);
}

/// Every move that is not in the SPEC B2 table, from every status.
#[test]
fn every_transition_outside_the_table_is_invalid_and_changes_nothing() {
    let team = team();
    let closed_refuse = [
        "resolved",
        "need_lead_info",
        "escalate",
        "provide_update",
        "lead_asked",
        "lead_unresponsive",
        "cancel",
    ];
    let mut refused = vec![
        (CaseStatus::AwaitingHuman, "provide_update"),
        (CaseStatus::AwaitingHuman, "lead_asked"),
        (CaseStatus::AwaitingHuman, "lead_unresponsive"),
        (CaseStatus::AwaitingLead, "resolved"),
        (CaseStatus::AwaitingLead, "need_lead_info"),
    ];
    for from in [CaseStatus::Resolved, CaseStatus::Escalated, CaseStatus::Cancelled] {
        refused.extend(closed_refuse.iter().map(|action| (from, *action)));
    }
    for (n, (from, action)) in refused.iter().enumerate() {
        let id = case_in(&team, &format!("conv-{n}"), *from);
        let before = snapshot(&team, &id);
        let err = attempt(&team, &id, action).unwrap_err();
        assert_eq!(err.code(), "invalid_transition", "{from:?} {action}");
        assert_eq!(err.details().unwrap(), json!({ "from": from.as_str(), "action": action }));
        assert_eq!(snapshot(&team, &id), before, "{from:?} {action} changed something");
    }
}

#[test]
fn an_invalid_transition_says_what_was_refused() {
    let team = team();
    let id = case_in(&team, "conv-1", CaseStatus::Resolved);
    let err = team.reply(&id, HumanAction::Escalate, "late", "Ana").unwrap_err();
    assert_eq!(err.to_string(), "a case that is resolved cannot take the action escalate");
}

#[test]
fn every_human_action_requires_text_and_a_name_and_changes_nothing_without() {
    let team = team();
    let id = case_in(&team, "conv-1", CaseStatus::AwaitingHuman);
    let before = snapshot(&team, &id);
    for action in [HumanAction::Resolved, HumanAction::NeedLeadInfo, HumanAction::Escalate] {
        let err = team.reply(&id, action, " \t\n", "Ana").unwrap_err();
        assert_eq!(err.to_string(), "text is required and must not be blank");
        let err = team.reply(&id, action, "fine", "").unwrap_err();
        assert_eq!(err.details().unwrap()["field"], "actor_name");
    }
    assert_eq!(snapshot(&team, &id), before);
}

#[test]
fn an_unknown_case_is_not_found_for_every_transition() {
    let team = team();
    let missing = "00000000-0000-4000-8000-000000000000";
    for action in
        ["resolved", "provide_update", "lead_asked", "lead_unresponsive", "cancel", "cancel_many", "assign"]
    {
        let err = attempt(&team, missing, action).unwrap_err();
        assert_eq!(err.code(), "case_not_found", "{action}");
        assert_eq!(err.details().unwrap()["id"], missing, "{action}");
    }
    assert_eq!(team.add_note(missing, "Hello", "Ana").unwrap_err().code(), "case_not_found");
}

// Internal notes.

#[test]
fn a_note_is_on_the_timeline_as_an_internal_note_by_the_person() {
    let team = team();
    let id = open(&team, "conv-1").id;
    let note = team.add_note(&id, "  Customer is a reseller; check the contract.  ", "Ana").unwrap();
    let last = events(&team, &id).pop().unwrap();
    assert_eq!(last, note);
    assert_eq!(
        (last.kind, last.actor, last.actor_name.as_deref()),
        (EventKind::InternalNote, Actor::Human, Some("Ana"))
    );
    assert_eq!(last.payload, json!({ "text": "Customer is a reseller; check the contract." }));
}

#[test]
fn a_note_leaves_the_case_as_it_was_and_writes_no_delivery() {
    let team = team();
    let before = open(&team, "conv-1");
    team.add_note(&before.id, "Waiting for finance.", "Ana").unwrap();
    assert_eq!(case(&team, &before.id), before);
    assert!(deliveries(&team, &before.id).is_empty());
}

#[test]
fn a_closed_case_still_takes_a_note() {
    let team = team();
    let id = case_in(&team, "conv-1", CaseStatus::Resolved);
    team.add_note(&id, "Customer thanked us by phone.", "Ana").unwrap();
    assert_eq!(case(&team, &id).status, CaseStatus::Resolved);
    assert_eq!(kinds(&team, &id).last(), Some(&EventKind::InternalNote));
}

#[test]
fn a_blank_note_or_a_nameless_one_is_text_required_and_writes_nothing() {
    let team = team();
    let id = open(&team, "conv-1").id;
    let err = team.add_note(&id, "  \n ", "Ana").unwrap_err();
    assert_eq!((err.code(), err.details().unwrap()["field"].as_str()), ("text_required", Some("note")));
    let err = team.add_note(&id, "Hello", " ").unwrap_err();
    assert_eq!(err.details().unwrap()["field"], "actor_name");
    assert_eq!(events(&team, &id).len(), 1);
}

// Bulk cancels.

#[test]
fn several_open_cases_are_cancelled_with_one_reason_by_the_person() {
    let team = team();
    let first = case_in(&team, "conv-1", CaseStatus::AwaitingHuman);
    let second = case_in(&team, "conv-2", CaseStatus::AwaitingLead);
    let sent_before = deliveries(&team, &second).len();
    let cancelled = team.cancel_many(&ids(&[&second, &first]), "Ana", "Duplicate of #1000").unwrap();
    assert_eq!(
        cancelled.iter().map(|c| (c.id.as_str(), c.status)).collect::<Vec<_>>(),
        [(second.as_str(), CaseStatus::Cancelled), (first.as_str(), CaseStatus::Cancelled)]
    );
    let last = events(&team, &first).pop().unwrap();
    assert_eq!((last.kind, last.actor_name.as_deref()), (EventKind::Cancelled, Some("Ana")));
    assert_eq!(last.payload, json!({ "reason": "Duplicate of #1000" }));
    assert_eq!(deliveries(&team, &second).len(), sent_before, "a cancel is not sent to the agent");
}

#[test]
fn cancelling_several_changes_none_when_one_is_already_closed_and_names_it_by_number() {
    let team = team();
    let open_one = case_in(&team, "conv-1", CaseStatus::AwaitingHuman);
    let closed = case_in(&team, "conv-2", CaseStatus::Resolved);
    let before = snapshot(&team, &open_one);
    let err = team.cancel_many(&ids(&[&open_one, &closed]), "Ana", "Spam").unwrap_err();
    assert_eq!(err.code(), "invalid_transition");
    assert_eq!(err.to_string(), "case #1002: a case that is resolved cannot take the action cancel");
    assert_eq!(snapshot(&team, &open_one), before);
}

#[test]
fn cancelling_several_changes_none_when_one_does_not_exist() {
    let team = team();
    let id = open(&team, "conv-1").id;
    let err = team.cancel_many(&ids(&[&id, "no-such-case"]), "Ana", "Spam").unwrap_err();
    assert_eq!(err.code(), "case_not_found");
    assert_eq!(case(&team, &id).status, CaseStatus::AwaitingHuman);
}

#[test]
fn cancelling_several_needs_a_reason() {
    let team = team();
    let id = open(&team, "conv-1").id;
    assert_eq!(team.cancel_many(&ids(&[&id]), "Ana", "  ").unwrap_err().code(), "text_required");
    assert_eq!(case(&team, &id).status, CaseStatus::AwaitingHuman);
}

#[test]
fn a_bulk_action_names_at_least_one_case_and_at_most_the_limit() {
    let team = team();
    assert_eq!(team.cancel_many(&[], "Ana", "Spam").unwrap_err().code(), "invalid_case_input");
    let too_many: Vec<String> = (0..=MAX_BULK_CASES).map(|n| format!("case-{n}")).collect();
    let err = team.assign(&too_many, Some("Ana"), "Ana").unwrap_err();
    assert_eq!(err.to_string(), "ids names 501 cases; at most 500 are taken at once");
}

#[test]
fn a_case_named_twice_in_a_bulk_action_is_taken_once() {
    let team = team();
    let id = open(&team, "conv-1").id;
    assert_eq!(team.cancel_many(&ids(&[&id, &id]), "Ana", "Spam").unwrap().len(), 1);
    assert_eq!(kinds(&team, &id), vec![EventKind::Opened, EventKind::Cancelled]);
}

// Assignment.

#[test]
fn taking_a_case_sets_the_assignee_and_records_who_did_it() {
    let team = team();
    let id = open(&team, "conv-1").id;
    let cases = team.assign(&ids(&[&id]), Some("  Ana  "), "Ana").unwrap();
    assert_eq!(cases[0].assignee.as_deref(), Some("Ana"));
    let last = events(&team, &id).pop().unwrap();
    assert_eq!((last.kind, last.actor_name.as_deref()), (EventKind::Assigned, Some("Ana")));
    assert_eq!(last.payload, json!({ "assignee": "Ana", "previous": null }));
}

#[test]
fn giving_a_case_to_someone_else_records_who_had_it() {
    let team = team();
    let id = open(&team, "conv-1").id;
    team.assign(&ids(&[&id]), Some("Ana"), "Ana").unwrap();
    team.assign(&ids(&[&id]), Some("Bruno"), "Ana").unwrap();
    let last = events(&team, &id).pop().unwrap();
    assert_eq!(last.payload, json!({ "assignee": "Bruno", "previous": "Ana" }));
}

#[test]
fn unassigning_leaves_the_case_to_anyone_with_an_unassigned_event() {
    let team = team();
    let id = open(&team, "conv-1").id;
    team.assign(&ids(&[&id]), Some("Ana"), "Ana").unwrap();
    let cases = team.assign(&ids(&[&id]), None, "Ana").unwrap();
    assert_eq!(cases[0].assignee, None);
    let last = events(&team, &id).pop().unwrap();
    assert_eq!((last.kind, last.payload), (EventKind::Unassigned, json!({ "previous": "Ana" })));
}

#[test]
fn assigning_to_the_same_person_again_adds_no_event() {
    let team = team();
    let id = open(&team, "conv-1").id;
    team.assign(&ids(&[&id]), Some("Ana"), "Ana").unwrap();
    let before = events(&team, &id).len();
    team.assign(&ids(&[&id]), Some("Ana"), "Ana").unwrap();
    assert_eq!(events(&team, &id).len(), before);
}

#[test]
fn assignment_leaves_status_and_waiting_time_as_they_were() {
    let team = team();
    let before = open(&team, "conv-1");
    let after = team.assign(&ids(&[&before.id]), Some("Ana"), "Ana").unwrap().remove(0);
    assert_eq!((after.status, &after.waiting_since), (before.status, &before.waiting_since));
}

#[test]
fn a_closed_case_refuses_assignment_and_nothing_changes() {
    let team = team();
    let open_one = open(&team, "conv-1").id;
    let closed = case_in(&team, "conv-2", CaseStatus::Cancelled);
    let err = team.assign(&ids(&[&open_one, &closed]), Some("Ana"), "Ana").unwrap_err();
    assert_eq!(err.to_string(), "case #1002: a case that is cancelled cannot take the action assign");
    assert_eq!(case(&team, &open_one).assignee, None, "all or none");
}

#[test]
fn a_blank_assignee_is_refused_with_its_code() {
    let team = team();
    let id = open(&team, "conv-1").id;
    assert_eq!(team.assign(&ids(&[&id]), Some("   "), "Ana").unwrap_err().code(), "invalid_case_input");
}

// Response-time clocks.

const EVERY_DAY: &str = r#"{"time_zone":"UTC","working_days":["monday","tuesday","wednesday","thursday","friday","saturday","sunday"],"opens":"00:00","closes":"23:59","holidays":[]}"#;

fn put_setting(team: &PgCases, key: &str, value: &str) {
    let sql = format!(
        "INSERT INTO settings (key, value) VALUES ('{key}', '{value}') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
    );
    psql(team.url(), &sql);
}

/// The team counts its targets every day around the clock, and saves these targets.
fn timed(team: &PgCases, first_reply: Option<u32>, resolution: Option<u32>) {
    put_setting(team, sla::CALENDAR_SETTING, EVERY_DAY);
    let targets = json!({ "first_reply_minutes": first_reply, "resolution_minutes": resolution });
    put_setting(team, sla::TARGETS_SETTING, &targets.to_string());
}

fn every_day() -> sla::Calendar {
    sla::calendar_from(Some(EVERY_DAY))
}

#[test]
fn a_case_opened_with_the_team_s_targets_carries_both_due_times_running() {
    let team = team();
    timed(&team, Some(30), Some(240));
    let case = open(&team, "c1");
    let first = case.sla.first_reply.expect("a first-reply clock");
    let resolution = case.sla.resolution.expect("a resolution clock");
    assert_eq!((first.target_minutes, first.state), (30, SlaState::Running));
    assert_eq!(Some(first.due_at.clone()), sla::due_after(&every_day(), &case.opened_at, 30));
    assert_eq!(Some(resolution.due_at), sla::due_after(&every_day(), &case.opened_at, 240));
    assert_eq!(case.sla.next_due_at, Some(first.due_at));
}

#[test]
fn the_due_time_is_counted_in_the_team_s_business_calendar() {
    let team = team();
    // Today and the next two days are off (so opening just after midnight changes nothing).
    let day = |n: u64| {
        let at = clock::parse(&clock::now()).unwrap() + std::time::Duration::from_secs(n * 24 * 3600);
        clock::format(at)[..10].to_string()
    };
    let calendar = json!({
        "time_zone": "UTC", "opens": "00:00", "closes": "23:59",
        "working_days": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
        "holidays": [day(0), day(1), day(2)],
    });
    put_setting(&team, sla::CALENDAR_SETTING, &calendar.to_string());
    put_setting(&team, sla::TARGETS_SETTING, r#"{"first_reply_minutes":30,"resolution_minutes":null}"#);
    let case = open(&team, "c1");
    assert_eq!(case.sla.first_reply.unwrap().due_at, format!("{}T00:30:00.000Z", day(3)));
}

#[test]
fn with_targets_off_a_case_has_no_clock() {
    let team = team();
    let case = open(&team, "c1");
    assert_eq!((case.sla.first_reply, case.sla.resolution, case.sla.next_due_at), (None, None, None));
}

#[test]
fn a_persons_first_answer_meets_the_first_reply_target() {
    let team = team();
    timed(&team, Some(30), Some(240));
    let id = open(&team, "c1").id;
    let (case, _) = team.reply(&id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap();
    let first = case.sla.first_reply.unwrap();
    assert_eq!((first.state, first.met_at.as_deref()), (SlaState::Met, Some(case.updated_at.as_str())));
}

#[test]
fn an_answer_after_the_due_time_is_late() {
    let team = team();
    timed(&team, Some(30), None);
    let id = open(&team, "c1").id;
    psql(
        team.url(),
        &format!("UPDATE cases SET first_reply_due_at = '2026-01-01T00:00:00.000Z' WHERE id = '{id}'"),
    );
    let (case, _) = team.reply(&id, HumanAction::Escalate, "Finance must decide.", "Ana").unwrap();
    assert_eq!(case.sla.first_reply.unwrap().state, SlaState::Late);
}

#[test]
fn waiting_on_the_customer_pauses_the_clock_and_coming_back_pushes_it_by_the_pause() {
    let team = team();
    timed(&team, Some(30), Some(240));
    let opened = open(&team, "c1");
    let (asked, _) = team.reply(&opened.id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
    assert_eq!(asked.sla.resolution.as_ref().unwrap().state, SlaState::Paused);
    assert_eq!((asked.sla.paused_since.is_some(), asked.sla.next_due_at.as_deref()), (true, None));

    thread::sleep(std::time::Duration::from_millis(30));
    let back = team.provide_update(&opened.id, "The Visa ending 4242.").unwrap();

    let paused_since = asked.sla.paused_since.as_deref().unwrap();
    let before = opened.sla.resolution.unwrap().due_at;
    let after = back.sla.resolution.unwrap();
    assert!(after.due_at > before, "{} should be later than {before}", after.due_at);
    let expected = sla::push_by_pause(&every_day(), &before, paused_since, &back.updated_at);
    assert_eq!(Some(after.due_at.clone()), expected, "pushed by the business time paused");
    assert_eq!((after.state, back.sla.paused_since), (SlaState::Running, None));
    assert_eq!(back.sla.next_due_at, Some(after.due_at));
}

#[test]
fn resolving_meets_the_resolution_target_and_stops_the_clock() {
    let team = team();
    timed(&team, None, Some(240));
    let id = open(&team, "c1").id;
    let (case, _) = team.reply(&id, HumanAction::Resolved, "Refunded.", "Ana").unwrap();
    assert_eq!(case.sla.resolution.unwrap().state, SlaState::Met);
    assert_eq!(case.sla.next_due_at, None);
}

// Several instances on one database.

/// Runs `work(instance, n)` on `threads` threads at once, alternating between two instances.
fn at_once<T: Send + 'static>(
    team: &PgCases,
    threads: usize,
    work: impl Fn(&PgCases, usize) -> T + Send + Sync + 'static,
) -> Vec<T> {
    let instances = [team.clone(), another_instance(team)];
    let barrier = Arc::new(Barrier::new(threads));
    let work = Arc::new(work);
    let handles: Vec<_> = (0..threads)
        .map(|n| {
            let (instance, barrier, work) = (instances[n % 2].clone(), barrier.clone(), work.clone());
            thread::spawn(move || {
                barrier.wait();
                work(&instance, n)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

#[test]
fn eight_threads_on_two_instances_opening_the_same_conversation_make_exactly_one_case() {
    let team = team();
    let outcomes =
        at_once(&team, 8, |instance, _| instance.open_case(refund_case("same-conversation")).unwrap());
    let created = outcomes.iter().filter(|o| !o.already_open).count();
    let ids: std::collections::HashSet<_> = outcomes.iter().map(|o| o.case.id.clone()).collect();
    assert_eq!((created, ids.len()), (1, 1));
    assert_eq!(count(&team, "SELECT count(*) FROM cases"), 1);
    assert_eq!(count(&team, "SELECT count(*) FROM case_events"), 1);
    assert_eq!(count(&team, "SELECT next FROM case_counter"), 1002, "the refused attempts used no number");
}

#[test]
fn forty_cases_opened_at_once_on_two_instances_get_numbers_1001_to_1040_without_gaps_or_duplicates() {
    let team = team();
    let per_thread = at_once(&team, 8, |instance, n| {
        (0..5)
            .map(|k| instance.open_case(refund_case(&format!("conv-{n}-{k}"))).unwrap().case.number)
            .collect::<Vec<_>>()
    });
    let mut numbers: Vec<i64> = per_thread.into_iter().flatten().collect();
    numbers.sort();
    assert_eq!(numbers, (1001..=1040).collect::<Vec<_>>());
}

#[test]
fn a_reply_and_a_cancel_racing_on_one_case_take_turns_and_the_loser_leaves_nothing_behind() {
    let team = team();
    for round in 0..10 {
        let id = open(&team, &format!("conv-{round}")).id;
        let racing = id.clone();
        let outcomes = at_once(&team, 2, move |instance, n| match n {
            0 => instance.reply(&racing, HumanAction::Resolved, "Refund issued.", "Ana").map(|_| "reply"),
            _ => instance.cancel(&racing, Actor::Human, Some("Bruno"), Some("duplicate")).map(|_| "cancel"),
        });
        let won: Vec<_> = outcomes.iter().filter_map(|o| o.as_ref().ok()).collect();
        let lost: Vec<_> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
        assert_eq!((won.len(), lost.len()), (1, 1), "round {round}");
        assert_eq!(lost[0].code(), "invalid_transition", "round {round}");
        let expected = match *won[0] {
            "reply" => (
                CaseStatus::Resolved,
                vec![EventKind::Opened, EventKind::HumanReplied, EventKind::Resolved],
                1,
            ),
            _ => (CaseStatus::Cancelled, vec![EventKind::Opened, EventKind::Cancelled], 0),
        };
        assert_eq!(
            (case(&team, &id).status, kinds(&team, &id), deliveries(&team, &id).len()),
            expected,
            "round {round}"
        );
    }
}

#[test]
fn a_case_closed_on_one_instance_refuses_every_move_on_another() {
    let team = team();
    let elsewhere = another_instance(&team);
    let actions = [
        "resolved",
        "need_lead_info",
        "escalate",
        "provide_update",
        "lead_asked",
        "lead_unresponsive",
        "cancel",
        "cancel_many",
        "assign",
    ];
    for (n, closing) in
        [CaseStatus::Resolved, CaseStatus::Escalated, CaseStatus::Cancelled].into_iter().enumerate()
    {
        let id = case_in(&team, &format!("conv-{n}"), closing);
        let before = snapshot(&team, &id);
        for action in actions {
            let err = attempt(&elsewhere, &id, action).unwrap_err();
            assert_eq!(err.code(), "invalid_transition", "{closing:?} {action}");
        }
        assert_eq!(snapshot(&team, &id), before, "{closing:?}");
    }
}

#[test]
fn a_reply_s_event_and_delivery_are_seen_together_by_another_instance() {
    let team = team();
    let elsewhere = another_instance(&team);
    let id = open(&team, "conv-1").id;
    let (_, delivery) = team.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
    let seen = events(&elsewhere, &id);
    assert_eq!(seen.iter().map(|e| e.kind).collect::<Vec<_>>(), [EventKind::Opened, EventKind::HumanReplied]);
    assert_eq!(deliveries(&elsewhere, &id), vec![delivery.clone()]);
    assert_eq!(delivery.event_seq, seen[1].seq);
}

#[test]
fn an_invalid_reply_writes_neither_event_nor_delivery() {
    let team = team();
    let id = case_in(&team, "conv-1", CaseStatus::Resolved);
    let before = snapshot(&team, &id);
    assert_eq!(
        team.reply(&id, HumanAction::Resolved, "Again.", "Ana").unwrap_err().code(),
        "invalid_transition"
    );
    assert_eq!(team.reply(&id, HumanAction::Resolved, " ", "Ana").unwrap_err().code(), "text_required");
    assert_eq!(snapshot(&team, &id), before);
}

#[test]
fn a_reply_whose_delivery_cannot_be_written_leaves_no_event_and_no_change() {
    let team = team();
    let id = open(&team, "conv-1").id;
    let before = snapshot(&team, &id);
    psql(
        team.url(),
        "CREATE FUNCTION outbox_down() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'outbox down'; END $$; \
         CREATE TRIGGER outbox_down BEFORE INSERT ON deliveries FOR EACH ROW EXECUTE FUNCTION outbox_down()",
    );
    let err = team.reply(&id, HumanAction::Resolved, "Refund issued.", "Ana").unwrap_err();
    assert_eq!(err.code(), "team_db_error");
    assert_eq!(snapshot(&team, &id), before);
}
