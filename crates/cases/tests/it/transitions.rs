//! SPEC B2: every transition, every refused one, one open case per conversation, gap-free
//! numbers under concurrency, and the append-only timeline — on real SQLite files.

mod support;

use rusqlite::Connection;
use skillcase_cases::model::{
    Actor, CaseSource, CaseStatus, DeliveryAction, DeliveryState, EventKind, HumanAction,
};
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::store::{find_case, get_case, open_case_for_conversation};
use skillcase_cases::transition::{
    cancel, open_case, provide_update, record_lead_asked, record_lead_unresponsive, reply,
};
use skillcase_cases::{CasesRepository, SqliteCases};
use skillcase_common::error::Coded;
use skillcase_store::Database;
use support::{new_db, refund_case};

/// Everything a refused transition must leave untouched: the case row, the timeline and the
/// outbox.
fn snapshot(conn: &Connection, case_id: &str) -> String {
    let case = get_case(conn, case_id).unwrap();
    let all_events: i64 = conn.query_row("SELECT count(*) FROM case_events", [], |r| r.get(0)).unwrap();
    let all_deliveries: i64 = conn.query_row("SELECT count(*) FROM deliveries", [], |r| r.get(0)).unwrap();
    format!("{}|{all_events}|{all_deliveries}", serde_json::to_string(&case).unwrap())
}

fn kinds(conn: &Connection, case_id: &str) -> Vec<EventKind> {
    get_case(conn, case_id).unwrap().events.into_iter().map(|e| e.kind).collect()
}

/// Brings a fresh case to `status` through legal transitions.
fn case_in(conn: &Connection, conversation: &str, status: CaseStatus) -> String {
    let id = open_case(conn, refund_case(conversation)).unwrap().case.id;
    match status {
        CaseStatus::AwaitingHuman => {}
        CaseStatus::AwaitingLead => {
            reply(conn, &id, HumanAction::NeedLeadInfo, "Which card was charged?", "Ana").unwrap();
        }
        CaseStatus::Resolved => {
            reply(conn, &id, HumanAction::Resolved, "Refund issued.", "Ana").unwrap();
        }
        CaseStatus::Escalated => {
            reply(conn, &id, HumanAction::Escalate, "Legal threat.", "Ana").unwrap();
        }
        CaseStatus::Cancelled => {
            cancel(conn, &id, Actor::Agent, None, Some("lead gave up")).unwrap();
        }
    }
    assert_eq!(find_case(conn, &id).unwrap().status, status);
    id
}

#[test]
fn opening_a_case_starts_it_awaiting_human_with_number_1001_and_an_opened_event() {
    let (_dir, _path, conn) = new_db();
    let outcome = open_case(&conn, refund_case("conv-1")).unwrap();
    let case = outcome.case;
    assert!(!outcome.already_open);
    assert_eq!(case.number, 1001);
    assert_eq!(case.status, CaseStatus::AwaitingHuman);
    assert_eq!(case.title, "Refund for a double charge");
    assert_eq!(case.lead.name.as_deref(), Some("Maria Souza"));
    assert_eq!(case.context[0].text, "I was charged twice!");
    assert_eq!(case.source, CaseSource::Agent);
    assert_eq!(case.waiting_since.as_deref(), Some(case.opened_at.as_str()));
    assert_eq!(case.closed_at, None);
    let timeline = get_case(&conn, &case.id).unwrap();
    assert_eq!(timeline.events.len(), 1);
    assert_eq!((timeline.events[0].kind, timeline.events[0].actor), (EventKind::Opened, Actor::Agent));
    assert_eq!(timeline.events[0].actor_name.as_deref(), Some("support-bot"));
}

#[test]
fn a_guardrail_case_is_opened_by_the_system() {
    let (_dir, _path, conn) = new_db();
    let mut new = refund_case("conv-1");
    new.source = CaseSource::GuardrailAutofallback;
    new.reason = HandoverReason::GuardrailAutofallback;
    let case = open_case(&conn, new).unwrap().case;
    assert_eq!(case.source, CaseSource::GuardrailAutofallback);
    assert_eq!(case.reason, HandoverReason::GuardrailAutofallback);
    assert_eq!(get_case(&conn, &case.id).unwrap().events[0].actor, Actor::System);
}

#[test]
fn opening_again_for_the_same_conversation_returns_the_open_case() {
    let (_dir, _path, conn) = new_db();
    let first = open_case(&conn, refund_case("conv-1")).unwrap().case;
    let mut other = refund_case("conv-1");
    other.title = "Something else".into();
    let second = open_case(&conn, other).unwrap();
    assert!(second.already_open);
    assert_eq!(second.case, first);
    let cases: i64 = conn.query_row("SELECT count(*) FROM cases", [], |r| r.get(0)).unwrap();
    assert_eq!(cases, 1);
    assert_eq!(kinds(&conn, &first.id), vec![EventKind::Opened]);
}

#[test]
fn a_closed_case_lets_the_conversation_open_a_new_one_with_the_next_number() {
    let (_dir, _path, conn) = new_db();
    let first = case_in(&conn, "conv-1", CaseStatus::Resolved);
    let second = open_case(&conn, refund_case("conv-1")).unwrap();
    assert!(!second.already_open);
    assert_ne!(second.case.id, first);
    assert_eq!(second.case.number, 1002);
    assert_eq!(open_case_for_conversation(&conn, "conv-1").unwrap().unwrap().id, second.case.id);
}

#[test]
fn a_case_without_title_summary_or_conversation_is_refused() {
    let (_dir, _path, conn) = new_db();
    for (field, blank) in [("conversation_id", 0), ("title", 1), ("summary", 2)] {
        let mut new = refund_case("conv-1");
        match blank {
            0 => new.conversation_id = "  ".into(),
            1 => new.title = "".into(),
            _ => new.summary = "\n".into(),
        }
        let err = open_case(&conn, new).unwrap_err();
        assert_eq!(err.code(), "text_required");
        assert_eq!(err.details().unwrap()["field"], field);
    }
    let mut long = refund_case("conv-1");
    long.title = "x".repeat(201);
    let err = open_case(&conn, long).unwrap_err();
    assert_eq!(err.code(), "invalid_case_input");
    assert_eq!(err.to_string(), "title is 201 characters long; at most 200 are allowed");
    let cases: i64 = conn.query_row("SELECT count(*) FROM cases", [], |r| r.get(0)).unwrap();
    assert_eq!(cases, 0);
}

#[test]
fn resolving_closes_the_case_and_writes_reply_event_and_delivery_together() {
    let (_dir, _path, conn) = new_db();
    let id = case_in(&conn, "conv-1", CaseStatus::AwaitingHuman);
    let (case, delivery) =
        reply(&conn, &id, HumanAction::Resolved, "  Refund issued today.  ", "Ana").unwrap();
    assert_eq!(case.status, CaseStatus::Resolved);
    assert_eq!(case.waiting_since, None);
    assert_eq!(case.closed_at.as_deref(), Some(case.updated_at.as_str()));
    let timeline = get_case(&conn, &id).unwrap();
    let replied = &timeline.events[1];
    assert_eq!((replied.kind, replied.actor), (EventKind::HumanReplied, Actor::Human));
    assert_eq!(replied.actor_name.as_deref(), Some("Ana"));
    assert_eq!(replied.payload["action"], "resolved");
    assert_eq!(replied.payload["text"], "Refund issued today.");
    assert_eq!(timeline.events[2].kind, EventKind::Resolved);
    assert_eq!(delivery.event_seq, replied.seq);
    assert_eq!(
        (delivery.state, delivery.attempts, delivery.action),
        (DeliveryState::Pending, 0, DeliveryAction::Resolved)
    );
    assert_eq!(timeline.deliveries, vec![delivery]);
}

#[test]
fn needing_lead_info_waits_on_the_lead_from_now() {
    let (_dir, _path, conn) = new_db();
    let id = case_in(&conn, "conv-1", CaseStatus::AwaitingHuman);
    let opened = find_case(&conn, &id).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(5));
    let (case, delivery) =
        reply(&conn, &id, HumanAction::NeedLeadInfo, "Ask for the last 4 digits.", "Ana").unwrap();
    assert_eq!(case.status, CaseStatus::AwaitingLead);
    assert_eq!(case.waiting_since.as_deref(), Some(case.updated_at.as_str()));
    assert!(case.waiting_since > opened.waiting_since);
    assert_eq!(case.closed_at, None);
    assert_eq!(delivery.action, DeliveryAction::NeedLeadInfo);
    assert_eq!(kinds(&conn, &id), vec![EventKind::Opened, EventKind::HumanReplied]);
}

#[test]
fn the_agent_providing_an_update_puts_the_case_back_with_the_person() {
    let (_dir, _path, conn) = new_db();
    let id = case_in(&conn, "conv-1", CaseStatus::AwaitingLead);
    let before = find_case(&conn, &id).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(5));
    let case = provide_update(&conn, &id, "Card ending 4242.").unwrap();
    assert_eq!(case.status, CaseStatus::AwaitingHuman);
    assert_eq!(case.waiting_since.as_deref(), Some(case.updated_at.as_str()));
    assert!(case.waiting_since > before.waiting_since);
    let last = get_case(&conn, &id).unwrap().events.pop().unwrap();
    assert_eq!((last.kind, last.actor), (EventKind::LeadProvided, Actor::Agent));
    assert_eq!(last.payload["info"], "Card ending 4242.");
}

#[test]
fn a_blank_update_is_refused_and_changes_nothing() {
    let (_dir, _path, conn) = new_db();
    let id = case_in(&conn, "conv-1", CaseStatus::AwaitingLead);
    let before = snapshot(&conn, &id);
    let err = provide_update(&conn, &id, "   ").unwrap_err();
    assert_eq!(err.code(), "text_required");
    assert_eq!(snapshot(&conn, &id), before);
}

#[test]
fn asking_the_lead_and_losing_them_keep_the_case_waiting_on_the_lead_since_the_question() {
    let (_dir, _path, conn) = new_db();
    let id = case_in(&conn, "conv-1", CaseStatus::AwaitingLead);
    let waiting = find_case(&conn, &id).unwrap().waiting_since;
    let asked = record_lead_asked(&conn, &id, Some("Which card?")).unwrap();
    let lost = record_lead_unresponsive(&conn, &id, None).unwrap();
    assert_eq!((asked.status, lost.status), (CaseStatus::AwaitingLead, CaseStatus::AwaitingLead));
    assert_eq!(lost.waiting_since, waiting);
    let events = get_case(&conn, &id).unwrap().events;
    assert_eq!(events[2].kind, EventKind::LeadAsked);
    assert_eq!(events[2].payload, serde_json::json!({ "text": "Which card?" }));
    assert_eq!(events[3].kind, EventKind::LeadUnresponsive);
    assert_eq!(events[3].payload, serde_json::json!({}));
}

#[test]
fn escalating_works_from_both_open_states() {
    let (_dir, _path, conn) = new_db();
    for (conversation, from) in [("a", CaseStatus::AwaitingHuman), ("b", CaseStatus::AwaitingLead)] {
        let id = case_in(&conn, conversation, from);
        let (case, delivery) =
            reply(&conn, &id, HumanAction::Escalate, "Customer threatens legal action.", "Ana").unwrap();
        assert_eq!(case.status, CaseStatus::Escalated);
        assert!(case.closed_at.is_some());
        assert_eq!(delivery.action, DeliveryAction::Escalate);
        assert_eq!(kinds(&conn, &id).last(), Some(&EventKind::Escalated));
    }
}

#[test]
fn the_agent_or_a_person_can_cancel_from_both_open_states() {
    let (_dir, _path, conn) = new_db();
    let cases =
        [("a", CaseStatus::AwaitingHuman, Actor::Agent), ("b", CaseStatus::AwaitingLead, Actor::Human)];
    for (conversation, from, actor) in cases {
        let id = case_in(&conn, conversation, from);
        let deliveries_before = get_case(&conn, &id).unwrap().deliveries;
        let case = cancel(&conn, &id, actor, Some("someone"), Some("Opened by mistake")).unwrap();
        assert_eq!(case.status, CaseStatus::Cancelled);
        assert_eq!(case.waiting_since, None);
        let last = get_case(&conn, &id).unwrap().events.pop().unwrap();
        assert_eq!((last.kind, last.actor), (EventKind::Cancelled, actor));
        assert_eq!(last.payload["reason"], "Opened by mistake");
        assert_eq!(get_case(&conn, &id).unwrap().deliveries, deliveries_before, "a cancel sends nothing");
    }
}

#[test]
fn only_the_agent_or_a_person_may_cancel() {
    let (_dir, _path, conn) = new_db();
    let id = case_in(&conn, "conv-1", CaseStatus::AwaitingHuman);
    let before = snapshot(&conn, &id);
    let err = cancel(&conn, &id, Actor::Lead, None, None).unwrap_err();
    assert_eq!(err.code(), "invalid_case_input");
    assert_eq!(snapshot(&conn, &id), before);
}

/// Every move that is not in the SPEC B2 table, from every status.
#[test]
fn every_transition_outside_the_table_is_invalid_and_changes_nothing() {
    let (_dir, _path, conn) = new_db();
    let refused: &[(CaseStatus, &str)] = &[
        (CaseStatus::AwaitingHuman, "provide_update"),
        (CaseStatus::AwaitingHuman, "lead_asked"),
        (CaseStatus::AwaitingHuman, "lead_unresponsive"),
        (CaseStatus::AwaitingLead, "resolved"),
        (CaseStatus::AwaitingLead, "need_lead_info"),
        (CaseStatus::Resolved, "resolved"),
        (CaseStatus::Resolved, "need_lead_info"),
        (CaseStatus::Resolved, "escalate"),
        (CaseStatus::Resolved, "provide_update"),
        (CaseStatus::Resolved, "lead_asked"),
        (CaseStatus::Resolved, "lead_unresponsive"),
        (CaseStatus::Resolved, "cancel"),
        (CaseStatus::Escalated, "resolved"),
        (CaseStatus::Escalated, "need_lead_info"),
        (CaseStatus::Escalated, "escalate"),
        (CaseStatus::Escalated, "provide_update"),
        (CaseStatus::Escalated, "lead_asked"),
        (CaseStatus::Escalated, "lead_unresponsive"),
        (CaseStatus::Escalated, "cancel"),
        (CaseStatus::Cancelled, "resolved"),
        (CaseStatus::Cancelled, "need_lead_info"),
        (CaseStatus::Cancelled, "escalate"),
        (CaseStatus::Cancelled, "provide_update"),
        (CaseStatus::Cancelled, "lead_asked"),
        (CaseStatus::Cancelled, "lead_unresponsive"),
        (CaseStatus::Cancelled, "cancel"),
    ];
    for (n, (from, action)) in refused.iter().enumerate() {
        let id = case_in(&conn, &format!("conv-{n}"), *from);
        let before = snapshot(&conn, &id);
        let err = match *action {
            "resolved" => reply(&conn, &id, HumanAction::Resolved, "done", "Ana").map(|_| ()),
            "need_lead_info" => reply(&conn, &id, HumanAction::NeedLeadInfo, "ask", "Ana").map(|_| ()),
            "escalate" => reply(&conn, &id, HumanAction::Escalate, "why", "Ana").map(|_| ()),
            "provide_update" => provide_update(&conn, &id, "info").map(|_| ()),
            "lead_asked" => record_lead_asked(&conn, &id, Some("q")).map(|_| ()),
            "lead_unresponsive" => record_lead_unresponsive(&conn, &id, None).map(|_| ()),
            _ => cancel(&conn, &id, Actor::Human, Some("Ana"), None).map(|_| ()),
        }
        .unwrap_err();
        assert_eq!(err.code(), "invalid_transition", "{from:?} {action}");
        assert_eq!(err.details().unwrap(), serde_json::json!({ "from": from.as_str(), "action": action }));
        assert_eq!(snapshot(&conn, &id), before, "{from:?} {action} changed something");
    }
}

#[test]
fn an_invalid_transition_says_what_was_refused() {
    let (_dir, _path, conn) = new_db();
    let id = case_in(&conn, "conv-1", CaseStatus::Resolved);
    let err = reply(&conn, &id, HumanAction::Escalate, "late", "Ana").unwrap_err();
    assert_eq!(err.to_string(), "a case that is resolved cannot take the action escalate");
}

#[test]
fn every_human_action_requires_text_and_a_name_and_changes_nothing_without() {
    let (_dir, _path, conn) = new_db();
    let id = case_in(&conn, "conv-1", CaseStatus::AwaitingHuman);
    let before = snapshot(&conn, &id);
    for action in [HumanAction::Resolved, HumanAction::NeedLeadInfo, HumanAction::Escalate] {
        let err = reply(&conn, &id, action, " \t\n", "Ana").unwrap_err();
        assert_eq!(err.code(), "text_required");
        assert_eq!(err.to_string(), "text is required and must not be blank");
        let err = reply(&conn, &id, action, "fine", "").unwrap_err();
        assert_eq!(err.details().unwrap()["field"], "actor_name");
    }
    assert_eq!(snapshot(&conn, &id), before);
}

#[test]
fn an_unknown_case_is_not_found_for_every_transition() {
    let (_dir, _path, conn) = new_db();
    let missing = "00000000-0000-4000-8000-000000000000";
    let errors = [
        reply(&conn, missing, HumanAction::Resolved, "x", "Ana").map(|_| ()).unwrap_err(),
        provide_update(&conn, missing, "x").map(|_| ()).unwrap_err(),
        record_lead_asked(&conn, missing, None).map(|_| ()).unwrap_err(),
        record_lead_unresponsive(&conn, missing, None).map(|_| ()).unwrap_err(),
        cancel(&conn, missing, Actor::Agent, None, None).map(|_| ()).unwrap_err(),
        get_case(&conn, missing).map(|_| ()).unwrap_err(),
    ];
    for err in errors {
        assert_eq!(err.code(), "case_not_found");
        assert_eq!(err.details().unwrap()["id"], missing);
    }
}

#[test]
fn eight_databases_opening_the_same_conversation_make_exactly_one_case() {
    let (dir, path, _conn) = new_db();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let (path, barrier) = (path.clone(), barrier.clone());
            std::thread::spawn(move || {
                let cases = SqliteCases::new(Database::open(&path).unwrap());
                barrier.wait();
                cases.open_case(refund_case("same-conversation")).unwrap()
            })
        })
        .collect();
    let outcomes: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let created = outcomes.iter().filter(|o| !o.already_open).count();
    let ids: std::collections::HashSet<_> = outcomes.iter().map(|o| o.case.id.clone()).collect();
    assert_eq!((created, ids.len()), (1, 1));
    let conn = skillcase_store::db::open(&path).unwrap();
    let cases: i64 = conn.query_row("SELECT count(*) FROM cases", [], |r| r.get(0)).unwrap();
    assert_eq!(cases, 1);
    drop(dir);
}

#[test]
fn eight_databases_opening_different_conversations_get_numbers_without_gaps_or_duplicates() {
    let (_dir, path, _conn) = new_db();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
    let handles: Vec<_> = (0..8)
        .map(|n| {
            let (path, barrier) = (path.clone(), barrier.clone());
            std::thread::spawn(move || {
                let cases = SqliteCases::new(Database::open(&path).unwrap());
                barrier.wait();
                (0..5)
                    .map(|k| cases.open_case(refund_case(&format!("conv-{n}-{k}"))).unwrap().case.number)
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut numbers: Vec<i64> = handles.into_iter().flat_map(|h| h.join().unwrap()).collect();
    numbers.sort();
    assert_eq!(numbers, (1001..1041).collect::<Vec<_>>());
}

#[test]
fn the_database_refuses_to_update_or_delete_events() {
    let (_dir, _path, conn) = new_db();
    let id = case_in(&conn, "conv-1", CaseStatus::AwaitingHuman);
    let update =
        conn.execute("UPDATE case_events SET actor = 'human' WHERE case_id = ?1", [&id]).unwrap_err();
    assert!(update.to_string().contains("case_events is append-only"), "{update}");
    let delete = conn.execute("DELETE FROM case_events WHERE case_id = ?1", [&id]).unwrap_err();
    assert!(delete.to_string().contains("case_events is append-only"), "{delete}");
    let events = get_case(&conn, &id).unwrap().events;
    assert_eq!((events.len(), events[0].actor), (1, Actor::Agent));
}

#[test]
fn no_code_updates_or_deletes_events() {
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut offenders = Vec::new();
    let mut stack: Vec<_> =
        std::fs::read_dir(crates).unwrap().map(|c| c.unwrap().path().join("src")).collect();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path)
                    .unwrap()
                    .to_lowercase()
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                if text.contains("update case_events") || text.contains("delete from case_events") {
                    offenders.push(path);
                }
            }
        }
    }
    assert_eq!(offenders, Vec::<std::path::PathBuf>::new());
}
