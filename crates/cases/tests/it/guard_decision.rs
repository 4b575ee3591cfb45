//! The before-send decision of the guardrail (SPEC B5) on a real database: a promise without
//! an open case is vetoed, the second veto of a turn opens a case, and every promise that passes
//! goes on its case's ledger.

use skillcase_cases::guard::*;
use skillcase_cases::model::{Actor, Case, CaseSource, CaseStatus, HumanAction, Lead, NewCase};
use skillcase_cases::reason::HandoverReason;
use skillcase_cases::sql::Storage;
use skillcase_cases::CasesRepository;
use skillcase_common::error::Coded;
use skillcase_guard::due::Calendar;
use skillcase_guard::SpanRole;

use crate::support::{at_once, Db};

const PROMISE: &str = "Vou verificar com a equipe financeira e te retorno ainda hoje.";

/// Monday to Friday, 09:00–18:00, in São Paulo.
fn calendar() -> Calendar {
    Calendar::named("America/Sao_Paulo").unwrap()
}

fn vetoes_in_turn(db: &Db, conversation: &str, turn: &str) -> i64 {
    db.read(|sql| skillcase_cases::veto::vetoes_in_turn(sql, conversation, turn)).unwrap()
}

fn ask(db: &Db, conversation: &str, turn: &str, message: &str) -> Verdict {
    let req = BeforeSend {
        conversation_id: conversation.into(),
        turn_id: turn.into(),
        message: message.into(),
        agent_id: None,
    };
    before_send(db, req, skillcase_guard::model(), &calendar).unwrap()
}

fn open_by_agent(db: &Db, conversation: &str) -> Case {
    let new = NewCase {
        conversation_id: conversation.into(),
        lead: Lead::default(),
        agent_id: None,
        title: "Estorno".into(),
        summary: "Cliente pede estorno".into(),
        blocker: None,
        context: vec![],
        source: CaseSource::Agent,
        reason: HandoverReason::PolicyRestriction,
    };
    db.open_case(new).unwrap().case
}

fn ledger(db: &Db, case_id: &str) -> Vec<skillcase_cases::promises::Promise> {
    db.get_case(case_id).unwrap().promises
}

on_both! {
    fn a_message_without_a_promise_passes_and_counts_nothing(db) {
        let verdict = ask(db, "c1", "t1", "Vou te mandar o link do rastreio.");
        assert_eq!(verdict.verdict, VerdictKind::Pass);
        assert_eq!((verdict.reason, verdict.evidence, verdict.vetoes_in_turn), (None, None, 0));
        assert_eq!(vetoes_in_turn(db, "c1", "t1"), 0);
    }
}

on_both! {
    fn a_promise_without_an_open_case_is_vetoed_with_the_teaching_message(db) {
        let verdict = ask(db, "c1", "t1", PROMISE);
        assert_eq!(verdict.verdict, VerdictKind::Veto);
        assert_eq!(
            verdict.reason.as_deref(),
            Some(
                "you promised a human follow-up without opening a case: open one, or rephrase without the promise \
                 (the promise: \"Vou verificar com a equipe financeira e te retorno ainda hoje.\")"
            )
        );
        assert_eq!(
            verdict.evidence.as_deref(),
            Some("Vou verificar com a equipe financeira e te retorno ainda hoje.")
        );
        assert!(verdict.spans.iter().any(|s| s.role == SpanRole::Action), "{:?}", verdict.spans);
        assert_eq!(verdict.vetoes_in_turn, 1);
        assert_eq!((verdict.open_case, verdict.auto_opened_case), (None, None));
        assert_eq!(db.open_case_of("c1"), None);
    }
}

on_both! {
    fn a_promise_in_a_conversation_with_an_open_case_passes_and_names_the_case(db) {
        let case = open_by_agent(db, "c1");
        let verdict = ask(db, "c1", "t1", PROMISE);
        assert_eq!(verdict.verdict, VerdictKind::Pass);
        assert_eq!(verdict.open_case, Some(CaseRef { id: case.id, number: case.number }));
        assert_eq!(verdict.auto_opened_case, None);
        assert_eq!(vetoes_in_turn(db, "c1", "t1"), 0);
    }
}

on_both! {
    fn the_second_veto_in_a_turn_opens_a_guardrail_case_and_passes(db) {
        assert_eq!(ask(db, "c1", "t1", PROMISE).verdict, VerdictKind::Veto);
        let verdict = ask(db, "c1", "t1", "Someone from billing will call you tomorrow. Anything else?");
        assert_eq!(verdict.verdict, VerdictKind::Pass);
        assert_eq!(verdict.vetoes_in_turn, 2);
        let auto = verdict.auto_opened_case.clone().expect("a case was opened");
        assert_eq!(verdict.open_case, Some(auto.clone()));
        assert!(verdict.reason.unwrap().contains(&format!("case #{} was opened automatically", auto.number)));

        let case = db.get_case(&auto.id).unwrap().case;
        assert_eq!(case.source, CaseSource::GuardrailAutofallback);
        assert_eq!(case.reason, HandoverReason::GuardrailAutofallback);
        assert_eq!(case.status, CaseStatus::AwaitingHuman);
        assert_eq!(case.conversation_id, "c1");
        assert_eq!(case.title, "Follow-up promised: Someone from billing will call you tomorrow.");
        assert!(case.summary.contains("twice in turn t1"), "{}", case.summary);
        assert!(case.summary.ends_with("Someone from billing will call you tomorrow. Anything else?"));
        assert_eq!(case.context[0].text, "Someone from billing will call you tomorrow. Anything else?");
    }
}

on_both! {
    fn an_auto_opened_case_of_a_portuguese_message_is_titled_in_portuguese(db) {
        ask(db, "c1", "t1", PROMISE);
        let auto = ask(db, "c1", "t1", PROMISE).auto_opened_case.unwrap();
        let case = db.get_case(&auto.id).unwrap().case;
        assert_eq!(
            case.title,
            "Retorno prometido: Vou verificar com a equipe financeira e te retorno ainda hoje."
        );
        assert!(case
            .blocker
            .unwrap()
            .contains("\"Vou verificar com a equipe financeira e te retorno ainda hoje.\""));
    }
}

on_both! {
    fn once_the_guardrail_opened_a_case_later_promises_in_the_turn_pass_without_a_second_case(db) {
        ask(db, "c1", "t1", PROMISE);
        let first = ask(db, "c1", "t1", PROMISE).auto_opened_case.unwrap();
        let third = ask(db, "c1", "t1", PROMISE);
        assert_eq!(third.verdict, VerdictKind::Pass);
        assert_eq!((third.open_case, third.auto_opened_case), (Some(first), None));
        assert_eq!(db.int("SELECT count(*) FROM cases"), 1);
    }
}

on_both! {
    fn vetoes_in_different_turns_or_conversations_do_not_add_up(db) {
        assert_eq!(ask(db, "c1", "t1", PROMISE).verdict, VerdictKind::Veto);
        assert_eq!(ask(db, "c1", "t2", PROMISE).verdict, VerdictKind::Veto);
        assert_eq!(ask(db, "c2", "t1", PROMISE).verdict, VerdictKind::Veto);
        assert_eq!(db.open_case_of("c1"), None);
    }
}

on_both! {
    fn a_rephrased_message_between_two_promises_does_not_reset_the_turn(db) {
        ask(db, "c1", "t1", PROMISE);
        assert_eq!(ask(db, "c1", "t1", "Vou te mandar o link.").verdict, VerdictKind::Pass);
        assert!(ask(db, "c1", "t1", PROMISE).auto_opened_case.is_some());
    }
}

on_both! {
    fn the_veto_count_is_kept_by_the_inbox_for_every_instance(db) {
        assert_eq!(ask(db, "c1", "t1", PROMISE).verdict, VerdictKind::Veto);
        let verdict = ask(&db.another_instance(), "c1", "t1", PROMISE);
        assert!(verdict.auto_opened_case.is_some());
    }
}

on_both! {
    fn concurrent_attempts_in_one_turn_on_two_instances_veto_once_and_open_exactly_one_case(db) {
        let verdicts = at_once(db, 4, |instance, _| ask(instance, "c1", "t1", PROMISE));
        let case = db.open_case_of("c1").expect("one case is open");
        let count = db.int("SELECT count(*) FROM cases");
        let vetoed = verdicts.iter().filter(|v| v.verdict == VerdictKind::Veto).count();
        let auto_opened = verdicts.iter().filter(|v| v.auto_opened_case.is_some()).count();
        assert_eq!((count, vetoed, auto_opened), (1, 1, 1));
        for passed in verdicts.iter().filter(|v| v.verdict == VerdictKind::Pass) {
            assert_eq!(passed.open_case.as_ref().map(|c| c.id.as_str()), Some(case.id.as_str()));
        }
    }
}

on_both! {
    fn a_closed_case_does_not_cover_a_new_promise(db) {
        let case = open_by_agent(db, "c1");
        db.cancel(&case.id, Actor::Agent, None, None).unwrap();
        assert_eq!(ask(db, "c1", "t9", PROMISE).verdict, VerdictKind::Veto);
    }
}

on_both! {
    fn a_blank_conversation_or_turn_is_refused_with_invalid_input(db) {
        for (conversation, turn, field) in [(" ", "t1", "conversation_id"), ("c1", "", "turn_id")] {
            let req = BeforeSend {
                conversation_id: conversation.into(),
                turn_id: turn.into(),
                message: PROMISE.into(),
                agent_id: None,
            };
            let err = before_send(db, req, skillcase_guard::model(), &calendar).unwrap_err();
            assert_eq!(err.code(), "invalid_input");
            assert_eq!(err.details(), Some(serde_json::json!({ "field": field })));
        }
    }
}

on_both! {
    fn a_turn_id_over_the_limit_is_refused(db) {
        let req = BeforeSend {
            conversation_id: "c1".into(),
            turn_id: "t".repeat(201),
            message: PROMISE.into(),
            agent_id: None,
        };
        let err = before_send(db, req, skillcase_guard::model(), &calendar).unwrap_err();
        assert_eq!(err.to_string(), "turn_id is 201 characters long; at most 200 are allowed");
    }
}

on_both! {
    fn the_verdict_serialises_with_a_lowercase_verdict_tag(db) {
        let json = serde_json::to_value(ask(db, "c1", "t1", "Someone from billing will call you.")).unwrap();
        assert_eq!(json["verdict"], "veto");
        assert_eq!(json["rule"], "model");
        assert_eq!(json["evidence"], "Someone from billing will call you.");
        assert_eq!(
            (json["vetoes_in_turn"].as_i64(), &json["open_case"]),
            (Some(1), &serde_json::Value::Null)
        );
        let roles: Vec<&str> =
            json["spans"].as_array().unwrap().iter().map(|s| s["role"].as_str().unwrap()).collect();
        assert!(roles.contains(&"actor") && roles.contains(&"action"), "{roles:?}");
    }
}

on_both! {
    fn a_promise_that_an_open_case_covers_goes_on_its_ledger_with_who_what_and_when(db) {
        let case = open_by_agent(db, "c1");
        ask(db, "c1", "t1", "A Letícia da contabilidade te liga amanhã cedo para acertar o estorno.");
        let promises = ledger(db, &case.id);
        assert_eq!(promises.len(), 1);
        let promise = &promises[0];
        assert_eq!(promise.quote, "A Letícia da contabilidade te liga amanhã cedo para acertar o estorno.");
        assert!(promise.actor.as_deref().is_some_and(|a| a.contains("Letícia")), "{promise:?}");
        assert_eq!(promise.due_text.as_deref(), Some("amanhã cedo"));
        assert!(
            promise.due_at.as_deref().is_some_and(|at| at > skillcase_cases::clock::now().as_str()),
            "{promise:?}"
        );
        assert!(!promise.kept);
        let owed = db.list_cases(&Default::default()).unwrap().items[0].promise.clone();
        assert_eq!(owed.map(|p| p.quote), Some(promise.quote.clone()));
    }
}

on_both! {
    fn the_case_the_second_veto_opens_carries_the_promise(db) {
        ask(db, "c1", "t1", PROMISE);
        let auto = ask(db, "c1", "t1", PROMISE).auto_opened_case.unwrap();
        let promises = ledger(db, &auto.id);
        assert_eq!(promises.len(), 1);
        assert_eq!(promises[0].due_text.as_deref(), Some("ainda hoje"));
    }
}

on_both! {
    fn the_same_promise_checked_again_in_a_turn_is_recorded_once(db) {
        let case = open_by_agent(db, "c1");
        ask(db, "c1", "t1", PROMISE);
        ask(db, "c1", "t1", PROMISE);
        ask(db, "c1", "t2", PROMISE);
        assert_eq!(ledger(db, &case.id).len(), 2);
    }
}

on_both! {
    fn a_persons_reply_keeps_the_promises_and_the_case_owes_none(db) {
        let case = open_by_agent(db, "c1");
        ask(db, "c1", "t1", PROMISE);
        db.reply(&case.id, HumanAction::Resolved, "Estorno feito.", "Ana").unwrap();
        assert!(ledger(db, &case.id)[0].kept);
        assert_eq!(db.list_cases(&Default::default()).unwrap().items[0].promise, None);
    }
}
