//! SPEC B2: every transition, every refused one, one open case per conversation, gap-free
//! numbers when several instances open cases at once, racing moves on one case taking turns, a
//! reply's event and delivery written together or not at all, and the append-only timeline.

use serde_json::json;
use skillcase_cases::model::{
    Actor, CaseSource, CaseStatus, DeliveryAction, DeliveryState, EventKind, HumanAction,
};
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::sql::{Dialect, Storage};
use skillcase_cases::{CasesError, CasesRepository};
use skillcase_common::error::Coded;

use crate::support::{at_once, ids, refund_case, Db};

/// Every move a person, the agent or a bulk action can ask for, by the name it is refused under.
fn attempt(db: &Db, id: &str, action: &str) -> Result<(), CasesError> {
    match action {
        "resolved" => db.reply(id, HumanAction::Resolved, "done", "Ana").map(|_| ()),
        "need_lead_info" => db.reply(id, HumanAction::NeedLeadInfo, "ask", "Ana").map(|_| ()),
        "escalate" => db.reply(id, HumanAction::Escalate, "why", "Ana").map(|_| ()),
        "provide_update" => db.provide_update(id, "info").map(|_| ()),
        "lead_asked" => db.record_lead_asked(id, Some("q")).map(|_| ()),
        "lead_unresponsive" => db.record_lead_unresponsive(id, None).map(|_| ()),
        "cancel_many" => db.cancel_many(&ids(&[id]), "Ana", "Spam").map(|_| ()),
        "assign" => db.assign(&ids(&[id]), Some("Ana"), "Ana").map(|_| ()),
        _ => db.cancel(id, Actor::Human, Some("Ana"), None).map(|_| ()),
    }
}

// Opening.

on_both! {
    fn opening_a_case_starts_it_awaiting_human_with_number_1001_and_an_opened_event(db) {
        let outcome = db.open_case(refund_case("conv-1")).unwrap();
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
        let timeline = db.events(&case.id);
        assert_eq!(timeline.len(), 1);
        assert_eq!((timeline[0].kind, timeline[0].actor), (EventKind::Opened, Actor::Agent));
        assert_eq!(timeline[0].actor_name.as_deref(), Some("support-bot"));
        assert_eq!(timeline[0].payload, json!({ "source": "agent", "reason": "policy_restriction" }));
    }
}

on_both! {
    fn a_guardrail_case_is_opened_by_the_system(db) {
        let mut new = refund_case("conv-1");
        new.source = CaseSource::GuardrailAutofallback;
        new.reason = HandoverReason::GuardrailAutofallback;
        let case = db.open_case(new).unwrap().case;
        assert_eq!(
            (case.source, case.reason),
            (CaseSource::GuardrailAutofallback, HandoverReason::GuardrailAutofallback)
        );
        assert_eq!(db.events(&case.id)[0].actor, Actor::System);
    }
}

on_both! {
    fn opening_again_for_the_same_conversation_returns_the_open_case(db) {
        let first = db.open_case(refund_case("conv-1")).unwrap().case;
        let mut other = refund_case("conv-1");
        other.title = "Something else".into();
        let second = db.open_case(other).unwrap();
        assert!(second.already_open);
        assert_eq!(second.case, first);
        assert_eq!(db.int("SELECT count(*) FROM cases"), 1);
        assert_eq!(db.kinds(&first.id), vec![EventKind::Opened]);
    }
}

on_both! {
    fn a_closed_case_lets_the_conversation_open_a_new_one_with_the_next_number(db) {
        let first = db.case_in("conv-1", CaseStatus::Resolved);
        let second = db.open_case(refund_case("conv-1")).unwrap();
        assert!(!second.already_open);
        assert_ne!(second.case.id, first);
        assert_eq!(second.case.number, 1002);
        assert_eq!(db.open_case_of("conv-1").unwrap().id, second.case.id);
    }
}

on_both! {
    fn a_case_without_title_summary_or_conversation_is_refused_and_nothing_is_stored(db) {
        for (field, blank) in [("conversation_id", 0), ("title", 1), ("summary", 2)] {
            let mut new = refund_case("conv-1");
            match blank {
                0 => new.conversation_id = "  ".into(),
                1 => new.title = "".into(),
                _ => new.summary = "\n".into(),
            }
            let err = db.open_case(new).unwrap_err();
            assert_eq!(err.code(), "text_required");
            assert_eq!(err.details().unwrap()["field"], field);
        }
        let mut long = refund_case("conv-1");
        long.title = "x".repeat(201);
        let err = db.open_case(long).unwrap_err();
        assert_eq!(err.code(), "invalid_case_input");
        assert_eq!(err.to_string(), "title is 201 characters long; at most 200 are allowed");
        assert_eq!(db.int("SELECT count(*) FROM cases"), 0);
    }
}

on_both! {
    fn an_agent_case_claiming_the_guardrails_reason_is_refused_and_nothing_is_written(db) {
        let mut new = refund_case("conv-1");
        new.reason = HandoverReason::GuardrailAutofallback;
        assert_eq!(db.open_case(new).unwrap_err().code(), "invalid_reason");
        assert_eq!(db.int("SELECT count(*) FROM cases"), 0);
    }
}

// Replies and the agent's moves.

on_both! {
    fn resolving_closes_the_case_and_writes_reply_event_and_delivery_together(db) {
        let id = db.case_in("conv-1", CaseStatus::AwaitingHuman);
        let (after, delivery) =
            db.reply(&id, HumanAction::Resolved, "  Refund issued today.  ", "Ana").unwrap();
        let case = &after.case;
        assert_eq!(case.status, CaseStatus::Resolved);
        assert_eq!(case.waiting_since, None);
        assert_eq!(case.closed_at.as_deref(), Some(case.updated_at.as_str()));
        let timeline = db.events(&id);
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
        assert_eq!(db.deliveries(&id), vec![delivery]);
    }
}

on_both! {
    fn a_reply_returns_the_case_as_it_left_it_with_its_timeline(db) {
        let id = db.case_in("conv-1", CaseStatus::AwaitingHuman);
        let (after, delivery) = db.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        assert_eq!(after.case, db.case(&id));
        assert_eq!(after.events, db.events(&id));
        assert_eq!(after.deliveries, vec![delivery]);
    }
}

on_both! {
    fn a_reply_marks_the_case_read_for_the_person_who_sent_it(db) {
        let id = db.case_in("conv-1", CaseStatus::AwaitingHuman);
        db.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        let unread = db.read(|sql| skillcase_cases::reads::is_unread(sql, &id)).unwrap();
        assert!(!unread);
        assert_eq!(db.tab_counts().unwrap().unread, 0);
    }
}

on_both! {
    fn the_reply_s_delivery_carries_the_case_and_the_text_for_the_agent(db) {
        let id = db.case_in("conv-1", CaseStatus::AwaitingHuman);
        let (_, delivery) =
            db.reply(&id, HumanAction::NeedLeadInfo, "Ask for the last 4 digits.", "Ana").unwrap();
        let body = db.body(&delivery.id);
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
}

on_both! {
    fn needing_lead_info_waits_on_the_lead_from_now(db) {
        let opened = db.open_case(refund_case("conv-1")).unwrap().case;
        std::thread::sleep(std::time::Duration::from_millis(5));
        let (after, delivery) =
            db.reply(&opened.id, HumanAction::NeedLeadInfo, "Ask for the last 4 digits.", "Ana").unwrap();
        let case = after.case;
        assert_eq!(case.status, CaseStatus::AwaitingLead);
        assert_eq!(case.waiting_since.as_deref(), Some(case.updated_at.as_str()));
        assert!(case.waiting_since > opened.waiting_since);
        assert_eq!((case.closed_at, delivery.action), (None, DeliveryAction::NeedLeadInfo));
        assert_eq!(db.kinds(&opened.id), vec![EventKind::Opened, EventKind::HumanReplied]);
    }
}

on_both! {
    fn a_reply_keeps_every_promise_the_case_owed(db) {
        let id = db.open("conv-1");
        db.set(
            &id,
            "promise_quote = 'I will call you tomorrow', promise_due_at = '2026-12-01T12:00:00.000Z', \
             promise_overdue_told = true",
        );
        db.reply(&id, HumanAction::Escalate, "Finance decides.", "Ana").unwrap();
        let owed = &db.rows(&format!(
            "SELECT promise_quote, promise_due_at, promise_overdue_told FROM cases WHERE id = '{id}'"
        ))[0];
        assert_eq!(
            (owed.opt_text(0).unwrap(), owed.opt_text(1).unwrap(), owed.bool(2).unwrap()),
            (None, None, false)
        );
    }
}

on_both! {
    fn the_agent_providing_an_update_puts_the_case_back_with_the_person(db) {
        let id = db.case_in("conv-1", CaseStatus::AwaitingLead);
        let before = db.case(&id);
        std::thread::sleep(std::time::Duration::from_millis(5));
        let after = db.provide_update(&id, "Card ending 4242.").unwrap();
        assert_eq!(after.status, CaseStatus::AwaitingHuman);
        assert_eq!(after.waiting_since.as_deref(), Some(after.updated_at.as_str()));
        assert!(after.waiting_since > before.waiting_since);
        let last = db.events(&id).pop().unwrap();
        assert_eq!(
            (last.kind, last.actor, last.actor_name.as_deref()),
            (EventKind::LeadProvided, Actor::Agent, Some("support-bot"))
        );
        assert_eq!(last.payload, json!({ "info": "Card ending 4242." }));
    }
}

on_both! {
    fn a_blank_update_is_refused_and_changes_nothing(db) {
        let id = db.case_in("conv-1", CaseStatus::AwaitingLead);
        let before = db.snapshot(&id);
        assert_eq!(db.provide_update(&id, "   ").unwrap_err().code(), "text_required");
        assert_eq!(db.snapshot(&id), before);
    }
}

on_both! {
    fn asking_the_lead_and_losing_them_keep_the_case_waiting_on_the_lead_since_the_question(db) {
        let id = db.case_in("conv-1", CaseStatus::AwaitingLead);
        let waiting = db.case(&id).waiting_since;
        let asked = db.record_lead_asked(&id, Some("Which card?")).unwrap();
        let lost = db.record_lead_unresponsive(&id, None).unwrap();
        assert_eq!((asked.status, lost.status), (CaseStatus::AwaitingLead, CaseStatus::AwaitingLead));
        assert_eq!(lost.waiting_since, waiting);
        let timeline = db.events(&id);
        assert_eq!(
            (timeline[2].kind, &timeline[2].payload),
            (EventKind::LeadAsked, &json!({ "text": "Which card?" }))
        );
        assert_eq!((timeline[3].kind, &timeline[3].payload), (EventKind::LeadUnresponsive, &json!({})));
    }
}

on_both! {
    fn escalating_works_from_both_open_states(db) {
        for (conversation, from) in [("a", CaseStatus::AwaitingHuman), ("b", CaseStatus::AwaitingLead)] {
            let id = db.case_in(conversation, from);
            let (after, delivery) =
                db.reply(&id, HumanAction::Escalate, "Customer threatens legal action.", "Ana").unwrap();
            assert_eq!(after.case.status, CaseStatus::Escalated);
            assert!(after.case.closed_at.is_some());
            assert_eq!(delivery.action, DeliveryAction::Escalate);
            assert_eq!(db.kinds(&id).last(), Some(&EventKind::Escalated));
        }
    }
}

on_both! {
    fn the_agent_or_a_person_can_cancel_from_both_open_states_and_nothing_is_sent(db) {
        let cases =
            [("a", CaseStatus::AwaitingHuman, Actor::Agent), ("b", CaseStatus::AwaitingLead, Actor::Human)];
        for (conversation, from, actor) in cases {
            let id = db.case_in(conversation, from);
            let deliveries_before = db.deliveries(&id);
            let case = db.cancel(&id, actor, Some("  someone "), Some("Opened by mistake")).unwrap();
            assert_eq!((case.status, case.waiting_since), (CaseStatus::Cancelled, None));
            let last = db.events(&id).pop().unwrap();
            assert_eq!(
                (last.kind, last.actor, last.actor_name.as_deref()),
                (EventKind::Cancelled, actor, Some("someone"))
            );
            assert_eq!(last.payload, json!({ "reason": "Opened by mistake" }));
            assert_eq!(db.deliveries(&id), deliveries_before, "a cancel sends nothing");
        }
    }
}

on_both! {
    fn only_the_agent_or_a_person_may_cancel(db) {
        let id = db.case_in("conv-1", CaseStatus::AwaitingHuman);
        let before = db.snapshot(&id);
        assert_eq!(db.cancel(&id, Actor::Lead, None, None).unwrap_err().code(), "invalid_case_input");
        assert_eq!(db.snapshot(&id), before);
    }
}

on_both! {
    /// Every move that is not in the SPEC B2 table, from every status.
    fn every_transition_outside_the_table_is_invalid_and_changes_nothing(db) {
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
            let id = db.case_in(&format!("conv-{n}"), *from);
            let before = db.snapshot(&id);
            let err = attempt(db, &id, action).unwrap_err();
            assert_eq!(err.code(), "invalid_transition", "{from:?} {action}");
            assert_eq!(err.details().unwrap(), json!({ "from": from.as_str(), "action": action }));
            assert_eq!(db.snapshot(&id), before, "{from:?} {action} changed something");
        }
    }
}

on_both! {
    fn an_invalid_transition_says_what_was_refused(db) {
        let id = db.case_in("conv-1", CaseStatus::Resolved);
        let err = db.reply(&id, HumanAction::Escalate, "late", "Ana").unwrap_err();
        assert_eq!(err.to_string(), "a case that is resolved cannot take the action escalate");
    }
}

on_both! {
    fn a_closed_case_refuses_a_blank_reply_as_text_required_and_changes_nothing(db) {
        let id = db.case_in("conv-1", CaseStatus::Resolved);
        let before = db.snapshot(&id);
        assert_eq!(db.reply(&id, HumanAction::Resolved, " ", "Ana").unwrap_err().code(), "text_required");
        assert_eq!(db.snapshot(&id), before);
    }
}

on_both! {
    fn every_human_action_requires_text_and_a_name_and_changes_nothing_without(db) {
        let id = db.case_in("conv-1", CaseStatus::AwaitingHuman);
        let before = db.snapshot(&id);
        for action in [HumanAction::Resolved, HumanAction::NeedLeadInfo, HumanAction::Escalate] {
            let err = db.reply(&id, action, " \t\n", "Ana").unwrap_err();
            assert_eq!(err.code(), "text_required");
            assert_eq!(err.to_string(), "text is required and must not be blank");
            let err = db.reply(&id, action, "fine", "").unwrap_err();
            assert_eq!(err.details().unwrap()["field"], "actor_name");
        }
        assert_eq!(db.snapshot(&id), before);
    }
}

on_both! {
    fn an_unknown_case_is_not_found_for_every_transition(db) {
        let missing = "00000000-0000-4000-8000-000000000000";
        for action in [
            "resolved",
            "provide_update",
            "lead_asked",
            "lead_unresponsive",
            "cancel",
            "cancel_many",
            "assign",
        ] {
            let err = attempt(db, missing, action).unwrap_err();
            assert_eq!(err.code(), "case_not_found", "{action}");
            assert_eq!(err.details().unwrap()["id"], missing, "{action}");
        }
        assert_eq!(db.get_case(missing).unwrap_err().code(), "case_not_found");
    }
}

on_both! {
    fn a_reply_whose_delivery_cannot_be_written_leaves_no_event_and_no_change(db) {
        let id = db.open("conv-1");
        let before = db.snapshot(&id);
        db.ddl(match db.dialect() {
            Dialect::Sqlite => {
                "CREATE TRIGGER outbox_down BEFORE INSERT ON deliveries BEGIN SELECT RAISE(ABORT, 'outbox down'); END"
            }
            Dialect::Postgres => {
                "CREATE FUNCTION outbox_down() RETURNS trigger LANGUAGE plpgsql AS \
                 $$ BEGIN RAISE EXCEPTION 'outbox down'; END $$; \
                 CREATE TRIGGER outbox_down BEFORE INSERT ON deliveries FOR EACH ROW EXECUTE FUNCTION outbox_down()"
            }
        });
        let err = db.reply(&id, HumanAction::Resolved, "Refund issued.", "Ana").unwrap_err();
        assert!(matches!(err, CasesError::Storage { .. }), "{err:?}");
        assert!(err.to_string().contains("outbox down"), "{err}");
        assert_eq!(db.snapshot(&id), before);
    }
}

// The timeline is append-only.

on_both! {
    fn the_database_refuses_to_update_or_delete_events(db) {
        let id = db.open("conv-1");
        let update = db.try_exec(&format!("UPDATE case_events SET actor = 'human' WHERE case_id = '{id}'"));
        let update = update.unwrap_err().to_string();
        assert!(update.contains("case_events is append-only"), "{update}");
        let delete = db.try_exec(&format!("DELETE FROM case_events WHERE case_id = '{id}'"));
        let delete = delete.unwrap_err().to_string();
        assert!(delete.contains("case_events is append-only"), "{delete}");
        let events = db.events(&id);
        assert_eq!((events.len(), events[0].actor), (1, Actor::Agent));
    }
}

#[test]
fn no_code_updates_or_deletes_events() {
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut offenders = Vec::new();
    let mut stack: Vec<_> = std::fs::read_dir(crates)
        .unwrap()
        .map(|c| c.unwrap().path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
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

// Several instances on one inbox.

on_both! {
    fn eight_threads_on_two_instances_opening_the_same_conversation_make_exactly_one_case(db) {
        let outcomes =
            at_once(db, 8, |instance, _| instance.open_case(refund_case("same-conversation")).unwrap());
        let created = outcomes.iter().filter(|o| !o.already_open).count();
        let ids: std::collections::HashSet<_> = outcomes.iter().map(|o| o.case.id.clone()).collect();
        assert_eq!((created, ids.len()), (1, 1));
        assert_eq!(db.int("SELECT count(*) FROM cases"), 1);
        assert_eq!(db.int("SELECT count(*) FROM case_events"), 1);
        assert_eq!(db.int("SELECT next FROM case_counter"), 1002, "the refused attempts used no number");
    }
}

on_both! {
    fn forty_cases_opened_at_once_on_two_instances_get_numbers_1001_to_1040_without_gaps_or_duplicates(db) {
        let per_thread = at_once(db, 8, |instance, n| {
            (0..5)
                .map(|k| instance.open_case(refund_case(&format!("conv-{n}-{k}"))).unwrap().case.number)
                .collect::<Vec<_>>()
        });
        let mut numbers: Vec<i64> = per_thread.into_iter().flatten().collect();
        numbers.sort();
        assert_eq!(numbers, (1001..=1040).collect::<Vec<_>>());
    }
}

on_both! {
    fn a_reply_and_a_cancel_racing_on_one_case_take_turns_and_the_loser_leaves_nothing_behind(db) {
        for round in 0..10 {
            let id = db.open(&format!("conv-{round}"));
            let outcomes = at_once(db, 2, |instance, n| match n {
                0 => instance.reply(&id, HumanAction::Resolved, "Refund issued.", "Ana").map(|_| "reply"),
                _ => instance.cancel(&id, Actor::Human, Some("Bruno"), Some("duplicate")).map(|_| "cancel"),
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
            let outcome = (db.case(&id).status, db.kinds(&id), db.deliveries(&id).len());
            assert_eq!(outcome, expected, "round {round}");
        }
    }
}

on_both! {
    fn a_case_closed_on_one_instance_refuses_every_move_on_another(db) {
        let elsewhere = db.another_instance();
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
            let id = db.case_in(&format!("conv-{n}"), closing);
            let before = db.snapshot(&id);
            for action in actions {
                let err = attempt(&elsewhere, &id, action).unwrap_err();
                assert_eq!(err.code(), "invalid_transition", "{closing:?} {action}");
            }
            assert_eq!(db.snapshot(&id), before, "{closing:?}");
        }
    }
}

on_both! {
    fn a_reply_s_event_and_delivery_are_seen_together_by_another_instance(db) {
        let elsewhere = db.another_instance();
        let id = db.open("conv-1");
        let (_, delivery) = db.reply(&id, HumanAction::NeedLeadInfo, "Which card?", "Ana").unwrap();
        let seen = elsewhere.events(&id);
        assert_eq!(
            seen.iter().map(|e| e.kind).collect::<Vec<_>>(),
            [EventKind::Opened, EventKind::HumanReplied]
        );
        assert_eq!(elsewhere.deliveries(&id), vec![delivery.clone()]);
        assert_eq!(delivery.event_seq, seen[1].seq);
    }
}
